//! The rules a closed recurrent set is searched over (`recur_closed`): each instance out of
//! the SCC's locations with its temporaries fixed by guard equalities, the variables' ranges,
//! and the shift classes whose gcd gives the congruences.

use crate::farkas::{self, instance_guard, instances, RuleInstance};
use crate::its::{Its, LocId};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::Zero;
use std::collections::BTreeMap;

/// Most rule instances of one SCC.
const MAX_INSTANCES: usize = 64;
/// Most `≠` of a rule whose instances are enumerated (as the verifier does).
const MAX_NE: usize = 6;

/// One instance of a rule out of the SCC's locations, prepared.
pub(super) struct Prepared {
    pub(super) inst: RuleInstance,
    pub(super) from: usize,
    /// Index of the target in the SCC's locations, `None` for an exit.
    pub(super) to: Option<usize>,
    pub(super) n: usize,
    pub(super) m: usize,
    /// The guard, `≠` resolved, over the rule's variables.
    pub(super) guard: Vec<Constraint>,
    /// Per temporary, its value when an equality of the guard with coefficient ±1 on it fixes
    /// it as a function of the location's variables.
    pub(super) defs: Vec<Option<LinExpr>>,
    pub(super) feasible: bool,
}

impl Prepared {
    pub(super) fn sub(&self, e: &LinExpr) -> Option<LinExpr> {
        let mut out = LinExpr::constant(e.constant.clone());
        for (v, c) in &e.terms {
            let d = if v.index() < self.m {
                LinExpr::var(*v)
            } else {
                self.defs[v.index() - self.m].clone()?
            };
            out.add_scaled(&d, c);
        }
        Some(out)
    }
}

