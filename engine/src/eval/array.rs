//! Arrays (spec §6.2): creation (`newarray`, `anewarray`, `multianewarray`), `arraylength`,
//! element loads and stores with null and bounds checks.
//!
//! * A new array of literal length up to [`CONCRETE_MAX`] is concrete (one reference per
//!   element, JVM defaults); any other length gives an *abstract* array (`elems = None`) of
//!   that length. A length that may be negative is first refined against 0; the negative case
//!   throws `NegativeArraySizeException`.
//! * The index is checked against 0 (integer refinement) and against the length (decided by
//!   intervals, else integer refinement against a literal length or index, else a state
//!   split); out-of-bounds throws `ArrayIndexOutOfBoundsException`.
//! * Reading from an abstract array yields a fresh most-general value of the component type.
//!   A fresh object element may be any object the array's hidden part reaches: it joins the
//!   array (`arr %$ e`) and inherits the array's sharing — every `%$` partner `p` of the array
//!   (earlier reads and stored values among them) gets `p %$ e` and, for compatible types,
//!   `p =? e`, so two reads of the same index may be one object. A ♦/⟲ array gives ♦/⟲
//!   elements.
//! * Writing into an abstract array keeps it abstract: later reads are fresh (see above, the
//!   stored value becomes a `%$` partner of the array). Writing into a concrete array replaces
//!   the element. Both apply the predicate updates of `putfield` (spec §6.3) through the
//!   pseudo field `[]`.
//! * A concrete array read or written at a non-literal index: the index is refined into its
//!   literal values (at most [`CONCRETE_MAX`] of them).
//! * `aastore` checks the stored value against the component type: a value whose type is not a
//!   subtype of the array's component bound throws `ArrayStoreException`. An array the
//!   program allocated (`newarray`, `anewarray`, `multianewarray`, `clone()`) has an *exact*
//!   type (printed `A[]!`), so a value below the component type is stored; an array known only
//!   by a bound (an input, a field read, a merge of different types) whose runtime type could
//!   be narrower (a component class with proper subtypes) is "unsupported".
//! * `long`, `float` and `double` arrays hold long / coarse float values like any other
//!   element (defaults `0L` and an unknown float).

use super::{exception, field::after_write, Exec, Flow};
use crate::class::{ArrayKind, Cond, FieldType, Insn};
use crate::edge::{EdgeKind, Label, Operand};
use crate::error::EngineError;
use crate::models::{self, exceptions};
use crate::refine::{instance::may_alias, integer, split};
use crate::state::types::{default_value, most_general, type_range, type_string};
use crate::state::{FieldKey, HeapValue, Interval, Ref, State};

/// Longest array created as a concrete array (longer ones, and unknown lengths, are abstract).
pub(super) const CONCRETE_MAX: i128 = 16;

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::NewArray(kind) => {
            let comp = match kind {
                ArrayKind::Int => "I",
                ArrayKind::Byte => "B",
                ArrayKind::Boolean => "Z",
                ArrayKind::Char => "C",
                ArrayKind::Short => "S",
                ArrayKind::Long => "J",
                ArrayKind::Float => "F",
                ArrayKind::Double => "D",
                other => return Err(ex.unsupported(format!("{other:?} arrays"))),
            };
            // the elements are 0 (false) by default
            new_array(ex, &format!("[{comp}"), 1)
        }
        Insn::ANewArray(c) => {
            let ty = if c.starts_with('[') {
                format!("[{c}")
            } else {
                format!("[L{c};")
            };
            new_array(ex, &ty, 1)
        }
        Insn::MultiANewArray { class, dims } => new_array(ex, class, *dims as usize),
        Insn::ArrayLength => {
            let arr = ex.pop()?;
            if arr.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_realized(arr)? {
                return Ok(flow);
            }
            let len = array_len(ex, arr)?;
            if ex.st.int(len).and_then(Interval::as_literal).is_none() {
                ex.labels.push(Label::Rel {
                    a: Operand::Ref(len),
                    cond: Cond::Ge,
                    b: Operand::Lit(0),
                });
            }
            ex.push(len)?;
            Ok(Flow::Next)
        }
        Insn::ArrayLoad(_) => {
            let idx = ex.pop()?;
            let arr = ex.pop()?;
            if let Some(flow) = access_checks(ex, arr, idx)? {
                return Ok(flow);
            }
            let v = match element_slot(ex, arr, idx)? {
                Slot::Refine(flow) => return Ok(flow),
                Slot::Concrete(k) => concrete_elems(ex, arr)?[k],
                Slot::Abstract => fresh_element(ex, arr)?,
            };
            ex.push(v)?;
            Ok(Flow::Next)
        }
        Insn::ArrayStore(kind) => {
            let value = ex.pop()?;
            let idx = ex.pop()?;
            let arr = ex.pop()?;
            if let Some(flow) = access_checks(ex, arr, idx)? {
                return Ok(flow);
            }
            if let Some(flow) = ex.need_unaliased(arr) {
                return Ok(flow);
            }
            let comp = component(ex, arr)?;
            let value = if *kind == ArrayKind::Ref {
                if let Some(flow) = store_check(ex, arr, value, &comp)? {
                    return Ok(flow);
                }
                value
            } else {
                let v = narrow(ex, value, &comp)?;
                super::float::stored(ex, v)
            };
            let slot = element_slot(ex, arr, idx)?;
            let pre = ex.st.clone();
            let shown = matches!(slot, Slot::Concrete(_));
            match slot {
                Slot::Refine(flow) => return Ok(flow),
                Slot::Concrete(k) => {
                    if let Some(HeapValue::Array { elems: Some(e), .. }) = ex.st.heap.get_mut(&arr)
                    {
                        e[k] = value;
                    }
                }
                Slot::Abstract => {}
            }
            after_write(
                &mut ex.st,
                &pre,
                ex.cx.prog,
                arr,
                &FieldKey::array_elements(),
                value,
                shown,
            );
            Ok(Flow::Next)
        }
        other => Err(ex.unsupported(format!("instruction {}", other.mnemonic()))),
    }
}

