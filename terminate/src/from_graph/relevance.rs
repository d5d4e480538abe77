//! Which wrap-around counters are worth splitting (`--ints java`, docs/proving.md, *Java
//! ints*). A counter the rule's guard does not show exact (`ranged.rs`) is either split into
//! its wrap cases — one rule per case — or left inexact: its result a temporary that only
//! its kind's range bounds. Both are sound (each case, and the inexact rule, admits Java's
//! result); splitting only pays where a run can *read* the result: a guard compares it (the
//! loop's test), or an update of a variable that is read takes it. `size++` and
//! `modCount++` of a `LinkedList` that the loop never tests are read by nothing but their
//! ranges, so their cases only multiply the rules (two such counters: nine rules for one).

use super::ranged::RangedUpdate;
use jtg_prove::{BigInt, Constraint, Its, ItsError, Location, Rel, Rule, Var, Q};
use std::collections::BTreeSet;

/// Per rule (paired with its candidate updates), per candidate: whether its result may be
/// read — over-approximated, to a fixpoint over the rule graph: a location's variable is read
/// when a rule out of it reads it, and a rule reads every variable of a constraint of its
/// guard (other than a bound as weak as a 32-bit int's range), of the update of a read
/// variable of its target, and of the exact value of a counter whose result it reads.
pub(super) fn read_results(its: &Its, rules: &[(&Rule, &[RangedUpdate])]) -> Reads {
    let mut loc_read: Vec<Vec<bool>> = its
        .locations()
        .iter()
        .map(|l| vec![false; l.arity()])
        .collect();
    let mut read: Vec<BTreeSet<Var>> = rules
        .iter()
        .map(|(r, _)| {
            r.guard
                .iter()
                .filter(|c| !weak_bound(c))
                .flat_map(|c| c.expr.vars())
                .collect()
        })
        .collect();
    let mut split: Vec<Vec<bool>> = rules.iter().map(|(_, u)| vec![false; u.len()]).collect();
    loop {
        let mut changed = false;
        for (k, (rule, ranged)) in rules.iter().enumerate() {
            let seen = &mut read[k];
            for (j, arg) in rule.args.iter().enumerate() {
                if loc_read[rule.to.index()][j] {
                    seen.extend(arg.vars());
                }
            }
            // a counter whose result is read reads its operand (`i5 = i3 + 1`, then `i3`)
            loop {
                let mut more = false;
                for (i, u) in ranged.iter().enumerate() {
                    if !split[k][i] && u.result().vars().any(|v| seen.contains(&v)) {
                        split[k][i] = true;
                        seen.extend(u.value().vars());
                        more = true;
                    }
                }
                if !more {
                    break;
                }
            }
            let from = &mut loc_read[rule.from.index()];
            for v in seen.iter() {
                if let Some(slot) = from.get_mut(v.index()) {
                    if !*slot {
                        *slot = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            let vars = rules
                .iter()
                .zip(read)
                .map(|((rule, _), mut seen)| {
                    let from = &loc_read[rule.from.index()];
                    seen.extend((0..from.len()).filter(|&j| from[j]).map(|j| Var(j as u32)));
                    seen
                })
                .collect();
            return Reads { split, vars };
        }
    }
}

/// What [`read_results`] finds, per rule.
pub(super) struct Reads {
    /// Per candidate update: whether its result may be read (split it into its wrap cases).
    pub split: Vec<Vec<bool>>,
    /// The variables the rule may read: those it reads itself, and its source location's
    /// variables that any rule out of it reads.
    pub vars: Vec<BTreeSet<Var>>,
}

/// `guard` without the weak bounds (a 32-bit int's range or wider) of variables outside
/// `read`. Sound: a weaker guard admits more transitions. Such a bound says nothing a run
/// reads, but under Java ints every integer of every node carries two, and their constants
/// (`2³¹`) made the ranking LPs' exact rationals — and the time — grow by orders of
/// magnitude (`juLinkedListCreateSize`: 10.8 M work units and the 30 s safety net, 0.6 M
/// without them).
pub(super) fn drop_unread_bounds(guard: Vec<Constraint>, read: &BTreeSet<Var>) -> Vec<Constraint> {
    guard
        .into_iter()
        .filter(|c| !weak_bound(c) || c.expr.vars().any(|v| read.contains(&v)))
        .collect()
}

/// `its` without any weak bound (below): every run of `its` is a run of it, so a ranking
/// proof of it proves `its` terminating (a NO of it says nothing of `its`). The same
/// locations and rules, in the same order: the encoding's origins still describe them.
pub(crate) fn without_weak_bounds(its: &Its) -> Result<Its, ItsError> {
    let mut out = same_locations(its)?;
    for r in its.rules() {
        out.add_rule(Rule {
            guard: r.guard.iter().filter(|c| !weak_bound(c)).cloned().collect(),
            ..r.clone()
        })?;
    }
    Ok(out)
}

/// An ITS with `its`'s locations (in order) and no rules.
pub(super) fn same_locations(its: &Its) -> Result<Its, ItsError> {
    fn names(l: &Location) -> Vec<&str> {
        l.vars.iter().map(String::as_str).collect()
    }
    let locs = its.locations();
    let mut out = Its::new(&locs[0].name, &names(&locs[0]))?;
    for l in &locs[1..] {
        out.add_location(&l.name, &names(l))?;
    }
    Ok(out)
}

/// `x ≤ b` with `b ≥ 2³¹ − 1` or `x ≥ b` with `b ≤ −2³¹` (strict alike): true of every
/// 32-bit int, so it tells a run nothing about an int (every integer of a Java-int state
/// carries such bounds); for a long it would, which only makes fewer of its counters split.
pub(super) fn weak_bound(c: &Constraint) -> bool {
    if c.expr.terms.len() != 1 || !matches!(c.rel, Rel::Le | Rel::Lt) {
        return false;
    }
    let Some((_, a)) = c.expr.terms.iter().next() else {
        return false;
    };
    // a·x + k ⋈ 0: x ⋈ −k/a for a > 0 (an upper bound), the reverse for a < 0
    let b = -c.expr.constant.clone() / a.clone();
    if a.is_positive() {
        b >= Q::from(BigInt::from(i32::MAX))
    } else {
        b <= Q::from(BigInt::from(i32::MIN))
    }
}

#[cfg(test)]
mod tests {
    use super::super::ranged::tests::{k, v};
    use super::*;

    #[test]
    fn only_bounds_as_weak_as_the_int_range_are_weak() {
        let max = i64::from(i32::MAX);
        let min = i64::from(i32::MIN);
        assert!(weak_bound(&Constraint::le(&v(0), &k(max))));
        assert!(weak_bound(&Constraint::ge(&v(0), &k(min))));
        assert!(weak_bound(&Constraint::le(&v(0), &k(i64::MAX))));
        assert!(!weak_bound(&Constraint::le(&v(0), &k(max - 1))));
        assert!(!weak_bound(&Constraint::ge(&v(0), &k(0))));
        assert!(!weak_bound(&Constraint::lt(&v(0), &v(1))));
        assert!(!weak_bound(&Constraint::eq(&v(0), &k(max))));
        assert!(!weak_bound(&Constraint::ne(&v(0), &k(min))));
    }

    /// One location `l(i, c)`, one rule `l → l` with `i' = t0`, `c' = t1` from the counters
    /// `t0 = i + 1`, `t1 = c + 1`, guarded by `guard` besides both temporaries' int ranges.
    fn loop_rule(guard: Vec<Constraint>) -> (Its, Rule, Vec<RangedUpdate>) {
        let mut its = Its::new("start", &[]).unwrap();
        let l = its.add_location("l", &["i", "c"]).unwrap();
        let (lo, hi) = (i128::from(i32::MIN), i128::from(i32::MAX));
        let ranged = vec![
            RangedUpdate::new(v(2), v(0).plus(&k(1)), lo, hi, true),
            RangedUpdate::new(v(3), v(1).plus(&k(1)), lo, hi, true),
        ];
        let mut g = guard;
        for t in [2, 3] {
            g.push(Constraint::ge(&v(t), &k(i64::from(i32::MIN))));
            g.push(Constraint::le(&v(t), &k(i64::from(i32::MAX))));
        }
        let rule = Rule {
            from: l,
            to: l,
            temps: vec!["t0".into(), "t1".into()],
            args: vec![v(2), v(3)],
            guard: g,
        };
        (its, rule, ranged)
    }

    #[test]
    fn a_counter_the_loop_tests_is_split_an_untested_one_is_not() {
        // while (i > 0) { i++; c++; }: `i` is read by the test, `c` by nothing
        let (its, rule, ranged) = loop_rule(vec![Constraint::gt(&v(0), &k(0))]);
        let reads = read_results(&its, &[(&rule, &ranged)]);
        assert_eq!(reads.split, vec![vec![true, false]]);
        // `c` and its result `t1` are read by nothing: their ranges go
        let kept = drop_unread_bounds(rule.guard.clone(), &reads.vars[0]);
        assert!(kept
            .iter()
            .all(|c| !c.expr.vars().any(|x| x == Var(1) || x == Var(3))));
        assert_eq!(kept.len(), 3);
    }

    #[test]
    fn the_light_its_keeps_every_rule_and_every_bound_but_the_weak_ones() {
        let (mut its, rule, _) = loop_rule(vec![Constraint::gt(&v(0), &k(0))]);
        its.add_rule(rule.clone()).unwrap();
        let light = without_weak_bounds(&its).unwrap();
        assert_eq!(light.locations(), its.locations());
        assert_eq!(light.rules().len(), 1);
        let r = &light.rules()[0];
        assert_eq!((r.from, r.to, &r.args), (rule.from, rule.to, &rule.args));
        assert_eq!(r.guard, vec![Constraint::gt(&v(0), &k(0))]);
    }

    #[test]
    fn a_counter_read_through_another_variable_is_split() {
        // the test compares `i` with `c`: both counters are read
        let (its, rule, ranged) = loop_rule(vec![Constraint::lt(&v(0), &v(1))]);
        let reads = read_results(&its, &[(&rule, &ranged)]);
        assert_eq!(reads.split, vec![vec![true, true]]);
        assert_eq!(
            drop_unread_bounds(rule.guard.clone(), &reads.vars[0]),
            rule.guard
        );
    }
}
