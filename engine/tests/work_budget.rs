//! The work budget of the graph builder (`BuildLimits::max_work`): deterministic, so a
//! construction it stops stops at the same node on every run, and a budget the construction
//! stays within changes nothing.

mod common;

use jtg_engine::graph::{build_graph_limited, BuildLimits};
use jtg_engine::render::json;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, EngineError, Options};

fn limited(max_work: u64) -> Result<usize, (usize, EngineError)> {
    let prog = common::program();
    let m = prog.find_method("List.get").expect("List.get");
    let start = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let limits = BuildLimits {
        max_work: Some(max_work),
        deadline: None,
    };
    build_graph_limited(&prog, &m, start, &Options::default(), limits)
        .map(|g| g.nodes.len())
        .map_err(|f| (f.partial.nodes.len(), f.error))
}

#[test]
fn a_work_budget_stops_at_the_same_node_every_time() {
    let (nodes, error) = limited(50).expect_err("50 units are too few for List.get");
    assert!(nodes > 1, "some nodes were built first: {nodes}");
    assert!(
        matches!(error, EngineError::WorkBudget { max: 50, nodes: n } if n == nodes),
        "{error}"
    );
    assert_eq!(error.category(), "budget");
    for _ in 0..3 {
        assert_eq!(limited(50).unwrap_err().0, nodes);
    }
    // a larger budget gets further
    let (more, _) = limited(100).expect_err("100 units are too few too");
    assert!(more > nodes, "{more} > {nodes}");
}

#[test]
fn a_budget_the_construction_stays_within_changes_nothing() {
    let prog = common::program();
    let m = prog.find_method("List.get").expect("List.get");
    let start = || {
        prog.default_start(&m, IntSemantics::Unbounded)
            .expect("start")
    };
    let opts = Options::default();
    let free = build_graph(&prog, &m, start(), &opts).expect("graph");
    let limits = BuildLimits {
        max_work: Some(u64::MAX),
        deadline: None,
    };
    let bounded = build_graph_limited(&prog, &m, start(), &opts, limits).expect("graph");
    assert_eq!(json::render(&free, &prog), json::render(&bounded, &prog));
}
