//! Shared helpers of this crate's integration tests: the fixture locations and the suite
//! come from `jtg-testkit`.

#[allow(unused_imports)] // not every test binary reads the suite
pub use jtg_testkit::{fixture_sources, fixtures, suite, SuiteEntry};

#[allow(dead_code)] // only the model tests use it
pub mod models;
