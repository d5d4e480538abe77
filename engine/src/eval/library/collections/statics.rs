//! The static methods of `java.util.Collections` (`sort`, `reverse`, `max`/`min`,
//! `frequency`), `List.of`, `Arrays.asList` and `String.join`.

use super::super::super::{exception, Exec, Flow};
use super::super::{shared, text};
use super::common::*;
use crate::class::Cond;
use crate::error::EngineError;
use crate::models::collections::{self as coll, Family, SIZE};
use crate::models::elements as coll_elements;
use crate::models::exceptions;
use crate::models::orders;
use crate::state::{FieldKey, HeapValue, Interval, Ref};
use std::collections::BTreeMap;

/// `Collections.sort(list)`, `Collections.sort(list, c)` (`receiver: false`) and
/// `list.sort(c)`, with `c` `null` or a JDK order ([`natural_like`]).
pub(super) fn sort(ex: &mut Exec<'_>, n_args: usize, receiver: bool) -> Result<Flow, EngineError> {
    let with_order = receiver || n_args == 2;
    if with_order {
        natural_like(ex, 0, "List.sort")?;
    }
    let list = ex.peek(usize::from(with_order))?;
    if list.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(list)? {
        return Ok(flow);
    }
    let family = type_of(ex, list).and_then(Family::of);
    match family {
        Some(Family::Immutable) => {
            return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION)
        }
        Some(Family::ArrayList | Family::LinkedList) => {}
        // `Arrays.sort` of its array, which no other reference of the state may see
        Some(Family::ArraysList) if !may_hold_backing_array(ex)? => {}
        _ => {
            return Err(ex.unsupported(format!(
                "sort of a list of class {} (or of an Arrays.asList list whose array the state \
                 may hold)",
                display(type_of(ex, list))
            )))
        }
    }
    let size = field(ex, list, SIZE)?;
    let short = int(ex, size)?.decide(Cond::Le, &Interval::literal(1)) == Some(true);
    if !short {
        // two or more elements are compared: a null one throws NullPointerException
        // (`compareTo`), so do two of different classes (ClassCastException)
        let cmp = match compare_with(ex, None, size, 2)? {
            Ok(cmp) => cmp,
            Err(flow) => return Ok(flow),
        };
        let ok = match two_outcomes(ex, cmp)? {
            Ok(ok) => ok,
            Err(flow) => return Ok(flow),
        };
        if !ok {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER);
        }
    }
    pop(ex, n_args + usize::from(receiver))?;
    invalidate(ex, list, false, None);
    Ok(Flow::Next)
}

/// Whether the comparator `k`-th from the top of the stack is `null` (the natural order) or a
/// JDK order that throws where the natural order does (`models::orders`); any other is
/// unsupported, named (its `compare` may be program code).
pub(super) fn natural_like(ex: &mut Exec<'_>, k: usize, what: &str) -> Result<(), EngineError> {
    let c = ex.peek(k)?;
    if c.is_null() || type_of(ex, c).is_some_and(orders::is_natural_like) {
        return Ok(());
    }
    Err(ex.unsupported(format!(
        "{what} with a Comparator of type {} (its compare may be program code; JDK orders \
         modelled: null, Collections.reverseOrder(), Comparator.naturalOrder())",
        display(type_of(ex, c))
    )))
}

/// `Collections.reverse(list)`: nothing the model keeps changes (`set` is no structural
/// change); `List.of`'s lists throw from two elements on.
pub(super) fn reverse(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (list, family) = match realized_argument(ex, 0)? {
        Ok(x) => x,
        Err(flow) => return Ok(flow),
    };
    if !matches!(family, Family::ArrayList | Family::LinkedList) {
        let size = field(ex, list, SIZE)?;
        let short = match decide(ex, size, Cond::Le, 1)? {
            Err(flow) => return Ok(flow),
            Ok(b) => b,
        };
        if !short {
            match family {
                Family::Immutable => {
                    return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION)
                }
                Family::ArraysList if !may_hold_backing_array(ex)? => {}
                _ => {
                    return Err(ex.unsupported(format!(
                    "Collections.reverse of a list of class {} where the state holds an array it may write through to",
                    display(type_of(ex, list))
                )))
                }
            }
        }
    }
    pop(ex, 1)?;
    Ok(Flow::Next)
}

