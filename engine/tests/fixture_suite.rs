//! Every fixture-suite entry (java-fixtures/suite.txt) gives a complete graph under its start
//! state, in both integer semantics.

mod common;

use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options};

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
                Ok(g) if g.is_complete() => {}
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
