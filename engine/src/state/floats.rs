//! Literal float and double values of concrete states (`1.5f`, `-0.0d`, `NaNd`, `Infinityf`):
//! their text form and its parser. The engine's own states keep floats coarse (spec §1: a
//! value is only "some float"); a literal appears in the concrete states the checker draws and
//! the JVM records, and in `--input` files, so that a printed state round-trips bit for bit.

/// The bits of the NaN that `Float.NaN` (and Rust's `f32::NAN`) is.
const CANONICAL_NAN_F32: u32 = 0x7fc0_0000;
/// The bits of `Double.NaN` (and `f64::NAN`).
const CANONICAL_NAN_F64: u64 = 0x7ff8_0000_0000_0000;

/// The text of a float's bits, without the `f` suffix: the shortest decimal that reads back to
/// the same bits (`1.0`, `-0.0`, `1e-45`), `Infinity`, `-Infinity`, `NaN`, and a NaN with
/// another payload as `NaN.<hex bits>`.
pub fn format_f32(bits: u32) -> String {
    let x = f32::from_bits(bits);
    if x.is_nan() {
        if bits == CANONICAL_NAN_F32 {
            "NaN".into()
        } else {
            format!("NaN.{bits:x}")
        }
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{x:?}")
    }
}

/// [`format_f32`] for doubles.
pub fn format_f64(bits: u64) -> String {
    let x = f64::from_bits(bits);
    if x.is_nan() {
        if bits == CANONICAL_NAN_F64 {
            "NaN".into()
        } else {
            format!("NaN.{bits:x}")
        }
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        format!("{x:?}")
    }
}

/// The bits of a float written as [`format_f32`] writes it (decimals may have any number of
/// digits; the nearest float is taken). `None` for anything else, `inf` and `nan` included.
pub fn parse_f32(s: &str) -> Option<u32> {
    match special(s)? {
        Special::Nan(None) => Some(CANONICAL_NAN_F32),
        Special::Nan(Some(hex)) => u32::from_str_radix(hex, 16)
            .ok()
            .filter(|b| f32::from_bits(*b).is_nan()),
        Special::Inf(neg) => Some(
            if neg {
                f32::NEG_INFINITY
            } else {
                f32::INFINITY
            }
            .to_bits(),
        ),
        Special::Decimal => s.parse::<f32>().ok().map(f32::to_bits),
    }
}

/// [`parse_f32`] for doubles.
pub fn parse_f64(s: &str) -> Option<u64> {
    match special(s)? {
        Special::Nan(None) => Some(CANONICAL_NAN_F64),
        Special::Nan(Some(hex)) => u64::from_str_radix(hex, 16)
            .ok()
            .filter(|b| f64::from_bits(*b).is_nan()),
        Special::Inf(neg) => Some(
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
            .to_bits(),
        ),
        Special::Decimal => s.parse::<f64>().ok().map(f64::to_bits),
    }
}

enum Special<'a> {
    Nan(Option<&'a str>),
    Inf(bool),
    Decimal,
}

/// Which of the written forms `s` is; `None` when it is none of them. Decimals are
/// `-?digits[.digits][e-?digits]`: Rust's own parser also takes `inf`, `nan` and `+1`, which
/// are not jtg's forms (and `inf…` could be a class name).
fn special(s: &str) -> Option<Special<'_>> {
    match s {
        "NaN" => return Some(Special::Nan(None)),
        "Infinity" => return Some(Special::Inf(false)),
        "-Infinity" => return Some(Special::Inf(true)),
        _ => {}
    }
    if let Some(hex) = s.strip_prefix("NaN.") {
        return Some(Special::Nan(Some(hex)));
    }
    let digits = s.strip_prefix('-').unwrap_or(s);
    let (mantissa, exp) = match digits.split_once('e') {
        Some((m, e)) => (m, Some(e.strip_prefix('-').unwrap_or(e))),
        None => (digits, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, "0"));
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    (all_digits(int) && all_digits(frac) && exp.is_none_or(all_digits)).then_some(Special::Decimal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    #[test]
    fn boundary_values_have_their_java_names() {
        assert_eq!(format_f64(f64::NAN.to_bits()), "NaN");
        assert_eq!(format_f64(f64::INFINITY.to_bits()), "Infinity");
        assert_eq!(format_f32(f32::NEG_INFINITY.to_bits()), "-Infinity");
        assert_eq!(format_f64((-0.0f64).to_bits()), "-0.0");
        assert_eq!(format_f32(1.0f32.to_bits()), "1.0");
        assert_eq!(format_f32(f32::from_bits(1).to_bits()), "1e-45");
        assert_eq!(format_f32(0x7fc0_0001), "NaN.7fc00001");
    }

    #[test]
    fn other_spellings_are_refused() {
        for s in [
            "inf", "nan", "+1.0", "1.", ".5", "1e", "infinity", "NaN.zz", "NaN.1", "",
        ] {
            assert_eq!(parse_f64(s), None, "{s}");
        }
        assert_eq!(parse_f64("-0.0"), Some((-0.0f64).to_bits()));
        assert_eq!(parse_f32("3"), Some(3.0f32.to_bits()));
        assert_eq!(parse_f64("2.5e-3"), Some(2.5e-3f64.to_bits()));
    }

    quickcheck! {
        // every bit pattern, every NaN payload included, reads back to the same bits
        fn f32_round_trips(bits: u32) -> bool {
            parse_f32(&format_f32(bits)) == Some(bits)
        }
        fn f64_round_trips(bits: u64) -> bool {
            parse_f64(&format_f64(bits)) == Some(bits)
        }
    }
}
