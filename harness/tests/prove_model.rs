//! What a `jtg prove` verdict states besides YES / NO / MAYBE (issue #36): the integer model
//! and the start state's heap shape it assumes (text and JSON), a reason for every MAYBE,
//! runs of the cross-check that were cut, the wall-clock safety net (`--max-secs`), source
//! lines of ranking functions, and failures equal up to renaming reported once.

mod common;

use std::process::Command;

fn jtg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("jtg runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        common::stderr_of(&out.stderr),
    )
}

fn fixtures() -> String {
    common::fixtures().display().to_string()
}

fn json(args: &[&str]) -> serde_json::Value {
    json_exiting(args, 0)
}

/// The JSON report of a run that exits with `code` (1: cross-check violations).
fn json_exiting(args: &[&str], code: i32) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "--no-times"]);
    let (got, out, err) = jtg(&all);
    assert_eq!(got, code, "{out}{err}");
    serde_json::from_str(&out).expect("JSON report")
}

#[test]
fn a_verdict_states_its_integer_model_and_start_shape() {
    let fx = fixtures();
    let (code, out, err) = jtg(&["prove", &fx, "List.contains"]);
    assert_eq!(code, 0, "{out}{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("List.contains(LList;I)Z: YES"));
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("assuming: mathematical integers (no overflow"),
        "{out}"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("  and a start state: acyclic, unshared parameters (trees)"),
        "{out}"
    );
    // the ranking function names the loop's source line and the variable's source name
    assert!(out.contains("|cur| (|o1|)  @ List.java:2"), "{out}");
    let j = json(&["prove", &fx, "List.contains"]);
    let a = &j["assumptions"];
    assert_eq!(a["ints"], "mathematical");
    assert_eq!(a["start"]["references"], true);
    assert_eq!(a["start"]["acyclic"], true);
    assert_eq!(a["start"]["unshared"], true);
    assert_eq!(j["sources"]["0"], "List.java:2");
    let j = json(&["prove", &fx, "List.contains", "--ints", "java"]);
    assert_eq!(j["assumptions"]["ints"], "java");
    // a start state with predicates says which
    let start = common::fixture_sources().join("start/List.get.cyclic.state");
    let j = json(&["prove", &fx, "List.get", "--start", start.to_str().unwrap()]);
    let s = &j["assumptions"]["start"];
    assert_eq!(s["acyclic"], false);
    let preds: Vec<&str> = s["predicates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(preds.contains(&"o1⟲{next}"), "{preds:?}");
}

/// `for (i = 0; i <= n; i++)` with n = Integer.MAX_VALUE: YES under mathematical integers,
/// and the run (which in Java never ends) is cut: the report says both.
#[test]
fn a_cut_run_is_reported_and_the_yes_says_its_model() {
    let dir = std::env::temp_dir().join(format!("jtg-prove-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("max.state");
    std::fs::write(&input, "00 | n: i1 | ε\ni1: 2147483647\n").unwrap();
    let j = json(&[
        "prove",
        &fixtures(),
        "everyday.Daily.upTo",
        "--input",
        input.to_str().unwrap(),
    ]);
    assert_eq!(j["verdict"], "YES");
    assert_eq!(j["checked_runs"], 1);
    assert_eq!(j["cut_runs"], 1);
    let notes: Vec<&str> = j["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("1 of 1 checked runs did not end")
                && n.contains("the YES is under mathematical integers")),
        "{notes:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Every MAYBE has a reason; the wall-clock safety net (`--max-secs`) says when it stopped
/// the search.
#[test]
fn every_maybe_has_a_reason_and_the_safety_net_says_so() {
    let fx = fixtures();
    let j = json(&["prove", &fx, "everyday.Daily.upTo", "--ints", "java"]);
    if j["verdict"] == "MAYBE" {
        assert!(!j["notes"].as_array().unwrap().is_empty(), "{j}");
    }
    let j = json(&[
        "prove",
        &fx,
        "everyday.Daily.upTo",
        "--ints",
        "java",
        "--max-secs",
        "0.001",
        "-q",
    ]);
    if j["verdict"] == "MAYBE" {
        let notes = j["notes"].to_string();
        assert!(notes.contains("--max-secs 0.001"), "{notes}");
    }
    let (code, _, err) = jtg(&["prove", &fx, "List.contains", "--max-secs", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--max-secs 0: must be a positive number"),
        "{err}"
    );
}

/// A broken ranking function fails on many runs; runs whose (shrunk) inputs are the same up
/// to the names of references are one failure, listed with the cases that share it.
#[test]
fn failures_equal_up_to_renaming_are_reported_once() {
    let j = json_exiting(
        &[
            "prove",
            &fixtures(),
            "List.contains",
            "--check",
            "30",
            "--break-certificate",
            "rank",
        ],
        1,
    );
    let vs = j["violations"].as_array().unwrap();
    assert!(!vs.is_empty());
    let same: usize = vs
        .iter()
        .map(|v| v["same_as"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(same > 0, "no failure was recognised as a repeat: {vs:?}");
    // the ones reported differ from each other
    for (a, b) in vs.iter().zip(vs.iter().skip(1)) {
        assert_ne!(a["shrunk"]["input"], b["shrunk"]["input"]);
    }
    // each names the source line of its step
    assert!(vs.iter().all(|v| v["source"] == "List.java:2"), "{vs:?}");
}
