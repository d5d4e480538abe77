//! Invariants of an ITS: per location, linear bounds that hold whenever a run from the start
//! reaches it — the interval of every variable (e.g. `x ≥ 1, y ≥ 1` at the head of the
//! subtractive gcd loop, whose guards alone allow `x, y ≤ 0`) and the difference of every pair
//! of variables a guard compares (`x − y ≤ 0` at `while (x != y) x++` entered with `y = x + 1`),
//! or `false` where no run arrives.
//!
//! Found by abstract interpretation over template polyhedra ([`templates`]): the start location
//! is unconstrained (a run starts with any values); a rule instance (`≠` sides resolved,
//! [`farkas::instances`]) maps the polyhedron of its source, conjoined with its guard, to a
//! bound of each template of its target, each an LP optimum ([`farkas::best_bound`]); the
//! bounds are joined per location and widened (a bound that still moves after [`WIDEN_AFTER`]
//! updates jumps to the next of a few thresholds taken from the guards, past the last it is
//! dropped). Then every bound is **certified**: for each instance `ℓ → ℓ'` and each bound `c`
//! of `ℓ'`, `inv(ℓ) ∧ guard ⇒ c(ē)` by Farkas multipliers (or the premise is infeasible); a
//! bound without a certificate is dropped and the check repeated, so what is kept is inductive
//! (`verify::verify_invariants` re-checks the multipliers). A ranking function may then assume
//! `inv(ℓ)` on every rule leaving `ℓ` ([`strengthen`]).

use crate::farkas::{self, instance_guard, rows_of, Farkas, Row, RuleInstance};
use crate::its::{Its, LocId, Rule};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Updates of one location's bounds after which a bound that still moves is widened.
pub(crate) const WIDEN_AFTER: usize = 3;

/// Simplex work the inference and certification may spend (deterministic; about a quarter of
/// the prover's default budget).
pub(crate) const INVARIANT_MAX_WORK: u64 = 10_000_000;

/// The invariant of one location: a conjunction of `≤` constraints over its variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationInvariant {
    pub location: LocId,
    pub bounds: Vec<Constraint>,
}

/// Why the invariant of a rule's target holds after one instance of the rule (its `≠` sides
/// resolved, as the ranking proofs split them): the premise is the source's invariant, then
/// the instance's guard, as rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantStep {
    pub instance: RuleInstance,
    pub proof: StepProof,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepProof {
    /// The premise is unsatisfiable (`λ·A = 0, λ·b < 0`): the instance never runs there.
    Infeasible(Farkas),
    /// Per bound of the target's invariant (in order): premise `⇒` the bound on the update.
    Bounds(Vec<Farkas>),
}

/// Inductive invariants with their certificates: steps for the instances of every rule into a
/// location with a non-empty invariant. Locations not listed have the invariant `true`; the start location
/// never has one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invariants {
    pub locations: Vec<LocationInvariant>,
    pub steps: Vec<InvariantStep>,
}

impl Invariants {
    pub fn is_empty(&self) -> bool {
        self.locations.is_empty()
    }

    /// The bounds at `l` (empty: `true`).
    pub fn at(&self, l: LocId) -> &[Constraint] {
        self.locations
            .iter()
            .find(|i| i.location == l)
            .map_or(&[], |i| i.bounds.as_slice())
    }
}

/// `its` with every rule's guard conjoined with its source's invariant (appended after the
/// guard, so the `≠` constraints and their instances are the same). Every run of `its` is a
/// run of the result when the invariants are inductive.
pub(crate) fn strengthen(its: &Its, inv: &Invariants) -> Its {
    let names = |l: LocId| -> Vec<&str> {
        its.location(l)
            .vars
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    };
    let start = its.location(its.start());
    let mut out = Its::new(&start.name, &names(its.start())).expect("a valid ITS's start");
    for (i, l) in its.locations().iter().enumerate() {
        if LocId(i as u32) != its.start() {
            out.add_location(&l.name, &names(LocId(i as u32)))
                .expect("a valid ITS's location");
        }
    }
    for rule in its.rules() {
        let mut guard = rule.guard.clone();
        guard.extend(inv.at(rule.from).iter().cloned());
        out.add_rule(Rule {
            guard,
            ..rule.clone()
        })
        .expect("a valid ITS's rule, with constraints over its source");
    }
    out
}

