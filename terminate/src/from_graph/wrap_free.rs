//! Counters no run can wrap, by the locations' invariants (`--ints java`, docs/proving.md,
//! *Java ints*). A rule's guard often lacks the test that keeps its counter in range: the
//! loop `for (i = 0; i < n; i++)` tests `i < n` on the rule into the body and increments on
//! the rule back to the head, and a nested loop's rules in between carry neither. Where every
//! run that reaches the rule's source satisfies `i + 1 ≤ MAX`, the wrap case is dead, and
//! splitting the rule only adds rules with `2³²` constants that choke the exact LPs.
//!
//! The facts are the no-wrap conditions themselves (`value ≤ hi`, `value ≥ lo` over the
//! source's variables), carried back through the rules into their sources, then kept only
//! where they are inductive (Houdini): every rule into the location, from the start or from a
//! location whose kept facts it may assume, implies the fact on its result (Farkas, over the
//! rule's full guard with every integer's range). By induction on the length of a run, every
//! state a run reaches at a location satisfies its kept facts; so Java's result of a counter
//! whose no-wrap fact holds at its rule's source is the exact value on that side (its `m` in
//! `e − m·2³²` is 0 there, `ranged.rs`). The facts are found on the ITS before these updates
//! are made exact, whose runs include the ITS's after: they stay invariants.

use super::quantity::Quantity;
use super::ranged::{within, RangedUpdate};
use super::relevance::{same_locations, weak_bound};
use super::step::type_range;
use super::RuleOrigin;
use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::IntSemantics;
use jtg_prove::lp::Limits;
use jtg_prove::{infer_invariants, verify_invariants, Invariants};
use jtg_prove::{Constraint, Entailment, Its, LinExpr, Rel, Rule, Var, Q};

/// Work budget of all the implication LPs of one encoding (deterministic). Past it a fact
/// is not shown implied and is dropped: fewer exact updates, never a wrong one.
const WORK: u64 = 20_000_000;

/// At most this many facts per location.
const MAX_FACTS: usize = 12;

/// At most this many differences per location besides ([`difference_candidates`]).
const MAX_DIFFERENCES: usize = 40;

/// The rules apart from their origins, each with only the candidates a run may read
/// (`read`, from `relevance.rs`); the others stay inexact.
pub(super) fn read_candidates(
    live: Vec<(Rule, RuleOrigin)>,
    read: Vec<Vec<bool>>,
) -> (Vec<(Rule, Vec<RangedUpdate>)>, Vec<RuleOrigin>) {
    live.into_iter()
        .zip(read)
        .map(|((r, mut o), read)| {
            let ranged = std::mem::take(&mut o.ranged).into_iter().zip(read);
            let ranged: Vec<_> = ranged.filter_map(|(u, read)| read.then_some(u)).collect();
            ((r, ranged), o)
        })
        .unzip()
}

/// Narrows the wrap sides of each rule's candidates (`rules`: rules of `its` with the
/// candidates a run may read) to those the source's invariants leave possible; a candidate
/// with none left becomes the exact update `r = value` in its rule's guard.
pub(super) fn exact_by_invariants(
    its: &Its,
    ranges: &[Vec<Constraint>],
    rules: &mut [(Rule, Vec<RangedUpdate>)],
) {
    if rules.iter().all(|(_, c)| c.is_empty()) {
        return;
    }
    let mut lp = Entailment::new(WORK);
    let facts = invariant_facts(its, ranges, rules, &mut lp, false);
    narrow(its, ranges, rules, &facts, &mut lp);
    // where counters are left, once more with the bounds and differences of their variables
    if rules.iter().any(|(_, c)| !c.is_empty()) {
        if let Some(facts) = differences(its, ranges, rules) {
            narrow(its, ranges, rules, &facts, &mut lp);
        }
    }
}

