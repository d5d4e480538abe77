//! Mutation testing's equivalence proofs (`make fixtures`): each proof classifies the mutants
//! it should, and no mutant it classifies equivalent is killed by a run.

mod common;
use common::{claims, drop_labels, graph, graph_from, narrowing, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::graph::EdgeKind;
use jtg_engine::state::{HeapValue, Interval, Ref};
use jtg_engine::{build_graph, Graph, Options, Program};
use jtg_jvm::Trace;
use jtg_mutate::{mutants, run_mutants, sample, Analyses, Change, Fate, Mutant, Operator};

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
    let inv = Analyses::of(&g, &prog, SEM).intervals;
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
    let inv = Analyses::of(&g, &prog, SEM).intervals;
    let at = |n: usize, r: u32| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(20, 5), Interval::literal(1));
    assert_eq!(at(22, 8), Interval::new(Some(1), Some(2)).unwrap());
}

#[test]
fn distinct_positions_rule_out_returning_to_the_head() {
    // Statics.clearLastPositive walks `cur` from `head.next` on an acyclic list: the
    // refinement `cur = head` at the loop (node 28 → 29) is never taken, so nothing below
    // node 29 is reached, while the other case (node 30) is
    let prog = program();
    let g = graph(&prog, "Statics.clearLastPositive");
    let an = Analyses::of(&g, &prog, SEM);
    let edge = |from: usize, to: usize| {
        g.edges
            .iter()
            .position(|e| e.from == from && e.to == to)
            .expect("edge")
    };
    assert!(an.dead(edge(28, 29)));
    assert!(!an.dead(edge(28, 30)));
    assert!(an.unreachable(31) && !an.unreachable(30));
    let ms = mutants(&g, &prog, SEM);
    let drop = |n: usize, d: &str| {
        ms.iter()
            .find(|m| m.description == format!("node {n}: drop {d}"))
            .unwrap_or_else(|| panic!("no mutant drop {d} at node {n}"))
    };
    // every mutant below the dead edge is claimed unreachable (node 31 holds o2 %$ o3: a
    // `=?` between head and its own successor is impossible without ⟲, so the engine
    // writes none)
    let below: Vec<&Mutant> = ms
        .iter()
        .filter(|m| m.description.starts_with("node 31: "))
        .collect();
    assert!(!below.is_empty(), "no mutant at node 31");
    for m in below {
        assert!(
            claims(m, "unreachable"),
            "{}: {:?}",
            m.description,
            m.equivalent
        );
    }
    // the same fact at node 28 itself: head and cur are never one object there
    assert!(claims(drop(28, "o2 =? o6"), "distinct positions"));
    // `last` is a static field, which the analyses do not track: no claim about it (the
    // check compares it, tests/check.rs `static_fields_are_checked`)
    assert!(drop(28, "o2 =? o5").equivalent.is_none());
}

/// `putstatic Statics.last` in `Statics.clearLastPositive` runs no class initializer (the
/// method's own class is initialised), so it leaves the heap as it was and the reach facts
/// carry across it: `cur` stays strictly below `head` around the loop, and `cur = head` is
/// never taken at the loop heads entered from later iterations either (after the loop body wrote
/// `last`); what lies below is unreachable.
#[test]
fn static_accesses_of_an_initialised_class_keep_the_heap() {
    let prog = program();
    let g = graph(&prog, "Statics.clearLastPositive");
    let an = Analyses::of(&g, &prog, SEM);
    let cur_is_head: Vec<usize> = g
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e.kind == EdgeKind::Refine && e.labels.iter().any(|l| l.to_string() == "o6 = o2")
        })
        .map(|(k, _)| k)
        .collect();
    let from: Vec<usize> = cur_is_head.iter().map(|&k| g.edges[k].from).collect();
    // the first loop head and at least two entered after the body wrote `last`
    assert!(from.len() >= 3 && from.contains(&28), "{from:?}");
    for &k in &cur_is_head {
        assert!(an.dead(k), "edge {} → {}", g.edges[k].from, g.edges[k].to);
    }
    // what lies below the later heads' dead edges is unreachable, and its mutants say so
    let below: Vec<usize> = cur_is_head
        .iter()
        .map(|&k| g.edges[k].to)
        .filter(|&t| t != 29 && an.unreachable(t))
        .collect();
    assert!(below.len() >= 2, "{below:?}");
    let ms = mutants(&g, &prog, SEM);
    let mut seen = 0;
    for m in ms.iter().filter(|m| {
        below
            .iter()
            .any(|t| m.description.starts_with(&format!("node {t}: ")))
    }) {
        seen += 1;
        assert!(
            claims(m, "unreachable"),
            "{}: {:?}",
            m.description,
            m.equivalent
        );
    }
    assert!(seen > 0, "no mutant below {below:?}");
}

