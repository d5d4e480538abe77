//! Floats and doubles, abstracted coarsely (spec §1): a value is only known to be a float (or a
//! double). Every arithmetic result and every conversion to a float is a fresh unknown float;
//! `fcmpl`/`fcmpg`/`dcmpl`/`dcmpg` give any of -1, 0, 1; `f2i`/`d2i` give any Java int and
//! `f2l`/`d2l` any Java long (the JVM saturates and maps NaN to 0, so the result is always in
//! the target type's range). Under unbounded ints these ranges are still the Java ranges: the
//! JVM cannot produce anything else, so they are sound for every run, and tighter than `Z`.

use super::{Exec, Flow};
use crate::class::{Insn, Kind};
use crate::error::EngineError;
use crate::state::{HeapValue, Interval, Width};

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
            operand(ex, k)?;
            operand(ex, k)?;
            let r = ex
                .st
                .new_int(Interval::new(Some(-1), Some(1)).unwrap_or(Interval::TOP));
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
fn operand(ex: &mut Exec<'_>, k: Kind) -> Result<(), EngineError> {
    let r = ex.pop()?;
    if !is_kind(ex.st.value(r), k) {
        return Err(ex.invalid("float operation on a value of another type"));
    }
    Ok(())
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
