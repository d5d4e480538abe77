//! Loads, stores, constants and operand-stack shuffles: they move references, never values.

use super::{Exec, Flow};
use crate::class::{Constant, Insn, Kind};
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
        Insn::Ldc(c) => {
            let r = match c {
                Constant::Int(v) => ex.st.new_int(Interval::literal(i128::from(*v))),
                Constant::String(s) => {
                    // a string constant is a concrete String of known length (spec §8)
                    let len = ex.st.new_int(Interval::literal(s.chars().count() as i128));
                    ex.st.new_obj(HeapValue::Object {
                        class: "java/lang/String".into(),
                        fields: BTreeMap::from([("count".to_string(), len)]),
                    })
                }
                other => return Err(ex.unsupported(format!("ldc of {other:?}"))),
            };
            ex.push(r)?;
        }
        Insn::Load(kind, slot) => {
            check_kind(ex, *kind)?;
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
            check_kind(ex, *kind)?;
            let r = ex.pop()?;
            let e = ex.invalid("store to a local slot beyond max_locals");
            *ex.top()?.locals.get_mut(*slot as usize).ok_or(e)? = Some(r);
        }
        Insn::Pop => {
            ex.pop()?;
        }
        Insn::Pop2 => {
            ex.pop()?;
            ex.pop()?;
        }
        Insn::Dup => {
            let r = ex.peek(0)?;
            ex.push(r)?;
        }
        Insn::DupX1 => {
            let a = ex.pop()?;
            let b = ex.pop()?;
            for r in [a, b, a] {
                ex.push(r)?;
            }
        }
        Insn::DupX2 => {
            let a = ex.pop()?;
            let b = ex.pop()?;
            let c = ex.pop()?;
            for r in [a, c, b, a] {
                ex.push(r)?;
            }
        }
        Insn::Dup2 => {
            let a = ex.peek(0)?;
            let b = ex.peek(1)?;
            ex.push(b)?;
            ex.push(a)?;
        }
        Insn::Swap => {
            let a = ex.pop()?;
            let b = ex.pop()?;
            ex.push(a)?;
            ex.push(b)?;
        }
        _ => return Err(ex.unsupported("instruction not modelled".into())),
    }
    Ok(Flow::Next)
}

/// Only category-1 values (int-like and references) are modelled, so `pop2`/`dup2` always act
/// on two values.
fn check_kind(ex: &Exec<'_>, kind: Kind) -> Result<(), EngineError> {
    match kind {
        Kind::Int | Kind::Ref => Ok(()),
        other => Err(ex.unsupported(format!(
            "{other:?} values (only int-like and reference values are modelled)"
        ))),
    }
}
