//! `System.arraycopy`, `java.util.Arrays` and `clone()` of arrays (`models::ArraysCall`,
//! contracts in `models/arrays.rs`).
//!
//! * Exact where the state shows it: concrete arrays copied at literal positions get the
//!   copied element references (overlapping ranges read all sources first, "as if ... copied
//!   to a temporary array").
//! * Elsewhere the written array becomes abstract (`elems = None`, its length kept): reads of a
//!   primitive array are then most general; a reference array's old and copied elements move
//!   into its hidden part with the predicates of a hidden store (`field::after_write`, as
//!   `aastore` into an abstract array), so later reads may be any of them.
//! * A new array (`copyOf`, `clone()`) whose elements are not shown shares with everything its
//!   original's elements may be ([`share_hidden`]).
//! * Conditions the intervals do not decide: a sign is refined against 0; the sums of
//!   `arraycopy`'s bounds split the state into returning (`T:`) and throwing (`F:`).

use super::super::array::CONCRETE_MAX;
use super::super::field::{after_repeated_write, after_write};
use super::super::{exception, Exec, Flow};
use super::shared;
use super::text::{outcome, split_outcomes};
use crate::class::{Cond, FieldType};
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::models::{exceptions, ArraysCall};
use crate::refine::{integer, split};
use crate::state::types::{default_value, type_string};
use crate::state::{FieldKey, HeapValue, IntOp, Interval, Ref, State, Width};

pub(crate) fn eval(ex: &mut Exec<'_>, call: ArraysCall) -> Result<Flow, EngineError> {
    match call {
        ArraysCall::Copy => arraycopy(ex),
        ArraysCall::Fill => fill(ex),
        ArraysCall::CopyOf { reference } => copy_of(ex, reference),
        ArraysCall::CopyOfRange => copy_of_range(ex),
        ArraysCall::BinarySearch => binary_search(ex),
        ArraysCall::Equals => equals(ex),
        ArraysCall::Sort => sort(ex),
        ArraysCall::SortByCallback => Err(ex.unsupported(
            "Arrays.sort of objects compares them with compareTo or a Comparator, which may be \
             program code (not modelled)"
                .into(),
        )),
        ArraysCall::ToString | ArraysCall::HashCode => {
            let a = ex.peek(0)?;
            if let Some(flow) = ex.need_null_or_existing(a)? {
                return Ok(flow);
            }
            ex.pop()?;
            let r = match (call, a.is_null()) {
                // "If a is null, this method returns "null"" (a literal: interned)
                (ArraysCall::ToString, true) => shared::string(ex, Interval::literal(4)),
                // "[" and "]" at least
                (ArraysCall::ToString, false) => shared::string(ex, Interval::at_least(2)),
                // "If a is null, this method returns 0"
                (_, true) => ex.st.new_int(Interval::literal(0)),
                (_, false) => ex.st.new_int(crate::models::random_int()),
            };
            ex.push(r)?;
            Ok(Flow::Next)
        }
    }
}

/// What a realized array is.
struct Arr {
    ty: String,
    len: Ref,
    elems: Option<Vec<Ref>>,
    exact: bool,
}

fn array(ex: &Exec<'_>, r: Ref) -> Option<Arr> {
    match ex.st.value(r) {
        Some(HeapValue::Array {
            ty,
            len,
            elems,
            exact,
        }) => Some(Arr {
            ty: ty.clone(),
            len: *len,
            elems: elems.clone(),
            exact: *exact,
        }),
        _ => None,
    }
}

fn component(ex: &Exec<'_>, ty: &str) -> Result<FieldType, EngineError> {
    match FieldType::parse(ty) {
        Ok(FieldType::Array(c)) => Ok(*c),
        _ => Err(ex.invalid("array model on a non-array type")),
    }
}

fn is_reference(c: &FieldType) -> bool {
    matches!(c, FieldType::Object(_) | FieldType::Array(_))
}

fn int(ex: &Exec<'_>, r: Ref) -> Result<Interval, EngineError> {
    ex.st
        .int(r)
        .copied()
        .ok_or_else(|| ex.invalid("array model with a non-integer position or length"))
}

