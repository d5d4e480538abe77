//! Candidate closed sets from a concrete cycle of the ITS.
//!
//! A loop that runs forever through several branches in turn (`while (i > 10) { if (i == 25)
//! i = 30; if (i <= 30) i--; else i = 20; }` from `i = 26`: 25, 29, 28, 27, 26, 25, …) has no
//! recurrent set around one simple cycle, and the ranges and exits of `mod.rs` give no set
//! either (the set is `25 ≤ i ≤ 29`, bounds no single rule states). Run the ITS itself from a
//! few start values (the constants of its guards and updates, every variable alike, the first
//! enabled rule at each step) until a state repeats; the box hull of the repeating states at
//! each location is a candidate, which `certify` then proves closed under *every* rule (or
//! rejects), as any other candidate. A candidate only: nothing here is trusted.

use crate::its::{Its, LocId, RuleId};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::q::Q;
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Steps of one concrete run.
const MAX_STEPS: usize = 2_000;
/// Start values tried.
const MAX_SEEDS: usize = 24;
/// Candidates returned.
const MAX_BOXES: usize = 4;
/// A run whose values leave this range is abandoned (a repetition is what is looked for).
const MAX_ABS: i64 = 1 << 40;

/// Per location of `locs` (in order), the box hull of the states of a concrete cycle that
/// visits exactly the locations `locs`: up to [`MAX_BOXES`] different ones.
pub(super) fn cycle_boxes(its: &Its, locs: &[LocId]) -> Vec<Vec<Vec<Constraint>>> {
    let mut out: Vec<Vec<Vec<Constraint>>> = Vec::new();
    let mut out_rules: BTreeMap<LocId, Vec<RuleId>> = BTreeMap::new();
    for r in its.rule_ids() {
        out_rules.entry(its.rule(r).from).or_default().push(r);
    }
    let wanted: BTreeSet<LocId> = locs.iter().copied().collect();
    for seed in seeds(its) {
        let Some(cycle) = run_to_cycle(its, &out_rules, &seed) else {
            continue;
        };
        let visited: BTreeSet<LocId> = cycle.iter().map(|(l, _)| *l).collect();
        if visited != wanted {
            continue;
        }
        let boxes: Vec<Vec<Constraint>> = locs
            .iter()
            .map(|l| hull(cycle.iter().filter(|(k, _)| k == l).map(|(_, v)| v)))
            .collect();
        if !out.contains(&boxes) {
            out.push(boxes);
            if out.len() == MAX_BOXES {
                break;
            }
        }
    }
    out
}

/// The start values tried: every variable (and every temporary) the same constant, for 0, 1
/// and each integer constant of a guard or an update (with its neighbours), in order.
fn seeds(its: &Its) -> Vec<BigInt> {
    let mut cs: BTreeSet<BigInt> = [0, 1].into_iter().map(BigInt::from).collect();
    let mut add = |q: &Q| {
        if let Some(n) = q.to_integer() {
            for d in [-1, 0, 1] {
                cs.insert(&n + d);
            }
        }
    };
    for r in its.rules() {
        for c in &r.guard {
            // `a·x + c ⋈ 0` over one variable with a = ±1: the boundary `x = ∓c`
            if c.expr.terms.len() == 1 && c.expr.terms.values().all(|a| a.abs().is_one()) {
                add(&c.expr.constant);
                add(&-c.expr.constant.clone());
            }
        }
        for a in &r.args {
            add(&a.constant);
        }
    }
    let mut v: Vec<BigInt> = cs.into_iter().collect();
    // small magnitudes first: the constants of a loop rather than of the int range
    v.sort_by_key(|n| (n.magnitude().clone(), n.sign() == num_bigint::Sign::Minus));
    v.truncate(MAX_SEEDS);
    v
}

