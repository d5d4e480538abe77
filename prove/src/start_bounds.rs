//! Linear bounds between the values a run starts with and the values it has at each location,
//! for runs whose start values satisfy a precondition: the relational form of the template
//! invariants (`invariant.rs`). `jtg-terminate` uses them for the inequalities of call
//! summaries (`b = mod(a, b)` returns less than `b` where the call has `b ≥ 1`).
//!
//! The ITS is extended: every location gets copies `s₁ … s_k` of the start's variables, which
//! every rule keeps, and a new start location enters the old one with `x = s` under the
//! precondition. Karr's equalities between `s` and each location's variables
//! ([`crate::affine::start_relations`]) are conjoined with the guards of the rules leaving the
//! location: they hold there, and they give the template inference the pairs it compares
//! (`b − s_b`), so a loop that keeps `b` keeps `b = s_b`. The bound of each requested form is
//! the LP optimum over the certified invariant of its location, so it is inductive like every
//! invariant the prover uses.

use crate::affine::start_relations;
use crate::farkas::{best_bound, dense, rows_of};
use crate::invariant::{certified_bounds, copied_var};
use crate::its::{Its, ItsError, LocId, Rule};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use std::collections::BTreeSet;

/// At most this many pairs (a location's variable, a start value) get difference templates at
/// one location (each costs two LPs per rule instance into it).
const MAX_START_PAIRS: usize = 16;

/// What holds of the forms asked for at one location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormBounds {
    /// No run from a start satisfying the precondition arrives.
    Unreached,
    /// An upper bound of each form (`None`: none found).
    Bounds(Vec<Option<Q>>),
}

/// Name of the copy of the start's `j`-th variable.
fn start_copy(j: usize) -> String {
    format!("start_copy_{j}")
}

/// For every location `l` of `its`, upper bounds of the linear forms `forms[l]` over runs whose
/// start values satisfy `pre` (constraints over the start location's variables). A form at
/// `l` is over `l`'s variables followed by the start's (`Var(arity(l) + j)`: the start's `j`-th
/// value). `None`: the simplex work `max_work` was spent, or the extension's names clash.
pub fn start_bounds(
    its: &Its,
    pre: &[Constraint],
    forms: &[Vec<LinExpr>],
    max_ne_split: usize,
    max_work: u64,
) -> Option<Vec<FormBounds>> {
    let rel = relational(its, pre).ok()?;
    let limits = Limits {
        max_work,
        ..Limits::default()
    };
    let mut stats = LpStats::default();
    // location `l` of `its` is location `l + 1` of `rel`; the differences between a start
    // value and the values a form reads are tracked back to where they are copied from (a
    // value tested on the way to a return keeps its relation to the start there)
    let pairs = demanded_pairs(its, forms);
    let mut extra = vec![Vec::new()];
    for (l, wanted) in forms.iter().enumerate() {
        let n = its.location(LocId(l as u32)).arity();
        let mut t = wanted.clone();
        for &(i, j) in &pairs[l] {
            let d = LinExpr::var(Var(i as u32)).minus(&LinExpr::var(Var((n + j) as u32)));
            t.push(d.scaled(&-Q::one()));
            t.push(d);
        }
        extra.push(t);
    }
    let (bounds, _) = certified_bounds(&rel, &extra, max_ne_split, &limits, &mut stats)?;
    let mut out = Vec::with_capacity(its.locations().len());
    for (l, wanted) in forms.iter().enumerate() {
        let inv = &bounds[l + 1];
        let n = rel.location(LocId(l as u32 + 1)).arity();
        let never = inv
            .iter()
            .any(|c| c.expr.is_constant() && c.holds(&|_| None) == Some(false));
        if never {
            out.push(FormBounds::Unreached);
            continue;
        }
        let rows = rows_of(&inv.iter().cloned().map(Some).collect::<Vec<_>>(), n);
        let mut found = Vec::with_capacity(wanted.len());
        for f in wanted {
            let best = match best_bound(&rows, &dense(f, n), &limits, &mut stats) {
                Ok(Some((v, _))) => Some(Q::from((&v + &f.constant).floor())),
                Ok(None) | Err(_) => None,
            };
            found.push(best);
        }
        out.push(FormBounds::Bounds(found));
    }
    Some(out)
}

