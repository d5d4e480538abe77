//! Values of a declared type (a field, parameter, array element or result type): the most
//! general value, the JVM default, the first-access value of a static field, the value range
//! of an integral type, and the type string the state uses for it.

use super::{FieldSet, HeapValue, IntSemantics, Interval, Ref, State, StaticField};
use crate::class::FieldType;

/// A fresh reference with the most general value of a declared type.
pub fn most_general(st: &mut State, t: &FieldType, sem: IntSemantics) -> Result<Ref, String> {
    Ok(match t {
        FieldType::Int
        | FieldType::Short
        | FieldType::Byte
        | FieldType::Char
        | FieldType::Boolean => st.new_int(type_range(t, sem)),
        FieldType::Object(c) => st.new_obj(HeapValue::Unknown { ty: c.clone() }),
        FieldType::Array(_) => st.new_obj(HeapValue::Unknown { ty: t.to_string() }),
        FieldType::Long => st.new_prim(HeapValue::Long(long_range(sem))),
        FieldType::Float => st.new_prim(HeapValue::Float(None)),
        FieldType::Double => st.new_prim(HeapValue::Double(None)),
    })
}

/// The shapes the objects reachable from a value of some type can take (by the types of
/// their fields, [`crate::Program`]'s `field_shapes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shapes {
    /// A cycle: some field type reaches itself.
    pub cycles: bool,
    /// Two paths that meet (`r♦`, `r %$ r`): a class with two reference fields, an array of
    /// references, or a cycle.
    pub sharing: bool,
}

impl Shapes {
    pub const ANY: Shapes = Shapes {
        cycles: true,
        sharing: true,
    };
}

/// The value of a static field at its first access: the most general value of its type (the
/// class is treated as initialized, as AProVE's competition setting does). An object may have
/// any shape its field types allow (`shapes`: an `int[]` is neither cyclic nor a DAG), and may
/// be (or share with) the objects of the other known statics, which class initializers may
/// have linked. It cannot alias anything the program created or read since the entry, as the
/// program never read this field — except the strings and `Integer` boxes the state holds,
/// which may be interned literals or cached boxes (an `ldc`, a library model's result such as
/// the `""` of an empty `substring`): objects that existed before the run, which a static may
/// hold (related by the caller, [`relate_interned`]). `Err` names an unsupported type.
pub fn fill_static(
    st: &mut State,
    key: StaticField,
    desc: &FieldType,
    sem: IntSemantics,
    shapes: Shapes,
) -> Result<Ref, String> {
    let r = most_general(st, desc, sem)?;
    if r.is_obj() {
        if shapes.sharing || shapes.cycles {
            st.preds.add_join(r, r);
            st.preds.add_non_tree(r);
        }
        if shapes.cycles {
            st.preds.add_cyclic(r, FieldSet::new());
        }
        relate_static(st, r);
    }
    st.statics.insert(key, r);
    Ok(r)
}

/// The first-access value `r` of a static may be each object of the state that `shared`
/// says it may hold (by the object's class or static type: an interned string, a cached box),
/// `=?` where not both are realized, and share with it.
pub fn relate_interned(st: &mut State, r: Ref, shared: &dyn Fn(&str) -> bool) {
    let held: Vec<Ref> = (st.heap.iter())
        .filter(|(q, _)| q.is_obj() && **q != r)
        .filter(|(_, v)| match v {
            HeapValue::Object { class, .. }
            | HeapValue::Unknown { ty: class }
            | HeapValue::Abstract { ty: class } => shared(class),
            _ => false,
        })
        .map(|(q, _)| *q)
        .collect();
    let realized = matches!(st.value(r), Some(HeapValue::Object { .. }));
    for q in held {
        if !realized {
            st.preds.add_may_equal(r, q);
        }
        st.preds.add_join(r, q);
    }
}

/// The first-access value `r` of a static field may be (or share with) the objects of the
/// other known statics, which class initializers may have linked.
pub fn relate_static(st: &mut State, r: Ref) {
    let others: Vec<Ref> = st
        .statics
        .values()
        .copied()
        .filter(|o| o.is_obj())
        .collect();
    let realized = |st: &State, x: Ref| matches!(st.value(x), Some(HeapValue::Object { .. }));
    for o in others {
        if !(realized(st, r) && realized(st, o)) {
            st.preds.add_may_equal(r, o);
        }
        st.preds.add_join(r, o);
    }
}

/// The value range of an integral type: the JVM ranges of byte/short/char/boolean; for `int`,
/// the range of the integer semantics.
pub fn type_range(t: &FieldType, sem: IntSemantics) -> Interval {
    let r = |a: i128, b: i128| Interval::new(Some(a), Some(b)).unwrap_or(Interval::TOP);
    match t {
        FieldType::Boolean => r(0, 1),
        FieldType::Byte => r(-128, 127),
        FieldType::Char => r(0, 65535),
        FieldType::Short => r(-32768, 32767),
        _ => Interval::most_general(sem),
    }
}

/// The value range of `long` under `sem`: unbounded, or the 64-bit range.
pub fn long_range(sem: IntSemantics) -> Interval {
    match sem {
        IntSemantics::Unbounded => Interval::TOP,
        IntSemantics::Java => Interval::long_range(),
    }
}

/// The JVM default value of a field or array element of type `t` (`0`, `0L`, `0.0`, `null`).
pub fn default_value(st: &mut State, t: &FieldType) -> Ref {
    match t {
        FieldType::Object(_) | FieldType::Array(_) => Ref::Null,
        FieldType::Long => st.new_prim(HeapValue::Long(Interval::literal(0))),
        // floats are coarse: the default 0.0 is just some float
        FieldType::Float => st.new_prim(HeapValue::Float(None)),
        FieldType::Double => st.new_prim(HeapValue::Double(None)),
        _ => st.new_int(Interval::literal(0)),
    }
}

/// The type string the state uses for a declared type: internal class name or descriptor.
pub fn type_string(t: &FieldType) -> String {
    match t {
        FieldType::Object(c) => c.clone(),
        other => other.to_string(),
    }
}
