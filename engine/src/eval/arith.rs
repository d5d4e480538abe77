//! Integer arithmetic on `int` and `long`: fresh result references with interval arithmetic and
//! `res = a op b` labels; division and remainder first split the divisor's zero case off. Also
//! `i2l`/`l2i` and `lcmp`. A long is an integer like an int (an interval); under `--ints java` its
//! arithmetic wraps at 64 bits. Float and double operations are in [`super::float`].

use super::{Exec, Flow};
use crate::class::{ArithOp as Op, Cond, Insn, Kind};
use crate::edge::{EdgeKind, Label, Narrowing, Operand};
use crate::error::EngineError;
use crate::models::exceptions;
use crate::refine::integer;
use crate::state::IntOp;
use crate::state::{HeapValue, IntSemantics, Interval, Ref, Width};
use std::cmp::Ordering;

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::Arith(Kind::Int, op) => binary(ex, *op, Width::Int),
        Insn::Arith(Kind::Long, op) => binary(ex, *op, Width::Long),
        Insn::Convert {
            from: Kind::Int,
            to: Kind::Long,
        } => {
            // every int is a long: the same interval, now of kind long, and the same value
            let a = ex.pop()?;
            let v = *ex.st.int(a).ok_or_else(|| ex.invalid("i2l of a non-int"))?;
            let r = ex.st.new_prim(HeapValue::Long(v));
            same_value(ex, r, a);
            ex.push(r)?;
            Ok(Flow::Next)
        }
        Insn::Convert {
            from: Kind::Long,
            to: Kind::Int,
        } => {
            let a = ex.pop()?;
            let v = *ex
                .st
                .integral(a)
                .ok_or_else(|| ex.invalid("l2i of a non-long"))?;
            let r = ex.st.new_int(l2i(&v, ex.sem()));
            if v.is_subset_of(&Width::Int.range()) {
                // a long inside the int range keeps its value
                same_value(ex, r, a);
            } else if ex.sem() == IntSemantics::Java && v.as_literal().is_none() {
                // the low 32 bits: what a guard keeps in range stays exact (terminate's
                // ranged updates); under unbounded ints a long has no int counterpart
                narrowed(ex, r, Narrowing::Int, a);
            }
            ex.push(r)?;
            Ok(Flow::Next)
        }
        Insn::LCmp => lcmp(ex),
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
                (IntOp::Sub, -i128::from(*delta))
            } else {
                (IntOp::Add, i128::from(*delta))
            };
            let c = ex.st.new_int(Interval::literal(magnitude));
            let res = apply(ex, op, old, Some(c), Width::Int)?;
            let e = ex.invalid("iinc beyond max_locals");
            *ex.top()?.locals.get_mut(*index as usize).ok_or(e)? = Some(res);
            Ok(Flow::Next)
        }
        Insn::I2B | Insn::I2C | Insn::I2S => {
            let a = ex.pop()?;
            let to = match insn {
                Insn::I2B => Narrowing::Byte,
                Insn::I2C => Narrowing::Char,
                _ => Narrowing::Short,
            };
            let (lo, hi) = to.range();
            let range = Interval::new(Some(lo), Some(hi)).unwrap_or(Interval::TOP);
            let v = *ex
                .st
                .int(a)
                .ok_or_else(|| ex.invalid("narrowing of a non-integer"))?;
            let r = if v.is_subset_of(&range) {
                a
            } else if let Some(x) = v.as_literal() {
                ex.st.new_int(Interval::literal(to.apply(x)))
            } else {
                let r = ex.st.new_int(range);
                narrowed(ex, r, to, a);
                r
            };
            ex.push(r)?;
            Ok(Flow::Next)
        }
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
}

/// The label `res = a` of a conversion that keeps the value (`i2l`, `l2i` inside the int
/// range), unless `a` is a literal (then so is `res`).
fn same_value(ex: &mut Exec<'_>, res: Ref, a: Ref) {
    if let a @ Operand::Ref(_) = Operand::of(&ex.st, a) {
        ex.labels.push(Label::Rel {
            a: Operand::Ref(res),
            cond: Cond::Eq,
            b: a,
        });
    }
}

