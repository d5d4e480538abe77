//! A floating-point twin of the exact simplex (`lp.rs`), for *finding* ranking functions only.
//!
//! The level LPs of the ranking search are large and sparse (a Farkas system per rule of an
//! SCC), and most of the exact solver's time goes into rational arithmetic (a gcd per entry
//! per pivot). This solver runs the same algorithm (dense tableau, two phases, Dantzig's rule
//! with Bland's after a run of degenerate pivots) on `f64`. Nothing it says is trusted: a
//! point it finds is rounded to small rationals and the functions it gives are certified
//! exactly rule by rule (`rank.rs` `certify`, then `verify.rs`), and "infeasible" or a limit
//! only sends the search on to the exact solver. Its work is counted like the exact solver's
//! (entries written and rows scanned), in its own budget ([`LpStats::float_work`]), so the
//! answers stay deterministic.

use crate::lp::{Cmp, Limits, Lp, LpStats, VarKind};
use crate::q::Q;
use std::time::Instant;

/// The float solver's budget over a proof, as a multiple of the exact solver's (an entry costs
/// it a tenth to a hundredth of an exact one: the budget costs about a second at most).
pub(crate) const FLOAT_WORK_FACTOR: u64 = 10;

/// Below this magnitude an entry counts as zero.
const EPS: f64 = 1e-9;
/// Phase 1 ends infeasible when the artificials keep more than this.
const FEAS_TOL: f64 = 1e-7;
/// The relative size of the relaxation of each inequality (see `solve_inner`).
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

struct Tableau {
    rows: Vec<Vec<f64>>,
    basis: Vec<usize>,
    obj: Vec<f64>,
    ncols: usize,
    barred: Vec<bool>,
    work: u64,
    budget: u64,
    deadline_hit: bool,
}

enum Phase {
    Optimal,
    Unbounded,
    Limit,
}