/// `newarray`/`anewarray` (`dims = 1`) and `multianewarray` of type `ty` (a descriptor).
fn new_array(ex: &mut Exec<'_>, ty: &str, dims: usize) -> Result<Flow, EngineError> {
    let mut counts = Vec::with_capacity(dims);
    for _ in 0..dims {
        counts.push(ex.pop()?);
    }
    counts.reverse();
    // the JVM checks every count for negativity before allocating
    for &c in &counts {
        let v = *ex
            .st
            .int(c)
            .ok_or_else(|| ex.invalid("array length is not an integer"))?;
        match v.decide(Cond::Lt, &Interval::literal(0)) {
            Some(true) => return exception::throw_builtin(ex, exceptions::NEGATIVE_ARRAY_SIZE),
            Some(false) => {}
            None => {
                let parts = integer::partition(&v, Cond::Lt, 0);
                let succs = integer::refine(&ex.before, c, &parts);
                return Ok(Flow::Refine(EdgeKind::Refine, succs));
            }
        }
    }
    let r = alloc(ex, ty, &counts)?;
    ex.push(r)?;
    Ok(Flow::Next)
}

/// Allocates an array of type `ty` with the dimension lengths `counts` (outermost first).
fn alloc(ex: &mut Exec<'_>, ty: &str, counts: &[Ref]) -> Result<Ref, EngineError> {
    let len = counts[0];
    let comp = component_of(ty).ok_or_else(|| ex.invalid("array type without a component"))?;
    let literal = ex.st.int(len).and_then(Interval::as_literal);
    let elems = match literal {
        Some(n) if n <= CONCRETE_MAX => {
            let mut e = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let r = if counts.len() > 1 {
                    alloc(ex, &type_string(&comp), &counts[1..])?
                } else {
                    default_value(&mut ex.st, &comp)
                };
                e.push(r);
            }
            Some(e)
        }
        _ => {
            // an abstract array: its reads yield most general values, which covers the
            // default elements (and the sub-arrays of a multi-dimensional array)
            None
        }
    };
    // the program allocated it: its runtime type is `ty` itself
    Ok(ex
        .st
        .new_obj(HeapValue::array(ty.to_string(), len, elems, true)))
}

/// The component type of an array descriptor.
fn component_of(ty: &str) -> Option<FieldType> {
    match FieldType::parse(ty).ok()? {
        FieldType::Array(c) => Some(*c),
        _ => None,
    }
}

fn component(ex: &Exec<'_>, arr: Ref) -> Result<FieldType, EngineError> {
    let ty = ex
        .st
        .value(arr)
        .and_then(HeapValue::type_name)
        .ok_or_else(|| ex.invalid("array access on a non-array"))?;
    component_of(ty).ok_or_else(|| ex.invalid("array access on a non-array"))
}

fn array_len(ex: &Exec<'_>, arr: Ref) -> Result<Ref, EngineError> {
    match ex.st.value(arr) {
        Some(HeapValue::Array { len, .. }) => Ok(*len),
        other => Err(ex.invalid(&format!("array operation on {other:?}"))),
    }
}

