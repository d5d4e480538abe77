//! Call summaries (fixture `CallResults`, docs/proving.md *Call summaries*): the return rule
//! of an abstracted call carries the affine equalities its callee's method graph gives between
//! the arguments and the result, so loops and recursions whose progress comes from a call
//! result get YES (fixture `CallResults`), and so do recursions on objects whose exact size
//! the encoding knows (fixture `Sizes`); every summary and size is read on JVM runs by the
//! cross-check like any other rule.

mod common;

use common::jtg;

/// `jtg prove CallResults.<method> --check 20 [extra]`: the verdict line, after asserting
/// 0 violations.
fn verdict(method: &str, extra: &[&str]) -> String {
    common::checked_verdict(&format!("CallResults.{method}"), extra)
}

#[test]
fn a_recursion_nested_in_its_own_argument_terminates() {
    // nest(x) = x == 0 ? 0 : nest(nest(x - 1)): every return gives 0, so the outer call's
    // argument is 0 < x
    for ints in ["unbounded", "java"] {
        let v = verdict("nestFrom", &["--ints", ints]);
        assert!(v.ends_with(": YES"), "{ints}: {v}");
    }
}

#[test]
fn a_loop_whose_update_is_a_call_result_terminates() {
    // while (x >= y && y > 0) x = minus(x, y);  minus keeps x − y through its loop
    let v = verdict("mod", &[]);
    assert!(v.ends_with(": YES"), "{v}");
}

#[test]
fn a_result_relation_found_through_a_recursion_terminates_a_loop() {
    // while (x > 0) x = dec(x, k);  dec returns x − 1 after k recursive calls
    for ints in ["unbounded", "java"] {
        let v = verdict("countDown", &["--ints", ints]);
        assert!(v.ends_with(": YES"), "{ints}: {v}");
    }
}

#[test]
fn a_remainder_below_its_divisor_terminates_euclid() {
    // b = rem(a, b) with rem's loop `while (a >= b && b > 0) a -= b`: every call site has
    // b ≥ 1, under which rem returns less than b (an inequality of the summary)
    for ints in ["unbounded", "java"] {
        let v = verdict("gcd", &["--ints", ints]);
        assert!(v.ends_with(": YES"), "{ints}: {v}");
    }
}

#[test]
fn a_recursions_inequality_terminates_a_loop() {
    // while (n > 0) n = stepDown(n);  stepDown(x) = x <= 10 ? x − 1 : stepDown(x − 3) returns
    // at most x − 1: a bound of a recursion's summary, found by a widened fixpoint (its
    // affine hull alone says nothing)
    for ints in ["unbounded", "java"] {
        let v = verdict("stepLoop", &["--ints", ints]);
        assert!(v.ends_with(": YES"), "{ints}: {v}");
    }
    // stepUp adds 4 per recursive call: its bound R ≤ x − 1 holds at the base only and grows
    // every round, so widening drops it; the loop never ends from n ≥ 11
    let v = verdict("stepStuck", &[]);
    assert!(!v.ends_with(": YES"), "{v}");
}

#[test]
fn a_loop_bound_read_from_a_call_result_terminates() {
    // i < capped(n, 100) re-read every lap: capped returns at most its `cap` argument
    let v = verdict("upToClamped", &[]);
    assert!(v.ends_with(": YES"), "{v}");
}

#[test]
fn a_summary_claims_only_what_its_call_sites_allow() {
    // the same rem called with any b returns a itself for b ≤ 0: never YES
    for ints in ["unbounded", "java"] {
        let v = verdict("stuck", &["--ints", ints]);
        assert!(!v.ends_with(": YES"), "{ints}: {v}");
    }
}

#[test]
fn the_cross_check_reads_returns_through_a_chained_call_node() {
    // gcd's call node is no ITS location (its rule is chained through): the run's transition
    // from the loop head through the callee's return is still one checked transition
    let f = common::fixtures().display().to_string();
    let (code, out, err) = jtg(&["prove", &f, "CallResults.gcd", "--check", "20", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(0 skipped"), "{out}");
    assert!(out.contains(", 0 violations"), "{out}");
}

#[test]
fn the_return_rule_carries_the_summary() {
    // the loop head's rule through the abstracted call of dec: x' = x − 1 (the ITS as KoAT
    // prints it; without the summary the result would be a fresh temporary)
    let f = common::fixtures().display().to_string();
    let (code, out, err) = jtg(&[
        "graph",
        &f,
        "CallResults.countDown",
        "--format",
        "koat",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let self_loop_down = out.lines().any(|l| {
        let Some((lhs, rhs)) = l.trim().split_once(" -> ") else {
            return false;
        };
        let (Some(from), Some(to)) = (lhs.split('(').next(), rhs.split('(').next()) else {
            return false;
        };
        from == to && rhs.contains("(i1 - 1,")
    });
    assert!(self_loop_down, "{out}");
}

#[test]
fn a_fresh_object_has_its_exact_size() {
    // skipTwo(x) recurses on new Nat(x.pred.pred): |new Nat(c)| = 1 + |c| < |x| needs the
    // object's size from above as well as below
    let f = common::fixtures().display().to_string();
    for (m, what) in [
        ("Sizes.skipTwo", "a new object's size"),
        (
            "Sizes.chop",
            "copy's result has its argument's size (a size summary)",
        ),
        (
            "Sizes.chunks",
            "drop's result is no larger than its argument (a recursion's size bound)",
        ),
    ] {
        let (code, out, err) = jtg(&["prove", &f, m, "--check", "20"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.lines().next().unwrap_or_default().ends_with(": YES"),
            "{what}: {out}"
        );
        assert!(out.contains(", 0 violations"), "{what}: {out}");
    }
}

#[test]
fn a_recursion_on_a_growing_call_result_is_no_yes() {
    // spin(x, k) recurses on grow(x.pred, k), an object larger than x: no bound of grow's
    // summary may claim otherwise
    let f = common::fixtures().display().to_string();
    let (code, out, err) = jtg(&["prove", &f, "Sizes.spin", "--check", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines().next().unwrap_or_default().ends_with(": NO"),
        "{out}"
    );
    assert!(out.contains(", 0 violations"), "{out}");
}
