//! jtg engine: symbolic execution of JVM bytecode into termination graphs.
pub mod class;
