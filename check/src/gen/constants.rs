//! Enum objects of a sample: an object of an enum class is one of its constants (the JVM side
//! builds it as the constant of its `ordinal`, read from the class's static field, never a new
//! object: `jtg_jvm`'s `build_input`). So a drawn enum object gets the constant's name (a
//! string as long as the constant's field name: `name()` is "the name of this enum constant,
//! exactly as declared in its enum declaration"), and two drawn objects of one enum class with
//! one ordinal become one object, which the start state must allow (the sample is validated
//! after this, and re-drawn when it is no instance).
//!
//! Not known here: the constant's other fields (what its constructor stored) and its class when
//! constants have class bodies (`Op$1`); the JVM's objects have them, and the run's first step
//! is matched against the start state like every other step.

use jtg_engine::models::enums::{self, NAME, ORDINAL};
use jtg_engine::models::STRING;
use jtg_engine::state::{FieldKey, HeapValue, Interval, Ref, State};
use jtg_engine::Program;
use std::collections::BTreeMap;

/// Makes the enum objects of `st` constants (see the module docs).
pub(super) fn canonical_constants(st: &mut State, prog: &Program) {
    let mut first: BTreeMap<(String, i128), Ref> = BTreeMap::new();
    let objs: Vec<Ref> = st.heap.keys().copied().filter(|r| r.is_obj()).collect();
    for r in objs {
        let Some(HeapValue::Object { class, fields }) = st.value(r).cloned() else {
            continue;
        };
        let Some(e) = enums::enum_class(&prog.hierarchy, &class) else {
            continue;
        };
        let ordinal = fields
            .get(&enums::field_key(fields.keys(), ORDINAL))
            .and_then(|i| st.int(*i))
            .and_then(|v| v.as_literal());
        let Some(k) = ordinal else {
            continue;
        };
        if let Some(&same) = first.get(&(e.clone(), k)) {
            st.rename(r, same);
            continue;
        }
        first.insert((e.clone(), k), r);
        let names = prog.hierarchy.enum_constants(&e).unwrap_or_default();
        let Some(name) = usize::try_from(k).ok().and_then(|k| names.get(k)) else {
            continue;
        };
        let len = st.new_int(Interval::literal(name.chars().count() as i128));
        let s = st.new_obj(HeapValue::Object {
            class: STRING.into(),
            fields: BTreeMap::from([(FieldKey::plain("count"), len)]),
        });
        let key = enums::field_key(fields.keys(), NAME);
        if let Some(HeapValue::Object { fields, .. }) = st.heap.get_mut(&r) {
            fields.insert(key, s);
        }
    }
}
