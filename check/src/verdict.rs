//! The verdict on one recorded run: is it a path of the graph (a prefix of one, for a cut run
//! or, under unbounded integers, the part before an overflow)? One run, or many by threads.

use crate::path::{first_overflow, Extent, Matched, Matcher, Stuck};
use crate::run::ConcreteRun;
use jtg_engine::graph::NodeId;
use jtg_engine::state::IntSemantics;
use jtg_engine::Program;
use jtg_jvm::TraceEnd;
use std::time::Instant;

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
    // a run cut before its first step (a class initialiser the entry or an input's building
    // started did not end within the budget) showed no state: its empty prefix is every path's
    let matched = if cut && run.is_empty() {
        Matched::Path {
            path: vec![],
            checked: 0,
            unbound: 0,
        }
    } else {
        matcher.run(run, extent)
    };
    let (verdict, path, checked, unbound_labels) = match matched {
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
