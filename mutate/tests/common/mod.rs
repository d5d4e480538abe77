//! Shared helpers of the harness's integration tests.

use std::path::PathBuf;

/// The compiled fixtures (`make fixtures` → `build/fixtures`, or `$JTG_FIXTURES`).
pub fn fixtures() -> PathBuf {
    let dir = std::env::var_os("JTG_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../build/fixtures"));
    assert!(
        dir.join("List.class").is_file(),
        "fixtures missing in {}: run `make fixtures`",
        dir.display()
    );
    dir
}

/// The Java fixture sources: `suite.txt`, start states under `start/`.
#[allow(dead_code)] // not every test binary reads the suite
pub fn fixture_sources() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../java-fixtures")
}

/// `(method, start state file)` entries of `java-fixtures/suite.txt`.
#[allow(dead_code)] // not every test binary reads the suite
pub fn suite() -> Vec<(String, Option<String>)> {
    let text = std::fs::read_to_string(fixture_sources().join("suite.txt")).expect("suite.txt");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut parts = l.split_whitespace();
            let m = parts.next().unwrap_or_default().to_string();
            (m, parts.next().map(str::to_string))
        })
        .collect()
}
