//! Shared helpers of the engine's integration tests: the compiled fixtures and the suite.

#![allow(dead_code)]

use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::Program;
use std::path::PathBuf;

/// `build/fixtures` (from `make fixtures`), or `$JTG_FIXTURES`.
pub fn fixtures_dir() -> PathBuf {
    let dir = std::env::var_os("JTG_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../build/fixtures"));
    assert!(
        dir.join("List.class").exists(),
        "compiled fixtures missing in {}: run `make fixtures`",
        dir.display()
    );
    dir
}

pub fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn program() -> Program {
    Program::new(ClassPath::from_paths(&[fixtures_dir()]).expect("fixture class path"))
}

/// One entry of `java-fixtures/suite.txt`.
pub struct SuiteEntry {
    pub method: String,
    pub start: Option<String>,
}

impl SuiteEntry {
    /// A name for snapshots: `List.get` or `List.get.cyclic`.
    pub fn name(&self) -> String {
        match &self.start {
            None => self.method.clone(),
            Some(f) => f.trim_end_matches(".state").to_string(),
        }
    }

    pub fn start_state(&self, prog: &Program, m: &MethodId, sem: IntSemantics) -> State {
        match &self.start {
            None => prog.default_start(m, sem).expect("default start state"),
            Some(f) => {
                let path = repo_dir().join("java-fixtures/start").join(f);
                let text = std::fs::read_to_string(&path).expect("start state file");
                parse_state(&text, &TextContext::for_method(m.clone(), prog))
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
        }
    }
}

pub fn suite() -> Vec<SuiteEntry> {
    let text = std::fs::read_to_string(repo_dir().join("java-fixtures/suite.txt")).expect("suite");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut parts = l.split_whitespace();
            SuiteEntry {
                method: parts.next().expect("method").to_string(),
                start: parts.next().map(str::to_string),
            }
        })
        .collect()
}
