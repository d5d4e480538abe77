//! Elimination of a rule's temporaries: those fixed by an equality with a unit coefficient
//! are substituted away (a union-find pass for the differences `x = y + k`, then Gaussian
//! elimination on unit pivots), those nothing mentions any more are dropped.

use super::is_trivial;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// Substitutes away every temporary (index `≥ n0`) fixed by an equality with coefficient ±1
/// (Gaussian elimination on unit pivots), and every temporary no constraint and no argument
/// mentions any more. Returns the guard, the arguments and the temporaries kept (sorted).
pub(super) fn eliminate(
    mut guard: Vec<Constraint>,
    args: &mut [LinExpr],
    n0: usize,
    total: usize,
) -> (Vec<Constraint>, (), Vec<Var>) {
    let mut alive: BTreeSet<Var> = (n0..total).map(|i| Var(i as u32)).collect();
    // the bulk of a chain's equalities carry a value from one node to the next (`x = y + k`):
    // merged in one union-find pass and substituted at once (a substitution per equality,
    // each over the whole guard, was quadratic in the chain's length)
    guard = merge_differences(guard, args, n0, total, &mut alive);
    loop {
        let pick = guard.iter().enumerate().find_map(|(k, c)| {
            if c.rel != Rel::Eq {
                return None;
            }
            // prefer the latest temporary: chains then resolve towards the source
            c.expr
                .terms
                .iter()
                .filter(|(v, q)| v.index() >= n0 && (q.is_one() || (-(*q).clone()).is_one()))
                .map(|(v, q)| (*v, q.clone()))
                .next_back()
                .map(|(v, q)| (k, v, q))
        });
        let Some((k, v, coef)) = pick else { break };
        let c = guard.swap_remove(k);
        // c: coef·v + rest = 0  ⇒  v = −rest / coef
        let mut rest = c.expr.clone();
        rest.terms.remove(&v);
        let value = rest.scaled(&(-Q::one() / coef));
        let sub = |w: Var| {
            if w == v {
                value.clone()
            } else {
                LinExpr::var(w)
            }
        };
        guard = guard.iter().map(|c| c.substitute(&sub)).collect();
        for a in args.iter_mut() {
            *a = a.substitute(&sub);
        }
        alive.remove(&v);
    }
    let mut used: BTreeSet<Var> = BTreeSet::new();
    for c in &guard {
        used.extend(c.expr.vars());
    }
    for a in args.iter() {
        used.extend(a.vars());
    }
    // a temporary that only its own facts constrain is dropped with them when no argument
    // reads it and the facts say no more than a Java int's range: they are satisfiable on
    // their own (every state has an instance). A fact that restricts the unknown (the branch
    // `b.count > 0` of a field no variable holds) stays: a NO must not assume the run takes
    // that branch (`recur`: guards must not constrain temporaries)
    let mut kept: Vec<Var> = alive.into_iter().filter(|v| used.contains(v)).collect();
    let arg_vars: BTreeSet<Var> = args
        .iter()
        .flat_map(|a| a.vars().collect::<Vec<_>>())
        .collect();
    let mut drop: BTreeSet<Var> = BTreeSet::new();
    for v in &kept {
        if arg_vars.contains(v) {
            continue;
        }
        let own: Vec<&Constraint> = guard
            .iter()
            .filter(|c| c.expr.coeff(*v) != Q::zero())
            .collect();
        let alone = own.iter().all(|c| c.expr.vars().count() == 1);
        if alone && own.iter().all(|c| holds_on_int_range(c, *v)) {
            drop.insert(*v);
        }
    }
    if !drop.is_empty() {
        guard.retain(|c| !c.expr.vars().any(|w| drop.contains(&w)));
        kept.retain(|v| !drop.contains(v));
    }
    (guard, (), kept)
}

