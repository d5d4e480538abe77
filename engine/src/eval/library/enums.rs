//! `java.lang.Enum`'s methods (`models::enums::EnumCall`, contracts in `models/enums.rs`):
//! `ordinal()` and `name()`/`toString()` read the receiver's fields; `compareTo` is the
//! difference of the ordinals (labelled `res = a - b`, so the prover can read it) after the
//! null check and the check of the declaring classes; `valueOf` is unsupported, named.

use super::super::arith;
use super::super::{exception, Exec, Flow};
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
        EnumCall::ValueOf => {
            // `enumConstantDirectory()` calls the enum's `values()` through reflection: program
            // code the JDK runs (the tracer records its steps), which no library model can take
            return Err(ex.unsupported(
                "Enum.valueOf(Class, String): the JDK calls the enum's values() (program code) \
                 through reflection; not modelled"
                    .into(),
            ));
        }
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
