//! The simplex (`simplex.rs`) on `f64`, for *finding* ranking functions only.
//!
//! The level LPs of the ranking search are large and sparse (a Farkas system per rule of an
//! SCC), and most of the exact solver's time goes into rational arithmetic (a gcd per entry
//! per pivot). This solver runs the same simplex on `f64`, with tolerances and every
//! inequality slightly relaxed. Nothing it says is trusted: a
//! point it finds is rounded to small rationals and the functions it gives are certified
//! exactly rule by rule (`rank.rs` `certify`, then `verify.rs`), and "infeasible" or a limit
//! only sends the search on to the exact solver. Its work is counted like the exact solver's
//! (entries written and rows scanned), in its own budget ([`LpStats::float_work`]), so the
//! answers stay deterministic.

use crate::lp::{Cmp, Limits, Lp, LpStats};
use crate::q::Q;
use crate::simplex::{self, Budget, Outcome, Scalar};

/// The float solver's budget over a proof, as a multiple of the exact solver's (an entry costs
/// it a tenth to a hundredth of an exact one: the budget costs about a second at most).
pub(crate) const FLOAT_WORK_FACTOR: u64 = 10;

/// The float tableau's entry limit as a multiple of the exact one's: an `f64` takes 8 bytes, a
/// rational at least four times as many, so the same memory holds four times the entries.
const FLOAT_CELL_FACTOR: u64 = 4;

/// Below this magnitude an entry counts as zero.
const EPS: f64 = 1e-9;
/// A difference this small relative to its operands is rounding noise, an exact zero.
const NOISE: f64 = 1e-9;
/// Phase 1 ends infeasible when the artificials keep more than this.
const FEAS_TOL: f64 = 1e-7;
/// The relative size of the relaxation of each inequality (`Scalar::rhs`).
const PERTURB: f64 = 1e-7;

/// What the float solver found.
#[derive(Debug)]
pub(crate) enum FloatResult {
    /// An (approximately) optimal point.
    Optimal(Vec<f64>),
    /// No point (approximately): a hint, never a proof.
    NoPoint,
    /// Its pivot, work or time limit was reached.
    Unknown,
}

/// Why a float search step has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FloatGaveUp {
    /// The work, pivot or time limit.
    Limit,
    /// A value the search reads has no small rational near it.
    Rounding,
}

