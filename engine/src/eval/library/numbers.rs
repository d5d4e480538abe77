//! `Math`, `Integer`/`Long` utilities and `Character` (`models::NumberCall`, contracts in
//! `models/numbers.rs`). A zero divisor is refined off first (as for `idiv`); an exact
//! operation whose result may or may not overflow splits into returning and throwing.

use super::super::{exception, Exec, Flow};
use super::text::{outcome, split_outcomes};
use crate::class::Cond;
use crate::edge::{EdgeKind, Label, Operand};
use crate::error::EngineError;
use crate::models::numbers::{self as m, NumberCall};
use crate::models::{exceptions, NUMBER_FORMAT};
use crate::refine::integer;
use crate::state::{HeapValue, IntOp, Interval, Ref, Width};

pub(crate) fn eval(
    ex: &mut Exec<'_>,
    call: NumberCall,
    n_args: usize,
) -> Result<Flow, EngineError> {
    use NumberCall::*;
    let sem = ex.sem();
    match call {
        AbsLong => {
            let a = arg(ex, 0)?;
            finish(ex, n_args, m::abs(&a, sem, Width::Long), Width::Long)
        }
        MaxMin { max, width } => max_min(ex, max, width),
        Sum(width) => {
            let (a, b) = (arg(ex, 1)?, arg(ex, 0)?);
            let v = Interval::exact(IntOp::Add, &a, &b).wrap_to(sem, width);
            let label = arith_label(ex, IntOp::Add, 1, Some(0))?;
            finish_labelled(ex, n_args, v, width, label)
        }
        AnyFloat { double } => {
            pop_n(ex, n_args)?;
            let r = if double {
                ex.st.new_prim(HeapValue::Double(None))
            } else {
                ex.st.new_prim(HeapValue::Float(None))
            };
            ex.push(r)?;
            Ok(Flow::Next)
        }
        Round { long } => {
            let width = if long { Width::Long } else { Width::Int };
            finish(ex, n_args, width.range(), width)
        }
        FloorMod(width) | FloorDiv(width) => {
            if let Some(flow) = nonzero_divisor(ex)? {
                return Ok(flow);
            }
            let (x, y) = (arg(ex, 1)?, arg(ex, 0)?);
            let v = match call {
                FloorMod(_) => m::floor_mod(&x, &y),
                _ => m::floor_div(&x, &y, sem, width),
            };
            // where the operands' signs agree, floor and truncation agree (Javadoc: "if the
            // signs of the arguments are the same, the results of floorDiv and the / operator
            // are the same"; likewise floorMod and %): the label of `/` or `%`
            let same_sign = |x: &Interval, y: &Interval| {
                (x.lo.is_some_and(|l| l >= 0) && y.lo.is_some_and(|l| l > 0))
                    || (x.hi.is_some_and(|h| h <= 0) && y.hi.is_some_and(|h| h < 0))
            };
            let op = match call {
                FloorMod(_) => IntOp::Rem,
                _ => IntOp::Div,
            };
            let label = if same_sign(&x, &y) {
                arith_label(ex, op, 1, Some(0))?
            } else {
                None
            };
            finish_labelled(ex, n_args, v, width, label)
        }
        Exact { op, width } => {
            let (a, b) = (arg(ex, 1)?, arg(ex, 0)?);
            let label = arith_label(ex, op, 1, Some(0))?;
            exact(ex, n_args, Interval::exact(op, &a, &b), width, width, label)
        }
        ExactUnary { delta, width } => {
            let a = arg(ex, 0)?;
            let (v, label) = if delta == 0 {
                let label = arith_label(ex, IntOp::Neg, 0, None)?;
                (Interval::exact(IntOp::Neg, &a, &a), label)
            } else {
                let d = i128::from(delta);
                let v = Interval::exact(IntOp::Add, &a, &Interval::literal(d));
                // `x + 1` / `x − 1`, as `iinc` is labelled
                let r = ex.peek(0)?;
                let op = if d < 0 { IntOp::Sub } else { IntOp::Add };
                let label = match Operand::of(&ex.st, r) {
                    Operand::Lit(_) => None,
                    x => Some((op, x, Some(Operand::Lit(d.abs())))),
                };
                (v, label)
            };
            exact(ex, n_args, v, width, width, label)
        }
        ToIntExact => {
            let a = arg(ex, 0)?;
            exact(ex, n_args, a, Width::Int, Width::Int, None)
        }
        Signum(_) => {
            let r = ex.peek(0)?;
            let v = arg(ex, 0)?;
            let s = m::signum(&v);
            if s.as_literal().is_none() {
                // decide the sign first: the result is then exact on each side
                let succs = integer::refine(&ex.before, r, &integer::partition(&v, Cond::Eq, 0));
                return Ok(Flow::Refine(EdgeKind::Refine, succs));
            }
            finish(ex, n_args, s, Width::Int)
        }
        Compare(reach) => {
            let (ra, rb) = (ex.peek(1)?, ex.peek(0)?);
            let (a, b) = (arg(ex, 1)?, arg(ex, 0)?);
            let v = m::compare(&a, &b, ra == rb, reach);
            if m::signum(&v).as_literal().is_none() {
                // against a literal, decide the order first (as `lcmp` does)
                let refine = match (a.as_literal(), b.as_literal()) {
                    (None, Some(c)) => Some((ra, a, c)),
                    (Some(c), None) => Some((rb, b, c)),
                    _ => None,
                };
                if let Some((r, iv, c)) = refine {
                    let succs =
                        integer::refine(&ex.before, r, &integer::partition(&iv, Cond::Eq, c));
                    return Ok(Flow::Refine(EdgeKind::Refine, succs));
                }
            }
            finish(ex, n_args, v, Width::Int)
        }
        Bits { kind, width } => {
            let a = arg(ex, 0)?;
            finish(ex, n_args, m::bits(kind, &a, width), Width::Int)
        }
        HighestOneBit(width) => {
            let a = arg(ex, 0)?;
            finish(ex, n_args, m::highest_one_bit(&a, width), width)
        }
        ParseLong => {
            let Some(ok) = outcome(ex) else {
                return Ok(split_outcomes(ex));
            };
            if !ok {
                return exception::throw_builtin(ex, NUMBER_FORMAT);
            }
            finish(ex, n_args, Width::Long.range(), Width::Long)
        }
        CharTest(test) => {
            let c = arg(ex, 0)?;
            finish(ex, n_args, m::char_test(test, &c), Width::Int)
        }
        CharCase { upper } => {
            let c = arg(ex, 0)?;
            finish(ex, n_args, m::char_case(upper, &c), Width::Int)
        }
        NumericValue => {
            let c = arg(ex, 0)?;
            finish(ex, n_args, m::numeric_value(&c), Width::Int)
        }
        Digit => {
            let (c, radix) = (arg(ex, 1)?, arg(ex, 0)?);
            finish(ex, n_args, m::digit(&c, &radix), Width::Int)
        }
    }
}

