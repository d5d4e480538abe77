//! What the collection models share: a collection's fields, the checks of stored and compared
//! elements, an element read back, size steps, stale iterators, the refinement that decides a
//! size.

use super::super::super::{exception, Exec, Flow};
pub(super) use super::super::counts::{decide, int, step, sum};
use super::super::{shared, text};
use crate::class::Cond;
use crate::error::EngineError;
use crate::models::collections::{self as coll, ELEMENT, OF, REMAINING, SIZE};
use crate::models::elements as coll_elements;
use crate::models::exceptions;
use crate::state::{FieldKey, HeapValue, IntOp, Interval, Outcome, Ref};

/// The collection whose structural changes an iterator's collection `of` shows: a map's view
/// shows its map's. `None`: `of` is not realized (it may be a view of any map).
pub(super) fn owner(ex: &Exec<'_>, of: Ref) -> Option<Ref> {
    match ex.st.value(of) {
        Some(HeapValue::Object { class, fields }) if coll::View::of_class(class).is_some() => {
            fields.get(OF).copied()
        }
        Some(HeapValue::Object { .. }) => Some(of),
        _ => None,
    }
}

/// A value stored as an element (`k`-th from the top): `null` (which throws
/// NullPointerException where `null_throws`) or an object of a class of the construction's
/// element types (one more [`coll_elements::storable`] class is
/// [`EngineError::ElementClass`], the builder starts again with it); any other object is
/// unsupported, its `equals`/`hashCode`/`compareTo` could be program code.
pub(super) fn check_stored(
    ex: &mut Exec<'_>,
    k: usize,
    null_throws: bool,
) -> Result<Option<Flow>, EngineError> {
    let v = ex.peek(k)?;
    if v.is_null() {
        if null_throws {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Some);
        }
        return Ok(None);
    }
    admit(ex, type_of(ex, v).map(str::to_string))?;
    if null_throws {
        return ex.need_null_or_existing(v);
    }
    Ok(None)
}

/// Objects of (static) type `ty` may be stored: it is one of the element types, or the
/// construction starts again with it.
pub(super) fn admit(ex: &Exec<'_>, ty: Option<String>) -> Result<(), EngineError> {
    match ty {
        Some(t) if ex.cx.elements.contains(&t) => Ok(()),
        Some(t) if coll_elements::storable(&t) => Err(EngineError::ElementClass(t)),
        t => Err(ex.unsupported(format!(
            "collection element of type {} (modelled elements are java.lang.Integer, java.lang.Character, java.lang.String)",
            display(t.as_deref())
        ))),
    }
}

/// How comparing with the elements of a sorted collection ends (a `TreeMap`'s keys, a
/// `TreeSet`'s or `PriorityQueue`'s elements, a sorted list's, `Collections.max`): the
/// storable classes compare within their class only (`compareTo` of an `Integer`, a `String`
/// or a `Character` with an object of another of them throws ClassCastException).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compare {
    /// Nothing is compared, or only objects of one class.
    Fine,
    /// A comparison across classes happens: ClassCastException.
    Throws,
    /// The construction's collections hold several classes and the model keeps no element:
    /// the comparison may throw or not (the call's `X:` outcome is the throw).
    Either,
}

/// [`Compare`] for a key of class `key` (`None`: the elements among themselves) and a
/// collection of `size` elements, which compares from `min` elements on. Where the
/// collections hold the inputs' class only ([`ELEMENT`]), their elements are of that class.
pub(super) fn compare_with(
    ex: &Exec<'_>,
    key: Option<&str>,
    size: Ref,
    min: i128,
) -> Result<Result<Compare, Flow>, EngineError> {
    let several = ex.cx.elements.several();
    if !several && key.is_none_or(|t| t == ELEMENT) {
        return Ok(Ok(Compare::Fine));
    }
    Ok(match decide(ex, size, Cond::Gt, min - 1)? {
        Err(flow) => Err(flow),
        Ok(false) => Ok(Compare::Fine),
        Ok(true) if several => Ok(Compare::Either),
        Ok(true) => Ok(Compare::Throws),
    })
}

