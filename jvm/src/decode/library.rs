//! Writes that JDK methods make into array arguments, where the (uninstrumented) JDK does them:
//! `System.arraycopy`, `Arrays.fill(a, v)`, `Arrays.sort(a)` of a primitive array. The
//! instrumenter marks their call sites (`Instrumenter.libraryWrite`, the bits above the low 8 of
//! an invoke's aux); a call that returned normally (the next step is the instruction after it,
//! in the same frame) is replayed from its recorded operands and the arrays as of its step, as
//! `xastore` is. A call that threw wrote nothing: `arraycopy` checks everything before copying
//! ("the destination is not modified"), `fill` of an `Object[]` throws at its first store,
//! `sort` throws only for `null`.

use crate::decode::heap::{HeapHist, Write};
use crate::decode::steps::StepIndex;
use crate::decode::wire::{bad, truncate, Val};
use crate::error::JvmError;
use crate::values::{CObject, CValue};
use std::cmp::Ordering;

/// `System.arraycopy`.
const ARRAYCOPY: i32 = 1;
/// `Arrays.fill(a, v)`.
const FILL: i32 = 2;
/// `Arrays.sort(a)` of a primitive array.
const SORT: i32 = 3;

/// The writes of the library call of step `i` (kind `code`, see the module docs).
pub(crate) fn writes(
    heap: &HeapHist,
    steps: &StepIndex,
    i: usize,
    code: i32,
) -> Result<Vec<Write>, JvmError> {
    if i + 1 >= steps.len() {
        return Ok(vec![]);
    }
    let (mid, pc, depth, _) = steps.header(i);
    let (mid2, pc2, depth2, _) = steps.header(i + 1);
    // invokestatic is 3 bytes long
    if mid2 != mid || depth2 != depth || pc2 != pc + 3 {
        return Ok(vec![]);
    }
    let (_, stack) = steps.values(i, |v| v, Val::C(CValue::Top));
    // the operand stack is recorded top first
    let op = |k: usize| match stack.get(k) {
        Some(Val::C(v)) => Ok(*v),
        other => Err(bad(format!(
            "library call at step {i} with operand {k} {other:?}"
        ))),
    };
    let int = |k: usize| match op(k)? {
        CValue::Int(v) => usize::try_from(v)
            .map_err(|_| bad(format!("negative position at step {i} of a completed call"))),
        v => Err(bad(format!("library call at step {i}: {v:?} is no int"))),
    };
    let array = |k: usize| match op(k)? {
        CValue::Ref(id) => match heap.object_at(id.0, i as u32) {
            Some(CObject::Array { elem, elems }) => Ok((id.0, elem, elems)),
            other => Err(bad(format!("library call at step {i} on {other:?}"))),
        },
        v => Err(bad(format!("library call at step {i} on {v:?}"))),
    };
    let write = |id: u32, slot: usize, value: CValue| Write {
        id,
        slot: slot as u32,
        step: i as u32,
        value,
    };
    Ok(match code {
        ARRAYCOPY => {
            let (n, dpos, spos) = (int(0)?, int(1)?, int(3)?);
            let (dest, _, _) = array(2)?;
            let (_, _, src) = array(4)?;
            // all sources are read before any write: overlapping ranges copy "as if ... first
            // copied to a temporary array"
            (0..n)
                .map(|k| {
                    src.get(spos + k)
                        .map(|v| write(dest, dpos + k, *v))
                        .ok_or_else(|| bad(format!("arraycopy at step {i} past the source")))
                })
                .collect::<Result<_, _>>()?
        }
        FILL => {
            let value = op(0)?;
            let (a, elem, elems) = array(1)?;
            let d = elem.bytes().next().unwrap_or(b'L');
            (0..elems.len())
                .map(|k| write(a, k, truncate(d, value)))
                .collect()
        }
        SORT => {
            let (a, _, elems) = array(0)?;
            let mut sorted: Vec<CValue> = elems.iter().copied().collect();
            sorted.sort_by(java_order);
            sorted
                .into_iter()
                .enumerate()
                .map(|(k, v)| write(a, k, v))
                .collect()
        }
        other => return Err(bad(format!("unknown library write {other} at step {i}"))),
    })
}

/// The ascending order of `Arrays.sort` on primitives: numeric, `-0.0` before `0.0`, NaN last
/// (`Double.compare`'s order).
fn java_order(a: &CValue, b: &CValue) -> Ordering {
    fn float_key(x: f64) -> (bool, f64) {
        (x.is_nan(), x)
    }
    match (a, b) {
        (CValue::Int(x), CValue::Int(y)) => x.cmp(y),
        (CValue::Long(x), CValue::Long(y)) => x.cmp(y),
        (CValue::Float(x), CValue::Float(y)) => {
            let (p, q) = (
                float_key(f32::from_bits(*x).into()),
                float_key(f32::from_bits(*y).into()),
            );
            p.0.cmp(&q.0).then(if p.0 {
                Ordering::Equal
            } else {
                p.1.total_cmp(&q.1)
            })
        }
        (CValue::Double(x), CValue::Double(y)) => {
            let (p, q) = (float_key(f64::from_bits(*x)), float_key(f64::from_bits(*y)));
            p.0.cmp(&q.0).then(if p.0 {
                Ordering::Equal
            } else {
                p.1.total_cmp(&q.1)
            })
        }
        _ => Ordering::Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_order_is_javas() {
        let mut v = [
            CValue::Double(f64::NAN.to_bits()),
            CValue::Double(0.0f64.to_bits()),
            CValue::Double((-0.0f64).to_bits()),
            CValue::Double((-1.5f64).to_bits()),
        ];
        v.sort_by(java_order);
        let got: Vec<u64> = v
            .iter()
            .map(|c| match c {
                CValue::Double(b) => *b,
                _ => 0,
            })
            .collect();
        assert_eq!(got[0], (-1.5f64).to_bits());
        assert_eq!(got[1], (-0.0f64).to_bits());
        assert_eq!(got[2], 0.0f64.to_bits());
        assert!(f64::from_bits(got[3]).is_nan());
        let mut w = [CValue::Int(3), CValue::Int(-7), CValue::Int(0)];
        w.sort_by(java_order);
        assert_eq!(w, [CValue::Int(-7), CValue::Int(0), CValue::Int(3)]);
    }
}
