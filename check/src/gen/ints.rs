//! Integer sampling, biased to the values where programs change behaviour.
//!
//! Distribution for an interval `I` (first clipped to the Java `int` range, or the `long`
//! range for longs, because every sample runs in the JVM):
//!
//! * 50 %: one of the *boundary* values that lie in `I`, uniformly: `0`, `±1`, `±2`, every
//!   constant the method compares against and its neighbours `c ± 1`, `Integer.MIN_VALUE`,
//!   `Integer.MAX_VALUE` (for longs also `Long.MIN_VALUE`, `Long.MAX_VALUE`), and the bounds
//!   of `I` and their inner neighbours;
//! * 30 %: a small value, uniform in `[-10, 10] ∩ I`;
//! * 20 %: uniform over `I`.
//!
//! A category without a value in `I` falls through to the next one (uniform over `I` always
//! has one).
//!
//! Before that, an int of a sample other than a length repeats, with probability
//! [`REPEAT`], a value the sample already drew for another int (one in `I`, uniformly among
//! them; [`repeat`]): two independent draws are rarely equal, and programs compare their
//! ints with each other (`o.v == v` of two keys, a list element against the searched value).

use jtg_engine::state::{Interval, JAVA_MAX, JAVA_MIN};
use rand::Rng;

/// `Long.MIN_VALUE`, `Long.MAX_VALUE`.
pub(super) const LONG_MIN: i128 = i64::MIN as i128;
pub(super) const LONG_MAX: i128 = i64::MAX as i128;

/// `iv ∩ [Long.MIN_VALUE, Long.MAX_VALUE]` as finite bounds, or `None` if no Java long lies
/// in `iv`.
pub(super) fn long_bounds(iv: &Interval) -> Option<(i128, i128)> {
    let lo = iv.lo.unwrap_or(LONG_MIN).max(LONG_MIN);
    let hi = iv.hi.unwrap_or(LONG_MAX).min(LONG_MAX);
    (lo <= hi).then_some((lo, hi))
}

/// `iv ∩ [Integer.MIN_VALUE, Integer.MAX_VALUE]` as finite bounds, or `None` if no Java int
/// lies in `iv`.
pub(super) fn java_bounds(iv: &Interval) -> Option<(i128, i128)> {
    let lo = iv.lo.unwrap_or(JAVA_MIN).max(JAVA_MIN);
    let hi = iv.hi.unwrap_or(JAVA_MAX).min(JAVA_MAX);
    (lo <= hi).then_some((lo, hi))
}

/// The boundary values of the module docs that lie in `[lo, hi]`, sorted and deduplicated.
pub(super) fn boundary_values(lo: i128, hi: i128, compared: &[i128]) -> Vec<i128> {
    let mut v = vec![
        0,
        1,
        -1,
        2,
        -2,
        JAVA_MIN,
        JAVA_MAX,
        LONG_MIN,
        LONG_MAX,
        lo,
        hi,
        lo.saturating_add(1),
        hi.saturating_sub(1),
    ];
    for &c in compared {
        v.extend([c - 1, c, c + 1]);
    }
    v.retain(|x| (lo..=hi).contains(x));
    v.sort_unstable();
    v.dedup();
    v
}

/// How often an int repeats a value drawn before in the same sample.
pub(super) const REPEAT: f64 = 0.1;

/// With probability [`REPEAT`], one of the values of `drawn` in `[lo, hi]` (if there is one).
pub(super) fn repeat(rng: &mut impl Rng, lo: i128, hi: i128, drawn: &[i128]) -> Option<i128> {
    if !rng.gen_bool(REPEAT) {
        return None;
    }
    let fit: Vec<i128> = drawn
        .iter()
        .copied()
        .filter(|x| (lo..=hi).contains(x))
        .collect();
    (!fit.is_empty()).then(|| fit[rng.gen_range(0..fit.len())])
}

/// A random Java int (or long) in `[lo, hi]` (a non-empty range inside the Java range).
pub(super) fn sample(rng: &mut impl Rng, lo: i128, hi: i128, compared: &[i128]) -> i128 {
    let roll: f64 = rng.gen();
    if roll < 0.5 {
        let b = boundary_values(lo, hi, compared);
        if !b.is_empty() {
            return b[rng.gen_range(0..b.len())];
        }
    }
    if roll < 0.8 {
        let (a, z) = (lo.max(-10), hi.min(10));
        if a <= z {
            return rng.gen_range(a..=z);
        }
    }
    rng.gen_range(lo..=hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn samples_stay_in_the_interval_and_hit_the_boundaries() {
        let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(1);
        let iv = Interval::at_least(5);
        let (lo, hi) = java_bounds(&iv).expect("non-empty");
        assert_eq!((lo, hi), (5, JAVA_MAX));
        let xs: Vec<i128> = (0..2000).map(|_| sample(&mut rng, lo, hi, &[7])).collect();
        assert!(xs.iter().all(|x| (5..=JAVA_MAX).contains(x)));
        for want in [5, 6, 7, 8, JAVA_MAX] {
            assert!(xs.contains(&want), "{want} never sampled");
        }
        assert_eq!(java_bounds(&Interval::at_least(JAVA_MAX + 1)), None);
    }

    #[test]
    fn a_repeat_is_a_drawn_value_inside_the_interval() {
        let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(3);
        let drawn = [-5, 7, 1000];
        let xs: Vec<i128> = (0..2000)
            .filter_map(|_| repeat(&mut rng, 0, 100, &drawn))
            .collect();
        assert!(xs.iter().all(|x| *x == 7), "{xs:?}");
        // about REPEAT of the draws
        assert!((100..=300).contains(&xs.len()), "{} repeats", xs.len());
        assert!((0..100).all(|_| repeat(&mut rng, 0, 5, &drawn).is_none()));
    }

    #[test]
    fn long_samples_reach_the_long_boundaries() {
        let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(2);
        let (lo, hi) = long_bounds(&Interval::TOP).expect("non-empty");
        assert_eq!((lo, hi), (LONG_MIN, LONG_MAX));
        let xs: Vec<i128> = (0..4000).map(|_| sample(&mut rng, lo, hi, &[])).collect();
        for want in [LONG_MIN, LONG_MAX, JAVA_MIN, JAVA_MAX, 0, -1] {
            assert!(xs.contains(&want), "{want} never sampled");
        }
        assert!(xs.iter().any(|x| *x > JAVA_MAX || *x < JAVA_MIN));
    }
}