/// The facts of [`invariant_facts`] with the bounds and differences of
/// [`difference_candidates`], on a work budget of their own; `None` where it did not suffice
/// (then a question may have been answered `false` for it, and the Houdini facts are not
/// known inductive). They include those without: Houdini keeps the greatest inductive subset
/// of its candidates.
fn differences(
    its: &Its,
    ranges: &[Vec<Constraint>],
    rules: &[(Rule, Vec<RangedUpdate>)],
) -> Option<Vec<Vec<Constraint>>> {
    let mut own = Entailment::new(WORK);
    let facts = invariant_facts(its, ranges, rules, &mut own, true);
    (!own.exhausted()).then_some(facts)
}

/// Narrows the candidates of `rules` by the locations' `facts` ([`exact_by_invariants`]).
fn narrow(
    its: &Its,
    ranges: &[Vec<Constraint>],
    rules: &mut [(Rule, Vec<RangedUpdate>)],
    facts: &[Vec<Constraint>],
    lp: &mut Entailment,
) {
    for (rule, cands) in rules.iter_mut() {
        let from = rule.from.index();
        let mut premises = premises(rule, ranges, facts);
        let n = rule.var_count(its);
        let mut open = Vec::new();
        for u in std::mem::take(cands) {
            let mut sides = u.sides();
            for (side, c) in u.no_wrap() {
                if facts[from].contains(&c) || entails(lp, &premises, &c.expr, c.rel, n) {
                    sides.above &= !side.above;
                    sides.below &= !side.below;
                }
            }
            if sides.any() {
                open.push(u.on_sides(sides));
            } else {
                let exact = Constraint::eq(u.result(), u.value());
                rule.guard.push(exact.clone());
                premises.push(exact);
            }
        }
        *cands = open;
    }
}

/// Rounds of invariant inference at most in [`exact_by_certified_invariants`]; past them
/// nothing is made exact there (deterministic, and each round is one inference).
const MAX_ROUNDS: usize = 4;

/// `≠` constraints of a rule split into their sides by the invariant inference (as the
/// prover's default).
const MAX_NE_SPLIT: usize = 4;

/// Makes exact the candidates (`rules`, over `its`'s locations) that no run can wrap by the
/// certified invariants of the ITS in which they are exact (docs/proving-java-ints.md,
/// *Overflow-freedom from the invariants*). The set `P` of candidates assumed exact starts
/// with all of them; each round infers and certifies the invariants of the *optimistic* ITS
/// (`P`'s updates exact, the others inexact, the bounds as weak as an int's range dropped)
/// and keeps in `P` the candidates whose wrap counts `m ≥ 1`, `m ≤ −1` the rule's guard, its
/// source's ranges and invariant rule out; at the fixpoint `P` is made exact. By induction on
/// a run's length, a Java run is a run of the optimistic ITS: its states satisfy the
/// invariants, so at each rule the candidates of `P` have `m = 0` — exact, as the optimistic
/// rule says — and the others are inexact there. Nothing is assumed of a candidate of the
/// same rule (its result is only in its range), so no two candidates justify each other.
pub(super) fn exact_by_certified_invariants(
    its: &Its,
    ranges: &[Vec<Constraint>],
    rules: &mut [(Rule, Vec<RangedUpdate>)],
) {
    if rules.iter().all(|(_, c)| c.is_empty()) {
        return;
    }
    let mut assumed: Vec<Vec<bool>> = rules.iter().map(|(_, c)| vec![true; c.len()]).collect();
    let mut lp = Entailment::new(WORK);
    for _ in 0..MAX_ROUNDS {
        let inv = optimistic_invariants(its, rules, &assumed);
        // the differences that are invariants of the optimistic ITS too (Houdini on its rules)
        let optimistic: Vec<(Rule, Vec<RangedUpdate>)> = rules
            .iter()
            .zip(&assumed)
            .map(|((rule, cands), assumed)| {
                let mut r = rule.clone();
                let exact = cands.iter().zip(assumed).filter(|(_, a)| **a);
                r.guard
                    .extend(exact.map(|(u, _)| Constraint::eq(u.result(), u.value())));
                (r, cands.clone())
            })
            .collect();
        let facts = differences(its, ranges, &optimistic).unwrap_or_default();
        if inv.is_none() && facts.iter().all(Vec::is_empty) {
            return;
        }
        let fact_at = |l: usize| facts.get(l).into_iter().flatten().cloned();
        let mut dropped = false;
        for ((rule, cands), assumed) in rules.iter().zip(&mut assumed) {
            let mut premises = rule.guard.clone();
            premises.extend(ranges.get(rule.from.index()).into_iter().flatten().cloned());
            if let Some(inv) = &inv {
                premises.extend(inv.at(rule.from).iter().cloned());
            }
            premises.extend(fact_at(rule.from.index()));
            let n = rule.var_count(its);
            for (u, a) in cands.iter().zip(assumed.iter_mut()) {
                if *a && !cannot_wrap(&mut lp, &premises, u, n) {
                    *a = false;
                    dropped = true;
                }
            }
        }
        if !assumed.iter().flatten().any(|&a| a) {
            return;
        }
        if !dropped {
            for ((rule, cands), assumed) in rules.iter_mut().zip(assumed) {
                let (exact, open): (Vec<_>, Vec<_>) = std::mem::take(cands)
                    .into_iter()
                    .zip(assumed)
                    .partition(|(_, a)| *a);
                let eqs = exact
                    .iter()
                    .map(|(u, _)| Constraint::eq(u.result(), u.value()));
                rule.guard.extend(eqs);
                *cands = open.into_iter().map(|(u, _)| u).collect();
            }
            return;
        }
    }
}

