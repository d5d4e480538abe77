//! Bulk operations of the lists and collections: `addAll(Collection)` and `toArray` (contracts
//! in `models::CollCall::AddAll`/`ToArray`).

use super::super::super::{exception, Exec, Flow};
use super::super::text;
use super::common::*;
use crate::class::Cond;
use crate::edge::{Label, Operand};
use crate::error::EngineError;
use crate::models::collections::{self as coll, Family, SIZE};
use crate::models::exceptions;
use crate::state::{HeapValue, IntOp, Interval, Ref};

/// `list.addAll(c)`: the size grows by `c`'s size (the label `size + n`); returns whether `c`
/// was not empty.
pub(super) fn add_all(
    ex: &mut Exec<'_>,
    recv: Ref,
    family: Family,
    size: Ref,
) -> Result<Flow, EngineError> {
    let c = ex.peek(0)?;
    if c.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    let n = match collection_size(ex, c, "addAll")? {
        Ok(n) => n,
        Err(flow) => return Ok(flow),
    };
    let nonempty = match decide(ex, n, Cond::Gt, 0)? {
        Err(flow) => return Ok(flow),
        Ok(b) => b,
    };
    if family == Family::HashSet {
        return set_add_all(ex, recv, size, n, nonempty);
    }
    pop(ex, 2)?;
    if nonempty {
        let grown = sum(ex, size, n, IntOp::Add, 0)?;
        set_field(ex, recv, SIZE, grown)?;
    }
    // JDK 17 `ArrayList.addAll` counts a modification before it looks at the length
    if nonempty || family == Family::ArrayList {
        invalidate(ex, recv, true, None);
    }
    push_int(ex, crate::state::Interval::literal(i128::from(nonempty)))?;
    Ok(Flow::Next)
}

/// `HashSet.addAll(c)` of a non-empty (`nonempty`) or empty `c` of size `n`: at most `n` new
/// elements (duplicates are not added), the result whether the set grew, which the model does
/// not relate to the size.
fn set_add_all(
    ex: &mut Exec<'_>,
    set: Ref,
    size: Ref,
    n: Ref,
    nonempty: bool,
) -> Result<Flow, EngineError> {
    pop(ex, 2)?;
    if !nonempty {
        push_int(ex, Interval::literal(0))?;
        return Ok(Flow::Next);
    }
    // at most `Integer.MAX_VALUE`, as `counts::sum` caps a size
    let (s, k) = (int(ex, size)?, int(ex, n)?);
    let most = i128::from(i32::MAX);
    let grown = ex.st.new_int(Interval {
        lo: s.lo,
        hi: Some(s.hi.zip(k.hi).map_or(most, |(a, b)| (a + b).min(most))),
    });
    ex.labels.push(Label::Rel {
        a: Operand::Ref(grown),
        cond: Cond::Ge,
        b: Operand::Ref(size),
    });
    set_field(ex, set, SIZE, grown)?;
    invalidate(ex, set, false, None);
    push_int(ex, Interval::literal(0).hull(&Interval::literal(1)))?;
    Ok(Flow::Next)
}

/// The size of the collection `c` whose elements a bulk operation reads through its
/// `toArray()`: a modelled collection, or a map's key or value view (the map's size).
fn collection_size(
    ex: &mut Exec<'_>,
    c: Ref,
    what: &str,
) -> Result<Result<Ref, Flow>, EngineError> {
    if let Some(flow) = ex.need_realized(c)? {
        return Ok(Err(flow));
    }
    let class = type_of(ex, c).unwrap_or("?").to_string();
    if Family::of(&class).is_some_and(|f| !matches!(f, Family::HashMap | Family::TreeMap)) {
        return field(ex, c, SIZE).map(Ok);
    }
    match coll::View::of_class(&class) {
        Some(v) if v.part != coll::Part::Entries => {
            let map = field(ex, c, coll::OF)?;
            if map.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Err);
            }
            if let Some(flow) = ex.need_realized(map)? {
                return Ok(Err(flow));
            }
            field(ex, map, SIZE).map(Ok)
        }
        _ => Err(ex.unsupported(format!(
            "{what} of a collection of class {} (its elements are not modelled elements, or its toArray() may be program code)",
            display(Some(&class))
        ))),
    }
}

/// `toArray()` and `toArray(T[] a)` of a collection of size `size`.
pub(super) fn to_array(ex: &mut Exec<'_>, typed: bool, size: Ref) -> Result<Flow, EngineError> {
    if !typed {
        pop(ex, 1)?;
        let a = new_array(ex, coll::OBJECT_ARRAY.into(), size, true);
        ex.push(a)?;
        return Ok(Flow::Next);
    }
    let a = ex.peek(0)?;
    if a.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_realized(a)? {
        return Ok(flow);
    }
    let Some(HeapValue::Array { ty, len, exact, .. }) = ex.st.value(a).cloned() else {
        return Err(ex.invalid("toArray(T[]) of a non-array"));
    };
    if int(ex, len)?.as_literal() != Some(0) {
        return Err(ex.unsupported(format!(
            "toArray into an array {} that may have room for elements (the JDK's writes into it are not replayed; use new T[0])",
            crate::state::display_type(&ty)
        )));
    }
    // the elements fit (the empty collection): `a` itself, nothing written
    let fits = match decide(ex, size, Cond::Le, 0)? {
        Err(flow) => return Ok(flow),
        Ok(b) => b,
    };
    if fits {
        pop(ex, 2)?;
        ex.push(a)?;
        return Ok(Flow::Next);
    }
    // a new array of `a`'s runtime type: an element of another class throws
    let component = ty.strip_prefix("[L").and_then(|t| t.strip_suffix(';'));
    let holds_all = component
        .is_some_and(|c| c == crate::models::OBJECT || ex.cx.elements.classes().all(|e| e == c));
    if !holds_all {
        let Some(ok) = text::outcome(ex) else {
            return Ok(text::split_outcomes(ex));
        };
        if !ok {
            return exception::throw_builtin(ex, exceptions::ARRAY_STORE);
        }
    }
    pop(ex, 2)?;
    let r = new_array(ex, ty, size, exact);
    ex.push(r)?;
    Ok(Flow::Next)
}

/// A new array of type `ty` whose length is the collection's size and whose elements are
/// unknown (the model keeps none): objects of the element types the state may hold, or `null`;
/// one object may be several elements.
fn new_array(ex: &mut Exec<'_>, ty: String, size: Ref, exact: bool) -> Ref {
    let elements = ex.cx.elements;
    let classes: Vec<&str> = elements.classes().collect();
    super::super::shared::array_of(ex, &ty, size, exact, &classes, true)
}
