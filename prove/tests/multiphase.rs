//! Nested (multiphase) ranking functions (`prove/src/nested.rs`): found where no lexicographic
//! level exists, verified exactly, rejected when tampered, and evaluated on concrete
//! transitions by `check_transition`.

use jtg_prove::check_transition;
use jtg_prove::verify_termination;
use jtg_prove::RuleCert;
use jtg_prove::{parse_koat, prove, Certificate, Its, LinExpr, Options, Var, Verdict};
use num_bigint::BigInt;

fn koat(rules: &str, vars: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .unwrap()
}

/// `while (x > 0) { x = x + y; y = y − 1; }`: `y` falls until negative, then `x` falls.
fn two_phases() -> Its {
    koat(
        "start(x, y) -> f(x, y)  f(x, y) -> f(x + y, y - 1) :|: x > 0",
        "x y",
    )
}

fn certificate(its: &Its) -> jtg_prove::TerminationCertificate {
    let p = prove(its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes, "{:?}", p.notes);
    let Certificate::Termination(c) = p.certificate else {
        panic!("no certificate")
    };
    c
}

#[test]
fn the_two_phase_loop_has_a_nested_ranking_function() {
    let its = two_phases();
    let c = certificate(&its);
    let level = &c.sccs[0].levels[0];
    assert_eq!(level.later_phases.len(), 1, "two phases: {level:?}");
    assert!(matches!(level.rules[0].cert, RuleCert::Nested { .. }));
    verify_termination(&its, &c).unwrap();
}

#[test]
fn three_phases_are_found_too() {
    // z falls until negative, then y, then x
    let its = koat(
        "start(x, y, z) -> f(x, y, z)  f(x, y, z) -> f(x + y, y + z, z - 1) :|: x > 0",
        "x y z",
    );
    let c = certificate(&its);
    assert_eq!(c.sccs[0].levels[0].later_phases.len(), 2);
}

#[test]
fn tampered_nested_certificates_are_rejected() {
    let its = two_phases();
    let c = certificate(&its);
    // the last phase replaced by a function that is not bounded
    let mut bad = c.clone();
    bad.sccs[0].levels[0].later_phases[0][0].1 = LinExpr::var(Var(1));
    assert!(verify_termination(&its, &bad).is_err());
    // a phase dropped: the certificates no longer match the depth
    let mut bad = c.clone();
    bad.sccs[0].levels[0].later_phases.clear();
    assert!(verify_termination(&its, &bad).is_err());
    // a multiplier changed
    let mut bad = c.clone();
    if let RuleCert::Nested { steps, .. } = &mut bad.sccs[0].levels[0].rules[0].cert {
        for m in steps[1].multipliers.iter_mut() {
            *m = &*m + &jtg_prove::Q::one();
        }
    }
    assert!(verify_termination(&its, &bad).is_err());
    // the loop without its guard runs forever: the certificate does not fit it
    let unguarded = koat("start(x, y) -> f(x, y)  f(x, y) -> f(x + y, y - 1)", "x y");
    assert!(verify_termination(&unguarded, &c).is_err());
}

#[test]
fn concrete_runs_satisfy_the_nested_conditions() {
    let its = two_phases();
    let c = certificate(&its);
    let r = c.sccs[0].levels[0].rules[0].instance.rule;
    for (x0, y0) in [(5i64, 3i64), (1, 0), (10, -4), (3, 7)] {
        let (mut x, mut y) = (BigInt::from(x0), BigInt::from(y0));
        let mut steps = 0;
        while x > BigInt::from(0) {
            let t = check_transition(&its, &c, r, &[x.clone(), y.clone()], &[]).unwrap();
            assert_eq!(t.ranking.len(), 1);
            assert!(t.ranking[0].holds(), "{x0}, {y0}: {:?}", t.ranking[0]);
            let next = t.successor.expect("the guard holds");
            (x, y) = (next[0].clone(), next[1].clone());
            steps += 1;
            assert!(steps < 1000);
        }
    }
}
