//! Value facts of the equivalence proofs (`make fixtures`): statics in the interval invariant,
//! differences in the relations, the inputs among the statics, methods with a single run.
//! Each proof claims the mutant it should, not a similar one some input kills, and no claim of
//! these graphs is killed by a real run.

mod common;
use common::{claims, graph_from, narrowing, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::state::{Interval, Ref};
use jtg_engine::Graph;
use jtg_engine::Program;
use jtg_mutate::{analyse, mutants, run_mutants, Analyses, Fate, Plan};

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
    let an = Analyses::of(&g, &prog, SEM);
    let at = |n: usize| an.intervals.nodes[n].as_ref().expect("reached")[&Ref::Int(9)];
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
fn a_difference_is_bounded_by_the_test_before_it() {
    // IntLoops.gcdSub: `a > b` then `a = a − b` (node 29: i7 = i3 − i5 ≥ 1, stored in `a`
    // at node 31), `a ≤ b` then `b = b − a` (node 28: i7 = i5 − i3 ≥ 0, 0 when a = b)
    let prog = program();
    let g = common::graph(&prog, "IntLoops.gcdSub");
    let an = Analyses::of(&g, &prog, SEM);
    for n in [29, 31] {
        assert_eq!(
            an.related_interval(n, Ref::Int(7)),
            Some(Interval::at_least(1))
        );
    }
    assert_eq!(
        an.related_interval(28, Ref::Int(7)),
        Some(Interval::at_least(0))
    );
    let ms = mutants(&g, &prog, SEM);
    for n in [29, 31] {
        assert!(
            claims(
                narrowing(&ms, n, Ref::Int(7), "[≥0]"),
                "relational invariant"
            ),
            "node {n}"
        );
        // the other end: a difference of positive numbers may be large
        assert!(narrowing(&ms, n, Ref::Int(7), "[≤0]").equivalent.is_none());
    }
    no_claim_is_killed(&prog, &g, 25);
}

#[test]
fn only_the_entry_class_assertion_status_is_an_input() {
    // (IntLoops.gcdBoth's abstract calls used to list every static of the class path, Lib's
    // `$assertionsDisabled` among them, claimed unread; since the closed world they list only
    // the statics reachable code reads)
    let prog = program();
    // Lib.checked asserts: its own status is an input (and read), never unread
    let g = common::graph(&prog, "Lib.checked");
    let status = g
        .nodes
        .iter()
        .enumerate()
        .find_map(|(n, node)| {
            let r = node
                .state
                .statics
                .get(&("Lib".to_string(), "$assertionsDisabled".to_string()))?;
            let iv = match node.state.heap.get(r) {
                Some(jtg_engine::state::HeapValue::Int(iv)) => *iv,
                _ => return None,
            };
            (iv.as_literal().is_none()).then_some((n, *r))
        })
        .expect("a node with Lib's assertion status open");
    let ms = mutants(&g, &prog, SEM);
    let m = narrowing(&ms, status.0, status.1, "0");
    assert!(!claims(m, "unread static"), "{:?}", m.equivalent);
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
    // the analysis calls the survivors of the one run equivalent, and the run kills others
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
    assert!(!fates.iter().any(|f| matches!(f, Fate::Survived)));
}

#[test]
fn long_values_have_intervals_too() {
    // Wide.countDownLong: `x = x − 1L` after `x > 0L` leaves x ≥ 0 at the loop head (node 25),
    // across `lload x` (one stack entry per long), so its refinement to x ≤ −1 (node 28) is
    // never taken
    let prog = program();
    let g = common::graph(&prog, "Wide.countDownLong");
    let an = Analyses::of(&g, &prog, SEM);
    let at = |n: usize, r: u32| an.intervals.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(at(25, 12), Interval::at_least(0));
    assert_eq!(at(26, 12), Interval::at_least(0));
    assert!(an.unreachable(28));
    // x = 0 and x ≥ 1 stay reachable
    assert!(!an.unreachable(29) && !an.unreachable(30));
    let ms = mutants(&g, &prog, SEM);
    assert!(claims(narrowing(&ms, 28, Ref::Int(13), "0"), "unreachable"));
    assert!(narrowing(&ms, 30, Ref::Int(13), "0").equivalent.is_none());
    no_claim_is_killed(&prog, &g, 25);
}

#[test]
fn an_unsigned_shift_by_one_is_not_negative() {
    // GenInputs.bits: `x >>> 1` (lushr by 1) is never negative, so after the first round
    // (node 47 on) the loop's refinement to x ≤ −1 is never taken
    let prog = program();
    let g = common::graph(&prog, "GenInputs.bits");
    let an = Analyses::of(&g, &prog, SEM);
    let at = |n: usize, r: u32| an.intervals.nodes[n].as_ref().expect("reached")[&Ref::Int(r)];
    assert_eq!(
        at(45, 11),
        Interval::new(Some(0), Some(i128::from(i64::MAX))).expect("interval")
    );
    assert!(an.unreachable(50) && an.unreachable(102));
    // the first round takes a negative x (node 35), and later rounds x = 0 and x ≥ 1
    assert!(!an.unreachable(35) && !an.unreachable(51) && !an.unreachable(52));
    let ms = mutants(&g, &prog, SEM);
    assert!(claims(
        narrowing(&ms, 102, Ref::Int(35), "0"),
        "unreachable"
    ));
    no_claim_is_killed(&prog, &g, 25);
}
