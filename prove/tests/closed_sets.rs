//! Closed recurrent sets (issue #34): NO for loops that never end under Java's 32-bit ints,
//! where the run takes the wrap rule now and then (`cert_closed`, `recur_closed`,
//! `verify_closed`), and no NO where a loop ends.

use jtg_prove::verify_closed;
use jtg_prove::{parse_koat, prove, BigInt, Certificate, Its, Options, Verdict, Q};
use jtg_prove::{ClosedRecurrentSet, ClosedStepProof as StepProof, IntProof};

fn koat(rules: &str, vars: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .unwrap()
}

/// `MIN ≤ v ≤ MAX` for a 32-bit int.
fn int(v: &str) -> String {
    format!("{v} >= -2147483648 && {v} <= 2147483647")
}

/// `while (x != 0) x -= 2;` under Java ints, as the graph encoding splits it: `x ≥ 1` exact,
/// `x ≤ −1` without wrap (`t = x − 2`) and with wrap (`t = x − 2 + 2³²`), the exit `x = 0`.
fn java_parity(step: i64, guard_ne: bool) -> Its {
    let w = 4294967296i64 - step;
    let (pos, neg) = if guard_ne {
        ("x >= 1", "x <= -1")
    } else {
        ("x >= 1", "x <= -1 && x >= 1")
    };
    let exit = if guard_ne { "x = 0" } else { "x <= 0" };
    koat(
        &format!(
            "start(x) -> f(x) :|: {x}
             f(x) -> g(x - {step}) :|: {x} && {pos}
             f(x) -> g(t) :|: {x} && {neg} && x >= {lo} && t = x - {step} && {t}
             f(x) -> g(t) :|: {x} && {neg} && x < {lo} && t = x + {w} && {t}
             f(x) -> h(x) :|: {x} && {exit}
             g(y) -> f(y) :|: {y}",
            x = int("x"),
            y = int("y"),
            t = int("t"),
            lo = -2147483648i64 + step,
        ),
        "x y t",
    )
}

/// `for (i = 0; i <= n; i++) {}` under Java ints: `i ≤ n` never fails for `n = MAX`.
fn java_up_to(strict: bool) -> Its {
    let (cont, exit) = if strict {
        ("i < n", "i >= n")
    } else {
        ("i <= n", "i > n")
    };
    koat(
        &format!(
            "start(n) -> f(n, 0) :|: {n}
             f(n, i) -> e(n, i) :|: {n} && {i} && {exit}
             f(n, i) -> f(n, t) :|: {n} && {i} && {cont} && i <= 2147483646 && t = i + 1 && {t}
             f(n, i) -> f(n, t) :|: {n} && {i} && {cont} && i > 2147483646 && t = i - 4294967295 && {t}",
            n = int("n"),
            i = int("i"),
            t = int("t"),
        ),
        "n i t",
    )
}

