//! The callee assumptions of abstracted calls (`CalleeFacts`: pure, acyclic result) are
//! checked on the graph as it grows, not only when it is finished: a graph built on an
//! assumption that fails is built again without it, and the first build, which assumed too
//! much, must not exhaust the node budget the final graph fits in (fixture `Impure`).

mod common;

use jtg_engine::edge::Label;
use jtg_engine::render::json;
use jtg_engine::state::{FieldKey, HeapValue, IntSemantics};
use jtg_engine::{build_graph, Graph, Options};

fn impure_run(max_nodes: usize, ints: IntSemantics) -> Result<Graph, String> {
    let prog = common::program();
    let m = prog.find_method("Impure.run").expect("Impure.run");
    let start = prog.default_start(&m, ints).expect("start");
    let opts = Options { ints, max_nodes };
    build_graph(&prog, &m, start, &opts).map_err(|f| format!("{f:?}"))
}

/// Assuming `shift` pure, `run`'s first build grows to about 1 260 nodes; the final graph, with
/// `shift` known to write, has 461. A budget of 600 nodes cuts the first build, the failed
/// assumption is found on the partial graph, and the second build completes within it.
#[test]
fn an_assumption_failing_on_a_partial_graph_is_dropped_within_the_budget() {
    let bounded = impure_run(600, IntSemantics::Unbounded).expect("complete within 600 nodes");
    assert_eq!(bounded.nodes.len(), 461);
    let free = impure_run(20_000, IntSemantics::Unbounded).expect("graph");
    let prog = common::program();
    assert_eq!(
        json::render(&bounded, &prog),
        json::render(&free, &prog),
        "the budget changes nothing once the construction fits in it"
    );
}

/// `run`'s call of `shift` is inlined and the recursive call in it, `shift(c.next, d)`, is
/// abstracted: its continuation in `run`'s graph (not in the method graph of `shift`) havocs the second cell of `s` (local 3 of `run`), which the
/// failed purity assumption would have kept as the cell `run` made.
#[test]
fn the_final_graph_does_not_assume_the_writing_callee_pure() {
    for ints in [IntSemantics::Unbounded, IntSemantics::Java] {
        let g = impure_run(20_000, ints).expect("graph");
        let returns: Vec<_> = g
            .edges
            .iter()
            .filter(|e| {
                e.labels
                    .iter()
                    .any(|l| matches!(l, Label::Returned { callee } if &*callee.name == "shift"))
            })
            .map(|e| &g.nodes[e.to].state)
            .filter(|st| &*st.frames[0].method.name == "run")
            .collect();
        assert!(
            !returns.is_empty(),
            "{ints:?}: the recursive call is abstracted"
        );
        for st in returns {
            let s = st.frames[0].locals[3].expect("s is live in run");
            let Some(HeapValue::Object { fields, .. }) = st.value(s) else {
                panic!("{ints:?}: s is the cell run made: {:?}", st.value(s));
            };
            let next = fields[&FieldKey::plain("next")];
            assert!(
                matches!(st.value(next), Some(HeapValue::Abstract { .. })),
                "{ints:?}: s.next havocked after the call: {:?}",
                st.value(next)
            );
        }
    }
}
