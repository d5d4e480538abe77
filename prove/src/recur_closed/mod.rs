//! Closed recurrent sets over all rules of an SCC, with congruences (issue #34; certificate:
//! `cert_closed`, checked by `verify_closed`).
//!
//! A cycle's recurrent set (`recur`) follows one sequence of rules. Under Java ints a loop
//! that never ends may take different rules at different laps: `for (i = 0; i <= n; i++)` with
//! `n = MAX` takes the no-wrap rule `i' = i + 1` until `i = MAX`, then the wrap rule
//! `i' = i + 1 − 2³²`; `while (x != 0) x -= 2` on odd `x` runs through every odd int, and no
//! polyhedron without `0` is closed under both of its rules — the set needs `x ≡ 1 (mod 2)`.
//! The search builds one candidate set per location of the SCC from the rules themselves:
//!
//! * **ranges**: bounds of single variables every rule out of the location has in its guard
//!   (the Java range facts of a graph's ITS: `MIN ≤ x ≤ MAX`);
//! * **shift classes**: a variable whose every update in the SCC is another variable plus a
//!   constant (`x' = x − 2`, `x' = x + 2³² − 2`, copies between locations) belongs to a class
//!   with offsets; `g`, the gcd of the constants around the class's cycles, is kept by every
//!   lap: `x ≡ r + offset (mod g)` is closed for every residue `r`, tried in turn (`g ≥ 2`);
//!   a class with `g = 0` never changes (`n` in the loop above);
//! * **exits**: a rule leaving the SCC is disabled by the negation of one of its guard
//!   constraints, with every changed variable at the worst end of its range (`n < i` with
//!   `i ≤ MAX` gives `n ≥ MAX`), a constraint of unchanged variables only.
//!
//! Temporaries: the NO never relies on a nondeterministic temporary. Closure holds for every
//! value of them the guard admits; only where a rule must be *enabled* (the cover) is a
//! temporary given a value, and only one that its guard fixes by an equality with coefficient
//! ±1 (`t = x + 2³² − 2`: the wrap case's result, which `r = e − m·2³²` with the range of `r`
//! determines uniquely).

use crate::cert_closed::{
    ClosedRecurrentSet, Congruence, CongruenceStep, CoverRule, IntProof, LocSet, StepProof,
};
use crate::farkas::{self, Farkas, NeSide, Row, RuleInstance};
use crate::its::{Its, LocId};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use crate::recur::{reach_set, set_rows, RecurLimits};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::Zero;
use rules::{classes, prepare, ranges, Classes, Prepared};

mod cycle;
mod rules;

/// Bounds of the search: locations of one SCC, classes with congruences, candidates, cover
/// cases.
const MAX_LOCS: usize = 8;
const MAX_RESIDUES: usize = 8;
const MAX_CANDIDATES: usize = 16;
const MAX_CASES: usize = 512;