/// The linear forms whose upper bounds the inference tracks at one location: `−x` and `x` of
/// every variable (its interval), then `x − y` and `y − x` of the pairs of variables that are
/// compared (template polyhedra, Sankaranarayanan, Sipma & Manna 2005; the differences are the
/// octagon's, Miné 2006, restricted to the pairs that matter).
type Templates = Vec<LinExpr>;

/// An upper bound per template (`None`: unbounded).
type Bounds = Vec<Option<Q>>;

/// At most this many compared pairs per location get difference templates (each costs two LPs
/// per rule instance into the location).
pub(crate) const MAX_PAIRS: usize = 12;

/// The templates of every location: intervals of all variables; differences of the pairs of
/// variables that one constraint of a rule leaving the location compares (`x ≠ y`, `i < n`),
/// and, backwards, of the pairs of the source's variables that a rule copies into such a pair
/// (so that `y = x + 1` before a loop survives to its head, where `x ≠ y` is tested).
fn templates(its: &Its) -> Vec<Templates> {
    let n = its.locations().len();
    let arity = |l: LocId| its.location(l).arity();
    let mut pairs: Vec<BTreeSet<(usize, usize)>> = vec![BTreeSet::new(); n];
    let add = |set: &mut BTreeSet<(usize, usize)>, a: usize, b: usize| -> bool {
        a != b && set.len() < MAX_PAIRS && set.insert((a.min(b), a.max(b)))
    };
    for rule in its.rules() {
        let k = arity(rule.from);
        for c in &rule.guard {
            let vars: Vec<usize> = c
                .expr
                .vars()
                .map(|v| v.index())
                .filter(|&v| v < k)
                .collect();
            if vars.len() > 4 {
                continue;
            }
            for (i, &a) in vars.iter().enumerate() {
                for &b in &vars[i + 1..] {
                    add(&mut pairs[rule.from.index()], a, b);
                }
            }
        }
    }
    // a target's pair of copies `(u + c, v + d)` is a pair `(u, v)` of the source
    let copy = copied_var;
    let mut changed = true;
    while changed {
        changed = false;
        for rule in its.rules() {
            let k = arity(rule.from);
            let wanted: Vec<(usize, usize)> = pairs[rule.to.index()]
                .iter()
                .filter_map(|&(a, b)| Some((copy(&rule.args[a], k)?, copy(&rule.args[b], k)?)))
                .collect();
            for (u, v) in wanted {
                changed |= add(&mut pairs[rule.from.index()], u, v);
            }
        }
    }
    (0..n)
        .map(|l| {
            let x = |j: usize| LinExpr::var(Var(j as u32));
            let mut t = Vec::new();
            for j in 0..arity(LocId(l as u32)) {
                t.push(x(j).scaled(&-Q::one()));
                t.push(x(j));
            }
            for &(a, b) in &pairs[l] {
                t.push(x(a).minus(&x(b)));
                t.push(x(b).minus(&x(a)));
            }
            t
        })
        .collect()
}

/// The variable `u` (of the first `k`) that `e` is a copy of: `e = u + c`.
pub(crate) fn copied_var(e: &LinExpr, k: usize) -> Option<usize> {
    let mut terms = e.terms.iter();
    match (terms.next(), terms.next()) {
        (Some((v, c)), None) if *c == Q::one() && v.index() < k => Some(v.index()),
        _ => None,
    }
}

fn bound_constraints(templates: &Templates, b: &Bounds) -> Vec<Constraint> {
    templates
        .iter()
        .zip(b)
        .filter_map(|(t, c)| Some(Constraint::le(t, &LinExpr::constant(c.clone()?))))
        .collect()
}

/// Rows of `inv` (over the rule's variables) followed by the instance's guard.
fn premise_rows(its: &Its, inst: &RuleInstance, inv: &[Constraint]) -> Vec<Row> {
    let n = its.rule(inst.rule).var_count(its);
    let mut guard: Vec<Option<Constraint>> = inv.iter().cloned().map(Some).collect();
    guard.extend(instance_guard(its, inst));
    rows_of(&guard, n)
}