/// The certified invariants of the optimistic ITS of [`exact_by_certified_invariants`],
/// re-checked by `verify_invariants` (`None`: none found, or the check failed).
fn optimistic_invariants(
    its: &Its,
    rules: &[(Rule, Vec<RangedUpdate>)],
    assumed: &[Vec<bool>],
) -> Option<Invariants> {
    let mut opt = same_locations(its).ok()?;
    for ((rule, cands), assumed) in rules.iter().zip(assumed) {
        let mut guard: Vec<Constraint> = (rule.guard.iter())
            .filter(|c| !weak_bound(c))
            .cloned()
            .collect();
        let exact = cands.iter().zip(assumed).filter(|(_, a)| **a);
        guard.extend(exact.map(|(u, _)| Constraint::eq(u.result(), u.value())));
        opt.add_rule(Rule {
            guard,
            ..rule.clone()
        })
        .ok()?;
    }
    let inv = infer_invariants(&opt, MAX_NE_SPLIT, &Limits::default())?;
    verify_invariants(&opt, &inv).ok()?;
    Some(inv)
}

/// Whether `premises` (over `n` variables) rule out every wrap of `u`: with `m` a fresh
/// variable, Java's `r = value − m·W` in range and `m` on a side the value may pass is
/// infeasible.
fn cannot_wrap(lp: &mut Entailment, premises: &[Constraint], u: &RangedUpdate, n: usize) -> bool {
    let (java, sides) = u.wrapped(&LinExpr::var(Var(n as u32)));
    let mut base = premises.to_vec();
    base.extend(java);
    let k = base.len();
    let never = LinExpr::constant(Q::one());
    sides.into_iter().all(|side| {
        base.truncate(k);
        base.push(side);
        entails(lp, &base, &never, Rel::Le, n + 1)
    })
}

