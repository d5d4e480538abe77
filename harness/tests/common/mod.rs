//! Shared helpers of this crate's integration tests: the fixture locations and the suite
//! come from `jtg-testkit`; running the `jtg` binary and a hand-broken fixture graph are here.
#![allow(dead_code)] // every test binary compiles this module and uses part of it

#[allow(unused_imports)] // not every test binary reads the suite
pub use jtg_testkit::{fixture_sources, fixtures, suite, SuiteEntry};

use std::path::{Path, PathBuf};
use std::process::Command;

/// jtg's stderr as a test reads it. Debug builds run the JVM with -Xcheck:jni, whose periodic
/// signal check (timing-dependent) may report the JVM's own SIGSEGV handling (stack banging,
/// a stack overflow) as "Warning: SIGSEGV handler modified!" with a dump of the handlers (or
/// as "*** Handler was modified!" with what was expected and what it is chained to);
/// those lines are the JVM's, not jtg's, and release builds (what users run) have no such
/// check, so they are dropped here.
pub fn stderr_of(raw: &[u8]) -> String {
    let stderr = String::from_utf8_lossy(raw).into_owned();
    if cfg!(debug_assertions) {
        stderr
            .lines()
            .filter(|l| !is_jni_check_signal_note(l))
            .map(|l| format!("{l}\n"))
            .collect()
    } else {
        stderr
    }
}

/// A line of -Xcheck:jni's signal-handler warning: the warning and its dump of handlers.
fn is_jni_check_signal_note(l: &str) -> bool {
    let t = l.trim_start();
    (t.starts_with("Warning: SIG") && t.ends_with("handler modified!"))
        || t.starts_with("expected:")
        || t.starts_with("found:")
        || t.starts_with("Signal Handlers:")
        || t.starts_with("Consider using jsig library")
        // the same check's other format: `*** Handler was modified!`, `*** Expected: 0x…`,
        // `chained to: javaSignalHandler in libjvm.so, …`
        || t.starts_with("*** Handler was modified!")
        || t.starts_with("*** Expected:")
        || t.starts_with("chained to:")
        || is_signal_line(t)
}

/// A line of the handler dump: a signal's name and a colon (`SIGSEGV: [libjvm.so+…],
/// sa_mask[0]=…`), or only that when the JVM's write was cut between two lines.
fn is_signal_line(t: &str) -> bool {
    t.split_once(':').is_some_and(|(name, _)| {
        name.len() > 3
            && name.starts_with("SIG")
            && name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    })
}

/// Runs the `jtg` binary; returns (exit code, stdout, stderr as [`stderr_of`] reads it). A
/// panic of jtg fails the test whatever the exit code (a panic is never a documented outcome).
pub fn jtg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("run jtg");
    let err = stderr_of(&out.stderr);
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

/// `jtg prove <fixtures> <method> --check 20 [extra]` on a fixture method (`Class.method`):
/// its verdict line, after asserting exit 0 and 0 cross-check violations.
pub fn checked_verdict(method: &str, extra: &[&str]) -> String {
    let f = fixtures().display().to_string();
    let mut args = vec!["prove", &f, method, "--check", "20"];
    args.extend(extra);
    let (code, out, err) = jtg(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(", 0 violations"), "{method} {extra:?}: {out}");
    out.lines().next().unwrap_or_default().to_string()
}
