//! What the integration tests of every jtg crate share (a dev-dependency only): where the
//! compiled fixtures are (`make fixtures` → `build/fixtures`, or `$JTG_FIXTURES`), where their
//! sources and start states are (`java-fixtures/`), and the fixture suite
//! (`java-fixtures/suite.txt`: one method per line, optionally with a start-state file).

#![deny(unreachable_pub)]

use std::path::PathBuf;

/// The repository's root folder: above the running test's package, whose folder cargo passes
/// to the test process (every crate is one level below the root). This crate's compile-time
/// folder is only the fallback: cargo takes a `target/` copied from another checkout as fresh
/// for crates whose sources did not change, and their compiled-in paths then name that checkout
/// (tests read its fixture suite without a word).
pub fn repo_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
        .join("..")
}

/// The compiled fixtures: `$JTG_FIXTURES`, or `build/fixtures` from `make fixtures`. Panics
/// with what to run when they are missing (a test without its fixtures proves nothing).
pub fn fixtures() -> PathBuf {
    let dir = std::env::var_os("JTG_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_dir().join("build/fixtures"));
    assert!(
        dir.join("List.class").is_file(),
        "fixtures missing in {}: run `make fixtures`",
        dir.display()
    );
    dir
}

/// The Java fixture sources: `src/`, start states under `start/`, `suite.txt`.
pub fn fixture_sources() -> PathBuf {
    repo_dir().join("java-fixtures")
}

/// One entry of `java-fixtures/suite.txt`: a method (`Class.method`) and, optionally, the
/// file of its start state under `java-fixtures/start/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    pub method: String,
    pub start: Option<String>,
}

impl SuiteEntry {
    /// A name for snapshots: `List.get`, or the start file's stem (`List.get.cyclic`).
    pub fn name(&self) -> String {
        match &self.start {
            None => self.method.clone(),
            Some(f) => f.trim_end_matches(".state").to_string(),
        }
    }

    /// The start state's file, if the entry has one.
    pub fn start_file(&self) -> Option<PathBuf> {
        self.start
            .as_ref()
            .map(|f| fixture_sources().join("start").join(f))
    }
}

/// The entries of `java-fixtures/suite.txt` (`#` starts a comment).
pub fn suite() -> Vec<SuiteEntry> {
    let path = fixture_sources().join("suite.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    parse_suite(&text)
}

fn parse_suite(text: &str) -> Vec<SuiteEntry> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut parts = l.split_whitespace();
            SuiteEntry {
                method: parts.next().unwrap_or_default().to_string(),
                start: parts.next().map(str::to_string),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_with_comments_and_start_files() {
        let s =
            parse_suite("# c\nList.get List.get.cyclic.state # cyclic\n\n  IntLoops.countDown\n");
        assert_eq!(
            s,
            vec![
                SuiteEntry {
                    method: "List.get".into(),
                    start: Some("List.get.cyclic.state".into())
                },
                SuiteEntry {
                    method: "IntLoops.countDown".into(),
                    start: None
                },
            ]
        );
        assert_eq!(s[0].name(), "List.get.cyclic");
        assert_eq!(s[1].name(), "IntLoops.countDown");
    }

    #[test]
    fn the_repository_suite_is_not_empty() {
        assert!(
            suite().len() > 10,
            "java-fixtures/suite.txt has too few entries"
        );
    }
}