/// NullPointerException on `null`, else the refinement that realizes `r` (if needed).
fn non_null_realized(ex: &mut Exec<'_>, r: Ref) -> Result<Option<Flow>, EngineError> {
    if r.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Some);
    }
    ex.need_realized(r)
}

/// Refines `r` against 0 when its sign is undecided; throws `exc` when it is negative.
fn non_negative(ex: &mut Exec<'_>, r: Ref, exc: &str) -> Result<Option<Flow>, EngineError> {
    let v = int(ex, r)?;
    match v.decide(Cond::Lt, &Interval::literal(0)) {
        Some(true) => exception::throw_builtin(ex, exc).map(Some),
        Some(false) => Ok(None),
        None => {
            let succs = integer::refine(&ex.before, r, &integer::partition(&v, Cond::Lt, 0));
            Ok(Some(Flow::Refine(EdgeKind::Refine, succs)))
        }
    }
}

/// Whether `a + b ≤ c`, where the intervals (or `b` being `c` itself at `a = 0`) decide it.
fn sum_le(ex: &Exec<'_>, a: Ref, b: Ref, c: Ref) -> Result<Option<bool>, EngineError> {
    let (va, vb, vc) = (int(ex, a)?, int(ex, b)?, int(ex, c)?);
    for (zero, other, o) in [(va, vb, b), (vb, va, a)] {
        if zero.as_literal() == Some(0) {
            return Ok(if o == c {
                Some(true)
            } else {
                other.decide(Cond::Le, &vc)
            });
        }
    }
    Ok(Interval::exact(IntOp::Add, &va, &vb).decide(Cond::Le, &vc))
}

fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

fn arraycopy(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (n, dpos, dest, spos, src) = (
        ex.peek(0)?,
        ex.peek(1)?,
        ex.peek(2)?,
        ex.peek(3)?,
        ex.peek(4)?,
    );
    for r in [dest, src] {
        if let Some(flow) = non_null_realized(ex, r)? {
            return Ok(flow);
        }
    }
    let (Some(s), Some(d)) = (array(ex, src), array(ex, dest)) else {
        // "the src argument refers to an object that is not an array" (or dest)
        return exception::throw_builtin(ex, exceptions::ARRAY_STORE);
    };
    let (sc, dc) = (component(ex, &s.ty)?, component(ex, &d.ty)?);
    let reference = is_reference(&sc) && is_reference(&dc);
    if !reference {
        if sc != dc {
            // different primitive kinds, or one primitive and one reference component
            return exception::throw_builtin(ex, exceptions::ARRAY_STORE);
        }
    } else {
        let (st, dt) = (type_string(&sc), type_string(&dc));
        let h = &ex.cx.prog.hierarchy;
        let fits = h.is_subtype(&st, &dt)? && (d.exact || !h.has_proper_subtype(&dt)?);
        if !fits {
            return Err(ex.unsupported(format!(
                "System.arraycopy of a {}[] into a {}[] (ArrayStoreException undecided)",
                crate::state::display_type(&st),
                crate::state::display_type(&dt)
            )));
        }
    }
    for r in [spos, dpos, n] {
        if let Some(flow) = non_negative(ex, r, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS)? {
            return Ok(flow);
        }
    }
    let inside = both(sum_le(ex, spos, n, s.len)?, sum_le(ex, dpos, n, d.len)?);
    let Some(inside) = inside.or_else(|| outcome(ex)) else {
        return Ok(split_outcomes(ex));
    };
    if !inside {
        // the JVM throws the subclass ArrayIndexOutOfBoundsException; nothing is copied
        return exception::throw_builtin(ex, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS);
    }
    if let Some(flow) = ex.need_unaliased(dest) {
        return Ok(flow);
    }
    let literal = |ex: &Exec<'_>, r: Ref| -> Result<Option<usize>, EngineError> {
        Ok(int(ex, r)?
            .as_literal()
            .and_then(|v| usize::try_from(v).ok()))
    };
    let (ln, lsp, ldp) = (literal(ex, n)?, literal(ex, spos)?, literal(ex, dpos)?);
    for _ in 0..5 {
        ex.pop()?;
    }
    if ln == Some(0) {
        return Ok(Flow::Next);
    }
    // the source array as it is now (after the refinements, `src` may be `dest`)
    let s = array(ex, src).ok_or_else(|| ex.invalid("arraycopy source vanished"))?;
    let d = array(ex, dest).ok_or_else(|| ex.invalid("arraycopy destination vanished"))?;
    let key = FieldKey::array_elements();
    if let (Some(se), Some(_), Some(k), Some(sp), Some(dp)) = (&s.elems, &d.elems, ln, lsp, ldp) {
        let copied: Vec<Ref> = se
            .get(sp..sp + k)
            .ok_or_else(|| ex.invalid("arraycopy outside checked bounds"))?
            .to_vec();
        for (i, v) in copied.into_iter().enumerate() {
            let pre = ex.st.clone();
            if let Some(HeapValue::Array { elems: Some(e), .. }) = ex.st.heap.get_mut(&dest) {
                let slot = e
                    .get_mut(dp + i)
                    .ok_or_else(|| EngineError::Internal("arraycopy past the end".into()))?;
                *slot = v;
            }
            if reference {
                after_write(&mut ex.st, &pre, ex.cx.prog, dest, &key, v, true);
            }
        }
        return Ok(Flow::Next);
    }
    // positions or arrays the state does not show: the destination's elements are hidden
    let pre = ex.st.clone();
    if let Some(HeapValue::Array { elems, .. }) = ex.st.heap.get_mut(&dest) {
        *elems = None;
    }
    if reference {
        let mut hidden: Vec<Ref> = d.elems.clone().unwrap_or_default();
        match &s.elems {
            Some(se) => hidden.extend(se.iter().copied()),
            // an abstract source copied into itself adds nothing new
            None if src == dest => {}
            None => hidden.push(src),
        }
        for v in hidden {
            after_write(&mut ex.st, &pre, ex.cx.prog, dest, &key, v, false);
        }
    }
    Ok(Flow::Next)
}

