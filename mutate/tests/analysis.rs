//! The mutation analysis of one graph end to end (`jtg mutate`'s library side): every sampled
//! mutant gets one of the four fates, the score is computed over the covered mutants not proven
//! equivalent, a mutant of what no run reaches is not covered (and no run kills one), a
//! flipped label on an edge runs take is killed, a weakening is equivalent, and a graph that
//! the runs already violate is refused.

mod common;
use common::{fixtures, graph, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::state::IntSemantics;
use jtg_mutate::{analyse, fates, mutants, run_mutants, Fate, Mutant, MutateError, Plan};

fn plan(n: u64, max_mutants: usize, enumerate: bool) -> Plan {
    Plan {
        ints: IntSemantics::Unbounded,
        seed: 1,
        n,
        max_size: 6,
        max_steps: 1_000,
        max_mutants,
        enumerate,
    }
}

/// The mutant of `ms` described as `d`.
fn find<'a>(ms: &'a [Mutant], d: &str) -> &'a Mutant {
    ms.iter()
        .find(|m| m.description == d)
        .unwrap_or_else(|| panic!("no mutant {d}"))
}

#[test]
fn every_sampled_mutant_gets_a_fate() {
    let prog = program();
    let g = graph(&prog, "List.contains");
    let a = analyse(&prog, &g, &[fixtures()], &plan(60, 40, false)).expect("analysis");
    let r = &a.report;
    assert_eq!(r.mutants.len(), 40);
    assert!(r.derived >= r.mutants.len());
    assert_eq!(
        r.killed() + r.not_covered() + r.equivalent() + r.survived(),
        r.mutants.len()
    );
    assert!(r.killed() > 0);
    assert!(a.refuted.is_empty(), "{:?}", a.refuted);
    let live = (r.killed() + r.survived()) as f64;
    assert_eq!(r.score(), r.killed() as f64 / live);
}

/// `ListOps.hasCycle` from the acyclic default start: on an acyclic list `slow` never meets
/// `fast`, so the equal case of the first comparison (node 45: 45 → 46) is no run's while the
/// unequal one (45 → 47) is taken; after both moved, `slow == fast` (node 67) is reached
/// by no run either, its `o11 = null` case (67 → 69) included. Dropping or relabelling what no
/// run takes is not covered; the same mutants matched against the runs anyway are not killed.
#[test]
fn a_mutant_on_an_unreached_branch_is_not_covered() {
    let prog = program();
    let g = graph(&prog, "ListOps.hasCycle");
    let all = mutants(&g, &prog, SEM);
    let ms = vec![
        find(&all, "drop the refine edge 45 → 46").clone(),
        find(
            &all,
            "refinement at node 67: `o11 = null` moved from 67 → 69 to 67 → 70",
        )
        .clone(),
        find(&all, "drop the refine edge 45 → 47").clone(),
    ];
    let ts = traces(&prog, &g, 60, 6, 1);
    let rs: Vec<&dyn ConcreteRun> = ts.iter().map(|t| t as &dyn ConcreteRun).collect();
    let f = fates(&g, &prog, SEM, &ms, &rs);
    assert!(
        matches!(&f[0], Fate::NotCovered(w) if w == "no run takes the edge 45 → 46"),
        "{:?}",
        f[0]
    );
    // the null case loses its label (a weakening) and 67 → 70 gets it: neither is taken
    assert!(matches!(&f[1], Fate::NotCovered(_)), "{:?}", f[1]);
    assert!(matches!(f[2], Fate::Killed { .. }), "{:?}", f[2]);
    for (m, f) in ms[..2]
        .iter()
        .zip(run_mutants(&g, &prog, SEM, &ms[..2], &rs))
    {
        assert_eq!(f, Fate::Survived, "{}", m.description);
    }
}

/// `ListOps.length`: every run of a non-empty list takes the increment `i8 = i5 + 1` (20 → 22);
/// its flip to `-` is killed, and dropping it is a weakening (equivalent).
#[test]
fn a_flipped_label_on_a_reached_edge_is_killed_and_a_weakening_is_equivalent() {
    let prog = program();
    let g = graph(&prog, "ListOps.length");
    let all = mutants(&g, &prog, SEM);
    let flip = find(&all, "edge 20 → 22: `i8 = i5 + 1` becomes `i8 = i5 - 1`");
    let drop = find(&all, "edge 20 → 22: drop `i8 = i5 + 1`");
    assert!(flip.equivalent.is_none());
    let ms = vec![flip.clone(), drop.clone()];
    let ts = traces(&prog, &g, 40, 6, 1);
    let rs: Vec<&dyn ConcreteRun> = ts.iter().map(|t| t as &dyn ConcreteRun).collect();
    let f = fates(&g, &prog, SEM, &ms, &rs);
    assert!(matches!(f[0], Fate::Killed { .. }), "{:?}", f[0]);
    assert!(
        matches!(&f[1], Fate::Equivalent(w) if w.starts_with("weakening")),
        "{:?}",
        f[1]
    );
    // the weakening is matched too (it is covered), and no run kills it
    let run = run_mutants(&g, &prog, SEM, &ms[1..], &rs);
    assert!(matches!(&run[0], Fate::Equivalent(_)), "{:?}", run[0]);
}

#[test]
fn the_enumeration_only_decides_open_mutants() {
    let prog = program();
    let g = graph(&prog, "IntLoops.countDown");
    let small = analyse(&prog, &g, &[fixtures()], &plan(40, 30, false)).expect("analysis");
    let wide = analyse(&prog, &g, &[fixtures()], &plan(40, 30, true)).expect("analysis");
    assert_eq!(small.report.mutants.len(), wide.report.mutants.len());
    for ((op, d, before), (op2, d2, after)) in small.report.mutants.iter().zip(&wide.report.mutants)
    {
        assert_eq!((op, d), (op2, d2));
        match (before, after) {
            // more runs kill or cover
            (Fate::Survived, Fate::Killed { input, .. }) => assert!(*input >= 40, "{d}"),
            (Fate::NotCovered(_), Fate::Killed { input, .. }) => assert!(*input >= 40, "{d}"),
            (Fate::NotCovered(_), Fate::Survived) => {}
            (b, a) => assert_eq!(b, a, "{d}"),
        }
    }
}

#[test]
fn a_graph_the_runs_violate_is_refused() {
    let prog = program();
    let mut g = graph(&prog, "IntLoops.negate");
    let e = g
        .edges
        .iter_mut()
        .find(|e| {
            e.kind == EdgeKind::Eval && e.labels.iter().any(|l| l.to_string().contains("= -"))
        })
        .expect("the negation edge");
    let text = e.labels[0].to_string().replace("= -", "= ") + " + 0";
    e.labels[0] = Label::parse(&text).expect("label");
    let e = analyse(&prog, &g, &[fixtures()], &plan(30, 10, false)).expect_err("refused");
    assert!(
        matches!(e, MutateError::OriginalFails { broken, traces: 30, .. } if broken > 0),
        "{e:?}"
    );
    assert!(e.to_string().contains("already fails"), "{e}");
}
