//! Mutation testing's equivalence proofs (`make fixtures`): each proof classifies the mutants
//! it should, no mutant it classifies equivalent is killed by a run, and neither is a mutant
//! the runs do not cover.

mod common;
use common::{claims, drop_labels, graph, graph_from, narrowing, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::state::{HeapValue, Interval, Ref};
use jtg_engine::{build_graph, Graph, Options, Program};
use jtg_jvm::Trace;
use jtg_mutate::{
    mutants, run_mutants, sample, Change, Coverage, Fate, Intervals, Mutant, Operator,
};

/// Runs of `n` generated inputs from the graph's start state.
fn runs(prog: &Program, g: &Graph, n: u64) -> Vec<Trace> {
    runs_sized(prog, g, n, 6)
}

/// Runs of `n` generated inputs from the graph's start state, sizes capped at `max_size`.
fn runs_sized(prog: &Program, g: &Graph, n: u64, max_size: usize) -> Vec<Trace> {
    traces(prog, g, n, max_size, 3)
}

#[test]
fn interval_invariant_follows_the_first_iteration_and_the_loop() {
    let prog = program();
    let g = graph(&prog, "ListOps.length");
    let inv = Intervals::of(&g, &prog, SEM);
    // node 15 is only entered from node 14 (n = 1) by an instance edge; node 28 from node 27
    // (n = 2) and from the loop's end (n = i9 + 1 with i9 ≥ 2)
    let at = |n: usize, r: u32| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(15, 5), Interval::literal(1));
    assert_eq!(at(22, 8), Interval::literal(2));
    assert_eq!(at(28, 9), Interval::at_least(2));
    assert_eq!(at(35, 12), Interval::at_least(3));
    let ms = mutants(&g, &prog, SEM);
    assert!(claims(
        narrowing(&ms, 15, Ref::Int(5), "1"),
        "interval invariant"
    ));
    assert!(claims(
        narrowing(&ms, 28, Ref::Int(9), "[≥1]"),
        "interval invariant"
    ));
    // wrong narrowings: the value 1 does occur at node 15, 2 at node 28
    assert!(narrowing(&ms, 15, Ref::Int(5), "0").equivalent.is_none());
    assert!(narrowing(&ms, 28, Ref::Int(9), "0").equivalent.is_none());
    // the start node takes every input: nothing narrowed there is equivalent
    assert!(ms
        .iter()
        .filter(|m| matches!(m.change, Change::SetInt(n, ..) if n == g.start))
        .all(|m| m.equivalent.is_none()));
}

#[test]
fn interval_invariant_does_not_cross_an_unlabelled_arithmetic_step() {
    // a hand-broken graph: without the label `i8 = i5 + 1`, nothing ties n after the
    // increment to n before it, so the increment's result keeps its own interval
    let prog = program();
    let mut g = graph(&prog, "ListOps.length");
    drop_labels(&mut g, 20, 22);
    let inv = Intervals::of(&g, &prog, SEM);
    let at = |n: usize, r: u32| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(20, 5), Interval::literal(1));
    assert_eq!(at(22, 8), Interval::new(Some(1), Some(2)).unwrap());
}

/// Every mutant claimed equivalent survives real runs, and so does every mutant the runs do
/// not cover (matched against them anyway), while the runs do kill others (so the comparison
/// can fail). At most 40 claims and 20 other mutants per graph, to keep the test short.
#[test]
fn no_proven_equivalent_and_no_uncovered_mutant_is_killed() {
    let prog = program();
    let (mut tried_claims, mut uncovered) = (0, 0);
    for spec in [
        "ListOps.length",
        "List.get",
        "ListOps.countPositive",
        "ListOps.hasCycle",
        "ListOps.removeFirst",
        "ListOps.reverse",
        "Types.depth",
        "Statics.clearLastPositive",
        "ListOps.copy",
        "Tree.size",
        "Floats.classify",
        "Lib.report",
        "Wide.floats",
    ] {
        let g = graph(&prog, spec);
        let (claimed, others): (Vec<Mutant>, Vec<Mutant>) = mutants(&g, &prog, SEM)
            .into_iter()
            .partition(|m| m.equivalent.is_some());
        tried_claims += claimed.len().min(40);
        let mut ms = sample(claimed, 40);
        ms.extend(sample(others, 20));
        let traces = runs(&prog, &g, 25);
        let rs: Vec<&dyn ConcreteRun> = traces.iter().map(|t| t as &dyn ConcreteRun).collect();
        let (cover, broken) = Coverage::of_runs(&g, &prog, SEM, &rs);
        assert_eq!(broken, 0, "{spec}");
        let fates = run_mutants(&g, &prog, SEM, &ms, &rs);
        let killed = common::killed_none_claimed(&ms, &fates, spec);
        assert!(killed > 0, "{spec}: no mutant killed");
        for (m, f) in ms.iter().zip(&fates) {
            if let Some(why) = cover.uncovered(&g, m) {
                uncovered += 1;
                assert!(
                    !matches!(f, Fate::Killed { .. }),
                    "{spec}: {} is killed but not covered ({why})",
                    m.description
                );
            }
        }
    }
    assert!(
        tried_claims >= 200 && uncovered >= 20,
        "{tried_claims} claims tried, {uncovered} uncovered mutants"
    );
}

