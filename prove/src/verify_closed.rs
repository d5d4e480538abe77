//! Independent check of a closed recurrent set (`cert_closed`): exact arithmetic on rows built
//! by `verify_rows`, no LP and no code of the search (`recur_closed`). The rules leaving the
//! sets' locations and their `≠` sides are enumerated here, not taken from the certificate.
//!
//! Integer reasoning, each step sound over the integers:
//! * rows are tightened for integers (`e < 0` is `e ≤ −1`; `a·x ≤ b` with gcd `g` is
//!   `(a/g)·x ≤ ⌊b/g⌋`);
//! * a congruence `a·x + c ≡ 0 mod k` contradicts rows that bound `a·x` to `[lo, hi]` when no
//!   integer of `[lo, hi]` is `≡ −c mod k` ([`IntProof::Residue`]);
//! * a congruence after a rule follows from integer combinations of the source's congruences
//!   and the guard's equalities ([`CongruenceStep`]): for integer points the equalities are 0,
//!   the congruences multiples of their moduli.

use crate::cert_closed::{ClosedRecurrentSet, CongruenceStep, IntProof, LocSet, StepProof};
use crate::farkas::{NeSide, RuleInstance};
use crate::its::{Its, RuleId};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::q::Q;
use crate::verify_rows::{
    check_implication, check_infeasible, fail, guard_rows, replay_prefix, resolved_guard, set_rows,
    VRow, VerifyError,
};
use num_integer::Integer;
use std::collections::BTreeMap;

/// Most `≠` constraints of one rule (its instances are enumerated: 2ᵏ).
const MAX_NE: usize = 6;
/// Most cases of one cover (the product of the open constraints' negations).
pub(crate) const MAX_CASES: usize = 4096;

/// Checks a closed recurrent set: every set well formed, every instance of every rule out of
/// a set's location disabled or closed, every set covered, and the run into the head's set.
pub fn verify_closed(its: &Its, c: &ClosedRecurrentSet) -> Result<(), VerifyError> {
    let mut seen = Vec::new();
    for s in &c.sets {
        if s.location.index() >= its.locations().len() || seen.contains(&s.location) {
            return fail("a set of an unknown or repeated location");
        }
        seen.push(s.location);
        well_formed(its, s)?;
    }
    let proofs: BTreeMap<&RuleInstance, &StepProof> = c.steps.iter().map(|(i, p)| (i, p)).collect();
    for s in &c.sets {
        for r in its.rule_ids().filter(|r| its.rule(*r).from == s.location) {
            for inst in all_sides(its, r)? {
                let Some(p) = proofs.get(&inst) else {
                    return fail(format!(
                        "rule {} (sides {:?}) has no step proof",
                        r.0, inst.ne_sides
                    ));
                };
                check_step(its, c, s, &inst, p)?;
            }
        }
        check_cover(its, s)?;
    }
    // the run from the start
    let (loc, vals) = replay_prefix(its, &c.start_values, &c.prefix, &c.prefix_temps)?;
    if loc != c.head || vals != c.witness {
        return fail("the prefix does not reach the witness");
    }
    match c.set(c.head) {
        Some(s) if s.contains(&c.witness) => Ok(()),
        _ => fail("the witness is not in the head's set"),
    }
}

fn well_formed(its: &Its, s: &LocSet) -> Result<(), VerifyError> {
    let m = its.location(s.location).arity();
    let out = |e: &LinExpr| e.vars().any(|v| v.index() >= m);
    if s.constraints
        .iter()
        .any(|c| out(&c.expr) || c.rel == Rel::Ne)
    {
        return fail("a set constraint beyond its location, or a disequality");
    }
    for k in &s.congruences {
        let ok = k.modulus.is_integer() && k.modulus >= Q::int(2) && k.expr.is_integral();
        if !ok || out(&k.expr) {
            return fail("a congruence that is not integral, beyond its location, or mod < 2");
        }
    }
    Ok(())
}

/// Every instance of rule `r`: each side of each `≠`.
fn all_sides(its: &Its, r: RuleId) -> Result<Vec<RuleInstance>, VerifyError> {
    let k = its.rule(r).ne_count();
    if k > MAX_NE {
        return fail(format!("rule {} has too many disequalities", r.0));
    }
    Ok((0..1usize << k)
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
        .collect())
}

fn dense(e: &LinExpr, n: usize) -> Option<Vec<Q>> {
    let mut v = vec![Q::zero(); n];
    for (x, q) in &e.terms {
        *v.get_mut(x.index())? = q.clone();
    }
    Some(v)
}

