//! `prove`: YES by lexicographic ranking functions, NO by recurrent sets, every certificate
//! re-verified exactly before it is reported.

use crate::cert::{RecurrentSet, TerminationCertificate};
use crate::cert_closed::ClosedRecurrentSet;
use crate::farkas::RuleInstance;
use crate::invariant::Invariants;
use crate::its::Its;
use crate::linexpr::{Constraint, LinExpr, Rel};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use crate::rank::{prove_termination, RankOutcome};
use crate::recur::{find_recurrent_set, RecurLimits};
use crate::recur_closed::find_closed_set;
use crate::refine::{refine, Split};
use crate::verify::{verify_nontermination, verify_termination};
use crate::verify_closed::verify_closed;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The default work budget: about 3 s of simplex on this project's 2-core machine
/// (docs/proving.md).
pub const DEFAULT_MAX_WORK: u64 = 40_000_000;

/// What to try and how long.
#[derive(Clone, Debug)]
pub struct Options {
    /// Safety net only: wall-clock bound of one `prove` call, past it the answer is MAYBE
    /// with a note saying so. The budget that decides verdicts is [`Options::max_work`].
    pub timeout: Duration,
    /// Pivot bound of one LP.
    pub max_pivots: usize,
    /// Simplex work (tableau entries, [`LpStats::work`]) of the whole call: a deterministic
    /// budget, so that a verdict does not depend on the machine's load.
    pub max_work: u64,
    /// A rule with more `≠` constraints than this drops them instead of splitting.
    pub max_ne_split: usize,
    pub termination: bool,
    pub nontermination: bool,
    pub recur: RecurLimits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            timeout: Duration::from_secs(60),
            max_pivots: 20_000,
            max_work: DEFAULT_MAX_WORK,
            max_ne_split: 4,
            termination: true,
            nontermination: true,
            recur: RecurLimits::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    Yes,
    No,
    Maybe,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Yes => "YES",
            Verdict::No => "NO",
            Verdict::Maybe => "MAYBE",
        })
    }
}

/// What a verdict rests on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Certificate {
    Termination(TerminationCertificate),
    NonTermination(RecurrentSet),
    /// NO by a set closed under every rule of an SCC (`cert_closed`).
    ClosedNonTermination(ClosedRecurrentSet),
    /// MAYBE: the rule sets no ranking function was found for.
    Unproven {
        rule_sets: Vec<Vec<RuleInstance>>,
    },
}

/// Wall-clock times in microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Times {
    pub total_us: u64,
    pub termination_us: u64,
    pub nontermination_us: u64,
    pub verification_us: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    pub verdict: Verdict,
    pub certificate: Certificate,
    pub times: Times,
    pub lp: LpStats,
    /// Certificates that failed re-verification (each a bug of the prover, never a verdict),
    /// and limits that were hit.
    pub notes: Vec<String>,
}

fn micros(d: Duration) -> u64 {
    d.as_micros().min(u64::MAX as u128) as u64
}

/// The second attempt of a failed ranking search: interval invariants of `its`
/// (`invariant::infer`), then ranking functions for `its` with every guard strengthened by
/// its source's invariant. The invariants found (if any), and the certificate if that proves
/// termination.
fn with_invariants(
    its: &Its,
    opts: &Options,
    limits: &Limits,
    stats: &mut LpStats,
) -> (Option<Invariants>, Option<TerminationCertificate>) {
    let Some(inv) = crate::invariant::infer(its, opts.max_ne_split, limits) else {
        return (None, None);
    };
    let strong = crate::invariant::strengthen(its, &inv);
    match prove_termination(&strong, opts.max_ne_split, limits, stats) {
        RankOutcome::Proved(cert) => (
            None,
            Some(TerminationCertificate {
                invariants: inv,
                ..cert
            }),
        ),
        RankOutcome::Failed { .. } => (Some(inv), None),
    }
}

/// At most this many location splits are tried, one at a time.
const MAX_SPLITS: usize = 6;

