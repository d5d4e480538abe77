//! The exact rows [`crate::verify`] checks certificates on: guards, invariant bounds and
//! recurrent sets as rows `a·x ≤ b` (or `=`) over exact rationals, strengthened for integers,
//! built by this module's own code (never the synthesis code's), and the checks of Farkas
//! multipliers on them (`λ ≥ 0` on inequalities, `λ·A = c`, `λ·b ≤ d`).

use crate::farkas::{Farkas, NeSide, RuleInstance};
use crate::its::Its;
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::q::Q;
use num_integer::Integer;
use num_traits::Zero;

/// Why a certificate was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("certificate rejected: {0}")]
pub struct VerifyError(pub String);

pub(crate) fn fail<T>(msg: impl Into<String>) -> Result<T, VerifyError> {
    Err(VerifyError(msg.into()))
}

/// The run of the rules `prefix` (with their temporaries `temps`) from the start location on
/// `start`: the location and values it ends with, or why it is no run (a rule that does not
/// continue it, a guard false on its values).
pub(crate) fn replay_prefix(
    its: &crate::its::Its,
    start: &[num_bigint::BigInt],
    prefix: &[crate::its::RuleId],
    temps: &[Vec<num_bigint::BigInt>],
) -> Result<(crate::its::LocId, Vec<num_bigint::BigInt>), VerifyError> {
    let mut loc = its.start();
    let mut vals = start.to_vec();
    if temps.len() != prefix.len() {
        return fail("prefix temporaries miscounted");
    }
    for (r, temps) in prefix.iter().zip(temps) {
        if its.rules().get(r.index()).is_none_or(|x| x.from != loc) {
            return fail(format!("prefix rule {} does not continue the run", r.0));
        }
        match its.step(*r, &vals, temps) {
            Ok(Some(next)) => vals = next,
            Ok(None) => return fail(format!("prefix rule {}: guard false on the witness", r.0)),
            Err(e) => return fail(e.to_string()),
        }
        loc = its.rule(*r).to;
    }
    Ok((loc, vals))
}

/// `a·x ≤ b`, or `a·x = b` if `eq`.
pub(crate) struct VRow {
    pub(crate) a: Vec<Q>,
    pub(crate) b: Q,
    pub(crate) eq: bool,
}

/// `a·x + c ⋈ 0` as a row over `n` variables, strengthened for integer `x`.
fn row(e: &LinExpr, strict: bool, eq: bool, n: usize) -> Result<VRow, VerifyError> {
    let mut a = vec![Q::zero(); n];
    for (v, q) in &e.terms {
        match a.get_mut(v.index()) {
            Some(slot) => *slot = q.clone(),
            None => return fail(format!("variable {} out of scope", v.0)),
        }
    }
    let mut b = -&e.constant;
    // Integer coefficients: scale by the denominators' lcm first.
    let lcm = a
        .iter()
        .chain(std::iter::once(&b))
        .fold(num_bigint::BigInt::from(1), |m, q| m.lcm(&q.denom()));
    let l = Q::from(lcm);
    for x in a.iter_mut() {
        *x = &*x * &l;
    }
    b = &b * &l;
    if eq {
        // One form for every way of writing the equation (a substituted guard is not in
        // canonical form, the prover's rows are): content 1 and the first coefficient, or
        // without variables the constant, positive — so the multipliers agree.
        let g = a
            .iter()
            .chain(std::iter::once(&b))
            .fold(num_bigint::BigInt::zero(), |m, q| m.gcd(&q.numer()));
        let negative = match a.iter().find(|x| !x.is_zero()) {
            Some(first) => first.is_negative(),
            None => b.is_positive(), // the constant is −b
        };
        if !g.is_zero() {
            let gq = Q::from(if negative { -g } else { g });
            for x in a.iter_mut() {
                *x = &*x / &gq;
            }
            b = &b / &gq;
        }
        return Ok(VRow { a, b, eq: true });
    }
    if strict {
        b -= &Q::one();
    }
    let g = a
        .iter()
        .fold(num_bigint::BigInt::zero(), |m, q| m.gcd(&q.numer()));
    if !g.is_zero() {
        let gq = Q::from(g);
        for x in a.iter_mut() {
            *x = &*x / &gq;
        }
        b = Q::from((&b / &gq).floor());
    }
    Ok(VRow { a, b, eq: false })
}

fn constraint_rows(c: &Constraint, n: usize) -> Result<VRow, VerifyError> {
    match c.rel {
        Rel::Le => row(&c.expr, false, false, n),
        Rel::Lt => row(&c.expr, true, false, n),
        Rel::Eq => row(&c.expr, false, true, n),
        Rel::Ne => fail("a disequality where a polyhedron is required"),
    }
}

