//! Guards as linear systems, and Farkas certificates found by linear programming.
//!
//! Affine Farkas lemma: for a satisfiable system `A·x ≤ b` (some rows equalities),
//! `A·x ≤ b ⇒ c·x ≤ d` holds over the rationals iff there are multipliers `λ` (`≥ 0` on
//! inequality rows, free on equalities) with `λ·A = c` and `λ·b ≤ d`; the system is
//! unsatisfiable iff some `λ` has `λ·A = 0` and `λ·b < 0`. Both are checked by plain exact
//! arithmetic in `verify`; this module *finds* the multipliers.
//!
//! Rows are built for integer variables: `e < 0` becomes `e ≤ -1`, and `a·x ≤ b` with integer
//! `a` of gcd `g` becomes `(a/g)·x ≤ ⌊b/g⌋` (both exact over the integers).

use crate::its::{Its, RuleId};
use crate::linexpr::{Constraint, LinExpr, Rel};
use crate::lp::{solve, Cmp, Limits, Lp, LpResult, LpStats, VarKind};
use crate::q::{gcd_numerators, Q};
use serde::{Deserialize, Serialize};

/// Which side of a `≠` constraint a rule instance takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NeSide {
    /// `e < 0`
    Less,
    /// `e > 0`
    Greater,
    /// The constraint is dropped (a weaker guard: sound for termination).
    Dropped,
}

/// A rule with each `≠` of its guard resolved: the unit the proofs work on. A rule without
/// `≠` has exactly one instance (empty `ne_sides`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RuleInstance {
    pub rule: RuleId,
    /// One entry per `≠` constraint of the guard, in guard order.
    pub ne_sides: Vec<NeSide>,
}

/// Farkas multipliers, one per guard constraint of the rule instance (in guard order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Farkas {
    pub multipliers: Vec<Q>,
}

/// `coeffs·x ≤ rhs`, or `= rhs` if `eq`; `coeffs` dense over the rule's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub coeffs: Vec<Q>,
    pub rhs: Q,
    pub eq: bool,
}

/// The instances of a rule: every combination of sides of its `≠` constraints, or, with more
/// than `max_split` of them, the one instance dropping them all.
pub(crate) fn instances(its: &Its, r: RuleId, max_split: usize) -> Vec<RuleInstance> {
    let k = its.rule(r).ne_count();
    if k > max_split {
        return vec![RuleInstance {
            rule: r,
            ne_sides: vec![NeSide::Dropped; k],
        }];
    }
    (0..1usize << k)
        .map(|bits| RuleInstance {
            rule: r,
            ne_sides: (0..k)
                .map(|i| {
                    if bits >> i & 1 == 0 {
                        NeSide::Less
                    } else {
                        NeSide::Greater
                    }
                })
                .collect(),
        })
        .collect()
}

/// The constraints of an instance's guard, `≠` resolved (a dropped one is `None`).
pub(crate) fn instance_guard(its: &Its, inst: &RuleInstance) -> Vec<Option<Constraint>> {
    let mut sides = inst.ne_sides.iter();
    its.rule(inst.rule)
        .guard
        .iter()
        .map(|c| match c.rel {
            Rel::Ne => match sides.next().copied().unwrap_or(NeSide::Dropped) {
                NeSide::Less => Some(Constraint::new(c.expr.clone(), Rel::Lt)),
                NeSide::Greater => Some(Constraint::new(c.expr.scaled(&-Q::one()), Rel::Lt)),
                NeSide::Dropped => None,
            },
            _ => Some(c.clone()),
        })
        .collect()
}

/// One row per guard constraint (a dropped one is the trivial `0 ≤ 0`), tightened for integers.
pub(crate) fn rows_of(guard: &[Option<Constraint>], nvars: usize) -> Vec<Row> {
    guard
        .iter()
        .map(|c| match c {
            None => Row {
                coeffs: vec![Q::zero(); nvars],
                rhs: Q::zero(),
                eq: false,
            },
            Some(c) => constraint_row(c, nvars),
        })
        .collect()
}

