//! Concrete JVM values and heap objects: what a recorded step holds and what an input is made
//! of. Object ids are the recorder's (assigned at first sight within one run, never 0).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Object identity within one trace (assigned by the recorder at first sight; never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjId(pub u32);

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A concrete JVM value. In locals a long/double occupies one entry followed by `Top` for its
/// second slot; on the operand stack it is a single entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CValue {
    Int(i32),
    Long(i64),
    /// IEEE bits.
    Float(u32),
    /// IEEE bits.
    Double(u64),
    Null,
    Ref(ObjId),
    /// Unusable slot (second half of a long/double, or unset).
    Top,
    /// A reference to an object whose constructor has not run yet (after `new`, `this` before
    /// `super()`). The number identifies the object within one materialised step (or one
    /// top frame): equal numbers are one object, different numbers different objects; the
    /// step's `uninit` map has its class.
    Uninit(u32),
}

/// A heap object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CObject {
    /// `fields`: instance fields incl. inherited, by name (a field shadowed by a subclass field
    /// of the same name is keyed `DeclaringClass.name`).
    Instance {
        class: String,
        fields: BTreeMap<String, CValue>,
    },
    /// `elem`: element type descriptor (`I`, `LList;`, `[I`, ...). The elements are a
    /// persistent vector: a copy shares them, and the copy of a large array after a write
    /// costs the write, not the array ([`Elems`]).
    Array { elem: String, elems: Elems },
    /// A `java.lang.String`, abstracted to its length.
    Str { len: i32 },
}

/// The elements of an array object (`imbl::Vector`: cloning is O(1), an update O(log n)).
pub(crate) type Elems = imbl::Vector<CValue>;

/// A heap: objects by id.
pub type CHeap = BTreeMap<ObjId, CObject>;

/// A static field: the class that declares it (internal name) and its name. A trace keys a
/// field by the class its instructions name until [`crate::Trace::resolve_statics`] maps it to
/// the declaring class.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StaticKey {
    pub class: String,
    pub name: String,
}

impl StaticKey {
    pub fn new(class: impl Into<String>, name: impl Into<String>) -> StaticKey {
        StaticKey {
            class: class.into(),
            name: name.into(),
        }
    }
}

impl fmt::Display for StaticKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.class, self.name)
    }
}

/// The static fields a run knows at a step, by key: each one the run has read (`getstatic`)
/// or written (`putstatic`) before, or that its input set, with its value at the step. A field
/// the run has not accessed yet is not known: its value then comes from the class's
/// initialiser, which the trace does not show.
pub type CStatics = BTreeMap<StaticKey, CValue>;

/// The value of static field `class.name` in `statics`, without building a key.
pub fn static_value<'a>(statics: &'a CStatics, class: &str, name: &str) -> Option<&'a CValue> {
    statics
        .iter()
        .find(|(k, _)| k.class == class && k.name == name)
        .map(|(_, v)| v)
}

/// Serde of [`CStatics`] as a list of `(class, name, value)` (JSON maps need string keys).
pub(crate) mod statics_serde {
    use super::{CStatics, CValue, StaticKey};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(crate) fn serialize<S: Serializer>(m: &CStatics, s: S) -> Result<S::Ok, S::Error> {
        let v: Vec<(&str, &str, &CValue)> = m
            .iter()
            .map(|(k, v)| (k.class.as_str(), k.name.as_str(), v))
            .collect();
        v.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CStatics, D::Error> {
        let v: Vec<(String, String, CValue)> = Vec::deserialize(d)?;
        Ok(v.into_iter()
            .map(|(c, n, v)| (StaticKey::new(c, n), v))
            .collect())
    }
}

/// The runtime class of a recorded object, without its values: what a type test reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClassOf<'a> {
    Instance(&'a str),
    /// An array, by its element descriptor.
    Array(&'a str),
    Str,
}
