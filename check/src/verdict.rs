//! Checking one recorded run against a graph (the verdict), many runs by threads, shrinking a
//! failing input, and the totals over many runs.

use crate::concrete::state_to_input;
use crate::path::{first_overflow, ConcreteRun, Extent, Matched, Matcher, Stuck};
use crate::report::{self, FailureReport};
use jtg_engine::graph::NodeId;
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::{EngineError, Graph, Program};
use jtg_jvm::{trace_batch, JvmError, StaticKey, Trace, TraceEnd, TraceOptions};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Jvm(#[from] JvmError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("{0}")]
    BadInput(String),
}

/// What is being checked: a method of a program, run from a class path.
pub struct Target<'a> {
    pub prog: &'a Program,
    pub method: MethodId,
    /// Class path entries the tracer instruments.
    pub classpath: Vec<PathBuf>,
    /// Number of argument slots (`this` included).
    pub n_args: usize,
}

impl<'a> Target<'a> {
    pub fn new(
        prog: &'a Program,
        method: MethodId,
        classpath: Vec<PathBuf>,
    ) -> Result<Target<'a>, CheckError> {
        let m = prog.method(&method)?;
        let n_args = usize::from(!m.is_static) + m.desc.params.len();
        Ok(Target {
            prog,
            method,
            classpath,
            n_args,
        })
    }

    /// Runs the method in the JVM on a concrete input state.
    pub fn trace(&self, input: &State, max_steps: u64) -> Result<Trace, CheckError> {
        let mut r = self.trace_batch(std::slice::from_ref(input), max_steps);
        r.pop()
            .unwrap_or_else(|| Err(CheckError::BadInput("no trace".into())))
    }

    /// Runs the method on every input state, in order, as [`Target::trace`] would, but many
    /// runs per JVM call ([`trace_batch`]). The traces key static fields as the program's
    /// states do ([`Trace::resolve_statics`] with [`Program::static_key`]).
    pub fn trace_batch(&self, inputs: &[State], max_steps: u64) -> Vec<Result<Trace, CheckError>> {
        let opts = TraceOptions {
            max_steps,
            ..Default::default()
        };
        let mut out: Vec<Option<Result<Trace, CheckError>>> = Vec::with_capacity(inputs.len());
        let mut cis = Vec::with_capacity(inputs.len());
        for s in inputs {
            match state_to_input(s, self.n_args) {
                Ok(ci) => {
                    cis.push(ci);
                    out.push(None);
                }
                Err(e) => out.push(Some(Err(e.into()))),
            }
        }
        let mut traces = trace_batch(
            &self.classpath,
            &self.method.class,
            &self.method.name,
            &self.method.desc,
            &cis,
            &opts,
        )
        .into_iter();
        // static fields keyed as the engine keys them: by the class that declares them
        let key = |class: &str, name: &str| {
            let (class, name) = self.prog.static_key(&jtg_engine::class::FieldRef {
                class: class.to_string(),
                name: name.to_string(),
                desc: jtg_engine::class::FieldType::Int,
            });
            StaticKey { class, name }
        };
        out.into_iter()
            .map(|o| match o {
                Some(e) => e,
                None => traces
                    .next()
                    .unwrap_or_else(|| Err(JvmError::Decode("missing trace".into())))
                    .map(|mut t| {
                        t.resolve_statics(&key);
                        t
                    })
                    .map_err(CheckError::from),
            })
            .collect()
    }
}

/// The verdict on one trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The trace (or its checked prefix, for a cut trace) is a path of the graph.
    Pass,
    /// No path of the graph covers the trace: the graph is unsound for this input.
    Violation(Stuck),
    /// Unbounded integers only: the run overflowed at `step`; the prefix before it matched
    /// (`stuck` is `None`) or failed after the overflow could have influenced it.
    OutsideModel { step: usize },
}

/// The result of checking one trace.
#[derive(Clone, Debug)]
pub struct TraceCheck {
    pub verdict: Verdict,
    /// Recorded steps.
    pub steps: usize,
    /// Cut by a budget of the run or by a limit of the JVM (checked as a prefix).
    pub cut: bool,
    /// The matched path (empty unless the verdict is `Pass` or `OutsideModel`).
    pub path: Vec<NodeId>,
    /// (node, step) pairs whose `c ⊑ s` succeeded.
    pub checked: usize,
    /// Label evaluations left out because the run had not bound a reference they name (a
    /// static field not accessed yet; see [`crate::labels`]).
    pub unbound_labels: usize,
    /// Time spent matching (not tracing), in nanoseconds.
    pub match_nanos: u64,
}

/// Whether a run ended because the JVM's stack or heap ran out. The model's call stack and heap
/// are unbounded (and recursion is abstracted), so such a run is cut by a resource limit of the
/// JVM, as a run is cut by the step budget: it is checked as a prefix and counted as cut.
fn stack_overflow(end: &TraceEnd) -> bool {
    end.hit_jvm_limit()
}

