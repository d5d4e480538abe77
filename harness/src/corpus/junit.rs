//! A corpus run as JUnit XML: one test case per jar, named by the jar (stable between runs):
//! failed when its check or cross-check found a violation, in error when its check stopped
//! early or the graph could not be built (status `error`), skipped when no complete graph
//! could be built (unsupported, budget); `time` is the jar's graph, check and proof time.

use super::{JarResult, Status};
use jtg_check::junit::{CaseOutcome, TestCase, TestSuite};

/// The JUnit XML report of `results`; without `timing` no `time` attributes; `seconds`: the
/// run's wall time (the suite's `time`, when known); `checked`: `--check` was given.
pub fn render_junit(
    results: &[JarResult],
    timing: bool,
    seconds: Option<f64>,
    checked: bool,
) -> String {
    let cases = results
        .iter()
        .map(|r| {
            let c = r.check.as_ref();
            let violations = c.map_or(0, |c| c.violations);
            let prove_violations = r.prove.as_ref().and_then(|p| p.prove_violations);
            let replay = c
                .and_then(|c| c.replay.as_deref())
                .or_else(|| r.prove.as_ref().and_then(|p| p.replay.as_deref()))
                .unwrap_or("-");
            let outcome = if violations > 0 || prove_violations.unwrap_or(0) > 0 {
                CaseOutcome::Failed {
                    message: format!(
                        "{violations} runs violate the graph, {} cross-check violations",
                        prove_violations.unwrap_or(0)
                    ),
                    body: format!("replay: {replay}"),
                }
            } else if let Some(e) = c.and_then(|c| c.error.as_deref()) {
                CaseOutcome::Error {
                    message: format!("check stopped after {} runs", c.map_or(0, |c| c.traces)),
                    body: e.to_string(),
                }
            } else {
                match r.status {
                    Status::Complete => CaseOutcome::Passed,
                    Status::Error => CaseOutcome::Error {
                        message: "no graph".into(),
                        body: r.detail.clone(),
                    },
                    Status::Unsupported | Status::Budget => CaseOutcome::Skipped {
                        message: format!("{}: {}", r.status.name(), r.detail),
                    },
                }
            };
            let mut output = format!("{}, {} nodes", r.status.name(), r.nodes);
            if let Some(c) = c {
                output.push_str(&format!(
                    "; {} runs, {} steps, {} cut, {} outside the model",
                    c.traces, c.steps, c.cut, c.outside_model
                ));
            }
            if let Some(p) = &r.prove {
                output.push_str(&format!("; verdict {} ({})", p.verdict, p.certificate));
            }
            let ms = r.graph_ms
                + c.map_or(0.0, |c| c.check_ms)
                + r.prove.as_ref().map_or(0.0, |p| p.prove_ms);
            TestCase {
                classname: if checked {
                    "jtg.corpus.check"
                } else {
                    "jtg.corpus"
                }
                .into(),
                name: r.jar.clone(),
                time: timing.then_some(ms / 1e3),
                outcome,
                output,
            }
        })
        .collect();
    TestSuite {
        name: "jtg corpus".into(),
        time: seconds.filter(|_| timing),
        cases,
    }
    .to_xml()
}
