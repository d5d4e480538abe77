//! jtg engine: symbolic execution of JVM bytecode into termination graphs, in the style of
//! AProVE's Java frontend.
//!
//! Data flows one way: class files ([`class`]) → abstract states ([`state`]) → symbolic
//! evaluation (`eval`) and refinement (`refine`), which label edges in the vocabulary of
//! [`edge`], → the termination graph ([`graph`]), with the instance relation
//! ([`instance_of`]) and merging (`merge`) closing loops, and renderings of the result
//! ([`render`]). Everything the engine assumes about JDK classes is in [`models`].
//!
//! Layers, lowest first (no module imports one above it; `cargo run -p jtg-arch` checks that
//! there are no circles): `class` < `state` < `edge` < `models` < `program` < `refine` <
//! `eval` < `instance_of`, `merge` < `graph` < `render`.
//!
//! # The front door
//!
//! - [`Program`] (class path, hierarchy, method lookup, default start states, the fields the
//!   engine represents) and [`Options`];
//! - [`build_graph`] / [`graph::build_graph_until`] and the [`Graph`] they return, whose edges
//!   carry [`edge::Label`]s; [`EngineError`] for what the engine does not model, named;
//! - [`state`]: abstract states and their text form; [`render`]: text, DOT, JSON, diffs;
//! - [`class`]: class files, bytecode and the class hierarchy (the checker replays
//!   instructions from it); [`models`]: which classes are the JDK's and which fields of them
//!   the engine represents;
//! - [`instance_of`]: the engine's own `⊑`, for the prover and the mutation analysis (the
//!   checker never uses it: `arch/tests/architecture.rs`).
//!
//! Evaluation, refinement and merging are internal.
//!
//! ```no_run
//! use jtg_engine::{build_graph, class::ClassPath, Options, Program};
//! let prog = Program::new(ClassPath::parse("build/fixtures").unwrap());
//! let m = prog.find_method("List.contains").unwrap();
//! let start = prog.default_start(&m, Default::default()).unwrap();
//! let graph = build_graph(&prog, &m, start, &Options::default()).unwrap();
//! print!("{}", jtg_engine::render::text::render(&graph, &prog));
//! ```

#![deny(unreachable_pub)]

pub mod class;
pub mod edge;
mod error;
mod eval;
pub mod graph;
pub mod instance_of;
mod merge;
pub mod models;
mod program;
mod program_shapes;
mod program_world;
mod program_writes;
mod refine;
pub mod render;
pub mod state;

pub use error::EngineError;
pub use graph::{build_graph, Graph};
pub use program::{Options, Program};
pub use program_world::Initializers;