/// Checks one recorded run against the graph of `matcher`.
pub fn check_run(
    matcher: &Matcher<'_>,
    prog: &Program,
    run: &dyn ConcreteRun,
    sem: IntSemantics,
) -> TraceCheck {
    let t0 = Instant::now();
    let cut = matches!(run.end(), TraceEnd::Cut { .. }) || stack_overflow(run.end());
    let overflow = match sem {
        IntSemantics::Unbounded => first_overflow(run, prog),
        IntSemantics::Java => None,
    };
    let extent = match overflow {
        Some(k) => Extent::Prefix { last: k },
        // the JVM's stack limit cut the run: its steps are checked, its end is not
        None if stack_overflow(run.end()) => Extent::Prefix {
            last: run.len().saturating_sub(1),
        },
        None => Extent::Full,
    };
    let (verdict, path, checked, unbound_labels) = match matcher.run(run, extent) {
        Matched::Path {
            path,
            checked,
            unbound,
        } => match overflow {
            Some(k) => (Verdict::OutsideModel { step: k }, path, checked, unbound),
            None => (Verdict::Pass, path, checked, unbound),
        },
        Matched::Stuck(s) => (Verdict::Violation(s), vec![], 0, 0),
    };
    TraceCheck {
        verdict,
        steps: run.len(),
        cut,
        path,
        checked,
        unbound_labels,
        match_nanos: t0.elapsed().as_nanos() as u64,
    }
}

/// [`check_run`] on each of `runs`, by `jobs` threads (each takes the next unchecked run, so
/// long and short runs balance); the checks in the order of `runs`.
pub fn check_runs<R: ConcreteRun + Sync>(
    matcher: &Matcher<'_>,
    prog: &Program,
    runs: &[&R],
    sem: IntSemantics,
    jobs: usize,
) -> Vec<TraceCheck> {
    let jobs = jobs.clamp(1, runs.len().max(1));
    if jobs == 1 {
        return runs
            .iter()
            .map(|r| check_run(matcher, prog, *r, sem))
            .collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, TraceCheck)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(r) = runs.get(k) else { break };
                        done.push((k, check_run(matcher, prog, *r, sem)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    out.sort_by_key(|(k, _)| *k);
    out.into_iter().map(|(_, c)| c).collect()
}

/// Greedy shrinking: repeatedly replaces `input` by the first of `candidates(input)` whose run
/// still violates the graph (re-running the JVM for each), until none does or `max_runs` runs
/// were spent. Returns the smallest failing input found and its check.
pub fn shrink(
    target: &Target<'_>,
    matcher: &Matcher<'_>,
    input: &State,
    sem: IntSemantics,
    max_steps: u64,
    candidates: &dyn Fn(&State) -> Vec<State>,
    max_runs: usize,
) -> Result<(State, TraceCheck), CheckError> {
    let trace = target.trace(input, max_steps)?;
    let mut best = (input.clone(), check_run(matcher, target.prog, &trace, sem));
    let mut runs = 0usize;
    'outer: while runs < max_runs {
        for cand in candidates(&best.0) {
            if runs >= max_runs {
                break 'outer;
            }
            runs += 1;
            let Ok(t) = target.trace(&cand, max_steps) else {
                continue; // an input the JVM cannot build is no counterexample
            };
            let c = check_run(matcher, target.prog, &t, sem);
            if matches!(c.verdict, Verdict::Violation(_)) {
                best = (cand, c);
                continue 'outer;
            }
        }
        break;
    }
    Ok(best)
}

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
    pub report: Option<report::FailureReport>,
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
        Summary {
            covered: vec![false; graph.nodes.len()],
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

/// The summary as JSON (fields documented in `jtg check --help`).
pub fn summary_json(
    method: &MethodId,
    s: &Summary,
    failures: &[FailureReport],
    graph_nodes: usize,
) -> serde_json::Value {
    serde_json::json!({
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

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The summary as a JUnit XML test suite: one test case per failing trace, plus one passing
/// case for all other traces.
pub fn summary_junit(method: &MethodId, s: &Summary, failures: &[FailureReport]) -> String {
    let name = xml(&method.to_string());
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"jtg check {name}\" tests=\"{}\" failures=\"{}\">\n",
        failures.len() + 1,
        failures.len()
    );
    for f in failures {
        out.push_str(&format!(
            "  <testcase classname=\"{name}\" name=\"{}\">\n    <failure message=\"no graph node takes step {}\">{}</failure>\n  </testcase>\n",
            xml(&f.name),
            f.step,
            xml(&f.text())
        ));
    }
    out.push_str(&format!(
        "  <testcase classname=\"{name}\" name=\"{} traces, {} steps, {} outside the model, {} cut, node coverage {:.1}%\"/>\n</testsuite>\n",
        s.traces,
        s.steps,
        s.outside_model,
        s.cut,
        100.0 * s.node_coverage()
    ));
    out
}
