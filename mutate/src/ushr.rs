//! The result of an unsigned right shift by a distance that is never 0 (module docs of the
//! crate, *interval invariant*): `x >>> 1` is never negative.

use crate::selfcmp::binary_operands;
use jtg_engine::class::{ArithOp, Insn, Kind};
use jtg_engine::state::{Interval, Ref, State};
use std::collections::BTreeMap;

/// The interval of the result `r` that an `eval` edge from `s` (executing `insn`) pushes on
/// `t`'s stack, when `insn` is `iushr`/`lushr` and the shift distance on `s`'s stack top lies
/// in `[1, 31]` (`int`) or `[1, 63]` (`long`) by the source's intervals `src`.
///
/// The JVM shifts by the distance's low 5 (6) bits and fills the vacated high bits with zeros
/// (JVMS §6.5, `iushr`, `lushr`), so a distance of at least 1 clears the sign bit: the result
/// lies in `[0, 2^31 − 1]` (`[0, 2^63 − 1]`), whatever the value shifted. The check binds
/// the result to the JVM's value, under either integer semantics.
pub(super) fn unsigned_shift(
    insn: &Insn,
    s: &State,
    src: &BTreeMap<Ref, Interval>,
    t: &State,
    r: Ref,
) -> Option<Interval> {
    let bits: u32 = match insn {
        Insn::Arith(Kind::Int, ArithOp::Ushr) => 31,
        Insn::Arith(Kind::Long, ArithOp::Ushr) => 63,
        _ => return None,
    };
    let (_, shift) = binary_operands(s, t, r)?;
    let distance = src.get(&shift)?;
    let within = Interval::new(Some(1), Some(i128::from(bits)))?;
    distance
        .is_subset_of(&within)
        .then(|| Interval::new(Some(0), Some((1i128 << bits) - 1)))
        .flatten()
}
