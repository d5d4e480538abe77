//! Shared helpers of this crate's integration tests: the fixture locations and the suite
//! come from `jtg-testkit`; running the `jtg` binary and a hand-broken fixture graph are here.
#![allow(dead_code)] // every test binary compiles this module and uses part of it

#[allow(unused_imports)] // not every test binary reads the suite
pub use jtg_testkit::{fixture_sources, fixtures, suite, SuiteEntry};

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the `jtg` binary; returns (exit code, stdout, stderr). A panic of jtg fails the test
/// whatever the exit code (a panic is never a documented outcome).
pub fn jtg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("run jtg");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "jtg {args:?} panicked: {err}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// `List.contains`' graph (JSON) without its first `= null` refinement, written to `path`:
/// every input whose walk meets `cur = null` violates it.
pub fn broken_contains_graph(fixtures: &Path, path: PathBuf) -> PathBuf {
    let fx = fixtures.to_str().expect("utf-8 fixture path");
    let (code, out, err) = jtg(&["graph", fx, "List.contains", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut g: serde_json::Value = serde_json::from_str(&out).expect("graph JSON");
    let edges = g["edges"].as_array_mut().expect("edges");
    let k = edges
        .iter()
        .position(|e| {
            e["kind"] == "refine"
                && e["labels"]
                    .as_array()
                    .is_some_and(|l| l.iter().any(|l| l["label"] == "ref_eq" && l["p"] == "null"))
        })
        .expect("a null refinement");
    edges.remove(k);
    std::fs::write(&path, serde_json::to_string(&g).expect("JSON")).expect("write graph");
    path
}
