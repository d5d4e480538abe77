//! Integer arithmetic: fresh result references with interval arithmetic and `res = a op b`
//! labels; division and remainder first split the divisor's zero case off.

use super::{Exec, Flow};
use crate::class::{ArithOp as Op, Insn, Kind};
use crate::error::EngineError;
use crate::graph::{EdgeKind, Label, Operand};
use crate::refine::integer;
use crate::state::{ArithOp, IntSemantics, Interval, Ref};

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::Arith(Kind::Int, op) => binary(ex, *op),
        Insn::IInc { index, delta } => {
            let e = ex.invalid("iinc of an unset local");
            let old = ex
                .top()?
                .locals
                .get(*index as usize)
                .copied()
                .flatten()
                .ok_or(e)?;
            // `iinc x, -1` is `x - 1`, as the thesis labels it
            let (op, magnitude) = if *delta < 0 {
                (ArithOp::Sub, -i128::from(*delta))
            } else {
                (ArithOp::Add, i128::from(*delta))
            };
            let c = ex.st.new_int(Interval::literal(magnitude));
            let res = apply(ex, op, old, Some(c))?;
            let e = ex.invalid("iinc beyond max_locals");
            *ex.top()?.locals.get_mut(*index as usize).ok_or(e)? = Some(res);
            Ok(Flow::Next)
        }
        Insn::I2B | Insn::I2C | Insn::I2S => {
            let a = ex.pop()?;
            let (lo, hi, bits, signed) = match insn {
                Insn::I2B => (-128, 127, 8, true),
                Insn::I2C => (0, 65535, 16, false),
                _ => (-32768, 32767, 16, true),
            };
            let range = Interval::new(Some(lo), Some(hi)).unwrap_or(Interval::TOP);
            let v = *ex
                .st
                .int(a)
                .ok_or_else(|| ex.invalid("narrowing of a non-integer"))?;
            let r = if v.is_subset_of(&range) {
                a
            } else if let Some(x) = v.as_literal() {
                let m = x.rem_euclid(1 << bits);
                let w = if signed && m >= 1 << (bits - 1) {
                    m - (1 << bits)
                } else {
                    m
                };
                ex.st.new_int(Interval::literal(w))
            } else {
                ex.st.new_int(range)
            };
            ex.push(r)?;
            Ok(Flow::Next)
        }
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
}

fn binary(ex: &mut Exec<'_>, op: Op) -> Result<Flow, EngineError> {
    let aop = match op {
        Op::Add => ArithOp::Add,
        Op::Sub => ArithOp::Sub,
        Op::Mul => ArithOp::Mul,
        Op::Div => ArithOp::Div,
        Op::Rem => ArithOp::Rem,
        Op::Neg => ArithOp::Neg,
        Op::Shl | Op::Shr | Op::Ushr | Op::And | Op::Or | Op::Xor => return bitwise(ex, op),
    };
    if aop == ArithOp::Neg {
        let a = ex.pop()?;
        let r = apply(ex, aop, a, None)?;
        ex.push(r)?;
        return Ok(Flow::Next);
    }
    let b = ex.pop()?;
    let a = ex.pop()?;
    if matches!(aop, ArithOp::Div | ArithOp::Rem) {
        let d = *ex
            .st
            .int(b)
            .ok_or_else(|| ex.invalid("division by a non-integer"))?;
        if d.as_literal() == Some(0) {
            return super::exception::throw_builtin(ex, "java/lang/ArithmeticException");
        }
        if d.contains(0) {
            let parts = integer::partition(&d, crate::class::Cond::Eq, 0);
            let succs = integer::refine(&ex.before, b, &parts);
            return Ok(Flow::Refine(EdgeKind::Refine, succs));
        }
    }
    let r = apply(ex, aop, a, Some(b))?;
    ex.push(r)?;
    Ok(Flow::Next)
}

/// Computes `a op b` into a fresh reference (or reuses `a` for `a + 0`, `a * 1`, `a / 1`) and
/// labels the edge unless both operands are literals.
fn apply(ex: &mut Exec<'_>, op: ArithOp, a: Ref, b: Option<Ref>) -> Result<Ref, EngineError> {
    let sem = ex.sem();
    let va = *ex
        .st
        .int(a)
        .ok_or_else(|| ex.invalid("arithmetic on a non-integer"))?;
    let vb = match b {
        Some(b) => Some(
            *ex.st
                .int(b)
                .ok_or_else(|| ex.invalid("arithmetic on a non-integer"))?,
        ),
        None => None,
    };
    let lit_b = vb.and_then(|v| v.as_literal());
    let neutral = matches!(
        (op, lit_b),
        (ArithOp::Add | ArithOp::Sub, Some(0)) | (ArithOp::Mul | ArithOp::Div, Some(1))
    );
    if neutral {
        return Ok(a);
    }
    let result = match (op, vb) {
        (ArithOp::Neg, _) => va.neg(sem),
        (ArithOp::Add, Some(vb)) => va.add(&vb, sem),
        (ArithOp::Sub, Some(vb)) => va.sub(&vb, sem),
        (ArithOp::Mul, Some(vb)) => va.mul(&vb, sem),
        (ArithOp::Div, Some(vb)) => va.div(&vb, sem),
        (ArithOp::Rem, Some(vb)) => va.rem(&vb, sem),
        _ => return Err(ex.invalid("binary operation without a second operand")),
    };
    let res = ex.st.new_int(result);
    let both_literal = va.as_literal().is_some() && vb.is_none_or(|v| v.as_literal().is_some());
    if !both_literal {
        let (oa, ob) = (Operand::of(&ex.st, a), b.map(|b| Operand::of(&ex.st, b)));
        ex.labels.push(Label::Arith {
            res,
            op,
            a: oa,
            b: ob,
        });
    }
    Ok(res)
}

/// Bitwise operations and shifts: exact on literals, otherwise the most general value (they are
/// not interval-monotone). Shifts use the low five bits of the distance, as the JVM does.
fn bitwise(ex: &mut Exec<'_>, op: Op) -> Result<Flow, EngineError> {
    let b = ex.pop()?;
    let a = ex.pop()?;
    let (va, vb) = match (ex.st.int(a), ex.st.int(b)) {
        (Some(x), Some(y)) => (x.as_literal(), y.as_literal()),
        _ => return Err(ex.invalid("bitwise operation on a non-integer")),
    };
    let sem = ex.sem();
    let value = match (va, vb) {
        (Some(x), Some(y)) if fits_i32(x) && fits_i32(y) => {
            let (x, y) = (x as i32, y as i32);
            let v = match op {
                Op::And => x & y,
                Op::Or => x | y,
                Op::Xor => x ^ y,
                Op::Shl => x.wrapping_shl(y as u32 & 31),
                Op::Shr => x >> (y & 31),
                _ => ((x as u32) >> (y as u32 & 31)) as i32,
            };
            Interval::literal(i128::from(v))
        }
        _ => match sem {
            IntSemantics::Java => Interval::most_general(sem),
            // bit operations are only meaningful on machine integers: results are unknown
            IntSemantics::Unbounded => Interval::TOP,
        },
    };
    let r = ex.st.new_int(value);
    ex.push(r)?;
    Ok(Flow::Next)
}

fn fits_i32(v: i128) -> bool {
    i32::try_from(v).is_ok()
}
