//! Carried counters: ranking candidates that are one variable per location, found by
//! propagation along the rules without an LP.
//!
//! A loop whose counter every rule of an SCC copies or decreases by a constant (`counter--`
//! once per lap, whatever the lap's branches do to the rest of the state) is ranked by that
//! counter. The level LP finds it too, but its size grows with rules × variables: the
//! `createTree` loop of TPDB's `BOG_RTA_11` programs is an SCC of 30 locations and 78 rules
//! whose level LP has 1 750 rows and 3 826 columns, over every dense solver limit, though its
//! function is just the counter's position at each location. The propagation picks a variable
//! of one location and follows where each rule puts it (an argument `x` or `x − c`, `c ≥ 0`):
//! consistent on every rule of the scope, it is a candidate, which `rank.rs` certifies exactly
//! like an LP's (decrease and boundedness by Farkas, per rule).

use crate::its::{Its, LocId, RuleId};
use crate::linexpr::{LinExpr, Var};
use crate::q::Q;
use std::collections::BTreeMap;

/// One rule of a scope: its id and its two locations.
pub(crate) type ScopeRule = (RuleId, LocId, LocId);

/// For each variable of the first location of `rules` whose value every rule copies or
/// decreases by a constant (along one consistent position per location), the function that
/// is that variable at every location, and the positions (in `rules`) of the rules that
/// decrease it.
pub(crate) fn candidates(
    its: &Its,
    rules: &[ScopeRule],
) -> Vec<(BTreeMap<LocId, LinExpr>, Vec<usize>)> {
    let Some(&(_, start, _)) = rules.first() else {
        return Vec::new();
    };
    (0..its.location(start).arity())
        .filter_map(|p| follow(its, rules, start, p))
        .collect()
}

/// The positions of the variable at position `p` of `start` along `rules`, and the rules that
/// decrease it; `None` where a rule does neither copy nor decrease it, or two rules disagree.
fn follow(
    its: &Its,
    rules: &[ScopeRule],
    start: LocId,
    p: usize,
) -> Option<(BTreeMap<LocId, LinExpr>, Vec<usize>)> {
    let mut out_of: BTreeMap<LocId, Vec<usize>> = BTreeMap::new();
    for (k, &(_, from, _)) in rules.iter().enumerate() {
        out_of.entry(from).or_default().push(k);
    }
    let mut at: BTreeMap<LocId, usize> = BTreeMap::from([(start, p)]);
    let mut todo = vec![start];
    let mut strict = Vec::new();
    let mut done = 0;
    while let Some(l) = todo.pop() {
        let j = at[&l];
        for &k in out_of.get(&l).map_or(&[][..], Vec::as_slice) {
            let (r, _, to) = rules[k];
            let args = &its.rule(r).args;
            let step = |q: usize| carried(args.get(q)?, Var(j as u32));
            let (q, c) = match at.get(&to) {
                Some(&q) => (q, step(q)?),
                None => {
                    let (q, c) = (0..args.len()).find_map(|q| step(q).map(|c| (q, c)))?;
                    at.insert(to, q);
                    todo.push(to);
                    (q, c)
                }
            };
            debug_assert_eq!(at[&to], q);
            if c.is_negative() {
                strict.push(k);
            }
            done += 1;
        }
    }
    if done < rules.len() {
        return None;
    }
    let fs = at
        .into_iter()
        .map(|(l, q)| (l, LinExpr::var(Var(q as u32))))
        .collect();
    strict.sort_unstable();
    Some((fs, strict))
}

/// `c` where `e` is `x + c` with `c ≤ 0`.
fn carried(e: &LinExpr, x: Var) -> Option<Q> {
    let one = e.terms.len() == 1 && e.terms.get(&x).is_some_and(|a| *a == Q::one());
    (one && !e.constant.is_positive()).then(|| e.constant.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::koat::parse_koat;

    /// Every rule but the first (from `start`).
    fn scope(its: &Its) -> Vec<ScopeRule> {
        its.rule_ids()
            .skip(1)
            .map(|r| (r, its.rule(r).from, its.rule(r).to))
            .collect()
    }

    /// A lap that branches and decrements its counter once (the decrement's guard bounds it,
    /// as the graphs' invariants do).
    const LAP: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR c i j)\n\
        (RULES\n\
        start(c, i) -> h(c, i)\n\
        h(c, i) -> a(i, c) :|: c >= 1\n\
        a(i, c) -> b(c, i + 1) :|: i >= 0\n\
        a(i, c) -> b(c, j) :|: i < 0\n\
        b(c, i) -> h(c - 1, i) :|: c >= 1\n)\n";

    /// A lap that branches and decrements once: the counter is carried through both branches.
    #[test]
    fn a_counter_carried_through_branches_is_a_candidate() {
        let its = parse_koat(LAP).expect("a KoAT ITS");
        let found = candidates(&its, &scope(&its));
        assert_eq!(found.len(), 1, "{found:?}");
        let (fs, strict) = &found[0];
        assert_eq!(fs.len(), 3);
        assert_eq!(strict.len(), 1, "the decrement only");
    }

    /// A variable one rule increases is no candidate.
    #[test]
    fn a_variable_that_grows_is_none() {
        let its = parse_koat(
            "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR x)\n(RULES\n\
             start(x) -> h(x)\n\
             h(x) -> h(x + 1) :|: x <= 10\n)\n",
        )
        .expect("a KoAT ITS");
        assert!(candidates(&its, &scope(&its)).is_empty());
    }

    /// With a tableau limit no level LP fits in, the counter is still found and certified
    /// (the decrement's guard bounds it, as the graphs' invariants do): the search falls back
    /// on the carried counter where the LP gives up.
    #[test]
    fn a_carried_counter_proves_what_no_level_lp_fits() {
        let its = parse_koat(LAP).expect("a KoAT ITS");
        let tiny = crate::lp::Limits {
            max_cells: 60,
            ..crate::lp::Limits::default()
        };
        let mut stats = crate::lp::LpStats::default();
        let outcome = crate::rank::prove_termination(&its, 4, &tiny, &mut stats);
        assert!(
            matches!(outcome, crate::rank::RankOutcome::Proved(_)),
            "{outcome:?}"
        );
        assert!(
            stats.unknown > 0 || stats.float_solves > 0,
            "the level LP was tried"
        );
    }
}