fn fill(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (v, a) = (ex.peek(0)?, ex.peek(1)?);
    if let Some(flow) = non_null_realized(ex, a)? {
        return Ok(flow);
    }
    let arr = array(ex, a).ok_or_else(|| ex.invalid("Arrays.fill on a non-array"))?;
    let comp = component(ex, &arr.ty)?;
    let reference = is_reference(&comp);
    if reference && !v.is_null() {
        let c = type_string(&comp);
        let t = ex
            .st
            .value(v)
            .and_then(HeapValue::type_name)
            .unwrap_or(crate::models::OBJECT)
            .to_string();
        let h = &ex.cx.prog.hierarchy;
        if !(h.is_subtype(&t, &c)? && (arr.exact || !h.has_proper_subtype(&c)?)) {
            return Err(ex.unsupported(format!(
                "Arrays.fill of a {} into a {}[] (ArrayStoreException undecided)",
                crate::state::display_type(&t),
                crate::state::display_type(&c)
            )));
        }
    }
    if let Some(flow) = ex.need_unaliased(a) {
        return Ok(flow);
    }
    ex.pop()?;
    ex.pop()?;
    let v = if reference {
        v
    } else {
        super::super::float::stored(ex, v)
    };
    let key = FieldKey::array_elements();
    match arr.elems {
        Some(e) => {
            for k in 0..e.len() {
                let pre = ex.st.clone();
                if let Some(HeapValue::Array { elems: Some(e), .. }) = ex.st.heap.get_mut(&a) {
                    e[k] = v;
                }
                if reference {
                    after_write(&mut ex.st, &pre, ex.cx.prog, a, &key, v, true);
                }
            }
        }
        None if reference => {
            let pre = ex.st.clone();
            after_repeated_write(&mut ex.st, &pre, ex.cx.prog, a, &key, v);
        }
        None => {}
    }
    Ok(Flow::Next)
}