/// Whether `c`, a constraint over `v` alone, holds for every value of a Java `int` (the range
/// facts every integer temporary carries, or weaker).
fn holds_on_int_range(c: &Constraint, v: Var) -> bool {
    let sub = |value: i64| {
        move |w: Var| {
            if w == v {
                LinExpr::constant(Q::from(value))
            } else {
                LinExpr::var(w)
            }
        }
    };
    // a convex constraint over one variable holds on an interval iff it holds at both ends
    // (`≠` is not convex: it always restricts)
    c.rel != Rel::Ne
        && [i64::from(i32::MIN), i64::from(i32::MAX)]
            .into_iter()
            .all(|x| is_trivial(&c.substitute(&sub(x))))
}

/// Union-find with offsets over the variables: `x = root + offset`.
struct Offsets {
    parent: Vec<usize>,
    offset: Vec<Q>,
}

impl Offsets {
    fn find(&mut self, v: usize) -> (usize, Q) {
        let mut path = Vec::new();
        let mut cur = v;
        while self.parent[cur] != cur {
            path.push(cur);
            cur = self.parent[cur];
        }
        // compress: every node on the path points at the root, offsets summed from the top
        let root = cur;
        let mut acc = Q::zero();
        for &p in path.iter().rev() {
            acc = &acc + &self.offset[p];
            self.offset[p] = acc.clone();
            self.parent[p] = root;
        }
        (root, self.offset[v].clone())
    }
}

/// Eliminates the temporaries fixed by equalities `x − y + k = 0` (unit coefficients): each
/// is replaced by its class's representative plus an offset. A representative is a variable
/// of the source location (index `< n0`) where the class has one, else its smallest
/// temporary. An equality between two classes that both hold a source variable stays in the
/// guard (rewritten); one that closes a cycle becomes a constant constraint (dropped when it
/// holds, kept — an unsatisfiable guard — when not).
fn merge_differences(
    guard: Vec<Constraint>,
    args: &mut [LinExpr],
    n0: usize,
    total: usize,
    alive: &mut BTreeSet<Var>,
) -> Vec<Constraint> {
    let mut uf = Offsets {
        parent: (0..total).collect(),
        offset: vec![Q::zero(); total],
    };
    let mut rest = Vec::with_capacity(guard.len());
    for c in guard {
        let pair = (c.rel == Rel::Eq && c.expr.terms.len() == 2)
            .then(|| {
                let mut it = c.expr.terms.iter();
                let (x, a) = it.next()?;
                let (y, b) = it.next()?;
                (a.is_one() && (-b.clone()).is_one() && x.index() < total && y.index() < total)
                    .then_some((x.index(), y.index()))
            })
            .flatten();
        let Some((x, y)) = pair else {
            rest.push(c);
            continue;
        };
        // x − y + k = 0: x = y − k
        let k = c.expr.constant.clone();
        let (rx, ox) = uf.find(x);
        let (ry, oy) = uf.find(y);
        // rx + ox = ry + oy − k  ⇒  rx = ry + d
        let d = &(&oy - &k) - &ox;
        if rx == ry {
            if !d.is_zero() {
                rest.push(Constraint::new(LinExpr::constant(d), Rel::Eq));
            }
            continue;
        }
        if rx < n0 && ry < n0 {
            rest.push(c);
            continue;
        }
        // the smaller index is the representative: source variables first, then the earliest
        // temporary (the chain resolves towards its source)
        if rx < ry {
            uf.parent[ry] = rx;
            uf.offset[ry] = -d;
        } else {
            uf.parent[rx] = ry;
            uf.offset[rx] = d;
        }
    }
    let mut value: Vec<Option<LinExpr>> = vec![None; total];
    for (v, slot) in value.iter_mut().enumerate() {
        let (r, o) = uf.find(v);
        if r != v {
            *slot = Some(LinExpr::var(Var(r as u32)).plus(&LinExpr::constant(o)));
            alive.remove(&Var(v as u32));
        }
    }
    if value.iter().all(Option::is_none) {
        return rest;
    }
    let sub = |w: Var| {
        value
            .get(w.index())
            .and_then(|e| e.clone())
            .unwrap_or_else(|| LinExpr::var(w))
    };
    for a in args.iter_mut() {
        *a = a.substitute(&sub);
    }
    rest.iter().map(|c| c.substitute(&sub)).collect()
}
