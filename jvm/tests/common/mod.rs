//! Shared helpers of the JVM side's integration tests.

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
