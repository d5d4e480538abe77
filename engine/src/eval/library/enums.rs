//! `java.lang.Enum`'s methods (`models::enums::EnumCall`, contracts in `models/enums.rs`):
//! `ordinal()` and `name()`/`toString()` read the receiver's fields; `compareTo` is the
//! difference of the ordinals (labelled `res = a - b`, so the prover can read it) after the
//! null check and the check of the declaring classes; `valueOf(C.class, name)` throws
//! NullPointerException for a `null` name, else IllegalArgumentException or returns a
//! constant of `C` (which of them the engine does not know: it keeps no string's contents).

use super::super::arith;
use super::super::{exception, Exec, Flow};
use super::text::{null_check, outcome, split_outcomes};
use crate::class::{Constant, Insn};
use crate::error::EngineError;
use crate::models::enums::{self, EnumCall, NAME, ORDINAL};
use crate::models::exceptions;
use crate::state::{HeapValue, IntOp, Ref, Width};

pub(crate) fn eval(ex: &mut Exec<'_>, call: EnumCall) -> Result<Flow, EngineError> {
    match call {
        EnumCall::Ordinal | EnumCall::Name => {
            let this = ex.peek(0)?;
            if let Some(flow) = ex.need_realized(this)? {
                return Ok(flow);
            }
            let v = field(
                ex,
                this,
                if call == EnumCall::Ordinal {
                    ORDINAL
                } else {
                    NAME
                },
            )?;
            ex.pop()?;
            ex.push(v)?;
        }
        EnumCall::CompareTo => {
            let (other, this) = (ex.peek(0)?, ex.peek(1)?);
            if other.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_null_or_existing(other)? {
                return Ok(flow);
            }
            if other.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            for r in [this, other] {
                if let Some(flow) = ex.need_realized(r)? {
                    return Ok(flow);
                }
            }
            let h = &ex.cx.prog.hierarchy;
            let declaring = |r: Ref| match ex.st.value(r) {
                Some(HeapValue::Object { class, .. }) => enums::enum_class(h, class),
                _ => None,
            };
            let (a, b) = (declaring(this), declaring(other));
            if a.is_none() {
                return Err(ex.invalid("Enum.compareTo on an object of a non-enum class"));
            }
            if a != b {
                // `getDeclaringClass()` differs, or the bridge's `checkcast` to `Enum` fails
                return exception::throw_builtin(ex, exceptions::CLASS_CAST);
            }
            let oa = field(ex, this, ORDINAL)?;
            let ob = field(ex, other, ORDINAL)?;
            ex.pop()?;
            ex.pop()?;
            let r = if this == other {
                ex.st.new_int(crate::state::Interval::literal(0))
            } else {
                // two ordinals in [0, MAX]: the difference never wraps
                arith::apply(ex, IntOp::Sub, oa, Some(ob), Width::Int)?
            };
            ex.push(r)?;
        }
        EnumCall::ValueOf => return value_of(ex),
    }
    Ok(Flow::Next)
}

/// The value of `Enum`'s field `name` in the realized enum object `o`.
fn field(ex: &Exec<'_>, o: Ref, name: &str) -> Result<Ref, EngineError> {
    match ex.st.value(o) {
        Some(HeapValue::Object { fields, .. }) => {
            let key = enums::field_key(fields.keys(), name);
            fields.get(&key).copied()
        }
        _ => None,
    }
    .ok_or_else(|| ex.invalid(&format!("Enum.{name} of an object without that field")))
}

/// `Enum.valueOf(Class, String)` with a class literal `C.class` as its class: `name` null →
/// NullPointerException ("if enumClass or name is null"); else a split into
/// IllegalArgumentException ("if the specified enum class has no constant with the specified
/// name") and a constant of `C` — an existing object of `C` that may be (`=?`) every enum
/// object of the state that may be one of `C`'s constants (`enums::relate_to_constants_of`).
/// Only for an enum of the class path: its `values()`, which the JDK calls through
/// reflection the first time, has run before the call on the JVM side (`Inits.enumReady`),
/// like a `<clinit>` no step of the run.
fn value_of(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let Some(class) = class_literal_argument(ex) else {
        return Err(ex.unsupported(
            "Enum.valueOf(Class, String) whose class is not a class literal (`C.class` \
             pushed just before the name)"
                .into(),
        ));
    };
    let h = &ex.cx.prog.hierarchy;
    if enums::enum_class(h, &class).as_deref() != Some(class.as_str())
        || h.classpath().load(&class).is_err()
    {
        return Err(ex.unsupported(format!(
            "Enum.valueOf({}.class, String): not an enum class of the class path",
            class.replace('/', ".")
        )));
    }
    let constants = h.enum_constants(&class).unwrap_or_default().len();
    if let Some(flow) = null_check(ex, 0)? {
        return Ok(flow);
    }
    // an enum without constants has no name to find
    let found = if constants == 0 {
        Some(false)
    } else {
        outcome(ex)
    };
    let Some(found) = found else {
        return Ok(split_outcomes(ex));
    };
    if !found {
        return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT);
    }
    ex.pop()?;
    ex.pop()?;
    let r = ex.st.new_obj(HeapValue::Abstract { ty: class.clone() });
    enums::relate_to_constants_of(&ex.cx.prog.hierarchy, &mut ex.st, r, &class, false);
    ex.push(r)?;
    Ok(Flow::Next)
}

/// The class `C` when the `Class` argument below the top of the stack is the literal
/// `C.class`: javac's `E.valueOf(String)` and `Enum.valueOf(C.class, s)` push it with `ldc`
/// just before a one-slot push of the name (a load, a string constant, `null`), and no jump or
/// handler enters between them, so that `ldc` made it on every path.
fn class_literal_argument(ex: &Exec<'_>) -> Option<String> {
    let class = ex
        .cx
        .prog
        .hierarchy
        .classpath()
        .load(&ex.method.class)
        .ok()?;
    let code = class
        .method(&ex.method.name, Some(&ex.method.desc))
        .ok()?
        .code
        .as_ref()?;
    let i = code.index_of(ex.pc)?;
    let [(_, ldc), (name_pc, push)] = code.insns.get(i.checked_sub(2)?..i)? else {
        return None;
    };
    let pushes_name = matches!(
        push,
        Insn::Load(..) | Insn::Ldc(Constant::String(_)) | Insn::AConstNull
    );
    let entered = |pc: u32| {
        code.insns
            .iter()
            .any(|(_, insn)| insn.branch_targets().contains(&pc))
            || code.handlers.iter().any(|h| h.handler == pc)
    };
    match ldc {
        Insn::Ldc(Constant::Class(c))
            if pushes_name && !entered(*name_pc) && !entered(ex.pc) && !c.starts_with('[') =>
        {
            Some(c.clone())
        }
        _ => None,
    }
}