/// A call whose only open outcome is its comparison's: `X:` throws ClassCastException, `T:`
/// goes on (`None`); a split into both where that is not fixed yet.
pub(super) fn settle(ex: &mut Exec<'_>, cmp: Compare) -> Result<Option<Flow>, EngineError> {
    match (cmp, ex.before.split) {
        (Compare::Fine, _) => Ok(None),
        (Compare::Throws, _) | (Compare::Either, Some(Outcome::X)) => {
            exception::throw_builtin(ex, exceptions::CLASS_CAST).map(Some)
        }
        (Compare::Either, Some(_)) => Ok(None),
        (Compare::Either, None) => Ok(Some(text::split_into(ex, &[Outcome::T, Outcome::X]))),
    }
}

/// The outcome of a call with two outcomes of its own (`T:`/`F:`, fixed by a split) and, where
/// its comparison may throw, a third (`X:`): `Ok(b)`, or `Err` with the throw or the split.
pub(super) fn two_outcomes(
    ex: &mut Exec<'_>,
    cmp: Compare,
) -> Result<Result<bool, Flow>, EngineError> {
    let split = ex.before.split;
    Ok(match (cmp, split) {
        (Compare::Throws, _) | (Compare::Either, Some(Outcome::X)) => {
            Err(exception::throw_builtin(ex, exceptions::CLASS_CAST)?)
        }
        (_, Some(o)) => match o.holds() {
            Some(b) => Ok(b),
            None => return Err(ex.invalid("a ClassCastException outcome where none is possible")),
        },
        (Compare::Fine, None) => Err(text::split_outcomes(ex)),
        (Compare::Either, None) => Err(text::split_into(ex, &[Outcome::T, Outcome::F, Outcome::X])),
    })
}

/// An argument compared with the elements (`k`-th from the top, the receiver below it):
/// `null` or an object of a [`coll_elements::storable`] class (JDK `equals`). A sorted
/// collection compares by `compareTo` (JDK 17 `TreeMap.getEntry`: `null` throws
/// NullPointerException; another class than its keys' throws ClassCastException at the first
/// key, when the map is not empty): `Err` with the throw or a refinement, else the comparison.
pub(super) fn query_compare(
    ex: &mut Exec<'_>,
    k: usize,
    tree: bool,
) -> Result<Result<Compare, Flow>, EngineError> {
    let v = ex.peek(k)?;
    if v.is_null() {
        if tree {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Err);
        }
        return Ok(Ok(Compare::Fine));
    }
    let ty = type_of(ex, v);
    if !ty.is_some_and(coll_elements::storable) {
        return Err(ex.unsupported(format!(
            "collection query with an argument of type {} (its equals may be program code)",
            display(ty)
        )));
    }
    if !tree {
        return Ok(Ok(Compare::Fine));
    }
    // `null` throws first (`Objects.requireNonNull`)
    if let Some(flow) = ex.need_null_or_existing(v)? {
        return Ok(Err(flow));
    }
    let map = ex.peek(k + 1)?;
    let size = field(ex, map, SIZE)?;
    compare_key(ex, k, size)
}

/// [`compare_with`] for the object `k`-th from the top of the stack as the key, compared with
/// a collection of `size` elements from one element on.
pub(super) fn compare_key(
    ex: &mut Exec<'_>,
    k: usize,
    size: Ref,
) -> Result<Result<Compare, Flow>, EngineError> {
    let v = ex.peek(k)?;
    let class = type_of(ex, v).map(str::to_string);
    compare_with(ex, class.as_deref(), size, 1)
}

/// [`query_compare`] for a call with no other open outcome ([`settle`]).
pub(super) fn check_query(
    ex: &mut Exec<'_>,
    k: usize,
    tree: bool,
) -> Result<Option<Flow>, EngineError> {
    match query_compare(ex, k, tree)? {
        Err(flow) => Ok(Some(flow)),
        Ok(cmp) => settle(ex, cmp),
    }
}

/// An element read back (a key or a value of a map): an object of the element types the
/// state may hold or a new one (or `null`).
pub(super) fn element(ex: &mut Exec<'_>, may_null: bool) -> Ref {
    let elements = ex.cx.elements;
    let classes: Vec<&str> = elements.classes().collect();
    shared::possibly_shared_of(ex, &classes, may_null)
}

/// The size of `c` becomes `size ± 1`, with its label.
pub(super) fn grow(ex: &mut Exec<'_>, c: Ref, size: Ref, op: IntOp) -> Result<(), EngineError> {
    let r = step(ex, size, op, 0)?;
    set_field(ex, c, SIZE, r)
}

