//! Java ints from guards (docs/proving.md, *Java ints*): under `--ints java` an update
//! `r = e` whose exact value may leave its kind's range *by the source's intervals* is kept
//! only as a candidate; it becomes the exact update where the rule's whole guard rules out a
//! wrap (`i < n` and `n ≤ MAX` give `i + 1 ≤ MAX`; `r = i + 1` followed by the target's
//! `r ≥ 0` rules out `r = i + 1 − 2³²`). Sound: the guard holds on every concrete transition
//! of the rule with `r` Java's result, which is `e − m·2³²` for some integer `m` (JLS §4.2.2,
//! §15.18.2, §15.15.4, §15.17.1); if the guard is infeasible with `m ≥ 1` and with `m ≤ −1`,
//! that `m` is 0 and `r = e`.

use jtg_prove::{BigInt, Constraint, Entailment, LinExpr, Rel, Var, Q};

/// On which sides of its kind's range an exact value may lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// Above `hi` (`i + 1` from `i ≤ MAX`).
    pub above: bool,
    /// Below `lo` (`i − 1` from `i ≥ MIN`).
    pub below: bool,
}

impl Sides {
    pub const BOTH: Sides = Sides {
        above: true,
        below: true,
    };
    /// The value may leave the range at all.
    pub fn any(self) -> bool {
        self.above || self.below
    }
}

/// An update `r = value` that is exact where `lo ≤ value ≤ hi`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangedUpdate {
    r: LinExpr,
    value: LinExpr,
    lo: i128,
    hi: i128,
    /// The exact value lies in `[2·lo, 2·hi]` (a sum, difference or negation of in-range
    /// values), so it wraps at most once.
    once: bool,
    /// Where the exact value may lie outside `[lo, hi]`, by the source's intervals: the
    /// other side's wrap case is infeasible on every concrete transition.
    sides: Sides,
}

impl RangedUpdate {
    pub fn new(r: LinExpr, value: LinExpr, lo: i128, hi: i128, once: bool) -> RangedUpdate {
        RangedUpdate {
            r,
            value,
            lo,
            hi,
            once,
            sides: Sides::BOTH,
        }
    }
    /// The same update, known to leave the range only on `sides`.
    /// The kind's range `[lo, hi]`.
    pub fn range(&self) -> (i128, i128) {
        (self.lo, self.hi)
    }
    pub fn on_sides(self, sides: Sides) -> RangedUpdate {
        RangedUpdate { sides, ..self }
    }
    /// Where the exact value may leave the range.
    pub fn sides(&self) -> Sides {
        self.sides
    }
    /// Per side the value may pass, the constraint that rules that wrap out: `value ≤ hi`
    /// (above), `value ≥ lo` (below).
    pub fn no_wrap(&self) -> Vec<(Sides, Constraint)> {
        let [lo, hi] = within(&self.value, self.lo, self.hi);
        let mut out = Vec::new();
        if self.sides.above {
            out.push((
                Sides {
                    above: true,
                    below: false,
                },
                hi,
            ));
        }
        if self.sides.below {
            out.push((
                Sides {
                    above: false,
                    below: true,
                },
                lo,
            ));
        }
        out
    }
    /// What Java's result satisfies with `m` its wrap count (JLS §4.2.2): `r = value − m·W`,
    /// `lo ≤ r ≤ hi`, `W = hi − lo + 1`; and per side the value may pass, the wrap counts
    /// of that side (`m ≥ 1` above, `m ≤ −1` below).
    pub fn wrapped(&self, m: &LinExpr) -> (Vec<Constraint>, Vec<Constraint>) {
        let width = Q::from(BigInt::from(self.hi - self.lo + 1));
        let mut java = vec![Constraint::eq(
            &self.r,
            &self.value.minus(&m.scaled(&width)),
        )];
        java.extend(within(&self.r, self.lo, self.hi));
        let one = LinExpr::constant(Q::one());
        let mut sides = Vec::new();
        if self.sides.above {
            sides.push(Constraint::ge(m, &one));
        }
        if self.sides.below {
            sides.push(Constraint::le(m, &LinExpr::zero().minus(&one)));
        }
        (java, sides)
    }
    /// The result and the exact value.
    pub fn exprs(&self) -> [LinExpr; 2] {
        [self.r.clone(), self.value.clone()]
    }
    /// The result (a temporary of the rule while the update is not exact).
    pub fn result(&self) -> &LinExpr {
        &self.r
    }
    /// The exact value.
    pub fn value(&self) -> &LinExpr {
        &self.value
    }
    /// Whether the update is a counter `x ± k` or `−x` the rule can be split on.
    pub fn splittable(&self) -> bool {
        self.once && self.value.terms.len() == 1
    }
    /// The same update with these result and value expressions.
    pub fn with_exprs(&self, r: LinExpr, value: LinExpr) -> RangedUpdate {
        RangedUpdate { r, value, ..*self }
    }
    pub fn substitute(&self, sub: &dyn Fn(Var) -> LinExpr) -> RangedUpdate {
        self.with_exprs(self.r.substitute(sub), self.value.substitute(sub))
    }
    pub fn rename(&self, f: &dyn Fn(Var) -> Var) -> RangedUpdate {
        self.with_exprs(self.r.rename(f), self.value.rename(f))
    }
}