/// The states of the first repeating stretch of the run from the start with every value
/// `seed`, or `None` if the run ends, leaves [`MAX_ABS`] or does not repeat in time.
fn run_to_cycle(
    its: &Its,
    out_rules: &BTreeMap<LocId, Vec<RuleId>>,
    seed: &BigInt,
) -> Option<Vec<(LocId, Vec<BigInt>)>> {
    let mut loc = its.start();
    let mut vals = vec![seed.clone(); its.location(loc).arity()];
    let mut seen: HashMap<(LocId, Vec<BigInt>), usize> = HashMap::new();
    let mut trace: Vec<(LocId, Vec<BigInt>)> = Vec::new();
    let limit = BigInt::from(MAX_ABS);
    for i in 0..MAX_STEPS {
        if let Some(&first) = seen.get(&(loc, vals.clone())) {
            return Some(trace.split_off(first));
        }
        seen.insert((loc, vals.clone()), i);
        trace.push((loc, vals.clone()));
        let next = out_rules.get(&loc)?.iter().find_map(|&r| {
            let temps = vec![seed.clone(); its.rule(r).temps.len()];
            its.step(r, &vals, &temps).ok().flatten().map(|v| (r, v))
        });
        let (r, v) = next?;
        if v.iter().any(|x| x.magnitude() > limit.magnitude()) {
            return None;
        }
        loc = its.rule(r).to;
        vals = v;
    }
    None
}

/// `lo ≤ x_j ≤ hi` per variable over `states` (nonempty).
fn hull<'a>(mut states: impl Iterator<Item = &'a Vec<BigInt>>) -> Vec<Constraint> {
    let Some(first) = states.next() else {
        return Vec::new();
    };
    let mut bounds: Vec<(BigInt, BigInt)> = first.iter().map(|v| (v.clone(), v.clone())).collect();
    for s in states {
        for ((lo, hi), v) in bounds.iter_mut().zip(s) {
            if v < lo {
                *lo = v.clone();
            }
            if v > hi {
                *hi = v.clone();
            }
        }
    }
    let mut out = Vec::new();
    for (j, (lo, hi)) in bounds.into_iter().enumerate() {
        let x = LinExpr::var(Var(j as u32));
        out.push(Constraint::ge(&x, &LinExpr::constant(Q::from(lo))));
        out.push(Constraint::le(&x, &LinExpr::constant(Q::from(hi))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koat::parse_koat;

    /// The Velroyen08 `sunset` loop as the graph's ITS has it.
    fn sunset() -> Its {
        parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR i) (RULES
              start(i) -> h(i) :|: 0 <= i
              h(i) -> e() :|: i <= 10
              h(i) -> h(i - 1) :|: 11 <= i && i <= 24
              h(i) -> m(30) :|: i = 25
              h(i) -> m(i) :|: 26 <= i
              m(i) -> h(i - 1) :|: 26 <= i && i <= 30
              m(i) -> h(20) :|: 31 <= i)",
        )
        .unwrap()
    }

    #[test]
    fn the_sunset_cycle_gives_its_boxes() {
        let its = sunset();
        let h = its.location_by_name("h").unwrap();
        let m = its.location_by_name("m").unwrap();
        let boxes = cycle_boxes(&its, &[h, m]);
        let x = LinExpr::var(Var(0));
        let within = |lo: i64, hi: i64| {
            vec![
                Constraint::ge(&x, &LinExpr::constant(Q::int(lo))),
                Constraint::le(&x, &LinExpr::constant(Q::int(hi))),
            ]
        };
        assert_eq!(boxes, vec![vec![within(25, 29), within(26, 30)]]);
    }

    #[test]
    fn a_terminating_loop_has_no_cycle() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR i) (RULES
              start(i) -> h(i)
              h(i) -> h(i - 1) :|: i > 0)",
        )
        .unwrap();
        let h = its.location_by_name("h").unwrap();
        assert!(cycle_boxes(&its, &[h]).is_empty());
    }
}
