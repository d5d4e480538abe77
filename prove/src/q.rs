//! Exact rationals with a machine-word fast path.
//!
//! Almost every number the prover meets (coefficients of guards, updates, multipliers of small
//! linear programs) fits in an `i64` fraction; a `BigRational` per entry would allocate on every
//! operation. `Q` keeps such numbers as a reduced `i64/i64` pair and computes in `i128`; a
//! result that does not fit is promoted to a `BigRational`, never wrapped. The representation is
//! canonical (a value that fits is always small), so equality and hashing are structural.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// An exact rational number.
#[derive(Clone)]
pub struct Q(Repr);

#[derive(Clone)]
enum Repr {
    /// `n / d` with `d > 0`, `gcd(n, d) = 1`, both in `(-2^63, 2^63)`.
    Small(i64, i64),
    /// Only for values that do not fit `Small`.
    Big(Box<BigRational>),
}

const LIMIT: i128 = i64::MAX as i128;

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Q {
    /// Builds `n / d` from `i128` parts (`d != 0`), reducing and promoting as needed.
    fn from_i128(n: i128, d: i128) -> Q {
        debug_assert!(d != 0);
        // i128::MIN cannot be negated; such values only arise from huge products, go big.
        if n == i128::MIN || d == i128::MIN {
            return Q::from_big(BigRational::new(BigInt::from(n), BigInt::from(d)));
        }
        let (mut n, mut d) = if d < 0 { (-n, -d) } else { (n, d) };
        let g = gcd_u128(n.unsigned_abs(), d as u128) as i128;
        if g > 1 {
            n /= g;
            d /= g;
        }
        if n.abs() <= LIMIT && d <= LIMIT {
            Q(Repr::Small(n as i64, d as i64))
        } else {
            Q(Repr::Big(Box::new(BigRational::new_raw(
                BigInt::from(n),
                BigInt::from(d),
            ))))
        }
    }

    /// Canonical form of a (reduced) big rational.
    pub fn from_big(r: BigRational) -> Q {
        let (n, d) = (r.numer(), r.denom());
        match (n.to_i64(), d.to_i64()) {
            (Some(a), Some(b)) if a != i64::MIN && b != i64::MIN => Q(Repr::Small(a, b)),
            _ => Q(Repr::Big(Box::new(r))),
        }
    }

    pub fn zero() -> Q {
        Q(Repr::Small(0, 1))
    }

    pub fn one() -> Q {
        Q(Repr::Small(1, 1))
    }

    pub fn int(n: i64) -> Q {
        if n == i64::MIN {
            Q::from_big(BigRational::from_integer(BigInt::from(n)))
        } else {
            Q(Repr::Small(n, 1))
        }
    }

    /// `n / d`; panics if `d == 0` (a programming error, never input-dependent).
    pub fn frac(n: i64, d: i64) -> Q {
        assert!(d != 0, "Q::frac with zero denominator");
        Q::from_i128(n as i128, d as i128)
    }

    pub fn to_big(&self) -> BigRational {
        match &self.0 {
            Repr::Small(n, d) => BigRational::new_raw(BigInt::from(*n), BigInt::from(*d)),
            Repr::Big(b) => (**b).clone(),
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0, _))
    }

    pub fn is_one(&self) -> bool {
        matches!(self.0, Repr::Small(1, 1))
    }

    pub fn signum(&self) -> i32 {
        match &self.0 {
            Repr::Small(n, _) => n.signum() as i32,
            Repr::Big(b) => {
                if b.is_positive() {
                    1
                } else if b.is_negative() {
                    -1
                } else {
                    0
                }
            }
        }
    }

    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small(_, d) => *d == 1,
            Repr::Big(b) => b.is_integer(),
        }
    }

    pub fn numer(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, _) => BigInt::from(*n),
            Repr::Big(b) => b.numer().clone(),
        }
    }

    pub fn denom(&self) -> BigInt {
        match &self.0 {
            Repr::Small(_, d) => BigInt::from(*d),
            Repr::Big(b) => b.denom().clone(),
        }
    }

    /// The integer value, if this is an integer.
    pub fn to_integer(&self) -> Option<BigInt> {
        self.is_integer().then(|| self.numer())
    }

    pub fn floor(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, d) => BigInt::from(n.div_floor(d)),
            Repr::Big(b) => b.floor().to_integer(),
        }
    }

    pub fn ceil(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, d) => BigInt::from(n.div_ceil(d)),
            Repr::Big(b) => b.ceil().to_integer(),
        }
    }

    pub fn abs(&self) -> Q {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }

    /// `1 / self`; panics on zero (callers divide only by pivots they checked).
    pub fn recip(&self) -> Q {
        match &self.0 {
            Repr::Small(n, d) => {
                assert!(*n != 0, "Q::recip of zero");
                Q::from_i128(*d as i128, *n as i128)
            }
            Repr::Big(b) => Q::from_big(b.recip()),
        }
    }

    /// The nearest `f64` (for the float solver's candidates only; nothing exact reads it).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small(n, d) => *n as f64 / *d as f64,
            Repr::Big(b) => b.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// Bits of numerator plus denominator: a size measure for reporting.
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small(n, d) => {
                (64 - n.unsigned_abs().leading_zeros() + 64 - d.unsigned_abs().leading_zeros())
                    as u64
            }
            Repr::Big(b) => b.numer().bits() + b.denom().bits(),
        }
    }

    fn big_op(a: &Q, b: &Q, f: impl Fn(BigRational, BigRational) -> BigRational) -> Q {
        Q::from_big(f(a.to_big(), b.to_big()))
    }
}

