//! The mutation analysis of one graph end to end (`jtg mutate`'s library side): every sampled
//! mutant gets a fate, the score is computed over the non-equivalent ones, no equivalence proof
//! is refuted, the enumeration only ever turns survivors into equivalents, and a graph that the
//! runs already violate is refused.

mod common;
use common::{fixtures, graph, program};

use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::state::IntSemantics;
use jtg_mutate::{analyse, Fate, MutateError, Plan};

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

#[test]
fn every_sampled_mutant_gets_a_fate() {
    let prog = program();
    let g = graph(&prog, "List.contains");
    let a = analyse(&prog, &g, &[fixtures()], &plan(60, 40, false)).expect("analysis");
    let r = &a.report;
    assert_eq!(r.mutants.len(), 40);
    assert!(r.derived >= r.mutants.len());
    assert_eq!(r.killed() + r.equivalent() + r.survived(), r.mutants.len());
    assert!(r.killed() > 0);
    assert!(a.refuted.is_empty(), "{:?}", a.refuted);
    assert!(r.score() > 0.0 && r.score() <= 1.0);
}

#[test]
fn the_enumeration_only_turns_survivors_into_equivalents() {
    let prog = program();
    let g = graph(&prog, "IntLoops.countDown");
    let small = analyse(&prog, &g, &[fixtures()], &plan(40, 30, false)).expect("analysis");
    let wide = analyse(&prog, &g, &[fixtures()], &plan(40, 30, true)).expect("analysis");
    assert_eq!(small.report.mutants.len(), wide.report.mutants.len());
    for ((op, d, before), (op2, d2, after)) in small.report.mutants.iter().zip(&wide.report.mutants)
    {
        assert_eq!((op, d), (op2, d2));
        match (before, after) {
            (Fate::Survived, Fate::Equivalent(why)) => {
                assert!(why.starts_with("bounded enumeration"), "{why}")
            }
            (Fate::Survived, _) => {}
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