/// An instance's guard with every `≠` resolved: `(e, rel)` for `e rel 0`, `rel` one of `≤ < =`;
/// `None` for a dropped `≠`.
pub(crate) fn resolved_guard(
    its: &Its,
    inst: &RuleInstance,
) -> Result<Vec<Option<(LinExpr, Rel)>>, VerifyError> {
    let Some(rule) = its.rules().get(inst.rule.index()) else {
        return fail(format!("no rule {}", inst.rule.0));
    };
    let mut sides = inst.ne_sides.iter();
    let mut out = Vec::new();
    for c in &rule.guard {
        out.push(match c.rel {
            Rel::Ne => match sides.next() {
                Some(NeSide::Less) => Some((c.expr.clone(), Rel::Lt)),
                Some(NeSide::Greater) => Some((c.expr.scaled(&-Q::one()), Rel::Lt)),
                Some(NeSide::Dropped) => None,
                None => return fail(format!("rule {}: too few ≠ sides", inst.rule.0)),
            },
            rel => Some((c.expr.clone(), rel)),
        });
    }
    if sides.next().is_some() {
        return fail(format!("rule {}: too many ≠ sides", inst.rule.0));
    }
    Ok(out)
}

fn resolved_rows(guard: &[Option<(LinExpr, Rel)>], n: usize) -> Result<Vec<VRow>, VerifyError> {
    guard
        .iter()
        .map(|c| match c {
            None => Ok(VRow {
                a: vec![Q::zero(); n],
                b: Q::zero(),
                eq: false,
            }),
            Some((e, rel)) => row(e, *rel == Rel::Lt, *rel == Rel::Eq, n),
        })
        .collect()
}

/// Rows of an instance's guard, one per guard constraint, over the rule's variables.
pub(crate) fn guard_rows(its: &Its, inst: &RuleInstance) -> Result<Vec<VRow>, VerifyError> {
    let n = its.rule(inst.rule).var_count(its);
    resolved_rows(&resolved_guard(its, inst)?, n)
}

/// Rows of `a` followed by `b`: `a`'s guard over `a`'s variables, then `b`'s guard with `b`'s
/// source variables replaced by `a`'s update and `b`'s temporaries numbered after `a`'s.
pub(crate) fn chain_rows(
    its: &Its,
    a: &RuleInstance,
    b: &RuleInstance,
) -> Result<Vec<VRow>, VerifyError> {
    let (ga, gb) = (resolved_guard(its, a)?, resolved_guard(its, b)?);
    let (ra, rb) = (its.rule(a.rule), its.rule(b.rule));
    if ra.to != rb.from {
        return fail(format!(
            "rule {} does not start where rule {} ends",
            b.rule.0, a.rule.0
        ));
    }
    let na = ra.var_count(its);
    let arity_b = its.location(rb.from).arity();
    let n = na + rb.temps.len();
    let mut out = resolved_rows(&ga, n)?;
    let image = |e: &LinExpr| -> LinExpr {
        let mut r = LinExpr::constant(e.constant.clone());
        for (v, c) in &e.terms {
            if v.index() < arity_b {
                r.add_scaled(&ra.args[v.index()], c);
            } else {
                r.add_term(Var((na + v.index() - arity_b) as u32), c);
            }
        }
        r
    };
    let gb: Vec<Option<(LinExpr, Rel)>> = gb
        .into_iter()
        .map(|c| c.map(|(e, rel)| (image(&e), rel)))
        .collect();
    out.extend(resolved_rows(&gb, n)?);
    Ok(out)
}

/// Checks `rows ⇒ c·x ≤ d` by the multipliers.
pub(crate) fn check_implication(rows: &[VRow], f: &Farkas, c: &[Q], d: &Q) -> bool {
    if f.multipliers.len() != rows.len() {
        return false;
    }
    let mut comb = vec![Q::zero(); c.len()];
    let mut rhs = Q::zero();
    for (r, l) in rows.iter().zip(&f.multipliers) {
        if !r.eq && l.is_negative() {
            return false;
        }
        if l.is_zero() {
            continue;
        }
        if r.a.len() != c.len() {
            return false;
        }
        for (s, a) in comb.iter_mut().zip(&r.a) {
            *s += &(l * a);
        }
        rhs += &(l * &r.b);
    }
    comb.as_slice() == c && rhs <= *d
}

pub(crate) fn check_infeasible(rows: &[VRow], f: &Farkas, n: usize) -> bool {
    check_implication(rows, f, &vec![Q::zero(); n], &-Q::one())
}

/// The bounds of an invariant as `≤` rows over `n` variables (one per bound).
pub(crate) fn bound_rows(bounds: &[Constraint], n: usize) -> Result<Vec<VRow>, VerifyError> {
    bounds
        .iter()
        .map(|c| match c.rel {
            Rel::Le | Rel::Lt => constraint_rows(c, n),
            _ => fail("an invariant bound that is not an inequality"),
        })
        .collect()
}

/// Rows of a conjunction over location variables, `≤` rows only (equalities as two rows),
/// over `n` variables.
pub(crate) fn set_rows(set: &[Constraint], n: usize) -> Result<Vec<VRow>, VerifyError> {
    let mut out = Vec::new();
    for c in set {
        let r = constraint_rows(c, n)?;
        if r.eq {
            out.push(VRow {
                a: r.a.iter().map(|x| -x).collect(),
                b: -&r.b,
                eq: false,
            });
            out.push(VRow { eq: false, ..r });
        } else {
            out.push(r);
        }
    }
    Ok(out)
}
