//! Float and double sampling, biased to the values where comparisons change their answer.
//!
//! * 50 %: a *boundary* value, uniformly: `0.0`, `-0.0`, `1.0`, `-1.0`, `NaN`, `Infinity`,
//!   `-Infinity`, `MIN_VALUE` (the least positive subnormal), `-MIN_VALUE`, `MAX_VALUE`,
//!   `-MAX_VALUE`;
//! * 30 %: a small value, uniform in `[-10, 10]` (half of them whole numbers, which equal
//!   integer constants);
//! * 20 %: uniform over all bit patterns (NaNs with other payloads included).
//!
//! Samples are bit patterns: `-0.0` and `0.0` differ, and NaN is a value like any other.

use rand::Rng;

/// The boundary values of the module docs, as `f64` (each is exact as an `f32` too, except
/// the `MIN_VALUE`/`MAX_VALUE` pair, which [`sample_f32`] takes from `f32`).
const SPECIAL: [f64; 7] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// A random float's bits.
pub(super) fn sample_f32(rng: &mut impl Rng) -> u32 {
    let roll: f64 = rng.gen();
    if roll < 0.5 {
        let extremes = [f32::from_bits(1), -f32::from_bits(1), f32::MAX, f32::MIN];
        let k = rng.gen_range(0..SPECIAL.len() + extremes.len());
        let x = SPECIAL
            .get(k)
            .map_or_else(|| extremes[k - SPECIAL.len()], |&x| x as f32);
        return x.to_bits();
    }
    if roll < 0.8 {
        return (small(rng) as f32).to_bits();
    }
    rng.gen()
}

/// A random double's bits.
pub(super) fn sample_f64(rng: &mut impl Rng) -> u64 {
    let roll: f64 = rng.gen();
    if roll < 0.5 {
        let extremes = [f64::from_bits(1), -f64::from_bits(1), f64::MAX, f64::MIN];
        let k = rng.gen_range(0..SPECIAL.len() + extremes.len());
        let x = SPECIAL
            .get(k)
            .map_or_else(|| extremes[k - SPECIAL.len()], |&x| x);
        return x.to_bits();
    }
    if roll < 0.8 {
        return small(rng).to_bits();
    }
    rng.gen()
}

/// A value in `[-10, 10]`: a whole number or any double.
fn small(rng: &mut impl Rng) -> f64 {
    if rng.gen_bool(0.5) {
        f64::from(rng.gen_range(-10i32..=10))
    } else {
        rng.gen_range(-10.0..=10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn doubles_reach_every_boundary_value() {
        let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(1);
        let xs: Vec<u64> = (0..4000).map(|_| sample_f64(&mut rng)).collect();
        let want = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::from_bits(1),
            f64::MAX,
            f64::MIN,
        ];
        for w in want {
            assert!(xs.contains(&w.to_bits()), "{w} never sampled");
        }
        // small fractions and values outside the boundary set appear too
        assert!(xs.iter().any(|b| f64::from_bits(*b).fract().abs() > 0.0));
        assert!(xs.iter().any(|b| f64::from_bits(*b).abs() > 10.0
            && f64::from_bits(*b).is_finite()
            && *b != f64::MAX.to_bits()
            && *b != f64::MIN.to_bits()));
    }

    #[test]
    fn floats_reach_every_boundary_value() {
        let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(2);
        let xs: Vec<u32> = (0..4000).map(|_| sample_f32(&mut rng)).collect();
        for w in [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
        ] {
            assert!(xs.contains(&w.to_bits()), "{w} never sampled");
        }
        assert!(
            xs.contains(&1) && xs.contains(&(1 | 0x8000_0000)),
            "±MIN_VALUE never sampled"
        );
    }
}
