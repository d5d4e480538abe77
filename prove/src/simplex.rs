//! The linear programs of the prover ([`Lp`], re-exported by `lp.rs`) and the one simplex that
//! solves them, generic over its numbers: exact rationals ([`Q`], `lp.rs`, whose answers are
//! facts) and `f64` (`lp_float.rs`, whose answers are only proposals).
//!
//! Dense tableau, two phases (artificial variables first), Dantzig's rule (largest reduced cost
//! enters) and, after a long run of degenerate pivots, Bland's rule (smallest index enters,
//! ties in the ratio test leave by smallest basic index) until the objective moves, so it
//! cannot cycle. Pivots and tableau work are bounded (deterministic limits), a wall-clock
//! deadline is kept only as a safety net.

use crate::q::Q;
use std::time::Instant;

/// Sign restriction of an LP variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Free,
    NonNeg,
}

/// Relation of a row `a·x ⋈ b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Le,
    Eq,
    Ge,
}

/// One row `Σ coeffs ⋈ rhs` (sparse; repeated indices add up).
#[derive(Clone, Debug)]
pub struct LpRow {
    pub coeffs: Vec<(usize, Q)>,
    pub cmp: Cmp,
    pub rhs: Q,
}

/// `maximize objective·x` subject to the rows and the variables' sign restrictions. An empty
/// objective asks for feasibility only.
#[derive(Clone, Debug, Default)]
pub struct Lp {
    pub kinds: Vec<VarKind>,
    pub rows: Vec<LpRow>,
    pub objective: Vec<(usize, Q)>,
}

impl Lp {
    pub fn new() -> Lp {
        Lp::default()
    }

    /// Adds a variable and returns its index.
    pub fn var(&mut self, kind: VarKind) -> usize {
        self.kinds.push(kind);
        self.kinds.len() - 1
    }

    pub fn row(&mut self, coeffs: Vec<(usize, Q)>, cmp: Cmp, rhs: Q) {
        self.rows.push(LpRow { coeffs, cmp, rhs });
    }
}

/// What the simplex needs of its numbers.
pub(crate) trait Scalar: Clone + PartialOrd {
    /// Whether a full-row update is cheaper than one over the pivot row's nonzero entries
    /// (machine floats vectorise; a rational's zero is cheap to skip).
    const DENSE_UPDATE: bool;
    /// Whether the rows a ratio test scans count as work (the float budget's measure; the
    /// exact budget has always counted the pivots' entries only).
    const RATIO_WORK: bool;
    fn zero() -> Self;
    fn one() -> Self;
    fn of(q: &Q) -> Self;
    /// `b` of a row `a·x ⋈ b` as the tableau keeps it (`f64`: relaxed, see `lp_float.rs`).
    fn rhs(b: &Q, cmp: Cmp, row: usize) -> Self;
    /// No entry: the tableau skips it.
    fn is_zero(&self) -> bool;
    /// Positive enough to enter or to bound a ratio.
    fn is_positive(&self) -> bool;
    /// Nonzero enough to pivot on.
    fn is_pivot(&self) -> bool;
    /// A degenerate step's ratio.
    fn is_negligible(&self) -> bool;
    /// An artificial's value at the end of phase 1 that makes the LP infeasible.
    fn is_residual(&self) -> bool;
    /// `a` before `b` in the ratio test, and `a` tied with `b`.
    fn before(a: &Self, b: &Self) -> bool;
    fn tied(a: &Self, b: &Self) -> bool;
    fn recip(&self) -> Self;
    fn times(&self, o: &Self) -> Self;
    fn over(&self, o: &Self) -> Self;
    fn negated(&self) -> Self;
    fn plus(&self, o: &Self) -> Self;
    /// `self − f·p` (`f64`: rounding noise cleared, to keep the tableau sparse).
    fn minus_product(&self, f: &Self, p: &Self) -> Self;
}

impl Scalar for Q {
    const DENSE_UPDATE: bool = false;
    const RATIO_WORK: bool = false;
    fn zero() -> Q {
        Q::zero()
    }
    fn one() -> Q {
        Q::one()
    }
    fn of(q: &Q) -> Q {
        q.clone()
    }
    fn rhs(b: &Q, _: Cmp, _: usize) -> Q {
        b.clone()
    }
    fn is_zero(&self) -> bool {
        Q::is_zero(self)
    }
    fn is_positive(&self) -> bool {
        Q::is_positive(self)
    }
    fn is_pivot(&self) -> bool {
        !Q::is_zero(self)
    }
    fn is_negligible(&self) -> bool {
        Q::is_zero(self)
    }
    fn is_residual(&self) -> bool {
        !Q::is_zero(self)
    }
    fn before(a: &Q, b: &Q) -> bool {
        a < b
    }
    fn tied(a: &Q, b: &Q) -> bool {
        a == b
    }
    fn recip(&self) -> Q {
        Q::recip(self)
    }
    fn times(&self, o: &Q) -> Q {
        self * o
    }
    fn over(&self, o: &Q) -> Q {
        self / o
    }
    fn negated(&self) -> Q {
        -self
    }
    fn plus(&self, o: &Q) -> Q {
        self + o
    }
    fn minus_product(&self, f: &Q, p: &Q) -> Q {
        self - &(f * p)
    }
}

