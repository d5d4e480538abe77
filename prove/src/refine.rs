//! Location splits (control-flow refinement, as KoAT's): a location `ℓ` becomes two, `ℓ`
//! where a constraint `c` of its variables holds and a new `ℓ'` where it does not (over the
//! integers: `e ≤ 0` and `e ≥ 1`). Every rule out of `ℓ` is copied once per part with the
//! part's condition on the source; every rule into `ℓ` once per part with the condition on
//! its result. The two conditions cover every integer point and exclude each other, so every
//! run of the ITS is, location for location, a run of the refined ITS (choose the part that
//! holds) and back: the refined ITS terminates exactly when the original does.
//!
//! What it buys: a ranking function per part. `gcd`'s `while (b != 0) { t = a % b; a = b;
//! b = t; }` ranks with `|b|`, which is no affine function of one location, but is `b` where
//! `b ≥ 0` and `−b` where `b ≤ −1`.

use crate::its::{Its, LocId, Location, Rule, RuleId};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::q::Q;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

/// `location` split by `low` (a `≤` constraint over its variables): the location keeps the
/// points where `low` holds, a new location (appended) takes the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    pub location: LocId,
    pub low: Constraint,
}

impl Split {
    /// The condition of the new location's part: `¬(e ≤ 0)`, over the integers `e ≥ 1`
    /// (`e` has integer coefficients, checked by [`refine`]).
    pub fn high(&self) -> Constraint {
        let one = LinExpr::constant(Q::one());
        Constraint::new(one.minus(&self.low.expr), Rel::Le)
    }
}

/// Why a list of splits does not apply to an ITS.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    #[error("split {0}: unknown location, or the start (a run may begin anywhere there)")]
    Location(usize),
    #[error("split {0}: the condition must be a `<=` over the location's variables")]
    Condition(usize),
}

/// The refined ITS with the map back: `loc_origin[l]` and `rule_origin[r]` are the location
/// and rule of the original ITS that `l` and `r` come from; `loc_parts[l]` the splits'
/// conditions that hold at `l` (over its variables, those of its origin).
#[derive(Clone, Debug)]
pub struct Refined {
    pub its: Its,
    pub loc_origin: Vec<LocId>,
    pub loc_parts: Vec<Vec<Constraint>>,
    pub rule_origin: Vec<RuleId>,
}

/// The parts of `l` after splitting `s`: `(location, condition over its variables)`.
fn parts(s: &Split, new: LocId, l: LocId) -> Vec<(LocId, Option<Constraint>)> {
    if l == s.location {
        vec![(l, Some(s.low.clone())), (new, Some(s.high()))]
    } else {
        vec![(l, None)]
    }
}

fn names(l: &Location) -> Vec<&str> {
    l.vars.iter().map(String::as_str).collect()
}

/// Applies one split (validated by the caller).
fn split_one(its: &Its, s: &Split) -> (Its, Vec<RuleId>) {
    let start = its.location(its.start());
    let mut out = Its::new(&start.name, &names(start)).expect("a valid ITS's start");
    for (i, l) in its.locations().iter().enumerate() {
        if LocId(i as u32) != its.start() {
            out.add_location(&l.name, &names(l))
                .expect("a valid ITS's location");
        }
    }
    let old = its.location(s.location);
    let name = (1..)
        .map(|k| format!("{}_{k}", old.name))
        .find(|n| its.location_by_name(n).is_none())
        .expect("a free name");
    let new = out
        .add_location(&name, &names(old))
        .expect("a fresh valid name");
    let mut origin = Vec::new();
    for (r, rule) in its.rule_ids().zip(its.rules()) {
        for (from, on_source) in parts(s, new, rule.from) {
            for (to, on_target) in parts(s, new, rule.to) {
                let mut guard = rule.guard.clone();
                guard.extend(on_source.clone());
                guard.extend(
                    on_target
                        .as_ref()
                        .map(|c| c.substitute(&|v: Var| rule.args[v.index()].clone())),
                );
                out.add_rule(Rule {
                    from,
                    to,
                    guard,
                    ..rule.clone()
                })
                .expect("a copy of a valid rule");
                origin.push(r);
            }
        }
    }
    (out, origin)
}

/// Checks that every split applies in turn (each may name a location an earlier one added).
fn validate(its: &Its, splits: &[Split]) -> Result<(), SplitError> {
    let mut arities: Vec<usize> = its.locations().iter().map(Location::arity).collect();
    for (i, s) in splits.iter().enumerate() {
        let Some(&arity) = arities.get(s.location.index()) else {
            return Err(SplitError::Location(i));
        };
        if s.location == its.start() {
            return Err(SplitError::Location(i));
        }
        let integral = s
            .low
            .expr
            .terms
            .values()
            .chain(std::iter::once(&s.low.expr.constant))
            .all(Q::is_integer);
        if s.low.rel != Rel::Le || !integral || s.low.expr.vars().any(|v| v.index() >= arity) {
            return Err(SplitError::Condition(i));
        }
        arities.push(arity);
    }
    Ok(())
}

/// `its` with `splits` applied in order.
pub fn refine(its: &Its, splits: &[Split]) -> Result<Refined, SplitError> {
    validate(its, splits)?;
    let mut cur = Refined {
        its: its.clone(),
        loc_origin: (0..its.locations().len() as u32).map(LocId).collect(),
        loc_parts: vec![Vec::new(); its.locations().len()],
        rule_origin: its.rule_ids().collect(),
    };
    for s in splits {
        let (next, origin) = split_one(&cur.its, s);
        let l = s.location.index();
        cur.loc_origin.push(cur.loc_origin[l]);
        let mut high = cur.loc_parts[l].clone();
        high.push(s.high());
        cur.loc_parts[l].push(s.low.clone());
        cur.loc_parts.push(high);
        cur.rule_origin = origin.iter().map(|r| cur.rule_origin[r.index()]).collect();
        cur.its = next;
    }
    Ok(cur)
}

impl Refined {
    /// The refined rule a concrete application of original rule `r` takes: the copy whose
    /// guard holds on the source values `args` then temporaries `temps` (the splits'
    /// conditions select exactly one where the original guard holds); the first copy when
    /// none does, whose evaluation then reports the false guard.
    pub fn rule_of(&self, r: RuleId, args: &[BigInt], temps: &[BigInt]) -> Option<RuleId> {
        let all: Vec<Q> = args.iter().chain(temps).map(Q::from).collect();
        let holds = |c: &Constraint| c.holds(&|v: Var| all.get(v.index()).cloned()) == Some(true);
        let mut copies = self
            .its
            .rule_ids()
            .filter(|&c| self.rule_origin[c.index()] == r);
        let first = copies.next()?;
        let fits = |c: RuleId| self.its.rule(c).guard.iter().all(holds);
        Some(if fits(first) {
            first
        } else {
            copies.find(|&c| fits(c)).unwrap_or(first)
        })
    }
}
