//! `jtg diff` end to end: two graphs of ListOps.length, built with `--ints unbounded` and
//! `--ints java`, written as JSON by `jtg graph` and compared by `jtg diff`.

mod common;
use common::fixtures;

use std::path::{Path, PathBuf};
use std::process::Command;

fn jtg(args: &[&str]) -> String {
    run(args, 0)
}

/// jtg's output, when it exits with `code` (`jtg diff`: 0 the same, 1 they differ).
fn run(args: &[&str], code: i32) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("run jtg");
    assert_eq!(
        out.status.code(),
        Some(code),
        "jtg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jtg-diff-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn graph_json(dir: &Path, ints: &str) -> String {
    let path = dir.join(format!("length-{ints}.json"));
    let p = path.to_str().expect("utf-8 path").to_string();
    let fx = fixtures();
    jtg(&[
        "graph",
        fx.to_str().expect("utf-8 path"),
        "ListOps.length",
        "--ints",
        ints,
        "--format",
        "json",
        "-o",
        &p,
    ]);
    p
}

#[test]
fn diff_of_integer_modes_lists_the_java_only_nodes() {
    let dir = scratch("modes");
    let (old, new) = (graph_json(&dir, "unbounded"), graph_json(&dir, "java"));
    let report = run(&["diff", &old, &new], 1);
    let node_count = |side: &str| -> usize {
        let text = std::fs::read_to_string(if side == "old" { &old } else { &new }).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["nodes"].as_array().unwrap().len()
    };
    let (n_old, n_new) = (node_count("old"), node_count("new"));
    assert!(
        n_new > n_old,
        "Java ints need more nodes: {n_old} vs {n_new}"
    );
    assert!(
        report.starts_with(&format!("diff ListOps.length(LList;)I: old {n_old} nodes")),
        "{report}"
    );
    // Java ints bound the list elements to the int range: a changed node shows the old
    // `Z` and the new range on its heap line
    assert!(report.contains("\nchanged ["), "{report}");
    assert!(report.contains("  - o2: List(next=o3, val=i2)"), "{report}");
    assert!(report.contains("i2: [-2147483648,2147483647]"), "{report}");
    // the extra loop unrolling of the Java graph is added, with its edges
    assert!(report.contains("\nadded ["), "{report}");
    assert!(report.contains("\nedges (old ids"), "{report}");
    assert!(report.lines().any(|l| l.starts_with("  + [")), "{report}");

    // the picture highlights the differences in red
    let dot = run(&["diff", &old, &new, "--format", "dot"], 1);
    assert!(dot.starts_with("digraph"), "{dot}");
    assert!(dot.contains("color=red"), "{dot}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn diff_of_a_graph_with_itself_is_empty() {
    let dir = scratch("same");
    let g = graph_json(&dir, "unbounded");
    let report = jtg(&["diff", &g, &g]);
    let summary = report.lines().nth(1).expect("summary line");
    assert!(
        summary.contains(" 0 renamed, 0 changed, 0 removed, 0 added nodes; 0 edge changes"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 2, "{report}");
    let dot = jtg(&["diff", &g, &g, "--format", "dot"]);
    assert!(!dot.contains("red"), "{dot}");
    std::fs::remove_dir_all(&dir).ok();
}
