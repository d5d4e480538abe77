//! Every fixture-suite entry (java-fixtures/suite.txt) gives a complete graph under its start
//! state, in both integer semantics, whose labels are valid and read back from its JSON form.

mod common;
use common::StartState;

use jtg_engine::graph::validate_labels;
use jtg_engine::render::json;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Graph, Options, Program};

/// The graph's labels are valid against its states, and its JSON form reads back with the
/// same labels on the same edges.
fn labels_read_back(g: &Graph, prog: &Program) -> Result<(), String> {
    validate_labels(g).map_err(|e| e.to_string())?;
    let back = json::read(&json::render(g, prog), prog).map_err(|e| e.to_string())?;
    for (a, b) in g.edges.iter().zip(&back.edges) {
        if a != b {
            return Err(format!("edge {a:?} read back as {b:?}"));
        }
    }
    Ok(())
}

#[test]
fn fixture_suite() {
    let prog = common::program();
    let suite = common::suite();
    assert!(suite.len() >= 15, "the suite has at least 15 methods");
    let mut failures = Vec::new();
    for entry in &suite {
        for ints in [IntSemantics::Unbounded, IntSemantics::Java] {
            let m = prog.find_method(&entry.method).expect("method");
            let st = entry.start_state(&prog, &m, ints);
            let opts = Options {
                ints,
                max_nodes: 20_000,
            };
            match build_graph(&prog, &m, st, &opts) {
                Ok(g) if g.is_complete() => {
                    if let Err(e) = labels_read_back(&g, &prog) {
                        failures.push(format!("{} {ints:?}: {e}", entry.name()));
                    }
                }
                Ok(g) => failures.push(format!(
                    "{} {ints:?}: incomplete, open leaves {:?}",
                    entry.name(),
                    g.open_leaves()
                )),
                Err(f) => failures.push(format!("{} {ints:?}: {f:?}", entry.name())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
