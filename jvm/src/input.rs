//! A concrete input of one run: the argument values and the objects they reach, as the
//! caller describes them (ids are the caller's; the recorder numbers objects anew).

use serde::{Deserialize, Serialize};

use crate::error::JvmError;
use crate::values::{statics_serde, CHeap, CObject, CStatics, CValue};

fn bad(msg: impl Into<String>) -> JvmError {
    JvmError::BadInput(msg.into())
}

/// Arguments and heap of one concrete run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConcreteInput {
    /// Argument values in local-variable order (`this` first for instance methods). A long or
    /// double argument is one entry (no `Top` after it).
    pub args: Vec<CValue>,
    /// Objects the arguments and the static fields (transitively) refer to.
    pub heap: CHeap,
    /// Static fields the run starts with, by the class that declares them (or one that
    /// inherits them) and name: set through reflection before the run, after the classes are
    /// initialised, and known to the trace from its first step. A final static is refused.
    #[serde(
        default,
        skip_serializing_if = "CStatics::is_empty",
        with = "statics_serde"
    )]
    pub statics: CStatics,
}

impl ConcreteInput {
    /// Every reference names an object of the heap, every value is a value (no `Top`, no
    /// object under construction), no string has a negative length.
    pub fn validate(&self) -> Result<(), JvmError> {
        for (i, a) in self.args.iter().enumerate() {
            check_ref(&self.heap, a, &|| format!("argument {i}"))?;
        }
        for (k, v) in &self.statics {
            check_ref(&self.heap, v, &|| format!("static field {k}"))?;
        }
        for (id, o) in &self.heap {
            match o {
                CObject::Instance { fields, .. } => {
                    for (k, v) in fields {
                        check_ref(&self.heap, v, &|| format!("field {k} of {id}"))?;
                    }
                }
                CObject::Array { elems, .. } => {
                    for (k, v) in elems.iter().enumerate() {
                        check_ref(&self.heap, v, &|| format!("element {k} of {id}"))?;
                    }
                }
                CObject::Str { len } if *len < 0 => {
                    return Err(bad(format!("string {id} has negative length")))
                }
                CObject::Str { .. } => {}
            }
        }
        Ok(())
    }
}

fn check_ref(heap: &CHeap, v: &CValue, what: &dyn Fn() -> String) -> Result<(), JvmError> {
    match v {
        CValue::Ref(id) if !heap.contains_key(id) => Err(bad(format!(
            "{} refers to {id}, which is not in the heap",
            what()
        ))),
        CValue::Top | CValue::Uninit(_) => Err(bad(format!("{} is {v:?}, not a value", what()))),
        _ => Ok(()),
    }
}