/// The third attempt: one location of an unproven rule set split by a constraint over one of
/// its variables that a guard there tests (`refine`: `b ≤ −1` against `b ≥ 0` ranks `gcd`
/// by `−b` and `b`), then ranking functions for the refined ITS (with the invariants, if
/// any). The first split that proves termination, with its certificate.
fn with_splits(
    its: &Its,
    inv: Option<Invariants>,
    unproven: &[Vec<RuleInstance>],
    opts: &Options,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<TerminationCertificate> {
    let strong = match &inv {
        Some(inv) => crate::invariant::strengthen(its, inv),
        None => its.clone(),
    };
    for split in split_candidates(its, unproven).into_iter().take(MAX_SPLITS) {
        if stats.work_spent(limits) || stats.deadline_hits > 0 {
            return None;
        }
        let splits = vec![split];
        let refined = refine(&strong, &splits).ok()?;
        if let RankOutcome::Proved(cert) =
            prove_termination(&refined.its, opts.max_ne_split, limits, stats)
        {
            return Some(TerminationCertificate {
                invariants: inv.unwrap_or_default(),
                splits,
                ..cert
            });
        }
    }
    None
}

/// Splits worth a try, in a deterministic order: at each source location of the unproven
/// rule instances, every guard constraint over exactly one of its variables of those rules,
/// then of the other rules leaving these locations, as `e ≤ 0`
/// (`e < 0` is `e + 1 ≤ 0` over the integers; `e = 0` and `e ≠ 0` give both `e ≤ 0` and
/// `e + 1 ≤ 0`).
fn split_candidates(its: &Its, unproven: &[Vec<RuleInstance>]) -> Vec<Split> {
    let one = LinExpr::constant(Q::one());
    let mut out: Vec<Split> = Vec::new();
    let inside: Vec<_> = unproven.iter().flatten().map(|i| i.rule).collect();
    // then the rules that leave those locations (a loop's exit tests `n ≤ 9` where the loop's
    // own rules compare `n` with a temporary only)
    let exits = its.rule_ids().filter(|r| {
        !inside.contains(r)
            && inside
                .iter()
                .any(|&i| its.rule(i).from == its.rule(*r).from)
    });
    for id in inside.iter().copied().chain(exits) {
        let rule = its.rule(id);
        if rule.from == its.start() {
            continue;
        }
        let arity = its.location(rule.from).arity();
        for c in &rule.guard {
            let vars: Vec<_> = c.expr.vars().collect();
            if vars.len() != 1 || vars[0].index() >= arity {
                continue;
            }
            let lows = match c.rel {
                Rel::Le => vec![c.expr.clone()],
                Rel::Lt => vec![c.expr.plus(&one)],
                Rel::Eq | Rel::Ne => vec![c.expr.clone(), c.expr.plus(&one)],
            };
            for e in lows {
                let split = Split {
                    location: rule.from,
                    low: Constraint::new(e, Rel::Le),
                };
                if !out.contains(&split) {
                    out.push(split);
                }
            }
        }
    }
    out
}

/// The NO certificate `found` if its independent re-verification `verify` accepts it; a rejected
/// one is a bug of the prover, noted as `internal error: {what} …`, never a verdict.
fn verified_no<C, E: std::fmt::Display>(
    found: C,
    verify: impl FnOnce(&C) -> Result<(), E>,
    wrap: impl FnOnce(C) -> Certificate,
    what: &str,
    times: &mut Times,
    notes: &mut Vec<String>,
) -> Option<Certificate> {
    let v = Instant::now();
    let checked = verify(&found);
    times.verification_us += micros(v.elapsed());
    match checked {
        Ok(()) => Some(wrap(found)),
        Err(e) => {
            notes.push(format!("internal error: {what} {e}"));
            None
        }
    }
}

/// A NO proof resting on `certificate`.
fn no_proof(certificate: Certificate, times: Times, lp: LpStats, notes: Vec<String>) -> Proof {
    Proof {
        verdict: Verdict::No,
        certificate,
        times,
        lp,
        notes,
    }
}

/// Proves termination (YES) or non-termination (NO) of `its`, or answers MAYBE.
pub fn prove(its: &Its, opts: &Options) -> Proof {
    let t0 = Instant::now();
    let limits = Limits {
        max_pivots: opts.max_pivots,
        max_work: opts.max_work,
        max_cells: crate::lp::DEFAULT_MAX_CELLS,
        deadline: Some(t0 + opts.timeout),
    };
    let in_budget = |stats: &LpStats| !stats.work_spent(&limits) && stats.deadline_hits == 0;
    let mut stats = LpStats::default();
    let mut times = Times::default();
    let mut notes = Vec::new();
    let mut unproven: Vec<Vec<RuleInstance>> = Vec::new();
    if opts.termination {
        let t = Instant::now();
        let mut outcome = prove_termination(its, opts.max_ne_split, &limits, &mut stats);
        if matches!(outcome, RankOutcome::Failed { gave_up: false, .. }) && in_budget(&stats) {
            let (inv, cert) = with_invariants(its, opts, &limits, &mut stats);
            let cert = cert.or_else(|| {
                let RankOutcome::Failed { unproven, .. } = &outcome else {
                    return None;
                };
                with_splits(its, inv, unproven, opts, &limits, &mut stats)
            });
            if let Some(cert) = cert {
                outcome = RankOutcome::Proved(cert);
            }
        }
        times.termination_us = micros(t.elapsed());
        match outcome {
            RankOutcome::Proved(cert) => {
                let v = Instant::now();
                let checked = verify_termination(its, &cert);
                times.verification_us += micros(v.elapsed());
                match checked {
                    Ok(()) => {
                        times.total_us = micros(t0.elapsed());
                        return Proof {
                            verdict: Verdict::Yes,
                            certificate: Certificate::Termination(cert),
                            times,
                            lp: stats,
                            notes,
                        };
                    }
                    Err(e) => {
                        notes.push(format!("internal error: termination {e}"));
                        unproven = cert
                            .sccs
                            .iter()
                            .map(|s| {
                                s.levels
                                    .first()
                                    .map(|l| l.rules.iter().map(|r| r.instance.clone()).collect())
                                    .unwrap_or_default()
                            })
                            .collect();
                    }
                }
            }
            RankOutcome::Failed {
                unproven: u,
                gave_up,
                ..
            } => {
                if gave_up {
                    notes.push("the LP solver hit its pivot or work limit".to_string());
                }
                unproven = u;
            }
        }
    } else {
        unproven.push(crate::recur::all_instances(its, opts.max_ne_split));
    }
    if opts.nontermination && in_budget(&stats) {
        let t = Instant::now();
        let found = find_recurrent_set(its, &unproven, &opts.recur, &limits, &mut stats);
        times.nontermination_us = micros(t.elapsed());
        let verified = found.and_then(|rs| {
            let verify = |rs: &RecurrentSet| verify_nontermination(its, rs);
            let wrap = Certificate::NonTermination;
            verified_no(rs, verify, wrap, "non-termination", &mut times, &mut notes)
        });
        if let Some(certificate) = verified {
            times.total_us = micros(t0.elapsed());
            return no_proof(certificate, times, stats, notes);
        }
    }
    if opts.nontermination && in_budget(&stats) {
        // no cycle has a recurrent set: one closed under all rules of an SCC (Java ints' wrap
        // cases, congruences)
        let t = Instant::now();
        let found = find_closed_set(its, &unproven, &opts.recur, &limits, &mut stats);
        times.nontermination_us += micros(t.elapsed());
        let verified = found.and_then(|cs| {
            let verify = |cs: &ClosedRecurrentSet| verify_closed(its, cs);
            let wrap = Certificate::ClosedNonTermination;
            verified_no(
                cs,
                verify,
                wrap,
                "closed non-termination",
                &mut times,
                &mut notes,
            )
        });
        if let Some(certificate) = verified {
            times.total_us = micros(t0.elapsed());
            return no_proof(certificate, times, stats, notes);
        }
    }
    if stats.work_spent(&limits) {
        notes.push(format!("work budget of {} spent", opts.max_work));
    }
    if stats.deadline_hits > 0 {
        // a load-dependent answer: reported as such, never mistaken for a deterministic one
        notes.push(format!(
            "safety-net wall-clock limit of {:?} hit (this MAYBE depends on the machine's load)",
            opts.timeout
        ));
    }
    times.total_us = micros(t0.elapsed());
    Proof {
        verdict: Verdict::Maybe,
        certificate: Certificate::Unproven {
            rule_sets: unproven,
        },
        times,
        lp: stats,
        notes,
    }
}
