//! Running mutants: every mutant against the same concrete runs, the fate of each, the score.

use crate::mutant::{Mutant, Operator};
use jtg_check::{check_run, ConcreteRun, Matcher, Verdict};
use jtg_engine::state::IntSemantics;
use jtg_engine::{Graph, Program};

/// What happened to one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// A trace violated the mutant (the step and the first reason).
    Killed { input: usize, step: usize },
    /// Equivalent by a criterion of the module docs.
    Equivalent(String),
    /// Not killed, not shown equivalent: a gap of the check or of the inputs.
    Survived,
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
    pub fn equivalent(&self) -> usize {
        self.count(|f| matches!(f, Fate::Equivalent(_)))
    }
    pub fn survived(&self) -> usize {
        self.count(|f| matches!(f, Fate::Survived))
    }
    fn count(&self, p: impl Fn(&Fate) -> bool) -> usize {
        self.mutants.iter().filter(|(_, _, f)| p(f)).count()
    }
    /// `killed / (mutants − equivalent)`; 1 when every mutant is equivalent.
    pub fn score(&self) -> f64 {
        let live = self.mutants.len() - self.equivalent();
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
