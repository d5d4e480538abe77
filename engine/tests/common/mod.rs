//! Shared helpers of the engine's integration tests: the compiled fixtures and the suite.

#![allow(dead_code)]

use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::Program;

#[allow(unused_imports)] // not every test binary needs each
pub use jtg_testkit::{fixtures as fixtures_dir, repo_dir, suite, SuiteEntry};

pub fn program() -> Program {
    Program::new(ClassPath::from_paths(&[fixtures_dir()]).expect("fixture class path"))
}

/// The graph of fixture method `name` from its default start state (unbounded ints).
pub fn graph_of(name: &str) -> jtg_engine::Graph {
    let prog = program();
    let m = prog.find_method(name).expect("fixture method");
    let start = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    jtg_engine::build_graph(&prog, &m, start, &jtg_engine::Options::default()).expect("graph")
}

/// The start state of a suite entry: its file under `java-fixtures/start/`, or the method's
/// default start state.
pub trait StartState {
    fn start_state(&self, prog: &Program, m: &MethodId, sem: IntSemantics) -> State;
}

impl StartState for SuiteEntry {
    fn start_state(&self, prog: &Program, m: &MethodId, sem: IntSemantics) -> State {
        match &self.start {
            None => prog.default_start(m, sem).expect("default start state"),
            Some(_) => {
                let path = self.start_file().expect("a start file");
                let text = std::fs::read_to_string(&path).expect("start state file");
                parse_state(&text, &TextContext::for_method(m.clone(), prog))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
        }
    }
}

/// The error of building `method`'s graph from its default start state (unbounded ints);
/// panics when the graph builds.
pub fn failure(prog: &Program, method: &str) -> jtg_engine::EngineError {
    let m = prog.find_method(method).expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    match jtg_engine::build_graph(prog, &m, st, &jtg_engine::Options::default()) {
        Ok(g) => panic!("{method}: a graph of {} nodes", g.nodes.len()),
        Err(f) => f.error,
    }
}

/// Building `method` (`everyday.Indy.name`) fails as unsupported at that method, with a
/// description that contains each of `needles`.
pub fn unsupported_naming(method: &str, needles: &[&str]) {
    let prog = program();
    match unsupported(failure(&prog, method)) {
        Some((m, _, what)) => {
            assert_eq!(Some(m.name.as_ref() as &str), method.rsplit('.').next());
            for n in needles {
                assert!(what.contains(n), "{what}");
            }
        }
        None => panic!("not an unsupported feature"),
    }
}

/// The method, pc and description of an "unsupported" error, with or without a source line.
pub fn unsupported(e: jtg_engine::EngineError) -> Option<(MethodId, u32, String)> {
    match e {
        jtg_engine::EngineError::Unsupported { method, pc, what } => Some((method, pc, what)),
        jtg_engine::EngineError::UnsupportedAt(at) => Some((at.method, at.pc, at.what)),
        _ => None,
    }
}
