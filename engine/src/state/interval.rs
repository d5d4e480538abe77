//! Integer intervals `[a, b]` with `a ∈ Z ∪ {-∞}`, `b ∈ Z ∪ {+∞}` (spec §2.1), and the interval
//! arithmetic of both integer semantics (`unbounded` mathematical integers, `java` 32-bit
//! wrap-around).
//!
//! Bounds are `i128`. In the unbounded semantics a bound whose exact value would leave `i128`
//! becomes infinite, which over-approximates soundly.

use std::cmp::Ordering;
use std::fmt;

/// Which integers the engine models (`--ints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum IntSemantics {
    /// Mathematical integers, as in the thesis: no overflow.
    #[default]
    Unbounded,
    /// Java `int`: every value in `[-2^31, 2^31-1]`, arithmetic wraps around.
    Java,
}

pub const JAVA_MIN: i128 = i32::MIN as i128;
pub const JAVA_MAX: i128 = i32::MAX as i128;

/// A non-empty integer interval. `None` bounds are infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    pub lo: Option<i128>,
    pub hi: Option<i128>,
}

/// An extended integer used for corner computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

impl Ext {
    fn sign(self) -> i32 {
        match self {
            Ext::NegInf => -1,
            Ext::PosInf => 1,
            Ext::Fin(v) => v.signum() as i32,
        }
    }
    fn inf(sign: i32) -> Ext {
        if sign < 0 {
            Ext::NegInf
        } else {
            Ext::PosInf
        }
    }
    fn mul(self, o: Ext) -> Ext {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => a
                .checked_mul(b)
                .map(Ext::Fin)
                .unwrap_or(Ext::inf(a.signum() as i32 * b.signum() as i32)),
            _ => {
                let s = self.sign() * o.sign();
                if s == 0 {
                    Ext::Fin(0)
                } else {
                    Ext::inf(s)
                }
            }
        }
    }
    /// Division truncating toward zero; `o` is never zero.
    fn div(self, o: Ext) -> Ext {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => a.checked_div(b).map(Ext::Fin).unwrap_or(Ext::PosInf),
            (Ext::Fin(_), _) => Ext::Fin(0),
            (_, _) => Ext::inf(self.sign() * o.sign()),
        }
    }
}

fn lo_ext(b: Option<i128>) -> Ext {
    b.map(Ext::Fin).unwrap_or(Ext::NegInf)
}
fn hi_ext(b: Option<i128>) -> Ext {
    b.map(Ext::Fin).unwrap_or(Ext::PosInf)
}
fn from_ext(lo: Ext, hi: Ext) -> Interval {
    let lo = match lo {
        Ext::Fin(v) => Some(v),
        _ => None,
    };
    let hi = match hi {
        Ext::Fin(v) => Some(v),
        _ => None,
    };
    Interval { lo, hi }
}

impl Interval {
    /// `Z`, all integers.
    pub const TOP: Interval = Interval { lo: None, hi: None };