/// Infers and certifies interval invariants; `None` when nothing non-trivial is kept or the
/// work bound [`INVARIANT_MAX_WORK`] was spent.
/// `max_ne_split` as in [`farkas::instances`].
pub fn infer(its: &Its, max_ne_split: usize, limits: &Limits) -> Option<Invariants> {
    let limits = Limits {
        max_work: INVARIANT_MAX_WORK,
        ..*limits
    };
    let mut stats = LpStats::default();
    let (bounds, steps) = certified_bounds(its, &[], max_ne_split, &limits, &mut stats)?;
    let locations: Vec<LocationInvariant> = bounds
        .into_iter()
        .enumerate()
        .filter(|(_, b)| !b.is_empty())
        .map(|(i, b)| LocationInvariant {
            location: LocId(i as u32),
            bounds: b,
        })
        .collect();
    if locations.is_empty() {
        return None;
    }
    let with: BTreeSet<LocId> = locations.iter().map(|l| l.location).collect();
    Some(Invariants {
        locations,
        steps: steps
            .into_iter()
            .filter(|s| with.contains(&its.rule(s.instance.rule).to))
            .collect(),
    })
}

/// The certified template bounds of every location (`t ≤ c`; `false` where no run arrives,
/// nothing at the start) with the certificates of their steps, the templates of location `l`
/// extended by `extra[l]` (if given). `None`: the work bound was spent.
pub(crate) fn certified_bounds(
    its: &Its,
    extra: &[Vec<LinExpr>],
    max_ne_split: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<(Vec<Vec<Constraint>>, Vec<InvariantStep>)> {
    let mut templates = templates(its);
    for (t, more) in templates.iter_mut().zip(extra) {
        t.extend(more.iter().cloned());
    }
    let boxes = propagate(its, &templates, max_ne_split, limits, stats)?;
    let mut bounds: Vec<Vec<Constraint>> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| match b {
            _ if LocId(i as u32) == its.start() => Vec::new(),
            Some(b) => bound_constraints(&templates[i], b),
            // no run reaches it (every rule into it is infeasible where it starts): `false`,
            // certified like every bound, so that its rules drop out of the ranking proofs
            None => vec![Constraint::le(&LinExpr::constant(1), &LinExpr::zero())],
        })
        .collect();
    let steps = certify(its, max_ne_split, &mut bounds, limits, stats)?;
    Some((bounds, steps))
}

