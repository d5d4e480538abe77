//! Floats and doubles, abstracted coarsely (spec §1): a value is a literal (a constant the
//! program pushed, while it is on the operand stack ([`stored`]), or one a start state gives)
//! or only known to be a float (or a double).
//! Every arithmetic result and every conversion to a float is a fresh unknown float;
//! `fcmpl`/`fcmpg`/`dcmpl`/`dcmpg` give any of -1, 0, 1 unless the literals decide
//! ([`compare`]: both known, a NaN, or an infinity nothing lies beyond); `f2i`/`d2i` give any
//! Java int and `f2l`/`d2l` any Java long (the JVM saturates and maps NaN to 0, so the result
//! is always in the target type's range). Under unbounded ints these ranges are still the Java ranges: the
//! JVM cannot produce anything else, so they are sound for every run, and tighter than `Z`.

use super::{Exec, Flow};
use crate::class::{Insn, Kind};
use crate::error::EngineError;
use crate::state::{HeapValue, Interval, Ref, Width};

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::Arith(k @ (Kind::Float | Kind::Double), op) => {
            let n = if *op == crate::class::ArithOp::Neg {
                1
            } else {
                2
            };
            for _ in 0..n {
                operand(ex, *k)?;
            }
            let r = ex.st.new_prim(unknown(*k));
            ex.push(r)?;
        }
        Insn::FCmpL | Insn::FCmpG | Insn::DCmpL | Insn::DCmpG => {
            let k = match insn {
                Insn::FCmpL | Insn::FCmpG => Kind::Float,
                _ => Kind::Double,
            };
            let value2 = operand(ex, k)?;
            let value1 = operand(ex, k)?;
            let nan = if matches!(insn, Insn::FCmpG | Insn::DCmpG) {
                1
            } else {
                -1
            };
            let v = compare(literal(ex, value1), literal(ex, value2), nan);
            let r = ex.st.new_int(v);
            ex.push(r)?;
        }
        Insn::Convert { from, to } => {
            let a = ex.pop()?;
            let ok = match from {
                Kind::Int | Kind::Long => ex.st.integral(a).is_some(),
                k => is_kind(ex.st.value(a), *k),
            };
            if !ok {
                return Err(ex.invalid("conversion of a value of another type"));
            }
            let v = match to {
                Kind::Int => HeapValue::Int(Width::Int.range()),
                Kind::Long => HeapValue::Long(Width::Long.range()),
                k => unknown(*k),
            };
            let r = ex.st.new_prim(v);
            ex.push(r)?;
        }
        _ => return Err(ex.unsupported("instruction not modelled".into())),
    }
    Ok(Flow::Next)
}

/// The unknown value of kind `k` (float or double).
fn unknown(k: Kind) -> HeapValue {
    if k == Kind::Double {
        HeapValue::Double(None)
    } else {
        HeapValue::Float(None)
    }
}

/// Pops a float (or double) operand.
fn operand(ex: &mut Exec<'_>, k: Kind) -> Result<Ref, EngineError> {
    let r = ex.pop()?;
    if !is_kind(ex.st.value(r), k) {
        return Err(ex.invalid("float operation on a value of another type"));
    }
    Ok(r)
}

/// The reference a store (`fstore`, `putfield`, `putstatic`, `dastore`, …) writes for the
/// value `r`: an unknown float for a literal. A literal lives on the operand stack only, where
/// a comparison with a constant reads it (`d == Double.POSITIVE_INFINITY`); a variable keeps
/// no constant, so a loop head does not tell the constant a variable starts with (`f =
/// 0.0f`) from the values of later iterations, which would unroll one more iteration of every
/// such loop for no fact the engine uses (forgetting a value is always sound).
pub(super) fn stored(ex: &mut Exec<'_>, r: Ref) -> Ref {
    match ex.st.value(r) {
        Some(HeapValue::Float(Some(_))) => ex.st.new_prim(HeapValue::Float(None)),
        Some(HeapValue::Double(Some(_))) => ex.st.new_prim(HeapValue::Double(None)),
        _ => r,
    }
}

