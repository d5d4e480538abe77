//! Affine equalities between the values a run starts with and the values it has at each
//! location (Karr 1976, in its relational form: the start's variables ride along as
//! constants). Inequalities of the guards are ignored and equalities kept, so the result
//! over-approximates the reachable pairs `(start values, current values)`: a location the
//! analysis leaves without a space is reached by no run. The lattice of affine subspaces of
//! `Qⁿ` has height `n + 1`, so the fixpoint needs no widening.
//!
//! `jtg-terminate` uses it for the summaries of abstracted calls: the relation between a
//! callee's entry values and its result (`nest(x)` returns 0, `minus(x, y)` returns `x − y`).

use crate::its::{Its, LocId, Rule};
use crate::linexpr::{LinExpr, Rel};
use crate::q::Q;
use std::collections::BTreeSet;

/// An affine subspace `point + span(basis)` of `Qⁿ`, in a canonical form (the basis in reduced
/// row echelon form, the point zero at the basis' pivots): two spaces are equal exactly when
/// their forms are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineSpace {
    point: Vec<Q>,
    basis: Vec<Vec<Q>>,
}

fn dot(a: &[Q], b: &[Q]) -> Q {
    a.iter()
        .zip(b)
        .fold(Q::zero(), |acc, (x, y)| &acc + &(x * y))
}

fn axpy(y: &mut [Q], k: &Q, x: &[Q]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi = &*yi + &(k * xi);
    }
}

/// Reduced row echelon form of `rows`, zero rows dropped.
fn rref(mut rows: Vec<Vec<Q>>, n: usize) -> Vec<Vec<Q>> {
    let mut out: Vec<Vec<Q>> = Vec::new();
    for col in 0..n {
        let Some(i) = rows.iter().position(|r| !r[col].is_zero()) else {
            continue;
        };
        let mut row = rows.swap_remove(i);
        let inv = row[col].recip();
        for x in row.iter_mut() {
            *x = &*x * &inv;
        }
        for r in rows.iter_mut().chain(out.iter_mut()) {
            if !r[col].is_zero() {
                let k = -&r[col];
                axpy(r, &k, &row);
            }
        }
        out.push(row);
    }
    out
}

fn pivot(row: &[Q]) -> usize {
    row.iter()
        .position(|x| !x.is_zero())
        .expect("a nonzero row")
}

impl AffineSpace {
    fn canonical(mut point: Vec<Q>, basis: Vec<Vec<Q>>) -> AffineSpace {
        let n = point.len();
        let basis = rref(basis, n);
        for row in &basis {
            let p = pivot(row);
            if !point[p].is_zero() {
                let k = -&point[p];
                axpy(&mut point, &k, row);
            }
        }
        AffineSpace { point, basis }
    }

    /// The single point `p`.
    pub fn point(p: Vec<Q>) -> AffineSpace {
        AffineSpace {
            point: p,
            basis: Vec::new(),
        }
    }

    /// The space's ambient dimension `n`.
    pub fn ambient(&self) -> usize {
        self.point.len()
    }

    /// The smallest affine space containing both (the join).
    pub fn join(&self, other: &AffineSpace) -> AffineSpace {
        let mut basis = self.basis.clone();
        basis.extend(other.basis.iter().cloned());
        let mut d = other.point.clone();
        axpy(&mut d, &-Q::one(), &self.point);
        basis.push(d);
        AffineSpace::canonical(self.point.clone(), basis)
    }

