//! Interval invariants of an ITS: per location, lower and upper bounds of its variables that
//! hold whenever a run from the start reaches it (e.g. `x ≥ 1, y ≥ 1` at the head of the
//! subtractive gcd loop, whose guards alone allow `x, y ≤ 0`).
//!
//! Found by abstract interpretation over intervals: the start location is unconstrained (a run
//! starts with any values); a rule instance (`≠` sides resolved, [`farkas::instances`]) maps
//! the box of its source, conjoined with its guard, to the box of its target, each bound an LP
//! optimum ([`farkas::best_bound`]); the boxes are joined per location and widened (a bound
//! that still moves after [`WIDEN_AFTER`] updates is dropped). Then every bound is
//! **certified**: for each instance `ℓ → ℓ'` and each bound `c` of `ℓ'`,
//! `inv(ℓ) ∧ guard ⇒ c(ē)` by Farkas multipliers (or the premise is infeasible); a bound
//! without a certificate is dropped and the check repeated, so what is kept is inductive
//! (`verify::verify_invariants` re-checks the multipliers). A ranking function may then assume
//! `inv(ℓ)` on every rule leaving `ℓ` ([`strengthen`]).

use crate::farkas::{self, instance_guard, rows_of, Farkas, Row, RuleInstance};
use crate::its::{Its, LocId, Rule};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::lp::{Limits, LpStats};
use crate::q::Q;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Updates of one location's box after which a bound that still moves is dropped.
pub const WIDEN_AFTER: usize = 3;

/// Simplex work the inference and certification may spend (deterministic; about a quarter of
/// the prover's default budget).
pub const INVARIANT_MAX_WORK: u64 = 10_000_000;

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
pub fn strengthen(its: &Its, inv: &Invariants) -> Its {
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

/// One interval per variable (`None`: unbounded on that side).
type Bounds = Vec<(Option<Q>, Option<Q>)>;

fn box_constraints(b: &Bounds) -> Vec<Constraint> {
    let mut out = Vec::new();
    for (j, (lo, hi)) in b.iter().enumerate() {
        let x = LinExpr::var(Var(j as u32));
        if let Some(lo) = lo {
            out.push(Constraint::ge(&x, &LinExpr::constant(lo.clone())));
        }
        if let Some(hi) = hi {
            out.push(Constraint::le(&x, &LinExpr::constant(hi.clone())));
        }
    }
    out
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
    let boxes = propagate(its, max_ne_split, &limits, &mut stats)?;
    let mut bounds: Vec<Vec<Constraint>> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| match b {
            Some(b) if LocId(i as u32) != its.start() => box_constraints(b),
            _ => Vec::new(),
        })
        .collect();
    let steps = certify(its, max_ne_split, &mut bounds, &limits, &mut stats)?;
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

/// The boxes of the reachable locations (`None`: not reached), a post-fixpoint up to widening.
fn propagate(
    its: &Its,
    max_ne_split: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<Option<Bounds>>> {
    let n = its.locations().len();
    let mut boxes: Vec<Option<Bounds>> = vec![None; n];
    let mut updates = vec![0usize; n];
    let start = its.start();
    boxes[start.index()] = Some(vec![(None, None); its.location(start).arity()]);
    let outgoing = its.outgoing();
    let mut work: BTreeSet<LocId> = [start].into();
    while let Some(l) = work.pop_first() {
        let Some(src) = boxes[l.index()].clone() else {
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
            let rows = premise_rows(its, &inst, &box_constraints(&src));
            match farkas::satisfiable(&rows, limits, stats) {
                None => return None,
                Some(false) => continue,
                Some(true) => {}
            }
            let nv = rule.var_count(its);
            let mut image = Vec::with_capacity(rule.args.len());
            for e in &rule.args {
                let up = farkas::best_bound(&rows, &farkas::dense(e, nv), limits, stats)
                    .ok()?
                    .map(|(v, _)| Q::from((&v + &e.constant).floor()));
                let neg = e.scaled(&-Q::one());
                let down = farkas::best_bound(&rows, &farkas::dense(&neg, nv), limits, stats)
                    .ok()?
                    .map(|(v, _)| Q::from((&-&v + &e.constant).ceil()));
                image.push((down, up));
            }
            let t = rule.to.index();
            let joined = match &boxes[t] {
                None => image,
                Some(old) => {
                    let widen = updates[t] >= WIDEN_AFTER;
                    join(old, &image, widen)
                }
            };
            if boxes[t].as_ref() != Some(&joined) {
                boxes[t] = Some(joined);
                updates[t] += 1;
                work.insert(rule.to);
            }
        }
    }
    Some(boxes)
}

/// The hull of two boxes; with `widen`, a bound of `old` that the hull moves is dropped.
fn join(old: &Bounds, new: &Bounds, widen: bool) -> Bounds {
    let side = |a: &Option<Q>, b: &Option<Q>, lower: bool| -> Option<Q> {
        let (a, b) = (a.as_ref()?, b.as_ref()?);
        let keep_a = if lower { a <= b } else { a >= b };
        if keep_a {
            Some(a.clone())
        } else if widen {
            None
        } else {
            Some(b.clone())
        }
    };
    old.iter()
        .zip(new)
        .map(|((l0, h0), (l1, h1))| (side(l0, l1, true), side(h0, h1, false)))
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
}
