//! Where a pc is in the source: `File.java:12`, from the class file's `SourceFile` and
//! `LineNumberTable` (javac `-g` writes both; javac writes the line table even without it).
//! The one rendering of a source position every output uses (graph text and JSON, traces,
//! ranking functions, violations, "unsupported" errors), so a change of its form is one edit.

use std::fmt;

/// A source position: the file's name as the class file records it, and the line.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

impl fmt::Display for SourceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

impl SourceLine {
    /// Reads the printed form `File.java:12` back (`None` for anything else).
    pub fn parse(text: &str) -> Option<SourceLine> {
        let (file, line) = text.rsplit_once(':')?;
        (!file.is_empty() && !file.contains(char::is_whitespace)).then_some(())?;
        Some(SourceLine {
            file: file.to_string(),
            line: line.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_reads_file_colon_line() {
        let s = SourceLine {
            file: "Lists.java".into(),
            line: 23,
        };
        assert_eq!(s.to_string(), "Lists.java:23");
        assert_eq!(SourceLine::parse("Lists.java:23"), Some(s));
        assert_eq!(SourceLine::parse("Lists.java"), None);
        assert_eq!(SourceLine::parse(":3"), None);
    }
}
