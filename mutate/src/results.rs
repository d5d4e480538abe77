//! Results of single instructions that the JVM bounds whatever the operands' intervals say
//! (crate docs, *instruction result*): a comparison of a value with itself, an unsigned right
//! shift by a distance that is never 0.

use jtg_engine::class::{ArithOp, Insn, Kind};
use jtg_engine::state::{Interval, Ref, State};
use jtg_engine::Program;

/// The interval of the result `r` that an `eval` edge from `s` to `t` pushes on `t`'s stack,
/// when its instruction bounds it:
///
/// * `lcmp`, `fcmp<op>`, `dcmp<op>` of one reference with itself: the check binds one reference
///   to one concrete value (a float or double by its bits), so the JVM compares a value with
///   itself (JVMS §6.5, `dcmp<op>`: NaN is unordered, every other value equal to itself):
///   `lcmp` gives 0, the `l` forms 0 or -1, the `g` forms 0 or 1 (`dcmpl d d`, `d != d`, is
///   never 1);
/// * `iushr`/`lushr` by a distance that `s`'s interval puts in `[1, 31]` (`[1, 63]`): the JVM
///   fills the vacated high bits with zeros (JVMS §6.5, `iushr`), so the result is in
///   `[0, 2^31 − 1]` (`[0, 2^63 − 1]`), whatever the value shifted.
pub(crate) fn result_interval(prog: &Program, s: &State, t: &State, r: Ref) -> Option<Interval> {
    let (a, b) = binary_operands(s, t, r)?;
    let f = s.top()?;
    let m = prog.method(&f.method).ok()?;
    let insn = m.code.as_ref()?.at(f.pc)?;
    let (lo, hi) = match insn {
        Insn::LCmp if a == b => (0, 0),
        Insn::FCmpL | Insn::DCmpL if a == b => (-1, 0),
        Insn::FCmpG | Insn::DCmpG if a == b => (0, 1),
        Insn::Arith(kind @ (Kind::Int | Kind::Long), ArithOp::Ushr) => {
            let bits: i128 = if *kind == Kind::Int { 31 } else { 63 };
            let distance = s.int(b)?;
            if !distance.is_subset_of(&Interval::new(Some(1), Some(bits))?) {
                return None;
            }
            (0, (1i128 << bits) - 1)
        }
        _ => return None,
    };
    Interval::new(Some(lo), Some(hi))
}

/// The two operands `(value1, value2)` of a binary stack instruction that completes normally
/// from `s` to `t` with its result in `r` (`value2` was on top), if the edge is that.
fn binary_operands(s: &State, t: &State, r: Ref) -> Option<(Ref, Ref)> {
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