/// The label `res = (to) a` of a narrowing whose operand may lie outside `to`'s range.
fn narrowed(ex: &mut Exec<'_>, res: Ref, to: Narrowing, a: Ref) {
    ex.labels.push(Label::Narrow { res, to, a });
}

/// `l2i`: the JVM keeps the low 32 bits. Under Java ints that is the 32-bit wrap; under
/// unbounded ints a long outside the int range has no mathematical int counterpart, so the
/// result is the exact truncation of a literal and otherwise any integer (sound for every run,
/// since the JVM's result is some int).
pub(crate) fn l2i(v: &Interval, sem: IntSemantics) -> Interval {
    let int = Width::Int.range();
    if v.is_subset_of(&int) {
        return *v;
    }
    match (sem, v.as_literal()) {
        (_, Some(x)) => Interval::literal(Width::Int.wrap(x)),
        (IntSemantics::Java, None) => v.wrap_to(sem, Width::Int),
        (IntSemantics::Unbounded, None) => Interval::TOP,
    }
}

/// `lcmp`: -1, 0 or 1. Decided from the intervals where they decide it; when one operand is a
/// literal the other is refined against it first (as for `if` against a literal), else the
/// result is any of -1, 0, 1.
fn lcmp(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (b, a) = (ex.peek(0)?, ex.peek(1)?);
    let e = || ex.invalid("lcmp of a non-long");
    let va = *ex.st.integral(a).ok_or_else(e)?;
    let vb = *ex.st.integral(b).ok_or_else(e)?;
    let ord = if a == b {
        Some(Ordering::Equal)
    } else {
        va.compare(&vb)
    };
    let value = match ord {
        Some(o) => Interval::literal(o as i128),
        None => {
            let refine = match (va.as_literal(), vb.as_literal()) {
                (_, Some(c)) => Some((a, va, c)),
                (Some(c), None) => Some((b, vb, c)),
                (None, None) => None,
            };
            if let Some((r, v, c)) = refine {
                let parts = integer::partition(&v, crate::class::Cond::Eq, c);
                let succs = integer::refine(&ex.before, r, &parts);
                return Ok(Flow::Refine(EdgeKind::Refine, succs));
            }
            Interval::new(Some(-1), Some(1)).unwrap_or(Interval::TOP)
        }
    };
    ex.pop()?;
    ex.pop()?;
    let r = ex.st.new_int(value);
    ex.push(r)?;
    Ok(Flow::Next)
}

fn binary(ex: &mut Exec<'_>, op: Op, width: Width) -> Result<Flow, EngineError> {
    let aop = match op {
        Op::Add => IntOp::Add,
        Op::Sub => IntOp::Sub,
        Op::Mul => IntOp::Mul,
        Op::Div => IntOp::Div,
        Op::Rem => IntOp::Rem,
        Op::Neg => IntOp::Neg,
        Op::Shl | Op::Shr | Op::Ushr | Op::And | Op::Or | Op::Xor => return bitwise(ex, op, width),
    };
    if aop == IntOp::Neg {
        let a = ex.pop()?;
        let r = apply(ex, aop, a, None, width)?;
        ex.push(r)?;
        return Ok(Flow::Next);
    }
    let b = ex.pop()?;
    let a = ex.pop()?;
    if matches!(aop, IntOp::Div | IntOp::Rem) {
        let d = *ex
            .st
            .integral(b)
            .ok_or_else(|| ex.invalid("division by a non-integer"))?;
        if d.as_literal() == Some(0) {
            return super::exception::throw_builtin(ex, exceptions::ARITHMETIC);
        }
        if d.contains(0) {
            let parts = integer::partition(&d, crate::class::Cond::Eq, 0);
            let succs = integer::refine(&ex.before, b, &parts);
            return Ok(Flow::Refine(EdgeKind::Refine, succs));
        }
    }
    let r = apply(ex, aop, a, Some(b), width)?;
    ex.push(r)?;
    Ok(Flow::Next)
}