/// Per location, the pairs `(variable i, start value j)` whose difference is tracked: those a
/// form reads at its location, and backwards, the source variable a rule copies into such a
/// variable (`x' = y + c`), at most [`MAX_START_PAIRS`] per location.
fn demanded_pairs(its: &Its, forms: &[Vec<LinExpr>]) -> Vec<BTreeSet<(usize, usize)>> {
    let mut pairs: Vec<BTreeSet<(usize, usize)>> = vec![BTreeSet::new(); its.locations().len()];
    for (l, wanted) in forms.iter().enumerate() {
        let n = its.location(LocId(l as u32)).arity();
        for f in wanted {
            let vars: Vec<usize> = f.vars().map(|v| v.index()).collect();
            for &i in vars.iter().filter(|&&i| i < n) {
                for &j in vars.iter().filter(|&&j| j >= n) {
                    if pairs[l].len() < MAX_START_PAIRS {
                        pairs[l].insert((i, j - n));
                    }
                }
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for rule in its.rules() {
            let n = its.location(rule.from).arity();
            let wanted: Vec<(usize, usize)> = pairs[rule.to.index()]
                .iter()
                .filter_map(|&(i, j)| Some((copied_var(&rule.args[i], n)?, j)))
                .collect();
            let src = &mut pairs[rule.from.index()];
            for p in wanted {
                if src.len() < MAX_START_PAIRS && src.insert(p) {
                    changed = true;
                }
            }
        }
    }
    pairs
}

/// `its` with the start's values carried along (see the module documentation).
fn relational(its: &Its, pre: &[Constraint]) -> Result<Its, ItsError> {
    let start = its.location(its.start());
    let k = start.arity();
    let copies: Vec<String> = (0..k).map(start_copy).collect();
    let copy_refs: Vec<&str> = copies.iter().map(String::as_str).collect();
    let clash = its.locations().iter().any(|l| l.name == "pre_start")
        || its
            .locations()
            .iter()
            .any(|l| l.vars.iter().any(|v| copies.contains(v)))
        || its
            .rules()
            .iter()
            .any(|r| r.temps.iter().any(|v| copies.contains(v)));
    if clash {
        return Err(ItsError::DuplicateLocation("pre_start".into()));
    }
    let mut rel = Its::new("pre_start", &copy_refs)?;
    for l in its.locations() {
        let mut vars: Vec<&str> = l.vars.iter().map(String::as_str).collect();
        vars.extend(copy_refs.iter().copied());
        rel.add_location(&l.name, &vars)?;
    }
    let moved = |l: LocId| LocId(l.0 + 1);
    let keep: Vec<LinExpr> = (0..k).map(|j| LinExpr::var(Var(j as u32))).collect();
    rel.add_rule(Rule {
        from: rel.start(),
        to: moved(its.start()),
        temps: Vec::new(),
        args: keep.iter().chain(&keep).cloned().collect(),
        guard: pre.to_vec(),
    })?;
    let karr = start_relations(its);
    for rule in its.rules() {
        let a = its.location(rule.from).arity();
        // temporaries move past the copies
        let shift = |v: Var| {
            if v.index() < a {
                v
            } else {
                Var(v.0 + k as u32)
            }
        };
        let mut args: Vec<LinExpr> = rule.args.iter().map(|e| e.rename(&shift)).collect();
        args.extend((0..k).map(|j| LinExpr::var(Var((a + j) as u32))));
        let mut guard: Vec<Constraint> = rule.guard.iter().map(|c| c.rename(&shift)).collect();
        if let Some(space) = &karr[rule.from.index()] {
            for (coef, b) in space.equalities() {
                // over (s, x): s_j is Var(a + j), x_i is Var(i)
                let mut e = LinExpr::zero();
                for (i, c) in coef.iter().enumerate() {
                    let v = if i < k { a + i } else { i - k };
                    e.add_term(Var(v as u32), c);
                }
                guard.push(Constraint::eq(&e, &LinExpr::constant(b)));
            }
        }
        rel.add_rule(Rule {
            from: moved(rule.from),
            to: moved(rule.to),
            temps: rule.temps.clone(),
            args,
            guard,
        })?;
    }
    Ok(rel)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koat::parse_koat;

    /// `mod(a, b)`: `while (a >= b && b > 0) a -= b; return a` — under `b ≥ 1` the result is
    /// below `b`; without the precondition nothing bounds it.
    #[test]
    fn a_remainder_loop_returns_less_than_its_divisor() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR a b)
             (RULES start(a, b) -> f(a, b)
                    f(a, b) -> f(a - b, b) :|: a >= b && b > 0
                    f(a, b) -> ret(a, b) :|: a < b
                    f(a, b) -> ret(a, b) :|: b <= 0)",
        )
        .unwrap();
        let ret = its.location_by_name("ret").unwrap();
        // at ret: a − s_b (Var(2 + 1))
        let r_minus_b = LinExpr::var(Var(0)).minus(&LinExpr::var(Var(3)));
        let mut forms = vec![Vec::new(); its.locations().len()];
        forms[ret.index()] = vec![r_minus_b];
        let b_pos = Constraint::ge(&LinExpr::var(Var(1)), &LinExpr::constant(1));
        let got = start_bounds(&its, &[b_pos], &forms, 4, 10_000_000).unwrap();
        assert_eq!(
            got[ret.index()],
            FormBounds::Bounds(vec![Some(Q::from(-1))])
        );
        let got = start_bounds(&its, &[], &forms, 4, 10_000_000).unwrap();
        assert_eq!(got[ret.index()], FormBounds::Bounds(vec![None]));
    }

    /// A location no run from the precondition reaches says so.
    #[test]
    fn an_excluded_branch_is_unreached() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> neg(x) :|: x < 0
                    start(x) -> pos(x) :|: x >= 0)",
        )
        .unwrap();
        let neg = its.location_by_name("neg").unwrap();
        let forms = vec![vec![LinExpr::var(Var(0))]; its.locations().len()];
        let pre = Constraint::ge(&LinExpr::var(Var(0)), &LinExpr::constant(5));
        let got = start_bounds(&its, &[pre], &forms, 4, 10_000_000).unwrap();
        assert_eq!(got[neg.index()], FormBounds::Unreached);
    }
}
