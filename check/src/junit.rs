//! JUnit XML, the test-report format CI servers read (Jenkins, GitLab, the GitHub Actions
//! reporters): one `<testsuite>` of `<testcase>`s, each passed, failed, in error or skipped.
//! The element and attribute structure is that of the widely used `junit-10.xsd` (Jenkins
//! xUnit plugin / Ant); `harness/tests/junit.rs` validates `jtg check` and `jtg corpus`
//! reports against that schema.

use std::fmt::Write as _;

/// What happened to one test case.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseOutcome {
    Passed,
    /// The property tested does not hold (a violation): `message` in one line, `body` the
    /// report.
    Failed {
        message: String,
        body: String,
    },
    /// The test could not be carried out (a check that stopped, a graph that could not be
    /// built).
    Error {
        message: String,
        body: String,
    },
    /// Not tested (no complete graph to check).
    Skipped {
        message: String,
    },
}

/// One `<testcase>`: named stably (no run numbers), so CI can follow it from run to run.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    pub classname: String,
    pub name: String,
    /// Seconds; `None` leaves the attribute out (`--no-times`).
    pub time: Option<f64>,
    pub outcome: CaseOutcome,
    /// Free text for `<system-out>` (totals, notes); empty: none.
    pub output: String,
}

/// One `<testsuite>`.
#[derive(Clone, Debug, PartialEq)]
pub struct TestSuite {
    pub name: String,
    /// Seconds; `None` leaves the attribute out.
    pub time: Option<f64>,
    pub cases: Vec<TestCase>,
}

/// Text as XML character data or an attribute value (quotes and the five entities escaped,
/// control characters XML 1.0 cannot hold replaced).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn time_attr(t: Option<f64>) -> String {
    t.map_or_else(String::new, |t| format!(" time=\"{t:.3}\""))
}

impl TestSuite {
    fn count(&self, f: impl Fn(&CaseOutcome) -> bool) -> usize {
        self.cases.iter().filter(|c| f(&c.outcome)).count()
    }

    /// Failed test cases.
    pub fn failures(&self) -> usize {
        self.count(|o| matches!(o, CaseOutcome::Failed { .. }))
    }

    /// The suite as a JUnit XML document.
    pub fn to_xml(&self) -> String {
        let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            s,
            "<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"{}>",
            escape(&self.name),
            self.cases.len(),
            self.failures(),
            self.count(|o| matches!(o, CaseOutcome::Error { .. })),
            self.count(|o| matches!(o, CaseOutcome::Skipped { .. })),
            time_attr(self.time)
        );
        for c in &self.cases {
            let _ = write!(
                s,
                "  <testcase classname=\"{}\" name=\"{}\"{}",
                escape(&c.classname),
                escape(&c.name),
                time_attr(c.time)
            );
            if c.outcome == CaseOutcome::Passed && c.output.is_empty() {
                s.push_str("/>\n");
                continue;
            }
            s.push_str(">\n");
            match &c.outcome {
                CaseOutcome::Passed => {}
                CaseOutcome::Skipped { message } => {
                    let _ = writeln!(s, "    <skipped>{}</skipped>", escape(message));
                }
                CaseOutcome::Failed { message, body } | CaseOutcome::Error { message, body } => {
                    let tag = if matches!(c.outcome, CaseOutcome::Failed { .. }) {
                        "failure"
                    } else {
                        "error"
                    };
                    let _ = writeln!(
                        s,
                        "    <{tag} message=\"{}\" type=\"{tag}\">{}</{tag}>",
                        escape(message),
                        escape(body)
                    );
                }
            }
            if !c.output.is_empty() {
                let _ = writeln!(s, "    <system-out>{}</system-out>", escape(&c.output));
            }
            s.push_str("  </testcase>\n");
        }
        s.push_str("</testsuite>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_escapes() {
        let suite = TestSuite {
            name: "jtg <check>".into(),
            time: None,
            cases: vec![
                TestCase {
                    classname: "c".into(),
                    name: "a&b".into(),
                    time: Some(1.5),
                    outcome: CaseOutcome::Failed {
                        message: "2 \"violations\"".into(),
                        body: "x < y\u{1}".into(),
                    },
                    output: String::new(),
                },
                TestCase {
                    classname: "c".into(),
                    name: "ok".into(),
                    time: None,
                    outcome: CaseOutcome::Passed,
                    output: String::new(),
                },
                TestCase {
                    classname: "c".into(),
                    name: "skip".into(),
                    time: None,
                    outcome: CaseOutcome::Skipped {
                        message: "unsupported".into(),
                    },
                    output: String::new(),
                },
            ],
        };
        let x = suite.to_xml();
        assert!(x.contains(
            "<testsuite name=\"jtg &lt;check&gt;\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">"
        ));
        assert!(x.contains("name=\"a&amp;b\" time=\"1.500\""));
        assert!(x.contains("message=\"2 &quot;violations&quot;\""));
        assert!(x.contains(">x &lt; y\u{fffd}</failure>"));
        assert!(x.contains("<testcase classname=\"c\" name=\"ok\"/>"));
        assert!(x.contains("<skipped>unsupported</skipped>"));
    }
}
