//! Corpus features on the `Corpus` fixture: main(String[]) with array loops, recursion through
//! call abstraction (method graphs with call and return edges), and an exception that leaves a
//! recursive call and is caught by the caller.

mod common;

use jtg_engine::graph::{EdgeKind, Graph};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options};

fn graph(method: &str) -> Graph {
    let prog = common::program();
    let m = prog.find_method(method).expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let opts = Options {
        ints: IntSemantics::Unbounded,
        max_nodes: 20_000,
    };
    let g = build_graph(&prog, &m, st, &opts).expect("graph");
    assert!(g.is_complete(), "open leaves {:?}", g.open_leaves());
    g
}

fn labels(g: &Graph, kind: EdgeKind) -> Vec<String> {
    g.edges
        .iter()
        .filter(|e| e.kind == kind)
        .flat_map(|e| e.labels.iter().map(|l| l.to_string()))
        .collect()
}

#[test]
fn recursion_gets_method_graphs_with_call_and_return_edges() {
    let g = graph("Corpus.main");
    let calls = labels(&g, EdgeKind::Call);
    for callee in ["Corpus.fact(I)I", "Corpus.down([II)I"] {
        assert!(
            calls
                .iter()
                .any(|l| l == &format!("abstract call of {callee}")),
            "{callee}: {calls:?}"
        );
    }
    let returns = labels(&g, EdgeKind::Return);
    assert!(returns.iter().any(|l| l == "return from Corpus.fact(I)I"));
    // the entry of `down` is the call's (`i = n ≥ 0`, recursion stops at 0), so it never
    // throws its IllegalStateException; the widened entry of the recursive calls loses
    // `a.length = i + 1`, so an index may be out of bounds
    assert!(
        returns
            .iter()
            .any(|l| l == "java.lang.ArrayIndexOutOfBoundsException thrown by Corpus.down([II)I"),
        "{returns:?}"
    );
    assert!(
        !returns
            .iter()
            .any(|l| l == "java.lang.IllegalStateException thrown by Corpus.down([II)I"),
        "{returns:?}"
    );
    // every abstracted call node has its call edge to a one-frame entry node
    for e in g.edges.iter().filter(|e| e.kind == EdgeKind::Call) {
        if e.labels
            .iter()
            .any(|l| l.to_string().starts_with("abstract call"))
        {
            let entry = &g.nodes[e.to].state;
            assert_eq!(entry.frames.len(), 1);
            assert_eq!(entry.frames[0].pc, 0);
        }
    }
}

#[test]
fn arrays_bounds_and_abstract_reads() {
    let g = graph("Corpus.small");
    let ends: Vec<String> = g
        .nodes
        .iter()
        .filter(|n| n.is_end())
        .map(|n| format!("{:?}", n.state.end))
        .collect();
    assert!(!ends.is_empty());
    // args[k] may be out of bounds: an uncaught AIOOBE end exists
    assert!(g.nodes.iter().any(|n| matches!(
        &n.state.end,
        Some(jtg_engine::state::End::Throw(r))
            if n.state.value(*r).and_then(|v| v.type_name())
                == Some("java/lang/ArrayIndexOutOfBoundsException")
    )));
}
