//! What the model tests (`collection_models`, `indy_models`, `enum_models`, `jdk_models`,
//! `library_models`) share: the fixtures' program, default-start graphs, and the two ways they
//! run the JVM against a graph (given int arguments, or generated inputs).

use super::fixtures;
use jtg_check::gen::DEFAULT_MAX_SIZE;
use jtg_check::{check_run, Inputs, Matcher, Session, Settings, Summary, Target, Verdict};
use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Graph, Options, Program};

/// The compiled fixtures as one program.
pub fn program() -> Program {
    Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"))
}

/// The graph of `method` from its default start state under `ints`.
pub fn graph_with(prog: &Program, method: &str, ints: IntSemantics) -> Graph {
    let m = prog.find_method(method).expect("method");
    let st = prog.default_start(&m, ints).expect("start");
    let opts = Options {
        ints,
        ..Options::default()
    };
    build_graph(prog, &m, st, &opts).expect("graph")
}

/// [`graph_with`] under unbounded ints.
pub fn graph(prog: &Program, method: &str) -> Graph {
    graph_with(prog, method, IntSemantics::Unbounded)
}

/// [`graph`], which must be complete.
pub fn complete_graph(prog: &Program, method: &str) -> Graph {
    let g = graph(prog, method);
    assert!(g.is_complete(), "{method}: incomplete graph");
    g
}

/// The verdicts of runs of `g`'s method (unbounded ints), one per row of int arguments for
/// the int parameters `params`.
pub fn int_verdicts(prog: &Program, g: &Graph, params: &[&str], rows: &[Vec<i64>]) -> Vec<Verdict> {
    let target = Target::new(prog, g.method.clone(), vec![fixtures()]).expect("target");
    let matcher = Matcher::new(g, prog, IntSemantics::Unbounded);
    rows.iter()
        .map(|row| {
            let locals: Vec<String> = params
                .iter()
                .enumerate()
                .map(|(k, p)| format!("{p}: i{}", k + 1))
                .collect();
            let values: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(k, v)| format!("i{}: {v}", k + 1))
                .collect();
            let text = format!("00 | {} | ε\n{}", locals.join(", "), values.join("  "));
            let st = parse_state(&text, &TextContext::for_method(g.method.clone(), prog))
                .expect("state text");
            let trace = target.trace(&st, 100_000).expect("trace");
            check_run(&matcher, prog, &trace, IntSemantics::Unbounded).verdict
        })
        .collect()
}

/// How many of `v` are violations.
pub fn violations(v: &[Verdict]) -> usize {
    v.iter()
        .filter(|v| matches!(v, Verdict::Violation(_)))
        .count()
}

/// The totals of `n` runs of `g`'s method on inputs generated with `seed`, checked against `g`.
pub fn check_generated(
    prog: &Program,
    g: &Graph,
    ints: IntSemantics,
    seed: u64,
    n: u64,
) -> Summary {
    let settings = Settings {
        ints,
        seed,
        max_size: DEFAULT_MAX_SIZE,
        max_steps: 20_000,
        max_reports: 1,
        shrink_runs: 0,
        jobs: 2,
        replay: "jtg check FIXTURES M".into(),
    };
    let inputs = Inputs::Generated { first: 0, count: n };
    let session = Session::new(prog, g, vec![fixtures()], settings, inputs).expect("session");
    let checked = session.run(None, Default::default(), &mut |_| {});
    assert!(checked.stopped.is_none(), "{:?}", checked.stopped);
    checked.summary
}