fn copy_of(ex: &mut Exec<'_>, reference: bool) -> Result<Flow, EngineError> {
    let (n, orig) = (ex.peek(0)?, ex.peek(1)?);
    // JDK 17: `new int[newLength]` before reading `original`; `original.getClass()` first
    // for `T[]`
    if reference {
        if let Some(flow) = non_null_realized(ex, orig)? {
            return Ok(flow);
        }
    }
    if let Some(flow) = non_negative(ex, n, exceptions::NEGATIVE_ARRAY_SIZE)? {
        return Ok(flow);
    }
    if let Some(flow) = non_null_realized(ex, orig)? {
        return Ok(flow);
    }
    let o = array(ex, orig).ok_or_else(|| ex.invalid("Arrays.copyOf of a non-array"))?;
    let comp = component(ex, &o.ty)?;
    ex.pop()?;
    ex.pop()?;
    let literal = int(ex, n)?.as_literal();
    let elems = match (&o.elems, literal) {
        (Some(oe), Some(k)) if k <= CONCRETE_MAX => {
            let mut e = Vec::with_capacity(k as usize);
            for i in 0..k as usize {
                e.push(match oe.get(i) {
                    Some(&x) => x,
                    None => default_value(&mut ex.st, &comp),
                });
            }
            Some(e)
        }
        _ => None,
    };
    let shown = elems.is_some();
    // "of exactly the same class as the original array"
    let copy = ex.st.new_obj(HeapValue::array(
        o.ty.clone(),
        n,
        elems,
        o.exact || !reference,
    ));
    if reference && !shown {
        match &o.elems {
            Some(oe) => {
                let pre = ex.st.clone();
                for &e in oe {
                    after_write(
                        &mut ex.st,
                        &pre,
                        ex.cx.prog,
                        copy,
                        &FieldKey::array_elements(),
                        e,
                        false,
                    );
                }
            }
            None => share_hidden(&mut ex.st, copy, orig),
        }
    }
    ex.push(copy)?;
    Ok(Flow::Next)
}

/// `Arrays.copyOfRange(original, from, to)` of a primitive array, as JDK 17 runs it:
/// `newLength = to - from` (an int, so it may wrap around), IllegalArgumentException "if
/// from > to" (`newLength < 0`), `new T[newLength]`, then `System.arraycopy(original, from,
/// copy, 0, min(original.length - from, newLength))`: NullPointerException for `null`,
/// ArrayIndexOutOfBoundsException "if from < 0 or from > original.length"; else a new array
/// of length `to - from` (its elements are not shown). A `to - from` that may wrap around
/// with `from ≥ 0` (a negative `to`) is unsupported; a second undecided comparison of two
/// unknowns too (one instruction splits once).
fn copy_of_range(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (to, from, orig) = (ex.peek(0)?, ex.peek(1)?, ex.peek(2)?);
    let java = Interval::new(Some(i128::from(i32::MIN)), Some(i128::from(i32::MAX)))
        .unwrap_or(Interval::TOP);
    // the JDK gets Java ints
    let ints = |ex: &Exec<'_>, r: Ref| -> Result<Interval, EngineError> {
        Ok(int(ex, r)?.intersect(&java).unwrap_or(java))
    };
    let vf = ints(ex, from)?;
    let Some(negative) = vf.decide(Cond::Lt, &Interval::literal(0)) else {
        let parts = integer::partition(&vf, Cond::Lt, 0);
        return Ok(Flow::Refine(
            EdgeKind::Refine,
            integer::refine(&ex.before, from, &parts),
        ));
    };
    let vt = ints(ex, to)?;
    let d = Interval::exact(IntOp::Sub, &vt, &vf);
    let mut split_used = false;
    let throws_iae = if d.intersect(&java) == Some(d) {
        // no wrap-around: IllegalArgumentException iff to < from
        match compare(ex, to, Cond::Lt, from)? {
            Compared::Decided(b) => b,
            Compared::Refine(flow) => return Ok(flow),
            Compared::Split => {
                split_used = true;
                match ex.before.decided() {
                    Some(ge) => !ge,
                    None => {
                        let succs = split::split(&ex.before, to, Cond::Ge, from);
                        return Ok(Flow::Refine(EdgeKind::Split, succs));
                    }
                }
            }
        }
    } else if negative {
        // an exception either way: IllegalArgumentException where `to - from` is negative
        // once wrapped, else the negative `from`'s ArrayIndexOutOfBoundsException
        split_used = true;
        let Some(ok) = outcome(ex) else {
            return Ok(split_outcomes(ex));
        };
        !ok
    } else {
        return Err(ex.unsupported(
            "Arrays.copyOfRange whose to - from may wrap around (a negative to)".into(),
        ));
    };
    if throws_iae {
        return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT);
    }
    if let Some(flow) = non_null_realized(ex, orig)? {
        return Ok(flow);
    }
    if negative {
        return exception::throw_builtin(ex, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS);
    }
    let o = array(ex, orig).ok_or_else(|| ex.invalid("Arrays.copyOfRange of a non-array"))?;
    // `from ≤ to = original.length` holds past the IllegalArgumentException
    let past_end = if to == o.len {
        false
    } else {
        match compare(ex, from, Cond::Gt, o.len)? {
            Compared::Decided(b) => b,
            Compared::Refine(flow) => return Ok(flow),
            Compared::Split if split_used => {
                return Err(ex.unsupported(
                    "Arrays.copyOfRange with from, to and the length all unknown (two undecided comparisons)".into(),
                ))
            }
            Compared::Split => match ex.before.decided() {
                Some(gt) => gt,
                None => {
                    let succs = split::split(&ex.before, from, Cond::Gt, o.len);
                    return Ok(Flow::Refine(EdgeKind::Split, succs));
                }
            },
        }
    };
    if past_end {
        return exception::throw_builtin(ex, exceptions::ARRAY_INDEX_OUT_OF_BOUNDS);
    }
    for _ in 0..3 {
        ex.pop()?;
    }
    // `to - from` in [0, Integer.MAX_VALUE]: no wrap-around here
    let n = super::super::arith::apply(ex, IntOp::Sub, to, Some(from), Width::Int)?;
    let exact = d
        .intersect(&Interval::new(Some(0), java.hi).unwrap_or(java))
        .unwrap_or(java);
    if let Some(HeapValue::Int(v)) = ex.st.heap.get_mut(&n) {
        *v = exact;
    }
    let copy = ex.st.new_obj(HeapValue::array(o.ty, n, None, true));
    ex.push(copy)?;
    Ok(Flow::Next)
}