/// The reasons the graph analyses give.
const ANALYSES: [&str; 9] = [
    "acyclic join",
    "implied label",
    "disjoint types",
    "unread static",
    "interval invariant",
    "relational invariant",
    "unreachable",
    "distinct positions",
    "dead edge",
];

/// Every mutant the graph analyses call equivalent survives real runs, and the runs do kill
/// others (so the comparison can fail). At most 40 claims and 20 other mutants per graph, to
/// keep the test short.
#[test]
fn no_proven_equivalent_is_killed() {
    let prog = program();
    let (mut with_claims, mut tried_claims) = (0, 0);
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
        let all = mutants(&g, &prog, SEM);
        let (claimed, others): (Vec<Mutant>, Vec<Mutant>) = all
            .into_iter()
            .partition(|m| ANALYSES.iter().any(|r| claims(m, r)));
        // a graph without redundant facts leaves the analyses nothing to claim
        // (ListOps.reverse since the engine stopped writing implied joins): the test is
        // about the claims made, counted over all the graphs below
        if !claimed.is_empty() {
            with_claims += 1;
        }
        tried_claims += claimed.len().min(40);
        let mut ms = sample(claimed, 40);
        ms.extend(sample(others, 20));
        let traces = runs(&prog, &g, 25);
        let rs: Vec<&dyn ConcreteRun> = traces.iter().map(|t| t as &dyn ConcreteRun).collect();
        let fates = run_mutants(&g, &prog, SEM, &ms, &rs);
        let killed = common::killed_none_claimed(&ms, &fates, spec);
        assert!(killed > 0, "{spec}: no mutant killed");
    }
    assert!(
        with_claims >= 8 && tried_claims >= 200,
        "claims in {with_claims} graphs, {tried_claims} tried"
    );
}

