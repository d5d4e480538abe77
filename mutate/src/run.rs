//! Running mutants: every mutant against the same concrete runs, the fate of each, the score.

use crate::mutant::{Mutant, Operator};
use jtg_check::{check_run, ConcreteRun, Matcher, Verdict};
use jtg_engine::state::IntSemantics;
use jtg_engine::{Graph, Program};

/// What happened to one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// A trace violated the mutant (the input and the step).
    Killed { input: usize, step: usize },
    /// No run of the original graph reaches what the mutant changes (module `coverage`), so
    /// no run can kill it: a gap of the inputs (or of the graph's precision), not of the check.
    NotCovered(String),
    /// Equivalent by a local argument of the crate docs.
    Equivalent(String),
    /// Covered, not killed, not shown equivalent: a gap of the check or of the inputs.
    Survived,
}

impl Fate {
    /// The fate's name as reports print it.
    pub fn name(&self) -> &'static str {
        match self {
            Fate::Killed { .. } => "killed",
            Fate::NotCovered(_) => "not-covered",
            Fate::Equivalent(_) => "equivalent",
            Fate::Survived => "SURVIVED",
        }
    }
}

/// The outcome of a mutation run over one graph.
#[derive(Clone, Debug, Default)]
pub struct MutationReport {
    /// (operator, description, fate) per mutant tried.
    pub mutants: Vec<(Operator, String, Fate)>,
    /// Mutants derived before sampling.
    pub derived: usize,
}

impl MutationReport {
    pub fn killed(&self) -> usize {
        self.count(|f| matches!(f, Fate::Killed { .. }))
    }
    pub fn not_covered(&self) -> usize {
        self.count(|f| matches!(f, Fate::NotCovered(_)))
    }
    pub fn equivalent(&self) -> usize {
        self.count(|f| matches!(f, Fate::Equivalent(_)))
    }
    pub fn survived(&self) -> usize {
        self.count(|f| matches!(f, Fate::Survived))
    }
    fn count(&self, p: impl Fn(&Fate) -> bool) -> usize {
        self.mutants.iter().filter(|(_, _, f)| p(f)).count()
    }
    /// `killed / (killed + survived)`: over the covered mutants not proven equivalent; 1 when
    /// there are none.
    pub fn score(&self) -> f64 {
        let live = self.killed() + self.survived();
        if live == 0 {
            1.0
        } else {
            self.killed() as f64 / live as f64
        }
    }
}

/// Picks at most `max` of `all` mutants, spread evenly over the derivation order (which is by
/// operator, then node), so that every operator keeps its share.
pub fn sample(all: Vec<Mutant>, max: usize) -> Vec<Mutant> {
    if all.len() <= max || max == 0 {
        return all;
    }
    let n = all.len();
    all.into_iter()
        .enumerate()
        .filter(|(k, _)| (k * max) / n != ((k + 1) * max) / n)
        .map(|(_, m)| m)
        .collect()
}

/// Checks every mutant against the same concrete runs (drawn from the original start state).
pub fn run_mutants(
    base: &Graph,
    prog: &Program,
    sem: IntSemantics,
    mutants: &[Mutant],
    runs: &[&dyn ConcreteRun],
) -> Vec<Fate> {
    mutants
        .iter()
        .map(|m| {
            let graph = m.graph(base);
            let matcher = Matcher::new(&graph, prog, sem);
            for (k, r) in runs.iter().enumerate() {
                if let Verdict::Violation(s) = check_run(&matcher, prog, *r, sem).verdict {
                    return Fate::Killed {
                        input: k,
                        step: s.step,
                    };
                }
            }
            match &m.equivalent {
                Some(why) => Fate::Equivalent(why.clone()),
                None => Fate::Survived,
            }
        })
        .collect()
}