impl From<i64> for Q {
    fn from(n: i64) -> Q {
        Q::int(n)
    }
}

impl From<i32> for Q {
    fn from(n: i32) -> Q {
        Q::int(n as i64)
    }
}

impl From<BigInt> for Q {
    fn from(n: BigInt) -> Q {
        Q::from_big(BigRational::from_integer(n))
    }
}

impl From<&BigInt> for Q {
    fn from(n: &BigInt) -> Q {
        Q::from_big(BigRational::from_integer(n.clone()))
    }
}

impl From<BigRational> for Q {
    fn from(r: BigRational) -> Q {
        Q::from_big(r)
    }
}

impl PartialEq for Q {
    fn eq(&self, other: &Q) -> bool {
        match (&self.0, &other.0) {
            (Repr::Small(a, b), Repr::Small(c, d)) => a == c && b == d,
            (Repr::Big(x), Repr::Big(y)) => x == y,
            _ => false,
        }
    }
}

impl Eq for Q {}

impl Hash for Q {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match &self.0 {
            Repr::Small(n, d) => {
                0u8.hash(state);
                n.hash(state);
                d.hash(state);
            }
            Repr::Big(b) => {
                1u8.hash(state);
                b.hash(state);
            }
        }
    }
}

impl Ord for Q {
    fn cmp(&self, other: &Q) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a, b), Repr::Small(c, d)) => {
                if b == d {
                    a.cmp(c)
                } else {
                    (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128))
                }
            }
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, other: &Q) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n, 1) => write!(f, "{n}"),
            Repr::Small(n, d) => write!(f, "{n}/{d}"),
            Repr::Big(b) => {
                if b.is_integer() {
                    write!(f, "{}", b.numer())
                } else {
                    write!(f, "{}/{}", b.numer(), b.denom())
                }
            }
        }
    }
}