/// How `a cond b` is decided: by the intervals (or `a` and `b` being one value), by an integer
/// refinement where one side is a literal, or only by a split.
enum Compared {
    Decided(bool),
    Refine(Flow),
    Split,
}

fn compare(ex: &Exec<'_>, a: Ref, cond: Cond, b: Ref) -> Result<Compared, EngineError> {
    let (va, vb) = (int(ex, a)?, int(ex, b)?);
    if a == b {
        return Ok(Compared::Decided(matches!(
            cond,
            Cond::Le | Cond::Ge | Cond::Eq
        )));
    }
    if let Some(x) = va.decide(cond, &vb) {
        return Ok(Compared::Decided(x));
    }
    let refine = |r: Ref, v: &Interval, cond: Cond, c: i128| {
        let parts = integer::partition(v, cond, c);
        Compared::Refine(Flow::Refine(
            EdgeKind::Refine,
            integer::refine(&ex.before, r, &parts),
        ))
    };
    Ok(match (va.as_literal(), vb.as_literal()) {
        (_, Some(c)) => refine(a, &va, cond, c),
        (Some(c), _) => refine(b, &vb, super::super::branch::mirror(cond), c),
        _ => Compared::Split,
    })
}

/// `Arrays.binarySearch(a, key)` of a primitive array (JDK 17 `binarySearch0(a, 0, a.length,
/// key)`): NullPointerException for `null`; else the index `mid` in `[0, length-1]` where it
/// found the key, or `-(low + 1)` with `low` in `[0, length]`: a value in `[-(length+1),
/// length-1]` (the array need not be sorted: "the results are undefined", still one of these).
fn binary_search(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let a = ex.peek(1)?;
    if let Some(flow) = non_null_realized(ex, a)? {
        return Ok(flow);
    }
    let o = array(ex, a).ok_or_else(|| ex.invalid("Arrays.binarySearch of a non-array"))?;
    let len = int(ex, o.len)?;
    ex.pop()?;
    ex.pop()?;
    let r = ex.st.new_int(Interval {
        lo: len.hi.map(|h| -(h + 1)),
        hi: len.hi.map(|h| h - 1),
    });
    ex.push(r)?;
    Ok(Flow::Next)
}

