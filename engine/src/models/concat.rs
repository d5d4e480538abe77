//! String concatenation (`StringConcatFactory.makeConcatWithConstants`, javac ≥ 9): the length
//! of the result, the only thing the model keeps of a string.
//!
//! The Javadoc: "the recipe ... \1 (Unicode point 0001): an ordinary argument. ... \2 (Unicode
//! point 0002): a constant. ... Any other char value: a single character constant"; each
//! argument is converted "as if by String.valueOf" (JLS §15.18.1: `null` becomes "null", a
//! primitive its `toString`, an object its `toString()`). So the result's length is the sum of
//! the recipe's literal characters, the constants' lengths and the lengths of the arguments'
//! string forms. The result is a new string ("The String object is newly created (§12.5)
//! unless the expression is a constant expression", JLS §15.18.1), except for a recipe of one
//! argument and nothing else (`"" + s`), the JDK's `String.valueOf` fast path, which may return
//! an existing string (see `eval/library/shared.rs`).

use crate::class::indy::BootstrapArg;
use crate::class::FieldType;
use crate::state::Interval;

/// The length of a recipe's constant parts (literal characters and `\2` constants, in UTF-16
/// units as `String.length()` counts) and the number of its `\1` arguments; an error text for a
/// constant the model cannot print.
pub(crate) fn recipe_length(
    recipe: &str,
    constants: &[BootstrapArg],
) -> Result<(i128, usize), String> {
    let mut len = 0i128;
    let mut args = 0usize;
    let mut next_constant = constants.iter();
    for c in recipe.chars() {
        match c {
            '\u{1}' => args += 1,
            '\u{2}' => {
                let k = next_constant
                    .next()
                    .ok_or("concatenation recipe with more \\2 than constants")?;
                len += match k {
                    BootstrapArg::String(s) => s.encode_utf16().count() as i128,
                    BootstrapArg::Int(v) => v.to_string().len() as i128,
                    BootstrapArg::Long(v) => v.to_string().len() as i128,
                    other => {
                        return Err(format!(
                            "string concatenation of the constant {other:?} is not modelled"
                        ))
                    }
                };
            }
            c => len += c.len_utf16() as i128,
        }
    }
    Ok((len, args))
}

/// `String.valueOf(null)` and the concatenation of `null`: "null".
pub(crate) const NULL_LENGTH: i128 = 4;

/// The length of the string form of a primitive of type `t` whose value lies in `v` (`None`
/// for a float or double, which the model keeps no interval of):
/// The methods of an object that string concatenation runs through `Object.toString()`, as
/// (name, descriptor): `toString()` itself and the `hashCode()` the default one calls
/// (`getClass().getName() + "@" + Integer.toHexString(hashCode())`, its Javadoc).
pub(crate) const OBJECT_TO_STRING_CALLS: [(&str, &str); 2] =
    [("toString", "()Ljava/lang/String;"), ("hashCode", "()I")];

/// `Integer.toString`/`Long.toString` "a minus sign ... followed by the magnitude ... in
/// decimal ... no leading zeros", `String.valueOf(char)` "a string of length 1",
/// `Boolean.toString` "true" or "false", and `Double.toString`/`Float.toString`: "NaN",
/// "Infinity", or at least one digit, a '.', and one digit: at least 3 characters.
pub(crate) fn primitive_length(t: &FieldType, v: Option<&Interval>) -> Interval {
    match t {
        FieldType::Char => Interval::literal(1),
        FieldType::Boolean => match v.map(|i| (i.lo, i.hi)) {
            Some((Some(0), Some(0))) => Interval::literal(5),
            Some((Some(1), Some(1))) => Interval::literal(4),
            _ => range(4, 5),
        },
        FieldType::Float | FieldType::Double => Interval::at_least(3),
        FieldType::Long => decimal_length(v, i128::from(i64::MIN), i128::from(i64::MAX)),
        _ => decimal_length(v, i128::from(i32::MIN), i128::from(i32::MAX)),
    }
}