/// Computes `a op b` into a fresh reference (or reuses `a` for `a + 0`, `a * 1`, `a / 1`) and
/// labels the edge unless both operands are literals.
pub(super) fn apply(
    ex: &mut Exec<'_>,
    op: IntOp,
    a: Ref,
    b: Option<Ref>,
    width: Width,
) -> Result<Ref, EngineError> {
    let sem = ex.sem();
    let e = || ex.invalid("arithmetic on a non-integer");
    let va = *ex.st.integral(a).ok_or_else(e)?;
    let vb = match b {
        Some(b) => Some(*ex.st.integral(b).ok_or_else(e)?),
        None => None,
    };
    let lit_b = vb.and_then(|v| v.as_literal());
    let neutral = matches!(
        (op, lit_b),
        (IntOp::Add | IntOp::Sub, Some(0)) | (IntOp::Mul | IntOp::Div, Some(1))
    );
    if neutral {
        return Ok(a);
    }
    let result = match (op, vb) {
        (IntOp::Neg, _) => Interval::exact(op, &va, &va),
        (_, Some(vb)) => Interval::exact(op, &va, &vb),
        _ => return Err(ex.invalid("binary operation without a second operand")),
    }
    .wrap_to(sem, width);
    let res = ex.st.new_integral(width, result);
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
/// not interval-monotone). Shifts use the low five (int) or six (long) bits of the distance, as
/// the JVM does; the distance of a long shift is an int.
fn bitwise(ex: &mut Exec<'_>, op: Op, width: Width) -> Result<Flow, EngineError> {
    let b = ex.pop()?;
    let a = ex.pop()?;
    let (va, vb) = match (ex.st.integral(a), ex.st.integral(b)) {
        (Some(x), Some(y)) => (x.as_literal(), y.as_literal()),
        _ => return Err(ex.invalid("bitwise operation on a non-integer")),
    };
    let sem = ex.sem();
    let exact = match (va, vb, width) {
        (Some(x), Some(y), Width::Int) if fits_i32(x) && fits_i32(y) => {
            let (x, y) = (x as i32, y as i32);
            Some(i128::from(match op {
                Op::And => x & y,
                Op::Or => x | y,
                Op::Xor => x ^ y,
                Op::Shl => x.wrapping_shl(y as u32 & 31),
                Op::Shr => x >> (y & 31),
                _ => ((x as u32) >> (y as u32 & 31)) as i32,
            }))
        }
        (Some(x), Some(y), Width::Long) if fits_i64(x) && fits_i64(y) => {
            let (x, y) = (x as i64, y as i64);
            Some(i128::from(match op {
                Op::And => x & y,
                Op::Or => x | y,
                Op::Xor => x ^ y,
                Op::Shl => x.wrapping_shl(y as u32 & 63),
                Op::Shr => x >> (y & 63),
                _ => ((x as u64) >> (y as u32 & 63)) as i64,
            }))
        }
        _ => None,
    };
    if exact.is_none() && matches!(op, Op::Shr | Op::Ushr) {
        if let Some(y) = vb {
            return shift(ex, op, a, y, width);
        }
    }
    if exact.is_none() && op == Op::Shl {
        if let Some(y) = vb {
            return shift_left(ex, a, y, width);
        }
    }
    if exact.is_none() && matches!(op, Op::And | Op::Or) {
        if let Some(flow) = bit_bounds(ex, op, a, b, width)? {
            return Ok(flow);
        }
    }
    let value = match (exact, sem) {
        (Some(v), _) => Interval::literal(v),
        (None, IntSemantics::Java) => width.range(),
        // bit operations are only meaningful on machine integers: results are unknown
        (None, IntSemantics::Unbounded) => Interval::TOP,
    };
    let r = ex.st.new_integral(width, value);
    ex.push(r)?;
    Ok(Flow::Next)
}

/// `a >> k` or `a >>> k` by a literal distance (its low five or six bits, as the JVM uses
/// them): the result's interval and the label `res = a >> k` (`>>>`), which the prover reads as
/// `2ᵏ·res ≤ a ≤ 2ᵏ·res + 2ᵏ − 1` (for `>>>` of a negative `a`, of `a + 2ʷ`). Exact in both
/// integer models: the result never leaves the type's range.
fn shift(
    ex: &mut Exec<'_>,
    op: Op,
    a: Ref,
    distance: i128,
    width: Width,
) -> Result<Flow, EngineError> {
    let bits = width_bits(width);
    let k = distance.rem_euclid(bits);
    let va = shifted(ex, a)?;
    let iop = if op == Op::Shr {
        IntOp::Shr
    } else {
        IntOp::Ushr
    };
    let k_lit = Interval::literal(k);
    let value = match iop {
        IntOp::Ushr if k >= 1 && va.lo.is_none_or(|l| l < 0) => {
            // a negative w-bit `a` gives `(a + 2ʷ) >> k`, in [0, 2^(w−k) − 1]
            let top = (1i128 << (bits - k)) - 1;
            let neg = Interval::new(Some(0), Some(top)).unwrap_or(Interval::TOP);
            match va.lo.zip(va.hi) {
                Some((lo, hi)) if hi < 0 => Interval::new(
                    Some((lo + (1i128 << bits)) >> k),
                    Some((hi + (1i128 << bits)) >> k),
                )
                .unwrap_or(neg),
                _ => neg,
            }
        }
        IntOp::Ushr if k == 0 => va,
        _ => Interval::exact(IntOp::Shr, &va, &k_lit),
    };
    let res = ex.st.new_integral(width, value);
    ex.labels.push(Label::Arith {
        res,
        op: iop,
        a: Operand::of(&ex.st, a),
        b: Some(Operand::Lit(k)),
    });
    ex.push(res)?;
    Ok(Flow::Next)
}

/// `a << k` by a literal distance (its low five or six bits): `a · 2ᵏ`, labelled as that
/// multiplication — exact under unbounded integers (a run whose shift leaves 32 or 64 bits
/// leaves the model there, as for `imul`), wrapped under Java ints.
fn shift_left(
    ex: &mut Exec<'_>,
    a: Ref,
    distance: i128,
    width: Width,
) -> Result<Flow, EngineError> {
    let factor = 1i128 << distance.rem_euclid(width_bits(width));
    let va = shifted(ex, a)?;
    let value =
        Interval::exact(IntOp::Mul, &va, &Interval::literal(factor)).wrap_to(ex.sem(), width);
    let res = ex.st.new_integral(width, value);
    ex.labels.push(Label::Arith {
        res,
        op: IntOp::Mul,
        a: Operand::of(&ex.st, a),
        b: Some(Operand::Lit(factor)),
    });
    ex.push(res)?;
    Ok(Flow::Next)
}

/// `a & b` and `a | b` by the operands' signs, in two's complement (the values of every run the
/// model covers are the JVM's `int`s or `long`s): `&` has no bit its non-negative operand lacks,
/// so `0 ≤ a & b ≤ b` for `b ≥ 0` (`x & 0xff`, `x & (x - 1)`), and of two negative operands it
/// keeps the sign and loses bits, `a & b ≤ min(a, b) < 0`; `|` has every bit of each operand,
/// so `a | b ≥ max(a, b)` for `a, b ≥ 0` (at most `a + b`), and `a | b` is negative and `≥ a` for
/// a negative `a`. The interval, and a label `res ≤ x` / `res ≥ x` for each operand it bounds
/// (checked on every run). `None`: the signs give nothing.
fn bit_bounds(
    ex: &mut Exec<'_>,
    op: Op,
    a: Ref,
    b: Ref,
    width: Width,
) -> Result<Option<Flow>, EngineError> {
    let e = || ex.invalid("bitwise operation on a non-integer");
    let (va, vb) = (
        *ex.st.integral(a).ok_or_else(e)?,
        *ex.st.integral(b).ok_or_else(e)?,
    );
    let nonneg = |v: &Interval| v.lo.is_some_and(|l| l >= 0);
    let negative = |v: &Interval| v.hi.is_some_and(|h| h < 0);
    let min_hi = |x: Option<i128>, y: Option<i128>| match (x, y) {
        (Some(p), Some(q)) => Some(p.min(q)),
        (p, None) | (None, p) => p,
    };
    let range = width.range();
    let (value, cond, bounded): (Option<Interval>, Cond, Vec<Ref>) = match op {
        Op::And if nonneg(&va) || nonneg(&vb) => {
            let by: Vec<(Ref, Interval)> = [(a, va), (b, vb)]
                .into_iter()
                .filter(|(_, v)| nonneg(v))
                .collect();
            let hi = by.iter().fold(None, |h, (_, v)| min_hi(h, v.hi));
            let v = Interval::new(Some(0), hi.or(range.hi));
            (v, Cond::Le, by.into_iter().map(|(r, _)| r).collect())
        }
        Op::And if negative(&va) && negative(&vb) => {
            let v = Interval::new(range.lo, min_hi(va.hi, vb.hi));
            (v, Cond::Le, vec![a, b])
        }
        Op::Or if nonneg(&va) && nonneg(&vb) => {
            let lo = va.lo.max(vb.lo);
            let hi = va.hi.zip(vb.hi).map(|(x, y)| x + y);
            (Interval::new(lo, hi), Cond::Ge, vec![a, b])
        }
        Op::Or if negative(&va) || negative(&vb) => {
            let by: Vec<(Ref, Interval)> = [(a, va), (b, vb)]
                .into_iter()
                .filter(|(_, v)| negative(v))
                .collect();
            let lo = by.iter().filter_map(|(_, v)| v.lo).max();
            (
                Interval::new(lo, Some(-1)),
                Cond::Ge,
                by.into_iter().map(|(r, _)| r).collect(),
            )
        }
        _ => (None, Cond::Eq, vec![]),
    };
    let Some(value) = value else { return Ok(None) };
    let ops: Vec<Operand> = bounded.iter().map(|&r| Operand::of(&ex.st, r)).collect();
    let res = ex.st.new_integral(width, value);
    for o in ops {
        // a literal bound is the interval's already
        if let o @ Operand::Ref(_) = o {
            ex.labels.push(Label::Rel {
                a: Operand::Ref(res),
                cond,
                b: o,
            });
        }
    }
    ex.push(res)?;
    Ok(Some(Flow::Next))
}

fn width_bits(width: Width) -> i128 {
    match width {
        Width::Int => 32,
        Width::Long => 64,
    }
}

/// The interval of a shift's operand `a`.
fn shifted(ex: &Exec<'_>, a: Ref) -> Result<Interval, EngineError> {
    ex.st
        .integral(a)
        .copied()
        .ok_or_else(|| ex.invalid("shift of a non-integer"))
}

fn fits_i32(v: i128) -> bool {
    i32::try_from(v).is_ok()
}

fn fits_i64(v: i128) -> bool {
    i64::try_from(v).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    #[test]
    fn l2i_keeps_ints_and_truncates_literals() {
        for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
            let small = Interval::new(Some(-5), Some(5)).unwrap();
            assert_eq!(l2i(&small, sem), small);
            let big = Interval::literal(1 << 32 | 7);
            assert_eq!(l2i(&big, sem), Interval::literal(7));
        }
        let wide = Interval::at_least(0);
        assert_eq!(l2i(&wide, IntSemantics::Unbounded), Interval::TOP);
        assert_eq!(l2i(&wide, IntSemantics::Java), Width::Int.range());
    }

    quickcheck! {
        /// l2i contains the JVM's `(int) v` for every v of the interval
        fn l2i_is_sound(p: i64, w: u32) -> bool {
            let lo = i128::from(p);
            let hi = (lo + i128::from(w)).min(i128::from(i64::MAX));
            let v = Interval::new(Some(lo), Some(hi)).unwrap();
            [IntSemantics::Unbounded, IntSemantics::Java].iter().all(|&sem| {
                let r = l2i(&v, sem);
                [lo, hi, (lo + hi) / 2].iter().all(|&x| r.contains(i128::from(x as i64 as i32)))
            })
        }
    }
}
