//! `java.util.Optional`'s methods (`models::optional::OptionalCall`, contracts in
//! `models/optional.rs`): an `Optional` object with its `value`, `null` for the one empty
//! `Optional` of the JDK.

use super::super::{exception, Exec, Flow};
use super::shared;
use crate::error::EngineError;
use crate::models::optional::{OptionalCall, OPTIONAL, VALUE};
use crate::models::{self, exceptions};
use crate::state::{FieldKey, HeapValue, Ref};
use std::collections::BTreeMap;

pub(crate) fn eval(ex: &mut Exec<'_>, call: OptionalCall) -> Result<Flow, EngineError> {
    match call {
        OptionalCall::Of | OptionalCall::OfNullable => {
            let v = ex.peek(0)?;
            if v.is_null() && call == OptionalCall::Of {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_null_or_existing(v)? {
                return Ok(flow);
            }
            ex.pop()?;
            let o = if v.is_null() {
                empty(ex)
            } else {
                ex.st.new_obj(HeapValue::Object {
                    class: OPTIONAL.into(),
                    fields: BTreeMap::from([(FieldKey::plain(VALUE), v)]),
                })
            };
            ex.push(o)?;
        }
        OptionalCall::Empty => {
            let o = empty(ex);
            ex.push(o)?;
        }
        OptionalCall::IsPresent { .. } | OptionalCall::Get => {
            let v = match value(ex, 0)? {
                Ok(v) => v,
                Err(flow) => return Ok(flow),
            };
            match call {
                OptionalCall::Get if v.is_null() => {
                    return exception::throw_builtin(ex, models::collections::NO_SUCH_ELEMENT);
                }
                OptionalCall::Get => {
                    ex.pop()?;
                    ex.push(v)?;
                }
                OptionalCall::IsPresent { negated } => {
                    ex.pop()?;
                    // present: a value; `isEmpty` (negated) asks the opposite
                    let present = i128::from(v.is_null() == negated);
                    let r = ex.st.new_int(crate::state::Interval::literal(present));
                    ex.push(r)?;
                }
                _ => unreachable!("matched above"),
            }
        }
        OptionalCall::OrElse => {
            let v = match value(ex, 1)? {
                Ok(v) => v,
                Err(flow) => return Ok(flow),
            };
            let other = ex.pop()?;
            ex.pop()?;
            ex.push(if v.is_null() { other } else { v })?;
        }
    }
    Ok(Flow::Next)
}

/// The value of the `Optional` `k`-th from the top, `null` or an existing object; `Err`: the
/// refinement that comes first.
fn value(ex: &mut Exec<'_>, k: usize) -> Result<Result<Ref, Flow>, EngineError> {
    let o = ex.peek(k)?;
    if let Some(flow) = ex.need_realized(o)? {
        return Ok(Err(flow));
    }
    let v = match ex.st.value(o) {
        Some(HeapValue::Object { fields, .. }) => fields.get(VALUE).copied(),
        _ => None,
    }
    .ok_or_else(|| ex.invalid("an Optional without its value"))?;
    if let Some(flow) = ex.need_null_or_existing(v)? {
        return Ok(Err(flow));
    }
    Ok(Ok(v))
}

/// The empty `Optional`: JDK 17 has one (`Optional.EMPTY`). A realized empty `Optional` of
/// the state is it; else a new one that may be (`=?`) every object that may be an empty
/// `Optional` (a realized one whose value may be `null`) and may lie below (`%$`) every
/// object that may hide one (`shared::possibly_shared_as`).
fn empty(ex: &mut Exec<'_>) -> Ref {
    let known = ex.st.heap.iter().find_map(|(&q, v)| match v {
        HeapValue::Object { class, fields }
            if class == OPTIONAL && fields.get(VALUE) == Some(&Ref::Null) =>
        {
            Some(q)
        }
        _ => None,
    });
    if let Some(q) = known {
        return q;
    }
    shared::possibly_shared_as(
        ex,
        OPTIONAL,
        BTreeMap::from([(FieldKey::plain(VALUE), Ref::Null)]),
        &|st, fields| {
            fields
                .get(VALUE)
                .is_some_and(|v| !st.value(*v).is_some_and(HeapValue::exists))
        },
    )
}
