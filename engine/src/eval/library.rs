//! Library calls with a model (`crate::models::LibraryCall`): what the call does to the
//! abstract state instead of executing the JDK's code. The contracts are in `models/calls.rs`.

use super::{exception, Exec, Flow};
use crate::class::Cond;
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::models::{self, exceptions, LibraryCall, RandomKind};
use crate::refine::{self, integer};
use crate::state::{HeapValue, Interval, Width};

mod arrays;
mod builder;
mod collections;
mod counts;
mod enums;
mod numbers;
mod objects;
mod optional;
pub(super) mod shared;
mod text;

pub(super) fn eval(
    ex: &mut Exec<'_>,
    model: LibraryCall,
    n_args: usize,
    has_receiver: bool,
) -> Result<Flow, EngineError> {
    if has_receiver {
        // a call on `null` throws before the method runs (`invoke` throws for a literal
        // `null`); a receiver that may be null is decided first, for every model
        let r = ex.peek(n_args)?;
        if let Some(flow) = ex.need_null_or_existing(r)? {
            return Ok(flow);
        }
    }
    match model {
        LibraryCall::NoEffect => {
            for _ in 0..n_args + usize::from(has_receiver) {
                ex.pop()?;
            }
        }
        LibraryCall::StringLength => {
            let s = ex.peek(0)?;
            if let Some(flow) = ex.need_realized(s)? {
                return Ok(flow);
            }
            ex.pop()?;
            let count = match ex.st.value(s) {
                Some(HeapValue::Object { fields, .. }) => fields.get("count").copied(),
                _ => None,
            }
            .ok_or_else(|| ex.invalid("String.length() on a non-String"))?;
            ex.push(count)?;
        }
        LibraryCall::ObjectHashCode => {
            ex.pop()?;
            let sem = ex.sem();
            let r = ex.st.new_int(Interval::most_general(sem));
            ex.push(r)?;
        }
        LibraryCall::ObjectEquals => {
            let (o, this) = (ex.peek(0)?, ex.peek(1)?);
            // the receiver exists; the argument only needs to be known null or existing
            if let Some(flow) = ex.need_null_or_existing(o)? {
                return Ok(flow);
            }
            if this != o && ex.st.preds.may_equal(this, o) {
                let succs = refine::equality::refine(&ex.before, this, o, ex.cx.prog);
                return Ok(Flow::Refine(EdgeKind::Refine, succs));
            }
            ex.pop()?;
            ex.pop()?;
            let r = ex.st.new_int(Interval::literal(i128::from(this == o)));
            ex.push(r)?;
        }
        LibraryCall::ValueEquals => {
            ex.pop()?;
            ex.pop()?;
            let r = ex
                .st
                .new_int(Interval::literal(0).hull(&Interval::literal(1)));
            ex.push(r)?;
        }
        LibraryCall::RequireNonNull | LibraryCall::RequireNonNullWithMessage => {
            let message = usize::from(model == LibraryCall::RequireNonNullWithMessage);
            let o = ex.peek(message)?;
            if o.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_null_or_existing(o)? {
                return Ok(flow);
            }
            if message == 1 {
                ex.pop()?;
            }
            // the argument, known to exist, stays on the stack as the result
        }
        LibraryCall::ArrayClone => {
            let a = ex.peek(0)?;
            if let Some(flow) = ex.need_realized(a)? {
                return Ok(flow);
            }
            ex.pop()?;
            let Some(HeapValue::Array {
                ty,
                len,
                elems,
                exact,
            }) = ex.st.value(a).cloned()
            else {
                return Err(ex.invalid("clone() of an array on a non-array"));
            };
            let primitive = ty.len() == 2;
            // a copy has the original's runtime type
            let copy = if elems.is_none() && !primitive {
                // the copy's unknown elements are the original's: it shares with them
                arrays::clone_hidden(ex, a, ty, len, exact)
            } else {
                ex.st.new_obj(HeapValue::array(ty, len, elems, exact))
            };
            ex.push(copy)?;
        }
        LibraryCall::MathMax | LibraryCall::MathMin => {
            return numbers::max_min(ex, model == LibraryCall::MathMax, Width::Int);
        }
        LibraryCall::MathAbs => {
            let sem = ex.sem();
            let b = ex.pop()?;
            let vb = *ex
                .st
                .int(b)
                .ok_or_else(|| ex.invalid("Math on a non-integer"))?;
            let r = ex.st.new_int(models::abs(&vb, sem));
            ex.push(r)?;
        }
        LibraryCall::RandomNext(kind) => {
            ex.pop()?;
            let r = match kind {
                RandomKind::Int => ex.st.new_int(models::random_int()),
                RandomKind::Boolean => ex
                    .st
                    .new_int(Interval::new(Some(0), Some(1)).unwrap_or(Interval::TOP)),
                RandomKind::Long => ex.st.new_prim(HeapValue::Long(Interval::long_range())),
                RandomKind::Float => ex.st.new_prim(HeapValue::Float(None)),
                RandomKind::Double => ex.st.new_prim(HeapValue::Double(None)),
            };
            ex.push(r)?;
        }
        LibraryCall::RandomNextIntBounded => {
            let n = ex.peek(0)?;
            let bound = *ex
                .st
                .int(n)
                .ok_or_else(|| ex.invalid("Random.nextInt(int) of a non-integer"))?;
            match bound.decide(Cond::Gt, &Interval::literal(0)) {
                None => {
                    // the run throws or returns depending on the bound: decide it first
                    let parts = integer::partition(&bound, Cond::Gt, 0);
                    let succs = integer::refine(&ex.before, n, &parts);
                    return Ok(Flow::Refine(EdgeKind::Refine, succs));
                }
                Some(false) => {
                    return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT);
                }
                Some(true) => {
                    ex.pop()?;
                    ex.pop()?;
                    let r = ex.st.new_int(models::bounded_random(&bound));
                    ex.push(r)?;
                }
            }
        }
        LibraryCall::DesiredAssertionStatus => {
            ex.pop()?;
            // either status: see the model's docs
            let r = ex
                .st
                .new_int(Interval::new(Some(0), Some(1)).expect("0 ≤ 1"));
            ex.push(r)?;
        }
        LibraryCall::Print => {
            for _ in 0..n_args + usize::from(has_receiver) {
                ex.pop()?;
            }
        }
        LibraryCall::StringBuilderNew => return builder::new_builder(ex, n_args),
        LibraryCall::StringBuilderAppend(added) => return builder::append(ex, added),
        LibraryCall::PrintObject { returns_this } => {
            let o = ex.peek(0)?;
            if let Some(flow) = ex.need_null_or_existing(o)? {
                return Ok(flow);
            }
            let is_string = o.is_null()
                || ex.st.value(o).and_then(HeapValue::type_name) == Some(models::STRING);
            if !is_string {
                // `String.valueOf(o)` calls `o.toString()`, which may be program code
                let ty = ex
                    .st
                    .value(o)
                    .and_then(HeapValue::type_name)
                    .unwrap_or(models::OBJECT);
                return Err(ex.unsupported(format!(
                    "library call converting an object of type {} to a string (toString() not modelled)",
                    ty.replace('/', ".")
                )));
            }
            if returns_this {
                // `StringBuilder.append(Object)` of a string or `null`: as `append(String)`
                return builder::append(ex, models::Appended::Text);
            }
            ex.pop()?;
            ex.pop()?;
        }
        LibraryCall::StringBuilderOfString => return builder::of_string(ex),
        LibraryCall::Text(call) => return text::eval(ex, call, n_args, has_receiver),
        LibraryCall::Builder(call) => return builder::call(ex, call, n_args),
        LibraryCall::Number(call) => return numbers::eval(ex, call, n_args),
        LibraryCall::Arrays(call) => return arrays::eval(ex, call),
        LibraryCall::Collection(call) => return collections::eval(ex, call, n_args, has_receiver),
        LibraryCall::Enum(call) => return enums::eval(ex, call),
        LibraryCall::Optional(call) => return optional::eval(ex, call),
        LibraryCall::ObjectsEquals => return objects::equals(ex),
        LibraryCall::ObjectsHash { array } => return objects::hash(ex, array),
        LibraryCall::StringBuilderToString => return builder::to_string(ex),
    }
    Ok(Flow::Next)
}