/// The inductive facts of every location (none at the start): Houdini over the no-wrap
/// conditions and what they say before the rules into their locations (with `differences`:
/// and [`difference_candidates`]).
fn invariant_facts(
    its: &Its,
    ranges: &[Vec<Constraint>],
    rules: &[(Rule, Vec<RangedUpdate>)],
    lp: &mut Entailment,
    with_differences: bool,
) -> Vec<Vec<Constraint>> {
    let start = its.start();
    let arity = |r: &Rule| its.location(r.from).arity();
    let mut facts: Vec<Vec<Constraint>> = vec![Vec::new(); its.locations().len()];
    let add = |facts: &mut Vec<Vec<Constraint>>, at: usize, c: Constraint, cap: usize| {
        let f = &mut facts[at];
        if f.len() < cap && !f.contains(&c) {
            f.push(c);
            true
        } else {
            false
        }
    };
    // candidates: the no-wrap conditions over the source's variables ...
    let mut work: Vec<(usize, Constraint)> = Vec::new();
    for (r, cands) in rules {
        if r.from == start {
            continue;
        }
        for (_, c) in cands.iter().flat_map(RangedUpdate::no_wrap) {
            if c.expr.vars().all(|v| v.index() < arity(r))
                && add(&mut facts, r.from.index(), c.clone(), MAX_FACTS)
            {
                work.push((r.from.index(), c));
            }
        }
    }
    // ... the differences of their variables with the location's others ...
    let extra = match with_differences {
        true => difference_candidates(its, rules),
        false => Vec::new(),
    };
    for (at, c) in extra {
        if add(&mut facts, at, c.clone(), MAX_FACTS + MAX_DIFFERENCES) {
            work.push((at, c));
        }
    }
    // ... and what they say before each rule into their location, where that is a condition
    // on the rule's source alone
    while let Some((at, c)) = work.pop() {
        for (r, _) in rules
            .iter()
            .filter(|(r, _)| r.to.index() == at && r.from != start)
        {
            let before = c.substitute(&|v| r.args[v.index()].clone());
            let own = before.expr.vars().all(|v| v.index() < arity(r));
            let cap = MAX_FACTS + MAX_DIFFERENCES;
            if own
                && !before.expr.is_constant()
                && add(&mut facts, r.from.index(), before.clone(), cap)
            {
                work.push((r.from.index(), before));
            }
        }
    }
    // Houdini: drop every fact some rule into its location does not imply, to a fixpoint
    loop {
        let mut dropped = false;
        for at in 0..facts.len() {
            let into: Vec<&Rule> = rules
                .iter()
                .map(|(r, _)| r)
                .filter(|r| r.to.index() == at)
                .collect();
            let mut k = 0;
            while k < facts[at].len() {
                let c = &facts[at][k];
                let kept = into.iter().all(|r| implied(lp, its, r, ranges, &facts, c));
                if kept {
                    k += 1;
                } else {
                    facts[at].remove(k);
                    dropped = true;
                }
            }
        }
        if !dropped {
            return facts;
        }
    }
}

