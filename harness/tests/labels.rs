//! Issue #20's label replacements, each applied by hand to the JSON form of a fixture graph
//! (`IntLoops.negate`, edge `i2 = -i1`; the issue's `i4`/`i2` are `i2`/`i1` there) and given to `jtg check --graph`: every one is killed
//! (a run violates it: exit 1) or refused before any run (an error of the graph: exit 2). So
//! are swapped refinement labels of `List.contains`. And the evaluator, label kind by label
//! kind, on hand-written concrete runs.

mod common;
use common::{fixtures, jtg};

use serde_json::{json, Value};
use std::path::Path;

/// A fresh scratch directory of this test binary.
fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("jtg-labels-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn graph_json(method: &str) -> Value {
    let fx = fixtures();
    let (code, out, err) = jtg(&["graph", fx.to_str().unwrap(), method, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("graph JSON")
}

/// `jtg check METHOD --graph` of `g` written to a file in `dir`.
fn check(dir: &Path, name: &str, method: &str, g: &Value) -> (i32, String, String) {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string_pretty(g).unwrap()).unwrap();
    let fx = fixtures();
    jtg(&[
        "check",
        fx.to_str().unwrap(),
        method,
        "--graph",
        path.to_str().unwrap(),
        "-n",
        "300",
        "--seed",
        "1",
    ])
}

/// The index of the edge whose only label is `label`.
fn edge_labelled(g: &Value, label: &Value) -> usize {
    let edges = g["edges"].as_array().unwrap();
    let found: Vec<usize> = (0..edges.len())
        .filter(|&k| edges[k]["labels"].as_array().unwrap() == &vec![label.clone()])
        .collect();
    assert_eq!(found.len(), 1, "one edge labelled {label}");
    found[0]
}

#[test]
fn issue_20_replacements_are_killed_or_refused() {
    let dir = scratch("t1");
    let g = graph_json("IntLoops.negate");
    let neg = json!({"label": "arith", "res": "i2", "op": "neg", "a": "i1"});
    let k = edge_labelled(&g, &neg);
    // the original graph holds
    let (code, out, err) = check(&dir, "original", "IntLoops.negate", &g);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 violations"), "{out}");

    let killed = |name: &str, label: Value| {
        let mut m = g.clone();
        m["edges"][k]["labels"] = json!([label]);
        let (code, out, err) = check(&dir, name, "IntLoops.negate", &m);
        assert_eq!(code, 1, "{name}: not killed: {out}{err}");
        assert!(out.contains("does not hold"), "{name}: {out}");
        out
    };
    let refused = |name: &str, labels: Value| {
        let mut m = g.clone();
        m["edges"][k]["labels"] = labels;
        let (code, out, err) = check(&dir, name, "IntLoops.negate", &m);
        assert_eq!(code, 2, "{name}: not refused: {out}{err}");
        assert!(
            err.contains(&format!("edge {k} (1 → 2)")),
            "{name}: the error names the edge: {err}"
        );
        err
    };
    // `i2 = i1` as an assignment (a copy) is killed by a run with a ≠ 0 …
    let out = killed(
        "copy",
        json!({"label": "arith", "res": "i2", "op": "add", "a": "i1", "b": "0"}),
    );
    assert!(out.contains("label `i2 = i1 + 0` does not hold: the run has i2 = "));
    // … and as the text says it, a relation naming the step's result (read in the target: a
    // library call's contract is labelled so) is killed too; a reference of neither state is
    // refused before any run
    let out = killed(
        "copy-relation",
        json!({"label": "rel", "a": "i2", "cond": "eq", "b": "i1"}),
    );
    assert!(out.contains("label `i2 = i1` does not hold"), "{out}");
    let err = refused(
        "unknown-relation",
        json!([{"label": "rel", "a": "i9", "cond": "eq", "b": "i1"}]),
    );
    assert!(err.contains("names i9, which is in neither state"), "{err}");
    // `i2 = 0`: the constant as an assignment is killed, and as a relation
    killed(
        "zero",
        json!({"label": "arith", "res": "i2", "op": "mul", "a": "i1", "b": "0"}),
    );
    killed(
        "zero-relation",
        json!({"label": "rel", "a": "i2", "cond": "eq", "b": "0"}),
    );
    // `i2 = -i1 + 7`: no label has that form; `i2 = 7 - i1` means it and is killed
    let err = refused(
        "plus-seven",
        json!([{"label": "arith", "res": "i2", "op": "add", "a": "-i1", "b": "7"}]),
    );
    assert!(err.contains("cannot be read"), "{err}");
    killed(
        "seven-minus",
        json!({"label": "arith", "res": "i2", "op": "sub", "a": "7", "b": "i1"}),
    );
    // `i2 < 0`: about the step's result (read in the target), false for a negative a
    killed(
        "negative",
        json!({"label": "rel", "a": "i2", "cond": "lt", "b": "0"}),
    );
    // `i2 = -i9`: a reference in no state
    let err = refused(
        "unknown-ref",
        json!([{"label": "arith", "res": "i2", "op": "neg", "a": "i9"}]),
    );
    assert!(
        err.contains("label `i2 = -i9` names i9, which is not in the source state"),
        "{err}"
    );
    // a free-text note is no label any more
    refused("note", json!(["i2 = -i1"]));
}

#[test]
fn relation_labels_are_checked() {
    let dir = scratch("rel");
    let g = graph_json("IntLoops.negate");
    // the branch on b after its integer refinement: `i3 < 0` and `i3 ≥ 0`
    let lt = json!({"label": "rel", "a": "i3", "cond": "lt", "b": "0"});
    let ge = json!({"label": "rel", "a": "i3", "cond": "ge", "b": "0"});
    let (k_lt, k_ge) = (edge_labelled(&g, &lt), edge_labelled(&g, &ge));
    for (name, k, label) in [
        (
            "lt-swapped",
            k_lt,
            json!({"label": "rel", "a": "0", "cond": "lt", "b": "i3"}),
        ),
        (
            "ge-strict",
            k_ge,
            json!({"label": "rel", "a": "i3", "cond": "gt", "b": "0"}),
        ),
        ("lt-negated", k_lt, ge.clone()),
    ] {
        let mut m = g.clone();
        m["edges"][k]["labels"] = json!([label]);
        let (code, out, err) = check(&dir, name, "IntLoops.negate", &m);
        assert_eq!(code, 1, "{name}: {out}{err}");
    }
}

#[test]
fn swapped_refinement_labels_are_killed() {
    let dir = scratch("t3");
    let g = graph_json("List.contains");
    let edges = g["edges"].as_array().unwrap().clone();
    let o1_null = json!({"label": "ref_eq", "r": "o1", "p": "null", "equal": true});
    let k_null = edge_labelled(&g, &o1_null);
    // the other case of the same instance refinement: `o1 = oN` (the fresh object)
    let k_obj = (0..edges.len())
        .find(|&m| {
            m != k_null
                && edges[m]["from"] == edges[k_null]["from"]
                && edges[m]["labels"][0]["label"] == "ref_eq"
                && edges[m]["labels"][0]["r"] == "o1"
        })
        .expect("the non-null case");
    let (code, out, err) = check(&dir, "original", "List.contains", &g);
    assert_eq!(code, 0, "{out}{err}");
    // `o1 = null` moved to the non-null case
    let mut moved = g.clone();
    moved["edges"][k_null]["labels"] = json!([]);
    moved["edges"][k_obj]["labels"] = json!([o1_null]);
    let (code, out, err) = check(&dir, "null-moved", "List.contains", &moved);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("label `o1 = null` does not hold"), "{out}");
    // the two cases' labels exchanged: `o1 = oN` names the fresh object, which the null
    // case's state does not have — refused
    let mut swapped = g.clone();
    swapped["edges"][k_null]["labels"] = edges[k_obj]["labels"].clone();
    swapped["edges"][k_obj]["labels"] = json!([o1_null]);
    let (code, out, err) = check(&dir, "swapped", "List.contains", &swapped);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("which is in neither state"), "{err}");
}

