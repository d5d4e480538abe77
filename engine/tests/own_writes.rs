//! Which objects a method's run may write (`class::own_writes`), on fixture `OwnWrites`, and
//! what the continuation of an abstracted call makes of a callee that writes only the objects
//! it allocates.

mod common;

use jtg_engine::class::{own_writes, OwnWrites};
use jtg_engine::edge::Label;
use jtg_engine::models::invocation_may_write;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options};
use std::collections::{BTreeMap, BTreeSet};

fn summaries() -> BTreeMap<(String, String, String), OwnWrites> {
    let prog = common::program();
    own_writes(&prog.hierarchy, &|m| {
        invocation_may_write(&m.class, &m.name, &m.desc_str)
    })
}

fn of<'a>(all: &'a BTreeMap<(String, String, String), OwnWrites>, name: &str) -> &'a OwnWrites {
    let mut found = all
        .iter()
        .filter(|((c, n, _), _)| c == "OwnWrites" && n == name);
    let (_, w) = found.next().unwrap_or_else(|| panic!("OwnWrites.{name}"));
    assert!(found.next().is_none(), "one OwnWrites.{name}");
    w
}

#[test]
fn writes_into_what_the_run_allocates_are_no_writes() {
    let all = summaries();
    for m in ["copy", "leaf", "viaLeaf", "copyBoth"] {
        assert!(of(&all, m).only_fresh(), "{m}: {:?}", of(&all, m));
    }
}

#[test]
fn writes_into_parameters_name_the_slot() {
    let all = summaries();
    for (m, slots) in [
        ("setLeft", vec![0u16]),
        ("setLeftTwice", vec![0]),
        ("viaSame", vec![0]),
    ] {
        let w = of(&all, m);
        assert_eq!(w.params, slots.into_iter().collect::<BTreeSet<_>>(), "{m}");
        assert!(!w.elsewhere, "{m}: {w:?}");
        assert!(!w.only_fresh(), "{m}");
    }
}

#[test]
fn writes_into_heap_objects_statics_and_library_objects_are_elsewhere() {
    let all = summaries();
    for m in ["deep", "publish", "listed"] {
        let w = of(&all, m);
        assert!(w.elsewhere, "{m}: {w:?}");
        assert!(!w.only_fresh(), "{m}");
    }
}

/// `copyBoth`'s calls of `copy` are inlined once and then abstracted (recursion): across each
/// abstracted call the caller's heap stays as it was (every object of the state before the call
/// has the same value after it), where a callee that writes would havoc what it reaches.
#[test]
fn a_callee_writing_only_its_own_objects_keeps_the_callers_heap() {
    let prog = common::program();
    let m = prog
        .find_method("OwnWrites.copyBoth")
        .expect("fixture method");
    let start = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let g = build_graph(&prog, &m, start, &Options::default()).expect("graph");
    let mut returns = 0;
    for e in &g.edges {
        let to_copy = e
            .labels
            .iter()
            .any(|l| matches!(l, Label::Returned { callee } if &*callee.name == "copy"));
        if !to_copy {
            continue;
        }
        returns += 1;
        let (before, after) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
        for (r, v) in &after.heap {
            if let Some(old) = before.heap.get(r) {
                assert_eq!(old, v, "{r} kept across the call");
            }
        }
    }
    assert!(returns > 0, "copy's recursion is abstracted");
}