/// Searches each rule set (an SCC's unproven rules) for a closed recurrent set reachable from
/// the start.
pub(crate) fn find_closed_set(
    its: &Its,
    rule_sets: &[Vec<RuleInstance>],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<ClosedRecurrentSet> {
    for set in rule_sets {
        let mut locs: Vec<LocId> = set.iter().map(|i| its.rule(i.rule).from).collect();
        locs.sort();
        locs.dedup();
        if locs.is_empty() || locs.len() > MAX_LOCS || locs.contains(&its.start()) {
            continue;
        }
        if let Some(c) = for_locations(its, &locs, rl, limits, stats) {
            return Some(c);
        }
    }
    None
}

fn for_locations(
    its: &Its,
    locs: &[LocId],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<ClosedRecurrentSet> {
    let prep = prepare(its, locs, limits, stats)?;
    let ranges = ranges(locs, its, &prep);
    let cls = classes(locs, its, &prep);
    let unchanged = |li: usize, j: usize| {
        cls.of
            .get(&(li, j))
            .is_some_and(|(c, _)| cls.gcd[*c].is_zero() && !cls.bad[*c])
    };
    // the linear part: ranges, then the exits' negations over unchanged variables
    let mut base: Vec<Vec<Constraint>> = Vec::new();
    for per in &ranges {
        let mut s = Vec::new();
        for (j, (lo, hi)) in per.iter().enumerate() {
            let x = LinExpr::var(Var(j as u32));
            if let Some(lo) = lo {
                s.push(Constraint::ge(&x, &LinExpr::constant(lo.clone())));
            }
            if let Some(hi) = hi {
                s.push(Constraint::le(&x, &LinExpr::constant(hi.clone())));
            }
        }
        base.push(s);
    }
    for p in prep.iter().filter(|p| p.feasible && p.to.is_none()) {
        let li = p.from;
        let usable = p
            .guard
            .iter()
            .filter(|g| g.expr.vars().all(|v| v.index() < p.m));
        let negated = usable.filter_map(|g| {
            let [neg] = negations(&g.expr, g.rel).try_into().ok()?;
            worst_case(&neg, &ranges[li], &|j| unchanged(li, j))
        });
        // the first that leaves points in the set (not `n < MIN` against `n`'s range)
        let mut consistent = negated.filter(|c| {
            let mut with = base[li].clone();
            with.push(c.clone());
            farkas::satisfiable(&set_rows(&with, p.m), limits, stats) == Some(true)
        });
        if let Some(c) = consistent.next() {
            // the same constraint at every location, through the classes' offsets
            for (lj, l) in locs.iter().enumerate() {
                if let Some(t) = translate(&c, li, lj, &cls) {
                    if t.expr.vars().all(|v| v.index() < its.location(*l).arity())
                        && !base[lj].contains(&t)
                    {
                        base[lj].push(t);
                    }
                }
            }
        }
    }
    // congruences: per class with g ≥ 2, a residue
    let congruent: Vec<usize> = (0..cls.gcd.len())
        .filter(|c| !cls.bad[*c] && cls.gcd[*c] >= BigInt::from(2))
        .take(2)
        .collect();
    let mut choices: Vec<Vec<BigInt>> = vec![Vec::new()];
    for &c in &congruent {
        let g = &cls.gcd[c];
        let rs: Vec<BigInt> = (1..MAX_RESIDUES as u64)
            .map(BigInt::from)
            .filter(|r| r < g)
            .chain(std::iter::once(BigInt::zero()))
            .collect();
        choices = choices
            .into_iter()
            .flat_map(|ch| {
                rs.iter().map(move |r| {
                    let mut v = ch.clone();
                    v.push(r.clone());
                    v
                })
            })
            .take(MAX_CANDIDATES)
            .collect();
    }
    for residues in choices {
        let mut sets: Vec<(Vec<Constraint>, Vec<Congruence>)> =
            base.iter().map(|s| (s.clone(), Vec::new())).collect();
        for (&c, r) in congruent.iter().zip(&residues) {
            for (&(li, j), (cc, off)) in &cls.of {
                if *cc == c {
                    let k = Q::from(cls.gcd[c].clone());
                    let expr =
                        LinExpr::var(Var(j as u32)).minus(&LinExpr::constant(Q::from(r + off)));
                    sets[li].1.push(Congruence { expr, modulus: k });
                }
            }
        }
        if let Some(found) = certify(its, locs, &prep, &sets, rl, limits, stats) {
            return Some(found);
        }
    }
    // the exits' negations as they are, over changed variables too: `x ≤ y` where the loop
    // leaves at `y < x` (the set {0 ≤ x ≤ y} of `while (y >= x) if (x == y) { x++; y = 2y+1; }
    // else y--;`), at their own location, then also at every other location by position
    for everywhere in [false, true] {
        let sets = relational_exits(its, locs, &prep, &base, everywhere, limits, stats);
        if let Some(found) = sets.and_then(|s| certify(its, locs, &prep, &s, rl, limits, stats)) {
            return Some(found);
        }
    }
    // the boxes of a concrete cycle of the ITS (a loop through several branches in turn)
    for boxes in cycle::cycle_boxes(its, locs) {
        let sets: Vec<(Vec<Constraint>, Vec<Congruence>)> =
            boxes.into_iter().map(|b| (b, Vec::new())).collect();
        if let Some(found) = certify(its, locs, &prep, &sets, rl, limits, stats) {
            return Some(found);
        }
    }
    None
}

/// `base` with, per exit of the SCC, the negation of the first constraint of its guard over
/// the location's variables that leaves points in the set, kept over changed variables; with
/// `everywhere`, each negation also at every other location whose arity covers it (the same
/// positions). `None` when no exit gives one.
fn relational_exits(
    its: &Its,
    locs: &[LocId],
    prep: &[Prepared],
    base: &[Vec<Constraint>],
    everywhere: bool,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<(Vec<Constraint>, Vec<Congruence>)>> {
    let mut sets: Vec<Vec<Constraint>> = base.to_vec();
    let mut added = false;
    for p in prep.iter().filter(|p| p.feasible && p.to.is_none()) {
        let li = p.from;
        let found = p
            .guard
            .iter()
            .filter(|g| g.expr.vars().all(|v| v.index() < p.m) && !g.expr.is_constant())
            .filter_map(|g| {
                let [neg] = negations(&g.expr, g.rel).try_into().ok()?;
                Some(neg)
            })
            .find(|neg| {
                !sets[li].contains(neg) && {
                    let mut with = sets[li].clone();
                    with.push(neg.clone());
                    farkas::satisfiable(&set_rows(&with, p.m), limits, stats) == Some(true)
                }
            });
        let Some(neg) = found else { continue };
        for (lj, l) in locs.iter().enumerate() {
            let fits = neg
                .expr
                .vars()
                .all(|v| v.index() < its.location(*l).arity());
            if (lj == li || everywhere) && fits && !sets[lj].contains(&neg) {
                sets[lj].push(neg.clone());
                added = true;
            }
        }
    }
    added.then(|| sets.into_iter().map(|s| (s, Vec::new())).collect())
}

/// `c` (over unchanged variables of location `li`) at location `lj`, through the offsets.
fn translate(c: &Constraint, li: usize, lj: usize, cls: &Classes) -> Option<Constraint> {
    let mut e = LinExpr::constant(c.expr.constant.clone());
    for (v, a) in &c.expr.terms {
        let (class, off) = cls.of.get(&(li, v.index()))?;
        let (&(_, j2), (_, off2)) = cls
            .of
            .iter()
            .find(|((l, _), (k, _))| *l == lj && k == class)?;
        // x_li = value + off, x_lj = value + off2
        let mut t = LinExpr::var(Var(j2 as u32));
        t.constant = Q::from(off - off2);
        e.add_scaled(&t, a);
    }
    Some(Constraint::new(e, c.rel))
}

/// `c` with every variable that is not `keep` at the end of its range that makes `c` hardest
/// (`e ≤ 0` for all values in range); `None` when a range is missing or the result is a
/// constant (always true: nothing needed; always false: useless).
fn worst_case(
    c: &Constraint,
    range: &[(Option<Q>, Option<Q>)],
    keep: &dyn Fn(usize) -> bool,
) -> Option<Constraint> {
    let mut e = LinExpr::constant(c.expr.constant.clone());
    for (v, a) in &c.expr.terms {
        if keep(v.index()) {
            e.add_term(*v, a);
            continue;
        }
        let (lo, hi) = range.get(v.index())?;
        let end = if a.is_positive() {
            hi.clone()?
        } else {
            lo.clone()?
        };
        e.constant += &(a * &end);
    }
    (!e.is_constant()).then(|| Constraint::new(e, c.rel))
}

/// `¬(e ⋈ 0)` over the integers, as the alternatives of a disjunction (the verifier's order).
fn negations(e: &LinExpr, rel: Rel) -> Vec<Constraint> {
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

/// A proof that `rs` (over `n` variables) has no integer point, using the congruences.
fn no_integer_point(
    rs: &[Row],
    congr: &[Congruence],
    n: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<IntProof> {
    if let Some(f) = farkas::infeasibility(rs, limits, stats) {
        return Some(IntProof::Rational(f));
    }
    for (j, k) in congr.iter().enumerate() {
        let mut lin = k.expr.clone();
        lin.constant = Q::zero();
        let a = farkas::dense(&lin, n);
        let neg: Vec<Q> = a.iter().map(|x| -x).collect();
        let Ok(Some((hi, hi_m))) = farkas::best_bound(rs, &a, limits, stats) else {
            continue;
        };
        let Ok(Some((nlo, lo_m))) = farkas::best_bound(rs, &neg, limits, stats) else {
            continue;
        };
        let (lo_i, hi_i) = ((-&nlo).ceil(), hi.floor());
        let m = k.modulus.numer();
        let c0 = k.expr.constant.numer();
        let r = (-(&lo_i + &c0)).mod_floor(&m);
        if lo_i + r > hi_i {
            return Some(IntProof::Residue {
                congruence: j,
                lo: -nlo,
                lo_proof: Farkas { multipliers: lo_m },
                hi,
                hi_proof: Farkas { multipliers: hi_m },
            });
        }
    }
    None
}

/// Integer multipliers showing a target congruence after a rule (`CongruenceStep`): the guard's
/// equalities eliminate the temporaries, then the source's congruences.
fn congruence_step(
    p: &Prepared,
    its: &Its,
    after: &LinExpr,
    k: &Q,
    premises: &[Congruence],
) -> Option<CongruenceStep> {
    let rule = its.rule(p.inst.rule);
    let mut rest = after.clone();
    let mut equalities = Vec::new();
    for _ in 0..=p.n - p.m {
        let Some(t) = rest.vars().find(|v| v.index() >= p.m) else {
            break;
        };
        let (i, g) = rule.guard.iter().enumerate().find(|(_, g)| {
            let a = g.expr.coeff(t);
            g.rel == Rel::Eq && (a == Q::one() || a == -Q::one())
        })?;
        let nu = &rest.coeff(t) / &g.expr.coeff(t);
        rest.add_scaled(&g.expr, &-&nu);
        equalities.push((i, nu));
    }
    let divisible = |e: &LinExpr| {
        e.terms
            .values()
            .chain([&e.constant])
            .all(|q| (q / k).is_integer())
    };
    if divisible(&rest) {
        return Some(CongruenceStep {
            premises: Vec::new(),
            equalities,
        });
    }
    for (j, pc) in premises.iter().enumerate() {
        if !(&pc.modulus / k).is_integer() {
            continue;
        }
        for l in [Q::one(), -Q::one()] {
            let mut r = rest.clone();
            r.add_scaled(&pc.expr, &-&l);
            if divisible(&r) {
                return Some(CongruenceStep {
                    premises: vec![(j, l)],
                    equalities,
                });
            }
        }
    }
    None
}

fn certify(
    its: &Its,
    locs: &[LocId],
    prep: &[Prepared],
    sets: &[(Vec<Constraint>, Vec<Congruence>)],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<ClosedRecurrentSet> {
    // every set must have integer points at all (the LP is cheap, the rest is not)
    for (li, (lin, _)) in sets.iter().enumerate() {
        let m = its.location(locs[li]).arity();
        if farkas::satisfiable(&set_rows(lin, m), limits, stats) == Some(false) {
            return None;
        }
    }
    let mut steps = Vec::new();
    for p in prep {
        let (lin, congr) = &sets[p.from];
        let mut rs = set_rows(lin, p.n);
        rs.extend(farkas::instance_rows(its, &p.inst));
        let closed = p.to.and_then(|to| {
            let rule = its.rule(p.inst.rule);
            let (tlin, tcon) = &sets[to];
            let next = set_rows(tlin, its.location(locs[to]).arity());
            let mut linear = Vec::new();
            for t in &next {
                let mut image = LinExpr::zero();
                for (kk, a) in t.coeffs.iter().enumerate() {
                    image.add_scaled(&rule.args[kk], a);
                }
                let c = farkas::dense(&image, p.n);
                linear.push(farkas::implication(
                    &rs,
                    &c,
                    &(&t.rhs - &image.constant),
                    limits,
                    stats,
                )?);
            }
            let mut congruences = Vec::new();
            for k in tcon {
                let after = k.expr.substitute(&|v: Var| rule.args[v.index()].clone());
                congruences.push(congruence_step(p, its, &after, &k.modulus, congr)?);
            }
            Some(StepProof::Closed {
                linear,
                congruences,
            })
        });
        let proof = match closed {
            Some(c) => c,
            None => StepProof::Disabled(no_integer_point(&rs, congr, p.n, limits, stats)?),
        };
        steps.push((p.inst.clone(), proof));
    }
    let mut loc_sets = Vec::new();
    for (li, (lin, congr)) in sets.iter().enumerate() {
        let (cover, cases) = cover(its, li, prep, lin, congr, limits, stats)?;
        loc_sets.push(LocSet {
            location: locs[li],
            constraints: lin.clone(),
            congruences: congr.clone(),
            cover,
            cases,
        });
    }
    for (li, l) in locs.iter().enumerate() {
        let (lin, congr) = &sets[li];
        // preferably a witness that enables the cover rule with the largest jump (a wrap
        // case: `x + 2³² − 2`), so that a run from it takes the wrap at once
        let jump = |p: &Prepared| {
            let rule = its.rule(p.inst.rule);
            rule.args
                .iter()
                .filter_map(|a| p.sub(a).map(|e| e.constant.abs()))
                .max()
                .unwrap_or_else(Q::zero)
        };
        let wrap = loc_sets[li]
            .cover
            .iter()
            .filter_map(|cr| prep.iter().find(|p| p.inst == cr.instance))
            .max_by_key(|p| jump(p))
            .and_then(|p| {
                let mut g = lin.clone();
                for c in &p.guard {
                    g.push(Constraint::new(p.sub(&c.expr)?, c.rel));
                }
                Some(g)
            });
        let goals: Vec<Vec<Constraint>> = wrap.into_iter().chain([lin.clone()]).collect();
        let reached = goals
            .iter()
            .find_map(|g| reach_set(its, *l, g, congr, rl, limits, stats));
        if let Some((prefix, start_values, prefix_temps, witness)) = reached {
            return Some(ClosedRecurrentSet {
                sets: loc_sets,
                steps,
                head: *l,
                prefix,
                start_values,
                prefix_temps,
                witness,
            });
        }
    }
    None
}

/// The cover of location `li`'s set: rules into the SCC with fixed temporaries, and a proof per
/// case that the set leaves none of its points without a rule.
#[allow(clippy::too_many_arguments)]
fn cover(
    its: &Its,
    li: usize,
    prep: &[Prepared],
    lin: &[Constraint],
    congr: &[Congruence],
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<(Vec<CoverRule>, Vec<IntProof>)> {
    let mut rules = Vec::new();
    let mut options: Vec<Vec<Constraint>> = Vec::new();
    for p in prep
        .iter()
        .filter(|p| p.from == li && p.to.is_some() && p.feasible)
    {
        let Some(temps) = p.defs.iter().cloned().collect::<Option<Vec<LinExpr>>>() else {
            continue;
        };
        if p.inst.ne_sides.contains(&NeSide::Dropped) {
            continue;
        }
        let premise = set_rows(lin, p.m);
        let guard: Vec<Constraint> = p
            .guard
            .iter()
            .map(|g| Constraint::new(p.sub(&g.expr).expect("all defined"), g.rel))
            .collect();
        // a rule the set never enables covers nothing
        let mut both = premise.clone();
        both.extend(set_rows(&guard, p.m));
        if farkas::satisfiable(&both, limits, stats) == Some(false) {
            continue;
        }
        let mut implied = Vec::new();
        let mut open = Vec::new();
        for g in &guard {
            if g.expr.is_constant() {
                implied.push(Some(Vec::new()));
                continue;
            }
            let fs: Option<Vec<Farkas>> = set_rows(std::slice::from_ref(g), p.m)
                .iter()
                .map(|r| farkas::implication(&premise, &r.coeffs, &r.rhs, limits, stats))
                .collect();
            if fs.is_none() {
                open.extend(negations(&g.expr, g.rel));
            }
            implied.push(fs);
        }
        let rule = CoverRule {
            instance: p.inst.clone(),
            temps,
            implied,
        };
        if open.is_empty() {
            return Some((vec![rule], Vec::new()));
        }
        rules.push(rule);
        options.push(open);
    }
    let total = options.iter().try_fold(1usize, |t, o| {
        t.checked_mul(o.len()).filter(|t| *t <= MAX_CASES)
    })?;
    let m = its
        .location(its.rule(prep.iter().find(|p| p.from == li)?.inst.rule).from)
        .arity();
    let premise = set_rows(lin, m);
    let mut cases = Vec::new();
    for idx in 0..total {
        let mut rest = idx;
        let mut chosen = Vec::new();
        for o in options.iter().rev() {
            chosen.push(o[rest % o.len()].clone());
            rest /= o.len();
        }
        let mut rs = premise.clone();
        rs.extend(set_rows(&chosen, m));
        cases.push(no_integer_point(&rs, congr, m, limits, stats)?);
    }
    Some((rules, cases))
}
