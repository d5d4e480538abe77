//! The mutation analysis of one method's graph (`jtg mutate`): runs drawn from the original
//! start state and traced once, every sampled mutant matched against them, and, on request, the
//! survivors matched against a ten times larger enumeration of another seed and larger
//! structures (equivalent by *bounded enumeration* when they survive that too).

use crate::derive::mutants;
use crate::run::{run_mutants, sample, Fate, MutationReport};
use crate::single::single_run;
use jtg_check::{check_run, ConcreteRun, Inputs, Session, SessionError, Settings, Verdict};
use jtg_engine::state::IntSemantics;
use jtg_engine::{Graph, Program};
use jtg_jvm::{Trace, TraceEnd};
use std::path::PathBuf;

/// What a mutation analysis runs.
#[derive(Clone, Debug)]
pub struct Plan {
    pub ints: IntSemantics,
    /// Seed of the runs' inputs (the enumeration uses the next seed).
    pub seed: u64,
    /// Random inputs every mutant is matched against.
    pub n: u64,
    /// Largest generated structure (the enumeration's is 2 larger).
    pub max_size: usize,
    /// Step budget per run (mutants are local: short prefixes kill as well as long ones).
    pub max_steps: u64,
    /// Mutants tried (an even sample of all derived ones).
    pub max_mutants: usize,
    /// Re-check survivors on the larger enumeration.
    pub enumerate: bool,
}

/// Step budget of the one run of a method that has a single run (module `single`), traced
/// to its end so that its survivors are equivalent.
const SINGLE_RUN_STEPS: u64 = 1_000_000;

/// The result of a mutation analysis.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub report: MutationReport,
    /// Mutants claimed equivalent by a proof and killed by a run: a bug of the proof.
    pub refuted: Vec<String>,
}

/// Why a mutation analysis could not be done.
#[derive(Debug, thiserror::Error)]
pub enum MutateError {
    /// The runs' inputs cannot be drawn, or the graph's labels cannot be evaluated.
    #[error(transparent)]
    Session(Box<SessionError>),
    /// An input could not be drawn or run (`what`: which set of inputs).
    #[error("{what}")]
    Trace {
        what: &'static str,
        #[source]
        source: Box<SessionError>,
    },
    /// The original graph already fails some runs: mutants of it measure nothing.
    #[error("the original graph of {method} already fails {broken} of {traces} traces (run `jtg check`)")]
    OriginalFails {
        method: String,
        broken: usize,
        traces: usize,
    },
}

/// The `n` runs of the inputs of `seed`, structures up to `max_size`, as a session traces
/// them.
fn traces(
    prog: &Program,
    graph: &Graph,
    classpath: &[PathBuf],
    plan: &Plan,
    (seed, n, max_size): (u64, u64, usize),
    what: &'static str,
) -> Result<Vec<Trace>, MutateError> {
    let settings = Settings {
        ints: plan.ints,
        seed,
        max_size,
        max_steps: plan.max_steps,
        max_reports: 0,
        shrink_runs: 0,
        jobs: 1,
        replay: String::new(),
    };
    let inputs = Inputs::Generated { first: 0, count: n };
    let session = Session::new(prog, graph, classpath.to_vec(), settings, inputs)
        .map_err(|e| MutateError::Session(Box::new(e)))?;
    session.traces().map_err(|source| MutateError::Trace {
        what,
        source: Box::new(source),
    })
}

/// The mutation analysis of `graph` (of a method of `prog`, run from `classpath`).
pub fn analyse(
    prog: &Program,
    graph: &Graph,
    classpath: &[PathBuf],
    plan: &Plan,
) -> Result<Analysis, MutateError> {
    let sem = plan.ints;
    let base = traces(
        prog,
        graph,
        classpath,
        plan,
        (plan.seed, plan.n, plan.max_size),
        "tracing the inputs",
    )?;
    let matcher = jtg_check::Matcher::new(graph, prog, sem);
    let broken = base
        .iter()
        .filter(|t| {
            matches!(
                check_run(&matcher, prog, *t, sem).verdict,
                Verdict::Violation(_)
            )
        })
        .count();
    if broken > 0 {
        return Err(MutateError::OriginalFails {
            method: graph.method.to_string(),
            broken,
            traces: base.len(),
        });
    }
    let all = mutants(graph, prog, sem);
    let derived = all.len();
    let picked = sample(all, plan.max_mutants);
    let runs: Vec<&dyn ConcreteRun> = base.iter().map(|t| t as &dyn ConcreteRun).collect();
    let mut fates = run_mutants(graph, prog, sem, &picked, &runs);
    // a method with one run: the survivors are matched against that run traced to its end
    // (within a budget far above the plan's); one that survives it survives every run
    let open: Vec<usize> = (0..picked.len())
        .filter(|&k| fates[k] == Fate::Survived)
        .collect();
    if let (Some(why), false) = (single_run(graph, prog), open.is_empty()) {
        let full = Plan {
            max_steps: plan.max_steps.max(SINGLE_RUN_STEPS),
            ..plan.clone()
        };
        let one = traces(
            prog,
            graph,
            classpath,
            &full,
            (plan.seed, 1, plan.max_size),
            "tracing the single run",
        )?;
        // (an original that fails the full run measures nothing: no claim)
        let whole = one.iter().all(|t| {
            !matches!(t.end, TraceEnd::Cut { .. })
                && !matches!(
                    check_run(&matcher, prog, t, sem).verdict,
                    Verdict::Violation(_)
                )
        });
        if whole {
            let runs: Vec<&dyn ConcreteRun> = one.iter().map(|t| t as &dyn ConcreteRun).collect();
            let subset: Vec<_> = open.iter().map(|&k| picked[k].clone()).collect();
            let again = run_mutants(graph, prog, sem, &subset, &runs);
            for (&k, f) in open.iter().zip(again) {
                fates[k] = match f {
                    Fate::Survived => Fate::Equivalent(why.clone()),
                    other => other,
                };
            }
        }
    }
    // survivors: a bounded enumeration ten times larger, of another seed and larger sizes
    let open: Vec<usize> = (0..picked.len())
        .filter(|&k| fates[k] == Fate::Survived)
        .collect();
    if !open.is_empty() && plan.enumerate {
        let (seed, max_size) = (plan.seed.wrapping_add(1), plan.max_size + 2);
        let more = traces(
            prog,
            graph,
            classpath,
            plan,
            (seed, plan.n * 10, max_size),
            "tracing the enumeration",
        )?;
        let more_runs: Vec<&dyn ConcreteRun> = more.iter().map(|t| t as &dyn ConcreteRun).collect();
        let subset: Vec<_> = open.iter().map(|&k| picked[k].clone()).collect();
        let again = run_mutants(graph, prog, sem, &subset, &more_runs);
        for (&k, f) in open.iter().zip(again) {
            fates[k] = match f {
                Fate::Survived => Fate::Equivalent(format!(
                    "bounded enumeration: also survives {} further inputs (seed {seed}, structures up to {max_size})",
                    more.len(),
                )),
                other => other,
            };
        }
    }
    // an equivalence proof that a run refutes is a bug of the proof
    let refuted = picked
        .iter()
        .zip(&fates)
        .filter(|(mu, f)| mu.equivalent.is_some() && matches!(f, Fate::Killed { .. }))
        .map(|(mu, _)| mu.description.clone())
        .collect();
    let report = MutationReport {
        mutants: picked
            .iter()
            .zip(fates)
            .map(|(mu, f)| (mu.operator, mu.description.clone(), f))
            .collect(),
        derived,
    };
    Ok(Analysis { report, refuted })
}
