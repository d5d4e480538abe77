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
    // `Z` and the new range on its heap line, the changed tokens marked
    assert!(report.contains("\nchanged ["), "{report}");
    assert!(report.contains("  - o2: List(next=o3, val=i2)"), "{report}");
    assert!(report.contains("i2: «Z»"), "{report}");
    assert!(
        report.contains("i2: «[-2147483648,2147483647]»"),
        "{report}"
    );
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
        summary
            .contains(" 0 renamed, 0 shifted, 0 changed, 0 removed, 0 added nodes; 0 edge changes"),
        "{report}"
    );
    assert_eq!(report.lines().count(), 2, "{report}");
    let dot = jtg(&["diff", &g, &g, "--format", "dot"]);
    assert!(!dot.contains("red"), "{dot}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Exit codes as diff(1): 0 the same, 1 they differ, 2 bad input; under `--ints java`, `Z`
/// and the full int range are the same.
#[test]
fn java_ints_read_the_full_range_as_z() {
    let dir = scratch("ranges");
    let java = graph_json(&dir, "java");
    let text = std::fs::read_to_string(&java).expect("graph");
    assert!(text.contains("[-2147483648,2147483647]"), "{text}");
    let as_z = dir.join("as-z.json");
    std::fs::write(&as_z, text.replace("[-2147483648,2147483647]", "Z")).expect("write");
    let as_z = as_z.to_str().expect("utf-8 path");
    // unbounded reading: Z is not the range, the nodes changed, the tokens are marked
    let report = run(&["diff", &java, as_z], 1);
    assert!(
        report.contains("\nlegend: - old line, + new line, «…» changed tokens"),
        "{report}"
    );
    assert!(report.contains(": «[-2147483648,2147483647]»"), "{report}");
    assert!(report.contains(": «Z»"), "{report}");
    // Java ints: the same graph
    let same = run(&["diff", &java, as_z, "--ints", "java"], 0);
    assert!(
        same.contains(" 0 changed, 0 removed, 0 added nodes"),
        "{same}"
    );
    // the picture: changed tokens marked, with a legend
    let dot = run(&["diff", &java, as_z, "--format", "dot"], 1);
    assert!(dot.contains("legend [shape=note"), "{dot}");
    assert!(dot.contains("«Z»"), "{dot}");
    let svg = run(&["diff", &java, as_z, "--format", "svg"], 1);
    assert!(
        svg.contains("<svg") && svg.contains("«Z»") && svg.contains("tokens changed"),
        "{svg}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Colour: piped output is plain unless `--color always`; `NO_COLOR` and `--color never`
/// turn it off even then.
#[test]
fn diff_colours_only_when_asked_or_on_a_terminal() {
    let dir = scratch("colour");
    let (old, new) = (graph_json(&dir, "unbounded"), graph_json(&dir, "java"));
    let esc = |s: &str| s.contains('\u{1b}');
    let piped = run(&["diff", &old, &new], 1);
    assert!(!esc(&piped), "{piped:?}");
    let always = run(&["diff", &old, &new, "--color", "always"], 1);
    assert!(esc(&always), "{always:?}");
    assert!(
        always.contains("\u{1b}[31m  - "),
        "removed lines red: {always:?}"
    );
    let never = run(&["diff", &old, &new, "--color", "never"], 1);
    assert_eq!(never, piped);
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(["diff", &old, &new])
        .env("NO_COLOR", "1")
        .output()
        .expect("run jtg");
    assert!(!esc(&String::from_utf8_lossy(&out.stdout)));
    // an error line: `jtg:` in red with --color always, plain when piped
    let missing = dir.join("missing.json");
    let missing = missing.to_str().expect("utf-8 path");
    let err = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .args(["diff", missing, missing])
            .args(extra)
            .output()
            .expect("run jtg");
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    assert!(err(&[]).starts_with("jtg: cannot read"), "{}", err(&[]));
    assert!(
        err(&["--color", "always"]).starts_with("\u{1b}["),
        "{:?}",
        err(&["--color", "always"])
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The counts of the summary line (`6 identical, 2 renamed, …, 0 added nodes`), by word.
fn counts(report: &str) -> std::collections::BTreeMap<String, usize> {
    let summary = report.lines().find(|l| l.contains(" identical, ")).unwrap();
    summary
        .split(';')
        .next()
        .unwrap()
        .split(", ")
        .map(|part| {
            let mut w = part.split_whitespace();
            let n = w.next().unwrap().parse().unwrap();
            (w.next().unwrap().to_string(), n)
        })
        .collect()
}

/// Hoisting the loop bound `a.length` into a local (java-fixtures/everyday: HoistBefore.sum,
/// HoistAfter.sum) shifts every pc below it and adds a local to the loop's states. Matched by
/// pc the diff said "6 identical, 2 renamed, 1 changed, 62 removed, 56 added"; matched by
/// their states along the graphs' edges, nearly every node has its counterpart, and what is
/// left over is the few states of the bound's evaluation.
#[test]
fn diff_of_a_hoisted_loop_bound_is_structural() {
    let dir = scratch("hoist");
    let fx = fixtures();
    let json = |m: &str| {
        let p = dir.join(format!("{m}.json")).to_str().unwrap().to_string();
        jtg(&[
            "graph",
            fx.to_str().unwrap(),
            m,
            "--format",
            "json",
            "-o",
            &p,
        ]);
        p
    };
    let (old, new) = (
        json("everyday.HoistBefore.sum"),
        json("everyday.HoistAfter.sum"),
    );
    let report = run(&["diff", &old, &new], 1);
    let c = counts(&report);
    let nodes = |p: &str| -> usize {
        let j: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        j["nodes"].as_array().unwrap().len()
    };
    let matched = c["identical"] + c["renamed"] + c["shifted"] + c["changed"];
    assert_eq!(matched + c["removed"], nodes(&old), "{report}");
    assert_eq!(matched + c["added"], nodes(&new), "{report}");
    // nearly all nodes have a counterpart; the rest is the hoisting's own few states
    assert!(c["removed"] + c["added"] <= 10, "{c:?}\n{report}");
    assert!(c["shifted"] > 0, "{c:?}");
    // the new local shows up as the change of the loop's states
    assert!(report.contains("«n»: i"), "{report}");
    std::fs::remove_dir_all(&dir).ok();
}