    pub fn literal(v: i128) -> Interval {
        Interval {
            lo: Some(v),
            hi: Some(v),
        }
    }
    /// `[lo, hi]`; `None` if empty.
    pub fn new(lo: Option<i128>, hi: Option<i128>) -> Option<Interval> {
        match (lo, hi) {
            (Some(a), Some(b)) if a > b => None,
            _ => Some(Interval { lo, hi }),
        }
    }
    pub fn at_least(v: i128) -> Interval {
        Interval {
            lo: Some(v),
            hi: None,
        }
    }
    pub fn at_most(v: i128) -> Interval {
        Interval {
            lo: None,
            hi: Some(v),
        }
    }
    /// The most general value of an integral type under `sem`.
    pub fn most_general(sem: IntSemantics) -> Interval {
        match sem {
            IntSemantics::Unbounded => Interval::TOP,
            IntSemantics::Java => Interval {
                lo: Some(JAVA_MIN),
                hi: Some(JAVA_MAX),
            },
        }
    }
    /// `[-2^63, 2^63-1]`, the values of a Java `long`.
    pub fn long_range() -> Interval {
        Interval {
            lo: Some(i128::from(i64::MIN)),
            hi: Some(i128::from(i64::MAX)),
        }
    }
    pub fn as_literal(&self) -> Option<i128> {
        match (self.lo, self.hi) {
            (Some(a), Some(b)) if a == b => Some(a),
            _ => None,
        }
    }
    pub fn contains(&self, v: i128) -> bool {
        self.lo.is_none_or(|l| l <= v) && self.hi.is_none_or(|h| v <= h)
    }
    /// `self ⊆ other`.
    pub fn is_subset_of(&self, other: &Interval) -> bool {
        lo_ext(other.lo) <= lo_ext(self.lo) && hi_ext(self.hi) <= hi_ext(other.hi)
    }
    /// Convex hull.
    pub fn hull(&self, other: &Interval) -> Interval {
        from_ext(
            lo_ext(self.lo).min(lo_ext(other.lo)),
            hi_ext(self.hi).max(hi_ext(other.hi)),
        )
    }
    pub fn intersect(&self, other: &Interval) -> Option<Interval> {
        let lo = lo_ext(self.lo).max(lo_ext(other.lo));
        let hi = hi_ext(self.hi).min(hi_ext(other.hi));
        if lo > hi {
            None
        } else {
            Some(from_ext(lo, hi))
        }
    }
    /// The part of the interval strictly below `c` / at most `c` / …; `None` when empty.
    pub fn below(&self, c: i128) -> Option<Interval> {
        self.intersect(&Interval::at_most(c.checked_sub(1)?))
    }
    pub fn at_most_part(&self, c: i128) -> Option<Interval> {
        self.intersect(&Interval::at_most(c))
    }
    pub fn above(&self, c: i128) -> Option<Interval> {
        self.intersect(&Interval::at_least(c.checked_add(1)?))
    }
    pub fn at_least_part(&self, c: i128) -> Option<Interval> {
        self.intersect(&Interval::at_least(c))
    }

    /// Compares every element of `self` with every element of `other`: `Some(ord)` when all pairs
    /// compare the same way (`Equal` only for two equal literals), `None` otherwise.
    pub fn compare(&self, other: &Interval) -> Option<Ordering> {
        if let (Some(a), Some(b)) = (self.as_literal(), other.as_literal()) {
            return Some(a.cmp(&b));
        }
        if hi_ext(self.hi) < lo_ext(other.lo) {
            Some(Ordering::Less)
        } else if hi_ext(other.hi) < lo_ext(self.lo) {
            Some(Ordering::Greater)
        } else {
            None
        }
    }

    /// Decides `x cond y` for all `x ∈ self`, `y ∈ other`: `Some(b)` when every pair gives `b`.
    pub fn decide(&self, cond: crate::class::Cond, other: &Interval) -> Option<bool> {
        use crate::class::Cond::*;
        let (alo, ahi, blo, bhi) = (
            lo_ext(self.lo),
            hi_ext(self.hi),
            lo_ext(other.lo),
            hi_ext(other.hi),
        );
        let lt = |t: bool, f: bool| {
            if t {
                Some(true)
            } else if f {
                Some(false)
            } else {
                None
            }
        };
        match cond {
            Lt => lt(ahi < blo, alo >= bhi),
            Le => lt(ahi <= blo, alo > bhi),
            Gt => lt(alo > bhi, ahi <= blo),
            Ge => lt(alo >= bhi, ahi < blo),
            Eq | Ne => {
                let eq = match (self.as_literal(), other.as_literal()) {
                    (Some(a), Some(b)) => Some(a == b),
                    _ if self.intersect(other).is_none() => Some(false),
                    _ => None,
                };
                eq.map(|e| e == (cond == Eq))
            }
        }
    }

