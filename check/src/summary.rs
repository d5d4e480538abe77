//! What a check reports over many runs: the record of one checked run (also its journal
//! record), the totals, node coverage, and the totals as JSON and JUnit XML.

use crate::error::CheckError;
use crate::report::FailureReport;
use crate::verdict::{TraceCheck, Verdict};
use jtg_engine::graph::NodeId;
use jtg_engine::Graph;

/// The outcome class of a checked trace (the verdict without its details).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Pass,
    Violation,
    OutsideModel,
}

/// What a [`Summary`] and a report need of one checked trace: the journal record of one case
/// of `jtg check --journal`, from which a resumed run rebuilds exactly the summary an
/// uninterrupted run computes. No timings: the record of a case is the same in every run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TraceRecord {
    pub outcome: Outcome,
    pub steps: usize,
    pub cut: bool,
    /// The distinct nodes of the matched path, ascending.
    pub nodes: Vec<NodeId>,
    pub checked: usize,
    /// [`TraceCheck::unbound_labels`].
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unbound_labels: usize,
    /// The detailed report of a violation, when the run made one (`--max-reports`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<FailureReport>,
}

impl TraceRecord {
    /// The record of `c`, without a report.
    pub fn of(c: &TraceCheck) -> TraceRecord {
        let mut nodes = c.path.clone();
        nodes.sort_unstable();
        nodes.dedup();
        TraceRecord {
            outcome: match c.verdict {
                Verdict::Pass => Outcome::Pass,
                Verdict::Violation(_) => Outcome::Violation,
                Verdict::OutsideModel { .. } => Outcome::OutsideModel,
            },
            steps: c.steps,
            cut: c.cut,
            nodes,
            checked: c.checked,
            unbound_labels: c.unbound_labels,
            report: None,
        }
    }
}

/// Totals over many traces.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub traces: usize,
    pub steps: u64,
    pub violations: usize,
    pub outside_model: usize,
    pub cut: usize,
    /// Per graph node: visited by some matched trace.
    pub covered: Vec<bool>,
    pub match_nanos: u64,
    pub checked: u64,
    /// Label evaluations left out for references the runs had not bound.
    pub unbound_labels: u64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    pub fn new(graph: &Graph) -> Summary {
        Summary::of_nodes(graph.nodes.len())
    }

    /// The empty summary of a graph of `nodes` nodes (known by its journal, say).
    pub fn of_nodes(nodes: usize) -> Summary {
        Summary {
            covered: vec![false; nodes],
            ..Default::default()
        }
    }

    pub fn add(&mut self, c: &TraceCheck) {
        self.traces += 1;
        self.steps += c.steps as u64;
        self.cut += usize::from(c.cut);
        self.match_nanos += c.match_nanos;
        self.checked += c.checked as u64;
        self.unbound_labels += c.unbound_labels as u64;
        match c.verdict {
            Verdict::Pass => {}
            Verdict::Violation(_) => self.violations += 1,
            Verdict::OutsideModel { .. } => self.outside_model += 1,
        }
        for &n in &c.path {
            if let Some(b) = self.covered.get_mut(n) {
                *b = true;
            }
        }
    }

    /// Adds a trace known by its record (e.g. read back from a journal; records hold no
    /// timings, so `match_nanos` is not increased). A node the graph does not have is an
    /// error: the record is of another graph.
    pub fn add_record(&mut self, r: &TraceRecord) -> Result<(), CheckError> {
        if let Some(&n) = r.nodes.iter().find(|&&n| n >= self.covered.len()) {
            return Err(CheckError::BadInput(format!(
                "a recorded trace visits node {n}, but the graph has {} nodes",
                self.covered.len()
            )));
        }
        self.traces += 1;
        self.steps += r.steps as u64;
        self.cut += usize::from(r.cut);
        self.checked += r.checked as u64;
        self.unbound_labels += r.unbound_labels as u64;
        match r.outcome {
            Outcome::Pass => {}
            Outcome::Violation => self.violations += 1,
            Outcome::OutsideModel => self.outside_model += 1,
        }
        for &n in &r.nodes {
            self.covered[n] = true;
        }
        Ok(())
    }

    /// Number of graph nodes some trace visited.
    pub fn covered_nodes(&self) -> usize {
        self.covered.iter().filter(|b| **b).count()
    }

    /// Fraction of graph nodes some trace visited.
    pub fn node_coverage(&self) -> f64 {
        if self.covered.is_empty() {
            return 0.0;
        }
        self.covered.iter().filter(|b| **b).count() as f64 / self.covered.len() as f64
    }
}