fn constraint_row(c: &Constraint, nvars: usize) -> Row {
    let mut coeffs = vec![Q::zero(); nvars];
    for (v, q) in &c.expr.terms {
        coeffs[v.index()] = q.clone();
    }
    let mut rhs = -&c.expr.constant;
    let eq = c.rel == Rel::Eq;
    if c.rel == Rel::Lt {
        rhs -= &Q::one(); // canonical constraints have integer coefficients
    }
    if !eq {
        let g = gcd_numerators(&coeffs);
        if !num_traits::Zero::is_zero(&g) {
            let gq = Q::from(g);
            for a in coeffs.iter_mut() {
                *a = &*a / &gq;
            }
            rhs = Q::from((&rhs / &gq).floor());
        }
    }
    Row { coeffs, rhs, eq }
}

/// Rows of a rule instance, over its `var_count` variables.
pub(crate) fn instance_rows(its: &Its, inst: &RuleInstance) -> Vec<Row> {
    let n = its.rule(inst.rule).var_count(its);
    rows_of(&instance_guard(its, inst), n)
}

/// The LP solver hit its pivot or time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GaveUp;

/// The smallest `v` with `rows ⇒ c·x ≤ v` and its multipliers (minimising `λ·b` subject to
/// `λ·A = c`). `Ok(None)`: no such bound (`c·x` unbounded, or the rows are unsatisfiable
/// without a bounded certificate). `Err(GaveUp)`: the solver gave up.
pub(crate) fn best_bound(
    rows: &[Row],
    c: &[Q],
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<(Q, Vec<Q>)>, GaveUp> {
    let mut lp = Lp::new();
    for r in rows {
        lp.var(if r.eq { VarKind::Free } else { VarKind::NonNeg });
    }
    for (j, cj) in c.iter().enumerate() {
        let coeffs: Vec<(usize, Q)> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.coeffs[j].is_zero())
            .map(|(i, r)| (i, r.coeffs[j].clone()))
            .collect();
        if coeffs.is_empty() {
            if !cj.is_zero() {
                return Ok(None);
            }
            continue;
        }
        lp.row(coeffs, Cmp::Eq, cj.clone());
    }
    lp.objective = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.rhs.is_zero())
        .map(|(i, r)| (i, -&r.rhs))
        .collect();
    match solve(&lp, limits, stats) {
        LpResult::Optimal { x, value } => Ok(Some((-value, x))),
        LpResult::Infeasible | LpResult::Unbounded => Ok(None),
        LpResult::Unknown => Err(GaveUp),
    }
}

/// Multipliers proving `rows ⇒ c·x ≤ d`, if the best bound reaches `d`.
pub(crate) fn implication(
    rows: &[Row],
    c: &[Q],
    d: &Q,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Farkas> {
    match best_bound(rows, c, limits, stats) {
        Ok(Some((v, m))) if v <= *d => Some(Farkas { multipliers: m }),
        _ => None,
    }
}

/// Multipliers proving `rows` unsatisfiable over the rationals (`λ·A = 0`, `λ·b ≤ -1`).
pub(crate) fn infeasibility(rows: &[Row], limits: &Limits, stats: &mut LpStats) -> Option<Farkas> {
    let n = rows.first().map_or(0, |r| r.coeffs.len());
    let mut lp = Lp::new();
    for r in rows {
        lp.var(if r.eq { VarKind::Free } else { VarKind::NonNeg });
    }
    for j in 0..n {
        let coeffs: Vec<(usize, Q)> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.coeffs[j].is_zero())
            .map(|(i, r)| (i, r.coeffs[j].clone()))
            .collect();
        if !coeffs.is_empty() {
            lp.row(coeffs, Cmp::Eq, Q::zero());
        }
    }
    let b: Vec<(usize, Q)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.rhs.is_zero())
        .map(|(i, r)| (i, r.rhs.clone()))
        .collect();
    if b.is_empty() {
        return None;
    }
    lp.row(b, Cmp::Le, -Q::one());
    match solve(&lp, limits, stats) {
        LpResult::Optimal { x, .. } => Some(Farkas { multipliers: x }),
        _ => None,
    }
}

/// Whether `rows` has a rational solution (`None`: the solver gave up).
pub(crate) fn satisfiable(rows: &[Row], limits: &Limits, stats: &mut LpStats) -> Option<bool> {
    let n = rows.first().map_or(0, |r| r.coeffs.len());
    let mut lp = Lp::new();
    for _ in 0..n {
        lp.var(VarKind::Free);
    }
    for r in rows {
        let coeffs = r
            .coeffs
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.is_zero())
            .map(|(j, a)| (j, a.clone()))
            .collect();
        lp.row(coeffs, if r.eq { Cmp::Eq } else { Cmp::Le }, r.rhs.clone());
    }
    match solve(&lp, limits, stats) {
        LpResult::Optimal { .. } | LpResult::Unbounded => Some(true),
        LpResult::Infeasible => Some(false),
        LpResult::Unknown => None,
    }
}