#[test]
fn acyclic_join_needs_the_path_back_and_no_cycle() {
    // ListOps.reverse after `cur.next = prev`: `o6: List(next=o5)`, `o5: List(?)` without ⟲:
    // o6's object below o5 would close a cycle there, so `o5 %$ o6` is implied. The engine no
    // longer writes that redundant join itself (it did before the reach work), so the test
    // adds it to the first such node, as an older engine or another tool would have
    let prog = program();
    let g = graph(&prog, "ListOps.reverse");
    let n = g
        .nodes
        .iter()
        .position(|node| {
            matches!(
                node.state.value(Ref::Obj(6)),
                Some(HeapValue::Object { fields, .. }) if fields.get("next") == Some(&Ref::Obj(5))
            ) && matches!(
                node.state.value(Ref::Obj(5)),
                Some(HeapValue::Unknown { .. })
            )
        })
        .expect("a node after cur.next = prev");
    let mut g = g;
    g.nodes[n].state.preds.add_join(Ref::Obj(5), Ref::Obj(6));
    let d = format!("node {n}: drop o5 %$ o6");
    let find = |ms: &[Mutant]| {
        ms.iter()
            .find(|m| m.description == d)
            .unwrap_or_else(|| panic!("no mutant {d}"))
            .clone()
    };
    let ms = mutants(&g, &prog, SEM);
    assert!(claims(&find(&ms), "acyclic join"));
    // with o5⟲ the cycle is allowed, and the join is needed
    let mut h = g.clone();
    h.nodes[n]
        .state
        .preds
        .cyclic
        .insert(Ref::Obj(5), Default::default());
    let ms = mutants(&h, &prog, SEM);
    assert!(!claims(&find(&ms), "acyclic join"));
}

/// `narrow-counter`: the array counter of `GenInputs.count` narrowed to `[0,7]` at the loop
/// head survives inputs of the small sizes alone (`--max-size 6`) and is killed by those of
/// the default size schedule (every 8th case up to 64 elements).
#[test]
fn a_counter_narrowed_past_the_small_sizes_is_killed_by_the_size_schedule() {
    let prog = program();
    let g = graph(&prog, "GenInputs.count");
    let ms: Vec<Mutant> = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| m.operator == Operator::NarrowCounter && m.equivalent.is_none())
        .collect();
    let to = Interval::parse("[0,7]").expect("interval");
    assert!(
        ms.iter()
            .any(|m| matches!(m.change, Change::SetInt(_, _, iv) if iv == to)),
        "no counter narrowed to [0,7]: {:?}",
        ms.iter().map(|m| &m.description).collect::<Vec<_>>()
    );
    let fates = |max_size| {
        let traces = runs_sized(&prog, &g, 200, max_size);
        let rs: Vec<&dyn ConcreteRun> = traces.iter().map(|t| t as &dyn ConcreteRun).collect();
        run_mutants(&g, &prog, SEM, &ms, &rs)
    };
    let small = fates(6);
    assert!(
        small.iter().all(|f| *f == Fate::Survived),
        "small sizes already kill: {small:?}"
    );
    let default = fates(jtg_check::gen::DEFAULT_MAX_SIZE);
    for (m, f) in ms.iter().zip(&default) {
        assert!(
            matches!(f, Fate::Killed { .. }),
            "{} survives the default sizes",
            m.description
        );
    }
}

/// A static the start state lists is set by every input and known to the run from step 0,
/// whether or not code accesses it: `IntLoops.countDown` never touches `GenInputs.limit`, yet
/// a narrowing of it at the start node is not claimed unread, and runs kill it there.
#[test]
fn a_static_the_start_state_lists_is_read() {
    use jtg_engine::state::text::{parse_state, TextContext};
    let prog = program();
    let m = prog.find_method("IntLoops.countDown").expect("method");
    let text = "00 | x: i1 | ε\nstatic: GenInputs.limit=i2\ni1: Z  i2: [0,20]\n";
    let st = parse_state(text, &TextContext::for_method(m.clone(), &prog)).expect("state");
    let opts = Options {
        ints: SEM,
        ..Default::default()
    };
    let g = build_graph(&prog, &m, st, &opts).expect("graph");
    let limit = g.nodes[g.start].state.statics[&("GenInputs".to_string(), "limit".to_string())];
    let on_limit: Vec<Mutant> = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| matches!(m.change, Change::SetInt(n, r, _) if n == g.start && r == limit))
        .collect();
    assert!(!on_limit.is_empty(), "no mutant of GenInputs.limit");
    for m in &on_limit {
        assert!(
            m.equivalent.is_none(),
            "{} claimed equivalent: {:?}",
            m.description,
            m.equivalent
        );
    }
    let traces = runs(&prog, &g, 60);
    let rs: Vec<&dyn ConcreteRun> = traces.iter().map(|t| t as &dyn ConcreteRun).collect();
    let fates = run_mutants(&g, &prog, SEM, &on_limit, &rs);
    assert!(
        fates
            .iter()
            .all(|f| matches!(f, Fate::Killed { step: 0, .. })),
        "{fates:?}"
    );
}