/// Checks that `rows` (over `n` variables, the first ones a set's location's) have no integer
/// point.
fn check_int(rows: &[VRow], proof: &IntProof, s: &LocSet, n: usize) -> Result<(), VerifyError> {
    match proof {
        IntProof::Rational(f) => {
            if check_infeasible(rows, f, n) {
                return Ok(());
            }
        }
        IntProof::Residue {
            congruence,
            lo,
            lo_proof,
            hi,
            hi_proof,
        } => {
            let Some(k) = s.congruences.get(*congruence) else {
                return fail("a residue proof names no congruence");
            };
            let mut lin = k.expr.clone();
            lin.constant = Q::zero();
            // `a·x` is an integer: it lies in `[⌈lo⌉, ⌊hi⌋]`
            let (lo_i, hi_i) = (lo.ceil(), hi.floor());
            let (Some(a), Some(c0), Some(m)) = (
                dense(&lin, n),
                k.expr.constant.to_integer(),
                k.modulus.to_integer(),
            ) else {
                return fail("a residue proof that is not integral");
            };
            let neg: Vec<Q> = a.iter().map(|x| -x).collect();
            if check_implication(rows, hi_proof, &a, hi)
                && check_implication(rows, lo_proof, &neg, &-lo)
            {
                // the least v ≥ lo with v + c0 ≡ 0 (mod m)
                let r = (-(&lo_i + &c0)).mod_floor(&m);
                if lo_i + r > hi_i {
                    return Ok(());
                }
            }
        }
    }
    fail("an integer infeasibility proof does not hold")
}

fn check_step(
    its: &Its,
    c: &ClosedRecurrentSet,
    s: &LocSet,
    inst: &RuleInstance,
    proof: &StepProof,
) -> Result<(), VerifyError> {
    let rule = its.rule(inst.rule);
    let n = rule.var_count(its);
    let mut rows = set_rows(&s.constraints, n)?;
    rows.extend(guard_rows(its, inst)?);
    let (linear, congruences) = match proof {
        StepProof::Disabled(p) => return check_int(&rows, p, s, n),
        StepProof::Closed {
            linear,
            congruences,
        } => (linear, congruences),
    };
    let Some(t) = c.set(rule.to) else {
        return fail(format!(
            "rule {} leaves the sets but is not disabled",
            inst.rule.0
        ));
    };
    let next = set_rows(&t.constraints, its.location(rule.to).arity())?;
    if linear.len() != next.len() || congruences.len() != t.congruences.len() {
        return fail(format!("rule {}: closure proofs miscounted", inst.rule.0));
    }
    for (tr, f) in next.iter().zip(linear) {
        let mut image = LinExpr::zero();
        for (k, a) in tr.a.iter().enumerate() {
            image.add_scaled(&rule.args[k], a);
        }
        let Some(cv) = dense(&image, n) else {
            return fail("an update beyond the rule's variables");
        };
        if !check_implication(&rows, f, &cv, &(&tr.b - &image.constant)) {
            return fail(format!(
                "rule {} leaves the linear part of the set",
                inst.rule.0
            ));
        }
    }
    for (k, step) in t.congruences.iter().zip(congruences) {
        let after = k.expr.substitute(&|v: Var| rule.args[v.index()].clone());
        if !congruence_follows(rule, s, &after, &k.modulus, step) {
            return fail(format!(
                "rule {} breaks a congruence of the set",
                inst.rule.0
            ));
        }
    }
    Ok(())
}

/// Whether `after − Σ λ_j·P_j − Σ ν_i·E_i` is divisible by `modulus` coefficient-wise.
fn congruence_follows(
    rule: &crate::its::Rule,
    s: &LocSet,
    after: &LinExpr,
    modulus: &Q,
    step: &CongruenceStep,
) -> bool {
    let mut rest = after.clone();
    for (j, l) in &step.premises {
        let Some(p) = s.congruences.get(*j) else {
            return false;
        };
        // the premise's modulus must be a multiple of the target's
        if !l.is_integer() || !(&p.modulus / modulus).is_integer() {
            return false;
        }
        rest.add_scaled(&p.expr, &-l);
    }
    for (i, l) in &step.equalities {
        match rule.guard.get(*i) {
            Some(e) if e.rel == Rel::Eq && e.expr.is_integral() && l.is_integer() => {
                rest.add_scaled(&e.expr, &-l)
            }
            _ => return false,
        }
    }
    let divisible = |q: &Q| (q / modulus).is_integer();
    rest.terms.values().all(divisible) && divisible(&rest.constant)
}

