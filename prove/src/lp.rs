//! The exact solve of the proofs' linear programs, its limits and statistics (the LP type and
//! the simplex itself, shared with the float proposals of `lp_float.rs`, are `simplex.rs`:
//! dense tableau, two phases, Dantzig's rule with Bland's against cycling).
//!
//! Pivots per solve and tableau work over all solves of a proof are bounded (deterministic
//! limits: the same answer on a loaded machine as on a quiet one), and a wall-clock deadline is
//! kept only as a safety net, so it cannot hang either: past any limit the answer is
//! [`LpResult::Unknown`]. All arithmetic is exact ([`Q`]), so "infeasible" and "optimal" are
//! facts, not tolerances. docs/proving.md gives the measurements behind this choice.

use crate::q::Q;
use crate::simplex::{self, Budget, Outcome};
use std::time::Instant;

// the problem's types live beside the simplex that reads them (no circle between the two)
pub use crate::simplex::{Cmp, Lp, LpRow, VarKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpResult {
    /// An optimal point (any feasible point for an empty objective) and its value.
    Optimal {
        x: Vec<Q>,
        value: Q,
    },
    Infeasible,
    Unbounded,
    /// Pivot, work or time limit reached.
    Unknown,
}

/// Bounds on one solve.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Pivots of one solve.
    pub max_pivots: usize,
    /// Tableau work of all solves counted in one [`LpStats`] (a whole proof): the solve stops
    /// once `LpStats::work` reaches it. Deterministic, unlike the deadline.
    pub max_work: u64,
    /// Entries of one dense tableau: a larger LP is not built (its memory), the answer is
    /// `Unknown`.
    pub max_cells: u64,
    /// Safety net only (a verdict must not depend on it): checked before every pivot.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_pivots: 20_000,
            max_work: u64::MAX,
            max_cells: DEFAULT_MAX_CELLS,
            deadline: None,
        }
    }
}

/// About 100 MB of tableau entries.
pub const DEFAULT_MAX_CELLS: u64 = 3_000_000;

/// Counters of the solves, for the proof's statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LpStats {
    pub solves: u64,
    pub pivots: u64,
    pub unknown: u64,
    /// Tableau work: entries written when a tableau is built, entries updated by each pivot
    /// and rows scanned by each ratio test. A machine-independent measure of the solver's time.
    #[serde(default)]
    pub work: u64,
    /// Solves stopped by the wall-clock safety net (then a verdict may depend on the load).
    #[serde(default)]
    pub deadline_hits: u64,
    /// Solves of the float solver (`lp_float.rs`), which only proposes candidates.
    #[serde(default)]
    pub float_solves: u64,
    /// Its work, counted like `work`, in a budget of its own.
    #[serde(default)]
    pub float_work: u64,
}

impl LpStats {
    /// Whether the work budget of `limits` is spent.
    pub fn work_spent(&self, limits: &Limits) -> bool {
        self.work >= limits.max_work
    }
}

/// Solves `lp` exactly within `limits`, counting into `stats`.
pub fn solve(lp: &Lp, limits: &Limits, stats: &mut LpStats) -> LpResult {
    stats.solves += 1;
    if stats.work_spent(limits) {
        stats.unknown += 1;
        return LpResult::Unknown;
    }
    let budget = Budget {
        max_pivots: limits.max_pivots,
        work: limits.max_work - stats.work,
        max_cells: limits.max_cells,
        deadline: limits.deadline,
    };
    let solved = simplex::solve::<Q>(lp, &budget);
    stats.pivots += solved.pivots as u64;
    stats.work = stats.work.saturating_add(solved.work);
    if solved.deadline_hit {
        stats.deadline_hits += 1;
    }
    let r = match solved.outcome {
        Outcome::Optimal(x) => {
            let mut value = Q::zero();
            for (j, v) in &lp.objective {
                value += &(v * &x[*j]);
            }
            LpResult::Optimal { x, value }
        }
        Outcome::Infeasible => LpResult::Infeasible,
        Outcome::Unbounded => LpResult::Unbounded,
        Outcome::Limit => LpResult::Unknown,
    };
    if r == LpResult::Unknown {
        stats.unknown += 1;
    }
    r
}