pub(super) fn prepare(
    its: &Its,
    locs: &[LocId],
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<Prepared>> {
    let mut out = Vec::new();
    for (from, l) in locs.iter().enumerate() {
        for r in its.rule_ids().filter(|r| its.rule(*r).from == *l) {
            let rule = its.rule(r);
            if rule.ne_count() > MAX_NE {
                return None;
            }
            for inst in instances(its, r, MAX_NE) {
                let guard: Vec<Constraint> = instance_guard(its, &inst)
                    .into_iter()
                    .collect::<Option<_>>()?;
                let m = its.location(*l).arity();
                let n = rule.var_count(its);
                let defs = (m..n)
                    .map(|t| {
                        let t = Var(t as u32);
                        guard.iter().find_map(|g| {
                            let a = g.expr.coeff(t);
                            let only = g.expr.vars().all(|v| v == t || v.index() < m);
                            (g.rel == Rel::Eq && only && (a == Q::one() || a == -Q::one())).then(
                                || {
                                    // a·t + rest = 0  ⇒  t = −rest / a
                                    let mut rest = g.expr.clone();
                                    rest.terms.remove(&t);
                                    rest.scaled(&-a.recip())
                                },
                            )
                        })
                    })
                    .collect();
                let rows = farkas::rows_of(&guard.iter().cloned().map(Some).collect::<Vec<_>>(), n);
                let feasible = farkas::satisfiable(&rows, limits, stats) != Some(false);
                out.push(Prepared {
                    to: locs.iter().position(|x| *x == rule.to),
                    inst,
                    from,
                    n,
                    m,
                    guard,
                    defs,
                    feasible,
                });
                if out.len() > MAX_INSTANCES {
                    return None;
                }
            }
        }
    }
    Some(out)
}

/// Per location and variable, the bounds `[lo, hi]` every feasible rule out of it has.
pub(super) fn ranges(
    locs: &[LocId],
    its: &Its,
    prep: &[Prepared],
) -> Vec<Vec<(Option<Q>, Option<Q>)>> {
    let mut out: Vec<Vec<(Option<Q>, Option<Q>)>> = Vec::new();
    for (li, l) in locs.iter().enumerate() {
        let m = its.location(*l).arity();
        let mut per = vec![(None, None); m];
        for (j, cur) in per.iter_mut().enumerate() {
            let mut first = true;
            for p in prep.iter().filter(|p| p.from == li && p.feasible) {
                let (mut lo, mut hi): (Option<Q>, Option<Q>) = (None, None);
                for g in &p.guard {
                    let x = Var(j as u32);
                    if g.expr.terms.len() != 1 || g.expr.coeff(x).is_zero() {
                        continue;
                    }
                    let a = g.expr.coeff(x);
                    // a·x + c ⋈ 0
                    let bound = -(&g.expr.constant / &a);
                    match g.rel {
                        Rel::Le | Rel::Lt => {
                            let strict = g.rel == Rel::Lt;
                            if a.is_positive() {
                                let b = Q::from(if strict {
                                    bound.ceil() - 1
                                } else {
                                    bound.floor()
                                });
                                hi = Some(hi.map_or(b.clone(), |h| h.min(b)));
                            } else {
                                let b = Q::from(if strict {
                                    bound.floor() + 1
                                } else {
                                    bound.ceil()
                                });
                                lo = Some(lo.map_or(b.clone(), |h| h.max(b)));
                            }
                        }
                        _ => {}
                    }
                }
                if first {
                    *cur = (lo, hi);
                    first = false;
                } else {
                    cur.0 = match (cur.0.take(), lo) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        _ => None,
                    };
                    cur.1 = match (cur.1.take(), hi) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
            }
        }
        out.push(per);
    }
    out
}

/// A variable of a location: `(location index, variable index)`.
pub(super) type Node = (usize, usize);

/// Shift classes (module docs): per node `(location, variable)` its class, offset; per class
/// the gcd of its cycle weights (0: unchanged) and whether some update into it is no shift.
pub(super) struct Classes {
    pub(super) of: BTreeMap<(usize, usize), (usize, BigInt)>,
    pub(super) gcd: Vec<BigInt>,
    pub(super) bad: Vec<bool>,
}

pub(super) fn classes(locs: &[LocId], its: &Its, prep: &[Prepared]) -> Classes {
    let mut edges: Vec<(Node, Node, BigInt)> = Vec::new();
    let mut bad_nodes = Vec::new();
    for p in prep.iter().filter(|p| p.feasible) {
        let Some(to) = p.to else { continue };
        let rule = its.rule(p.inst.rule);
        for (j, e) in rule.args.iter().enumerate() {
            let shift = p.sub(e).and_then(|e| {
                let (v, c) = e.terms.iter().next()?;
                (e.terms.len() == 1 && c.is_one() && e.constant.is_integer())
                    .then(|| (v.index(), e.constant.numer()))
            });
            match shift {
                Some((i, w)) => edges.push(((p.from, i), (to, j), w)),
                None => bad_nodes.push((to, j)),
            }
        }
    }
    let mut of: BTreeMap<(usize, usize), (usize, BigInt)> = BTreeMap::new();
    let mut gcd = Vec::new();
    let nodes: Vec<(usize, usize)> = locs
        .iter()
        .enumerate()
        .flat_map(|(li, l)| (0..its.location(*l).arity()).map(move |j| (li, j)))
        .collect();
    for &root in &nodes {
        if of.contains_key(&root) {
            continue;
        }
        let c = gcd.len();
        gcd.push(BigInt::zero());
        of.insert(root, (c, BigInt::zero()));
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            let pu = of[&u].1.clone();
            for (a, b, w) in &edges {
                let (next, p) = if *a == u {
                    (*b, &pu + w)
                } else if *b == u {
                    (*a, &pu - w)
                } else {
                    continue;
                };
                if let Some((_, q)) = of.get(&next) {
                    gcd[c] = gcd[c].gcd(&(q - &p));
                } else {
                    of.insert(next, (c, p));
                    stack.push(next);
                }
            }
        }
    }
    let mut bad = vec![false; gcd.len()];
    for n in bad_nodes {
        if let Some((c, _)) = of.get(&n) {
            bad[*c] = true;
        }
    }
    Classes { of, gcd, bad }
}
