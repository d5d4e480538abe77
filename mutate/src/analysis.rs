//! The mutation analysis of one method's graph (`jtg mutate`): runs drawn from the original
//! start state and traced once, their paths in the original graph (the coverage), every
//! sampled covered mutant matched against them, and, on request, the mutants neither killed nor
//! proven matched against a ten times larger input set of another seed and larger structures.

use crate::coverage::Coverage;
use crate::derive::mutants;
use crate::mutant::Mutant;
use crate::run::{run_mutants, sample, Fate, MutationReport};
use crate::single::single_run;
use jtg_check::{ConcreteRun, Inputs, Session, SessionError, Settings};
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
    /// Match the open mutants against ten times more inputs too.
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
    let broken = Coverage::of_runs(graph, prog, sem, &as_runs(&base)).1;
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
    let mut fates = fates(graph, prog, sem, &picked, &as_runs(&base));
    // a method with one run: the open mutants are matched against that run traced to its end
    // (within a budget far above the plan's); one it does not kill, every run does not kill
    if let Some(why) = single_run(graph, prog).filter(|_| fates.iter().any(open)) {
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
        // (an original that fails the full run, or a run cut again, supports no claim)
        let whole = one.iter().all(|t| !matches!(t.end, TraceEnd::Cut { .. }));
        if whole && Coverage::of_runs(graph, prog, sem, &as_runs(&one)).1 == 0 {
            more_runs(graph, prog, sem, &picked, &mut fates, &one, base.len());
            for f in fates.iter_mut().filter(|f| open(f)) {
                *f = Fate::Equivalent(why.clone());
            }
        }
    }
    // with `enumerate`: the open mutants against ten times more inputs, of another seed and
    // larger structures
    if plan.enumerate && fates.iter().any(open) {
        let (seed, max_size) = (plan.seed.wrapping_add(1), plan.max_size + 2);
        let more = traces(
            prog,
            graph,
            classpath,
            plan,
            (seed, plan.n * 10, max_size),
            "tracing the enumeration",
        )?;
        more_runs(graph, prog, sem, &picked, &mut fates, &more, base.len());
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

/// Whether a mutant is still open to more runs: not killed, not proven equivalent.
fn open(f: &Fate) -> bool {
    matches!(f, Fate::NotCovered(_) | Fate::Survived)
}

fn as_runs(ts: &[Trace]) -> Vec<&dyn ConcreteRun> {
    ts.iter().map(|t| t as &dyn ConcreteRun).collect()
}

/// The fates of `mutants` of `graph` on `runs`, which the original graph accepts: a covered
/// mutant is matched against them (an equivalent one too: a run that kills it refutes the
/// proof); one they do not cover is not covered unless proven equivalent.
pub fn fates(
    graph: &Graph,
    prog: &Program,
    sem: IntSemantics,
    mutants: &[Mutant],
    runs: &[&dyn ConcreteRun],
) -> Vec<Fate> {
    let (cover, _) = Coverage::of_runs(graph, prog, sem, runs);
    let covered: Vec<Mutant> = mutants
        .iter()
        .filter(|m| cover.uncovered(graph, m).is_none())
        .cloned()
        .collect();
    let mut matched = run_mutants(graph, prog, sem, &covered, runs).into_iter();
    mutants
        .iter()
        .map(|m| match (cover.uncovered(graph, m), &m.equivalent) {
            (None, _) => matched.next().unwrap_or(Fate::Survived),
            (Some(_), Some(why)) => Fate::Equivalent(why.clone()),
            (Some(why), None) => Fate::NotCovered(why),
        })
        .collect()
}

/// The open mutants of `picked` against further `runs` (numbered from `first` in the fates):
/// one a run kills is killed; one they cover and do not kill survives.
fn more_runs(
    graph: &Graph,
    prog: &Program,
    sem: IntSemantics,
    picked: &[Mutant],
    fates: &mut [Fate],
    runs: &[Trace],
    first: usize,
) {
    let now: Vec<usize> = (0..picked.len()).filter(|&k| open(&fates[k])).collect();
    let subset: Vec<Mutant> = now.iter().map(|&k| picked[k].clone()).collect();
    for (&k, f) in now.iter().zip(fates_of(graph, prog, sem, &subset, runs)) {
        match f {
            Fate::Killed { input, step } => {
                fates[k] = Fate::Killed {
                    input: first + input,
                    step,
                }
            }
            Fate::Survived => fates[k] = Fate::Survived,
            _ => {}
        }
    }
}

fn fates_of(
    g: &Graph,
    prog: &Program,
    sem: IntSemantics,
    ms: &[Mutant],
    ts: &[Trace],
) -> Vec<Fate> {
    fates(g, prog, sem, ms, &as_runs(ts))
}