/// Candidate facts `x ≤ hi − 1`, `x ≥ lo + 1` and `x − y ≤ k`, `x − y ≥ k` for `k ∈ {−1, 0, 1}`
/// (the kind's range `[lo, hi]`) at the source of each rule with a
/// counter `x` that may wrap, for every other variable `y` of the location: a loop's counter
/// stays below a bound the loop does not test but a rule before it did (`index < size` before
/// `for (i = 0; i <= index; i++)` in `LinkedList.entry`, with `size ≤ MAX`). `x` ranges over
/// the variables of the counters' no-wrap conditions and those a guard constraint relates to
/// them (`i ≤ index`).
fn difference_candidates(
    its: &Its,
    rules: &[(Rule, Vec<RangedUpdate>)],
) -> Vec<(usize, Constraint)> {
    let start = its.start();
    let mut out = Vec::new();
    for (r, cands) in rules {
        if r.from == start || cands.is_empty() {
            continue;
        }
        let arity = its.location(r.from).arity();
        let own = |c: &Constraint| c.expr.vars().all(|v| v.index() < arity);
        let mut xs: Vec<Var> = cands
            .iter()
            .flat_map(RangedUpdate::no_wrap)
            .filter(|(_, c)| own(c))
            .flat_map(|(_, c)| c.expr.vars().collect::<Vec<_>>())
            .collect();
        for g in r.guard.iter().filter(|g| own(g) && !weak_bound(g)) {
            if g.expr.vars().any(|v| xs.contains(&v)) {
                xs.extend(g.expr.vars());
            }
        }
        xs.sort();
        xs.dedup();
        let c = |v: i128| LinExpr::constant(Q::from(jtg_prove::BigInt::from(v)));
        let (lo, hi) = cands
            .iter()
            .map(RangedUpdate::range)
            .fold((i128::MIN, i128::MAX), |(lo, hi), (l, h)| {
                (lo.max(l), hi.min(h))
            });
        for &x in &xs {
            // one short of the range's ends (`index ≤ MAX − 1` from `index < size`)
            out.push((r.from.index(), Constraint::le(&LinExpr::var(x), &c(hi - 1))));
            out.push((r.from.index(), Constraint::ge(&LinExpr::var(x), &c(lo + 1))));
            // integers and lengths only: a size or a distance bounds no counter of a loop
            let names = &its.location(r.from).vars;
            let numeric = |y: &Var| {
                let n = &names[y.index()];
                !n.starts_with("sz_") && !n.starts_with("d_")
            };
            for y in (0..arity)
                .map(|k| Var(k as u32))
                .filter(|&y| y != x && numeric(&y))
            {
                let d = LinExpr::var(x).minus(&LinExpr::var(y));
                for k in [-1, 0, 1] {
                    out.push((r.from.index(), Constraint::le(&d, &c(-k))));
                    out.push((r.from.index(), Constraint::ge(&d, &c(k))));
                }
            }
        }
    }
    out
}

/// What holds on every transition of `r`: its guard, its source's ranges and facts.
fn premises(r: &Rule, ranges: &[Vec<Constraint>], facts: &[Vec<Constraint>]) -> Vec<Constraint> {
    let from = r.from.index();
    let guard = r.guard.iter();
    let extra = ranges.get(from).into_iter().flatten().chain(&facts[from]);
    guard.chain(extra).cloned().collect()
}

/// Whether `r`'s premises imply `c` (over `r`'s target) on its result.
fn implied(
    lp: &mut Entailment,
    its: &Its,
    r: &Rule,
    ranges: &[Vec<Constraint>],
    facts: &[Vec<Constraint>],
    c: &Constraint,
) -> bool {
    let args = |v: Var| r.args[v.index()].clone();
    let after = c.substitute(&args).expr;
    let mut premises = premises(r, ranges, facts);
    // the result is a state too: its integers lie in their ranges
    let target = ranges.get(r.to.index()).into_iter().flatten();
    premises.extend(target.map(|t| t.substitute(&args)));
    entails(lp, &premises, &after, c.rel, r.var_count(its))
}

/// At most this many `≠` of one rule are split into their sides (`x ≠ y` with `x ≤ y` gives
/// `x < y`); the others are dropped.
const MAX_NE: usize = 2;

/// Whether `premises` (over `n` variables) imply `e rel 0`: on each side of their first
/// [`MAX_NE`] `≠`.
fn entails(lp: &mut Entailment, premises: &[Constraint], e: &LinExpr, rel: Rel, n: usize) -> bool {
    let (ne, mut plain): (Vec<&Constraint>, Vec<Constraint>) = (
        premises.iter().filter(|c| c.rel == Rel::Ne).collect(),
        premises
            .iter()
            .filter(|c| c.rel != Rel::Ne)
            .cloned()
            .collect(),
    );
    // the `≠` about the implied expression's variables first (`nextIndex ≠ size` of the
    // last `hasNext()`, among the earlier laps' ones a chained rule collects)
    let mut ne = ne;
    ne.sort_by_key(|c| !c.expr.vars().any(|v| e.vars().any(|w| w == v)));
    let ne = &ne[..ne.len().min(MAX_NE)];
    let k = plain.len();
    (0..1usize << ne.len()).all(|sides| {
        plain.truncate(k);
        plain.extend(ne.iter().enumerate().map(|(i, c)| {
            let e = if sides >> i & 1 == 0 {
                c.expr.clone()
            } else {
                c.expr.scaled(&-Q::one())
            };
            Constraint::new(e, Rel::Lt)
        }));
        entails_plain(lp, &plain, e, rel, n)
    })
}