impl Scalar for f64 {
    const DENSE_UPDATE: bool = true;
    const RATIO_WORK: bool = true;
    fn zero() -> f64 {
        0.0
    }
    fn one() -> f64 {
        1.0
    }
    fn of(q: &Q) -> f64 {
        q.to_f64()
    }
    /// Every inequality relaxed by a tiny, row-dependent amount: the Farkas systems are
    /// homogeneous and massively degenerate, and a relaxed one is not (the point found is
    /// rounded and certified anyway).
    fn rhs(b: &Q, cmp: Cmp, row: usize) -> f64 {
        let b = b.to_f64();
        let spread = ((row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f64;
        let eps = PERTURB * (1.0 + spread / (1u64 << 24) as f64) * (1.0 + b.abs());
        match cmp {
            Cmp::Le => b + eps,
            Cmp::Ge => b - eps,
            Cmp::Eq => b,
        }
    }
    fn is_zero(&self) -> bool {
        *self == 0.0
    }
    fn is_positive(&self) -> bool {
        *self > EPS
    }
    fn is_pivot(&self) -> bool {
        self.abs() > EPS
    }
    fn is_negligible(&self) -> bool {
        *self <= EPS
    }
    fn is_residual(&self) -> bool {
        *self > FEAS_TOL
    }
    fn before(a: &f64, b: &f64) -> bool {
        *a < *b - EPS
    }
    fn tied(a: &f64, b: &f64) -> bool {
        (*a - *b).abs() <= EPS
    }
    fn recip(&self) -> f64 {
        1.0 / *self
    }
    fn times(&self, o: &f64) -> f64 {
        *self * *o
    }
    fn over(&self, o: &f64) -> f64 {
        *self / *o
    }
    fn negated(&self) -> f64 {
        -*self
    }
    fn plus(&self, o: &f64) -> f64 {
        *self + *o
    }
    fn minus_product(&self, f: &f64, p: &f64) -> f64 {
        let fp = *f * *p;
        let v = *self - fp;
        // rounding noise is no entry: the tableau stays sparse. Noise is relative to the
        // operands (a cancellation of two entries near 10⁶ leaves ~10⁻¹⁰): kept as entries, such
        // residues filled the tableau of a 400-row level LP (TPDB `juHashMapCreate*`) until a
        // pivot cost 60 000 updates and 400 M work units ran out where the exact solver needs 2 M
        if v.abs() <= NOISE * (self.abs() + fp.abs()) || v.abs() < EPS * 1e-3 {
            0.0
        } else {
            v
        }
    }
}

/// Solves `lp` in floating point within `limits` (its budget: [`FLOAT_WORK_FACTOR`] times the
/// exact one, over all float solves counted in `stats`; 4 times the exact pivots per solve).
pub(crate) fn solve(lp: &Lp, limits: &Limits, stats: &mut LpStats) -> FloatResult {
    let total = limits.max_work.saturating_mul(FLOAT_WORK_FACTOR);
    if stats.float_work >= total {
        return FloatResult::Unknown;
    }
    let budget = Budget {
        max_pivots: limits.max_pivots.saturating_mul(4),
        work: total - stats.float_work,
        max_cells: limits.max_cells.saturating_mul(FLOAT_CELL_FACTOR),
        deadline: limits.deadline,
    };
    let solved = simplex::solve::<f64>(lp, &budget);
    stats.float_solves += 1;
    stats.float_work = stats.float_work.saturating_add(solved.work);
    if solved.deadline_hit {
        stats.deadline_hits += 1;
    }
    match solved.outcome {
        Outcome::Optimal(x) => FloatResult::Optimal(x),
        Outcome::Infeasible | Outcome::Unbounded => FloatResult::NoPoint,
        Outcome::Limit => FloatResult::Unknown,
    }
}

/// `x` with the entries `read` rounded to small rationals ([`rational`], denominators up to
/// 1 000) and every other entry 0; `None` if one of them has no such approximation.
pub(crate) fn rounded(x: &[f64], read: impl IntoIterator<Item = usize>) -> Option<Vec<Q>> {
    let mut out = vec![Q::zero(); x.len()];
    for j in read {
        out[j] = rational(x[j], MAX_DENOMINATOR)?;
    }
    Some(out)
}

/// The largest denominator a rounded entry may have.
const MAX_DENOMINATOR: i64 = 1_000;

/// The simplest rational within `1e-6` (relative, at least absolute) of `x` whose denominator
/// is at most `max_den`, by the continued fraction of `x`; `None` if there is none (or `x` is
/// not finite or too large for the approximation to mean anything).
pub(crate) fn rational(x: f64, max_den: i64) -> Option<Q> {
    if !x.is_finite() || x.abs() > 1e12 {
        return None;
    }
    let tol = 1e-6 * x.abs().max(1.0);
    let (mut h0, mut h1): (i64, i64) = (0, 1);
    let (mut k0, mut k1): (i64, i64) = (1, 0);
    let mut r = x;
    for _ in 0..64 {
        let a = r.floor();
        if a.abs() > 1e13 {
            break;
        }
        let a = a as i64;
        let h = a.checked_mul(h1)?.checked_add(h0)?;
        let k = a.checked_mul(k1)?.checked_add(k0)?;
        if k > max_den {
            break;
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        if (x - h as f64 / k as f64).abs() <= tol {
            return Some(Q::frac(h, k));
        }
        let frac = r - r.floor();
        if frac < 1e-15 {
            break;
        }
        r = 1.0 / frac;
    }
    (k1 > 0 && (x - h1 as f64 / k1 as f64).abs() <= tol).then(|| Q::frac(h1, k1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lp::VarKind;

    #[test]
    fn rationals_are_recovered() {
        assert_eq!(rational(0.5, 1000), Some(Q::frac(1, 2)));
        assert_eq!(rational(1.0 / 3.0, 1000), Some(Q::frac(1, 3)));
        assert_eq!(rational(-2.0 / 7.0, 1000), Some(Q::frac(-2, 7)));
        assert_eq!(rational(3.0, 1000), Some(Q::int(3)));
        assert_eq!(rational(1e-13, 1000), Some(Q::zero()));
        assert_eq!(rational(f64::NAN, 1000), None);
        // no small denominator comes near π
        assert_eq!(rational(std::f64::consts::PI, 100), None);
    }

    #[test]
    fn cancellation_leaves_no_entry() {
        // 0.1 · 3 − 0.3 is 5.6e-17 in f64; scaled by 10⁶ the residue passes any absolute bound
        let a = 0.1f64 * 3.0;
        assert_eq!(0.3f64.minus_product(&1.0, &a), 0.0);
        assert_eq!((0.3f64 * 1e6).minus_product(&1e6, &a), 0.0);
        // a true difference stays: 10⁻² against operands near 10⁶
        assert_eq!(1.0f64.minus_product(&0.5, &1.0), 0.5);
        assert!(1e6f64.minus_product(&1.0, &(1e6 - 1e-2)) > 0.0);
    }

    #[test]
    fn agrees_with_the_exact_solver_on_a_small_lp() {
        use crate::lp::{solve as exact, LpResult};
        // maximise x + y: x + 2y ≤ 4, 3x + y ≤ 6, x, y ≥ 0 → (8/5, 6/5)
        let mut lp = Lp::new();
        let x = lp.var(VarKind::NonNeg);
        let y = lp.var(VarKind::NonNeg);
        lp.row(vec![(x, Q::one()), (y, Q::int(2))], Cmp::Le, Q::int(4));
        lp.row(vec![(x, Q::int(3)), (y, Q::one())], Cmp::Le, Q::int(6));
        lp.objective = vec![(x, Q::one()), (y, Q::one())];
        let limits = Limits::default();
        let mut stats = LpStats::default();
        let FloatResult::Optimal(p) = solve(&lp, &limits, &mut stats) else {
            panic!("no point");
        };
        let LpResult::Optimal { x: e, .. } = exact(&lp, &limits, &mut stats) else {
            panic!("no exact point");
        };
        let rounded: Vec<Q> = p.iter().map(|v| rational(*v, 1000).unwrap()).collect();
        assert_eq!(rounded, e);
        assert!(stats.float_work > 0 && stats.float_solves == 1);
    }

    #[test]
    fn an_infeasible_lp_has_no_point() {
        let mut lp = Lp::new();
        let x = lp.var(VarKind::NonNeg);
        lp.row(vec![(x, Q::one())], Cmp::Ge, Q::int(2));
        lp.row(vec![(x, Q::one())], Cmp::Le, Q::one());
        let mut stats = LpStats::default();
        assert!(matches!(
            solve(&lp, &Limits::default(), &mut stats),
            FloatResult::NoPoint
        ));
    }
}
