//! The soundness check of termination graphs against real JVM runs (issue #6): every concrete
//! trace of the analysed method, started in an instance of the graph's start state, must be a
//! path of graph nodes whose labels hold.
//!
//! * [`instance`]: the concrete instance relation `c ⊑ s` on a real heap, with witnesses, written
//!   independently of the engine's abstract `⊑`;
//! * [`path`]: matching a trace against the graph (refinement choices with backtracking,
//!   program ends, cut traces, overflow);
//! * [`labels`]: the one evaluator of edge labels, on every edge the matcher takes;
//! * [`report`]: what a failing trace looks like to a user (text, JSON, JUnit);
//!
//! Integer semantics: under unbounded integers (the thesis' model) a run that overflows 32 bits
//! leaves the model at the overflowing step; it is checked up to there and, if that prefix
//! matches, counted as `outside_model` rather than as a violation. Under `--ints java` labels
//! denote 32-bit operations and every run must match in full.

pub mod concrete;
pub mod gen;
pub mod instance;
pub mod journal;
pub mod labels;
pub mod path;
pub mod report;
pub mod run;
mod verdict;

pub use verdict::*;
