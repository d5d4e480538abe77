//! Shared helpers of this crate's integration tests: the fixture locations and the suite
//! come from `jtg-testkit`; programs, graphs and runs of the fixtures are built here once.
// not every test binary uses every helper
#![allow(dead_code)]

#[allow(unused_imports)] // not every test binary reads the suite
pub use jtg_testkit::{fixture_sources, fixtures, suite, SuiteEntry};

use jtg_check::gen::{GenConfig, Generator};
use jtg_check::Target;
use jtg_engine::class::ClassPath;
use jtg_engine::graph::EdgeKind;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{IntSemantics, Interval, MethodId, Ref, State};
use jtg_engine::{build_graph, Graph, Options, Program};
use jtg_jvm::Trace;
use jtg_mutate::{Change, Fate, Mutant};

/// The integer semantics of these tests' graphs and runs.
pub const SEM: IntSemantics = IntSemantics::Unbounded;

/// The compiled fixtures as a program.
pub fn program() -> Program {
    Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"))
}

/// The graph of `spec` from its default start state.
pub fn graph(prog: &Program, spec: &str) -> Graph {
    let m = prog.find_method(spec).expect("method");
    let st = prog.default_start(&m, SEM).expect("start");
    build(prog, &m, st)
}

/// The graph of `spec` from a start state of `java-fixtures/start/`.
pub fn graph_from(prog: &Program, spec: &str, start: &str) -> Graph {
    let m = prog.find_method(spec).expect("method");
    let p = fixture_sources().join("start").join(start);
    let text = std::fs::read_to_string(&p).expect("start file");
    let st = parse_state(&text, &TextContext::for_method(m.clone(), prog)).expect("state");
    build(prog, &m, st)
}

fn build(prog: &Program, m: &MethodId, st: State) -> Graph {
    let opts = Options {
        ints: SEM,
        ..Default::default()
    };
    build_graph(prog, m, st, &opts).expect("graph")
}

/// Runs of `n` inputs generated with `seed` from the graph's start state, sizes capped at
/// `max_size`, each cut at 2 000 steps.
pub fn traces(prog: &Program, g: &Graph, n: u64, max_size: usize, seed: u64) -> Vec<Trace> {
    let start = g.nodes[g.start].state.clone();
    let cfg = GenConfig {
        seed,
        max_size,
        ints: SEM,
    };
    let gen = Generator::new(prog, &g.method, &start, cfg).expect("generator");
    let states: Vec<_> = (0..n).map(|k| gen.case(k).expect("case").state).collect();
    let target = Target::new(prog, g.method.clone(), vec![fixtures()]).expect("target");
    target
        .trace_batch(&states, 2_000)
        .into_iter()
        .map(|t| t.expect("trace"))
        .collect()
}

/// The mutant of `ms` that narrows `r` at `node` to `to`.
pub fn narrowing<'a>(ms: &'a [Mutant], node: usize, r: Ref, to: &str) -> &'a Mutant {
    let to = Interval::parse(to).expect("interval");
    ms.iter()
        .find(|m| matches!(m.change, Change::SetInt(n, x, iv) if n == node && x == r && iv == to))
        .unwrap_or_else(|| panic!("no narrowing of {r} at node {node} to {to}"))
}

/// A hand-broken graph: the eval edge `from → to` without its labels.
pub fn drop_labels(g: &mut Graph, from: usize, to: usize) {
    let k = g
        .edges
        .iter()
        .position(|e| e.from == from && e.to == to && e.kind == EdgeKind::Eval)
        .unwrap_or_else(|| panic!("edge {from} → {to}"));
    g.edges[k].labels.clear();
}

/// Whether `m` is claimed equivalent for `reason`.
pub fn claims(m: &Mutant, reason: &str) -> bool {
    m.equivalent
        .as_deref()
        .is_some_and(|w| w.starts_with(reason))
}

/// How many of `ms` their `fates` kill; fails if one of them was claimed equivalent (a claim a
/// real run refutes is a bug of the proof). `what` names the graph in the message.
pub fn killed_none_claimed(ms: &[Mutant], fates: &[Fate], what: &str) -> usize {
    let mut killed = 0;
    for (m, f) in ms.iter().zip(fates) {
        if let Fate::Killed { input, step } = f {
            killed += 1;
            assert!(
                m.equivalent.is_none(),
                "{what}: {} is killed (input {input}, step {step}) but claimed equivalent: {:?}",
                m.description,
                m.equivalent
            );
        }
    }
    killed
}