/// Whether `x` satisfies every row and sign restriction of `lp` exactly.
pub fn satisfies(lp: &Lp, x: &[Q]) -> bool {
    if x.len() != lp.kinds.len() {
        return false;
    }
    let signs = lp
        .kinds
        .iter()
        .zip(x)
        .all(|(k, v)| *k == VarKind::Free || !v.is_negative());
    signs
        && lp.rows.iter().all(|r| {
            let mut s = Q::zero();
            for (j, c) in &r.coeffs {
                s += &(c * &x[*j]);
            }
            match r.cmp {
                Cmp::Le => s <= r.rhs,
                Cmp::Eq => s == r.rhs,
                Cmp::Ge => s >= r.rhs,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{Arbitrary, Gen, QuickCheck};

    /// A small LP with every variable boxed in [-B, B] (so optimal or infeasible), integer data.
    #[derive(Clone, Debug)]
    struct SmallLp {
        lp: Lp,
    }

    const B: i64 = 4;

    impl Arbitrary for SmallLp {
        fn arbitrary(g: &mut Gen) -> SmallLp {
            let n = 1 + usize::arbitrary(g) % 3;
            let m = usize::arbitrary(g) % 5;
            let small = |g: &mut Gen| (i64::arbitrary(g) % 4) as i32;
            let mut lp = Lp::new();
            for _ in 0..n {
                let k = if bool::arbitrary(g) {
                    VarKind::Free
                } else {
                    VarKind::NonNeg
                };
                let v = lp.var(k);
                lp.row(vec![(v, Q::one())], Cmp::Le, Q::int(B));
                lp.row(vec![(v, Q::one())], Cmp::Ge, Q::int(-B));
            }
            for _ in 0..m {
                let coeffs = (0..n).map(|j| (j, Q::from(small(g)))).collect();
                let cmp = *g.choose(&[Cmp::Le, Cmp::Eq, Cmp::Ge]).unwrap();
                lp.row(coeffs, cmp, Q::from((i64::arbitrary(g) % 7) as i32));
            }
            lp.objective = (0..n).map(|j| (j, Q::from(small(g)))).collect();
            SmallLp { lp }
        }
    }

    #[allow(clippy::needless_range_loop)]
    /// Solves the square system picked by `rows` exactly (Gauss–Jordan); None if singular.
    fn solve_square(a: &[Vec<Q>], b: &[Q]) -> Option<Vec<Q>> {
        let n = b.len();
        let mut m: Vec<Vec<Q>> = a
            .iter()
            .zip(b)
            .map(|(r, v)| {
                let mut r = r.clone();
                r.push(v.clone());
                r
            })
            .collect();
        for c in 0..n {
            let p = (c..n).find(|&r| !m[r][c].is_zero())?;
            m.swap(c, p);
            let inv = m[c][c].recip();
            for k in 0..=n {
                m[c][k] = &m[c][k] * &inv;
            }
            for r in 0..n {
                if r != c && !m[r][c].is_zero() {
                    let f = m[r][c].clone();
                    for k in 0..=n {
                        let d = &f * &m[c][k];
                        m[r][k] -= &d;
                    }
                }
            }
        }
        Some(m.into_iter().map(|r| r[n].clone()).collect())
    }

    /// Brute force: the optimum of a bounded LP is attained at a vertex, i.e. at the solution
    /// of some n tight constraints (rows and sign bounds).
    fn brute_force(lp: &Lp) -> Option<Q> {
        let n = lp.kinds.len();
        let mut hyper: Vec<(Vec<Q>, Q)> = Vec::new();
        for r in &lp.rows {
            let mut a = vec![Q::zero(); n];
            for (j, c) in &r.coeffs {
                a[*j] += c;
            }
            hyper.push((a, r.rhs.clone()));
        }
        for (j, k) in lp.kinds.iter().enumerate() {
            if *k == VarKind::NonNeg {
                let mut a = vec![Q::zero(); n];
                a[j] = Q::one();
                hyper.push((a, Q::zero()));
            }
        }
        let mut best: Option<Q> = None;
        let h = hyper.len();
        let mut idx: Vec<usize> = (0..n).collect();
        loop {
            let a: Vec<Vec<Q>> = idx.iter().map(|&i| hyper[i].0.clone()).collect();
            let b: Vec<Q> = idx.iter().map(|&i| hyper[i].1.clone()).collect();
            if let Some(x) = solve_square(&a, &b) {
                if satisfies(lp, &x) {
                    let mut v = Q::zero();
                    for (j, c) in &lp.objective {
                        v += &(c * &x[*j]);
                    }
                    if best.as_ref().is_none_or(|bv| v > *bv) {
                        best = Some(v);
                    }
                }
            }
            // next combination
            let mut i = n;
            loop {
                if i == 0 {
                    return best;
                }
                i -= 1;
                if idx[i] < h - n + i {
                    idx[i] += 1;
                    for k in i + 1..n {
                        idx[k] = idx[k - 1] + 1;
                    }
                    break;
                }
            }
        }
    }

    fn agrees(s: SmallLp) -> bool {
        let mut st = LpStats::default();
        let r = solve(&s.lp, &Limits::default(), &mut st);
        match (r, brute_force(&s.lp)) {
            (LpResult::Infeasible, None) => true,
            (LpResult::Optimal { x, value }, Some(best)) => satisfies(&s.lp, &x) && value == best,
            _ => false,
        }
    }

    #[test]
    fn simplex_agrees_with_vertex_enumeration() {
        QuickCheck::new()
            .tests(2000)
            .quickcheck(agrees as fn(SmallLp) -> bool);
    }

    #[test]
    fn unbounded_and_limits() {
        let mut lp = Lp::new();
        let x = lp.var(VarKind::Free);
        lp.row(vec![(x, Q::one())], Cmp::Ge, Q::int(1));
        lp.objective = vec![(x, Q::one())];
        let mut st = LpStats::default();
        assert_eq!(solve(&lp, &Limits::default(), &mut st), LpResult::Unbounded);
        lp.objective = vec![(x, -Q::one())];
        assert_eq!(
            solve(&lp, &Limits::default(), &mut st),
            LpResult::Optimal {
                x: vec![Q::one()],
                value: -Q::one()
            }
        );
        let none = Limits {
            max_pivots: 0,
            ..Limits::default()
        };
        assert_eq!(solve(&lp, &none, &mut st), LpResult::Unknown);
        assert_eq!(st.unknown, 1);
    }

    #[test]
    fn work_budget_spans_solves() {
        // maximise x subject to x <= 1: one pivot; the work of the first solve counts
        // against the second's budget, whatever the clock says
        let mut lp = Lp::new();
        let x = lp.var(VarKind::NonNeg);
        lp.row(vec![(x, Q::one())], Cmp::Le, Q::one());
        lp.objective = vec![(x, Q::one())];
        let mut st = LpStats::default();
        let unlimited = solve(&lp, &Limits::default(), &mut st);
        assert!(matches!(unlimited, LpResult::Optimal { .. }));
        let one = st.work;
        assert!(one > 0);
        let budget = Limits {
            max_work: one + 1,
            ..Limits::default()
        };
        let mut st2 = LpStats::default();
        assert_eq!(solve(&lp, &budget, &mut st2), unlimited);
        assert_eq!(st2.work, one, "the work count is deterministic");
        assert_eq!(solve(&lp, &budget, &mut st2), LpResult::Unknown);
        assert_eq!(st2.unknown, 1);
        assert_eq!(st2.deadline_hits, 0);
    }

    #[test]
    fn degenerate_redundant_equalities() {
        // x + y = 2, 2x + 2y = 4 (redundant), x - y = 0: x = y = 1.
        let mut lp = Lp::new();
        let x = lp.var(VarKind::Free);
        let y = lp.var(VarKind::Free);
        lp.row(vec![(x, Q::one()), (y, Q::one())], Cmp::Eq, Q::int(2));
        lp.row(vec![(x, Q::int(2)), (y, Q::int(2))], Cmp::Eq, Q::int(4));
        lp.row(vec![(x, Q::one()), (y, -Q::one())], Cmp::Eq, Q::zero());
        let mut st = LpStats::default();
        match solve(&lp, &Limits::default(), &mut st) {
            LpResult::Optimal { x, .. } => assert_eq!(x, vec![Q::one(), Q::one()]),
            r => panic!("{r:?}"),
        }
    }
}