    fn exact_add(&self, o: &Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        };
        Interval { lo, hi }
    }
    fn exact_neg(&self) -> Interval {
        Interval {
            lo: self.hi.and_then(|h| h.checked_neg()),
            hi: self.lo.and_then(|l| l.checked_neg()),
        }
    }
    fn exact_mul(&self, o: &Interval) -> Interval {
        let cs = [
            lo_ext(self.lo).mul(lo_ext(o.lo)),
            lo_ext(self.lo).mul(hi_ext(o.hi)),
            hi_ext(self.hi).mul(lo_ext(o.lo)),
            hi_ext(self.hi).mul(hi_ext(o.hi)),
        ];
        from_ext(
            *cs.iter().min().expect("four corners"),
            *cs.iter().max().expect("four corners"),
        )
    }
    /// Truncating division; `o` must not contain 0 (callers split the zero case first).
    fn exact_div(&self, o: &Interval) -> Interval {
        let mut result: Option<Interval> = None;
        for part in [o.below(0), o.above(0)].into_iter().flatten() {
            let cs = [
                lo_ext(self.lo).div(lo_ext(part.lo)),
                lo_ext(self.lo).div(hi_ext(part.hi)),
                hi_ext(self.hi).div(lo_ext(part.lo)),
                hi_ext(self.hi).div(hi_ext(part.hi)),
            ];
            let r = from_ext(
                *cs.iter().min().expect("corners"),
                *cs.iter().max().expect("corners"),
            );
            result = Some(result.map_or(r, |acc| acc.hull(&r)));
        }
        result.unwrap_or(Interval::TOP)
    }
    /// Java remainder (sign of the dividend, magnitude below the divisor's); `o` excludes 0.
    fn exact_rem(&self, o: &Interval) -> Interval {
        if let (Some(a), Some(b)) = (self.as_literal(), o.as_literal()) {
            if b != 0 {
                return Interval::literal(a.checked_rem(b).unwrap_or(0));
            }
        }
        // the largest |divisor| - 1
        let max_abs = match (o.lo, o.hi) {
            (Some(l), Some(h)) => l.checked_abs().and_then(|l| l.max(h.abs()).checked_sub(1)),
            _ => None,
        };
        let mut acc: Option<Interval> = None;
        if let Some(pos) = self.at_least_part(0) {
            let hi = match (pos.hi, max_abs) {
                (Some(h), Some(m)) => Some(h.min(m)),
                (h, None) => h,
                (None, m) => m,
            };
            acc = Some(Interval { lo: Some(0), hi });
        }
        if let Some(neg) = self.at_most_part(0) {
            let lo = match (neg.lo, max_abs) {
                (Some(l), Some(m)) => Some(l.max(-m)),
                (l, None) => l,
                (None, m) => m.map(|m| -m),
            };
            let r = Interval { lo, hi: Some(0) };
            acc = Some(acc.map_or(r, |a| a.hull(&r)));
        }
        acc.unwrap_or(Interval::literal(0))
    }

    /// Maps an exact (mathematical) result into the semantics: identity for unbounded, 32-bit
    /// wrap-around for Java (exact where it is representable, otherwise the full int range).
    fn wrap(self, sem: IntSemantics) -> Interval {
        self.wrap_to(sem, Width::Int)
    }

    /// `Interval::wrap` for a value of `width` bits: under Java ints an exact result outside
    /// the type's range wraps (exactly where the wrapped values form one interval, else the
    /// whole range).
    pub fn wrap_to(self, sem: IntSemantics, width: Width) -> Interval {
        match sem {
            IntSemantics::Unbounded => self,
            IntSemantics::Java => {
                let full = width.range();
                if self.is_subset_of(&full) {
                    return self;
                }
                if let (Some(lo), Some(hi)) = (self.lo, self.hi) {
                    let span = 1i128 << width.bits();
                    if hi.checked_sub(lo).is_some_and(|d| d < span) {
                        let wl = width.wrap(lo);
                        let wh = width.wrap(hi);
                        if wl <= wh {
                            return Interval {
                                lo: Some(wl),
                                hi: Some(wh),
                            };
                        }
                    }
                }
                full
            }
        }
    }
    /// Whether the exact result of an operation leaves the Java int range (only meaningful when
    /// both operands are Java ints).
    pub fn overflows_java(&self) -> bool {
        !self.is_subset_of(&Interval::most_general(IntSemantics::Java))
    }

    pub fn add(&self, o: &Interval, sem: IntSemantics) -> Interval {
        self.exact_add(o).wrap(sem)
    }
    pub fn sub(&self, o: &Interval, sem: IntSemantics) -> Interval {
        self.exact_add(&o.exact_neg()).wrap(sem)
    }
    pub fn mul(&self, o: &Interval, sem: IntSemantics) -> Interval {
        self.exact_mul(o).wrap(sem)
    }
    pub fn neg(&self, sem: IntSemantics) -> Interval {
        self.exact_neg().wrap(sem)
    }
    /// Division; the divisor must exclude 0.
    pub fn div(&self, o: &Interval, sem: IntSemantics) -> Interval {
        self.exact_div(o).wrap(sem)
    }
    /// Remainder; the divisor must exclude 0.
    pub fn rem(&self, o: &Interval, sem: IntSemantics) -> Interval {
        self.exact_rem(o).wrap(sem)
    }
    /// The exact (mathematical) result of an operation, used to decide whether Java overflow is
    /// possible.
    pub fn exact(op: crate::state::IntOp, a: &Interval, b: &Interval) -> Interval {
        use crate::state::IntOp::*;
        match op {
            Add => a.exact_add(b),
            Sub => a.exact_add(&b.exact_neg()),
            Mul => a.exact_mul(b),
            Div => a.exact_div(b),
            Rem => a.exact_rem(b),
            Neg => a.exact_neg(),
            Shr => a.exact_shr(b),
            // `>>>` of a negative value depends on the width: only a non-negative one is known
            Ushr if a.lo.is_some_and(|l| l >= 0) => a.exact_shr(b),
            Ushr => Interval::TOP,
        }
    }

    /// `a >> k` for a literal `k` in `0..64` (`⌊a / 2ᵏ⌋`, monotone); otherwise unknown.
    fn exact_shr(&self, b: &Interval) -> Interval {
        match b.as_literal() {
            Some(k) if (0..64).contains(&k) => Interval {
                lo: self.lo.map(|l| l >> k),
                hi: self.hi.map(|h| h >> k),
            },
            _ => Interval::TOP,
        }
    }

    /// Parses the printed forms: `Z`, `7`, `-3`, `[≥1]`, `[>0]`, `[≤0]`, `[<0]`, `[1,5]`,
    /// `[0,∞)`, `(-∞,0]`, `(-inf,inf)`.
    pub fn parse(s: &str) -> Option<Interval> {
        let s = s.trim();
        if s == "Z" || s == "ℤ" {
            return Some(Interval::TOP);
        }
        if let Ok(v) = s.parse::<i128>() {
            return Some(Interval::literal(v));
        }
        let body = s.strip_prefix('[').or_else(|| s.strip_prefix('('))?;
        let body = body.strip_suffix(']').or_else(|| body.strip_suffix(')'))?;
        for (pfx, f) in [
            ("≥", 0i128),
            (">=", 0),
            (">", 1),
            ("≤", 2),
            ("<=", 2),
            ("<", 3),
        ] {
            if let Some(num) = body.strip_prefix(pfx) {
                let v: i128 = num.trim().parse().ok()?;
                return Some(match f {
                    0 => Interval::at_least(v),
                    1 => Interval::at_least(v.checked_add(1)?),
                    2 => Interval::at_most(v),
                    _ => Interval::at_most(v.checked_sub(1)?),
                });
            }
        }
        let (a, b) = body.split_once(',')?;
        let bound = |t: &str| -> Option<Option<i128>> {
            match t.trim() {
                "-∞" | "-inf" | "∞" | "+∞" | "inf" | "+inf" => Some(None),
                t => t.parse().ok().map(Some),
            }
        };
        Interval::new(bound(a)?, bound(b)?)
    }
}