fn closed_no(its: &Its) -> ClosedRecurrentSet {
    let p = prove(its, &Options::default());
    assert_eq!(p.verdict, Verdict::No, "{:?}", p.notes);
    let Certificate::ClosedNonTermination(c) = p.certificate else {
        panic!("not a closed set: {:?}", p.certificate)
    };
    verify_closed(its, &c).expect("re-verified");
    c
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
fn java_parity_is_no_by_a_congruence_through_the_wrap() {
    let its = java_parity(2, true);
    let c = closed_no(&its);
    let head = c.set(c.head).expect("the head's set");
    assert_eq!(head.congruences.len(), 1, "{head:?}");
    assert_eq!(head.congruences[0].modulus, Q::int(2));
    // odd, and the exit x = 0 is disabled by the residue, not by a polyhedron
    assert!(&c.witness[0] % BigInt::from(2) != BigInt::from(0));
    // the witness takes the wrap at once: MIN + 1 − 2 wraps to MAX
    assert_eq!(c.witness[0], BigInt::from(i32::MIN + 1), "{:?}", c.sets);
    assert!(c
        .steps
        .iter()
        .any(|(_, p)| matches!(p, StepProof::Disabled(IntProof::Residue { .. }))));
}

#[test]
fn a_step_of_six_keeps_the_residue_mod_two_only() {
    // x −= 6 wraps by 2³² − 6: the gcd of 6 and 2³² is 2, so x ≡ 1 (mod 2), not mod 6
    let c = closed_no(&java_parity(6, true));
    let head = c.set(c.head).expect("the head's set");
    assert_eq!(head.congruences[0].modulus, Q::int(2));
}

#[test]
fn java_up_to_max_is_no_across_the_wrap() {
    let c = closed_no(&java_up_to(false));
    assert_eq!(
        c.witness[0],
        BigInt::from(i32::MAX),
        "n = MAX: {:?}",
        c.witness
    );
}

#[test]
fn loops_that_end_under_java_ints_are_never_no() {
    // x −= 1 until 0: every int reaches 0 (through the wrap): no residue avoids it
    assert_ne!(verdict(&java_parity(1, true)), Verdict::No);
    // x −= 2 while x > 0: ends
    assert_ne!(verdict(&java_parity(2, false)), Verdict::No);
    // i < n: ends, also for n = MAX
    assert_ne!(verdict(&java_up_to(true)), Verdict::No);
}

#[test]
fn tampered_closed_sets_are_rejected() {
    let its = java_parity(2, true);
    let c = closed_no(&its);
    let head = c.sets.iter().position(|s| s.location == c.head).unwrap();
    // the wrong residue: x ≡ 0 (mod 2) holds of 0, the exit
    let mut t = c.clone();
    for s in &mut t.sets {
        for k in &mut s.congruences {
            k.expr.constant = Q::zero();
        }
    }
    assert!(verify_closed(&its, &t).is_err());
    // modulus 4: x − 2 breaks x ≡ 1 (mod 4)
    let mut t = c.clone();
    for s in &mut t.sets {
        for k in &mut s.congruences {
            k.modulus = Q::int(4);
        }
    }
    assert!(verify_closed(&its, &t).is_err());
    // without the congruence 0 is in the set
    let mut t = c.clone();
    t.sets[head].congruences.clear();
    assert!(verify_closed(&its, &t).is_err());
    // a rule without its step proof
    let mut t = c.clone();
    t.steps.pop();
    assert!(verify_closed(&its, &t).is_err());
    // a cover case dropped
    let mut t = c.clone();
    t.sets[head].cases.pop();
    t.sets[head].cover.truncate(1);
    assert!(verify_closed(&its, &t).is_err());
    // an even witness
    let mut t = c.clone();
    t.witness[0] += 1;
    assert!(verify_closed(&its, &t).is_err());
    // up-to: n = MAX − 1 lets i pass n
    let its = java_up_to(false);
    let c = closed_no(&its);
    let mut t = c.clone();
    t.start_values[0] -= 1;
    t.witness[0] -= 1;
    assert!(verify_closed(&its, &t).is_err());
}

#[test]
fn closed_sets_survive_json() {
    let its = java_parity(2, true);
    let p = prove(&its, &Options::default());
    let text = serde_json::to_string(&p).unwrap();
    let back: jtg_prove::Proof = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
    let Certificate::ClosedNonTermination(c) = &back.certificate else {
        panic!("a closed set")
    };
    verify_closed(&its, c).unwrap();
}

/// `while (x != c) x += k` on ints of `bits` bits (range `[−2^(bits−1), 2^(bits−1) − 1]`),
/// split into its exact and wrap cases as the graph encoding does.
fn small_loop(k: i64, c: i64, bits: u32) -> Its {
    let w = 1i64 << bits;
    let (lo, hi) = (-(w / 2), w / 2 - 1);
    let r = |v: &str| format!("{v} >= {lo} && {v} <= {hi}");
    koat(
        &format!(
            "start(x) -> f(x) :|: {x}
             f(x) -> g(t) :|: {x} && x != {c} && x + {k} >= {lo} && x + {k} <= {hi} && t = x + {k} && {t}
             f(x) -> g(t) :|: {x} && x != {c} && x + {k} > {hi} && t = x + {k} - {w} && {t}
             f(x) -> g(t) :|: {x} && x != {c} && x + {k} < {lo} && t = x + {k} + {w} && {t}
             f(x) -> h(x) :|: {x} && x = {c}
             g(y) -> f(y) :|: {y}",
            x = r("x"),
            y = r("y"),
            t = r("t"),
        ),
        "x y t",
    )
}

/// Whether `x += k` (wrapping at `bits` bits) from `x` ever meets `c`.
fn meets(mut x: i64, k: i64, c: i64, bits: u32) -> bool {
    let w = 1i64 << bits;
    for _ in 0..=w {
        if x == c {
            return true;
        }
        x = (x + k + w / 2).rem_euclid(w) - w / 2;
    }
    false
}

#[test]
fn small_width_loops_agree_with_brute_force() {
    let bits = 4;
    for k in [-4i64, -3, -2, -1, 1, 2, 3, 4, 6] {
        for c in -2..=2 {
            let its = small_loop(k, c, bits);
            let p = prove(&its, &Options::default());
            // some start value runs forever exactly when k's gcd with 2^bits does not divide
            // the distance to c for some x: when k is even
            let forever = (-8..8).any(|x| !meets(x, k, c, bits));
            match &p.certificate {
                Certificate::ClosedNonTermination(cs) => {
                    verify_closed(&its, cs).unwrap();
                    let x0 = i64::try_from(&cs.witness[0]).unwrap();
                    assert!(
                        !meets(x0, k, c, bits),
                        "k = {k}, c = {c}: witness {x0} ends"
                    );
                }
                Certificate::NonTermination(rs) => {
                    let x0 = i64::try_from(&rs.witness[0]).unwrap();
                    assert!(
                        !meets(x0, k, c, bits),
                        "k = {k}, c = {c}: witness {x0} ends"
                    );
                }
                _ => assert!(!forever, "k = {k}, c = {c}: no NO ({:?})", p.notes),
            }
            assert_eq!(p.verdict == Verdict::No, forever, "k = {k}, c = {c}");
        }
    }
}
