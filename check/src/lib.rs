//! jtg-check: the soundness check of termination graphs against real JVM runs (issue #6).
//! Every concrete trace of the analysed method, started in an instance of the graph's start
//! state, must be a path of graph nodes whose labels hold.
//!
//! The front door is a [`Session`]: one method's graph, checked on generated inputs (or one
//! given input) run in the JVM, with reports, shrinking and a journal. `jtg check`, the corpus
//! runner and the mutation analysis all check through it.
//!
//! ```no_run
//! use jtg_check::{Inputs, Session, Settings};
//! use jtg_engine::class::ClassPath;
//! use jtg_engine::state::IntSemantics;
//! use jtg_engine::{build_graph, Options, Program};
//!
//! let prog = Program::new(ClassPath::parse("build/fixtures").unwrap());
//! let m = prog.find_method("List.contains").unwrap();
//! let start = prog.default_start(&m, IntSemantics::Unbounded).unwrap();
//! let graph = build_graph(&prog, &m, start, &Options::default()).unwrap();
//! let settings = Settings {
//!     ints: IntSemantics::Unbounded,
//!     seed: 1,
//!     max_size: 6,
//!     max_steps: 100_000,
//!     max_reports: 5,
//!     shrink_runs: 200,
//!     jobs: 2,
//!     replay: "jtg check build/fixtures List.contains".into(),
//! };
//! let inputs = Inputs::Generated { first: 0, count: 1000 };
//! let session = Session::new(&prog, &graph, vec!["build/fixtures".into()], settings, inputs)
//!     .unwrap();
//! let checked = session.run(None, Default::default(), &mut |_| {});
//! assert!(checked.stopped.is_none());
//! println!("{} traces, {} violations", checked.summary.traces, checked.summary.violations);
//! for r in &checked.reports {
//!     print!("{}", r.text());
//! }
//! ```
//!
//! Below the session, each concern is a module:
//!
//! * [`instance`]: the concrete instance relation `c ⊑ s` on a real heap, with witnesses,
//!   written independently of the engine's abstract `⊑`;
//! * `path`: matching a trace against the graph ([`Matcher`]: refinement choices with
//!   backtracking, abstracted calls, program ends, cut traces, overflow);
//! * `labels`: the one evaluator of edge labels, on every edge the matcher takes;
//! * `verdict`: the verdict on one run ([`check_run`]), many runs by threads;
//! * [`report`]: what a failing trace looks like to a user; `summary`: totals, JSON, JUnit;
//! * [`gen`]: random concrete instances of a start state; `shrink`: smaller failing inputs;
//! * [`start_instance`]: whether a concrete input is an instance of the start state, by the
//!   checker's own `c ⊑ s` (generated samples and `--input` files alike);
//! * `target`: the method run in the JVM ([`Target`]); [`concrete`]: engine states as JVM
//!   inputs and recorded steps as engine states;
//! * [`journal`]: the append-only journal of long runs, and `--resume`.
//!
//! Integer semantics: under unbounded integers (the thesis' model) a run that overflows 32 bits
//! leaves the model at the overflowing step; it is checked up to there and, if that prefix
//! matches, counted as `outside_model` rather than as a violation. Under `--ints java` labels
//! denote 32-bit operations and every run must match in full.

#![deny(unreachable_pub)]

pub mod concrete;
mod error;
pub mod gen;
pub mod instance;
pub mod journal;
pub mod junit;
mod labels;
mod path;
pub mod report;
mod run;
mod session;
pub mod shard;
mod shrink;
pub mod start_instance;
mod summary;
mod target;
mod verdict;

pub use error::CheckError;
pub use path::{first_overflow, Candidate, Extent, Matched, Matcher, PathEntry, Stuck};
pub use run::{ConcreteRun, Recorded};
pub use session::{CaseId, Checked, Inputs, Resumed, Session, SessionError, Settings, CHUNK};
pub use summary::{
    failures_text, group_failures, summary_json, summary_junit, summary_text, Outcome, Summary,
    TraceRecord, FORMAT_VERSION,
};
pub use target::Target;
pub use verdict::{check_run, check_runs, TraceCheck, Verdict};
