//! The evaluation API for concrete runs: does a transition satisfy its rule, and do the
//! ranking functions of a proof decrease on it. The JVM cross-check maps every concrete step
//! onto an ITS transition and calls [`check_transition`].

use crate::cert::{RuleCert, TerminationCertificate};
use crate::farkas::{instance_guard, RuleInstance};
use crate::its::{Its, ItsError, LocId, RuleId};
use crate::linexpr::Var;
use crate::q::Q;
use crate::refine::{refine, Refined};
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

/// How one ranking function behaved on one concrete transition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankingCheck {
    pub scc: usize,
    pub level: usize,
    /// The level removes this transition's rule instance (must decrease by ≥ 1 and be ≥ 0).
    pub strict: bool,
    pub before: Q,
    pub after: Q,
    /// `before − after ≥ 1` if strict, `≥ 0` if weak.
    pub decreases: bool,
    /// `before ≥ 0` (always true for weak rules, which need no bound).
    pub bounded: bool,
}

impl RankingCheck {
    pub fn holds(&self) -> bool {
        self.decreases && self.bounded
    }
}

/// One concrete transition checked against the ITS and a termination certificate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransitionCheck {
    /// `None`: the guard is false on these values.
    #[serde(with = "crate::cert::big_serde::opt_vec")]
    pub successor: Option<Vec<BigInt>>,
    /// Every level whose rules include an instance of this rule matching the values.
    pub ranking: Vec<RankingCheck>,
}

/// Whether concrete values select `inst` (its resolved `≠` sides hold).
pub fn instance_matches(its: &Its, inst: &RuleInstance, vals: &[BigInt]) -> bool {
    let q: Vec<Q> = vals.iter().map(Q::from).collect();
    instance_guard(its, inst)
        .iter()
        .flatten()
        .all(|c| c.holds(&|v: Var| q.get(v.index()).cloned()) == Some(true))
}

/// Applies rule `r` to `args` with temporaries `temps` and evaluates every ranking function of
/// `cert` that covers it.
pub fn check_transition(
    its: &Its,
    cert: &TerminationCertificate,
    r: RuleId,
    args: &[BigInt],
    temps: &[BigInt],
) -> Result<TransitionCheck, ItsError> {
    let successor = its.step(r, args, temps)?;
    let mut ranking = Vec::new();
    let Some(next) = &successor else {
        return Ok(TransitionCheck { successor, ranking });
    };
    let all: Vec<BigInt> = args.iter().chain(temps).cloned().collect();
    let refined = refined(its, cert)?;
    // the certificate's rules are the refined ITS's: the copy these values take
    let (its, r) = match &refined {
        Some(rf) => (&rf.its, rf.rule_of(r, args, temps).unwrap_or(r)),
        None => (its, r),
    };
    let rule = its.rule(r);
    for (si, scc) in cert.sccs.iter().enumerate() {
        for (li, level) in scc.levels.iter().enumerate() {
            let Some(rr) = level
                .rules
                .iter()
                .find(|rr| rr.instance.rule == r && instance_matches(its, &rr.instance, &all))
            else {
                continue;
            };
            if let RuleCert::Nested { .. } = rr.cert {
                if let Some(c) = check_nested(level, rule.from, rule.to, args, next) {
                    ranking.push(RankingCheck {
                        scc: si,
                        level: li,
                        ..c
                    });
                }
                continue;
            }
            let (Some(ff), Some(ft)) = (level.function(rule.from), level.function(rule.to)) else {
                continue;
            };
            let before = ff
                .eval_ints(args)
                .expect("function over the source's variables");
            let after = ft
                .eval_ints(next)
                .expect("function over the target's variables");
            let strict = matches!(rr.cert, RuleCert::Strict { .. });
            let drop = &before - &after;
            let decreases = if strict {
                drop >= Q::one()
            } else {
                !drop.is_negative()
            };
            let bounded = !strict || !before.is_negative();
            ranking.push(RankingCheck {
                scc: si,
                level: li,
                strict,
                before,
                after,
                decreases,
                bounded,
            });
        }
    }
    Ok(TransitionCheck { successor, ranking })
}

/// The ITS the certificate's ranking part is about, when it splits locations
/// (`refine`); `None` when it is `its` itself.
fn refined(its: &Its, cert: &TerminationCertificate) -> Result<Option<Refined>, ItsError> {
    if cert.splits.is_empty() {
        return Ok(None);
    }
    refine(its, &cert.splits)
        .map(Some)
        .map_err(|e| ItsError::BadRule {
            rule: "certificate".to_string(),
            what: e.to_string(),
        })
}

/// The nested conditions (`nested.rs`) on one concrete transition: `before`/`after` are
/// `f₁`'s values, `decreases` that `f₁` falls by ≥ 1 and each `f_{i−1} + f_i` by ≥ 1 in
/// `f_i`'s part, `bounded` that `f_d ≥ 0`.
fn check_nested(
    level: &crate::cert::Level,
    from: LocId,
    to: LocId,
    args: &[BigInt],
    next: &[BigInt],
) -> Option<RankingCheck> {
    let at = |l: LocId, vals: &[BigInt]| -> Option<Vec<Q>> {
        level.phases(l)?.iter().map(|f| f.eval_ints(vals)).collect()
    };
    let (b, a) = (at(from, args)?, at(to, next)?);
    let decreases = (0..b.len()).all(|i| {
        let mut drop = &b[i] - &a[i];
        if i > 0 {
            drop += &b[i - 1];
        }
        drop >= Q::one()
    });
    Some(RankingCheck {
        scc: 0,
        level: 0,
        strict: true,
        before: b[0].clone(),
        after: a[0].clone(),
        decreases,
        bounded: !b.last()?.is_negative(),
    })
}

/// Whether two consecutive concrete transitions — `first` (its rule, its source values then
/// temporaries) directly followed by `second` — take a pair of instances that `cert` says
/// never follow each other (`cert.chains`): the position of the first such pair, which the
/// run refutes.
pub fn check_chain(
    its: &Its,
    cert: &TerminationCertificate,
    first: (RuleId, &[BigInt]),
    second: (RuleId, &[BigInt]),
) -> Option<usize> {
    let Ok(refined) = refined(its, cert) else {
        return None;
    };
    let (its, first, second) = match &refined {
        Some(rf) => {
            let at = |r: RuleId, vals: &[BigInt]| {
                let n = its.location(its.rule(r).from).arity().min(vals.len());
                rf.rule_of(r, &vals[..n], &vals[n..]).unwrap_or(r)
            };
            let first = (at(first.0, first.1), first.1);
            let second = (at(second.0, second.1), second.1);
            (&rf.its, first, second)
        }
        None => (its, first, second),
    };
    cert.chains.iter().position(|c| {
        c.first.rule == first.0
            && c.second.rule == second.0
            && instance_matches(its, &c.first, first.1)
            && instance_matches(its, &c.second, second.1)
    })
}

/// The first bound of the invariant at `loc` that the values `vals` of its variables violate
/// (`cert.invariants`; an invariant is claimed for every reachable state).
pub fn check_invariant(
    cert: &TerminationCertificate,
    loc: LocId,
    vals: &[BigInt],
) -> Option<usize> {
    cert.invariants
        .at(loc)
        .iter()
        .position(|c| !crate::cert::in_set(std::slice::from_ref(c), vals))
}