/// After a (`certain`) or possible structural change of `c`: every iterator of `c` other than
/// `except` is stale (`remaining` -1), one that may be of `c` may be.
pub(super) fn invalidate(ex: &mut Exec<'_>, c: Ref, certain: bool, except: Option<Ref>) {
    let mut changes = vec![];
    for (&r, v) in &ex.st.heap {
        let HeapValue::Object { class, fields } = v else {
            continue;
        };
        if Some(r) == except || coll::iterated_type(class).is_none() || !coll::fail_fast(class) {
            continue;
        }
        let (Some(&of), Some(&rem)) = (fields.get(OF), fields.get(REMAINING)) else {
            continue;
        };
        // an iterator of a map's view is invalidated by its map; one whose collection is not
        // realized may be of a view of `c`
        let (same, may) = match owner(ex, of) {
            Some(o) => (o == c, o == c || ex.st.preds.may_equal(o, c)),
            None if coll::View::of_iterator(class).is_some() => (false, true),
            None => (false, ex.st.preds.may_equal(of, c)),
        };
        if !may {
            continue;
        }
        let Some(old) = ex.st.int(rem).copied() else {
            continue;
        };
        let stale = Interval::literal(-1);
        let new = if same && certain {
            stale
        } else {
            old.hull(&stale)
        };
        if new != old {
            changes.push((r, new));
        }
    }
    for (r, v) in changes {
        let n = ex.st.new_int(v);
        if let Some(HeapValue::Object { fields, .. }) = ex.st.heap.get_mut(&r) {
            fields.insert(FieldKey::plain(REMAINING), n);
        }
    }
}

pub(super) fn field(ex: &Exec<'_>, o: Ref, name: &str) -> Result<Ref, EngineError> {
    match ex.st.value(o) {
        Some(HeapValue::Object { fields, .. }) => fields.get(name).copied(),
        _ => None,
    }
    .ok_or_else(|| ex.invalid("collection object without its model's fields"))
}

pub(super) fn set_field(ex: &mut Exec<'_>, o: Ref, name: &str, v: Ref) -> Result<(), EngineError> {
    match ex.st.heap.get_mut(&o) {
        Some(HeapValue::Object { fields, .. }) => {
            fields.insert(FieldKey::plain(name), v);
            Ok(())
        }
        _ => Err(ex.invalid("collection object without its model's fields")),
    }
}

pub(super) fn type_of<'a>(ex: &'a Exec<'_>, r: Ref) -> Option<&'a str> {
    ex.st.value(r).and_then(HeapValue::type_name)
}

pub(super) fn display(ty: Option<&str>) -> String {
    ty.map_or("?".into(), crate::state::display_type)
}

pub(super) fn pop(ex: &mut Exec<'_>, n: usize) -> Result<(), EngineError> {
    for _ in 0..n {
        ex.pop()?;
    }
    Ok(())
}

pub(super) fn push_int(ex: &mut Exec<'_>, v: Interval) -> Result<(), EngineError> {
    let r = ex.st.new_int(v);
    ex.push(r)
}

pub(super) fn bool_range() -> Interval {
    Interval::new(Some(0), Some(1)).unwrap_or(Interval::TOP)
}

/// `Some(true)` when both hold, `Some(false)` when one fails, else undecided.
pub(super) fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// Whether the state holds an array an `Arrays.asList` list may write through to (`set`,
/// `Collections.reverse`): an array of class references, or a reference of a type an array
/// has (`Object`, `Cloneable`, `Serializable`: JLS §4.10.3). Without one, the list's array is
/// reachable through the list alone (its field is private to `Arrays`), so what the write
/// changes is no value the state shows.
pub(super) fn may_hold_backing_array(ex: &Exec<'_>) -> Result<bool, EngineError> {
    let h = &ex.cx.prog.hierarchy;
    // an `Object[]` is below every type an array of class references can be seen as
    let object_array = format!("[L{};", crate::models::OBJECT);
    for v in ex.st.heap.values() {
        let ty = match v {
            HeapValue::Array { ty, .. }
            | HeapValue::Unknown { ty }
            | HeapValue::Abstract { ty } => ty,
            _ => continue,
        };
        if ty.starts_with("[L") || !ty.starts_with('[') && h.is_subtype(&object_array, ty)? {
            return Ok(true);
        }
    }
    Ok(false)
}
