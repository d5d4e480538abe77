//! The prover on hand-written ITSs: the loops the brief names, and classic examples.

use jtg_prove::RuleCert;
use jtg_prove::{parse_koat, prove, Certificate, Its, Options, Verdict};

fn koat(rules: &str, vars: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .unwrap()
}

fn verdict(its: &Its) -> Verdict {
    let p = prove(its, &Options::default());
    assert!(
        p.notes.iter().all(|n| !n.contains("internal error")),
        "{:?}",
        p.notes
    );
    p.verdict
}

#[test]
fn countdown_is_yes() {
    let its = koat("start(x) -> f(x)  f(x) -> f(x - 1) :|: x > 0", "x");
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes);
    let Certificate::Termination(c) = &p.certificate else {
        panic!("no certificate")
    };
    assert_eq!(c.sccs.len(), 1);
    assert_eq!(c.sccs[0].levels.len(), 1);
    assert!(c.sccs[0].levels[0].rules[0].cert.is_strict());
}

#[test]
fn lexicographic_needs_two_levels() {
    // Outer loop decreases x, inner loop decreases y and resets nothing: (x, y) lexicographic.
    let its = koat(
        "start(x, y) -> f(x, y)
         f(x, y) -> f(x - 1, t) :|: x > 0
         f(x, y) -> f(x, y - 1) :|: y > 0",
        "x y t",
    );
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes, "{:?}", p.notes);
    let Certificate::Termination(c) = &p.certificate else {
        panic!()
    };
    assert_eq!(c.sccs[0].levels.len(), 2);
}

#[test]
fn multi_location_loop_is_yes() {
    // while (i < n) { i++ } compiled into two locations.
    let its = koat(
        "start(i, n) -> head(i, n)
         head(i, n) -> body(i, n) :|: i < n
         body(i, n) -> head(i + 1, n)
         head(i, n) -> exit(i, n) :|: i >= n",
        "i n",
    );
    assert_eq!(verdict(&its), Verdict::Yes);
}

#[test]
fn decrement_by_two_until_zero_is_no() {
    // while (x != 0) x = x - 2, from odd x.
    let its = koat(
        "start(x) -> f(x)
         f(x) -> f(x - 2) :|: x != 0",
        "x",
    );
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::No, "{:?}", p.notes);
    let Certificate::NonTermination(rs) = &p.certificate else {
        panic!()
    };
    assert!(rs.contains(&rs.witness));
}

#[test]
fn increment_while_positive_is_no() {
    let its = koat("start(x) -> f(x)  f(x) -> f(x + 1) :|: x > 0", "x");
    assert_eq!(verdict(&its), Verdict::No);
}

#[test]
fn parallel_increment_is_no() {
    // while (x >= y) { x++; y++; }
    let its = koat(
        "start(x, y) -> f(x, y)  f(x, y) -> f(x + 1, y + 1) :|: x >= y",
        "x y",
    );
    assert_eq!(verdict(&its), Verdict::No);
}

#[test]
fn drift_needs_the_monotonicity_candidate() {
    // while (x > 0) x = x + y: G = {x ≥ 1, y ≥ 0}.
    let its = koat(
        "start(x, y) -> f(x, y)  f(x, y) -> f(x + y, y) :|: x > 0",
        "x y",
    );
    assert_eq!(verdict(&its), Verdict::No);
}

#[test]
fn alternating_sign_loop_is_no_through_a_self_loop() {
    // while (i != 0) { if (i < 0) i = -(i - 1); else i = -(i + 1); } as the TPDB's
    // Velroyen08-alternDiv compiles: a lap is g → h, h → h (the negative branch), h → g; no
    // simple cycle is closed, the cycle taking the self-loop once is (G = {i ≥ 1}).
    let its = koat(
        "start(i) -> g(i) :|: i >= 1
         g(i) -> h(-i - 1) :|: i >= 1
         h(j) -> h(-j + 1) :|: j <= -1
         h(j) -> g(j) :|: j >= 1",
        "i j",
    );
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::No, "{:?}", p.notes);
    let Certificate::NonTermination(rs) = &p.certificate else {
        panic!()
    };
    assert_eq!(rs.cycle.len(), 3);
    assert!(rs.contains(&rs.witness));
}

#[test]
fn havoc_in_loop_is_maybe_not_no() {
    // while (x > 0) x = t (t arbitrary): terminates for some choices, not for others; a NO
    // would depend on the choice of t, which we never claim.
    let its = koat("start(x) -> f(x)  f(x) -> f(t) :|: x > 0", "x t");
    assert_eq!(verdict(&its), Verdict::Maybe);
}

#[test]
fn unreachable_loop_is_not_no() {
    // The loop needs x > 0 and x < 0 on entry: unreachable; the ITS terminates... it has no
    // ranking function for f's loop without the invariant, so MAYBE, never NO.
    let its = koat(
        "start(x) -> g(x) :|: x > 0 && x < 0
         g(x) -> g(x + 1) :|: x > 0",
        "x",
    );
    assert_ne!(verdict(&its), Verdict::No);
}

#[test]
fn weak_rules_keep_their_certificates() {
    let its = koat(
        "start(x, y) -> f(x, y)
         f(x, y) -> g(x, y) :|: x > 0
         g(x, y) -> f(x - 1, y)",
        "x y",
    );
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes);
    let Certificate::Termination(c) = &p.certificate else {
        panic!()
    };
    let kinds: Vec<bool> = c.sccs[0].levels[0]
        .rules
        .iter()
        .map(|r| matches!(r.cert, RuleCert::Strict { .. }))
        .collect();
    assert!(kinds.contains(&true));
}

/// Issue #34: a loop whose body alternates between two branches (`x = -x` from `x > 0`, then
/// from `x < 0`) while a counter grows: no single cycle of the rule graph has a recurrent set
/// (each branch flips the sign its own guard needs), the cycle of both laps does.
#[test]
fn alternating_branches_with_a_growing_counter_are_no_by_a_two_lap_cycle() {
    let its = koat(
        "start(x) -> f(x, 0) :|: x > 0
         f(x, c) -> g(x, c) :|: c >= 0
         g(x, c) -> f(0 - x, c + 1) :|: x > 0
         g(x, c) -> f(0 - x, c + 1) :|: x < 0
         g(x, c) -> h(c) :|: x = 0",
        "x c",
    );
    let p = prove(&its, &Options::default());
    assert_eq!(p.verdict, Verdict::No, "{:?}", p.notes);
    let Certificate::NonTermination(rs) = &p.certificate else {
        panic!("no recurrent set")
    };
    assert_eq!(rs.cycle.len(), 4, "two laps of f → g → f");
    jtg_prove::verify_nontermination(&its, rs).expect("the certificate verifies");
}