/// The new array `copy` holds (hidden) the elements the array `orig` may hold: it may share
/// with everything `orig` may share with (and with what `orig` may be), and keeps `orig`'s
/// sharing among its elements (♦, ⟲).
pub(crate) fn share_hidden(st: &mut State, copy: Ref, orig: Ref) {
    st.preds.add_join(copy, orig);
    let partners: Vec<Ref> = st
        .preds
        .join_partners(orig)
        .into_iter()
        .chain(st.preds.may_equal_partners(orig))
        .filter(|&p| p != copy && p != orig)
        .collect();
    for p in partners {
        st.preds.add_join(copy, p);
    }
    let self_join = st.preds.joins(orig, orig);
    let non_tree = st.preds.is_non_tree(orig);
    let cyclic = st.preds.cyclic(orig).cloned();
    if self_join || non_tree || cyclic.is_some() {
        st.preds.add_join(copy, copy);
    }
    if non_tree || cyclic.is_some() {
        st.preds.add_non_tree(copy);
    }
    if let Some(f) = cyclic {
        st.preds.add_cyclic(copy, f);
    }
}

fn equals(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (b, a) = (ex.peek(0)?, ex.peek(1)?);
    if a != b {
        for r in [a, b] {
            if r.is_null() {
                continue;
            }
            if let Some(flow) = ex.need_realized(r)? {
                return Ok(flow);
            }
        }
    }
    let v = if a == b {
        Interval::literal(1)
    } else if a.is_null() || b.is_null() {
        Interval::literal(0)
    } else {
        let (Some(x), Some(y)) = (array(ex, a), array(ex, b)) else {
            return Err(ex.invalid("Arrays.equals of a non-array"));
        };
        let (lx, ly) = (int(ex, x.len)?, int(ex, y.len)?);
        if x.len != y.len && lx.decide(Cond::Eq, &ly) == Some(false) {
            Interval::literal(0)
        } else {
            Interval::new(Some(0), Some(1)).expect("0 ≤ 1")
        }
    };
    ex.pop()?;
    ex.pop()?;
    let r = ex.st.new_int(v);
    ex.push(r)?;
    Ok(Flow::Next)
}

fn sort(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let a = ex.peek(0)?;
    if let Some(flow) = non_null_realized(ex, a)? {
        return Ok(flow);
    }
    if let Some(flow) = ex.need_unaliased(a) {
        return Ok(flow);
    }
    ex.pop()?;
    let arr = array(ex, a).ok_or_else(|| ex.invalid("Arrays.sort of a non-array"))?;
    let Some(elems) = arr.elems else {
        // an abstract array's elements are most general before and after
        return Ok(Flow::Next);
    };
    // a permutation: each position holds one of the values, so lies in their hull
    let mut hull: Option<HeapValue> = None;
    for &e in &elems {
        let v = ex
            .st
            .value(e)
            .cloned()
            .ok_or_else(|| ex.invalid("array element without a value"))?;
        hull = Some(match (hull, v) {
            (None, v) => v,
            (Some(HeapValue::Int(x)), HeapValue::Int(y)) => HeapValue::Int(x.hull(&y)),
            (Some(HeapValue::Long(x)), HeapValue::Long(y)) => HeapValue::Long(x.hull(&y)),
            (Some(HeapValue::Float(x)), HeapValue::Float(y)) => {
                HeapValue::Float(if x == y { x } else { None })
            }
            (Some(HeapValue::Double(x)), HeapValue::Double(y)) => {
                HeapValue::Double(if x == y { x } else { None })
            }
            _ => return Err(ex.invalid("Arrays.sort of mixed elements")),
        });
    }
    if let Some(h) = hull {
        let fresh: Vec<Ref> = elems.iter().map(|_| ex.st.new_prim(h.clone())).collect();
        if let Some(HeapValue::Array { elems: Some(e), .. }) = ex.st.heap.get_mut(&a) {
            *e = fresh;
        }
    }
    Ok(Flow::Next)
}

/// `clone()` of an array whose elements the state does not show: a new abstract array of the
/// same type and length sharing (hidden) with the original's elements.
pub(crate) fn clone_hidden(ex: &mut Exec<'_>, a: Ref, ty: String, len: Ref, exact: bool) -> Ref {
    let copy = ex.st.new_obj(HeapValue::array(ty, len, None, exact));
    share_hidden(&mut ex.st, copy, a);
    copy
}