/// `GenInputs.stamped` counts stamped nodes (`n`) while walking the list: the engine unrolls
/// the loop so that `n ≥ 2` holds at the later nodes, while the list's references keep
/// changing there. Each bound is widened after its own growth only, so `n`'s low bound
/// survives the other references' growth: low-end narrowings of `n` are claimed by the
/// interval invariant there (with widening per node they were lost), and no run kills one.
#[test]
fn widening_keeps_a_bound_another_reference_does_not_move() {
    let prog = program();
    let g = graph(&prog, "GenInputs.stamped");
    let claimed: Vec<Mutant> = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| {
            m.description.contains("narrowed at its low end to [≥1]")
                && m.equivalent
                    .as_deref()
                    .is_some_and(|w| w.starts_with("interval invariant") && w.contains("∈ [≥2]"))
        })
        .collect();
    assert!(claimed.len() >= 10, "{} claims", claimed.len());
    let traces = runs(&prog, &g, 100);
    let rs: Vec<&dyn ConcreteRun> = traces.iter().map(|t| t as &dyn ConcreteRun).collect();
    let fates = run_mutants(&g, &prog, SEM, &claimed, &rs);
    common::killed_none_claimed(&claimed, &fates, "GenInputs.stamped");
}

/// `Tree.size` keeps a work list of `Work` cells beside the `Tree`: `=?` between a `Work` and a
/// `Tree` reference is claimed **disjoint types**, between two `Tree` references never. The
/// engine writes no `=?` between unrelated classes any more (it did before the reach work), so
/// the test adds them to the graph, as an older engine or another tool would have.
#[test]
fn disjoint_types_need_classes_apart() {
    let prog = program();
    let mut g = graph(&prog, "Tree.size");
    let abstract_of = |st: &jtg_engine::state::State, class: &str| -> Vec<Ref> {
        st.heap
            .iter()
            .filter(|(_, v)| matches!(v, HeapValue::Unknown { ty } if ty.as_str() == class))
            .map(|(r, _)| *r)
            .collect()
    };
    // a node with an unknown Work and an unknown Tree, and one with two unknown Trees
    let mixed = (0..g.nodes.len())
        .find_map(|n| {
            let st = &g.nodes[n].state;
            let (w, t) = (abstract_of(st, "Work"), abstract_of(st, "Tree"));
            (!w.is_empty() && !t.is_empty()).then(|| (n, w[0], t[0]))
        })
        .expect("a node with Work(?) and Tree(?)");
    let trees = (0..g.nodes.len())
        .find_map(|n| {
            let t = abstract_of(&g.nodes[n].state, "Tree");
            (t.len() >= 2).then(|| (n, t[0], t[1]))
        })
        .expect("a node with two Tree(?)");
    for (n, a, b) in [mixed, trees] {
        g.nodes[n].state.preds.add_may_equal(a, b);
    }
    let ms = mutants(&g, &prog, SEM);
    let drop_of = |(n, a, b): (usize, Ref, Ref)| {
        ms.iter()
            .find(|m| {
                matches!(m.change, Change::RemoveMayEqual(k, x, y)
                    if k == n && ((x, y) == (a, b) || (x, y) == (b, a)))
            })
            .unwrap_or_else(|| panic!("no =? drop at node {n}"))
    };
    let m = drop_of(mixed);
    assert!(
        claims(m, "disjoint types"),
        "{}: {:?}",
        m.description,
        m.equivalent
    );
    let m = drop_of(trees);
    assert!(
        !claims(m, "disjoint types"),
        "{}: {:?}",
        m.description,
        m.equivalent
    );
    // every disjoint-types claim is between a Work and a Tree
    for m in ms.iter().filter(|m| claims(m, "disjoint types")) {
        let Change::RemoveMayEqual(n, a, b) = m.change else {
            panic!("{}: not a =? drop", m.description)
        };
        let st = &g.nodes[n].state;
        let ty = |r: Ref| {
            st.value(r)
                .and_then(|v| v.type_name())
                .unwrap_or("?")
                .to_string()
        };
        let mut both = [ty(a), ty(b)];
        both.sort();
        assert_eq!(
            both,
            ["Tree".to_string(), "Work".to_string()],
            "{}",
            m.description
        );
    }
}

