//! The `jtg` binary on inputs it cannot handle: one-line errors naming the problem, documented
//! exit codes, never a panic.

mod common;
use common::fixtures;

use std::process::Command;

/// Runs jtg; returns (exit code, stderr).
fn jtg(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("run jtg");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!err.contains("panicked"), "jtg panicked: {err}");
    (out.status.code().unwrap_or(-1), err)
}

#[test]
fn unsupported_features_name_class_method_pc_and_opcode() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    for (method, needles) in [
        (
            // floats are modelled coarsely, but no `Math` method on them is
            "Unsupported.viaUlp",
            vec![
                "Unsupported.viaUlp(I)I",
                "pc 2",
                "invokestatic",
                "java.lang.Math",
            ],
        ),
        (
            "Unsupported.show",
            vec![
                "Unsupported.show(I)Ljava/lang/String;",
                "pc 3",
                "invokestatic",
                "java.lang.Integer.toString(II)",
            ],
        ),
        (
            // `Objects.hashCode` is modelled where the argument's class is known; of an
            // `Object` of unknown class it would need every class of the run
            "Unsupported.objectsHash",
            vec![
                "Unsupported.objectsHash(Ljava/lang/Object;)I",
                "pc 1",
                "invokestatic",
                "instance refinement of java.lang.Object",
            ],
        ),
    ] {
        let (code, err) = jtg(&["graph", fx, method]);
        assert_eq!(code, 3, "{method}: {err}");
        let last = err.lines().last().unwrap_or("");
        for n in needles {
            assert!(last.contains(n), "{method}: `{n}` missing in {last}");
        }
    }
    // hashCode on a java.lang.Object of unknown class used to be unsupported here; it now
    // dispatches over the closed world of the run (docs/engine.md, dispatch)
    let (code, err) = jtg(&["graph", fx, "Unsupported.hash"]);
    assert_eq!(code, 0, "Unsupported.hash: {err}");
}

#[test]
fn bad_graph_arguments() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let (code, err) = jtg(&["graph", fx, "List.nope"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("List.nope") && err.contains("candidates"),
        "{err}"
    );
    let (code, err) = jtg(&["graph", "/nonexistent/dir", "List.get"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/dir"), "{err}");
    let (code, err) = jtg(&["graph", fx, "NoSuchClass.m"]);
    assert_eq!(code, 2);
    assert!(err.contains("NoSuchClass"), "{err}");
    let (code, err) = jtg(&["graph", fx, "IntLoops.nested", "--max-nodes", "20"]);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("node budget"), "{err}");
}
