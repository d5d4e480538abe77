//! Shrinking a failing input: smaller candidates (the generator's), each run in the JVM again,
//! as long as the run still violates the graph.

use crate::error::CheckError;
use crate::path::Matcher;
use crate::target::Target;
use crate::verdict::{check_run, TraceCheck, Verdict};
use jtg_engine::state::{IntSemantics, State};

/// Greedy shrinking: repeatedly replaces `input` by the first of `candidates(input)` whose run
/// still violates the graph (re-running the JVM for each), until none does or `max_runs` runs
/// were spent. Returns the smallest failing input found and its check.
pub(crate) fn shrink(
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