/// Version of the JSON forms of jtg's reports (`format_version` in every JSON output,
/// docs/json.md): raised when a field changes meaning or goes away.
pub const FORMAT_VERSION: u64 = 1;

/// The summary as JSON (fields documented in docs/json.md).
pub fn summary_json(
    method: &dyn std::fmt::Display,
    s: &Summary,
    failures: &[FailureReport],
    graph_nodes: usize,
) -> serde_json::Value {
    serde_json::json!({
        "format_version": FORMAT_VERSION,
        "method": method.to_string(),
        "traces": s.traces,
        "steps": s.steps,
        "violations": s.violations,
        "outside_model": s.outside_model,
        "cut": s.cut,
        "unbound_labels": s.unbound_labels,
        "nodes": graph_nodes,
        "node_coverage": s.node_coverage(),
        "uncovered_nodes": s.covered.iter().enumerate().filter(|(_, c)| !**c).map(|(k, _)| k).collect::<Vec<_>>(),
        "failures": failures,
    })
}

/// The reports grouped by failure: reports whose failure is the same (the same concrete state
/// at the same step and the same nodes tried with the same reasons, after shrinking when the
/// report was shrunk) form one group, in the order of their first report.
pub fn group_failures(failures: &[FailureReport]) -> Vec<Vec<&FailureReport>> {
    let key = |f: &FailureReport| {
        let r = f.shrunk.as_deref().unwrap_or(f);
        (
            r.input.clone(),
            r.step,
            r.state.clone(),
            r.candidates.clone(),
        )
    };
    let mut groups: Vec<(_, Vec<&FailureReport>)> = Vec::new();
    for f in failures {
        let k = key(f);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, members)) => members.push(f),
            None => groups.push((k, vec![f])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The reports as text, identical failures once with their count.
pub fn failures_text(failures: &[FailureReport]) -> String {
    let mut out = String::new();
    for group in group_failures(failures) {
        out.push_str(&group[0].text());
        if group.len() > 1 {
            let names: Vec<&str> = group[1..].iter().map(|f| f.name.as_str()).collect();
            out.push_str(&format!(
                "  the same failure in {} more reported cases: {}\n",
                group.len() - 1,
                names.join(", ")
            ));
        }
        out.push('\n');
    }
    out
}

/// The human-readable report: the failures (grouped), the label evaluations left out, and the
/// totals line.
pub fn summary_text(
    method: &dyn std::fmt::Display,
    s: &Summary,
    failures: &[FailureReport],
) -> String {
    let mut out = failures_text(failures);
    if s.unbound_labels > 0 {
        out.push_str(&format!(
            "{} label evaluations left out: the run had not bound a reference they name (e.g. a static field not accessed yet)\n",
            s.unbound_labels
        ));
    }
    out.push_str(&format!(
        "{method}: {} traces, {} steps, {} violations, {} outside the model, {} cut; node coverage {:.1}% ({} of {} nodes)\n",
        s.traces,
        s.steps,
        s.violations,
        s.outside_model,
        s.cut,
        100.0 * s.node_coverage(),
        s.covered_nodes(),
        s.covered.len()
    ));
    out
}

/// The summary as a JUnit XML test suite with one test case per method (named by the method,
/// the same in every run): failed when some trace violates the graph, with the (grouped)
/// reports as the failure's text; the totals in its `<system-out>`. `seconds`: the check's
/// wall time (`None`: no `time` attributes).
pub fn summary_junit(
    method: &dyn std::fmt::Display,
    s: &Summary,
    failures: &[FailureReport],
    seconds: Option<f64>,
) -> String {
    use crate::junit::{CaseOutcome, TestCase, TestSuite};
    let outcome = if s.violations > 0 {
        CaseOutcome::Failed {
            message: format!("{} of {} traces violate the graph", s.violations, s.traces),
            body: failures_text(failures),
        }
    } else {
        CaseOutcome::Passed
    };
    let totals = format!(
        "{} traces, {} steps, {} violations, {} outside the model, {} cut; node coverage {:.1}% ({} of {} nodes)",
        s.traces,
        s.steps,
        s.violations,
        s.outside_model,
        s.cut,
        100.0 * s.node_coverage(),
        s.covered_nodes(),
        s.covered.len()
    );
    TestSuite {
        name: "jtg check".into(),
        time: seconds,
        cases: vec![TestCase {
            classname: "jtg.check".into(),
            name: method.to_string(),
            time: seconds,
            outcome,
            output: totals,
        }],
    }
    .to_xml()
}