#[test]
fn acyclic_reach_keeps_fast_ahead_of_slow() {
    // Floyd's loop on an acyclic list: at the loop head (node 32) `fast` is reachable from
    // `slow` in at least one step, and `fast` has no ⟲, so they are never one object
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let ms = mutants(&g, &prog, SEM);
    let drop = |ms: &[Mutant], n: usize, d: &str| {
        ms.iter()
            .find(|m| m.description == format!("node {n}: drop {d}"))
            .unwrap_or_else(|| panic!("no mutant drop {d} at node {n}"))
            .clone()
    };
    assert!(claims(&drop(&ms, 32, "o8 =? o9"), "distinct positions"));
    // the lasso start allows cycles (o5⟲): `fast = slow.next` may be `slow` (node 35), and
    // the refinement `o5 = o4` (node 39 → 41) is taken
    let g = graph_from(&prog, "ListOps.hasCycle", "ListOps.hasCycle.lasso.state");
    let ms = mutants(&g, &prog, SEM);
    assert!(drop(&ms, 35, "o4 =? o5").equivalent.is_none());
    let an = Analyses::of(&g, &prog, SEM);
    let k = g
        .edges
        .iter()
        .position(|e| e.from == 39 && e.to == 41)
        .expect("edge");
    assert!(!an.dead(k));
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

/// `ListOps.copy`: after the first iteration `tail` is the list node the loop created, so the
/// test `tail == null` of a later iteration (the refinements `o6 = null` at node 53 and
/// `o14 = null` at node 84, below merged loop heads that forgot it) is never taken. The fact
/// is carried across the inlined constructor call (`call` and `return` edges keep the
/// caller's locals); the first iteration, where `tail` is `null` (node 23), stays reachable.
#[test]
fn non_null_positions_survive_inlined_calls() {
    let prog = program();
    let g = graph(&prog, "ListOps.copy");
    let an = Analyses::of(&g, &prog, SEM);
    let null_refinement = |from: usize| {
        g.edges
            .iter()
            .position(|e| {
                e.from == from
                    && e.kind == EdgeKind::Refine
                    && e.labels.iter().any(
                        |l| matches!(l, jtg_engine::graph::Label::RefEq { p, equal: true, .. } if p.is_null()),
                    )
            })
            .unwrap_or_else(|| panic!("no null refinement from node {from}"))
    };
    assert!(an.dead(null_refinement(53)));
    assert!(an.dead(null_refinement(84)));
    assert!(an.unreachable(54) && an.unreachable(85));
    assert!(!an.unreachable(23) && !an.unreachable(24));
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

/// Unread statics: a graph used to list every static of the class path (`Expr.evaluate`), and
/// mutants of what only those reached were claimed equivalent as **unread static**. Since the
/// closed world (the input statics and those a call havocs are the ones reachable code reads),
/// `Expr.evaluate`'s states list none, so nothing is claimed there; a static the method reads
/// (`GenInputs.limit` in `GenInputs.upTo`) is never claimed unread.
#[test]
fn unread_statics_are_never_compared() {
    let prog = program();
    let g = graph(&prog, "Expr.evaluate");
    let claimed = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| claims(m, "unread static"))
        .count();
    assert_eq!(claimed, 0, "unread-static claims in Expr.evaluate");
    let g = graph_from(&prog, "GenInputs.upTo", "GenInputs.upTo.static.state");
    let limit = g.nodes[g.start].state.statics[&("GenInputs".to_string(), "limit".to_string())];
    let on_limit: Vec<Mutant> = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| matches!(m.change, Change::SetInt(n, r, _) if n == g.start && r == limit))
        .collect();
    assert!(!on_limit.is_empty(), "no mutant of GenInputs.limit");
    assert!(
        on_limit.iter().all(|m| !claims(m, "unread static")),
        "a read static claimed unread"
    );
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
    let a = Analyses::of(&g, &prog, SEM);
    // node 3 follows `dcmpl d d` (`d != d`): -1 for NaN, else 0, never 1
    let at = |n: usize, r: u32| a.intervals.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(3, 2), Interval::new(Some(-1), Some(0)).unwrap());
    assert!(a.unreachable(6), "the refinement to 1 is dead");
    assert!(!a.unreachable(4) && !a.unreachable(5));
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
        a.intervals.nodes[cmp].as_ref().expect("reached")[&r],
        Interval::new(Some(-1), Some(1)).unwrap()
    );
    let ms = mutants(&g, &prog, SEM);
    assert!(ms
        .iter()
        .any(|m| claims(m, "unreachable") || claims(m, "dead edge")));
}

#[test]
fn a_cycle_permission_on_an_object_without_reference_fields_is_vacuous() {
    let prog = program();
    let g = graph(&prog, "Lib.report");
    let ms = mutants(&g, &prog, SEM);
    // `System.out` is a `PrintStream`: modelled, and recorded, without fields
    let drops: Vec<&Mutant> = ms
        .iter()
        .filter(|m| matches!(m.change, Change::RemoveCyclic(..)))
        .collect();
    assert!(!drops.is_empty(), "Lib.report has a ⟲ to drop");
    assert!(
        drops.iter().all(|m| m.equivalent.is_some()),
        "{:?}",
        drops.iter().map(|m| &m.description).collect::<Vec<_>>()
    );
    assert!(drops
        .iter()
        .any(|m| claims(m, "vacuous-shape") && m.description.contains('⟲')));
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