/// The template bounds of the reachable locations (`None`: not reached), a post-fixpoint up
/// to widening.
fn propagate(
    its: &Its,
    templates: &[Templates],
    max_ne_split: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<Option<Bounds>>> {
    let n = its.locations().len();
    let mut bounds: Vec<Option<Bounds>> = vec![None; n];
    let mut updates = vec![0usize; n];
    let start = its.start();
    bounds[start.index()] = Some(vec![None; templates[start.index()].len()]);
    let outgoing = its.outgoing();
    let thresholds = thresholds(its);
    let mut work: BTreeSet<LocId> = [start].into();
    while let Some(l) = work.pop_first() {
        let Some(src) = bounds[l.index()].clone() else {
            continue;
        };
        let insts = outgoing
            .get(&l)
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .flat_map(|&r| farkas::instances(its, r, max_ne_split));
        for inst in insts {
            let rule = its.rule(inst.rule);
            let premise = bound_constraints(&templates[l.index()], &src);
            let rows = premise_rows(its, &inst, &premise);
            match farkas::satisfiable(&rows, limits, stats) {
                None => return None,
                Some(false) => continue,
                Some(true) => {}
            }
            let nv = rule.var_count(its);
            let t = rule.to.index();
            let mut image = Vec::with_capacity(templates[t].len());
            for tpl in &templates[t] {
                // the template over the target's variables, y = ē: Σ t_k·ē_k
                let mut e = LinExpr::constant(tpl.constant.clone());
                for (v, c) in &tpl.terms {
                    e.add_scaled(&rule.args[v.index()], c);
                }
                let up = farkas::best_bound(&rows, &farkas::dense(&e, nv), limits, stats)
                    .ok()?
                    .map(|(v, _)| Q::from((&v + &e.constant).floor()));
                image.push(up);
            }
            let joined = match &bounds[t] {
                None => image,
                Some(old) => {
                    let widen = (updates[t] >= WIDEN_AFTER).then_some(&thresholds);
                    join(old, &image, widen)
                }
            };
            if bounds[t].as_ref() != Some(&joined) {
                bounds[t] = Some(joined);
                updates[t] += 1;
                work.insert(rule.to);
            }
        }
    }
    Some(bounds)
}

/// The values a widened bound may stop at (widening with thresholds, Blanchet et al. 2003):
/// −1, 0, 1 and, for every constant `c` of a guard, `c − 1`, `c`, `c + 1` and their
/// negations (a guard `x − y < 0` puts the loop's `x − y` at most 0 on the way out).
fn thresholds(its: &Its) -> Vec<Q> {
    let mut t: BTreeSet<Q> = [-Q::one(), Q::zero(), Q::one()].into();
    for c in its.rules().iter().flat_map(|r| &r.guard) {
        let k = &c.expr.constant;
        for v in [k - &Q::one(), k.clone(), k + &Q::one()] {
            t.insert(-&v);
            t.insert(v);
        }
    }
    t.into_iter().collect()
}

/// The hull of two template polyhedra (the larger bound of each template); `widen`: a bound
/// of `old` that the hull moves goes up to the next threshold, or is dropped past the last.
fn join(old: &Bounds, new: &Bounds, widen: Option<&Vec<Q>>) -> Bounds {
    old.iter()
        .zip(new)
        .map(|(a, b)| {
            let (a, b) = (a.as_ref()?, b.as_ref()?);
            if a >= b {
                return Some(a.clone());
            }
            match widen {
                None => Some(b.clone()),
                Some(ts) => ts.iter().find(|&t| t >= b).cloned(),
            }
        })
        .collect()
}

/// Drops bounds until every remaining one is implied after every rule instance into its
/// location; returns the steps' certificates. `None`: the work bound was spent.
fn certify(
    its: &Its,
    max_ne_split: usize,
    bounds: &mut [Vec<Constraint>],
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<InvariantStep>> {
    let insts: Vec<RuleInstance> = its
        .rule_ids()
        .flat_map(|r| farkas::instances(its, r, max_ne_split))
        .collect();
    loop {
        let mut steps = Vec::new();
        let mut changed = false;
        for inst in &insts {
            let rule = its.rule(inst.rule);
            let target = &bounds[rule.to.index()];
            if target.is_empty() {
                continue;
            }
            let rows = premise_rows(its, inst, &bounds[rule.from.index()]);
            if let Some(f) = farkas::infeasibility(&rows, limits, stats) {
                steps.push(InvariantStep {
                    instance: inst.clone(),
                    proof: StepProof::Infeasible(f),
                });
                continue;
            }
            let nv = rule.var_count(its);
            let arity = its.location(rule.to).arity();
            let mut proofs = Vec::new();
            let mut keep = Vec::new();
            for c in target {
                // the bound's row b·y ≤ d at the target, y = ē: (b·ē − b·ē₀)·x ≤ d − b·ē₀
                let row = &rows_of(&[Some(c.clone())], arity)[0];
                let mut image = LinExpr::zero();
                for (k, bk) in row.coeffs.iter().enumerate() {
                    image.add_scaled(&rule.args[k], bk);
                }
                let a = farkas::dense(&image, nv);
                let d = &row.rhs - &image.constant;
                match farkas::implication(&rows, &a, &d, limits, stats) {
                    Some(f) => {
                        proofs.push(f);
                        keep.push(c.clone());
                    }
                    None if stats.work_spent(limits) => return None,
                    None => changed = true,
                }
            }
            bounds[rule.to.index()] = keep;
            steps.push(InvariantStep {
                instance: inst.clone(),
                proof: StepProof::Bounds(proofs),
            });
        }
        if !changed {
            return Some(steps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::its::RuleId;
    use crate::koat::parse_koat;

    /// The subtractive gcd with its entry check: `x, y ≥ 1` at the loop head.
    fn gcd() -> Its {
        parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
             (RULES start(x, y) -> f(x, y) :|: x > 0 && y > 0
                    f(x, y) -> f(x - y, y) :|: x > y
                    f(x, y) -> f(x, y - x) :|: y > x)",
        )
        .unwrap()
    }

    #[test]
    fn the_gcd_loop_head_keeps_both_operands_positive() {
        let its = gcd();
        let inv = infer(&its, 4, &Limits::default()).expect("bounds at f");
        let f = its.location_by_name("f").unwrap();
        let x = LinExpr::var(Var(0));
        let y = LinExpr::var(Var(1));
        let one = LinExpr::constant(1);
        assert_eq!(
            inv.at(f),
            &[Constraint::ge(&x, &one), Constraint::ge(&y, &one)]
        );
        assert!(inv.at(its.start()).is_empty());
        // one step per rule into f, one proof per bound
        assert_eq!(inv.steps.len(), 3);
        assert!(inv
            .steps
            .iter()
            .all(|s| matches!(&s.proof, StepProof::Bounds(p) if p.len() == 2)));
        let strong = strengthen(&its, &inv);
        assert_eq!(strong.rule(RuleId(1)).guard.len(), 3);
        assert_eq!(strong.rule(RuleId(0)).guard, its.rule(RuleId(0)).guard);
    }

    #[test]
    fn a_growing_bound_is_widened_away() {
        // x counts up from 0 without bound: x ≥ 0 stays, no upper bound is kept
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> f(0)
                    f(x) -> f(x + 1))",
        )
        .unwrap();
        let inv = infer(&its, 4, &Limits::default()).unwrap();
        let f = its.location_by_name("f").unwrap();
        let x = LinExpr::var(Var(0));
        assert_eq!(inv.at(f), &[Constraint::ge(&x, &LinExpr::zero())]);
    }

    #[test]
    fn nothing_to_keep_is_none() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> f(x)
                    f(x) -> f(x - 1) :|: x > 0)",
        )
        .unwrap();
        assert_eq!(infer(&its, 4, &Limits::default()), None);
    }

    /// `y = x + 5` before a loop `while (x != y) x++`: the difference of the compared pair is
    /// kept (`x − y ≤ 0`), which no box shows, and the loop is YES with it.
    #[test]
    fn a_compared_pair_keeps_its_difference() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
             (RULES start(x, y) -> f(x, x + 5)
                    f(x, y) -> f(x + 1, y) :|: x != y)",
        )
        .unwrap();
        let inv = infer(&its, 4, &Limits::default()).expect("an invariant at f");
        let f = its.location_by_name("f").unwrap();
        let (x, y) = (LinExpr::var(Var(0)), LinExpr::var(Var(1)));
        assert!(
            inv.at(f).contains(&Constraint::le(&x, &y)),
            "{:?}",
            inv.at(f)
        );
        crate::verify::verify_invariants(&its, &inv).expect("certified");
        let p = crate::prove(&its, &crate::Options::default());
        assert_eq!(p.verdict, crate::Verdict::Yes);
    }

    /// The same loop entered with any `x, y`: no difference holds, and `x > y` runs forever.
    #[test]
    fn an_unrelated_pair_gets_no_difference() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
             (RULES start(x, y) -> f(x, y)
                    f(x, y) -> f(x + 1, y) :|: x != y)",
        )
        .unwrap();
        assert_eq!(infer(&its, 4, &Limits::default()), None);
        let p = crate::prove(&its, &crate::Options::default());
        assert_eq!(p.verdict, crate::Verdict::No);
    }

    /// A location no run reaches gets the invariant `false`, so its cycle needs no ranking
    /// function (a loop head the graph keeps although the first iteration always leaves).
    #[test]
    fn an_unreachable_location_is_false() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> f(x) :|: x < 0 && x > 0
                    f(x) -> f(x + 1))",
        )
        .unwrap();
        let inv = infer(&its, 4, &Limits::default()).expect("false at f");
        let f = its.location_by_name("f").unwrap();
        let one = LinExpr::constant(1);
        assert_eq!(inv.at(f), &[Constraint::le(&one, &LinExpr::zero())]);
        crate::verify::verify_invariants(&its, &inv).expect("certified");
        let p = crate::prove(&its, &crate::Options::default());
        assert_eq!(p.verdict, crate::Verdict::Yes);
    }
}
