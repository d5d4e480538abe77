//! jtg engine: symbolic execution of JVM bytecode into termination graphs, in the style of
//! AProVE's Java frontend.
//!
//! Data flows one way: class files ([`class`]) → abstract states ([`state`]) → symbolic
//! evaluation and refinement → the termination graph.

pub mod instance_of;
pub mod state;
