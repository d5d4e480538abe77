//! Which objects a method's run may write (`class::own_writes`), on fixture `OwnWrites`, and
//! what the continuation of an abstracted call makes of a callee that writes only the objects
//! it allocates.

mod common;

use jtg_engine::class::{own_writes, OwnWrites};
use jtg_engine::edge::Label;
use jtg_engine::graph::Edge;
use jtg_engine::models::invocation_may_write;
use jtg_engine::state::text::{print_state, TextContext};
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

/// Whether `e` is the return of an abstracted call of a method named `callee`.
fn returns_from(e: &Edge, callee: &str) -> bool {
    e.labels
        .iter()
        .any(|l| matches!(l, Label::Returned { callee: c } if &*c.name == callee))
}

/// `copyBoth`'s calls of `copy` are inlined once and then abstracted (recursion): across each
/// abstracted call the caller's heap stays as it was (every object of the state before the call
/// has the same value after it), where a callee that writes would havoc what it reaches.
#[test]
fn a_callee_writing_only_its_own_objects_keeps_the_callers_heap() {
    let g = common::graph_of("OwnWrites.copyBoth");
    let mut returns = 0;
    for e in &g.edges {
        if !returns_from(e, "copy") {
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

#[test]
fn a_result_is_isolated_only_where_the_run_stores_nothing_older() {
    let all = summaries();
    // `copy` and `chain` return trees of their own nodes, `leaf` a node it stored null into,
    // `viaLeaf` a node a callee made and it wrote an int into
    for m in ["copy", "chain", "leaf", "viaLeaf"] {
        assert!(of(&all, m).returns_isolated(), "{m}: {:?}", of(&all, m));
    }
    // a parameter or a static's object stored into the result, the result stored into a
    // static, captured by a lambda, or handed to a library method that writes; or a result
    // that is no new object
    for m in [
        "wrap",
        "published",
        "holding",
        "capturing",
        "listedFresh",
        "same",
    ] {
        assert!(!of(&all, m).returns_isolated(), "{m}: {:?}", of(&all, m));
    }
}

/// The continuation of an abstracted call whose callee returns an isolated result
/// (`SelfBuilt.lists`, a static loop on primitives that reads a static array) relates the
/// result to nothing older; one whose result holds the static array (`holdingNames`) shares it.
#[test]
fn an_isolated_result_shares_nothing_with_the_callers_heap() {
    for (caller, callee, isolated) in [
        ("SelfBuilt.flattened", "lists", true),
        ("SelfBuilt.holdsNames", "holdingNames", false),
    ] {
        let g = common::graph_of(caller);
        let mut returns = 0;
        for e in &g.edges {
            if !returns_from(e, callee) {
                continue;
            }
            returns += 1;
            let st = &g.nodes[e.to].state;
            let result = *st
                .top()
                .and_then(|f| f.stack.last())
                .expect("the result on the stack");
            let related: Vec<_> = st
                .heap
                .keys()
                .filter(|&&r| r != result && r.is_obj())
                .filter(|&&r| st.preds.joins(r, result) || st.preds.may_equal(r, result))
                .collect();
            let text = print_state(st, &TextContext::plain());
            assert_eq!(
                related.is_empty(),
                isolated,
                "{caller}: {related:?} in\n{text}"
            );
        }
        assert!(returns > 0, "{caller}: {callee} is abstracted");
    }
}
