//! Models of `java.lang.Math`, the static utilities of `Integer` and `Long`, and the `char`
//! predicates and mappings of `Character`: results as the intervals the Javadoc guarantees,
//! exact where the method is a function the intervals can express.
//!
//! Wrapping: `Math.abs(Integer.MIN_VALUE)` is `Integer.MIN_VALUE` ("Note that if the argument
//! is equal to the value of Integer.MIN_VALUE ... the result is that same value, which is
//! negative"), `Math.floorDiv(MIN_VALUE, -1)` is `MIN_VALUE` ("integer overflow occurs"),
//! `Integer.sum` is `+`. Under unbounded ints these results are the mathematical ones (a run
//! that wraps leaves the model there, as at an overflowing `iadd`: the checker's
//! `path/overflow.rs` knows these calls), under Java ints they wrap.
//!
//! Doubles and floats are not values the engine keeps (`eval/float.rs`): a `double` result is
//! any double.

use crate::state::{IntOp, IntSemantics, Interval, Width};

/// A `Math`/`Integer`/`Long`/`Character` method with a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum NumberCall {
    /// `Math.abs` of a long (`Math.abs(I)I` is [`super::LibraryCall::MathAbs`]).
    AbsLong,
    /// `Math.max`/`min` of longs, `Integer.max/min`, `Long.max/min`.
    MaxMin { max: bool, width: Width },
    /// `Integer.sum`/`Long.sum`: `a + b` (wraps).
    Sum(Width),
    /// A `Math` method of `double`s (or `float`s) returning one: any value of the type
    /// (`sqrt`, `log`, `pow`, `abs(D)`, `floor`, …): the engine keeps no double values.
    AnyFloat { double: bool },
    /// `Math.round(D)J` (`long: true`) / `round(F)I`: any value of the result type.
    Round { long: bool },
    /// `Math.floorMod`: "the floor modulus ... has the same sign as the divisor y ... in the
    /// range -abs(y) < r < +abs(y)"; "ArithmeticException - if the divisor y is zero".
    FloorMod(Width),
    /// `Math.floorDiv`: "the largest (closest to positive infinity) value that is less than or
    /// equal to the algebraic quotient"; MIN_VALUE / -1 overflows to MIN_VALUE;
    /// ArithmeticException for a zero divisor.
    FloorDiv(Width),
    /// `Math.addExact`/`subtractExact`/`multiplyExact`: the exact result, "ArithmeticException
    /// - if the result overflows".
    Exact { op: IntOp, width: Width },
    /// `Math.incrementExact`/`decrementExact`/`negateExact` (`delta`: +1, -1, or 0 for negate).
    ExactUnary { delta: i8, width: Width },
    /// `Math.toIntExact(J)I`: "ArithmeticException - if the argument overflows an int".
    ToIntExact,
    /// `Integer.signum(I)I`, `Long.signum(J)I`: "-1 if the specified value is negative; 0 if
    /// the specified value is zero; 1 if the specified value is positive".
    Signum(Width),
    /// `Integer.compare`, `Long.compare`, `Character.compare`: "the value 0 if x == y; a value
    /// less than 0 if x < y; and a value greater than 0 if x > y". The Javadoc promises the
    /// sign only; the JDK's code (unchanged since JDK 7) returns `-1`/`0`/`1` for ints and longs
    /// and `x - y` for chars, so the result's magnitude is at most [`CompareReach`]'s.
    Compare(CompareReach),
    /// `bitCount`, `numberOfLeadingZeros`, `numberOfTrailingZeros`: `[0, bits]`, exact on a
    /// literal.
    Bits { kind: BitsKind, width: Width },
    /// `highestOneBit`: "a single one-bit, in the position of the highest-order ("leftmost")
    /// one-bit in the specified value, or zero if the specified value is itself equal to zero".
    HighestOneBit(Width),
    /// `Long.parseLong(String)`: any long, or NumberFormatException.
    ParseLong,
    /// A `Character` predicate of a `char` or code point: `[0,1]`, exact on ASCII values.
    CharTest(CharClass),
    /// `Character.toUpperCase(C)C`/`toLowerCase(C)C`: a char, exact on ASCII values (the other
    /// characters map by the Unicode tables, which the model does not hold).
    CharCase { upper: bool },
    /// `Character.getNumericValue(C)I`: "the numeric value of the character, as a nonnegative
    /// int value; -2 if the character has a numeric value but the value cannot be represented
    /// as a nonnegative int value; -1 if the character has no numeric value".
    NumericValue,
    /// `Character.digit(CI)I`: "the numeric value represented by the character in the
    /// specified radix", or -1; at most `Character.MAX_RADIX - 1` = 35.
    Digit,
}

