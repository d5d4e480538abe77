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