/// `Collections.swap(list, i, j)` (`CollCall::Swap`): both indices against the size, then
/// `set`'s UnsupportedOperationException for `List.of`'s lists (only `i` is read by `get`
/// before it); the elements are not kept, so a swap changes nothing the state shows.
pub(super) fn swap(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let list = ex.peek(2)?;
    if list.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(list)? {
        return Ok(flow);
    }
    let class = type_of(ex, list).map(str::to_string);
    let family = class.as_deref().and_then(Family::of);
    let family = match family {
        Some(Family::ArrayList | Family::LinkedList | Family::Immutable) => family,
        Some(Family::ArraysList) if !may_hold_backing_array(ex)? => family,
        _ => None,
    };
    let (Some(family), Some(class)) = (family, class) else {
        return Err(ex.unsupported(format!(
            "Collections.swap of a list of class {} (or where the state holds an array \
             Arrays.asList may write through to)",
            display(type_of(ex, list))
        )));
    };
    let size = int(ex, field(ex, list, SIZE)?)?;
    let (i, j) = (ex.peek(1)?, ex.peek(0)?);
    let in_range = |v: Interval| {
        text::both(
            v.decide(Cond::Ge, &Interval::literal(0)),
            v.decide(Cond::Lt, &size),
        )
    };
    let i_ok = in_range(int(ex, i)?);
    // `List.of`'s `get(i)` is the only index check before its `set` throws
    let ok = if family == Family::Immutable {
        i_ok
    } else {
        text::both(i_ok, in_range(int(ex, j)?))
    };
    let Some(ok) = ok.or_else(|| text::outcome(ex)) else {
        return Ok(text::split_outcomes(ex));
    };
    if !ok {
        return exception::throw_builtin(ex, family.index_exception(&class));
    }
    if family == Family::Immutable {
        return exception::throw_builtin(ex, coll::UNSUPPORTED_OPERATION);
    }
    pop(ex, 3)?;
    Ok(Flow::Next)
}

/// `Collections.max`/`min(coll)`: an element, by the size (0 throws, 1 returns it, more throw
/// on a `null` element).
pub(super) fn extreme(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (c, family) = match realized_argument(ex, 0)? {
        Ok(x) => x,
        Err(flow) => return Ok(flow),
    };
    let size = field(ex, c, SIZE)?;
    match decide(ex, size, Cond::Gt, 0)? {
        Err(flow) => return Ok(flow),
        Ok(false) => return exception::throw_builtin(ex, coll::NO_SUCH_ELEMENT),
        Ok(true) => {}
    }
    let single = match decide(ex, size, Cond::Le, 1)? {
        Err(flow) => return Ok(flow),
        Ok(b) => b,
    };
    let may_null = family.may_hold_null();
    if !single {
        // two or more elements are compared (see `sort`)
        let cmp = match compare_with(ex, None, size, 2)? {
            Ok(cmp) => cmp,
            Err(flow) => return Ok(flow),
        };
        if may_null {
            let ok = match two_outcomes(ex, cmp)? {
                Ok(ok) => ok,
                Err(flow) => return Ok(flow),
            };
            if !ok {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
        } else if let Some(flow) = settle(ex, cmp)? {
            return Ok(flow);
        }
    }
    pop(ex, 1)?;
    let e = element(ex, single && may_null);
    ex.push(e)?;
    Ok(Flow::Next)
}

/// `Collections.frequency(c, o)`: `[0, size]`.
pub(super) fn frequency(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    if let Some(flow) = check_query(ex, 0, false)? {
        return Ok(flow);
    }
    let (c, _) = match realized_argument(ex, 1)? {
        Ok(x) => x,
        Err(flow) => return Ok(flow),
    };
    let size = field(ex, c, SIZE)?;
    let size = int(ex, size)?;
    pop(ex, 2)?;
    push_int(
        ex,
        Interval {
            lo: Some(0),
            hi: size.hi,
        },
    )?;
    Ok(Flow::Next)
}

/// `String.join(delimiter, elements)` of an `Iterable` (`iterable`) or an array (see
/// `models::CollCall::Join`): NullPointerException for a `null` argument; a string of unknown
/// contents, or ClassCastException where a non-empty collection may hold an `Integer`.
pub(super) fn join(ex: &mut Exec<'_>, iterable: bool) -> Result<Flow, EngineError> {
    let d = ex.peek(1)?;
    if d.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(d)? {
        return Ok(flow);
    }
    // `delimiter.toString()`: JDK code for a `String` only
    if type_of(ex, d) != Some(crate::models::STRING) {
        return Err(ex.unsupported(format!(
            "String.join with a delimiter of class {} (its toString() may be program code)",
            display(type_of(ex, d))
        )));
    }
    if iterable {
        let (c, _) = match realized_argument(ex, 0)? {
            Ok(x) => x,
            Err(flow) => return Ok(flow),
        };
        let other = ex.cx.elements.classes().any(|t| t != crate::models::STRING);
        if other {
            let size = field(ex, c, SIZE)?;
            let empty = match decide(ex, size, Cond::Le, 0)? {
                Err(flow) => return Ok(flow),
                Ok(b) => b,
            };
            // the cast of each element to `CharSequence` in the JDK's loop
            if !empty {
                let Some(ok) = text::outcome(ex) else {
                    return Ok(text::split_outcomes(ex));
                };
                if !ok {
                    return exception::throw_builtin(ex, exceptions::CLASS_CAST);
                }
            }
        }
    } else {
        let a = ex.peek(0)?;
        if a.is_null() {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER);
        }
        if let Some(flow) = ex.need_realized(a)? {
            return Ok(flow);
        }
        let Some(HeapValue::Array { ty, elems, .. }) = ex.st.value(a).cloned() else {
            return Err(ex.invalid("String.join of a non-array"));
        };
        // `String` is final: a `String[]`'s elements are strings or `null`
        let strings = ty == crate::models::STRING_ARRAY
            || elems.is_some_and(|es| {
                es.iter()
                    .all(|e| e.is_null() || type_of(ex, *e) == Some(crate::models::STRING))
            });
        if !strings {
            return Err(ex.unsupported(format!(
                "String.join of an array {} whose elements may be other CharSequences (their toString() may be program code)",
                crate::state::display_type(&ty)
            )));
        }
    }
    pop(ex, 2)?;
    let r = super::super::shared::string(ex, Interval::at_least(0));
    ex.push(r)?;
    Ok(Flow::Next)
}