/// How far from 0 a `compare` result reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CompareReach {
    /// `Integer.compare`, `Long.compare`: `(x < y) ? -1 : ((x == y) ? 0 : 1)`.
    Unit,
    /// `Character.compare`: `x - y` of two chars, within `[-65535, 65535]`.
    Chars,
}

impl CompareReach {
    /// The largest magnitude of a result.
    pub(crate) fn max(self) -> i128 {
        match self {
            CompareReach::Unit => 1,
            CompareReach::Chars => 65535,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum BitsKind {
    Count,
    LeadingZeros,
    TrailingZeros,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CharClass {
    Digit,
    Letter,
    LetterOrDigit,
    Alphabetic,
    Whitespace,
    SpaceChar,
    Upper,
    Lower,
}

/// The model of `class.name desc` among `Math`, `Integer`, `Long`, `Character`, if any.
pub(crate) fn number_call(class: &str, name: &str, desc: &str) -> Option<NumberCall> {
    use NumberCall::*;
    let int_or_long = |d: &str, int: &str, long: &str| {
        if d == int {
            Some(Width::Int)
        } else if d == long {
            Some(Width::Long)
        } else {
            None
        }
    };
    match class {
        "java/lang/Math" | "java/lang/StrictMath" => {
            if let Some(w) = int_or_long(desc, "(II)I", "(JJ)J") {
                return match name {
                    // `max`/`min(II)I` are `LibraryCall::MathMax`/`MathMin`
                    "max" if w == Width::Long => Some(MaxMin {
                        max: true,
                        width: w,
                    }),
                    "min" if w == Width::Long => Some(MaxMin {
                        max: false,
                        width: w,
                    }),
                    "floorMod" => Some(FloorMod(w)),
                    "floorDiv" => Some(FloorDiv(w)),
                    "addExact" => Some(Exact {
                        op: IntOp::Add,
                        width: w,
                    }),
                    "subtractExact" => Some(Exact {
                        op: IntOp::Sub,
                        width: w,
                    }),
                    "multiplyExact" => Some(Exact {
                        op: IntOp::Mul,
                        width: w,
                    }),
                    _ => None,
                };
            }
            if let Some(w) = int_or_long(desc, "(I)I", "(J)J") {
                return match name {
                    "abs" if w == Width::Long => Some(AbsLong),
                    "incrementExact" => Some(ExactUnary { delta: 1, width: w }),
                    "decrementExact" => Some(ExactUnary {
                        delta: -1,
                        width: w,
                    }),
                    "negateExact" => Some(ExactUnary { delta: 0, width: w }),
                    _ => None,
                };
            }
            match (name, desc) {
                ("toIntExact", "(J)I") => Some(ToIntExact),
                ("round", "(D)J") => Some(Round { long: true }),
                ("round", "(F)I") => Some(Round { long: false }),
                ("random", "()D") => Some(AnyFloat { double: true }),
                (
                    "abs" | "max" | "min" | "sqrt" | "cbrt" | "log" | "log10" | "log1p" | "exp"
                    | "expm1" | "pow" | "floor" | "ceil" | "rint" | "signum" | "sin" | "cos"
                    | "tan" | "asin" | "acos" | "atan" | "atan2" | "hypot" | "toRadians"
                    | "toDegrees" | "sinh" | "cosh" | "tanh",
                    "(D)D" | "(DD)D",
                ) => Some(AnyFloat { double: true }),
                ("abs" | "max" | "min" | "signum", "(F)F" | "(FF)F") => {
                    Some(AnyFloat { double: false })
                }
                _ => None,
            }
        }
        "java/lang/Integer" | "java/lang/Long" => {
            let w = if class == "java/lang/Integer" {
                Width::Int
            } else {
                Width::Long
            };
            let (one, two) = match w {
                Width::Int => ("(I)I", "(II)I"),
                Width::Long => ("(J)I", "(JJ)I"),
            };
            let (same1, same2) = match w {
                Width::Int => ("(I)I", "(II)I"),
                Width::Long => ("(J)J", "(JJ)J"),
            };
            match name {
                "signum" if desc == one => Some(Signum(w)),
                "compare" if desc == two => Some(Compare(CompareReach::Unit)),
                "bitCount" if desc == one => Some(Bits {
                    kind: BitsKind::Count,
                    width: w,
                }),
                "numberOfLeadingZeros" if desc == one => Some(Bits {
                    kind: BitsKind::LeadingZeros,
                    width: w,
                }),
                "numberOfTrailingZeros" if desc == one => Some(Bits {
                    kind: BitsKind::TrailingZeros,
                    width: w,
                }),
                "highestOneBit" if desc == same1 => Some(HighestOneBit(w)),
                "max" if desc == same2 => Some(MaxMin {
                    max: true,
                    width: w,
                }),
                "min" if desc == same2 => Some(MaxMin {
                    max: false,
                    width: w,
                }),
                "sum" if desc == same2 => Some(Sum(w)),
                "parseLong" if w == Width::Long && desc == "(Ljava/lang/String;)J" => {
                    Some(ParseLong)
                }
                _ => None,
            }
        }
        "java/lang/Character" => {
            let test = match name {
                "isDigit" => CharClass::Digit,
                "isLetter" => CharClass::Letter,
                "isLetterOrDigit" => CharClass::LetterOrDigit,
                "isAlphabetic" => CharClass::Alphabetic,
                "isWhitespace" => CharClass::Whitespace,
                "isSpaceChar" => CharClass::SpaceChar,
                "isUpperCase" => CharClass::Upper,
                "isLowerCase" => CharClass::Lower,
                _ => {
                    return match (name, desc) {
                        ("toUpperCase", "(C)C") => Some(CharCase { upper: true }),
                        ("toLowerCase", "(C)C") => Some(CharCase { upper: false }),
                        ("getNumericValue", "(C)I" | "(I)I") => Some(NumericValue),
                        ("digit", "(CI)I" | "(II)I") => Some(Digit),
                        ("compare", "(CC)I") => Some(Compare(CompareReach::Chars)),
                        _ => None,
                    }
                }
            };
            // `isAlphabetic` exists for code points only
            let ok = desc == "(I)Z" || (desc == "(C)Z" && test != CharClass::Alphabetic);
            ok.then_some(CharTest(test))
        }
        _ => None,
    }
}

/// `Math.abs` on an interval of `width` (exact under unbounded ints; `abs(MIN) = MIN` under
/// Java ints).
pub(crate) fn abs(v: &Interval, sem: IntSemantics, width: Width) -> Interval {
    let neg = v
        .at_most_part(-1)
        .map(|n| Interval::exact(IntOp::Neg, &n, &n).wrap_to(sem, width));
    let pos = v.at_least_part(0);
    match (neg, pos) {
        (Some(a), Some(b)) => a.hull(&b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => *v,
    }
}

/// `x mod y` with the sign of `y` (`floorMod`); `y` excludes 0.
pub(crate) fn floor_mod(x: &Interval, y: &Interval) -> Interval {
    if let (Some(a), Some(b)) = (x.as_literal(), y.as_literal()) {
        if b != 0 {
            return Interval::literal(a - floor_div_lit(a, b) * b);
        }
    }
    let mut acc: Option<Interval> = None;
    if let Some(pos) = y.at_least_part(1) {
        // [0, y - 1]; `x` itself when 0 ≤ x < y
        let hi = pos.hi.map(|h| h - 1);
        let hi = match (x.at_least_part(0), x.lo) {
            (Some(xp), Some(l)) if l >= 0 => min_opt(hi, xp.hi),
            _ => hi,
        };
        acc = Some(Interval { lo: Some(0), hi });
    }
    if let Some(neg) = y.at_most_part(-1) {
        let lo = neg.lo.map(|l| l + 1);
        let lo = match x.hi {
            Some(h) if h <= 0 => max_opt(lo, x.lo),
            _ => lo,
        };
        let r = Interval { lo, hi: Some(0) };
        acc = Some(acc.map_or(r, |a| a.hull(&r)));
    }
    acc.unwrap_or(Interval::literal(0))
}

/// `floorDiv(x, y)` for `y` excluding 0, in the semantics (`MIN / -1` wraps under Java ints).
pub(crate) fn floor_div(x: &Interval, y: &Interval, sem: IntSemantics, width: Width) -> Interval {
    let mut acc: Option<Interval> = None;
    if let Some(pos) = y.at_least_part(1) {
        acc = Some(floor_div_pos(x, &pos));
    }
    if let Some(neg) = y.at_most_part(-1) {
        // floor(x / y) = floor(-x / -y)
        let nx = Interval::exact(IntOp::Neg, x, x);
        let ny = Interval::exact(IntOp::Neg, &neg, &neg);
        let r = floor_div_pos(&nx, &ny);
        acc = Some(acc.map_or(r, |a| a.hull(&r)));
    }
    acc.unwrap_or(Interval::TOP).wrap_to(sem, width)
}

/// `floor(x / y)` for `y ≥ 1` (exact integers).
fn floor_div_pos(x: &Interval, y: &Interval) -> Interval {
    let mut acc: Option<Interval> = None;
    let ylo = y.lo.unwrap_or(1).max(1);
    if let Some(xp) = x.at_least_part(0) {
        // x ≥ 0: increasing in x, decreasing in y (x / ∞ = 0)
        let lo = match (xp.lo, y.hi) {
            (Some(l), Some(h)) => Some(floor_div_lit(l, h)),
            (Some(_), None) => Some(0),
            (None, _) => None,
        };
        let hi = xp.hi.map(|h| floor_div_lit(h, ylo));
        acc = Some(Interval { lo, hi });
    }
    if let Some(xn) = x.at_most_part(-1) {
        // x < 0: increasing in x and in y (x / ∞ = -1)
        let lo = xn.lo.map(|l| floor_div_lit(l, ylo));
        let hi = match (xn.hi, y.hi) {
            (Some(h), Some(yh)) => Some(floor_div_lit(h, yh)),
            (Some(_), None) => Some(-1),
            (None, _) => None,
        };
        let r = Interval { lo, hi };
        acc = Some(acc.map_or(r, |a| a.hull(&r)));
    }
    acc.unwrap_or(Interval::TOP)
}

fn floor_div_lit(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn min_opt(a: Option<i128>, b: Option<i128>) -> Option<i128> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

fn max_opt(a: Option<i128>, b: Option<i128>) -> Option<i128> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// The sign of each value of `v`: a sub-interval of `[-1, 1]`.
pub(crate) fn signum(v: &Interval) -> Interval {
    let parts = [
        v.at_most_part(-1).map(|_| Interval::literal(-1)),
        v.intersect(&Interval::literal(0)),
        v.at_least_part(1).map(|_| Interval::literal(1)),
    ];
    parts
        .into_iter()
        .flatten()
        .reduce(|a, b| a.hull(&b))
        .unwrap_or(Interval::literal(0))
}

/// What `compare(x, y)` may return: `[-reach, -1]`, `0`, `[1, reach]` for the possible orders.
pub(crate) fn compare(x: &Interval, y: &Interval, same: bool, reach: CompareReach) -> Interval {
    let less = Interval::new(Some(-reach.max()), Some(-1)).expect("-reach ≤ -1");
    let greater = Interval::new(Some(1), Some(reach.max())).expect("1 ≤ reach");
    if same {
        return Interval::literal(0);
    }
    let lt = x.decide(crate::class::Cond::Lt, y);
    let gt = x.decide(crate::class::Cond::Gt, y);
    let eq = x.decide(crate::class::Cond::Eq, y);
    let mut parts = vec![];
    if lt != Some(false) {
        parts.push(less);
    }
    if eq != Some(false) {
        parts.push(Interval::literal(0));
    }
    if gt != Some(false) {
        parts.push(greater);
    }
    parts
        .into_iter()
        .reduce(|a, b| a.hull(&b))
        .unwrap_or(Interval::literal(0))
}

/// `bitCount` and the zero counts: exact on a literal, else `[0, bits]`.
pub(crate) fn bits(kind: BitsKind, v: &Interval, width: Width) -> Interval {
    let n = width.bits();
    match v.as_literal() {
        Some(x) => {
            let u = (width.wrap(x) as u128) & ((1u128 << n) - 1);
            let r = match kind {
                BitsKind::Count => u.count_ones(),
                BitsKind::LeadingZeros => u.leading_zeros() - (128 - n),
                BitsKind::TrailingZeros => u.trailing_zeros().min(n),
            };
            Interval::literal(i128::from(r))
        }
        None => Interval::new(Some(0), Some(i128::from(n))).expect("0 ≤ bits"),
    }
}

/// `highestOneBit`: exact on a literal; `[1, x]` for positive values, `0` for 0, `MIN` for
/// negative ones (their highest one-bit is the sign bit).
pub(crate) fn highest_one_bit(v: &Interval, width: Width) -> Interval {
    if let Some(x) = v.as_literal() {
        let w = width.wrap(x);
        let r = if w == 0 {
            0
        } else if w < 0 {
            width.range().lo.expect("bounded")
        } else {
            1i128 << (127 - w.leading_zeros())
        };
        return Interval::literal(r);
    }
    let parts = [
        v.at_most_part(-1)
            .map(|_| Interval::literal(width.range().lo.expect("bounded"))),
        v.intersect(&Interval::literal(0)),
        v.at_least_part(1).map(|p| Interval {
            lo: Some(1),
            hi: p.hi,
        }),
    ];
    parts
        .into_iter()
        .flatten()
        .reduce(|a, b| a.hull(&b))
        .unwrap_or(Interval::literal(0))
}

/// Whether the ASCII character `c` passes `test` (Java's definitions restricted to ASCII).
fn ascii_test(test: CharClass, c: u8) -> bool {
    let ws = matches!(c, 9..=13 | 28..=32);
    match test {
        CharClass::Digit => c.is_ascii_digit(),
        CharClass::Letter | CharClass::Alphabetic => c.is_ascii_alphabetic(),
        CharClass::LetterOrDigit => c.is_ascii_alphanumeric(),
        CharClass::Whitespace => ws,
        CharClass::SpaceChar => c == b' ',
        CharClass::Upper => c.is_ascii_uppercase(),
        CharClass::Lower => c.is_ascii_lowercase(),
    }
}

/// The values `f` takes on `v` when `v` lies within ASCII (`[0, 127]`), else `other`.
fn over_ascii(v: &Interval, other: Interval, f: impl Fn(u8) -> i128) -> Interval {
    let ascii = Interval::new(Some(0), Some(127)).expect("0 ≤ 127");
    if !v.is_subset_of(&ascii) {
        return other;
    }
    let (lo, hi) = (v.lo.unwrap_or(0), v.hi.unwrap_or(127));
    (lo..=hi)
        .map(|c| Interval::literal(f(c as u8)))
        .reduce(|a, b| a.hull(&b))
        .unwrap_or(other)
}

/// A `Character` predicate on the chars (code points) in `v`: `[0,1]`, exact over ASCII. A
/// negative code point is no character: every predicate is false.
pub(crate) fn char_test(test: CharClass, v: &Interval) -> Interval {
    let any = Interval::new(Some(0), Some(1)).expect("0 ≤ 1");
    if v.hi.is_some_and(|h| h < 0) {
        return Interval::literal(0);
    }
    over_ascii(v, any, |c| i128::from(ascii_test(test, c)))
}

/// `Character.toUpperCase(C)C`/`toLowerCase(C)C` on the chars in `v`.
pub(crate) fn char_case(upper: bool, v: &Interval) -> Interval {
    let any = Interval::new(Some(0), Some(0xFFFF)).expect("0 ≤ 0xFFFF");
    over_ascii(v, any, |c| {
        i128::from(if upper {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        })
    })
}

/// The ASCII numeric value: digits 0–9, letters 10–35, else -1.
fn ascii_value(c: u8) -> i128 {
    match c {
        b'0'..=b'9' => i128::from(c - b'0'),
        b'a'..=b'z' => i128::from(c - b'a' + 10),
        b'A'..=b'Z' => i128::from(c - b'A' + 10),
        _ => -1,
    }
}

/// `Character.getNumericValue` on the chars in `v`.
pub(crate) fn numeric_value(v: &Interval) -> Interval {
    let any = Interval::new(Some(-2), Some(crate::state::JAVA_MAX)).expect("-2 ≤ MAX");
    over_ascii(v, any, ascii_value)
}

/// `Character.digit(c, radix)`: exact for ASCII chars and a literal radix (an invalid radix
/// gives -1), else `[-1, 35]`.
pub(crate) fn digit(c: &Interval, radix: &Interval) -> Interval {
    let any = Interval::new(Some(-1), Some(35)).expect("-1 ≤ 35");
    let Some(r) = radix.as_literal() else {
        return any;
    };
    if !(2..=36).contains(&r) {
        return Interval::literal(-1);
    }
    over_ascii(c, any, |ch| {
        let v = ascii_value(ch);
        if v < r {
            v
        } else {
            -1
        }
    })
}

/// Whether `class.name desc` is a JDK method whose result is defined by wrapping arithmetic
/// (its Javadoc says so): `Math.abs` ("if the argument is equal to the value of
/// Integer.MIN_VALUE ... the result is that same value, which is negative"), `Math.floorDiv`
/// ("if the dividend is Integer.MIN_VALUE and the divisor is -1, then integer overflow
/// occurs"), `Integer.sum`/`Long.sum` (the `+` operator). Under unbounded integers a run leaves
/// the model where such a call's mathematical result differs from the JVM's, as at `iadd`.
pub fn is_wrapping_call(class: &str, name: &str, desc: &str) -> bool {
    matches!(
        (class, name, desc),
        (
            "java/lang/Math" | "java/lang/StrictMath",
            "abs",
            "(I)I" | "(J)J"
        ) | (
            "java/lang/Math" | "java/lang/StrictMath",
            "floorDiv",
            "(II)I" | "(JJ)J" | "(JI)J"
        ) | ("java/lang/Integer", "sum", "(II)I")
            | ("java/lang/Long", "sum", "(JJ)J")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn iv(lo: i128, hi: i128) -> Interval {
        Interval::new(Some(lo), Some(hi)).unwrap()
    }

    #[test]
    fn abs_wraps_only_under_java_ints() {
        let min = i128::from(i32::MIN);
        let v = Interval::literal(min);
        assert_eq!(
            abs(&v, IntSemantics::Unbounded, Width::Int),
            Interval::literal(-min)
        );
        assert_eq!(abs(&v, IntSemantics::Java, Width::Int), v);
        let lmin = i128::from(i64::MIN);
        let l = Interval::literal(lmin);
        assert_eq!(abs(&l, IntSemantics::Java, Width::Long), l);
        assert_eq!(
            abs(&l, IntSemantics::Unbounded, Width::Long),
            Interval::literal(-lmin)
        );
        assert_eq!(abs(&iv(-3, 2), IntSemantics::Java, Width::Int), iv(0, 3));
    }

    #[test]
    fn table_names_only_the_modelled_methods() {
        assert_eq!(
            number_call("java/lang/Math", "floorMod", "(II)I"),
            Some(NumberCall::FloorMod(Width::Int))
        );
        assert_eq!(number_call("java/lang/Math", "abs", "(I)I"), None);
        assert_eq!(
            number_call("java/lang/Character", "isAlphabetic", "(C)Z"),
            None
        );
        assert_eq!(
            number_call("java/lang/Character", "isDigit", "(C)Z"),
            Some(NumberCall::CharTest(CharClass::Digit))
        );
        assert_eq!(
            number_call("java/lang/Long", "parseLong", "(Ljava/lang/String;I)J"),
            None
        );
    }

    #[test]
    fn character_models_are_exact_on_ascii() {
        assert_eq!(
            char_test(CharClass::Digit, &iv(48, 57)),
            Interval::literal(1)
        );
        assert_eq!(char_test(CharClass::Digit, &iv(47, 57)), iv(0, 1));
        assert_eq!(
            char_test(CharClass::Whitespace, &Interval::literal(32)),
            Interval::literal(1)
        );
        assert_eq!(char_test(CharClass::Upper, &iv(0, 200)), iv(0, 1));
        assert_eq!(char_case(true, &iv(97, 122)), iv(65, 90));
        assert_eq!(
            numeric_value(&Interval::literal(i128::from(b'z'))),
            Interval::literal(35)
        );
        assert_eq!(
            digit(&Interval::literal(i128::from(b'f')), &Interval::literal(16)),
            Interval::literal(15)
        );
        assert_eq!(
            digit(&Interval::literal(i128::from(b'g')), &Interval::literal(16)),
            Interval::literal(-1)
        );
    }

    #[test]
    fn bits_and_highest_one_bit_on_literals() {
        assert_eq!(
            bits(BitsKind::Count, &Interval::literal(-1), Width::Int),
            Interval::literal(32)
        );
        assert_eq!(
            bits(BitsKind::LeadingZeros, &Interval::literal(1), Width::Int),
            Interval::literal(31)
        );
        assert_eq!(
            bits(BitsKind::TrailingZeros, &Interval::literal(0), Width::Long),
            Interval::literal(64)
        );
        assert_eq!(
            highest_one_bit(&Interval::literal(100), Width::Int),
            Interval::literal(64)
        );
        assert_eq!(
            highest_one_bit(&Interval::literal(-5), Width::Int),
            Interval::literal(i128::from(i32::MIN))
        );
        assert_eq!(highest_one_bit(&iv(0, 9), Width::Int), iv(0, 9));
    }

    quickcheck! {
        // the interval models contain the JDK's value (computed here by Rust's own ops) of every
        // member of the argument intervals
        fn floor_div_and_mod_contain_the_values(a: i32, b: i32, c: i32, d: i32) -> bool {
            let (x, y) = (a.min(b) as i128, a.max(b) as i128);
            let (u, v) = (c.min(d) as i128, c.max(d) as i128);
            if u <= 0 && v >= 0 { return true; }
            let xs = iv(x, y);
            let ys = iv(u, v);
            let fd = floor_div(&xs, &ys, IntSemantics::Java, Width::Int);
            let fm = floor_mod(&xs, &ys);
            [x, y, (x + y) / 2].iter().all(|&p| [u, v, (u + v) / 2].iter().all(|&q| {
                // MIN / -1 wraps to MIN under Java ints
                let expect_div = crate::state::wrap32(floor_div_lit(p, q));
                let expect_mod = p - floor_div_lit(p, q) * q;
                fd.contains(expect_div) && fm.contains(expect_mod)
            }))
        }

        fn signum_and_compare_contain_the_values(a: i32, b: i32) -> bool {
            let i = iv(i128::from(a.min(b)), i128::from(a.max(b)));
            signum(&i).contains(i128::from(a.signum()))
                && compare(&Interval::literal(a.into()), &Interval::literal(b.into()), false, CompareReach::Unit)
                    .contains(i128::from(a.cmp(&b) as i8))
        }

        // the JDK's `Character.compare` is `x - y`
        fn char_compare_contains_the_difference(a: u16, b: u16) -> bool {
            let (x, y) = (i128::from(a), i128::from(b));
            let any = iv(0, 65535);
            compare(&Interval::literal(x), &Interval::literal(y), false, CompareReach::Chars)
                .contains(x - y)
                && compare(&any, &any, false, CompareReach::Chars) == iv(-65535, 65535)
        }
    }
}