fn concrete_elems(ex: &Exec<'_>, arr: Ref) -> Result<Vec<Ref>, EngineError> {
    match ex.st.value(arr) {
        Some(HeapValue::Array { elems: Some(e), .. }) => Ok(e.clone()),
        _ => Err(ex.invalid("concrete element access on an abstract array")),
    }
}

/// Null check, realization, and the bounds checks of `arr[idx]`; `Some` when the access throws
/// or a refinement is needed first.
fn access_checks(ex: &mut Exec<'_>, arr: Ref, idx: Ref) -> Result<Option<Flow>, EngineError> {
    if arr.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Some);
    }
    if let Some(flow) = ex.need_realized(arr)? {
        return Ok(Some(flow));
    }
    let len = array_len(ex, arr)?;
    let vi = *ex
        .st
        .int(idx)
        .ok_or_else(|| ex.invalid("array index is not an integer"))?;
    let vl = *ex
        .st
        .int(len)
        .ok_or_else(|| ex.invalid("array length is not an integer"))?;
    // 0 ≤ idx
    match vi.decide(Cond::Lt, &Interval::literal(0)) {
        Some(true) => {
            return exception::throw_builtin(ex, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS).map(Some)
        }
        Some(false) => {}
        None => {
            let parts = integer::partition(&vi, Cond::Lt, 0);
            let succs = integer::refine(&ex.before, idx, &parts);
            return Ok(Some(Flow::Refine(EdgeKind::Refine, succs)));
        }
    }
    // idx < len
    let decided = if idx == len {
        Some(false)
    } else {
        vi.decide(Cond::Lt, &vl).or(ex.before.decided())
    };
    let Some(inside) = decided else {
        let before = ex.st_before();
        let succs = if let Some(c) = vl.as_literal() {
            integer::refine(&before, idx, &integer::partition(&vi, Cond::Lt, c))
        } else if let Some(c) = vi.as_literal() {
            // `c < len` ⇔ `len > c`
            integer::refine(&before, len, &integer::partition(&vl, Cond::Gt, c))
        } else {
            return Ok(Some(Flow::Refine(
                EdgeKind::Split,
                split::split(&before, idx, Cond::Lt, len),
            )));
        };
        return Ok(Some(Flow::Refine(EdgeKind::Refine, succs)));
    };
    if vi.as_literal().is_none() {
        ex.labels.push(Label::Rel {
            a: Operand::Ref(idx),
            cond: Cond::Ge,
            b: Operand::Lit(0),
        });
    }
    let both_literal = vi.as_literal().is_some() && vl.as_literal().is_some();
    if !both_literal && idx != len {
        ex.labels.push(Label::Rel {
            a: Operand::of(&ex.st, idx),
            cond: if inside { Cond::Lt } else { Cond::Ge },
            b: Operand::of(&ex.st, len),
        });
    }
    if !inside {
        return exception::throw_builtin(ex, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS).map(Some);
    }
    Ok(None)
}

enum Slot {
    /// Element `k` of a concrete array.
    Concrete(usize),
    /// Some element of an abstract array.
    Abstract,
    /// The index must be refined into literals first.
    Refine(Flow),
}

/// Which element `arr[idx]` is, after the bounds checks.
fn element_slot(ex: &Exec<'_>, arr: Ref, idx: Ref) -> Result<Slot, EngineError> {
    let n = match ex.st.value(arr) {
        Some(HeapValue::Array { elems: Some(e), .. }) => e.len(),
        Some(HeapValue::Array { elems: None, .. }) => return Ok(Slot::Abstract),
        _ => return Err(ex.invalid("array access on a non-array")),
    };
    let vi = *ex
        .st
        .int(idx)
        .ok_or_else(|| ex.invalid("array index is not an integer"))?;
    if let Some(k) = vi.as_literal() {
        return usize::try_from(k)
            .ok()
            .filter(|&k| k < n)
            .map(Slot::Concrete)
            .ok_or_else(|| EngineError::Internal("array index outside checked bounds".into()));
    }
    let parts: Vec<Interval> = (0..n as i128)
        .filter(|k| vi.contains(*k))
        .map(Interval::literal)
        .collect();
    Ok(Slot::Refine(Flow::Refine(
        EdgeKind::Refine,
        integer::refine(&ex.before, idx, &parts),
    )))
}

