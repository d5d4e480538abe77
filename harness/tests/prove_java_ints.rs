//! Issue #38, Java ints: YES wherever no wrap-around can keep a loop going (docs/proving.md,
//! *Java ints*), never YES where one does.

mod common;

use common::jtg;

fn fixtures() -> String {
    common::fixtures().display().to_string()
}

fn prove(method: &str, ints: &str, extra: &[&str]) -> String {
    let fx = fixtures();
    let mut args = vec!["prove", fx.as_str(), method, "--ints", ints, "-q"];
    args.extend_from_slice(extra);
    let (code, out, err) = jtg(&args);
    assert_eq!(code, 0, "{method}: {out}{err}");
    out
}

/// `while (n > 0) { l.addFirst(n); n--; }` with `addFirst` bumping `size` and `modCount`, as
/// `java.util.LinkedList`'s: the counters may wrap, but nothing reads them, so they are not
/// split into wrap cases (`relevance.rs`) and the ranking LPs run without the bounds every
/// int satisfies (`without_weak_bounds`). YES under Java ints, checked on JVM runs.
#[test]
fn a_loop_bumping_untested_counters_is_yes_under_java_ints() {
    let out = prove("JavaInts.fill", "java", &["--check", "20"]);
    assert!(out.contains("JavaInts.fill(I)LJavaInts;: YES"), "{out}");
    assert!(out.contains("Java integers"), "{out}");
    assert!(out.contains(" 0 violations"), "{out}");
    // the counters' wrap cases are gone: one rule per loop chain, not one per case
    let fx = fixtures();
    let (code, koat, err) = jtg(&[
        "graph",
        &fx,
        "JavaInts.fill",
        "--ints",
        "java",
        "--format",
        "koat",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!koat.contains("42949672"), "{koat}");
}

/// Increments whose bound is an invariant of the loop, not a test of their rule: the outer
/// `i++` of a nested loop (`square`, `difference`'s `i++` and `k++`), where the inner loop's
/// rules do not test `i`; the increment of the smaller of two different ints (`meet`: `x != y`
/// and `x <= y`). Their wrap cases are dead (`wrap_free.rs`: inductive facts of the
/// locations), so the ITS has none, and each is YES under Java ints, checked on JVM runs.
#[test]
fn increments_bounded_by_a_loop_invariant_are_exact_under_java_ints() {
    let fx = fixtures();
    for (method, name) in [
        ("JavaInts.square", "JavaInts.square(I)I"),
        ("JavaInts.meet", "JavaInts.meet(II)I"),
        ("JavaInts.difference", "JavaInts.difference([I[I[I)I"),
    ] {
        let out = prove(method, "java", &["--check", "20"]);
        assert!(out.contains(&format!("{name}: YES")), "{method}: {out}");
        assert!(out.contains(" 0 violations"), "{method}: {out}");
        let args = ["graph", &fx, method, "--ints", "java", "--format", "koat"];
        let (code, koat, err) = jtg(&args);
        assert_eq!(code, 0, "{err}");
        assert!(!koat.contains("42949672"), "{method}: {koat}");
    }
}

/// `while (x != y) if (x > y) x = x - y; else y = y - x;` entered with `x, y > 0` (TPDB
/// PastaC5): no rule tests what keeps `x - y` in range, and no no-wrap fact of a counter is
/// inductive; the interval invariants `x, y ≥ 1` of the ITS with both updates exact are
/// (`wrap_free.rs`, `exact_by_certified_invariants`). YES under Java ints, checked on JVM
/// runs.
#[test]
fn differences_kept_in_range_by_interval_invariants_are_exact_under_java_ints() {
    let out = prove("JavaInts.subtractGcd", "java", &["--check", "20"]);
    assert!(out.contains("JavaInts.subtractGcd(II)I: YES"), "{out}");
    assert!(out.contains(" 0 violations"), "{out}");
}

/// Loops that end over mathematical integers but not under Java's: `while (x >= y + 1) y++`
/// (x = MAX: `y + 1` wraps to MIN) and `y = 2 * y` below `x > 2³⁰` (y reaches MIN, then 0).
/// Dropping the weak bounds for the ranking search must not make them YES.
#[test]
fn loops_that_wrap_forever_are_never_yes_under_java_ints() {
    for method in ["JavaInts.untilAbove", "JavaInts.doubling"] {
        let out = prove(method, "unbounded", &[]);
        assert!(out.contains(": YES"), "{method}: {out}");
        let out = prove(method, "java", &[]);
        assert!(!out.contains(": YES"), "{method}: {out}");
    }
    let out = prove("JavaInts.doubling", "java", &[]);
    assert!(out.contains(": NO"), "{out}");
}

/// `for (i = 0; i <= index; i++)` after `index < size` was tested with `size` a field
/// (`java.util.LinkedList.entry`): `i + 1` cannot wrap, YES under Java ints, checked on JVM
/// runs; without the test `index` may be MAX, where the loop never ends: never YES.
#[test]
fn a_bound_tested_before_the_loop_keeps_its_counter_in_range() {
    let out = prove("JavaInts.walkTo", "java", &["--check", "20"]);
    assert!(
        out.contains("JavaInts.walkTo(LJavaInts$Counted;I)I: YES"),
        "{out}"
    );
    assert!(out.contains(" 0 violations"), "{out}");
    let out = prove("JavaInts.walkToUnchecked", "java", &[]);
    assert!(!out.contains(": YES"), "{out}");
}
