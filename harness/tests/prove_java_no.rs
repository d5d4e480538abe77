//! Issue #34, Java ints: loops that never end under 32-bit wrap-around are NO by a closed
//! recurrent set (docs/proving.md, *NO under Java ints*), each witness run in the JVM, its
//! evidence and integer model stated in text and JSON, and the cross-check without violations.

mod common;

use common::jtg;

fn fixtures() -> String {
    common::fixtures().display().to_string()
}

/// `while (x != 0) x -= 2` (odd x) and `for (i = 0; i <= n; i++)` (n = MAX): NO under
/// `--ints java`, by a set closed under the wrap case too (`x ≡ 1 (mod 2)`; `n ≥ MAX`), the
/// JVM run cut by the step budget inside it; the parity witness wraps at its first step.
#[test]
fn java_int_loops_that_never_end_are_no_with_jvm_evidence() {
    for (method, set, input) in [
        ("RecNo.parity", "i1 ≡ 1 (mod 2)", "i1: -2147483647"),
        ("RecNo.upTo", "2147483647 <= i7", "i1: 2147483647"),
    ] {
        let (code, out, err) = jtg(&[
            "prove",
            &fixtures(),
            method,
            "--ints",
            "java",
            "--check",
            "20",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(": NO"), "{method}: {out}");
        assert!(out.contains("witness (recurrent_set)"), "{method}: {out}");
        assert!(out.contains(set), "{method}: {out}");
        assert!(out.contains(input), "{method}: {out}");
        assert!(
            out.contains("the wrap-around cases of Java's ints included"),
            "{method}: {out}"
        );
        assert!(
            out.contains("evidence: step_budget (integers: java)"),
            "{method}: {out}"
        );
        assert!(
            out.contains("the run cut by the step budget, never ended"),
            "{out}"
        );
        assert!(out.contains(" 0 violations"), "{method}: {out}");
        if method == "RecNo.parity" {
            assert!(
                out.contains("it wrapped around at JVM step")
                    && out.contains("-2147483647 → 2147483647"),
                "{out}"
            );
        }
        let (code, json, err) = jtg(&[
            "prove",
            &fixtures(),
            method,
            "--ints",
            "java",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{json}{err}");
        let v: serde_json::Value = serde_json::from_str(&json).expect("json");
        assert_eq!(v["verdict"], "NO", "{method}");
        assert_eq!(v["witness"]["int_model"], "java", "{method}");
        assert_eq!(v["witness"]["evidence"], "step_budget", "{method}");
        assert_eq!(v["witness"]["kind"], "recurrent_set", "{method}");
    }
}

/// Loops that end under Java ints stay without NO: `while (x > 0) x++` overflows to a negative
/// x and stops (NO only over mathematical integers).
#[test]
fn a_loop_that_overflows_to_its_exit_is_not_no_under_java_ints() {
    let (code, out, err) = jtg(&["prove", &fixtures(), "RecNo.grow", "--ints", "java"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains(": NO"), "{out}");
}