/// A fresh element read from the abstract array `arr` (see the module documentation).
fn fresh_element(ex: &mut Exec<'_>, arr: Ref) -> Result<Ref, EngineError> {
    let comp = component(ex, arr)?;
    let sem = ex.sem();
    let e = most_general(&mut ex.st, &comp, sem).map_err(|w| ex.unsupported(w))?;
    if e.is_obj() {
        inherit_from_array(&mut ex.st, arr, e, &type_string(&comp), ex.cx.prog);
    }
    Ok(e)
}

/// Predicates of an element `e` (type `ety`) read from the hidden part of array `arr`.
pub(crate) fn inherit_from_array(
    st: &mut State,
    arr: Ref,
    e: Ref,
    ety: &str,
    types: &dyn crate::state::Subtyping,
) {
    let type_of = |s: &State, r: Ref| s.value(r).and_then(|v| v.type_name().map(str::to_string));
    for p in st.preds.join_partners(arr) {
        if p == arr || p == e {
            continue;
        }
        if type_of(st, p).is_some_and(|pt| may_alias(types, &pt, ety)) {
            st.preds.add_may_equal(p, e);
        }
        st.preds.add_join(p, e);
    }
    let self_join = st.preds.joins(arr, arr);
    let non_tree = st.preds.is_non_tree(arr);
    let cyclic = st.preds.cyclic(arr).cloned();
    if self_join || non_tree || cyclic.is_some() {
        st.preds.add_join(e, e);
    }
    if non_tree || cyclic.is_some() {
        st.preds.add_non_tree(e);
    }
    if let Some(f) = cyclic {
        st.preds.add_cyclic(e, f);
        let at = type_of(st, arr).unwrap_or_default();
        if may_alias(types, &at, ety) {
            st.preds.add_may_equal(arr, e);
        }
    }
    st.preds.add_join(arr, e);
}

/// `aastore`'s type check; `Some` when it throws or cannot be decided. The store throws
/// ArrayStoreException when the value's class is not below the array's runtime component
/// type: decided when the array's type is exact (the program allocated it) or cannot be
/// narrower, and when the value is a realized object outside the static component type.
fn store_check(
    ex: &mut Exec<'_>,
    arr: Ref,
    value: Ref,
    comp: &FieldType,
) -> Result<Option<Flow>, EngineError> {
    if value.is_null() {
        return Ok(None);
    }
    let exact = matches!(ex.st.value(arr), Some(HeapValue::Array { exact: true, .. }));
    let c = type_string(comp);
    let t = ex
        .st
        .value(value)
        .and_then(HeapValue::type_name)
        .unwrap_or(models::OBJECT)
        .to_string();
    let h = &ex.cx.prog.hierarchy;
    if !h.is_subtype(&t, &c)? {
        if matches!(
            ex.st.value(value),
            Some(HeapValue::Object { .. } | HeapValue::Array { .. })
        ) {
            return exception::throw_builtin(ex, exceptions::ARRAY_STORE).map(Some);
        }
        return Err(ex.unsupported(format!(
            "aastore of a {} into a {}[] (ArrayStoreException undecided)",
            crate::state::display_type(&t),
            crate::state::display_type(&c)
        )));
    }
    if !exact && h.has_proper_subtype(&c)? {
        return Err(ex.unsupported(format!(
            "aastore into a {}[] whose runtime type may be narrower (ArrayStoreException)",
            crate::state::display_type(&c)
        )));
    }
    Ok(None)
}

/// The value an int-like store writes: `bastore`/`castore`/`sastore` truncate.
fn narrow(ex: &mut Exec<'_>, value: Ref, comp: &FieldType) -> Result<Ref, EngineError> {
    if matches!(comp, FieldType::Long | FieldType::Float | FieldType::Double) {
        return Ok(value);
    }
    let v = *ex
        .st
        .int(value)
        .ok_or_else(|| ex.invalid("store of a non-integer into an int-like array"))?;
    let (bits, signed) = match comp {
        FieldType::Byte => (8, true),
        FieldType::Boolean => (1, false),
        FieldType::Char => (16, false),
        FieldType::Short => (16, true),
        _ => return Ok(value),
    };
    let range = type_range(comp, ex.sem());
    if v.is_subset_of(&range) {
        return Ok(value);
    }
    if let Some(x) = v.as_literal() {
        let m = x.rem_euclid(1 << bits);
        let w = if signed && m >= 1 << (bits - 1) {
            m - (1 << bits)
        } else {
            m
        };
        return Ok(ex.st.new_int(Interval::literal(w)));
    }
    Ok(ex.st.new_int(range))
}
