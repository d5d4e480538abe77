//! jtg harness: generators of concrete inputs, the soundness check of termination graphs
//! against real-JVM traces (the JVM side is the crate `jtg-jvm`), the corpus runner and the
//! journal of long runs.

pub mod check;
pub mod concrete;
pub mod corpus;
pub mod gen;
pub mod journal;
pub mod prove;
