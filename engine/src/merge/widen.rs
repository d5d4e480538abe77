//! Integer merge and widening (spec §7.4).
//!
//! The merge of two intervals is their convex hull. Hulls alone do not make chains of merges
//! at a loop head stabilize (`[0,0] ⊔ [0,1] ⊔ [0,2] ⊔ …` grows forever), so the second and later
//! merges at one loop head *widen*: a bound of the newer interval that lies beyond the older
//! one jumps to the nearest threshold beyond it, or to infinity. A bound can take only finitely
//! many values under widening (the threshold candidates and ±∞), so every chain of widening
//! merges changes each bound a bounded number of times. Without thresholds, each bound moves
//! at most once, so a chain changes at most twice.
//!
//! Thresholds are the constants the method compares against: for a comparison with `c`, the
//! interesting bounds are `c - 1`, `c` and `c + 1` (the edges of the two branches of `x < c`,
//! `x <= c`, …). Stopping there keeps loop conditions decidable after widening, which a jump to
//! ±∞ would lose.
//!
//! Under Java `int` semantics "infinity" is the Java bound: widened bounds are clamped to
//! `[JAVA_MIN, JAVA_MAX]`, so widened values stay the most general *int*, not a mathematical
//! integer outside the type. The clamp never narrows the hull of the inputs (an input written
//! as `Z` stays `Z`), so both inputs are always contained in the result.

use super::MergeOptions;
use crate::state::{IntSemantics, Interval, JAVA_MAX, JAVA_MIN};

/// Merges the interval `old` (of the first, older state) with `new` (of the second state).
///
/// With `opts.widen == false` the result is the hull. With `opts.widen == true` every bound of
/// `new` beyond `old`'s bound moves to the nearest threshold candidate beyond it (or ±∞); bounds
/// that did not move stay. The result always contains both inputs.
pub(crate) fn merge_interval(old: &Interval, new: &Interval, opts: &MergeOptions) -> Interval {
    let bounds = match opts.sem {
        IntSemantics::Unbounded => None,
        IntSemantics::Java => Some((JAVA_MIN, JAVA_MAX)),
    };
    merge_within(old, new, opts, bounds)
}

/// [`merge_interval`] for `long` values: under Java ints "infinity" is the 64-bit bound.
pub(crate) fn merge_long_interval(old: &Interval, new: &Interval, opts: &MergeOptions) -> Interval {
    let bounds = match opts.sem {
        IntSemantics::Unbounded => None,
        IntSemantics::Java => Some((i128::from(i64::MIN), i128::from(i64::MAX))),
    };
    merge_within(old, new, opts, bounds)
}

fn merge_within(
    old: &Interval,
    new: &Interval,
    opts: &MergeOptions,
    bounds: Option<(i128, i128)>,
) -> Interval {
    let hull = old.hull(new);
    if !opts.widen {
        return hull;
    }
    let widened = {
        let cands = candidates(&opts.thresholds);
        let lo = if lo_below(new.lo, old.lo) {
            // An infinite `new.lo` stays infinite; a finite one goes to the nearest candidate
            // at or below it, or to -∞ when there is none.
            new.lo
                .and_then(|b| cands.iter().rev().copied().find(|&t| t <= b))
        } else {
            old.lo
        };
        let hi = if hi_above(new.hi, old.hi) {
            new.hi.and_then(|b| cands.iter().copied().find(|&t| t >= b))
        } else {
            old.hi
        };
        Interval { lo, hi }
    };
    // The clamp applies to the bounds widening produced; it never cuts into the inputs.
    clamp(widened, bounds).hull(&hull)
}

/// Sorted, deduplicated threshold candidates `c - 1, c, c + 1` for every constant `c`.
fn candidates(thresholds: &[i128]) -> Vec<i128> {
    let mut v: Vec<i128> = thresholds
        .iter()
        .flat_map(|&c| [c.checked_sub(1), Some(c), c.checked_add(1)])
        .flatten()
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Whether lower bound `a` lies strictly below lower bound `b` (`None` = -∞).
fn lo_below(a: Option<i128>, b: Option<i128>) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(x), Some(y)) => x < y,
    }
}

/// Whether upper bound `a` lies strictly above upper bound `b` (`None` = +∞).
fn hi_above(a: Option<i128>, b: Option<i128>) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(x), Some(y)) => x > y,
    }
}

/// Under Java ints, infinite or out-of-range bounds become the type's bounds.
fn clamp(i: Interval, bounds: Option<(i128, i128)>) -> Interval {
    match bounds {
        None => i,
        Some((min, max)) => {
            let lo = i.lo.unwrap_or(min).clamp(min, max);
            let hi = i.hi.unwrap_or(max).clamp(min, max);
            // Both inputs are in the type's range, so the hull is non-empty after clamping;
            // keep the fallback total anyway.
            Interval::new(Some(lo), Some(hi)).unwrap_or(Interval {
                lo: Some(min),
                hi: Some(max),
            })
        }
    }
}