/// Dense coefficient vector of `e` over `n` variables.
pub(crate) fn dense(e: &LinExpr, n: usize) -> Vec<Q> {
    let mut v = vec![Q::zero(); n];
    for (x, q) in &e.terms {
        v[x.index()] = q.clone();
    }
    v
}

/// The variable `Var(i)` as an expression (shorthand for builders).
#[cfg(test)]
pub(crate) fn var(i: usize) -> LinExpr {
    LinExpr::var(crate::linexpr::Var(i as u32))
}

/// Linear consequences of constraints over the rationals, found as Farkas multipliers, with
/// one deterministic work budget for every question asked: the side questions of a graph's
/// encoding (the sign of a dividend, whether a Java-int update can wrap). A question the
/// budget cannot answer is answered `false`.
pub struct Entailment {
    limits: Limits,
    stats: LpStats,
}

impl Entailment {
    /// Questions sharing `max_work` units of tableau work (see [`Limits::max_work`]).
    pub fn new(max_work: u64) -> Entailment {
        Entailment {
            limits: Limits {
                max_work,
                ..Limits::default()
            },
            stats: LpStats::default(),
        }
    }

    /// Whether `premises` (over variables `0..nvars`, no `≠`) have no rational solution.
    pub fn infeasible(&mut self, premises: &[Constraint], nvars: usize) -> bool {
        let rows = rows_of(&Self::guard(premises), nvars);
        infeasibility(&rows, &self.limits, &mut self.stats).is_some()
    }

    /// Whether every rational solution of `premises` (over variables `0..nvars`, no `≠`)
    /// satisfies `e ≤ 0`.
    pub fn implies_nonpositive(
        &mut self,
        premises: &[Constraint],
        e: &LinExpr,
        nvars: usize,
    ) -> bool {
        let rows = rows_of(&Self::guard(premises), nvars);
        let bound = -&e.constant;
        implication(
            &rows,
            &dense(e, nvars),
            &bound,
            &self.limits,
            &mut self.stats,
        )
        .is_some()
    }

    /// Whether the budget ran out: some question may have been answered `false` for it.
    pub fn exhausted(&self) -> bool {
        self.stats.work >= self.limits.max_work
    }

    fn guard(premises: &[Constraint]) -> Vec<Option<Constraint>> {
        premises.iter().cloned().map(Some).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(c: &[i64], rhs: i64, eq: bool) -> Row {
        Row {
            coeffs: c.iter().map(|&v| Q::int(v)).collect(),
            rhs: Q::int(rhs),
            eq,
        }
    }

    #[test]
    fn strict_and_gcd_tightening() {
        // 2x < 3  ⇒  x ≤ 1 over the integers.
        let c = Constraint::lt(&var(0).scaled(&Q::int(2)), &LinExpr::constant(3));
        let r = rows_of(&[Some(c)], 1);
        assert_eq!(r, vec![row(&[1], 1, false)]);
    }

    #[test]
    fn bounds_and_infeasibility() {
        let mut st = LpStats::default();
        let l = Limits::default();
        // x ≤ 3, -x ≤ 0: max x = 3 with multiplier 1 on the first row.
        let rows = vec![row(&[1], 3, false), row(&[-1], 0, false)];
        let (v, m) = best_bound(&rows, &[Q::one()], &l, &mut st)
            .unwrap()
            .unwrap();
        assert_eq!(v, Q::int(3));
        assert_eq!(m, vec![Q::one(), Q::zero()]);
        assert!(implication(&rows, &[Q::one()], &Q::int(2), &l, &mut st).is_none());
        assert!(best_bound(&rows[..1], &[-Q::one()], &l, &mut st)
            .unwrap()
            .is_none());
        // x ≤ 0, -x ≤ -1: unsatisfiable.
        let bad = vec![row(&[1], 0, false), row(&[-1], -1, false)];
        assert!(infeasibility(&bad, &l, &mut st).is_some());
        assert_eq!(satisfiable(&bad, &l, &mut st), Some(false));
        assert!(infeasibility(&rows, &l, &mut st).is_none());
    }
}