impl fmt::Debug for Q {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error of [`Q::from_str`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a rational number: {0:?}")]
pub struct ParseQError(pub String);

impl FromStr for Q {
    type Err = ParseQError;
    fn from_str(s: &str) -> Result<Q, ParseQError> {
        let err = || ParseQError(s.to_string());
        let (n, d) = match s.split_once('/') {
            Some((n, d)) => (n, d),
            None => (s, "1"),
        };
        let n: BigInt = n.trim().parse().map_err(|_| err())?;
        let d: BigInt = d.trim().parse().map_err(|_| err())?;
        if d.is_zero() {
            return Err(err());
        }
        Ok(Q::from_big(BigRational::new(n, d)))
    }
}

impl Serialize for Q {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Q {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Q, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl Neg for &Q {
    type Output = Q;
    fn neg(self) -> Q {
        match &self.0 {
            // |n| < 2^63, so -n fits.
            Repr::Small(n, d) => Q(Repr::Small(-n, *d)),
            Repr::Big(b) => Q::from_big(-(**b).clone()),
        }
    }
}

impl Neg for Q {
    type Output = Q;
    fn neg(self) -> Q {
        -&self
    }
}

impl Add<&Q> for &Q {
    type Output = Q;
    fn add(self, o: &Q) -> Q {
        match (&self.0, &o.0) {
            (Repr::Small(a, b), Repr::Small(c, d)) => {
                if b == d {
                    Q::from_i128(*a as i128 + *c as i128, *b as i128)
                } else {
                    let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                    Q::from_i128(a * d + c * b, b * d)
                }
            }
            _ => Q::big_op(self, o, |x, y| x + y),
        }
    }
}

impl Sub<&Q> for &Q {
    type Output = Q;
    fn sub(self, o: &Q) -> Q {
        match (&self.0, &o.0) {
            (Repr::Small(a, b), Repr::Small(c, d)) => {
                if b == d {
                    Q::from_i128(*a as i128 - *c as i128, *b as i128)
                } else {
                    let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
                    Q::from_i128(a * d - c * b, b * d)
                }
            }
            _ => Q::big_op(self, o, |x, y| x - y),
        }
    }
}

impl Mul<&Q> for &Q {
    type Output = Q;
    fn mul(self, o: &Q) -> Q {
        match (&self.0, &o.0) {
            (Repr::Small(0, _), _) | (_, Repr::Small(0, _)) => Q::zero(),
            (Repr::Small(a, b), Repr::Small(c, d)) => {
                Q::from_i128(*a as i128 * *c as i128, *b as i128 * *d as i128)
            }
            _ => Q::big_op(self, o, |x, y| x * y),
        }
    }
}

impl Div<&Q> for &Q {
    type Output = Q;
    #[allow(clippy::suspicious_arithmetic_impl)] // a / b = a · b⁻¹
    fn div(self, o: &Q) -> Q {
        self * &o.recip()
    }
}

macro_rules! forward_binop {
    ($tr:ident, $m:ident) => {
        impl $tr<Q> for Q {
            type Output = Q;
            fn $m(self, o: Q) -> Q {
                (&self).$m(&o)
            }
        }
        impl $tr<&Q> for Q {
            type Output = Q;
            fn $m(self, o: &Q) -> Q {
                (&self).$m(o)
            }
        }
        impl $tr<Q> for &Q {
            type Output = Q;
            fn $m(self, o: Q) -> Q {
                self.$m(&o)
            }
        }
    };
}
forward_binop!(Add, add);
forward_binop!(Sub, sub);
forward_binop!(Mul, mul);
forward_binop!(Div, div);

impl AddAssign<&Q> for Q {
    fn add_assign(&mut self, o: &Q) {
        *self = &*self + o;
    }
}

impl AddAssign<Q> for Q {
    fn add_assign(&mut self, o: Q) {
        *self = &*self + &o;
    }
}

impl SubAssign<&Q> for Q {
    fn sub_assign(&mut self, o: &Q) {
        *self = &*self - o;
    }
}

impl MulAssign<&Q> for Q {
    fn mul_assign(&mut self, o: &Q) {
        *self = &*self * o;
    }
}

impl Default for Q {
    fn default() -> Q {
        Q::zero()
    }
}

impl Zero for Q {
    fn zero() -> Q {
        Q::zero()
    }
    fn is_zero(&self) -> bool {
        Q::is_zero(self)
    }
}

impl One for Q {
    fn one() -> Q {
        Q::one()
    }
}

/// Least common multiple of the denominators of `qs` (1 for none).
pub(crate) fn lcm_denominators<'a>(qs: impl IntoIterator<Item = &'a Q>) -> BigInt {
    qs.into_iter()
        .fold(BigInt::one(), |acc, q| acc.lcm(&q.denom()))
}

/// Greatest common divisor of the numerators of `qs` (0 for none or all zero).
pub(crate) fn gcd_numerators<'a>(qs: impl IntoIterator<Item = &'a Q>) -> BigInt {
    qs.into_iter()
        .fold(BigInt::zero(), |acc, q| acc.gcd(&q.numer()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn big(n: i64, d: i64) -> BigRational {
        BigRational::new(BigInt::from(n), BigInt::from(d))
    }

    quickcheck! {
        fn arithmetic_agrees_with_bigrational(a: i64, b: i64, c: i64, d: i64) -> bool {
            let b = if b == 0 { 1 } else { b };
            let d = if d == 0 { 1 } else { d };
            let (x, y) = (Q::frac(a, b), Q::frac(c, d));
            let (bx, by) = (big(a, b), big(c, d));
            let div_ok = if c == 0 { true } else { (&x / &y).to_big() == &bx / &by };
            (&x + &y).to_big() == &bx + &by
                && (&x - &y).to_big() == &bx - &by
                && (&x * &y).to_big() == &bx * &by
                && div_ok
                && x.cmp(&y) == bx.cmp(&by)
                && (-&x).to_big() == -bx.clone()
                && x.floor() == bx.floor().to_integer()
                && x.ceil() == bx.ceil().to_integer()
        }

        fn representation_is_canonical(a: i64, b: i64, c: i64) -> bool {
            let b = if b == 0 { 1 } else { b };
            let c = if c == 0 { 1 } else { c };
            // (a/b * c) / c computed through big intermediates equals a/b made directly.
            let x = Q::frac(a, b);
            let y = &(&x * &Q::int(c)) * &Q::int(c);
            let z = &(&y / &Q::int(c)) / &Q::int(c);
            z == x && Q::from_big(x.to_big()) == x
        }

        fn display_parses_back(a: i64, b: i64) -> bool {
            let b = if b == 0 { 1 } else { b };
            let x = &Q::frac(a, b) * &Q::frac(a, 3);
            x.to_string().parse::<Q>().unwrap() == x
        }
    }

    #[test]
    fn overflow_promotes_instead_of_wrapping() {
        let m = Q::int(i64::MAX);
        let s = &m + &m;
        assert_eq!(s.to_string(), "18446744073709551614");
        assert_eq!(&s - &m, m);
        let p = &m * &m;
        assert_eq!(&p / &m, m);
        assert_eq!(Q::int(i64::MIN).to_string(), "-9223372036854775808");
        assert_eq!(-Q::int(i64::MIN), &Q::int(i64::MAX) + &Q::one());
    }

    #[test]
    fn parse_rejects_garbage() {
        assert!("1/0".parse::<Q>().is_err());
        assert!("x".parse::<Q>().is_err());
        assert_eq!("-6/4".parse::<Q>().unwrap(), Q::frac(-3, 2));
    }
}
