//! Reports of failing traces, for people (text) and tools (JSON, JUnit XML).
//!
//! A report names the input (state text form), the step no node took, the concrete state
//! there (same text form), every node tried with the first condition it failed, the shrunk
//! input, and one command that replays the failure.

use crate::concrete::{end_to_state, step_to_state};
use crate::path::Stuck;
use crate::run::ConcreteRun;
use jtg_engine::state::text::{print_state, LocalNames, TextContext};
use jtg_engine::state::MethodId;
use jtg_engine::Graph;
use serde::{Deserialize, Serialize};

/// One node tried at the failing step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CandidateReport {
    pub node: usize,
    /// Where the node is (`pc 5 (List.java:3)`, `pc 5`, or `end`).
    pub at: String,
    /// The node the path came from and the edge kind (`7 --eval-->`).
    pub via: Option<String>,
    pub reason: String,
}

/// A failing trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureReport {
    /// `case K` or the input file.
    pub name: String,
    pub input: String,
    /// The step no node took (`steps` = the program end).
    pub step: usize,
    pub steps: usize,
    /// The source line of the step no node took (`List.java:3`; `None` at the program end
    /// or without a line table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub state: String,
    pub candidates: Vec<CandidateReport>,
    pub shrunk: Option<Box<FailureReport>>,
    pub replay: String,
}

/// The state of `run` before step `i` (or its end) in the text form.
pub fn state_text(run: &dyn ConcreteRun, i: usize, ctx: &TextContext<'_>) -> String {
    if i < run.len() {
        let step = run.step(i);
        match step_to_state(&step) {
            Ok(s) => print_state(&s, ctx),
            Err(e) => format!("(not printable as a state: {e})\n{:?}", step.frames),
        }
    } else {
        let heap = if run.is_empty() {
            std::sync::Arc::default()
        } else {
            run.step(run.len() - 1).heap.clone()
        };
        match end_to_state(run.end(), &heap) {
            Ok(Some(s)) => print_state(&s, ctx),
            Ok(None) => "(cut)".into(),
            Err(e) => format!("(not printable as a state: {e})"),
        }
    }
}

/// Builds the report of a stuck trace.
#[allow(clippy::too_many_arguments)]
pub fn failure(
    graph: &Graph,
    names: &dyn LocalNames,
    method: &MethodId,
    name: String,
    input: String,
    run: &dyn ConcreteRun,
    stuck: &Stuck,
    replay: String,
) -> FailureReport {
    let ctx = TextContext::for_method(method.clone(), names);
    let candidates = stuck
        .candidates
        .iter()
        .map(|c| CandidateReport {
            node: c.node,
            at: graph.nodes.get(c.node).map_or_else(
                || "?".into(),
                |n| {
                    let line = n
                        .state
                        .top()
                        .and_then(|f| names.source_line(&f.method, f.pc))
                        .map_or_else(String::new, |l| format!(" ({l})"));
                    match n.state.top() {
                        Some(f) if f.method == *method => format!("pc {}{line}", f.pc),
                        Some(f) => format!("pc {} of {}{line}", f.pc, f.method),
                        None => "end".into(),
                    }
                },
            ),
            via: c.via.map(|(n, k)| format!("{n} --{k}-->")),
            reason: c.reason.clone(),
        })
        .collect();
    let source = (stuck.step < run.len())
        .then(|| run.top_step(stuck.step, 1))
        .and_then(|s| {
            let f = s.frames.first()?;
            names.source_line(&MethodId::new(&f.class, &f.method, &f.desc), f.pc)
        })
        .map(|l| l.to_string());
    FailureReport {
        name,
        input,
        step: stuck.step,
        steps: run.len(),
        source,
        state: state_text(run, stuck.step, &ctx),
        candidates,
        shrunk: None,
        replay,
    }
}

fn indent(s: &str, by: &str) -> String {
    s.lines().map(|l| format!("{by}{l}\n")).collect()
}

impl FailureReport {
    /// The human-readable form.
    pub fn text(&self) -> String {
        let mut out = format!("VIOLATION ({})\n  input:\n", self.name);
        out.push_str(&indent(&self.input, "    "));
        let at = if self.step >= self.steps {
            format!("the program end (after {} steps)", self.steps)
        } else {
            let line = self
                .source
                .as_deref()
                .map_or_else(String::new, |l| format!(" ({l})"));
            format!("step {} of {}{line}", self.step, self.steps)
        };
        out.push_str(&format!(
            "  no node takes the run at {at}; concrete state:\n"
        ));
        out.push_str(&indent(&self.state, "    "));
        out.push_str("  nodes tried:\n");
        for c in &self.candidates {
            let via = c
                .via
                .as_deref()
                .map_or_else(String::new, |v| format!("{v} "));
            out.push_str(&format!(
                "    {via}node {} ({}): {}\n",
                c.node, c.at, c.reason
            ));
        }
        if let Some(s) = &self.shrunk {
            out.push_str("  shrunk input:\n");
            out.push_str(&indent(&s.input, "    "));
            let at = if s.step >= s.steps {
                "the program end".to_string()
            } else {
                let line = s
                    .source
                    .as_deref()
                    .map_or_else(String::new, |l| format!(" ({l})"));
                format!("step {}{line}", s.step)
            };
            out.push_str(&format!("  which fails at {at}:\n"));
            out.push_str(&indent(&s.state, "    "));
            for c in &s.candidates {
                let via = c
                    .via
                    .as_deref()
                    .map_or_else(String::new, |v| format!("{v} "));
                out.push_str(&format!(
                    "    {via}node {} ({}): {}\n",
                    c.node, c.at, c.reason
                ));
            }
            out.push_str(&format!("  replay the shrunk input: {}\n", s.replay));
        }
        out.push_str(&format!("  replay: {}\n", self.replay));
        out
    }
}

/// A shell word for `s`: as it is when it needs no quoting, in single quotes otherwise (for
/// replay commands).
pub fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