/// Limits of one solve.
pub(crate) struct Budget {
    pub max_pivots: usize,
    /// Tableau work this solve may do.
    pub work: u64,
    /// Entries of the tableau: a larger one is not built.
    pub max_cells: u64,
    pub deadline: Option<Instant>,
}

/// How a solve ended.
pub(crate) enum Outcome<T> {
    /// The optimal point (for the LP's variables).
    Optimal(Vec<T>),
    Infeasible,
    Unbounded,
    /// A pivot, work, size or time limit.
    Limit,
}

/// A solve's outcome, its pivots, its work and whether the deadline stopped it.
pub(crate) struct Solved<T> {
    pub outcome: Outcome<T>,
    pub pivots: usize,
    pub work: u64,
    pub deadline_hit: bool,
}

struct Tableau<T> {
    /// `rows[i]` has `ncols + 1` entries, the last the right-hand side.
    rows: Vec<Vec<T>>,
    basis: Vec<usize>,
    /// Reduced costs `c_j - z_j` (maximisation), `ncols` entries.
    obj: Vec<T>,
    ncols: usize,
    /// Columns that may not enter (artificials in phase 2).
    barred: Vec<bool>,
    pivots: usize,
    work: u64,
    deadline_hit: bool,
}

enum Phase {
    Optimal,
    Unbounded,
    Limit,
}

impl<T: Scalar> Tableau<T> {
    fn pivot(&mut self, r: usize, e: usize) {
        let p = self.rows[r][e].recip();
        let mut row_r: Vec<T> = self.rows[r].iter().map(|v| v.times(&p)).collect();
        row_r[e] = T::one();
        let nz: Vec<usize> = (0..=self.ncols).filter(|&k| !row_r[k].is_zero()).collect();
        let dense = T::DENSE_UPDATE && 4 * nz.len() > row_r.len();
        self.work += self.rows.len() as u64;
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[e].is_zero() {
                continue;
            }
            self.work += nz.len() as u64;
            let f = row[e].clone();
            if dense {
                for (v, p) in row.iter_mut().zip(&row_r) {
                    *v = v.minus_product(&f, p);
                }
            } else {
                for &k in &nz {
                    row[k] = row[k].minus_product(&f, &row_r[k]);
                }
            }
        }
        if !self.obj[e].is_zero() {
            let f = self.obj[e].clone();
            for &k in &nz {
                if k < self.ncols {
                    self.obj[k] = self.obj[k].minus_product(&f, &row_r[k]);
                }
            }
        }
        self.rows[r] = row_r;
        self.basis[r] = e;
        self.pivots += 1;
    }

    /// The entering column: Dantzig's (largest reduced cost, smallest index among equals),
    /// or Bland's (smallest index) while `bland` is set, which `run` does after a run of
    /// degenerate pivots.
    fn entering(&self, bland: bool) -> Option<usize> {
        let mut candidates =
            (0..self.ncols).filter(|&j| !self.barred[j] && self.obj[j].is_positive());
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

    fn run(&mut self, budget: &Budget) -> Phase {
        // Dantzig's rule takes far fewer pivots than Bland's on the larger, highly degenerate
        // LPs of the proofs, but may cycle, only through degenerate pivots (the objective
        // stays): after DEGENERATE_RUN of them in a row Bland's rule, which cannot cycle,
        // takes over until a pivot improves the objective. A basis is never revisited after
        // an improvement, so the simplex terminates.
        const DEGENERATE_RUN: usize = 1000;
        let mut degenerate = 0usize;
        loop {
            let bland = degenerate >= DEGENERATE_RUN;
            let Some(e) = self.entering(bland) else {
                return Phase::Optimal;
            };
            let mut best: Option<(usize, T)> = None;
            if T::RATIO_WORK {
                self.work += self.rows.len() as u64;
            }
            for (i, row) in self.rows.iter().enumerate() {
                if !row[e].is_positive() {
                    continue;
                }
                let ratio = row[self.ncols].over(&row[e]);
                let better = match &best {
                    None => true,
                    Some((bi, br)) => {
                        T::before(&ratio, br)
                            || (T::tied(&ratio, br) && self.basis[i] < self.basis[*bi])
                    }
                };
                if better {
                    best = Some((i, ratio));
                }
            }
            let Some((r, ratio)) = best else {
                return Phase::Unbounded;
            };
            if ratio.is_negligible() {
                degenerate += 1;
            } else {
                degenerate = 0;
            }
            if self.pivots >= budget.max_pivots || self.work >= budget.work {
                return Phase::Limit;
            }
            // One pivot can be slow once numbers grow, so the safety net is read before each.
            if let Some(d) = budget.deadline {
                if Instant::now() >= d {
                    self.deadline_hit = true;
                    return Phase::Limit;
                }
            }
            self.pivot(r, e);
        }
    }

    fn solved(&self, outcome: Outcome<T>) -> Solved<T> {
        Solved {
            outcome,
            pivots: self.pivots,
            work: self.work,
            deadline_hit: self.deadline_hit,
        }
    }
}

