//! jtg harness: the corpus runner of `jtg corpus` (the checker is the crate `jtg-check`, the
//! mutation analysis `jtg-mutate`, the JVM side `jtg-jvm`).

pub mod corpus;
