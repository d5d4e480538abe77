//! Value facts of the equivalence proofs (`make fixtures`): statics, longs and unsigned shifts
//! in the interval invariant, methods with a single run.
//! Each proof claims the mutant it should, not a similar one some input kills, and no claim of
//! these graphs is killed by a real run.

mod common;
use common::{claims, graph_from, narrowing, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::graph::{Label, Operand};
use jtg_engine::state::{IntOp, Interval, Ref};
use jtg_engine::Graph;
use jtg_engine::Program;
use jtg_mutate::{analyse, mutants, run_mutants, Fate, Intervals, Plan};

/// No mutant of `g` claimed equivalent is killed by `n` generated runs, and some are killed.
fn no_claim_is_killed(prog: &Program, g: &Graph, n: u64) {
    let ms = mutants(g, prog, SEM);
    let ts = traces(prog, g, n, 6, 3);
    let rs: Vec<&dyn ConcreteRun> = ts.iter().map(|t| t as &dyn ConcreteRun).collect();
    let fates = run_mutants(g, prog, SEM, &ms, &rs);
    assert!(
        common::killed_none_claimed(&ms, &fates, &g.method.to_string()) > 0,
        "no mutant killed"
    );
}

#[test]
fn a_start_static_keeps_the_bound_a_test_gave_it() {
    // GenInputs.upTo with `limit` (i9 in the loop) a static of the start state: the loop is
    // entered a second time (node 27) with i = 1 only, and `i < limit` gives `limit ≥ 2`,
    // which the static keeps while nothing writes it or may run a class initializer; node 33
    // holds `limit` only in the static
    let prog = program();
    let g = graph_from(&prog, "GenInputs.upTo", "GenInputs.upTo.static.state");
    let inv = Intervals::of(&g, &prog, SEM);
    let at = |n: usize| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(9)];
    assert_eq!(at(33), Interval::new(Some(2), Some(20)).expect("interval"));
    let ms = mutants(&g, &prog, SEM);
    for n in [38, 47, 57, 78] {
        assert!(
            claims(
                narrowing(&ms, n, Ref::Int(9), "[1,20]"),
                "interval invariant"
            ),
            "node {n}"
        );
        // a run may take `limit` = 20 to each of them
        assert!(narrowing(&ms, n, Ref::Int(9), "[0,19]")
            .equivalent
            .is_none());
    }
    no_claim_is_killed(&prog, &g, 25);
}

#[test]
fn a_method_without_inputs_has_one_run() {
    // Grid.fill: no parameter, no static, no call, arrays it allocates itself
    let prog = program();
    let g = common::graph(&prog, "Grid.fill");
    assert!(jtg_mutate::single_run(&g, &prog).is_some());
    // a method with a parameter, one with a start static, and one without inputs that calls
    // code (a class initializer or another method may do anything) have more than one run
    assert!(jtg_mutate::single_run(&common::graph(&prog, "IntLoops.gcdSub"), &prog).is_none());
    let g = graph_from(&prog, "GenInputs.upTo", "GenInputs.upTo.static.state");
    assert!(jtg_mutate::single_run(&g, &prog).is_none());
    assert!(jtg_mutate::single_run(&common::graph(&prog, "Loop.bump"), &prog).is_none());
    // the analysis calls the mutants the one run does not kill equivalent, and it kills others
    let g = common::graph(&prog, "Grid.fill");
    let plan = Plan {
        ints: SEM,
        seed: 1,
        n: 3,
        max_size: 6,
        // the CLI's default: the one run is longer, and traced again to its end
        max_steps: 1_000,
        max_mutants: 60,
        enumerate: false,
    };
    let an = analyse(&prog, &g, &[common::fixtures()], &plan).expect("analysis");
    assert!(an.refuted.is_empty(), "{:?}", an.refuted);
    let fates: Vec<&Fate> = an.report.mutants.iter().map(|(_, _, f)| f).collect();
    assert!(fates.iter().any(|f| matches!(f, Fate::Killed { .. })));
    assert!(fates
        .iter()
        .any(|f| matches!(f, Fate::Equivalent(w) if w.starts_with("single run"))));
    assert!(!fates
        .iter()
        .any(|f| matches!(f, Fate::Survived | Fate::NotCovered(_))));
}

#[test]
fn long_values_have_intervals_too() {
    // Wide.countDownLong: `x = x − 1L` after `x > 0L` leaves x ≥ 0 at the loop head (node 25),
    // across `lload x` (one stack entry per long), so its refinement to x ≤ −1 (node 28) is
    // never taken
    let prog = program();
    let g = common::graph(&prog, "Wide.countDownLong");
    let inv = Intervals::of(&g, &prog, SEM);
    let at = |n: usize, r: u32| inv.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(25, 12), Interval::at_least(0));
    assert_eq!(at(26, 12), Interval::at_least(0));
    assert!(inv.nodes[28].is_none());
    // x = 0 and x ≥ 1 stay reachable
    assert!(inv.nodes[29].is_some() && inv.nodes[30].is_some());
    let ms = mutants(&g, &prog, SEM);
    assert!(narrowing(&ms, 30, Ref::Int(13), "0").equivalent.is_none());
    no_claim_is_killed(&prog, &g, 25);
}

#[test]
fn an_unsigned_shift_by_one_is_not_negative() {
    // GenInputs.bits: `x >>> 1` (lushr by 1) is never negative. The engine labels the shift
    // and gives its result a non-negative interval itself, so the loop's refinement to x ≤ −1 after the
    // first round is no longer in the graph (mutate's interval analysis once found it dead)
    let prog = program();
    let g = common::graph(&prog, "GenInputs.bits");
    let mut shifts = 0;
    for e in &g.edges {
        for l in &e.labels {
            if let Label::Arith {
                res,
                op: IntOp::Ushr,
                b: Some(Operand::Lit(1)),
                ..
            } = l
            {
                shifts += 1;
                let at = g.nodes[e.to]
                    .state
                    .integral(*res)
                    .expect("an integer result");
                assert!(at.lo.is_some_and(|l| l >= 0), "{at:?}");
            }
        }
    }
    assert!(shifts >= 1, "the graph labels its `>>> 1`");
    no_claim_is_killed(&prog, &g, 25);
}