/// `lo ≤ x ≤ hi`.
pub(super) fn within(x: &LinExpr, lo: i128, hi: i128) -> [Constraint; 2] {
    [
        Constraint::ge(x, &LinExpr::constant(Q::from(BigInt::from(lo)))),
        Constraint::le(x, &LinExpr::constant(Q::from(BigInt::from(hi)))),
    ]
}

/// Work budget of the LPs that bound one rule's candidate updates (deterministic).
const RANGE_WORK: u64 = 2_000_000;

/// At most this many candidates of one rule are tried (each two small LPs).
const MAX_RANGED: usize = 8;

/// Adds `r = value` to `guard` for every candidate that cannot wrap under `guard ∧ ranges`
/// (over `nvars` variables; `ranges`: facts true of every concrete value, such as each
/// integer's kind range). Java's result is `value − m·W` for the integer `m` that puts it in
/// `[lo, hi]`, `W = hi − lo + 1` (JLS §4.2.2: two's complement); the update is exact when
/// `m ≥ 1` and `m ≤ −1` are both infeasible with the guard — which also uses what the guard
/// says of `r` itself (the loop's test `r < n` after `r = i + 1`, the target's `r ≥ 0`).
/// Updates proved exact are premises of the next round (`i + 1` then `+ 1`). Returns the
/// candidates not shown exact.
pub(super) fn exact_in_range(
    ranged: &[RangedUpdate],
    nvars: usize,
    ranges: &[Constraint],
    guard: &mut Vec<Constraint>,
) -> Vec<RangedUpdate> {
    if ranged.is_empty() {
        return Vec::new();
    }
    let mut lp = Entailment::new(RANGE_WORK);
    // the rest stay candidates without a try
    let mut pending: Vec<&RangedUpdate> = ranged.iter().collect();
    let mut tries = MAX_RANGED;
    // the wrap count `m`: one variable past the rule's
    let m = LinExpr::var(Var(nvars as u32));
    loop {
        let premises: Vec<Constraint> = guard
            .iter()
            .chain(ranges)
            .filter(|c| c.rel != Rel::Ne)
            .cloned()
            .collect();
        let mut added = Vec::new();
        pending.retain(|u| {
            if tries == 0 {
                return true;
            }
            tries -= 1;
            let width = Q::from(BigInt::from(u.hi - u.lo + 1));
            let wrapped = u.value.minus(&m.scaled(&width));
            let mut infeasible_with = |side: Constraint| {
                let mut cs: Vec<Constraint> = premises.clone();
                cs.push(Constraint::eq(&u.r, &wrapped));
                cs.push(side);
                lp.infeasible(&cs, nvars + 1)
            };
            let one = LinExpr::constant(Q::one());
            let exact = infeasible_with(Constraint::ge(&m, &one))
                && infeasible_with(Constraint::le(&m, &LinExpr::zero().minus(&one)));
            if exact {
                added.push(Constraint::eq(&u.r, &u.value));
            }
            !exact
        });
        if added.is_empty() || tries == 0 {
            guard.extend(added);
            return pending.into_iter().cloned().collect();
        }
        guard.extend(added);
    }
}

/// At most this many candidates of one rule are split into their wrap cases (3ᵏ rules).
pub(super) const MAX_SPLIT: usize = 2;

/// The guards of a rule whose candidates `ranged` the guard did not show exact: for each of
/// the first [`MAX_SPLIT`] counters that wrap at most once (the caller passes those whose
/// result matters, `relevance.rs`), its cases — `lo ≤ e ≤ hi ∧ r = e`, `e ≥ hi + 1 ∧ r = e −
/// W`, `e ≤ lo − 1 ∧ r = e + W` (JLS §4.2.2; they cover every value and exclude each other),
/// the last two only on the sides the source's intervals leave possible (`i + 1` never wraps
/// below) — one guard per combination. The wrapping cases are then rules of their own, which
/// the rule graph can show to run at most once (`i = MAX` gives `i + 1 = MIN < n`, after
/// which `i < n ≤ MAX` never wraps again). Others stay inexact.
pub(super) fn wrap_cases(ranged: &[RangedUpdate], guard: Vec<Constraint>) -> Vec<Vec<Constraint>> {
    let mut out = vec![guard];
    // counters (`x ± k`, `−x`): an accumulator (`s + i`) is seldom what ranks a loop, and
    // each split doubles or triples the rule
    let counters = ranged.iter().filter(|u| u.splittable());
    for u in counters.take(MAX_SPLIT) {
        let width = Q::from(BigInt::from(u.hi - u.lo + 1));
        let [lo, hi] = within(&u.value, u.lo, u.hi);
        let w = LinExpr::constant(width);
        // the in-range case's bound on a side the value never passes holds anyway
        let mut exact = vec![Constraint::eq(&u.r, &u.value)];
        exact.extend(u.sides.below.then(|| lo.clone()));
        exact.extend(u.sides.above.then(|| hi.clone()));
        let mut cases = vec![exact];
        if u.sides.above {
            cases.push(vec![negate(&hi), Constraint::eq(&u.r, &u.value.minus(&w))]);
        }
        if u.sides.below {
            cases.push(vec![negate(&lo), Constraint::eq(&u.r, &u.value.plus(&w))]);
        }
        out = out
            .into_iter()
            .flat_map(|g| {
                cases.iter().map(move |c| {
                    let mut g = g.clone();
                    g.extend(c.iter().cloned());
                    g
                })
            })
            .collect();
    }
    out
}