/// Equality refinement `r = p` / `r ≠ p` exchanged on the cyclic `get`: killed.
#[test]
fn swapped_equality_refinement_is_killed() {
    let dir = scratch("t4");
    let fx = fixtures();
    let start = common::fixture_sources().join("start/List.get.cyclic.state");
    let start = start.to_str().unwrap().to_string();
    let start = start.as_str();
    let (code, out, err) = jtg(&[
        "graph",
        fx.to_str().unwrap(),
        "List.get",
        "--start",
        start,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let g: Value = serde_json::from_str(&out).unwrap();
    let edges = g["edges"].as_array().unwrap();
    let is = |e: &Value, equal: bool| {
        e["labels"].as_array().is_some_and(|ls| {
            ls.len() == 1
                && ls[0]["label"] == "ref_eq"
                && ls[0]["equal"] == equal
                && ls[0]["p"] != "null"
        })
    };
    let pairs: Vec<(usize, usize)> = (0..edges.len())
        .filter(|&a| is(&edges[a], true))
        .filter_map(|a| {
            (0..edges.len())
                .find(|&b| {
                    is(&edges[b], false)
                        && edges[b]["from"] == edges[a]["from"]
                        && edges[b]["labels"][0]["r"] == edges[a]["labels"][0]["r"]
                        && edges[b]["labels"][0]["p"] == edges[a]["labels"][0]["p"]
                })
                .map(|b| (a, b))
        })
        .collect();
    assert!(
        !pairs.is_empty(),
        "get on a cyclic list refines an equality"
    );
    let mut killed = 0;
    for (n, &(a, b)) in pairs.iter().enumerate() {
        let mut m = g.clone();
        m["edges"][a]["labels"] = edges[b]["labels"].clone();
        m["edges"][b]["labels"] = edges[a]["labels"].clone();
        let path = dir.join(format!("eq{n}.json"));
        std::fs::write(&path, m.to_string()).unwrap();
        let (code, out, err) = jtg(&[
            "check",
            fx.to_str().unwrap(),
            "List.get",
            "--start",
            start,
            "--graph",
            path.to_str().unwrap(),
            "-n",
            "300",
            "--seed",
            "1",
        ]);
        assert!(code == 1 || code == 2, "{out}{err}");
        killed += usize::from(code == 1);
    }
    assert!(
        killed >= 1,
        "some swapped equality refinement is killed by a run"
    );
}