#[test]
fn a_double_compared_with_itself_is_never_above_itself() {
    let prog = program();
    let g = graph(&prog, "Floats.classify");
    let inv = Intervals::of(&g, &prog, SEM);
    // node 3 follows `dcmpl d d` (`d != d`): -1 for NaN, else 0, never 1
    let at = |n: usize, r: u32| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(3, 2), Interval::new(Some(-1), Some(0)).unwrap());
    assert!(inv.nodes[6].is_none(), "the refinement to 1 is never taken");
    assert!(inv.nodes[4].is_some() && inv.nodes[5].is_some());
    // `dcmpl d 1.0` (pc 10) compares two values: all three results stay
    let cmp = g
        .nodes
        .iter()
        .position(|n| {
            n.state
                .top()
                .is_some_and(|f| f.pc == 11 && f.stack.len() == 1)
        })
        .expect("the result of the second comparison");
    let r = *g.nodes[cmp].state.top().unwrap().stack.last().unwrap();
    assert_eq!(
        inv.nodes[cmp].as_ref().expect("reached")[&r],
        Interval::new(Some(-1), Some(1)).unwrap()
    );
}

#[test]
fn a_cycle_permission_on_an_object_without_reference_fields_is_vacuous() {
    let prog = program();
    // `System.out` is a `PrintStream`, modelled and recorded without fields: the engine no
    // longer gives its first-access value a ⟲ at all (`Program::field_shapes`)
    let g = graph(&prog, "Lib.report");
    assert!(!mutants(&g, &prog, SEM)
        .iter()
        .any(|m| matches!(m.change, Change::RemoveCyclic(..))));
    // (nor, since branch `frame`, the NullPointerException a callee of `Expr.evaluate`
    // throws: the continuation's fresh values take their type's shapes; nor, since issue
    // #38's typed write rule, a string stored into an `Object[]`: it cannot reach the array);
    // a string given one by its start state keeps it, vacuously
    let g = graph(&prog, "everyday.Equality.hashOf");
    assert!(!mutants(&g, &prog, SEM)
        .iter()
        .any(|m| matches!(m.change, Change::RemoveCyclic(..))));
    let g = graph_from(
        &prog,
        "everyday.Equality.hashOf",
        "everyday.Equality.hashOf.cyclic.state",
    );
    let ms = mutants(&g, &prog, SEM);
    assert!(ms
        .iter()
        .any(|m| matches!(m.change, Change::RemoveCyclic(..))
            && claims(m, "vacuous-shape")
            && m.description.contains('⟲')));
    // a list's cycle permission is no such thing: `List` has a reference field
    let g = graph_from(&prog, "ListOps.hasCycle", "ListOps.hasCycle.lasso.state");
    assert!(mutants(&g, &prog, SEM)
        .iter()
        .filter(|m| matches!(m.change, Change::RemoveCyclic(..)))
        .all(|m| !claims(m, "vacuous-shape")));
}

#[test]
fn a_join_of_two_objects_without_hidden_regions_is_vacuous() {
    let prog = program();
    let g = graph(&prog, "Lib.report");
    let ms = mutants(&g, &prog, SEM);
    // `System.out` (a `PrintStream`, modelled and recorded without fields) may share with a
    // string the state holds (`o1 %$ o5`: `toString()` may return an interned string); a
    // string is realized with its one field, `count`: neither has a hidden region
    let joins: Vec<&Mutant> = ms
        .iter()
        .filter(|m| matches!(m.change, Change::RemoveJoin(_, a, b) if a != b))
        .collect();
    assert!(
        !joins.is_empty(),
        "Lib.report has a %$ between two references"
    );
    assert!(
        joins.iter().all(|m| claims(m, "vacuous-shape")),
        "{:?}",
        joins
            .iter()
            .map(|m| (&m.description, &m.equivalent))
            .collect::<Vec<_>>()
    );
    // a join of list cells is no such thing: a `List` cell has a reference field, so its
    // hidden region may hold the other reference's object
    let g = graph(&prog, "ListOps.copy");
    let ms = mutants(&g, &prog, SEM);
    let joins: Vec<&Mutant> = ms
        .iter()
        .filter(|m| matches!(m.change, Change::RemoveJoin(_, a, b) if a != b))
        .collect();
    assert!(
        !joins.is_empty(),
        "ListOps.copy has a %$ between two references"
    );
    assert!(joins.iter().all(|m| !claims(m, "vacuous-shape")));
}
