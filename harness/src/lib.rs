//! jtg harness: the `jtg` command line (binary `jtg`, `src/main.rs` and `src/commands/`), the
//! corpus runner of `jtg corpus` ([`corpus`]), the text form of a verdict ([`prove_text`]) and
//! the benchmarks (`jtg-bench`). The checker is the crate `jtg-check`, the mutation analysis
//! `jtg-mutate`, the verdicts of `jtg prove` `jtg-terminate`, the JVM side `jtg-jvm`.

#![deny(unreachable_pub)]

pub mod corpus;
pub mod prove_text;