impl Tableau {
    fn pivot(&mut self, r: usize, e: usize) {
        let p = 1.0 / self.rows[r][e];
        let row_r: Vec<f64> = self.rows[r].iter().map(|v| v * p).collect();
        let nz: Vec<usize> = (0..=self.ncols).filter(|&k| row_r[k] != 0.0).collect();
        self.work += self.rows.len() as u64;
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[e] == 0.0 {
                continue;
            }
            self.work += nz.len() as u64;
            let f = row[e];
            // keep the tableau sparse: rounding noise is no entry
            let clean = |v: f64| if v.abs() < EPS * 1e-3 { 0.0 } else { v };
            if 4 * nz.len() > row.len() {
                // a dense pivot row: one pass the compiler vectorises
                for (v, p) in row.iter_mut().zip(&row_r) {
                    *v = clean(*v - f * p);
                }
            } else {
                for &k in &nz {
                    row[k] = clean(row[k] - f * row_r[k]);
                }
            }
            row[e] = 0.0;
        }
        let f = self.obj[e];
        if f != 0.0 {
            for &k in &nz {
                if k < self.ncols {
                    let v = self.obj[k] - f * row_r[k];
                    self.obj[k] = if v.abs() < EPS * 1e-3 { 0.0 } else { v };
                }
            }
            self.obj[e] = 0.0;
        }
        self.rows[r] = row_r;
        self.basis[r] = e;
    }

    fn entering(&self, bland: bool) -> Option<usize> {
        let mut candidates = (0..self.ncols).filter(|&j| !self.barred[j] && self.obj[j] > EPS);
        if bland {
            return candidates.next();
        }
        let mut best = candidates.next()?;
        for j in candidates {
            if self.obj[j] > self.obj[best] {
                best = j;
            }
        }
        Some(best)
    }

    fn run(&mut self, limits: &Limits, used: &mut usize) -> Phase {
        const DEGENERATE_RUN: usize = 1000;
        let mut degenerate = 0usize;
        loop {
            let bland = degenerate >= DEGENERATE_RUN;
            let Some(e) = self.entering(bland) else {
                return Phase::Optimal;
            };
            let mut best: Option<(usize, f64)> = None;
            self.work += self.rows.len() as u64;
            for (i, row) in self.rows.iter().enumerate() {
                if row[e] <= EPS {
                    continue;
                }
                let ratio = row[self.ncols] / row[e];
                let better = match best {
                    None => true,
                    Some((bi, br)) => {
                        ratio < br - EPS || (ratio <= br + EPS && self.basis[i] < self.basis[bi])
                    }
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let Some((r, ratio)) = best else {
                return Phase::Unbounded;
            };
            if ratio <= EPS {
                degenerate += 1;
            } else {
                degenerate = 0;
            }
            if *used >= limits.max_pivots.saturating_mul(4) || self.work >= self.budget {
                return Phase::Limit;
            }
            if let Some(d) = limits.deadline {
                if Instant::now() >= d {
                    self.deadline_hit = true;
                    return Phase::Limit;
                }
            }
            *used += 1;
            self.pivot(r, e);
        }
    }
}

/// Solves `lp` in floating point within `limits` (its budget: [`FLOAT_WORK_FACTOR`] times the
/// exact one, over all float solves counted in `stats`).
pub(crate) fn solve(lp: &Lp, limits: &Limits, stats: &mut LpStats) -> FloatResult {
    let budget = limits.max_work.saturating_mul(FLOAT_WORK_FACTOR);
    if stats.float_work >= budget {
        return FloatResult::Unknown;
    }
    let mut used = 0usize;
    let (r, work, deadline_hit) = solve_inner(lp, limits, &mut used, budget - stats.float_work);
    stats.float_solves += 1;
    stats.float_work = stats.float_work.saturating_add(work);
    if deadline_hit {
        stats.deadline_hits += 1;
    }
    r
}

fn solve_inner(
    lp: &Lp,
    limits: &Limits,
    used: &mut usize,
    budget: u64,
) -> (FloatResult, u64, bool) {
    let mut pos = Vec::with_capacity(lp.kinds.len());
    let mut neg = Vec::with_capacity(lp.kinds.len());
    let mut ncols = 0;
    for k in &lp.kinds {
        pos.push(ncols);
        ncols += 1;
        if *k == VarKind::Free {
            neg.push(Some(ncols));
            ncols += 1;
        } else {
            neg.push(None);
        }
    }
    let m = lp.rows.len();
    if (m as u64).saturating_mul((ncols + 2 * m + 1) as u64) > limits.max_cells {
        return (FloatResult::Unknown, m as u64, false);
    }
    let f = |q: &Q| q.to_f64();
    let mut dense: Vec<(Vec<f64>, Cmp, f64)> = Vec::with_capacity(m);
    for row in &lp.rows {
        let mut a = vec![0.0; ncols];
        for (j, c) in &row.coeffs {
            let c = f(c);
            a[pos[*j]] += c;
            if let Some(n) = neg[*j] {
                a[n] -= c;
            }
        }
        let (mut cmp, mut b) = (row.cmp, f(&row.rhs));
        // relax every inequality by a tiny, row-dependent amount: the Farkas systems are
        // homogeneous and massively degenerate, and a perturbed one is not (the point found
        // is rounded and certified anyway)
        let i = dense.len() as u64;
        let eps = PERTURB
            * (1.0 + ((i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as f64) / (1u64 << 24) as f64);
        match cmp {
            Cmp::Le => b += eps * (1.0 + b.abs()),
            Cmp::Ge => b -= eps * (1.0 + b.abs()),
            Cmp::Eq => {}
        }
        if b < 0.0 {
            for v in a.iter_mut() {
                *v = -*v;
            }
            b = -b;
            cmp = match cmp {
                Cmp::Le => Cmp::Ge,
                Cmp::Ge => Cmp::Le,
                Cmp::Eq => Cmp::Eq,
            };
        }
        dense.push((a, cmp, b));
    }
    let n_slack = dense.iter().filter(|(_, c, _)| *c != Cmp::Eq).count();
    let n_art = dense.iter().filter(|(_, c, _)| *c != Cmp::Le).count();
    let first_slack = ncols;
    let first_art = ncols + n_slack;
    let total = ncols + n_slack + n_art;
    let mut t = Tableau {
        rows: Vec::with_capacity(m),
        basis: Vec::with_capacity(m),
        obj: vec![0.0; total],
        ncols: total,
        barred: vec![false; total],
        work: (m as u64).saturating_mul(total as u64 + 1),
        budget,
        deadline_hit: false,
    };
    let (mut s, mut a) = (first_slack, first_art);
    for (coeffs, cmp, b) in dense {
        let mut row = coeffs;
        row.resize(total + 1, 0.0);
        row[total] = b;
        match cmp {
            Cmp::Le => {
                row[s] = 1.0;
                t.basis.push(s);
                s += 1;
            }
            Cmp::Ge => {
                row[s] = -1.0;
                s += 1;
                row[a] = 1.0;
                t.basis.push(a);
                a += 1;
            }
            Cmp::Eq => {
                row[a] = 1.0;
                t.basis.push(a);
                a += 1;
            }
        }
        t.rows.push(row);
    }
    if n_art > 0 {
        for (i, row) in t.rows.iter().enumerate() {
            if t.basis[i] >= first_art {
                for (o, v) in t.obj.iter_mut().zip(&row[..first_art]) {
                    *o += v;
                }
            }
        }
        match t.run(limits, used) {
            Phase::Limit => return (FloatResult::Unknown, t.work, t.deadline_hit),
            // phase 1 is bounded by 0: only rounding gets here
            Phase::Unbounded => return (FloatResult::NoPoint, t.work, t.deadline_hit),
            Phase::Optimal => {}
        }
        let infeasible = t
            .rows
            .iter()
            .zip(&t.basis)
            .any(|(row, &b)| b >= first_art && row[total] > FEAS_TOL);
        if infeasible {
            return (FloatResult::NoPoint, t.work, t.deadline_hit);
        }
        let mut i = 0;
        while i < t.rows.len() {
            if t.basis[i] >= first_art {
                match (0..first_art).find(|&j| t.rows[i][j].abs() > EPS) {
                    Some(j) => {
                        t.pivot(i, j);
                        *used += 1;
                        i += 1;
                    }
                    None => {
                        t.rows.swap_remove(i);
                        t.basis.swap_remove(i);
                    }
                }
            } else {
                i += 1;
            }
        }
        for j in first_art..total {
            t.barred[j] = true;
        }
    }
    let mut c = vec![0.0; total];
    for (j, v) in &lp.objective {
        c[pos[*j]] += f(v);
        if let Some(n) = neg[*j] {
            c[n] -= f(v);
        }
    }
    t.obj = c.clone();
    for (i, row) in t.rows.iter().enumerate() {
        let cb = c[t.basis[i]];
        if cb == 0.0 {
            continue;
        }
        for (o, v) in t.obj.iter_mut().zip(&row[..total]) {
            *o -= cb * v;
        }
    }
    let phase = t.run(limits, used);
    let out = match phase {
        Phase::Limit => FloatResult::Unknown,
        Phase::Unbounded => FloatResult::NoPoint,
        Phase::Optimal => {
            let mut col = vec![0.0; total];
            for (i, row) in t.rows.iter().enumerate() {
                col[t.basis[i]] = row[total];
            }
            FloatResult::Optimal(
                (0..lp.kinds.len())
                    .map(|j| match neg[j] {
                        Some(n) => col[pos[j]] - col[n],
                        None => col[pos[j]],
                    })
                    .collect(),
            )
        }
    };
    (out, t.work, t.deadline_hit)
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