/// The length of `Integer.toString()` of an `Integer` box whose value the model does not keep.
pub(crate) fn boxed_int_length() -> Interval {
    decimal_length(None, i128::from(i32::MIN), i128::from(i32::MAX))
}

/// `Object.toString()`: "getClass().getName() + '@' + Integer.toHexString(hashCode())", the
/// hex form 1 to 8 digits; `binary_name_len` is the length of the class's `getName()`.
pub(crate) fn object_to_string_length(binary_name_len: usize) -> Interval {
    let n = binary_name_len as i128;
    range(n + 2, n + 9)
}

fn range(lo: i128, hi: i128) -> Interval {
    Interval::new(Some(lo), Some(hi)).unwrap_or(Interval::TOP)
}

/// The number of characters of the decimal form of `v`.
fn decimal_len(v: i128) -> i128 {
    let digits = v.unsigned_abs().checked_ilog10().map_or(1, |d| d + 1);
    i128::from(digits) + i128::from(v < 0)
}

/// The lengths of the decimal forms of the values of `v` within `[min, max]` (the type's
/// range): shortest at the value nearest 0, longest at an end.
fn decimal_length(v: Option<&Interval>, min: i128, max: i128) -> Interval {
    let lo = v.and_then(|i| i.lo).map_or(min, |l| l.clamp(min, max));
    let hi = v.and_then(|i| i.hi).map_or(max, |h| h.clamp(min, max));
    if lo > hi {
        return range(1, decimal_len(min));
    }
    let shortest = if lo <= 0 && 0 <= hi {
        1
    } else if lo > 0 {
        decimal_len(lo)
    } else {
        decimal_len(hi)
    };
    range(shortest, decimal_len(lo).max(decimal_len(hi)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(lo: i128, hi: i128) -> Interval {
        range(lo, hi)
    }

    #[test]
    fn decimal_lengths_match_the_jdk_on_their_ends() {
        assert_eq!(decimal_len(0), 1);
        assert_eq!(decimal_len(-1), 2);
        assert_eq!(decimal_len(9), 1);
        assert_eq!(decimal_len(10), 2);
        assert_eq!(
            decimal_len(i128::from(i32::MIN)),
            i32::MIN.to_string().len() as i128
        );
        assert_eq!(
            decimal_len(i128::from(i64::MAX)),
            i64::MAX.to_string().len() as i128
        );
        assert_eq!(
            primitive_length(&FieldType::Int, Some(&iv(5, 5))),
            Interval::literal(1)
        );
        assert_eq!(
            primitive_length(&FieldType::Int, Some(&iv(-100, 50))),
            iv(1, 4)
        );
        assert_eq!(primitive_length(&FieldType::Int, None), iv(1, 11));
        assert_eq!(primitive_length(&FieldType::Long, None), iv(1, 20));
        assert_eq!(
            primitive_length(&FieldType::Int, Some(&iv(10, 999))),
            iv(2, 3)
        );
    }

    /// Every int of an interval prints within the interval of lengths.
    #[test]
    fn every_value_prints_within_its_interval() {
        fn prop(a: i32, b: i32, pick: u8) -> bool {
            let (lo, hi) = (i128::from(a.min(b)), i128::from(a.max(b)));
            let v = lo + (hi - lo) * i128::from(pick) / 255;
            let len = v.to_string().len() as i128;
            let i = primitive_length(&FieldType::Int, Some(&iv(lo, hi)));
            i.lo.is_some_and(|l| l <= len) && i.hi.is_some_and(|h| len <= h)
        }
        quickcheck::QuickCheck::new().quickcheck(prop as fn(i32, i32, u8) -> bool);
    }

    #[test]
    fn recipes_count_literals_constants_and_arguments() {
        assert_eq!(recipe_length("n=\u{1}", &[]), Ok((2, 1)));
        assert_eq!(
            recipe_length("\u{2}\u{1}!", &[BootstrapArg::String("\u{1}x".into())]),
            Ok((3, 1))
        );
        assert!(recipe_length("\u{2}", &[]).is_err());
    }
}