/// `¬(e ⋈ 0)` over the integers, as the alternatives of a disjunction.
pub(crate) fn negations(e: &LinExpr, rel: Rel) -> Vec<Constraint> {
    let neg = e.scaled(&-Q::one());
    match rel {
        Rel::Le => vec![Constraint::new(neg, Rel::Lt)],
        Rel::Lt => vec![Constraint::new(neg, Rel::Le)],
        Rel::Eq => vec![
            Constraint::new(e.clone(), Rel::Lt),
            Constraint::new(neg, Rel::Lt),
        ],
        Rel::Ne => vec![Constraint::new(e.clone(), Rel::Eq)],
    }
}

/// Checks that every integer point of `s` enables one of its cover rules.
fn check_cover(its: &Its, s: &LocSet) -> Result<(), VerifyError> {
    let m = its.location(s.location).arity();
    let premise = set_rows(&s.constraints, m)?;
    let mut options: Vec<Vec<Constraint>> = Vec::new();
    for cr in &s.cover {
        let rule = its.rule(cr.instance.rule);
        if rule.from != s.location || cr.temps.len() != rule.temps.len() {
            return fail("a cover rule from elsewhere, or its temporaries miscounted");
        }
        // each temporary fixed by a guard equality with coefficient ±1
        for (j, d) in cr.temps.iter().enumerate() {
            let t = Var((m + j) as u32);
            let defined = d.is_integral()
                && d.vars().all(|v| v.index() < m)
                && rule.guard.iter().any(|g| {
                    let a = g.expr.coeff(t);
                    g.rel == Rel::Eq
                        && (a == Q::one() || a == -Q::one())
                        && g.expr
                            .minus(&LinExpr::var(t).minus(d).scaled(&a))
                            .terms
                            .is_empty()
                        && g.expr
                            .minus(&LinExpr::var(t).minus(d).scaled(&a))
                            .constant
                            .is_zero()
                });
            if !defined {
                return fail(format!(
                    "rule {}: temporary {j} is not fixed by its guard",
                    cr.instance.rule.0
                ));
            }
        }
        let sub = |v: Var| {
            if v.index() < m {
                LinExpr::var(v)
            } else {
                cr.temps[v.index() - m].clone()
            }
        };
        let guard = resolved_guard(its, &cr.instance)?;
        if cr.implied.len() != guard.len() {
            return fail("cover implications miscounted");
        }
        let mut open = Vec::new();
        for (g, imp) in guard.iter().zip(&cr.implied) {
            let Some((e, rel)) = g else {
                return fail("a dropped disequality in a cover rule");
            };
            let e = e.substitute(&sub);
            match imp {
                None => open.extend(negations(&e, *rel)),
                Some(fs) => {
                    let c = Constraint::new(e, *rel);
                    if c.expr.is_constant() {
                        if !fs.is_empty() || c.holds(&|_| None) != Some(true) {
                            return fail("a constant cover constraint that is false");
                        }
                        continue;
                    }
                    let rows = set_rows(&[c], m)?;
                    if rows.len() != fs.len()
                        || !rows
                            .iter()
                            .zip(fs)
                            .all(|(r, f)| check_implication(&premise, f, &r.a, &r.b))
                    {
                        return fail("a cover constraint the set does not imply");
                    }
                }
            }
        }
        if open.is_empty() {
            // the set enables this rule everywhere
            return if s.cases.is_empty() {
                Ok(())
            } else {
                fail("cases beyond a full cover")
            };
        }
        options.push(open);
    }
    let total = options.iter().try_fold(1usize, |p, o| {
        p.checked_mul(o.len()).filter(|t| *t <= MAX_CASES)
    });
    if total != Some(s.cases.len()) {
        return fail("cover cases miscounted");
    }
    for (idx, case) in s.cases.iter().enumerate() {
        let mut rows = premise.iter().map(copy_row).collect::<Vec<_>>();
        let mut rest = idx;
        let mut chosen = Vec::new();
        for o in options.iter().rev() {
            chosen.push(o[rest % o.len()].clone());
            rest /= o.len();
        }
        rows.extend(set_rows(&chosen, m)?);
        check_int(&rows, case, s, m)?;
    }
    Ok(())
}

fn copy_row(r: &VRow) -> VRow {
    VRow {
        a: r.a.clone(),
        b: r.b.clone(),
        eq: r.eq,
    }
}
