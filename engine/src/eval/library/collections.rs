//! `java.util` collections and their iterators (`models::CollCall`, contracts in
//! `models/collections.rs`): a collection's `size` and an iterator's `remaining` are integers
//! of the state, changed with `res = a ± 1` labels where the change is exact, so that the
//! prover can read them; elements are `Integer` boxes the state may hold (or `null`).
//!
//! A structural change of a collection (one that changes its `modCount` in the JDK) makes
//! every iterator of it "stale": its `remaining` becomes `-1`, on which `next()` may return or
//! throw ConcurrentModificationException ("on a best-effort basis"); an iterator that may or
//! may not be of it gets the hull of both.

mod bulk;
mod common;
mod statics;

use super::super::{exception, Exec, Flow};
use super::{shared, text};
use crate::class::Cond;
use crate::error::EngineError;
use crate::models::collections::{self as coll, CollCall, Family, OnEmpty, OF, REMAINING, SIZE};
use crate::models::exceptions;
use crate::state::{FieldKey, HeapValue, IntOp, Interval, Ref};
use common::*;
use std::collections::BTreeMap;

pub(crate) fn eval(
    ex: &mut Exec<'_>,
    call: CollCall,
    n_args: usize,
    has_receiver: bool,
) -> Result<Flow, EngineError> {
    use CollCall::*;
    if !has_receiver {
        return match call {
            ListOf => statics::list_of(ex, n_args),
            CopyOf => statics::copy_of(ex),
            AsList => statics::as_list(ex),
            Sort => statics::sort(ex, n_args, false),
            Reverse => statics::reverse(ex),
            Swap => statics::swap(ex),
            JdkOrder(class) => {
                let r = shared::possibly_shared(ex, class, None);
                ex.push(r)?;
                Ok(Flow::Next)
            }
            Extreme => statics::extreme(ex),
            Frequency => statics::frequency(ex),
            Join { iterable } => statics::join(ex, iterable),
            _ => Err(ex.invalid("collection method without a receiver")),
        };
    }
    let recv = ex.peek(n_args)?;
    if let Some(flow) = ex.need_realized(recv)? {
        return Ok(flow);
    }
    let class = match ex.st.value(recv) {
        Some(HeapValue::Object { class, .. }) => class.clone(),
        _ => return Err(ex.invalid("collection method on a non-object")),
    };
    if matches!(call, HasNext | Next | IterRemove) {
        return iterator_call(ex, call, recv, &class);
    }
    if let Some(view) = coll::View::of_class(&class) {
        return view_call(ex, call, recv, view);
    }
    if call == EntryPart {
        // a key or a value of a `HashMap`: either may be `null`
        pop(ex, 1)?;
        let e = element(ex, true);
        ex.push(e)?;
        return Ok(Flow::Next);
    }
    let family = Family::of(&class).ok_or_else(|| ex.invalid("not a modelled collection"))?;
    let size = field(ex, recv, SIZE)?;
    let size_v = int(ex, size)?;
    match call {
        New => pop(ex, 1)?,
        NewCapacity { throws } => {
            if throws {
                let cap = ex.peek(0)?;
                match decide(ex, cap, Cond::Ge, 0)? {
                    Err(flow) => return Ok(flow),
                    Ok(false) => return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT),
                    Ok(true) => {}
                }
            }
            pop(ex, 2)?;
        }
        NewOrdered { capacity } => {
            statics::natural_like(ex, 0, "PriorityQueue")?;
            if capacity {
                // "if initialCapacity is less than 1"
                let cap = ex.peek(1)?;
                match decide(ex, cap, Cond::Ge, 1)? {
                    Err(flow) => return Ok(flow),
                    Ok(false) => return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT),
                    Ok(true) => {}
                }
            }
            pop(ex, 2 + usize::from(capacity))?;
        }
        NewCopy => return new_copy(ex, recv, family),
        Size => {
            pop(ex, 1)?;
            ex.push(size)?;
        }
        IsEmpty => {
            let empty = match decide(ex, size, Cond::Eq, 0)? {
                Err(flow) => return Ok(flow),
                Ok(e) => e,
            };
            pop(ex, 1)?;
            push_int(ex, Interval::literal(i128::from(empty)))?;
        }
        Add { returns_true } => {
            if let Some(flow) = check_stored(ex, 0, family.null_throws())? {
                return Ok(flow);
            }
            if family.compares_elements() {
                // `siftUp` compares the new element with its parent in a non-empty queue
                let cmp = match compare_key(ex, 0, size)? {
                    Ok(cmp) => cmp,
                    Err(flow) => return Ok(flow),
                };
                if let Some(flow) = settle(ex, cmp)? {
                    return Ok(flow);
                }
            }
            pop(ex, 2)?;
            grow(ex, recv, size, IntOp::Add)?;
            invalidate(ex, recv, true, None);
            if returns_true {
                push_int(ex, Interval::literal(1))?;
            }
        }
        Push => {
            if let Some(flow) = check_stored(ex, 0, false)? {
                return Ok(flow);
            }
            let item = ex.peek(0)?;
            pop(ex, 2)?;
            grow(ex, recv, size, IntOp::Add)?;
            invalidate(ex, recv, true, None);
            ex.push(item)?;
        }
        AddAt | Get | Set | RemoveAt => {
            return indexed(ex, call, recv, family, &class, size, size_v);
        }
        Head {
            end: _,
            remove,
            on_empty,
        } => {
            let nonempty = match decide(ex, size, Cond::Gt, 0)? {
                Err(flow) => return Ok(flow),
                Ok(b) => b,
            };
            if !nonempty {
                if on_empty == OnEmpty::Throw {
                    return exception::throw_builtin(ex, family.empty_exception());
                }
                pop(ex, 1)?;
                ex.push(Ref::Null)?;
                return Ok(Flow::Next);
            }
            pop(ex, 1)?;
            if remove {
                grow(ex, recv, size, IntOp::Sub)?;
                invalidate(ex, recv, true, None);
            }
            let e = element(ex, family.may_hold_null());
            ex.push(e)?;
        }
        Query { index } => {
            let tree = family.sorted();
            if let Some(flow) = check_query(ex, 0, tree)? {
                return Ok(flow);
            }
            pop(ex, 2)?;
            let empty = size_v.decide(Cond::Eq, &Interval::literal(0)) == Some(true);
            let v = match (index, empty) {
                (false, true) => Interval::literal(0),
                (false, false) => bool_range(),
                (true, true) => Interval::literal(-1),
                (true, false) => Interval {
                    lo: Some(-1),
                    hi: size_v.hi.map(|h| h - 1),
                },
            };
            push_int(ex, v)?;
        }
        Merge => return merge(ex, recv, family, size, size_v),
        RemoveObject | SetAdd | Put | MapRemove => {
            return maybe_resize(ex, call, recv, family, size, size_v);
        }
        MapGet { default } => {
            let tree = family == Family::TreeMap;
            if let Some(flow) = check_query(ex, usize::from(default), tree)? {
                return Ok(flow);
            }
            let d = if default {
                let d = ex.peek(0)?;
                if !d.is_null() {
                    // returned as a value: one of the element types
                    admit(ex, type_of(ex, d).map(str::to_string))?;
                }
                Some(d)
            } else {
                None
            };
            pop(ex, n_args + 1)?;
            let empty = size_v.decide(Cond::Eq, &Interval::literal(0)) == Some(true);
            let r = match (empty, d) {
                (true, Some(d)) => d,
                (true, None) => Ref::Null,
                // a value or `null` (values may be null), or the default (which the
                // candidates include: an object of an element type the state holds)
                (false, _) => element(ex, true),
            };
            ex.push(r)?;
        }
        FirstKey => {
            let nonempty = match decide(ex, size, Cond::Gt, 0)? {
                Err(flow) => return Ok(flow),
                Ok(b) => b,
            };
            if !nonempty {
                return exception::throw_builtin(ex, coll::NO_SUCH_ELEMENT);
            }
            pop(ex, 1)?;
            let e = element(ex, false);
            ex.push(e)?;
        }
        Nearest => {
            let nonempty = match decide(ex, size, Cond::Gt, 0)? {
                Err(flow) => return Ok(flow),
                Ok(b) => b,
            };
            // an empty map compares nothing: `null` for any argument
            if nonempty {
                if let Some(flow) = check_query(ex, 0, true)? {
                    return Ok(flow);
                }
            }
            pop(ex, 2)?;
            let e = if nonempty {
                element(ex, true)
            } else {
                Ref::Null
            };
            ex.push(e)?;
        }
        Clear => {
            pop(ex, 1)?;
            let zero = ex.st.new_int(Interval::literal(0));
            set_field(ex, recv, SIZE, zero)?;
            invalidate(ex, recv, true, None);
        }
        Iterator | ListIterator => {
            let itr = match call {
                ListIterator => family.list_iterator_class(),
                _ => Family::iterator_class_of(&class),
            };
            let Some(itr) = itr else {
                return Err(ex.invalid("iterator() of a family without iterators"));
            };
            pop(ex, 1)?;
            let it = ex.st.new_obj(HeapValue::Object {
                class: itr.into(),
                fields: BTreeMap::from([
                    (FieldKey::plain(OF), recv),
                    (FieldKey::plain(REMAINING), size),
                ]),
            });
            ex.push(it)?;
        }
        Immutable => {
            return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION);
        }
        FixedSizeRemoval { clear } => {
            if !clear {
                if let Some(flow) = check_query(ex, 0, false)? {
                    return Ok(flow);
                }
            }
            let empty = match decide(ex, size, Cond::Eq, 0)? {
                Err(flow) => return Ok(flow),
                Ok(e) => e,
            };
            // a non-empty list: `clear()` throws; `remove(o)` throws where it finds `o`
            let throws = match (empty, clear) {
                (true, _) => false,
                (false, true) => true,
                (false, false) => match text::outcome(ex) {
                    Some(returns) => !returns,
                    None => return Ok(text::split_outcomes(ex)),
                },
            };
            if throws {
                return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION);
            }
            pop(ex, n_args + 1)?;
            if !clear {
                push_int(ex, Interval::literal(0))?;
            }
        }
        View(view) => {
            let v = match shared::map_view(ex, view.class(), recv) {
                Ok(v) => v,
                Err(flow) => return Ok(flow),
            };
            pop(ex, 1)?;
            ex.push(v)?;
        }
        Sort => return statics::sort(ex, n_args, true),
        AddAll => return bulk::add_all(ex, recv, family, size),
        ToArray { typed } => return bulk::to_array(ex, typed, size),
        HasNext
        | Next
        | IterRemove
        | ListOf
        | CopyOf
        | AsList
        | Reverse
        | Swap
        | JdkOrder(_)
        | Extreme
        | Frequency
        | Join { .. }
        | EntryPart => return Err(ex.invalid("collection call in the wrong place")),
    }
    Ok(Flow::Next)
}

