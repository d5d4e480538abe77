//! Equivalence proofs from shapes the start state rules out (`make fixtures`): each proves the
//! mutants it should, leaves a similar non-equivalent mutant alone, and no mutant it proves is
//! killed by a run.

mod common;
use common::{graph, graph_from, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::Graph;
use jtg_mutate::{mutants, run_mutants, Analyses, Fate, Mutant};

/// The fates of `ms` on `n` generated inputs of the graph's start state (structures up to 10).
fn fates(prog: &jtg_engine::Program, g: &Graph, ms: &[Mutant], n: u64) -> Vec<Fate> {
    let runs = traces(prog, g, n, 10, 5);
    let rs: Vec<&dyn ConcreteRun> = runs.iter().map(|t| t as &dyn ConcreteRun).collect();
    run_mutants(g, prog, SEM, ms, &rs)
}

/// The refinement edge out of `from` whose labels say `r = null` (`null`) or `r = o…`.
fn refinement(g: &Graph, from: usize, null: bool) -> usize {
    g.edges
        .iter()
        .position(|e| {
            e.from == from
                && e.kind == EdgeKind::Refine
                && e.labels.iter().any(
                    |l| matches!(l, Label::RefEq { p, equal: true, .. } if p.is_null() == null),
                )
        })
        .unwrap_or_else(|| panic!("no refinement from node {from}"))
}

/// `ListOps.hasCycle` from the default (acyclic) start: the loop head at node 30 is entered
/// from the exit test of the first iteration with `fast` run off the list (node 29: `fast:
/// null`); its `fast ≠ null` case (33 → 36) leads into the nodes of a second lap that only a
/// cyclic list could take, and the instance edges that come back to node 30 (111, 112, 113)
/// lie behind it. By the must-null positions that edge is dead and all of that unreachable;
/// the `fast = null` case stays.
#[test]
fn a_loop_head_entered_only_with_null_has_a_dead_object_case() {
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let an = Analyses::of(&g, &prog, SEM);
    assert!(an.dead(refinement(&g, 33, false)));
    assert!(!an.dead(refinement(&g, 33, true)));
    for n in [36, 55, 82, 97, 111, 112, 113] {
        assert!(an.unreachable(n), "node {n} reachable");
    }
    assert!(!an.unreachable(30) && !an.unreachable(35) && !an.unreachable(32));
    // the head of the other lap (node 32) is entered with `fast` an object (node 31): its
    // object case is taken
    assert!(!an.dead(refinement(&g, 34, false)));
}

/// The similar refinements that runs do take are not proven: the `fast = null` case of node
/// 30 (33 → 35: a list of one or two nodes) and the `fast ≠ null` case of the other lap's
/// head (34 → 38, entered with `fast` two nodes ahead): dropping either is killed.
#[test]
fn the_cases_runs_take_are_not_proven_dead() {
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let wanted = [
        "drop the refine edge 33 → 35",
        "drop the refine edge 34 → 38",
    ];
    let ms: Vec<Mutant> = mutants(&g, &prog, SEM)
        .into_iter()
        .filter(|m| wanted.contains(&m.description.as_str()))
        .collect();
    assert_eq!(ms.len(), 2);
    assert!(ms.iter().all(|m| m.equivalent.is_none()));
    let f = fates(&prog, &g, &ms, 60);
    assert!(f.iter().all(|f| matches!(f, Fate::Killed { .. })), "{f:?}");
}

/// The other lap's head (node 32) keeps `fast` ahead of `slow` on an acyclic list: the
/// refinement of `slow.next` to `fast.next` (node 60 → 65: one object at the loaded `slow` and
/// at `fast.next`, a position below a root) is dead, since `fast.next` is reached from `slow`
/// in at least one step and `slow` has no ⟲; the refinement to another object (60 → 66) is
/// taken. From the lasso start (`o5⟲`), `fast = slow.next` is possible and not dead.
#[test]
fn a_position_below_a_root_reached_from_an_acyclic_one_is_another_object() {
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let an = Analyses::of(&g, &prog, SEM);
    let edge = |from: usize, to: usize| {
        g.edges
            .iter()
            .position(|e| e.from == from && e.to == to)
            .unwrap_or_else(|| panic!("no edge {from} → {to}"))
    };
    assert!(an.dead(edge(60, 65)));
    assert!(an.unreachable(70) && an.unreachable(80));
    assert!(!an.dead(edge(60, 66)));
    assert!(!an.unreachable(72));
}

/// Every mutant of `ListOps.hasCycle` that an unreachable node or a dead edge proves
/// equivalent survives real runs on lists up to 10 long (and some other mutant is killed).
#[test]
fn no_mutant_behind_a_dead_null_case_is_killed() {
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let all = mutants(&g, &prog, SEM);
    let behind = |m: &Mutant| {
        m.equivalent
            .as_deref()
            .is_some_and(|w| w.starts_with("unreachable") || w.starts_with("dead edge"))
    };
    let (claimed, others): (Vec<Mutant>, Vec<Mutant>) = all.into_iter().partition(behind);
    assert!(claimed.len() >= 100, "{} claimed", claimed.len());
    let mut ms = claimed;
    ms.extend(
        others
            .into_iter()
            .filter(|m| m.equivalent.is_none())
            .take(30),
    );
    let f = fates(&prog, &g, &ms, 60);
    assert!(common::killed_none_claimed(&ms, &f, &g.method.to_string()) > 0);
}

/// `Ring.iterate` on a ring: `current` must reach `this` along `next` (`o6 →!{next} o7 →!{next}
/// o5`, `o5` the realized `this`), so the check never accepts `current == null` at the loop
/// head: the refinement `o6 = null` (24 → 26) is dead and the `NullPointerException` branch
/// behind it unreachable; the refinement to an object (24 → 27) is taken. Without the `→!`
/// facts nothing rules `null` out.
#[test]
fn a_reference_that_must_reach_an_object_is_no_null() {
    let prog = program();
    let g = graph_from(&prog, "Ring.iterate", "Ring.iterate.cyclic.state");
    let an = Analyses::of(&g, &prog, SEM);
    assert!(an.dead(refinement(&g, 24, true)));
    assert!(!an.dead(refinement(&g, 24, false)));
    assert!(an.unreachable(26) && an.unreachable(29) && an.unreachable(34));
    assert!(!an.unreachable(27));
    let mut h = g.clone();
    for n in &mut h.nodes {
        n.state.preds.must_reach.clear();
    }
    let an = Analyses::of(&h, &prog, SEM);
    assert!(!an.dead(refinement(&h, 24, true)));
    assert!(!an.unreachable(26));
    // the claims survive real rings
    let all = mutants(&g, &prog, SEM);
    let claimed: Vec<Mutant> = all
        .iter()
        .filter(|m| {
            m.equivalent
                .as_deref()
                .is_some_and(|w| w.starts_with("unreachable") || w.starts_with("dead edge"))
        })
        .cloned()
        .collect();
    assert!(claimed
        .iter()
        .any(|m| m.description.starts_with("node 26:")));
    let f = fates(&prog, &g, &claimed, 60);
    common::killed_none_claimed(&claimed, &f, "Ring.iterate");
}

/// `Ring.iterate` after one step (node 18): `this.next.next` (`o4`, which must reach `this`
/// along `next`) is not `this.next` (`o3`): from `o3`'s object, `next` would lead back to it
/// at once without meeting `this`. So dropping `o3 =? o4` is proven; without the `→!` it is
/// not (a ring of one node past `this` may loop there if nothing says it leads back).
#[test]
fn must_reach_keeps_a_node_apart_from_its_successor() {
    let prog = program();
    let g = graph_from(&prog, "Ring.iterate", "Ring.iterate.cyclic.state");
    let find = |ms: &[Mutant], d: &str| {
        ms.iter()
            .find(|m| m.description == d)
            .unwrap_or_else(|| panic!("no mutant {d}"))
            .clone()
    };
    let ms = mutants(&g, &prog, SEM);
    let m = find(&ms, "node 18: drop o3 =? o4");
    assert!(
        m.equivalent
            .as_deref()
            .is_some_and(|w| w.starts_with("distinct positions")),
        "{:?}",
        m.equivalent
    );
    let f = fates(&prog, &g, &[m], 100);
    assert!(!matches!(f[0], Fate::Killed { .. }), "{f:?}");
    let mut h = g.clone();
    for n in &mut h.nodes {
        n.state.preds.must_reach.clear();
    }
    let ms = mutants(&h, &prog, SEM);
    assert!(find(&ms, "node 18: drop o3 =? o4").equivalent.is_none());
}

/// `Outer.cellOf`: inside `Cell`'s constructor, before `super()` (nodes 19 to 22), the outer
/// object is reachable only through `this$0` of the cell under construction, which the check
/// does not walk: narrowing its `v` there is proven. After `super()` (node 23) the cell is
/// walked, and the same narrowing is not proven, and killed.
#[test]
fn fields_of_an_object_under_construction_are_not_walked() {
    let prog = program();
    let g = graph(&prog, "Outer.cellOf");
    let ms = mutants(&g, &prog, SEM);
    let narrowing = |n: usize| {
        ms.iter()
            .find(|m| m.description == format!("node {n}: i1 = Z narrowed at its low end to [≥0]"))
            .unwrap_or_else(|| panic!("no narrowing at node {n}"))
            .clone()
    };
    for n in [19, 21] {
        let m = narrowing(n);
        assert!(
            m.equivalent
                .as_deref()
                .is_some_and(|w| w.starts_with("under construction")),
            "node {n}: {:?}",
            m.equivalent
        );
    }
    let after = narrowing(23);
    assert!(after.equivalent.is_none());
    let f = fates(&prog, &g, &[narrowing(19), narrowing(21), after], 100);
    assert!(!matches!(f[0], Fate::Killed { .. }) && !matches!(f[1], Fate::Killed { .. }));
    assert!(matches!(f[2], Fate::Killed { .. }), "{f:?}");
}