    /// The part of the space where `a·x = b` (`None`: empty).
    pub fn meet_eq(&self, a: &[Q], b: &Q) -> Option<AffineSpace> {
        let miss = b - &dot(a, &self.point);
        let Some(i) = self.basis.iter().position(|v| !dot(a, v).is_zero()) else {
            return miss.is_zero().then(|| self.clone());
        };
        let vi = &self.basis[i];
        let avi = dot(a, vi);
        let mut point = self.point.clone();
        axpy(&mut point, &(&miss / &avi), vi);
        let basis = self
            .basis
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, v)| {
                let mut w = v.clone();
                axpy(&mut w, &-(&dot(a, v) / &avi), vi);
                w
            })
            .collect();
        Some(AffineSpace::canonical(point, basis))
    }

    /// The image under `y_i = m_i·x + c_i`.
    pub fn image(&self, map: &[(Vec<Q>, Q)]) -> AffineSpace {
        let point = map.iter().map(|(m, c)| &dot(m, &self.point) + c).collect();
        let basis = self
            .basis
            .iter()
            .map(|v| map.iter().map(|(m, _)| dot(m, v)).collect())
            .collect();
        AffineSpace::canonical(point, basis)
    }

    /// The image of a space over `(s, x)` (`s` the first `k` coordinates) under
    /// `(s, x) ↦ (s, e₁(x), …, e_m(x))`, each `eᵢ` over `x` (its variable `j` is `x_j`).
    pub fn image_keeping_start(&self, k: usize, exprs: &[LinExpr]) -> AffineSpace {
        let nx = self.ambient() - k;
        let mut map: Vec<(Vec<Q>, Q)> = (0..k)
            .map(|i| {
                let mut row = vec![Q::zero(); k + nx];
                row[i] = Q::one();
                (row, Q::zero())
            })
            .collect();
        map.extend(exprs.iter().map(|e| dense(e, k, nx)));
        self.image(&map)
    }

    /// The space times `Qᵏ` (k new unconstrained coordinates at the end).
    fn extended(&self, k: usize) -> AffineSpace {
        let n = self.ambient();
        let mut point = self.point.clone();
        point.extend(std::iter::repeat_n(Q::zero(), k));
        let mut basis: Vec<Vec<Q>> = self
            .basis
            .iter()
            .map(|v| {
                let mut w = v.clone();
                w.extend(std::iter::repeat_n(Q::zero(), k));
                w
            })
            .collect();
        for j in 0..k {
            let mut e = vec![Q::zero(); n + k];
            e[n + j] = Q::one();
            basis.push(e);
        }
        AffineSpace::canonical(point, basis)
    }

    /// Whether `other ⊆ self`.
    pub fn contains(&self, other: &AffineSpace) -> bool {
        self.join(other) == *self
    }

    /// Equalities `a·x = b` whose solutions are exactly the space (a basis of the orthogonal
    /// complement of the direction space, each with its value at the point).
    pub fn equalities(&self) -> Vec<(Vec<Q>, Q)> {
        let n = self.ambient();
        let pivots: Vec<usize> = self.basis.iter().map(|r| pivot(r)).collect();
        let mut out = Vec::new();
        for f in (0..n).filter(|c| !pivots.contains(c)) {
            let mut a = vec![Q::zero(); n];
            a[f] = Q::one();
            for (row, &p) in self.basis.iter().zip(&pivots) {
                a[p] = -&row[f];
            }
            let b = dot(&a, &self.point);
            out.push((a, b));
        }
        out
    }
}

/// Per location, the affine relation between the start location's variables and the
/// location's own: a space over `(s₁ … s_k, x₁ … x_n)` (`k` the start's arity), `None` where
/// no run arrives. At the start itself `x = s`.
pub fn start_relations(its: &Its) -> Vec<Option<AffineSpace>> {
    let k = its.location(its.start()).arity();
    let mut spaces: Vec<Option<AffineSpace>> = vec![None; its.locations().len()];
    let mut diagonal = vec![vec![Q::zero(); 2 * k]; k];
    for (i, row) in diagonal.iter_mut().enumerate() {
        row[i] = Q::one();
        row[k + i] = Q::one();
    }
    spaces[its.start().index()] = Some(AffineSpace::canonical(vec![Q::zero(); 2 * k], diagonal));
    let outgoing = its.outgoing();
    let mut work: BTreeSet<LocId> = [its.start()].into();
    while let Some(l) = work.pop_first() {
        let Some(src) = spaces[l.index()].clone() else {
            continue;
        };
        for &r in outgoing.get(&l).map(Vec::as_slice).unwrap_or(&[]) {
            let rule = its.rule(r);
            let Some(img) = post(its, rule, &src, k) else {
                continue;
            };
            let t = rule.to.index();
            let joined = match &spaces[t] {
                None => img,
                Some(old) => old.join(&img),
            };
            if spaces[t].as_ref() != Some(&joined) {
                spaces[t] = Some(joined);
                work.insert(rule.to);
            }
        }
    }
    spaces
}

/// The dense row of `e` over `(s, vars)` (the start's `k` first), and `e`'s constant.
fn dense(e: &LinExpr, k: usize, nvars: usize) -> (Vec<Q>, Q) {
    let mut row = vec![Q::zero(); k + nvars];
    for (v, c) in &e.terms {
        row[k + v.index()] = c.clone();
    }
    (row, e.constant.clone())
}