/// Adds the terms `Σ c·x_j` to the dense row `a` over the tableau's columns: `x_j` is column
/// `pos[j]`, minus column `neg[j]` where the variable is free (split `x⁺ − x⁻`).
fn scatter<T: Scalar>(a: &mut [T], terms: &[(usize, Q)], pos: &[usize], neg: &[Option<usize>]) {
    for (j, c) in terms {
        let c = T::of(c);
        a[pos[*j]] = a[pos[*j]].plus(&c);
        if let Some(n) = neg[*j] {
            a[n] = a[n].plus(&c.negated());
        }
    }
}

/// Solves `lp` (maximise its objective) in the numbers `T` within `budget`.
pub(crate) fn solve<T: Scalar>(lp: &Lp, budget: &Budget) -> Solved<T> {
    // Columns: each variable (free ones split into x⁺ - x⁻), then slacks, then artificials.
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
    // the tableau's size (variables, a slack or an artificial per row, or both) is known
    // before anything is allocated
    if (m as u64).saturating_mul((ncols + 2 * m + 1) as u64) > budget.max_cells {
        return Solved {
            outcome: Outcome::Limit,
            pivots: 0,
            work: m as u64,
            deadline_hit: false,
        };
    }
    // Normalise every row to a nonnegative right-hand side.
    let mut dense: Vec<(Vec<T>, Cmp, T)> = Vec::with_capacity(m);
    for (i, row) in lp.rows.iter().enumerate() {
        let mut a = vec![T::zero(); ncols];
        scatter(&mut a, &row.coeffs, &pos, &neg);
        let (mut cmp, mut b) = (row.cmp, T::rhs(&row.rhs, row.cmp, i));
        if b < T::zero() {
            for v in a.iter_mut() {
                *v = v.negated();
            }
            b = b.negated();
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
        obj: vec![T::zero(); total],
        ncols: total,
        barred: vec![false; total],
        pivots: 0,
        work: (m as u64).saturating_mul(total as u64 + 1),
        deadline_hit: false,
    };
    let (mut s, mut a) = (first_slack, first_art);
    for (coeffs, cmp, b) in dense {
        let mut row = coeffs;
        row.resize(total + 1, T::zero());
        row[total] = b;
        match cmp {
            Cmp::Le => {
                row[s] = T::one();
                t.basis.push(s);
                s += 1;
            }
            Cmp::Ge => {
                row[s] = T::one().negated();
                s += 1;
                row[a] = T::one();
                t.basis.push(a);
                a += 1;
            }
            Cmp::Eq => {
                row[a] = T::one();
                t.basis.push(a);
                a += 1;
            }
        }
        t.rows.push(row);
    }
    // Phase 1: maximise -Σ artificials; reduced costs are the column sums over artificial rows.
    if n_art > 0 {
        for (i, row) in t.rows.iter().enumerate() {
            if t.basis[i] >= first_art {
                for (o, v) in t.obj.iter_mut().zip(&row[..first_art]) {
                    if !v.is_zero() {
                        *o = o.plus(v);
                    }
                }
            }
        }
        match t.run(budget) {
            Phase::Limit => return t.solved(Outcome::Limit),
            // bounded by 0: only rounding gets here
            Phase::Unbounded => return t.solved(Outcome::Infeasible),
            Phase::Optimal => {}
        }
        let infeasible = t
            .rows
            .iter()
            .zip(&t.basis)
            .any(|(row, &b)| b >= first_art && row[total].is_residual());
        if infeasible {
            return t.solved(Outcome::Infeasible);
        }
        // Drive artificials (at value 0) out of the basis; drop redundant rows.
        let mut i = 0;
        while i < t.rows.len() {
            if t.basis[i] >= first_art {
                match (0..first_art).find(|&j| t.rows[i][j].is_pivot()) {
                    Some(j) => {
                        t.pivot(i, j);
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
    // Phase 2: reduced costs of the real objective.
    let mut c = vec![T::zero(); total];
    scatter(&mut c, &lp.objective, &pos, &neg);
    t.obj = c.clone();
    for (i, row) in t.rows.iter().enumerate() {
        let cb = &c[t.basis[i]];
        if cb.is_zero() {
            continue;
        }
        for (o, v) in t.obj.iter_mut().zip(&row[..total]) {
            if !v.is_zero() {
                *o = o.minus_product(cb, v);
            }
        }
    }
    match t.run(budget) {
        Phase::Limit => t.solved(Outcome::Limit),
        Phase::Unbounded => t.solved(Outcome::Unbounded),
        Phase::Optimal => {
            let mut col = vec![T::zero(); total];
            for (i, row) in t.rows.iter().enumerate() {
                col[t.basis[i]] = row[total].clone();
            }
            let x = (0..lp.kinds.len())
                .map(|j| match neg[j] {
                    Some(n) => col[pos[j]].plus(&col[n].negated()),
                    None => col[pos[j]].clone(),
                })
                .collect();
            t.solved(Outcome::Optimal(x))
        }
    }
}