/// `Math.max(a, b)` / `Math.min(a, b)` (Javadoc: "the larger (smaller) of a and b"): the
/// operand itself where the intervals decide the order, else a fresh value between the
/// operands' bounds with the labels `r ≥ a`, `r ≥ b` (`≤` for `min`) — the contract a loop
/// such as `x = Math.min(x - 1, cap)` needs, checked on every JVM step.
pub(super) fn max_min(ex: &mut Exec<'_>, max: bool, width: Width) -> Result<Flow, EngineError> {
    let (ra, rb) = (ex.peek(1)?, ex.peek(0)?);
    let (a, b) = (arg(ex, 1)?, arg(ex, 0)?);
    let decided = match (a.compare(&b), max) {
        (Some(std::cmp::Ordering::Less), true) | (Some(std::cmp::Ordering::Greater), false) => {
            Some(rb)
        }
        (Some(_), _) => Some(ra),
        (None, _) => None,
    };
    if let Some(r) = decided {
        pop_n(ex, 2)?;
        ex.push(r)?;
        return Ok(Flow::Next);
    }
    // each bound of the result is the max (min) of the operands' bounds
    let pick = |x: Option<i128>, y: Option<i128>, hi: bool| match (x, y) {
        (Some(p), Some(q)) => Some(if max { p.max(q) } else { p.min(q) }),
        // an infinite bound wins where it is the extreme sought
        _ if max == hi => None,
        (p, None) | (None, p) => p,
    };
    let v = Interval {
        lo: pick(a.lo, b.lo, false),
        hi: pick(a.hi, b.hi, true),
    };
    let (oa, ob) = (Operand::of(&ex.st, ra), Operand::of(&ex.st, rb));
    finish(ex, 2, v, width)?;
    let res = Operand::Ref(ex.peek(0)?);
    let cond = if max { Cond::Ge } else { Cond::Le };
    for o in [oa, ob] {
        // a literal bound is the interval's already
        if matches!(o, Operand::Ref(_)) {
            ex.labels.push(Label::Rel { a: res, cond, b: o });
        }
    }
    Ok(Flow::Next)
}

