//! Values that may already exist: a string literal (the JVM interns literals, JLS §3.10.5), a
//! string a library method returns (its receiver, its argument, an interned literal), a box
//! `Integer.valueOf` returns (cached). The model cannot tell whether such a value is one the
//! state already holds, so the new reference may equal every object of a compatible type
//! (`=?`) and may lie in the hidden part of every object that can hide one (`%$`).

use super::super::{Exec, Flow};
use crate::edge::EdgeKind;
use crate::models::{self, collections::OF};
use crate::refine;
use crate::state::{FieldKey, HeapValue, Interval, Ref, State, Subtyping};
use std::collections::BTreeMap;

/// A new reference to an object of the final class `class` (`String` with a length in
/// `count`, or `Integer`), possibly one the state already holds. It is realized when no
/// realized object may be it (invariant: `=?` joins no two realized objects), else an
/// existing object with unknown fields.
pub(crate) fn possibly_shared(ex: &mut Exec<'_>, class: &str, count: Option<Interval>) -> Ref {
    possibly_shared_with(ex, class, count.map(|c| ("count", c)))
}

/// [`possibly_shared`] for an object whose one modelled int field `field` is in an interval
/// (a string's `count`, `List.of()`'s `size` 0), or that has none.
pub(crate) fn possibly_shared_with(
    ex: &mut Exec<'_>,
    class: &str,
    field: Option<(&str, Interval)>,
) -> Ref {
    let count = field.filter(|f| f.0 == "count").map(|f| f.1);
    let (equal, hide, realized_partner) = candidates(ex, class, count);
    let value = match field {
        Some((name, v)) if !realized_partner => {
            let v = ex.st.new_int(v);
            HeapValue::Object {
                class: class.into(),
                fields: BTreeMap::from([(FieldKey::plain(name), v)]),
            }
        }
        None if !realized_partner => HeapValue::Object {
            class: class.into(),
            fields: BTreeMap::new(),
        },
        _ => HeapValue::Abstract { ty: class.into() },
    };
    new_shared(ex, value, equal, hide)
}

/// A new reference to an object of the final class `class` with the realized `fields`,
/// possibly one the state holds: a realized object of the class may be it where `fits` says
/// so of its fields (the one empty `Optional`: one whose value may be `null`); realized as
/// [`possibly_shared`] is.
pub(crate) fn possibly_shared_as(
    ex: &mut Exec<'_>,
    class: &str,
    fields: BTreeMap<FieldKey, Ref>,
    fits: &dyn Fn(&State, &BTreeMap<FieldKey, Ref>) -> bool,
) -> Ref {
    let (equal, hide, realized_partner) = candidates_where(ex, class, fits);
    let value = if realized_partner {
        HeapValue::Abstract { ty: class.into() }
    } else {
        HeapValue::Object {
            class: class.into(),
            fields,
        }
    };
    new_shared(ex, value, equal, hide)
}

/// The new object `value`, `=?` each of `equal` and `%$` each of `hide`.
fn new_shared(ex: &mut Exec<'_>, value: HeapValue, equal: Vec<Ref>, hide: Vec<Ref>) -> Ref {
    let r = ex.st.new_obj(value);
    for q in equal {
        ex.st.preds.add_may_equal(r, q);
    }
    for q in hide {
        ex.st.preds.add_join(r, q);
    }
    r
}

/// A new `String[]` of unknown length and elements (`String.split`): each element may be a
/// string the state holds, so the array may share with each of them and with every object
/// that may hide one.
pub(crate) fn string_array(ex: &mut Exec<'_>) -> Ref {
    let len = ex.st.new_int(Interval::at_least(0));
    // the JDK allocates it as `String[]` itself
    array_of(
        ex,
        models::STRING_ARRAY,
        len,
        true,
        &[models::STRING],
        false,
    )
}

/// A new array of type `ty` and length `len` whose unknown elements are `null` or objects of
/// the final `classes` the state may hold: it may share with each of those and with every
/// object that may hide one; `repeats`: two elements may be one object (♦), as a
/// collection's elements copied out by `toArray` may.
pub(crate) fn array_of(
    ex: &mut Exec<'_>,
    ty: &str,
    len: Ref,
    exact: bool,
    classes: &[&str],
    repeats: bool,
) -> Ref {
    let mut near = std::collections::BTreeSet::new();
    for c in classes {
        let (equal, hide, _) = candidates(ex, c, None);
        near.extend(equal.into_iter().chain(hide));
    }
    let r = ex.st.new_obj(HeapValue::array(ty.into(), len, None, exact));
    for q in near {
        ex.st.preds.add_join(r, q);
    }
    if repeats {
        ex.st.preds.add_non_tree(r);
    }
    r
}

/// The objects a value of `class` (of length in `count`) may be (`=?`), those that may hide
/// one (`%$`), and whether one of the former is realized.
fn candidates(ex: &Exec<'_>, class: &str, count: Option<Interval>) -> (Vec<Ref>, Vec<Ref>, bool) {
    candidates_where(ex, class, &|st, fields| match (
        count,
        fields.get("count").and_then(|l| st.int(*l)),
    ) {
        (Some(want), Some(have)) => want.intersect(have).is_some(),
        _ => true,
    })
}

