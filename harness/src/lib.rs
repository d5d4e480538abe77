//! jtg harness: the `jtg` command line (binary `jtg`, `src/main.rs` and `src/commands/`), the
//! corpus runner of `jtg corpus` ([`corpus`]) and the benchmarks (`jtg-bench`). The checker
//! is the crate `jtg-check`, the mutation analysis `jtg-mutate`, the JVM side `jtg-jvm`.

pub mod corpus;
pub mod prove;