/// [`entails`] of premises without `≠`.
fn entails_plain(
    lp: &mut Entailment,
    premises: &[Constraint],
    e: &LinExpr,
    rel: Rel,
    n: usize,
) -> bool {
    let one = LinExpr::constant(Q::one());
    // a rule no transition takes implies anything (a guard `0 < 0` the chaining left)
    let implied = match rel {
        Rel::Le => lp.implies_nonpositive(premises, e, n),
        // integers: `e < 0` is `e + 1 ≤ 0`
        Rel::Lt => lp.implies_nonpositive(premises, &e.plus(&one), n),
        Rel::Eq => {
            lp.implies_nonpositive(premises, e, n)
                && lp.implies_nonpositive(premises, &e.scaled(&-Q::one()), n)
        }
        Rel::Ne => false,
    };
    implied || lp.infeasible(premises, n)
}

/// Per location: each integer variable within its kind's range, a fact of every concrete
/// state under Java ints (nothing under unbounded ints, where it is none).
pub(super) fn int_ranges(
    g: &Graph,
    first: NodeId,
    loc_node: &[Option<NodeId>],
    loc_vars: &[Vec<Quantity>],
    ints: IntSemantics,
) -> Vec<Vec<Constraint>> {
    if ints != IntSemantics::Java {
        return vec![Vec::new(); loc_vars.len()];
    }
    let ranges = |n: NodeId, vars: &[Quantity]| -> Vec<Constraint> {
        let state = &g.nodes[n].state;
        let ints = vars.iter().enumerate().filter_map(|(v, q)| match q {
            Quantity::Int(r) => Some((v, *r)),
            _ => None,
        });
        ints.flat_map(|(v, r)| {
            let (lo, hi) = type_range(state, r);
            within(&LinExpr::var(Var(v as u32)), lo, hi)
        })
        .collect()
    };
    let nodes = loc_node.iter().map(|n| n.unwrap_or(first));
    nodes
        .zip(loc_vars)
        .map(|(n, vars)| ranges(n, vars))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::ranged::tests::{k, v};
    use super::super::ranged::Sides;
    use super::*;

    const MAX: i64 = i32::MAX as i64;
    const MIN: i64 = i32::MIN as i64;

    fn ranges(vars: &[u32]) -> Vec<Constraint> {
        vars.iter()
            .flat_map(|&i| {
                [
                    Constraint::ge(&v(i), &k(MIN)),
                    Constraint::le(&v(i), &k(MAX)),
                ]
            })
            .collect()
    }

    /// `for (i = 0; i < n; i++) for (j = 0; j < n; j++) {}` as the encoding writes it:
    /// head(i, n) tests `i < n` into inner(i, n, j); inner loops on `j`; inner's exit back to
    /// head increments `i` without a test of its own. `i + 1` cannot wrap: `i < n ≤ MAX`
    /// holds at inner, though no rule out of inner says so.
    fn nested(test_at_head: bool) -> (Its, Vec<(Rule, Vec<RangedUpdate>)>) {
        let mut its = Its::new("start", &["n"]).unwrap();
        let head = its.add_location("head", &["i", "n"]).unwrap();
        let inner = its.add_location("inner", &["i", "n", "j"]).unwrap();
        let enter = Rule {
            from: its.start(),
            to: head,
            temps: vec![],
            args: vec![k(0), v(0)],
            guard: ranges(&[0]),
        };
        let mut into_guard = ranges(&[0, 1]);
        if test_at_head {
            into_guard.push(Constraint::lt(&v(0), &v(1)));
        }
        let into = Rule {
            from: head,
            to: inner,
            temps: vec![],
            args: vec![v(0), v(1), k(0)],
            guard: into_guard,
        };
        let mut lap_guard = ranges(&[0, 1, 2]);
        lap_guard.push(Constraint::lt(&v(2), &v(1)));
        let lap = Rule {
            from: inner,
            to: inner,
            temps: vec!["j1".into()],
            args: vec![v(0), v(1), v(3)],
            guard: lap_guard,
        };
        let mut out_guard = ranges(&[0, 1, 2, 3]);
        out_guard.push(Constraint::le(&v(1), &v(2)));
        let out = Rule {
            from: inner,
            to: head,
            temps: vec!["i1".into()],
            args: vec![v(3), v(1)],
            guard: out_guard,
        };
        let up = |r: u32, x: u32| {
            RangedUpdate::new(v(r), v(x).plus(&k(1)), MIN as i128, MAX as i128, true).on_sides(
                Sides {
                    above: true,
                    below: false,
                },
            )
        };
        let rules = vec![
            (enter, vec![]),
            (into, vec![]),
            (lap, vec![up(3, 2)]),
            (out, vec![up(3, 0)]),
        ];
        for (r, _) in &rules {
            its.add_rule(r.clone()).unwrap();
        }
        (its, rules)
    }

    #[test]
    fn a_test_on_the_rule_into_a_nested_loop_makes_the_outer_increment_exact() {
        let (its, mut rules) = nested(true);
        exact_by_invariants(&its, &[], &mut rules);
        // i + 1 at the inner loop's exit: i < n ≤ MAX holds at inner (entered under i < n,
        // kept by the inner lap), though the exit's guard does not say so; j + 1 on the lap by
        // its own guard j < n ≤ MAX
        assert!(rules[2].1.is_empty());
        assert!(rules[3].1.is_empty());
        assert!(rules[3]
            .0
            .guard
            .contains(&Constraint::eq(&v(3), &v(0).plus(&k(1)))));
    }

    /// `if (x > 0 && y > 0) while (x != y) if (x > y) x = x − y; else y = y − x;` (TPDB
    /// PastaC5): head(x, y), each lap's result a temporary `t = x − y` (or `y − x`) not yet
    /// exact. `x, y ≥ 1` at head is an interval invariant of the ITS with both updates exact,
    /// not a no-wrap fact of a counter (which the Houdini facts are).
    fn subtract_gcd(positive: bool) -> (Its, Vec<(Rule, Vec<RangedUpdate>)>) {
        let mut its = Its::new("start", &["x", "y"]).unwrap();
        let head = its.add_location("head", &["x", "y"]).unwrap();
        let mut enter_guard = ranges(&[0, 1]);
        if positive {
            enter_guard.push(Constraint::gt(&v(0), &k(0)));
            enter_guard.push(Constraint::gt(&v(1), &k(0)));
        }
        let enter = Rule {
            from: its.start(),
            to: head,
            temps: vec![],
            args: vec![v(0), v(1)],
            guard: enter_guard,
        };
        let lap = |x_gt_y: bool| {
            let mut guard = ranges(&[0, 1, 2]);
            let (a, b) = if x_gt_y { (0, 1) } else { (1, 0) };
            guard.push(Constraint::gt(&v(a), &v(b)));
            let mut args = vec![v(0), v(1)];
            args[a as usize] = v(2);
            let u = RangedUpdate::new(v(2), v(a).minus(&v(b)), MIN as i128, MAX as i128, true);
            let rule = Rule {
                from: head,
                to: head,
                temps: vec!["t".into()],
                args,
                guard,
            };
            (rule, vec![u])
        };
        let rules = vec![(enter, vec![]), lap(true), lap(false)];
        for (r, _) in &rules {
            its.add_rule(r.clone()).unwrap();
        }
        (its, rules)
    }

    #[test]
    fn differences_of_positive_ints_are_exact_by_the_certified_invariants() {
        let (its, mut rules) = subtract_gcd(true);
        // the Houdini facts do not show it: `x − y ≥ MIN` is no inductive fact of head
        exact_by_invariants(&its, &[], &mut rules);
        assert_eq!(rules[1].1.len(), 1);
        exact_by_certified_invariants(&its, &[], &mut rules);
        assert!(rules[1].1.is_empty() && rules[2].1.is_empty());
        let exact = Constraint::eq(&v(2), &v(0).minus(&v(1)));
        assert!(rules[1].0.guard.contains(&exact));
    }

    #[test]
    fn differences_of_any_ints_may_wrap() {
        // from x = MIN + 1, y = 2 (x < y): y − x wraps; nothing is made exact
        let (its, mut rules) = subtract_gcd(false);
        exact_by_certified_invariants(&its, &[], &mut rules);
        assert_eq!((rules[1].1.len(), rules[2].1.len()), (1, 1));
    }

    #[test]
    fn without_the_test_the_increment_may_wrap() {
        let (its, mut rules) = nested(false);
        exact_by_invariants(&its, &[], &mut rules);
        assert_eq!(rules[3].1.len(), 1);
        assert!(!rules[3]
            .0
            .guard
            .contains(&Constraint::eq(&v(3), &v(0).plus(&k(1)))));
    }

    fn up(r: u32, x: u32) -> RangedUpdate {
        RangedUpdate::new(v(r), v(x).plus(&k(1)), MIN as i128, MAX as i128, true).on_sides(Sides {
            above: true,
            below: false,
        })
    }

    /// `if (index < 0 || index >= size) throw …; for (i = 0; i <= index; i++) e = e.next;`
    /// (`LinkedList.entry`): head(i, index, size), the lap tests `i <= index` only. With the
    /// test before the loop, `index − size ≤ −1` is a fact of head, and with `size ≤ MAX` the
    /// lap's `i + 1` cannot wrap; without it `index` may be MAX and `i + 1` wraps.
    fn walk(tested: bool) -> (Its, Vec<(Rule, Vec<RangedUpdate>)>) {
        let mut its = Its::new("start", &["index", "size"]).unwrap();
        let head = its.add_location("head", &["i", "index", "size"]).unwrap();
        let mut enter_guard = ranges(&[0, 1]);
        enter_guard.push(Constraint::ge(&v(0), &k(0)));
        if tested {
            enter_guard.push(Constraint::lt(&v(0), &v(1)));
        }
        let enter = Rule {
            from: its.start(),
            to: head,
            temps: vec![],
            args: vec![k(0), v(0), v(1)],
            guard: enter_guard,
        };
        let mut lap_guard = ranges(&[0, 1, 2, 3]);
        lap_guard.push(Constraint::le(&v(0), &v(1)));
        let lap = Rule {
            from: head,
            to: head,
            temps: vec!["i1".into()],
            args: vec![v(3), v(1), v(2)],
            guard: lap_guard,
        };
        let rules = vec![(enter, vec![]), (lap, vec![up(3, 0)])];
        for (r, _) in &rules {
            its.add_rule(r.clone()).unwrap();
        }
        (its, rules)
    }

    #[test]
    fn a_bound_tested_before_the_loop_makes_its_increment_exact() {
        let (its, mut rules) = walk(true);
        exact_by_invariants(&its, &[], &mut rules);
        assert!(rules[1].1.is_empty(), "{:?}", rules[1].1);
        let exact = Constraint::eq(&v(3), &v(0).plus(&k(1)));
        assert!(rules[1].0.guard.contains(&exact));
        let (its, mut rules) = walk(false);
        exact_by_invariants(&its, &[], &mut rules);
        exact_by_certified_invariants(&its, &[], &mut rules);
        assert_eq!(rules[1].1.len(), 1, "index = MAX: i + 1 wraps");
    }
}
