//! Interval invariants: proofs they enable, their certificates re-checked by `verify`, tampered
//! invariants rejected, and a chain certificate over a substituted equation accepted.

use jtg_prove::lp::Limits;
use jtg_prove::{infer_invariants as infer, InvariantStepProof as StepProof, Invariants};
use jtg_prove::{
    parse_koat, prove, BigInt, Certificate, Constraint, Its, LinExpr, Options, RuleId,
    TerminationCertificate, Var, Verdict, Q,
};
use jtg_prove::{verify_invariants, verify_termination};

/// TPDB's `PastaC5` as jtg's graphs give it: the subtractive gcd, entered with `x, y > 0`,
/// the loop test `x != y` repeated on each branch. Without `x, y ≥ 1` at the loop head no
/// ranking function exists (for `y ≤ 0` the first branch never ends).
fn gcd() -> Its {
    parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
         (RULES start(x, y) -> f(x, y) :|: x > 0 && y > 0
                f(x, y) -> g(x, y) :|: x != y
                g(x, y) -> f(x - y, y) :|: x > y && x != y
                g(x, y) -> f(x, y - x) :|: x <= y && x != y)",
    )
    .unwrap()
}

fn yes(its: &Its) -> TerminationCertificate {
    let p = prove(its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes, "{:?}", p.notes);
    match p.certificate {
        Certificate::Termination(c) => c,
        _ => unreachable!(),
    }
}

fn ge(v: u32, k: i64) -> Constraint {
    Constraint::ge(&LinExpr::var(Var(v)), &LinExpr::constant(k))
}

#[test]
fn the_subtractive_gcd_is_proved_with_invariants() {
    let its = gcd();
    let cert = yes(&its);
    let f = its.location_by_name("f").unwrap();
    assert_eq!(cert.invariants.at(f), &[ge(0, 1), ge(1, 1)]);
    verify_termination(&its, &cert).unwrap();
    // the same ranking functions without the invariants do not hold
    let mut bare = cert.clone();
    bare.invariants = Invariants::default();
    assert!(verify_termination(&its, &bare).is_err());
}

#[test]
fn without_the_entry_check_there_is_no_invariant_and_no_yes() {
    let its = parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
         (RULES start(x, y) -> f(x, y)
                f(x, y) -> f(x - y, y) :|: x > y
                f(x, y) -> f(x, y - x) :|: x < y)",
    )
    .unwrap();
    assert_eq!(infer(&its, 4, &Limits::default()), None);
    assert_ne!(prove(&its, &Options::default()).verdict, Verdict::Yes);
}

#[test]
fn tampered_invariants_are_rejected() {
    let its = gcd();
    let cert = yes(&its);
    let inv = &cert.invariants;
    verify_invariants(&its, inv).unwrap();
    let f = its.location_by_name("f").unwrap();
    // a stronger bound than the rules keep: x ≥ 2
    let mut strong = inv.clone();
    let at_f = strong
        .locations
        .iter_mut()
        .find(|l| l.location == f)
        .unwrap();
    at_f.bounds[0] = ge(0, 2);
    assert!(verify_invariants(&its, &strong).is_err());
    // an invariant at the start location (runs start anywhere)
    let mut at_start = inv.clone();
    at_start.locations[0].location = its.start();
    assert!(verify_invariants(&its, &at_start).is_err());
    // a step's multipliers scaled
    let mut scaled = inv.clone();
    let step = scaled
        .steps
        .iter_mut()
        .find_map(|s| match &mut s.proof {
            StepProof::Bounds(p) => Some(p),
            StepProof::Infeasible(_) => None,
        })
        .unwrap();
    for m in &mut step[0].multipliers {
        *m = &*m * &Q::int(2);
    }
    assert!(verify_invariants(&its, &scaled).is_err());
    // a missing step
    let mut missing = inv.clone();
    missing.steps.pop();
    assert!(verify_invariants(&its, &missing).is_err());
    // the whole certificate rejects a broken invariant too
    let mut bad = cert.clone();
    bad.invariants = strong;
    assert!(verify_termination(&its, &bad).is_err());
}

#[test]
fn invariants_hold_on_concrete_runs() {
    let its = gcd();
    let cert = yes(&its);
    let f = its.location_by_name("f").unwrap();
    for (x, y) in [(1, 1), (7, 3), (12, 18), (5, 40)] {
        let mut vals = vec![BigInt::from(x), BigInt::from(y)];
        let mut rule = RuleId(0);
        for _ in 0..200 {
            let Some(next) = its.step(rule, &vals, &[]).unwrap() else {
                break;
            };
            vals = next;
            let to = its.rule(rule).to;
            assert!(jtg_prove::in_set(cert.invariants.at(to), &vals));
            let Some(r) = its
                .rule_ids()
                .find(|&r| its.rule(r).from == to && its.step(r, &vals, &[]).unwrap().is_some())
            else {
                break;
            };
            rule = r;
        }
        // the run ends at the loop head with both operands the gcd
        assert_eq!(its.rule(rule).to, f);
        assert_eq!(vals[0], vals[1]);
        assert_eq!(vals[0], BigInt::from(num_gcd(x, y)));
    }
}

fn num_gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        num_gcd(b, a % b)
    }
}

/// `a: f(x) → f(−1) [x > 0]` then `b: f(x) → f(2) [x = 0]`: `b`'s guard on `a`'s result is the
/// constant equation `−1 = 0`, which the prover's rows write as `1 = 0`; found by
/// `soundness.rs`'s random loops.
#[test]
fn a_chain_into_a_constant_equation_is_accepted() {
    let its = parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
         (RULES start() -> f(2)
                f(x) -> f(2) :|: x = 0
                f(x) -> f(-1) :|: x > 0)",
    )
    .unwrap();
    let cert = yes(&its);
    verify_termination(&its, &cert).unwrap();
}
