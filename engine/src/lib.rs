//! jtg engine: symbolic execution of JVM bytecode into termination graphs, in the style of
//! AProVE's Java frontend.
//!
//! Data flows one way: class files ([`class`]) → abstract states ([`state`]) → symbolic
//! evaluation ([`eval`]) and refinement ([`refine`]), which label edges in the vocabulary of
//! [`edge`], → the termination graph ([`graph`]), with
//! the instance relation ([`instance_of`]) and merging ([`merge`]) closing loops, and
//! renderings of the result ([`render`]).
//!
//! ```no_run
//! use jtg_engine::{build_graph, class::ClassPath, Options, Program};
//! let prog = Program::new(ClassPath::parse("build/fixtures").unwrap());
//! let m = prog.find_method("List.contains").unwrap();
//! let start = prog.default_start(&m, Default::default()).unwrap();
//! let graph = build_graph(&prog, &m, start, &Options::default()).unwrap();
//! print!("{}", jtg_engine::render::text::render(&graph, &prog));
//! ```

pub mod class;
pub mod edge;
pub mod error;
pub mod eval;
pub mod graph;
pub mod instance_of;
pub mod liveness;
pub mod merge;
pub mod models;
pub mod program;
pub mod refine;
pub mod render;
pub mod state;

pub use error::EngineError;
pub use graph::{build_graph, Graph};
pub use program::{Options, Program};
