//! Must-reach facts the program's own writes keep (issue #38, "data the program builds"):
//! unlinking the cells of a ring one by one keeps the walk's distance back to its start.

mod common;

use jtg_engine::state::{FieldKey, HeapValue};

/// `SelfBuilt.unlinkAround` cuts each cell off (`c.next = null`) after reading its successor:
/// the F-path from that successor never runs through the cut cell before it ends, so at every
/// loop head where `c` is not `this`, `c →!{next} this` holds — the distance the walk counts
/// down.
#[test]
fn cutting_a_cell_off_keeps_the_path_from_its_successor() {
    let g = common::graph_of("SelfBuilt.ringUnlinked");
    let next = FieldKey::plain("next");
    let mut heads = 0;
    for node in &g.nodes {
        let Some(top) = node.state.frames.last() else {
            continue;
        };
        // the loop head `while (c != this)`: `c` in slot 2, `this` in slot 0
        if &*top.method.name != "unlinkAround" || top.pc != 8 {
            continue;
        }
        let (Some(Some(this)), Some(Some(c))) = (top.locals.first(), top.locals.get(2)) else {
            continue;
        };
        if c == this || matches!(node.state.value(*c), Some(HeapValue::Object { .. })) {
            continue;
        }
        heads += 1;
        let facts = node.state.preds.must_reach_from(*c);
        assert!(
            facts
                .iter()
                .any(|f| f.to == *this && f.fields.contains(&next)),
            "node {}: no {c} →!{{next}} {this} in {:?}",
            node.id,
            node.state.preds.items()
        );
    }
    assert!(heads > 0, "the walk's loop head with an abstract c");
}
