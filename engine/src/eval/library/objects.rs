//! `java.util.Objects.equals`, `hashCode` and `hash` (`models::LibraryCall::ObjectsEquals`,
//! `ObjectsHash`; contracts in `models/calls.rs`): the JDK calls the argument's own `equals` or
//! `hashCode`, so an argument is first decided `null` or existing and, unless its type is a
//! final JDK value class, realized; a class whose method may be program code is unsupported,
//! named.

use super::super::{dispatch, Exec, Flow};
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::models::records::{self, JDK_VALUE_CLASSES};
use crate::refine;
use crate::state::{HeapValue, Interval, Ref};

/// Whose `equals`/`hashCode` an existing object runs.
enum Methods {
    /// A JDK value class's own (its value is not modelled).
    Value,
    /// `Object`'s: identity.
    Identity,
}

/// What the object `r` (known to exist) runs for `name`, or the refinement that realizes it
/// first; unsupported when it may be program code.
fn methods_of(ex: &Exec<'_>, r: Ref, name: &str) -> Result<Result<Methods, Flow>, EngineError> {
    let ty = match ex.st.value(r) {
        Some(HeapValue::Object { class, .. }) => class.clone(),
        Some(HeapValue::Array { .. }) => return Ok(Ok(Methods::Identity)),
        Some(HeapValue::Unknown { ty } | HeapValue::Abstract { ty })
            if JDK_VALUE_CLASSES.contains(&ty.as_str()) =>
        {
            ty.clone()
        }
        _ => {
            return match ex.need_realized(r)? {
                Some(flow) => Ok(Err(flow)),
                None => Err(ex.invalid("Objects: an argument neither realized nor refinable")),
            }
        }
    };
    if JDK_VALUE_CLASSES.contains(&ty.as_str()) {
        return Ok(Ok(Methods::Value));
    }
    let desc = records::object_method_descriptor(name);
    let program = ex.cx.prog.hierarchy.dispatch_virtual(&ty, name, desc)?;
    if program.is_none() && dispatch::reaches_object_methods(ex.cx.prog, &ty, name)? {
        return Ok(Ok(Methods::Identity));
    }
    Err(ex.unsupported(format!(
        "Objects.{name} of a {}: its {name}() may be program code, which the JDK calls (not modelled)",
        ty.replace('/', ".")
    )))
}

/// `Objects.equals(a, b)`.
pub(super) fn equals(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (b, a) = (ex.peek(0)?, ex.peek(1)?);
    for r in [a, b] {
        if let Some(flow) = ex.need_null_or_existing(r)? {
            return Ok(flow);
        }
    }
    let v = if a.is_null() || b.is_null() || a == b {
        Interval::literal(i128::from(a == b))
    } else {
        match methods_of(ex, a, "equals")? {
            Err(flow) => return Ok(flow),
            Ok(Methods::Value) => Interval::literal(0).hull(&Interval::literal(1)),
            Ok(Methods::Identity) => {
                if ex.st.preds.may_equal(a, b) {
                    let succs = refine::equality::refine(&ex.before, a, b, ex.cx.prog);
                    return Ok(Flow::Refine(EdgeKind::Refine, succs));
                }
                Interval::literal(0)
            }
        }
    };
    ex.pop()?;
    ex.pop()?;
    let r = ex.st.new_int(v);
    ex.push(r)?;
    Ok(Flow::Next)
}

/// `Objects.hashCode(o)` (`array` false) and `Objects.hash(values)` (`array` true).
pub(super) fn hash(ex: &mut Exec<'_>, array: bool) -> Result<Flow, EngineError> {
    let top = ex.peek(0)?;
    if let Some(flow) = ex.need_null_or_existing(top)? {
        return Ok(flow);
    }
    let values = if top.is_null() {
        vec![]
    } else if !array {
        vec![top]
    } else {
        if let Some(flow) = ex.need_realized(top)? {
            return Ok(flow);
        }
        match ex.st.value(top) {
            Some(HeapValue::Array {
                elems: Some(elems), ..
            }) => elems.clone(),
            _ => {
                return Err(ex.unsupported(
                    "Objects.hash of an array whose elements the state does not show".into(),
                ))
            }
        }
    };
    for v in values {
        if let Some(flow) = ex.need_null_or_existing(v)? {
            return Ok(flow);
        }
        if !v.is_null() {
            if let Err(flow) = methods_of(ex, v, "hashCode")? {
                return Ok(flow);
            }
        }
    }
    ex.pop()?;
    let v = if top.is_null() {
        Interval::literal(0)
    } else {
        crate::models::random_int()
    };
    let r = ex.st.new_int(v);
    ex.push(r)?;
    Ok(Flow::Next)
}
