//! Loads, stores, constants and operand-stack shuffles: they move references, never values.

use super::{Exec, Flow};
use crate::class::{Constant, Insn};
use crate::error::EngineError;
use crate::state::{HeapValue, Interval, Ref};
use std::collections::BTreeMap;

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::AConstNull => ex.push(Ref::Null)?,
        Insn::IConst(v) => {
            let r = ex.st.new_int(Interval::literal(i128::from(*v)));
            ex.push(r)?;
        }
        Insn::LConst(v) => {
            let r = ex
                .st
                .new_prim(HeapValue::Long(Interval::literal(i128::from(*v))));
            ex.push(r)?;
        }
        // a constant is a literal (its bits, which the check compares); what the engine
        // derives from it is only the comparisons' results (`float.rs`)
        Insn::FConst(v) => {
            let r = ex.st.new_prim(HeapValue::Float(Some(v.to_bits())));
            ex.push(r)?;
        }
        Insn::DConst(v) => {
            let r = ex.st.new_prim(HeapValue::Double(Some(v.to_bits())));
            ex.push(r)?;
        }
        Insn::Ldc(c) => {
            let r = match c {
                Constant::Int(v) => ex.st.new_int(Interval::literal(i128::from(*v))),
                Constant::Long(v) => ex
                    .st
                    .new_prim(HeapValue::Long(Interval::literal(i128::from(*v)))),
                Constant::Float(v) => ex.st.new_prim(HeapValue::Float(Some(v.to_bits()))),
                Constant::Double(v) => ex.st.new_prim(HeapValue::Double(Some(v.to_bits()))),
                Constant::String(s) => {
                    // a string constant is a String of known length (spec §8); equal
                    // literals are one interned object, so it may be one the state holds
                    let len = Interval::literal(s.encode_utf16().count() as i128);
                    super::library::shared::string(ex, len)
                }
                Constant::Class(c) => {
                    // `C.class` is one object per class for the whole run; a fresh object
                    // distinct from everything in the state is exact only while it is the
                    // only `Class` object there (javac's `assert` idiom consumes it at once)
                    let class_objects = ex
                        .st
                        .heap
                        .values()
                        .filter(|v| v.type_name() == Some(crate::models::CLASS))
                        .count();
                    if class_objects > 0 {
                        return Err(ex.unsupported(format!(
                            "ldc of class {c} while another Class object is live"
                        )));
                    }
                    ex.st.new_obj(HeapValue::Object {
                        class: crate::models::CLASS.into(),
                        fields: BTreeMap::new(),
                    })
                }
                other => return Err(ex.unsupported(format!("ldc of {other:?}"))),
            };
            ex.push(r)?;
        }
        Insn::Load(_, slot) => {
            let e = ex.invalid("load of an unset local variable");
            let r = ex
                .top()?
                .locals
                .get(*slot as usize)
                .copied()
                .flatten()
                .ok_or(e)?;
            ex.push(r)?;
        }
        Insn::Store(kind, slot) => {
            let r = ex.pop()?;
            let r = super::float::stored(ex, r);
            let slot = *slot as usize;
            let e = ex.invalid("store to a local slot beyond max_locals");
            let wide_below = slot
                .checked_sub(1)
                .and_then(|k| ex.top().ok()?.locals.get(k).copied().flatten())
                .is_some_and(|p| ex.st.is_wide(p));
            let locals = &mut ex.top()?.locals;
            *locals.get_mut(slot).ok_or(e)? = Some(r);
            // as in the JVM: a long/double also takes the next slot, and a store into the
            // second slot of a long/double destroys it
            if kind.slots() == 2 {
                if let Some(next) = locals.get_mut(slot + 1) {
                    *next = None;
                }
            }
            if wide_below {
                locals[slot - 1] = None;
            }
        }
        // The `pop2`/`dup2` family counts category-2 values (long, double) as two units: a
        // long is one stack entry here, so the form is chosen by the kinds of the entries.
        Insn::Pop => {
            ex.pop()?;
        }
        Insn::Pop2 => {
            if !wide(ex, 0)? {
                ex.pop()?;
            }
            ex.pop()?;
        }
        Insn::Dup => {
            let r = ex.peek(0)?;
            ex.push(r)?;
        }
        Insn::DupX1 => shuffle(ex, 2, &[0, 1, 0])?,
        Insn::DupX2 => {
            if wide(ex, 1)? {
                shuffle(ex, 2, &[0, 1, 0])?
            } else {
                shuffle(ex, 3, &[0, 2, 1, 0])?
            }
        }
        Insn::Dup2 => {
            if wide(ex, 0)? {
                shuffle(ex, 1, &[0, 0])?
            } else {
                shuffle(ex, 2, &[1, 0, 1, 0])?
            }
        }
        Insn::Dup2X1 => {
            if wide(ex, 0)? {
                shuffle(ex, 2, &[0, 1, 0])?
            } else {
                shuffle(ex, 3, &[1, 0, 2, 1, 0])?
            }
        }
        Insn::Dup2X2 => match (wide(ex, 0)?, wide(ex, 1)?) {
            // form 4: ..., v2, v1 (both wide) → v1, v2, v1
            (true, true) => shuffle(ex, 2, &[0, 1, 0])?,
            // form 2: ..., v3, v2, v1 (v1 wide) → v1, v3, v2, v1
            (true, false) => shuffle(ex, 3, &[0, 2, 1, 0])?,
            (false, _) => {
                if wide(ex, 2)? {
                    // form 3: ..., v3 (wide), v2, v1 → v2, v1, v3, v2, v1
                    shuffle(ex, 3, &[1, 0, 2, 1, 0])?
                } else {
                    // form 1: ..., v4, v3, v2, v1 → v2, v1, v4, v3, v2, v1
                    shuffle(ex, 4, &[1, 0, 3, 2, 1, 0])?
                }
            }
        },
        Insn::Swap => shuffle(ex, 2, &[0, 1])?,
        _ => return Err(ex.unsupported("instruction not modelled".into())),
    }
    Ok(Flow::Next)
}

/// Whether the `k`-th stack entry from the top is a category-2 value.
fn wide(ex: &mut Exec<'_>, k: usize) -> Result<bool, EngineError> {
    let r = ex.peek(k)?;
    Ok(ex.st.is_wide(r))
}

/// Pops `n` entries and pushes `order` (bottom first), each an index from the top of the popped
/// entries (0 = the old top).
fn shuffle(ex: &mut Exec<'_>, n: usize, order: &[usize]) -> Result<(), EngineError> {
    let mut top = Vec::with_capacity(n);
    for _ in 0..n {
        top.push(ex.pop()?);
    }
    for &k in order {
        ex.push(top[k])?;
    }
    Ok(())
}
