//! Exceptions (spec §6.4): built-in throws allocate the exception object; `athrow` throws a
//! given one. Handling happens in the same step: the innermost handler of the exception
//! table (across inlined frames) whose catch type matches gets control, otherwise the
//! exception ends the program (an exceptional program end).

use super::{Exec, Flow};
use crate::error::EngineError;
use crate::models::exceptions;
use crate::state::{End, HeapValue, Ref};
use std::collections::BTreeMap;

/// Throws a fresh instance of the built-in exception `class`.
pub(super) fn throw_builtin(ex: &mut Exec<'_>, class: &str) -> Result<Flow, EngineError> {
    let exc = ex.st.new_obj(HeapValue::Object {
        class: class.to_string(),
        fields: BTreeMap::new(),
    });
    handle(ex, exc)
}

pub(super) fn athrow(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let exc = ex.pop()?;
    if exc.is_null() {
        return throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(exc)? {
        return Ok(flow);
    }
    handle(ex, exc)
}

pub(super) fn handle(ex: &mut Exec<'_>, exc: Ref) -> Result<Flow, EngineError> {
    let class = ex
        .st
        .value(exc)
        .and_then(|v| v.type_name())
        .ok_or_else(|| EngineError::Internal("exception without a class".into()))?
        .to_string();
    while let Some(frame) = ex.st.frames.last() {
        let method = ex.cx.prog.method(&frame.method)?;
        let pc = frame.pc;
        let mut target = None;
        if let Some(code) = &method.code {
            for h in &code.handlers {
                if h.start <= pc && pc < h.end {
                    let matches = match &h.catch_type {
                        None => true,
                        Some(t) => ex.cx.prog.hierarchy.is_subtype(&class, t)?,
                    };
                    if matches {
                        target = Some(h.handler);
                        break;
                    }
                }
            }
        }
        if let Some(t) = target {
            let f = ex.top()?;
            f.stack.clear();
            f.stack.push(exc);
            f.pc = t;
            return Ok(Flow::Done);
        }
        ex.st.frames.pop();
    }
    ex.st.end = Some(End::Throw(exc));
    Ok(Flow::Done)
}
