//! The thesis figures as acceptance tests, asserted on the JSON form of the graphs.

mod common;
use common::StartState;

use jtg_engine::render::json;
use jtg_engine::{build_graph, Options};
use serde_json::Value;

/// A label of the JSON form in its text form (empty for none).
fn label_text(v: &Value) -> String {
    if v.is_null() {
        return String::new();
    }
    serde_json::from_value::<jtg_engine::graph::Label>(v.clone())
        .expect("a typed label")
        .to_string()
}

fn graph_json(method: &str, start: Option<&str>) -> Value {
    let prog = common::program();
    let m = prog.find_method(method).expect("method");
    let entry = common::SuiteEntry {
        method: method.into(),
        start: start.map(str::to_string),
    };
    let st = entry.start_state(&prog, &m, Default::default());
    let g = build_graph(&prog, &m, st, &Options::default()).expect("complete graph");
    serde_json::from_str(&json::render(&g, &prog)).expect("valid JSON")
}

fn nodes(g: &Value) -> &Vec<Value> {
    g["nodes"].as_array().expect("nodes")
}
fn edges(g: &Value) -> &Vec<Value> {
    g["edges"].as_array().expect("edges")
}
fn out_edges(g: &Value, id: u64) -> Vec<&Value> {
    edges(g).iter().filter(|e| e["from"] == id).collect()
}
fn state(g: &Value, id: u64) -> &str {
    nodes(g)[id as usize]["state"].as_str().expect("state")
}

/// Fig. 2.11: one instance refinement at pc 01 into a null case and a `List(next=…, val=…)`
/// case, one split at pc 09 labelled `=`/`≠` on two ints, an instance edge from a pc-00 state
/// back to the start, two program ends returning 1 and 0.
#[test]
fn fig_2_11_contains() {
    let g = graph_json("List.contains", None);
    assert_eq!(g["complete"], true);

    let refined: Vec<&Value> = nodes(&g)
        .iter()
        .filter(|n| n["pc"] == 1)
        .filter(|n| {
            let out = out_edges(&g, n["id"].as_u64().unwrap());
            !out.is_empty() && out.iter().all(|e| e["kind"] == "refine")
        })
        .collect();
    assert_eq!(refined.len(), 1, "one instance refinement at pc 01");
    let succ = out_edges(&g, refined[0]["id"].as_u64().unwrap());
    assert_eq!(succ.len(), 2);
    let texts: Vec<&str> = succ
        .iter()
        .map(|e| state(&g, e["to"].as_u64().unwrap()))
        .collect();
    assert!(texts[0].starts_with("01 | cur: null"), "{}", texts[0]);
    assert!(texts[1].contains("List(next=o3, val=i2)"), "{}", texts[1]);

    let splits: Vec<&Value> = edges(&g).iter().filter(|e| e["kind"] == "split").collect();
    assert_eq!(splits.len(), 2, "one split with two successors");
    assert_eq!(splits[0]["from"], splits[1]["from"]);
    let from = splits[0]["from"].as_u64().unwrap();
    assert_eq!(nodes(&g)[from as usize]["pc"], 9);
    let mut labels: Vec<String> = splits.iter().map(|e| label_text(&e["labels"][0])).collect();
    labels.sort();
    assert_eq!(labels, ["i2 = i1", "i2 ≠ i1"]);

    let back: Vec<&Value> = edges(&g)
        .iter()
        .filter(|e| e["kind"] == "instance" && e["to"] == 0)
        .collect();
    assert_eq!(back.len(), 1, "an instance edge back to the start state");
    assert_eq!(
        nodes(&g)[back[0]["from"].as_u64().unwrap() as usize]["pc"],
        0
    );

    let mut ends: Vec<&str> = nodes(&g)
        .iter()
        .filter(|n| n["end"] == true)
        .map(|n| n["state"].as_str().unwrap())
        .collect();
    ends.sort();
    assert_eq!(ends.len(), 2);
    assert!(
        ends.iter().any(|s| s.contains(": 0")) && ends.iter().any(|s| s.contains(": 1")),
        "{ends:?}"
    );
    // no node was merged: contains needs no generalization (Fig. 2.11 has none)
    assert!(edges(&g).iter().filter(|e| e["kind"] == "instance").count() == 1);
}

/// Fig. 2.13: `List.get` from state A (a cyclic list). The graph has a merged loop-head state
/// in which `this`, its successor and `cur` are pairwise `=?` and `%$`, all `⟲{next}`, with
/// must-reach predicates leading to `this`; an equality refinement on `cur =? this`; an
/// instance refinement of `cur` without a null case (thanks to must-reach); and an instance
/// edge closing the loop.
#[test]
fn fig_2_13_get_on_a_cyclic_list() {
    let g = graph_json("List.get", Some("List.get.cyclic.state"));
    assert_eq!(g["complete"], true);
    let instance_targets: Vec<u64> = edges(&g)
        .iter()
        .filter(|e| e["kind"] == "instance")
        .map(|e| e["to"].as_u64().unwrap())
        .collect();
    let merged = instance_targets[0];
    let gs = state(&g, merged);
    assert!(gs.starts_with("02 | this: o1, x: "), "{gs}");
    let cur = gs
        .lines()
        .next()
        .unwrap()
        .split("cur: ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(gs.contains("o1: List(next=o2, val=i2)"), "{gs}");
    for (a, b) in [("o1", "o2"), ("o1", cur.as_str()), ("o2", cur.as_str())] {
        assert!(gs.contains(&format!("{a}=?{b}")), "{a} =? {b} in {gs}");
        assert!(gs.contains(&format!("{a}%${b}")), "{a} %$ {b} in {gs}");
    }
    for r in ["o1", "o2", cur.as_str()] {
        assert!(gs.contains(&format!("{r}⟲{{next}}")), "{r} cyclic in {gs}");
    }
    assert!(gs.contains(&format!("o2→!{{next}}{cur}")), "{gs}");
    assert!(gs.contains(&format!("{cur}→!{{next}}o1")), "{gs}");

    // the equality refinement on cur =? this, then the instance refinement without null case
    let eq_split: Vec<&Value> = edges(&g)
        .iter()
        .filter(|e| e["kind"] == "refine" && label_text(&e["labels"][0]) == format!("{cur} = o1"))
        .collect();
    assert!(!eq_split.is_empty(), "equality refinement {cur} = o1");
    let single: Vec<&Value> = nodes(&g)
        .iter()
        .filter(|n| n["pc"] == 10)
        .filter(|n| {
            let out = out_edges(&g, n["id"].as_u64().unwrap());
            out.len() == 1 && out[0]["kind"] == "refine"
        })
        .collect();
    assert_eq!(
        single.len(),
        1,
        "one instance refinement of cur with no null case"
    );
    let refined = out_edges(&g, single[0]["id"].as_u64().unwrap())[0];
    assert!(!label_text(&refined["labels"][0]).contains("null"));

    // the loop closes with an instance edge into the merged state from a later iteration
    assert!(
        instance_targets.iter().filter(|&&t| t == merged).count() >= 2,
        "the loop closes on the merged state"
    );
    assert!(!state(&g, merged).contains("o2→!{next}o1  "));
}
