//! Source lines and source names in the engine's outputs: the text form of a graph (a node's
//! first line ends with `@ File.java:LINE`), its JSON form (`source`), and "unsupported"
//! errors (`unsupported at C.m(…) pc N (File.java:LINE): …`). The fixtures are compiled with
//! `javac -g`, which writes the line and local-variable tables.

mod common;

use jtg_engine::render::{json, text};
use jtg_engine::state::text::LocalNames;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, EngineError, Options};

fn opts() -> Options {
    Options {
        ints: IntSemantics::Unbounded,
        max_nodes: 20_000,
    }
}

/// `List.contains` (java-fixtures/src/List.java): the loop is line 2, so every node of the
/// method is on line 2 and has the source names `cur` and `x`.
#[test]
fn graph_text_and_json_name_the_source_line_of_every_node() {
    let prog = common::program();
    let m = prog.find_method("List.contains").unwrap();
    let start = prog.default_start(&m, IntSemantics::Unbounded).unwrap();
    let g = build_graph(&prog, &m, start, &opts()).unwrap();
    let t = text::render(&g, &prog);
    assert!(
        t.contains("\n[0]  00 | cur: o1, x: i1 | ε  @ List.java:2\n"),
        "{t}"
    );
    // every node with a frame has the suffix on its first line, program ends have none
    let headers: Vec<&str> = t.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(headers.len(), g.nodes.len());
    for (h, n) in headers.iter().zip(&g.nodes) {
        assert_eq!(h.ends_with("  @ List.java:2"), !n.is_end(), "{h}");
    }
    let j: serde_json::Value = serde_json::from_str(&json::render(&g, &prog)).unwrap();
    for (k, n) in g.nodes.iter().enumerate() {
        let want = if n.is_end() {
            serde_json::Value::Null
        } else {
            "List.java:2".into()
        };
        assert_eq!(j["nodes"][k]["source"], want, "node {k}");
    }
    // the JSON form still reads back (`source` is not part of the state)
    let back = json::read(&json::render(&g, &prog), &prog).unwrap();
    assert_eq!(back.nodes.len(), g.nodes.len());
}

/// Lines follow the pc: the nodes of `everyday.Lists.length`'s loop are on the loop's lines,
/// and its locals print under their source names (`len`, `c`).
#[test]
fn lines_follow_the_pc_and_locals_have_source_names() {
    let prog = common::program();
    let m = prog.find_method("everyday.Lists.length").unwrap();
    let start = prog.default_start(&m, IntSemantics::Unbounded).unwrap();
    let g = build_graph(&prog, &m, start, &opts()).unwrap();
    let mut lines: Vec<u32> = g
        .nodes
        .iter()
        .filter_map(|n| n.state.top())
        .filter_map(|f| prog.source_line(&f.method, f.pc))
        .map(|l| {
            assert_eq!(l.file, "Lists.java");
            l.line
        })
        .collect();
    lines.sort_unstable();
    lines.dedup();
    assert!(lines.len() >= 3, "{lines:?}");
    let t = text::render(&g, &prog);
    assert!(t.contains("len: i") && t.contains("c: o"), "{t}");
}

/// Every "unsupported" error of the `Unsupported` fixture names the source line of its pc.
#[test]
fn unsupported_errors_name_the_source_line() {
    let prog = common::program();
    let mut seen = 0;
    for method in [
        "Unsupported.viaUlp",
        "Unsupported.show",
        "Unsupported.hash",
        "Unsupported.objectsHash",
    ] {
        let m = prog.find_method(method).unwrap();
        let start = prog.default_start(&m, IntSemantics::Unbounded).unwrap();
        let Err(f) = build_graph(&prog, &m, start, &opts()) else {
            continue;
        };
        let EngineError::UnsupportedAt(at) = &f.error else {
            panic!("{method}: {}", f.error);
        };
        let line = &at.line;
        assert_eq!(line.file, "Unsupported.java");
        let msg = f.error.to_string();
        assert!(
            msg.contains(&format!(" ({}): ", line))
                && msg.starts_with("unsupported at Unsupported."),
            "{msg}"
        );
        seen += 1;
    }
    assert!(seen > 0, "no method of Unsupported is unsupported any more");
}