/// The interval of the integral argument `k` from the top of the stack.
fn arg(ex: &mut Exec<'_>, k: usize) -> Result<Interval, EngineError> {
    let r: Ref = ex.peek(k)?;
    ex.st
        .integral(r)
        .copied()
        .ok_or_else(|| ex.invalid("integer library call on a non-integer"))
}

fn pop_n(ex: &mut Exec<'_>, n: usize) -> Result<(), EngineError> {
    for _ in 0..n {
        ex.pop()?;
    }
    Ok(())
}

/// Pops the arguments and pushes a result `v` of `width`.
fn finish(
    ex: &mut Exec<'_>,
    n_args: usize,
    v: Interval,
    width: Width,
) -> Result<Flow, EngineError> {
    pop_n(ex, n_args)?;
    let r = ex.st.new_integral(width, v);
    ex.push(r)?;
    Ok(Flow::Next)
}

/// An arithmetic label `res = a op b` of a library call whose result is that operation
/// (`a`: the argument `a` places from the top of the stack; `b` likewise), unless every
/// operand is a literal (the result is then a literal too).
type ArithLabel = Option<(IntOp, Operand, Option<Operand>)>;

fn arith_label(
    ex: &mut Exec<'_>,
    op: IntOp,
    a: usize,
    b: Option<usize>,
) -> Result<ArithLabel, EngineError> {
    let ra = ex.peek(a)?;
    let oa = Operand::of(&ex.st, ra);
    let ob = match b {
        Some(k) => {
            let rb = ex.peek(k)?;
            Some(Operand::of(&ex.st, rb))
        }
        None => None,
    };
    let literal = |o: &Operand| matches!(o, Operand::Lit(_));
    Ok((!literal(&oa) || ob.as_ref().is_some_and(|o| !literal(o))).then_some((op, oa, ob)))
}

/// [`finish`], and the label `res = a op b` on the edge when there is one (checked on every
/// JVM step like the labels of the arithmetic instructions).
fn finish_labelled(
    ex: &mut Exec<'_>,
    n_args: usize,
    v: Interval,
    width: Width,
    label: ArithLabel,
) -> Result<Flow, EngineError> {
    let flow = finish(ex, n_args, v, width)?;
    if let Some((op, a, b)) = label {
        let res = ex.peek(0)?;
        ex.labels.push(Label::Arith { res, op, a, b });
    }
    Ok(flow)
}

/// `*Exact`: the exact result `v` when it fits `range_of` (with `label`, the operation it is),
/// ArithmeticException when it cannot, else a split into both.
fn exact(
    ex: &mut Exec<'_>,
    n_args: usize,
    v: Interval,
    range_of: Width,
    width: Width,
    label: ArithLabel,
) -> Result<Flow, EngineError> {
    let range = range_of.range();
    let fits = match v.intersect(&range) {
        None => Some(false),
        Some(_) if v.is_subset_of(&range) => Some(true),
        Some(_) => outcome(ex),
    };
    match fits {
        None => Ok(split_outcomes(ex)),
        Some(false) => exception::throw_builtin(ex, exceptions::ARITHMETIC),
        Some(true) => {
            let inside = v.intersect(&range).unwrap_or(range);
            finish_labelled(ex, n_args, inside, width, label)
        }
    }
}

/// ArithmeticException for a zero divisor (on top of the stack); a refinement when it may be
/// zero.
fn nonzero_divisor(ex: &mut Exec<'_>) -> Result<Option<Flow>, EngineError> {
    let d = ex.peek(0)?;
    let v = arg(ex, 0)?;
    if v.as_literal() == Some(0) {
        return exception::throw_builtin(ex, exceptions::ARITHMETIC).map(Some);
    }
    if v.contains(0) {
        let succs = integer::refine(&ex.before, d, &integer::partition(&v, Cond::Eq, 0));
        return Ok(Some(Flow::Refine(EdgeKind::Refine, succs)));
    }
    Ok(None)
}
