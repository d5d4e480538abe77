//! Sizes and lengths the models count (a collection's size, an iterator's remaining elements,
//! a `StringBuilder`'s length): `a ± b` as an arithmetic step the ITS sees, in
//! `[floor, Integer.MAX_VALUE]`; an integer decided against a constant, else refined.

use super::super::{arith, Exec, Flow};
use crate::class::Cond;
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::refine::integer;
use crate::state::{HeapValue, IntOp, Interval, Ref, Width};

/// The interval of the integer `r` (a size, a length, an index).
pub(super) fn int(ex: &Exec<'_>, r: Ref) -> Result<Interval, EngineError> {
    ex.st
        .int(r)
        .copied()
        .ok_or_else(|| ex.invalid("a size, length or index of a non-integer"))
}

/// Whether `r cond c` holds, where its interval decides it; else the refinement that splits
/// `r` at `c` first.
pub(super) fn decide(
    ex: &Exec<'_>,
    r: Ref,
    cond: Cond,
    c: i128,
) -> Result<Result<bool, Flow>, EngineError> {
    let v = int(ex, r)?;
    Ok(match v.decide(cond, &Interval::literal(c)) {
        Some(b) => Ok(b),
        None => {
            let parts = integer::partition(&v, cond, c);
            let succs = integer::refine(&ex.before, r, &parts);
            Err(Flow::Refine(EdgeKind::Refine, succs))
        }
    })
}

/// `a ± 1` with its label, in `[floor, Integer.MAX_VALUE]`: a size or a count never wraps (a
/// collection's `size()` is at most `Integer.MAX_VALUE`, and a removal happens only from a
/// non-empty one), so its interval is the exact one whatever the integer semantics, capped at
/// `MAX_VALUE` (else `--ints java`'s merges, which widen to the int range, never converge: the
/// bound would creep past it by one per iteration).
pub(super) fn step(ex: &mut Exec<'_>, a: Ref, op: IntOp, floor: i128) -> Result<Ref, EngineError> {
    let one = ex.st.new_int(Interval::literal(1));
    sum(ex, a, one, op, floor)
}

/// `a ± b` of two sizes (`b` ≥ 0) with its label, capped like [`step`].
pub(super) fn sum(
    ex: &mut Exec<'_>,
    a: Ref,
    b: Ref,
    op: IntOp,
    floor: i128,
) -> Result<Ref, EngineError> {
    let (va, vb) = (int(ex, a)?, int(ex, b)?);
    let r = arith::apply(ex, op, a, Some(b), Width::Int)?;
    let vb = if op == IntOp::Add {
        vb
    } else {
        vb.neg(crate::state::IntSemantics::Unbounded)
    };
    let exact = Interval {
        lo: va.lo.zip(vb.lo).map(|(x, y)| x + y),
        hi: va.hi.zip(vb.hi).map(|(x, y)| x + y),
    }
    .intersect(&Interval {
        lo: Some(floor),
        hi: Some(i128::from(i32::MAX)),
    })
    .unwrap_or(Interval {
        lo: Some(floor),
        hi: Some(i128::from(i32::MAX)),
    });
    if let Some(HeapValue::Int(v)) = ex.st.heap.get_mut(&r) {
        *v = exact;
    }
    Ok(r)
}