/// The value of a float or double literal (a float widened exactly), `None` if unknown.
fn literal(ex: &Exec<'_>, r: Ref) -> Option<f64> {
    match ex.st.value(r)? {
        HeapValue::Float(Some(b)) => Some(f64::from(f32::from_bits(*b))),
        HeapValue::Double(Some(b)) => Some(f64::from_bits(*b)),
        _ => None,
    }
}

/// The result of `fcmp<op>`/`dcmp<op>` of `value1` and `value2` (`None`: unknown), JVMS §6.5:
/// 1 if value1 > value2, 0 if equal, -1 if less, and `nan` (1 for the `g` forms, -1 for the
/// `l` forms) if either is NaN. An unknown operand may be any value, NaN included; with the
/// other one an infinity, the outcome "beyond" it is impossible: nothing is greater than
/// `+∞` or less than `-∞` (JLS §4.2.3), e.g. `dcmpl(d, +∞)` is never 1.
fn compare(value1: Option<f64>, value2: Option<f64>, nan: i128) -> Interval {
    let outcomes: Vec<i128> = match (value1, value2) {
        (Some(x), _) | (_, Some(x)) if x.is_nan() => vec![nan],
        (Some(x), Some(y)) => vec![match x.partial_cmp(&y) {
            Some(std::cmp::Ordering::Greater) => 1,
            Some(std::cmp::Ordering::Less) => -1,
            _ => 0,
        }],
        // the unknown operand is below or equal to `+∞`, or NaN
        (Some(x), None) if x == f64::INFINITY => vec![1, 0, nan],
        (Some(x), None) if x == f64::NEG_INFINITY => vec![-1, 0, nan],
        (None, Some(y)) if y == f64::INFINITY => vec![-1, 0, nan],
        (None, Some(y)) if y == f64::NEG_INFINITY => vec![1, 0, nan],
        _ => vec![-1, 0, 1],
    };
    let lo = outcomes.iter().min().copied();
    let hi = outcomes.iter().max().copied();
    Interval::new(lo, hi).unwrap_or(Interval::TOP)
}

/// Whether `v` is a float (or a double, for `k` double), known or not: a start state may give
/// a literal (`1.5d`), which the engine treats as any other float.
fn is_kind(v: Option<&HeapValue>, k: Kind) -> bool {
    match v {
        Some(HeapValue::Double(_)) => k == Kind::Double,
        Some(HeapValue::Float(_)) => k == Kind::Float,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::compare;
    use crate::state::Interval;

    fn iv(lo: i128, hi: i128) -> Interval {
        Interval::new(Some(lo), Some(hi)).unwrap()
    }

    #[test]
    fn known_operands_decide_the_comparison() {
        assert_eq!(compare(Some(1.0), Some(2.0), -1), iv(-1, -1));
        assert_eq!(compare(Some(2.0), Some(1.0), -1), iv(1, 1));
        // -0.0 and 0.0 are equal (JVMS §6.5)
        assert_eq!(compare(Some(-0.0), Some(0.0), 1), iv(0, 0));
        // a NaN operand: -1 for the l forms, 1 for the g forms, whatever the other one is
        assert_eq!(compare(Some(f64::NAN), None, -1), iv(-1, -1));
        assert_eq!(compare(None, Some(f64::NAN), 1), iv(1, 1));
    }

    #[test]
    fn an_infinity_rules_out_the_outcome_beyond_it_only() {
        // `d == Double.POSITIVE_INFINITY` is `dcmpl d +∞`: never 1 (NaN gives -1)
        assert_eq!(compare(None, Some(f64::INFINITY), -1), iv(-1, 0));
        // but `dcmpg d +∞` is 1 for a NaN d
        assert_eq!(compare(None, Some(f64::INFINITY), 1), iv(-1, 1));
        assert_eq!(compare(None, Some(f64::NEG_INFINITY), 1), iv(0, 1));
        assert_eq!(compare(None, Some(f64::NEG_INFINITY), -1), iv(-1, 1));
        assert_eq!(compare(Some(f64::INFINITY), None, 1), iv(0, 1));
        assert_eq!(compare(Some(f64::NEG_INFINITY), None, -1), iv(-1, 0));
        // a finite literal decides nothing against an unknown value
        assert_eq!(compare(None, Some(1.0), -1), iv(-1, 1));
        assert_eq!(compare(None, Some(f64::MAX), -1), iv(-1, 1));
    }
}
