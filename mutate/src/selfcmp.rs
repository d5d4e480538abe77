//! The result of a comparison instruction whose two operands are one value (module docs of the
//! crate, *interval invariant*): `dcmpl d d` is never 1.

use jtg_engine::class::Insn;
use jtg_engine::state::{Interval, Ref, State};

/// The interval of the comparison result `r` that an `eval` edge from `s` (executing `insn`)
/// pushes on `t`'s stack, when both operands are the same reference of `s`.
///
/// The check binds one reference to one concrete value, compared by its bits (a float or
/// double is an instance of a reference's witness only with the same bits), so the JVM
/// compares a value with itself: `lcmp` gives 0; `fcmpl`/`dcmpl` give 0, or -1 for NaN;
/// `fcmpg`/`dcmpg` give 0, or 1 for NaN (JVMS §6.5, `dcmp<op>`: NaN is unordered, every
/// other value equal to itself, `-0.0` included).
pub(super) fn self_compare(insn: &Insn, s: &State, t: &State, r: Ref) -> Option<Interval> {
    let (lo, hi) = match insn {
        Insn::LCmp => (0, 0),
        Insn::FCmpL | Insn::DCmpL => (-1, 0),
        Insn::FCmpG | Insn::DCmpG => (0, 1),
        _ => return None,
    };
    let (a, b) = binary_operands(s, t, r)?;
    if a != b {
        return None;
    }
    Interval::new(Some(lo), Some(hi))
}

/// The two operands `(value1, value2)` of a binary stack instruction that completes normally
/// from `s` to `t` with its result in `r` (`value2` was on top), if the edge is that.
pub(super) fn binary_operands(s: &State, t: &State, r: Ref) -> Option<(Ref, Ref)> {
    let (top, ttop) = (s.top()?, t.top()?);
    let n = top.stack.len();
    let same_frames = !t.is_end() && t.frames.len() == s.frames.len();
    if top.exception.is_some() || !same_frames || n < 2 || ttop.stack.len() != n - 1 {
        return None;
    }
    if ttop.stack.last() != Some(&r) {
        return None;
    }
    Some((top.stack[n - 2], top.stack[n - 1]))
}