/// [`candidates`] where a realized object of `class` may be the value if `fits` says so of
/// its fields.
fn candidates_where(
    ex: &Exec<'_>,
    class: &str,
    fits: &dyn Fn(&State, &BTreeMap<FieldKey, Ref>) -> bool,
) -> (Vec<Ref>, Vec<Ref>, bool) {
    let prog = ex.cx.prog;
    let mut equal = vec![];
    let mut hide = vec![];
    let mut realized_partner = false;
    for (&q, v) in &ex.st.heap {
        if !q.is_obj() {
            continue;
        }
        match v {
            HeapValue::Object { class: c, fields } if c == class && fits(&ex.st, fields) => {
                equal.push(q);
                realized_partner = true;
            }
            HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => {
                if prog.is_subtype(class, ty) {
                    equal.push(q);
                }
                if ty != class {
                    // a field somewhere below may hold it
                    hide.push(q);
                }
            }
            HeapValue::Array {
                ty, elems: None, ..
            } if ty.len() > 2 => hide.push(q),
            _ => {}
        }
    }
    (equal, hide, realized_partner)
}

/// Whether an object the state holds may be a string of a length in `len` (`=?` or `%$`
/// candidates of [`possibly_shared`]): where none may, a string the JDK returns interned (the
/// literal `""` of an empty `substring`) is no object the state holds either.
pub(crate) fn may_be_held_string(ex: &Exec<'_>, len: Interval) -> bool {
    let (equal, hide, _) = candidates(ex, models::STRING, Some(len));
    !(equal.is_empty() && hide.is_empty())
}

/// A new string object whose length is the integer `count`, shared with nothing.
pub(crate) fn fresh_string(ex: &mut Exec<'_>, count: Ref) -> Ref {
    ex.st.new_obj(HeapValue::Object {
        class: models::STRING.into(),
        fields: BTreeMap::from([(FieldKey::plain("count"), count)]),
    })
}

/// A new string, possibly one the state holds, of a length in `len`.
pub(crate) fn string(ex: &mut Exec<'_>, len: Interval) -> Ref {
    possibly_shared(ex, models::STRING, Some(len))
}

/// A new reference that is `null` or an object of the final class `class` (an element a
/// collection returns, a map's value or absent `null`), possibly one the state holds: `=?`
/// every object of a compatible type, `%$` every object that can hide one.
pub(crate) fn possibly_shared_or_null(ex: &mut Exec<'_>, class: &str) -> Ref {
    let (equal, hide, _) = candidates(ex, class, None);
    let r = ex.st.new_obj(HeapValue::Unknown { ty: class.into() });
    for q in equal {
        ex.st.preds.add_may_equal(r, q);
    }
    for q in hide {
        ex.st.preds.add_join(r, q);
    }
    r
}

/// A new reference to an object of one of the final classes `classes` (`null` too where
/// `may_null`), possibly one the state holds: one class is [`possibly_shared_or_null`] or
/// [`possibly_shared`]; several an object of static type `Object` (not realized: its class
/// is unknown) that may be every object of each class (`=?`) and lie in the hidden part of
/// every object that can hide one (`%$`).
pub(crate) fn possibly_shared_of(ex: &mut Exec<'_>, classes: &[&str], may_null: bool) -> Ref {
    match classes {
        [one] if may_null => return possibly_shared_or_null(ex, one),
        [one] => return possibly_shared(ex, one, None),
        _ => {}
    }
    let mut equal = std::collections::BTreeSet::new();
    let mut hide = std::collections::BTreeSet::new();
    for c in classes {
        let (e, h, _) = candidates(ex, c, None);
        equal.extend(e);
        hide.extend(h);
    }
    let ty = models::OBJECT.to_string();
    let value = match may_null {
        true => HeapValue::Unknown { ty },
        false => HeapValue::Abstract { ty },
    };
    let r = ex.st.new_obj(value);
    for q in equal {
        ex.st.preds.add_may_equal(r, q);
    }
    for q in hide {
        ex.st.preds.add_join(r, q);
    }
    r
}

/// The view of class `class` of the realized map `map` (`keySet()` and the like, cached in the
/// map: one object per map and kind): the one the state holds, else a new one that may be
/// any view the state does not show (`=?`, `%$` as [`possibly_shared`]). A view of a map that
/// may be `map` is decided by an equality refinement first.
pub(crate) fn map_view(ex: &mut Exec<'_>, class: &str, map: Ref) -> Result<Ref, Flow> {
    let (equal, hide, _) = candidates(ex, class, None);
    let mut unseen = vec![];
    for q in equal {
        let Some(HeapValue::Object { fields, .. }) = ex.st.value(q) else {
            unseen.push(q);
            continue;
        };
        match fields.get(OF).copied() {
            Some(of) if of == map => return Ok(q),
            Some(of) if ex.st.preds.may_equal(of, map) => {
                let succs = refine::equality::refine(&ex.before, of, map, ex.cx.prog);
                return Err(Flow::Refine(EdgeKind::Refine, succs));
            }
            // a view of another map
            _ => {}
        }
    }
    let r = ex.st.new_obj(HeapValue::Object {
        class: class.into(),
        fields: BTreeMap::from([(FieldKey::plain(OF), map)]),
    });
    for q in unseen {
        ex.st.preds.add_may_equal(r, q);
    }
    for q in hide {
        ex.st.preds.add_join(r, q);
    }
    Ok(r)
}