/// `¬(e ≤ 0)` over the integers, for a canonical `≤` constraint: `e > 0`.
fn negate(c: &Constraint) -> Constraint {
    Constraint::new(c.expr.scaled(&-Q::one()), Rel::Lt)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::from_graph) fn v(i: u32) -> LinExpr {
        LinExpr::var(Var(i))
    }
    pub(in crate::from_graph) fn k(c: i64) -> LinExpr {
        LinExpr::constant(Q::from(BigInt::from(c)))
    }
    const MAX: i128 = i32::MAX as i128;
    const MIN: i128 = i32::MIN as i128;

    /// `r = i + 1` over variables i = 0, n = 1, r = 2, with each in the int range.
    fn increment() -> (RangedUpdate, Vec<Constraint>) {
        let ranges: Vec<Constraint> = (0..3).flat_map(|i| within(&v(i), MIN, MAX)).collect();
        (
            RangedUpdate::new(v(2), v(0).plus(&k(1)), MIN, MAX, true),
            ranges,
        )
    }

    #[test]
    fn a_guard_below_a_bounded_int_makes_the_increment_exact() {
        let (u, ranges) = increment();
        let mut guard = vec![Constraint::lt(&v(0), &v(1))];
        exact_in_range(&[u], 3, &ranges, &mut guard);
        assert!(guard.contains(&Constraint::eq(&v(2), &v(0).plus(&k(1)))));
    }

    #[test]
    fn without_the_guard_the_increment_stays_inexact() {
        let (u, ranges) = increment();
        let mut guard = vec![Constraint::le(&v(0), &v(1))]; // i = n = MAX wraps
        exact_in_range(&[u], 3, &ranges, &mut guard);
        assert_eq!(guard.len(), 1);
    }

    #[test]
    fn an_increment_splits_into_its_exact_case_and_its_wrap_above() {
        let (u, _) = increment();
        let up = u.clone().on_sides(Sides {
            above: true,
            below: false,
        });
        assert_eq!(wrap_cases(&[u], Vec::new()).len(), 3);
        let cases = wrap_cases(&[up], Vec::new());
        assert_eq!(cases.len(), 2);
        // exact: i + 1 ≤ MAX (no bound below); wrapped: i + 1 > MAX, r = i + 1 − 2³²
        let w = k(1 << 32);
        assert!(cases[0].contains(&Constraint::le(&v(0).plus(&k(1)), &k(MAX as i64))));
        assert_eq!(cases[0].len(), 2);
        assert!(cases[1].contains(&Constraint::eq(&v(2), &v(0).plus(&k(1)).minus(&w))));
    }

    #[test]
    fn a_proved_update_is_a_premise_of_the_next() {
        // r = i + 1 (i < n), s = r + 1 (needs r < n ... here r ≤ n − 1 + 1 − 1: r < n given)
        let ranges: Vec<Constraint> = (0..4).flat_map(|i| within(&v(i), MIN, MAX)).collect();
        let first = RangedUpdate::new(v(2), v(0).plus(&k(1)), MIN, MAX, true);
        let second = RangedUpdate::new(v(3), v(2).minus(&k(2)), MIN, MAX, true);
        // i ≥ 0 and i < n: r = i + 1 fits; s = r − 2 ≥ MIN needs r ≥ MIN + 2, from r = i + 1
        let mut guard = vec![
            Constraint::lt(&v(0), &v(1)),
            Constraint::ge(&v(0), &LinExpr::zero()),
        ];
        exact_in_range(&[second, first], 4, &ranges, &mut guard);
        assert!(guard.contains(&Constraint::eq(&v(2), &v(0).plus(&k(1)))));
        assert!(guard.contains(&Constraint::eq(&v(3), &v(2).minus(&k(2)))));
    }
}