/// The image of `src` (over `(s, x)`) under `rule`, `None` when its equalities (or a
/// constant guard) exclude every point.
fn post(its: &Its, rule: &Rule, src: &AffineSpace, k: usize) -> Option<AffineSpace> {
    let n = its.location(rule.from).arity();
    let nv = n + rule.temps.len();
    let mut s = src.extended(rule.temps.len());
    for c in &rule.guard {
        if c.expr.is_constant() && c.holds(&|_| None) == Some(false) {
            return None;
        }
        if c.rel == Rel::Eq {
            let (a, c0) = dense(&c.expr, k, nv);
            s = s.meet_eq(&a, &-&c0)?;
        }
    }
    Some(s.image_keeping_start(k, &rule.args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koat::parse_koat;

    fn q(n: i64) -> Q {
        Q::int(n)
    }

    #[test]
    fn a_join_of_two_points_is_their_line() {
        let a = AffineSpace::point(vec![q(0), q(0)]);
        let b = AffineSpace::point(vec![q(1), q(2)]);
        let l = a.join(&b);
        // y = 2x
        assert_eq!(l.equalities(), vec![(vec![q(-2), q(1)], q(0))]);
        assert!(l.contains(&AffineSpace::point(vec![q(3), q(6)])));
        assert!(!l.contains(&AffineSpace::point(vec![q(3), q(5)])));
    }

    #[test]
    fn meeting_an_equality_fixes_a_coordinate() {
        let a = AffineSpace::point(vec![q(0), q(0)]).join(&AffineSpace::point(vec![q(1), q(0)]));
        let m = a
            .meet_eq(&[q(1), q(0)], &q(5))
            .expect("the line meets x = 5");
        assert_eq!(m, AffineSpace::point(vec![q(5), q(0)]));
        assert!(a.meet_eq(&[q(0), q(1)], &q(1)).is_none());
    }

    /// `minus(x, y)`: both counters move together, so `x − y` keeps its start value and the
    /// end has `x = x₀ − y₀` (the loop ends at `y = 0`).
    #[test]
    fn the_difference_of_two_counters_survives_the_loop() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
             (RULES start(x, y) -> f(x, y)
                    f(x, y) -> f(x - 1, y - 1) :|: y > 0
                    f(x, y) -> f(x + 1, y + 1) :|: y < 0
                    f(x, y) -> end(x, y) :|: y = 0)",
        )
        .unwrap();
        let rel = start_relations(&its);
        let end = its.location_by_name("end").unwrap();
        let s = rel[end.index()].as_ref().expect("the end is reached");
        // over (x0, y0, x, y): y = 0 and x = x0 - y0
        let eqs = s.equalities();
        assert_eq!(eqs.len(), 2);
        assert!(s.contains(&AffineSpace::point(vec![q(7), q(3), q(4), q(0)])));
        assert!(!s.contains(&AffineSpace::point(vec![q(7), q(3), q(5), q(0)])));
    }

    #[test]
    fn a_constant_false_guard_reaches_nothing() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> f(x) :|: 1 <= 0)",
        )
        .unwrap();
        let rel = start_relations(&its);
        let f = its.location_by_name("f").unwrap();
        assert!(rel[f.index()].is_none());
    }

    /// Points of three small integer coordinates.
    fn points(raw: &[(i8, i8, i8)]) -> Vec<Vec<Q>> {
        raw.iter()
            .map(|&(a, b, c)| vec![q(a as i64 % 5), q(b as i64 % 5), q(c as i64 % 5)])
            .collect()
    }

    fn satisfies(eqs: &[(Vec<Q>, Q)], p: &[Q]) -> bool {
        eqs.iter().all(|(a, b)| dot(a, p) == *b)
    }

    quickcheck::quickcheck! {
        /// The hull of some points contains each of them, its equalities hold at each, and
        /// a point satisfying all its equalities lies in it (the two forms agree).
        fn the_hull_and_its_equalities_agree(raw: Vec<(i8, i8, i8)>, probe: (i8, i8, i8)) -> bool {
            let ps = points(&raw);
            let Some(first) = ps.first() else { return true };
            let hull = ps[1..]
                .iter()
                .fold(AffineSpace::point(first.clone()), |h, p| h.join(&AffineSpace::point(p.clone())));
            let eqs = hull.equalities();
            let probe = points(&[probe]).remove(0);
            ps.iter().all(|p| hull.contains(&AffineSpace::point(p.clone())) && satisfies(&eqs, p))
                && satisfies(&eqs, &probe) == hull.contains(&AffineSpace::point(probe))
        }

        /// Meeting `a·x = b` keeps exactly the hull's points on that hyperplane.
        fn meeting_an_equality_keeps_the_points_on_it(raw: Vec<(i8, i8, i8)>, a: (i8, i8, i8), b: i8, probe: (i8, i8, i8)) -> bool {
            let ps = points(&raw);
            let Some(first) = ps.first() else { return true };
            let hull = ps[1..]
                .iter()
                .fold(AffineSpace::point(first.clone()), |h, p| h.join(&AffineSpace::point(p.clone())));
            let a = points(&[a]).remove(0);
            let b = q(b as i64 % 5);
            let probe = points(&[probe]).remove(0);
            let inside = hull.contains(&AffineSpace::point(probe.clone())) && dot(&a, &probe) == b;
            match hull.meet_eq(&a, &b) {
                None => !inside,
                Some(m) => m.contains(&AffineSpace::point(probe)) == inside,
            }
        }
    }
}
