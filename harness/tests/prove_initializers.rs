//! Class initializers: a run ends only if each `<clinit>` it starts ends, which the method's
//! graph does not show (the engine treats a class as initialised). A method that may start an
//! initializer never shown to end is not YES, and says which; one whose loop ends is proved on
//! its own graph; javac's enum initializers end by their shape. An initializer that throws
//! makes its class's first use throw an error the graph does not show: fine where it ends the
//! run, not where the method catches it.

mod common;

use common::{checked_verdict, fixtures, jtg};

/// `jtg prove` of a fixture method: (exit code, stdout).
fn prove(method: &str, extra: &[&str]) -> (i32, String) {
    let f = fixtures().display().to_string();
    let mut args = vec!["prove", &f, method];
    args.extend(extra);
    let (code, out, err) = jtg(&args);
    assert_eq!(code, 0, "{out}{err}");
    (code, out)
}

#[test]
fn a_method_starting_an_initializer_that_spins_is_not_yes() {
    // SpinInit.touch reads Spinner.f: Spinner's `static { while (a == 0) f++; }` never ends,
    // though the graph of touch ends right after the getstatic
    for (m, ints) in [
        ("SpinInit.touch", "unbounded"),
        ("SpinInit.touch", "java"),
        ("Spinner.get", "unbounded"),
    ] {
        let (_, out) = prove(m, &["--ints", ints]);
        assert!(out.contains(": MAYBE"), "{m}: {out}");
        assert!(
            out.contains("the class initializer Spinner.<clinit>()V that the run may start is not proved to end: no ranking function found for the loop at Spinner.<clinit>()V"),
            "{m}: {out}"
        );
    }
    let (_, json) = prove("SpinInit.touch", &["--format", "json"]);
    assert!(json.contains("\"verdict\": \"MAYBE\""), "{json}");
    assert!(
        json.contains("class initializer Spinner.<clinit>()V"),
        "{json}"
    );
}

#[test]
fn initializers_that_end_keep_the_yes() {
    // Squares' initializer fills its table in a loop: YES on its own graph
    let v = checked_verdict("SpinInit.square", &[]);
    assert!(v.ends_with(": YES"), "{v}");
    // an enum's initializer (constants, `$VALUES`) is straight-line code
    let v = checked_verdict("everyday.Enums.ordinalSum", &[]);
    assert!(v.ends_with(": YES"), "{v}");
}

#[test]
fn an_inputs_class_is_initialized_before_the_run() {
    // an element of an Object[] may be a Spinner (the fixtures' class path holds it), but an
    // object exists only once its class's initialization started: the run starts none
    let v = checked_verdict("everyday.ArrayLoops.countNonNull", &[]);
    assert!(v.ends_with(": YES"), "{v}");
}

#[test]
fn an_initializer_that_throws_is_no_yes_where_its_error_is_caught() {
    // Failing's `static int x = 1 / zero();` throws; rescue catches the
    // ExceptionInInitializerError and spins, while failing's run ends by it
    for ints in ["unbounded", "java"] {
        let (_, out) = prove("SpinInit.rescue", &["--ints", ints]);
        assert!(out.contains(": MAYBE"), "{out}");
        assert!(
            out.contains("the class initializer Failing.<clinit>()V that the run may start is not proved to end normally: it may end by an exception [node")
                && out.contains("the handler at SpinInit.rescue(I)I pc"),
            "{out}"
        );
    }
    let v = checked_verdict("SpinInit.failing", &[]);
    assert!(v.ends_with(": YES"), "{v}");
    // a synchronized block's handler only rethrows the error: it still ends the run
    let v = checked_verdict("SpinInit.lockedFailing", &[]);
    assert!(v.ends_with(": YES"), "{v}");
    // a handler, but Squares' initializer cannot throw
    let v = checked_verdict("SpinInit.squareOrZero", &[]);
    assert!(v.ends_with(": YES"), "{v}");
}

#[test]
fn check_ends_runs_whose_initializer_never_ends() {
    // building a Spinner input starts Spinner's initializer, which never ends: the run is cut
    // before its first step (as is Spinner.get's, in its own class's initializer), and a run
    // that showed no state is no violation; check must not hang on it
    let f = fixtures().display().to_string();
    for method in ["SpinInit.holdsSpinner", "Spinner.get"] {
        let (code, out, err) = jtg(&["check", &f, method, "-n", "12", "--max-steps", "2000"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(" 0 violations"), "{out}");
        assert!(!out.contains(" 0 cut"), "{out}");
    }
    // no object of Failing can exist (its initializer throws): such an input is refused, named
    let (code, out, err) = jtg(&["check", &f, "SpinInit.holdsFailing", "-n", "12"]);
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        err.contains("no object of class Failing can be an input: its static initializer threw java.lang.ArithmeticException"),
        "{err}"
    );
}