/// The width of a Java integral type with wrap-around arithmetic: `int` or `long`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Width {
    Int,
    Long,
}

impl Width {
    pub fn bits(self) -> u32 {
        match self {
            Width::Int => 32,
            Width::Long => 64,
        }
    }
    /// All values of the type.
    pub fn range(self) -> Interval {
        match self {
            Width::Int => Interval::most_general(IntSemantics::Java),
            Width::Long => Interval::long_range(),
        }
    }
    /// Two's-complement wrap of a value into the type.
    pub fn wrap(self, v: i128) -> i128 {
        match self {
            Width::Int => wrap32(v),
            Width::Long => wrap64(v),
        }
    }
}

/// Two's-complement wrap of a value into the 64-bit range.
pub fn wrap64(v: i128) -> i128 {
    (v as i64) as i128 // truncation keeps the low 64 bits
}

/// Two's-complement wrap of a value into the 32-bit range.
pub fn wrap32(v: i128) -> i128 {
    (v as i32) as i128 // truncation keeps the low 32 bits, which is the JVM's wrap
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.lo, self.hi) {
            (None, None) => f.write_str("Z"),
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (Some(a), None) => write!(f, "[≥{a}]"),
            (None, Some(b)) => write!(f, "[≤{b}]"),
            (Some(a), Some(b)) => write!(f, "[{a},{b}]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn iv(lo: Option<i64>, hi: Option<i64>) -> Interval {
        let (lo, hi) = (lo.map(i128::from), hi.map(i128::from));
        match (lo, hi) {
            (Some(a), Some(b)) if a > b => Interval { lo: hi, hi: lo },
            _ => Interval { lo, hi },
        }
    }

    #[test]
    fn display_parse() {
        for (s, i) in [
            ("Z", Interval::TOP),
            ("7", Interval::literal(7)),
            ("-3", Interval::literal(-3)),
            ("[≥1]", Interval::at_least(1)),
            ("[≤0]", Interval::at_most(0)),
            ("[1,5]", Interval::new(Some(1), Some(5)).unwrap()),
        ] {
            assert_eq!(i.to_string(), s);
            assert_eq!(Interval::parse(s), Some(i));
        }
        assert_eq!(Interval::parse("[>0]"), Some(Interval::at_least(1)));
        assert_eq!(Interval::parse("[0,∞)"), Some(Interval::at_least(0)));
        assert_eq!(Interval::parse("(-inf,0]"), Some(Interval::at_most(0)));
        assert_eq!(Interval::parse("[5,1]"), None);
        assert_eq!(Interval::parse("[x]"), None);
    }

    #[test]
    fn java_wrap() {
        let max = Interval::literal(JAVA_MAX);
        let one = Interval::literal(1);
        assert_eq!(
            max.add(&one, IntSemantics::Java),
            Interval::literal(JAVA_MIN)
        );
        assert_eq!(
            max.add(&one, IntSemantics::Unbounded),
            Interval::literal(JAVA_MAX + 1)
        );
        let min = Interval::literal(JAVA_MIN);
        assert_eq!(
            min.div(&Interval::literal(-1), IntSemantics::Java),
            Interval::literal(JAVA_MIN)
        );
        let near = Interval::new(Some(JAVA_MAX - 1), Some(JAVA_MAX)).unwrap();
        assert_eq!(
            near.add(&one, IntSemantics::Java),
            Interval::most_general(IntSemantics::Java)
        );
    }

    fn sample(i: &Interval) -> Vec<i128> {
        let mut v = vec![];
        for c in [-1000i128, -7, -3, -2, -1, 0, 1, 2, 3, 7, 1000] {
            if i.contains(c) {
                v.push(c);
            }
        }
        v.extend(i.lo);
        v.extend(i.hi);
        v
    }

    quickcheck! {
        fn arithmetic_is_sound(a: (Option<i64>, Option<i64>), b: (Option<i64>, Option<i64>)) -> bool {
            let (x, y) = (iv(a.0.map(|v| v % 100), a.1.map(|v| v % 100)), iv(b.0.map(|v| v % 100), b.1.map(|v| v % 100)));
            let sem = IntSemantics::Unbounded;
            sample(&x).into_iter().all(|p| sample(&y).into_iter().all(|q| {
                x.add(&y, sem).contains(p + q)
                    && x.sub(&y, sem).contains(p - q)
                    && x.mul(&y, sem).contains(p * q)
                    && x.neg(sem).contains(-p)
                    && (q == 0 || x.div(&y, sem).contains(p / q))
                    && (q == 0 || x.rem(&y, sem).contains(p % q))
            }))
        }

        fn java_arithmetic_is_sound(p: i32, q: i32, w: u8) -> bool {
            let w = i128::from(w);
            let x = Interval::new(Some(i128::from(p)), Some((i128::from(p) + w).min(JAVA_MAX))).unwrap();
            let y = Interval::literal(i128::from(q));
            let sem = IntSemantics::Java;
            x.add(&y, sem).contains(i128::from(p.wrapping_add(q)))
                && x.sub(&y, sem).contains(i128::from(p.wrapping_sub(q)))
                && x.mul(&y, sem).contains(i128::from(p.wrapping_mul(q)))
                && x.neg(sem).contains(i128::from(p.wrapping_neg()))
                && (q == 0 || x.div(&y, sem).contains(i128::from(p.wrapping_div(q))))
                && (q == 0 || x.rem(&y, sem).contains(i128::from(p.wrapping_rem(q))))
        }

        fn hull_and_subset(a: (Option<i64>, Option<i64>), b: (Option<i64>, Option<i64>)) -> bool {
            let (x, y) = (iv(a.0, a.1), iv(b.0, b.1));
            let h = x.hull(&y);
            x.is_subset_of(&h) && y.is_subset_of(&h)
                && x.intersect(&y).is_none_or(|i| i.is_subset_of(&x) && i.is_subset_of(&y))
        }
    }

    #[test]
    fn long_wrap_is_exact_or_the_whole_range() {
        let sem = IntSemantics::Java;
        let max = Interval::literal(i128::from(i64::MAX));
        let one = Interval::literal(1);
        let sum = Interval::exact(crate::state::IntOp::Add, &max, &one);
        assert_eq!(
            sum.wrap_to(sem, Width::Long),
            Interval::literal(i128::from(i64::MIN))
        );
        // an int-range interval is left alone at 64 bits, unlike at 32 bits
        let big = Interval::literal(JAVA_MAX + 1);
        assert_eq!(big.wrap_to(sem, Width::Long), big);
        assert_eq!(big.wrap_to(sem, Width::Int), Interval::literal(JAVA_MIN));
        // unbounded: no wrap at all
        assert_eq!(sum.wrap_to(IntSemantics::Unbounded, Width::Long), sum);
        // straddling the boundary: the whole range
        let near = Interval::new(Some(i128::from(i64::MAX) - 1), Some(i128::from(i64::MAX)));
        let s2 = Interval::exact(crate::state::IntOp::Add, &near.unwrap(), &one);
        assert_eq!(s2.wrap_to(sem, Width::Long), Interval::long_range());
    }

    quickcheck! {
        fn long_ops_contain_the_jvm_results(p: i64, w: u16, q: i64) -> bool {
            use crate::state::IntOp::*;
            let lo = i128::from(p);
            let x = Interval::new(Some(lo), Some((lo + i128::from(w)).min(i128::from(i64::MAX))))
                .unwrap();
            let y = Interval::literal(i128::from(q));
            let sem = IntSemantics::Java;
            let op = |o, a: &Interval, b: &Interval| Interval::exact(o, a, b).wrap_to(sem, Width::Long);
            op(Add, &x, &y).contains(i128::from(p.wrapping_add(q)))
                && op(Sub, &x, &y).contains(i128::from(p.wrapping_sub(q)))
                && op(Mul, &x, &y).contains(i128::from(p.wrapping_mul(q)))
                && op(Neg, &x, &x).contains(i128::from(p.wrapping_neg()))
                && (q == 0 || op(Div, &x, &y).contains(i128::from(p.wrapping_div(q))))
                && (q == 0 || op(Rem, &x, &y).contains(i128::from(p.wrapping_rem(q))))
        }
    }
}