/// `size()`, `isEmpty()`, `iterator()` of a map's view: the map's size; the iterator's
/// collection is the view.
fn view_call(
    ex: &mut Exec<'_>,
    call: CollCall,
    view_ref: Ref,
    view: coll::View,
) -> Result<Flow, EngineError> {
    let map = field(ex, view_ref, OF)?;
    if map.is_null() {
        // no view without a map (a realized input may claim one): the JDK's `this$0.size`
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(map)? {
        return Ok(flow);
    }
    let size = field(ex, map, SIZE)?;
    match call {
        CollCall::Size => {
            pop(ex, 1)?;
            ex.push(size)?;
        }
        CollCall::IsEmpty => {
            let empty = match decide(ex, size, Cond::Eq, 0)? {
                Err(flow) => return Ok(flow),
                Ok(e) => e,
            };
            pop(ex, 1)?;
            push_int(ex, Interval::literal(i128::from(empty)))?;
        }
        CollCall::Iterator => {
            pop(ex, 1)?;
            let it = ex.st.new_obj(HeapValue::Object {
                class: view.iterator_class().into(),
                fields: BTreeMap::from([
                    (FieldKey::plain(OF), view_ref),
                    (FieldKey::plain(REMAINING), size),
                ]),
            });
            ex.push(it)?;
        }
        _ => return Err(ex.invalid("not a map view method")),
    }
    Ok(Flow::Next)
}

/// `get`, `set`, `add(int, E)`, `remove(int)`: the index against the size, decided by the
/// intervals where they can, else split into the returning and the throwing outcome.
fn indexed(
    ex: &mut Exec<'_>,
    call: CollCall,
    recv: Ref,
    family: Family,
    class: &str,
    size: Ref,
    size_v: Interval,
) -> Result<Flow, EngineError> {
    let (n_args, stored) = match call {
        CollCall::Get | CollCall::RemoveAt => (1, false),
        _ => (2, true),
    };
    if call == CollCall::Set && family == Family::ArraysList && may_hold_backing_array(ex)? {
        return Err(ex.unsupported(
            "set of an Arrays.asList list where the state holds an array it may write through to"
                .into(),
        ));
    }
    if stored {
        if let Some(flow) = check_stored(ex, 0, family.null_throws())? {
            return Ok(flow);
        }
    }
    let i = ex.peek(n_args - 1)?;
    let iv = int(ex, i)?;
    // add(int, E) admits index == size
    let upper = if call == CollCall::AddAt {
        iv.decide(Cond::Le, &size_v)
    } else {
        iv.decide(Cond::Lt, &size_v)
    };
    let in_bounds = both(iv.decide(Cond::Ge, &Interval::literal(0)), upper);
    let Some(ok) = in_bounds.or_else(|| text::outcome(ex)) else {
        return Ok(text::split_outcomes(ex));
    };
    if !ok {
        return exception::throw_builtin(ex, family.index_exception(class));
    }
    pop(ex, n_args + 1)?;
    match call {
        CollCall::AddAt => {
            grow(ex, recv, size, IntOp::Add)?;
            invalidate(ex, recv, true, None);
        }
        CollCall::RemoveAt => {
            grow(ex, recv, size, IntOp::Sub)?;
            invalidate(ex, recv, true, None);
        }
        _ => {}
    }
    if call != CollCall::AddAt {
        let e = element(ex, family.may_hold_null());
        ex.push(e)?;
    }
    Ok(Flow::Next)
}

/// `remove(Object)`, `HashSet.add`, `put`, `Map.remove`: the size changes by one or not at all
/// (the model does not know the elements), and the result says which.
fn maybe_resize(
    ex: &mut Exec<'_>,
    call: CollCall,
    recv: Ref,
    family: Family,
    size: Ref,
    size_v: Interval,
) -> Result<Flow, EngineError> {
    let tree = family.sorted();
    let stored = match call {
        CollCall::SetAdd => check_stored(ex, 0, family.null_throws())?,
        // a TreeMap's values may be null
        CollCall::Put => match check_stored(ex, 1, family.null_throws())? {
            None => check_stored(ex, 0, false)?,
            flow => flow,
        },
        _ => None,
    };
    if let Some(flow) = stored {
        return Ok(flow);
    }
    // the key compared with the keys of a sorted collection
    let cmp = match call {
        CollCall::Put | CollCall::SetAdd if tree => {
            compare_key(ex, usize::from(call == CollCall::Put), size)?
        }
        CollCall::Put | CollCall::SetAdd => Ok(Compare::Fine),
        _ => query_compare(ex, 0, tree)?,
    };
    let cmp = match cmp {
        Ok(cmp) => cmp,
        Err(flow) => return Ok(flow),
    };
    let empty = size_v.decide(Cond::Eq, &Interval::literal(0)) == Some(true);
    let adds = matches!(call, CollCall::SetAdd | CollCall::Put);
    // whether the size changes (an element removed, a new one added): always for an add to
    // an empty collection, never for a removal from one, else a split into the two outcomes
    // (`T:` changes), so the result and the size agree: `while (c.remove(x)) n++;` ends; a
    // third (`X:`) where the comparison may throw
    let changes = match (empty, adds) {
        (true, _) => adds,
        (false, _) => match two_outcomes(ex, cmp)? {
            Ok(c) => c,
            Err(flow) => return Ok(flow),
        },
    };
    let n_args = if call == CollCall::Put { 2 } else { 1 };
    pop(ex, n_args + 1)?;
    if changes {
        let op = if adds { IntOp::Add } else { IntOp::Sub };
        grow(ex, recv, size, op)?;
        invalidate(ex, recv, true, None);
    }
    match call {
        // "true if this collection changed", "true if this set did not already contain the
        // specified element"
        CollCall::RemoveObject | CollCall::SetAdd => {
            push_int(ex, Interval::literal(i128::from(changes)))?
        }
        // `put` of a new key and `Map.remove` of an absent one return `null`; else the value
        // (which may be `null`)
        CollCall::Put if changes => ex.push(Ref::Null)?,
        CollCall::MapRemove if !changes => ex.push(Ref::Null)?,
        _ => {
            let e = element(ex, true);
            ex.push(e)?;
        }
    }
    Ok(Flow::Next)
}

/// `Map.merge(key, value, f)` (`CollCall::Merge`) with `f` a reference to a JDK method that
/// `coll::combiner_result` names: a new key grows the map by one and returns `value`, an
/// existing one keeps its size and returns `f`'s result (a split decides which, as for `put`).
fn merge(
    ex: &mut Exec<'_>,
    recv: Ref,
    family: Family,
    size: Ref,
    size_v: Interval,
) -> Result<Flow, EngineError> {
    let f = ex.peek(0)?;
    if f.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_null_or_existing(f)? {
        return Ok(flow);
    }
    if let Some(flow) = ex.need_realized(f)? {
        return Ok(flow);
    }
    let f_class = type_of(ex, f).unwrap_or_default().to_string();
    let target = super::super::lambda::plain_reference(ex, &f_class)?;
    let result = target
        .as_ref()
        .and_then(|m| coll::combiner_result(&m.class, &m.name, &m.desc_str));
    let Some(result) = result else {
        let what = target.map_or(
            format!("an object of class {}", display(Some(&f_class))),
            |m| format!("{}.{}", m.class.replace('/', "."), m.name),
        );
        return Err(ex.unsupported(format!(
            "Map.merge with the remapping function {what} (it may run program code or return null)"
        )));
    };
    // the value (never null) and the key are stored; so may be the function's result
    if let Some(flow) = check_stored(ex, 1, true)? {
        return Ok(flow);
    }
    if let Some(flow) = check_stored(ex, 2, family.null_throws())? {
        return Ok(flow);
    }
    admit(ex, Some(result.to_string()))?;
    let cmp = if family.sorted() {
        match compare_key(ex, 2, size)? {
            Ok(cmp) => cmp,
            Err(flow) => return Ok(flow),
        }
    } else {
        Compare::Fine
    };
    let empty = size_v.decide(Cond::Eq, &Interval::literal(0)) == Some(true);
    // `T:` a new key (`X:` the key's comparison throws)
    let new_key = empty
        || match two_outcomes(ex, cmp)? {
            Ok(n) => n,
            Err(flow) => return Ok(flow),
        };
    let value = ex.peek(1)?;
    pop(ex, 4)?;
    if new_key {
        grow(ex, recv, size, IntOp::Add)?;
        invalidate(ex, recv, true, None);
        ex.push(value)?;
    } else {
        let r = if result == crate::models::STRING {
            shared::string(ex, Interval::at_least(0))
        } else {
            shared::possibly_shared(ex, result, None)
        };
        ex.push(r)?;
    }
    Ok(Flow::Next)
}

/// `ArrayList(Collection)` and the like: the argument's size (a set: at most that).
fn new_copy(ex: &mut Exec<'_>, recv: Ref, family: Family) -> Result<Flow, EngineError> {
    let c = ex.peek(0)?;
    if c.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(c)? {
        return Ok(flow);
    }
    let source = type_of(ex, c).and_then(Family::of);
    let is_map = |f: Family| matches!(f, Family::HashMap | Family::TreeMap);
    if family == Family::HashMap {
        // a map's copy: its keys and values, all of them
        if !source.is_some_and(is_map) {
            return Err(ex.unsupported(format!(
                "copy of a map of class {}",
                display(type_of(ex, c))
            )));
        }
    } else if source.is_none_or(is_map) {
        return Err(ex.unsupported(format!(
            "copy of a collection of class {} (its toArray() is not modelled)",
            display(type_of(ex, c))
        )));
    }
    let size = field(ex, c, SIZE)?;
    if family == Family::TreeSet {
        // `TreeSet(Collection)` puts each element (`AbstractCollection.addAll`): the first is
        // compared with itself, so `null` throws NullPointerException; two of different
        // classes throw ClassCastException
        let nonempty = match decide(ex, size, Cond::Gt, 0)? {
            Err(flow) => return Ok(flow),
            Ok(b) => b,
        };
        if nonempty {
            let cmp = match compare_with(ex, None, size, 2)? {
                Ok(cmp) => cmp,
                Err(flow) => return Ok(flow),
            };
            match two_outcomes(ex, cmp)? {
                Err(flow) => return Ok(flow),
                Ok(false) => return exception::throw_builtin(ex, exceptions::NULL_POINTER),
                Ok(true) => {}
            }
        }
    }
    pop(ex, 2)?;
    let size = if matches!(family, Family::HashSet | Family::TreeSet) {
        let v = int(ex, size)?;
        ex.st.new_int(Interval {
            lo: Some(0),
            hi: v.hi,
        })
    } else {
        size
    };
    set_field(ex, recv, SIZE, size)?;
    Ok(Flow::Next)
}

/// `hasNext`, `next`, `remove` of an iterator.
fn iterator_call(
    ex: &mut Exec<'_>,
    call: CollCall,
    it: Ref,
    class: &str,
) -> Result<Flow, EngineError> {
    let of_type = coll::iterated_type(class).ok_or_else(|| ex.invalid("not an iterator"))?;
    let fixed = matches!(class, coll::IMMUTABLE_LIST_ITR | coll::ARRAYS_ITR);
    if call == CollCall::IterRemove && fixed {
        return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION);
    }
    if call == CollCall::IterRemove && class == coll::ABSTRACT_LIST_ITR {
        // `AbstractList$Itr.remove()`: IllegalStateException before a `next()` (the model
        // does not keep whether one came), else the fixed-size list's UnsupportedOperation
        let Some(after_next) = text::outcome(ex) else {
            return Ok(text::split_outcomes(ex));
        };
        let thrown = if after_next {
            coll::UNSUPPORTED_OPERATION
        } else {
            coll::ILLEGAL_STATE
        };
        return exception::throw_builtin(ex, thrown);
    }
    let rem = field(ex, it, REMAINING)?;
    // stale (-1) or not, then empty or not
    let stale = match decide(ex, rem, Cond::Lt, 0)? {
        Err(flow) => return Ok(flow),
        Ok(s) => s,
    };
    let may_null = of_type != coll::LIST;
    match call {
        CollCall::HasNext => {
            let v = if stale {
                bool_range()
            } else {
                match decide(ex, rem, Cond::Gt, 0)? {
                    Err(flow) => return Ok(flow),
                    Ok(b) => Interval::literal(i128::from(b)),
                }
            };
            pop(ex, 1)?;
            push_int(ex, v)?;
        }
        CollCall::Next => {
            if stale && coll::View::of_iterator(class).is_some_and(|v| v.tree()) {
                // `TreeMap`'s iterators check for the end before the modification count
                return Err(ex.unsupported(
                    "next() of a TreeMap view's iterator after a concurrent modification of its map (NoSuchElementException at the end, else ConcurrentModificationException)".into(),
                ));
            }
            if stale {
                let Some(ok) = text::outcome(ex) else {
                    return Ok(text::split_outcomes(ex));
                };
                if !ok {
                    return exception::throw_builtin(ex, coll::CONCURRENT_MODIFICATION);
                }
            } else {
                let more = match decide(ex, rem, Cond::Gt, 0)? {
                    Err(flow) => return Ok(flow),
                    Ok(b) => b,
                };
                if !more {
                    return exception::throw_builtin(ex, coll::NO_SUCH_ELEMENT);
                }
                if !coll::fail_fast(class) {
                    // an `ArrayDeque`'s: an empty slot after a modification throws
                    let Some(ok) = text::outcome(ex) else {
                        return Ok(text::split_outcomes(ex));
                    };
                    if !ok {
                        return exception::throw_builtin(ex, coll::CONCURRENT_MODIFICATION);
                    }
                }
                let r = step(ex, rem, IntOp::Sub, 0)?;
                set_field(ex, it, REMAINING, r)?;
            }
            pop(ex, 1)?;
            let entries = coll::View::of_class(of_type).filter(|v| v.part == coll::Part::Entries);
            let e = if let Some(v) = entries {
                // entries are never null; iterating again returns the same ones
                shared::possibly_shared(ex, v.map.entry_class(), None)
            } else {
                element(ex, may_null)
            };
            ex.push(e)?;
        }
        CollCall::IterRemove => {
            if stale {
                return Err(ex.unsupported(
                    "Iterator.remove() after a concurrent modification of its collection".into(),
                ));
            }
            let of = field(ex, it, OF)?;
            if let Some(flow) = ex.need_realized(of)? {
                return Ok(flow);
            }
            // removing through a view's iterator removes from its map
            let of = match owner(ex, of) {
                Some(o) if o != of => {
                    if let Some(flow) = ex.need_realized(o)? {
                        return Ok(flow);
                    }
                    o
                }
                _ => of,
            };
            let Some(ok) = text::outcome(ex) else {
                return Ok(text::split_outcomes(ex));
            };
            if !ok {
                // no `next()` since the last `remove()`: the model does not keep it
                return exception::throw_builtin(ex, coll::ILLEGAL_STATE);
            }
            pop(ex, 1)?;
            let size = field(ex, of, SIZE)?;
            grow(ex, of, size, IntOp::Sub)?;
            invalidate(ex, of, true, Some(it));
        }
        _ => return Err(ex.invalid("not an iterator method")),
    }
    Ok(Flow::Next)
}