/// The collection argument (`k`-th from the top) of a static `Collections` method, realized,
/// with its family; NullPointerException for `null` (a map or an unmodelled class is
/// unsupported).
fn realized_argument(
    ex: &mut Exec<'_>,
    k: usize,
) -> Result<Result<(Ref, Family), Flow>, EngineError> {
    let c = ex.peek(k)?;
    if c.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Err);
    }
    if let Some(flow) = ex.need_realized(c)? {
        return Ok(Err(flow));
    }
    match type_of(ex, c).and_then(Family::of) {
        Some(f) if !matches!(f, Family::HashMap | Family::TreeMap) => Ok(Ok((c, f))),
        _ => Err(ex.unsupported(format!(
            "iteration of a collection of class {} (its iterator may be program code)",
            display(type_of(ex, c))
        ))),
    }
}

/// `List.of(e1, …, en)`.
pub(super) fn list_of(ex: &mut Exec<'_>, n: usize) -> Result<Flow, EngineError> {
    if n == 0 {
        // JDK 17's one `ImmutableCollections.EMPTY_LIST`: a `ListN` of size 0 the state may
        // hold already
        let l = shared::possibly_shared_with(ex, coll::LIST_N, Some((SIZE, Interval::literal(0))));
        ex.push(l)?;
        return Ok(Flow::Next);
    }
    for k in 0..n {
        if let Some(flow) = check_stored(ex, k, true)? {
            return Ok(flow);
        }
    }
    pop(ex, n)?;
    let size = ex.st.new_int(Interval::literal(n as i128));
    let l = ex.st.new_obj(HeapValue::Object {
        class: coll::list_of_class(n).into(),
        fields: BTreeMap::from([(FieldKey::plain(SIZE), size)]),
    });
    ex.push(l)?;
    Ok(Flow::Next)
}

/// `List.copyOf(c)` (`CollCall::CopyOf`).
pub(super) fn copy_of(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (c, family) = match realized_argument(ex, 0)? {
        Ok(x) => x,
        Err(flow) => return Ok(flow),
    };
    if family == Family::Immutable {
        // `List.of`'s lists are returned as they are (JDK 17 `listCopy`)
        return Ok(Flow::Next);
    }
    let size = field(ex, c, SIZE)?;
    let empty = match decide(ex, size, Cond::Eq, 0)? {
        Err(flow) => return Ok(flow),
        Ok(e) => e,
    };
    if empty {
        pop(ex, 1)?;
        return list_of(ex, 0);
    }
    let few = match decide(ex, size, Cond::Le, 2)? {
        Err(flow) => return Ok(flow),
        Ok(f) => f,
    };
    if family.may_hold_null() {
        // `List.of(coll.toArray())` throws for a null element
        let Some(ok) = text::outcome(ex) else {
            return Ok(text::split_outcomes(ex));
        };
        if !ok {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER);
        }
    }
    pop(ex, 1)?;
    let l = ex.st.new_obj(HeapValue::Object {
        class: if few { coll::LIST_12 } else { coll::LIST_N }.into(),
        fields: BTreeMap::from([(FieldKey::plain(SIZE), size)]),
    });
    ex.push(l)?;
    Ok(Flow::Next)
}

/// `Arrays.asList(a)` of an `Integer[]`: "NullPointerException - if the specified array is
/// null" (JDK 17: `Objects.requireNonNull`); the list's size is the array's length.
pub(super) fn as_list(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let a = ex.peek(0)?;
    if a.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(a)? {
        return Ok(flow);
    }
    let Some(HeapValue::Array { ty, len, .. }) = ex.st.value(a).cloned() else {
        return Err(ex.invalid("Arrays.asList of a non-array"));
    };
    // its elements are the list's: an array of an element class (a subclass has none, the
    // classes are final)
    let class = ty.strip_prefix("[L").and_then(|t| t.strip_suffix(';'));
    if !class.is_some_and(coll_elements::storable) {
        return Err(ex.unsupported(format!(
            "Arrays.asList of an array {} (list elements are Integer or String)",
            crate::state::display_type(&ty)
        )));
    }
    admit(ex, class.map(str::to_string))?;
    pop(ex, 1)?;
    let l = ex.st.new_obj(HeapValue::Object {
        class: coll::ARRAYS_LIST.into(),
        fields: BTreeMap::from([(FieldKey::plain(SIZE), len)]),
    });
    ex.push(l)?;
    Ok(Flow::Next)
}
