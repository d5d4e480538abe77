//! Field access: `getfield`/`putfield` (null check, realization, equality refinement of the
//! target before writes, the predicate updates of spec §6.3) and static fields (most general
//! values on first access).

use super::{exception, Exec, Flow};
use crate::class::{FieldRef, Insn};
use crate::error::EngineError;
use crate::models::exceptions;
use crate::program::Program;
use crate::state::access::{object_children, AccessStep};
use crate::state::{FieldKey, FieldSet, HeapValue, Ref, State};
use std::collections::{BTreeMap, BTreeSet};

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::GetField(f) => {
            let obj = ex.pop()?;
            if obj.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_realized(obj)? {
                return Ok(flow);
            }
            let key = field_key(ex, obj, f)?;
            let v = match ex.st.value(obj) {
                Some(HeapValue::Object { fields, .. }) => fields[&key],
                _ => unreachable!("field_key checked the object"),
            };
            read_below(&mut ex.st, obj, &key, v);
            ex.push(v)?;
            Ok(Flow::Next)
        }
        Insn::PutField(f) => {
            let value = ex.pop()?;
            let obj = ex.pop()?;
            if obj.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            if let Some(flow) = ex.need_realized(obj)? {
                return Ok(flow);
            }
            if let Some(flow) = ex.need_unaliased(obj) {
                return Ok(flow);
            }
            let key = field_key(ex, obj, f)?;
            let value = super::float::stored(ex, value);
            if let Some(HeapValue::Object { fields, .. }) = ex.st.heap.get_mut(&obj) {
                fields.insert(key.clone(), value);
            }
            let pre = ex.before.clone();
            after_write(&mut ex.st, &pre, ex.cx.prog, obj, &key, value, true);
            Ok(Flow::Next)
        }
        Insn::GetStatic(f) => {
            let key = ex.cx.prog.static_key(f);
            let r = match ex.st.statics.get(&key) {
                Some(r) => *r,
                None => {
                    let sem = ex.sem();
                    ex.cx
                        .prog
                        .fill_static(&mut ex.st, key, &f.desc, sem)
                        .map_err(|w| {
                            ex.unsupported(format!(
                                "static field {}.{}: {w}",
                                f.class.replace('/', "."),
                                f.name
                            ))
                        })?
                }
            };
            ex.push(r)?;
            Ok(Flow::Next)
        }
        Insn::PutStatic(f) => {
            let v = ex.pop()?;
            let v = super::float::stored(ex, v);
            ex.st.statics.insert(ex.cx.prog.static_key(f), v);
            Ok(Flow::Next)
        }
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
}

/// The key of field `f` in the realized object `obj` (which must have it).
fn field_key(ex: &Exec<'_>, obj: Ref, f: &FieldRef) -> Result<FieldKey, EngineError> {
    match ex.st.value(obj) {
        Some(HeapValue::Object { fields, class }) => {
            let key = ex.cx.prog.field_key(fields, f);
            if fields.contains_key(&key) {
                Ok(key)
            } else {
                Err(ex.invalid(&format!("object of class {class} has no field {}", f.name)))
            }
        }
        other => Err(EngineError::Internal(format!(
            "field access on unrealized {obj} = {other:?}"
        ))),
    }
}

/// After `v = obj.field`: a path `obj →!F t` with `field ∈ F` (F holds one field per class)
/// leaves `obj` through `field` unless `obj` is `t`, so `v →!F t` — what a walk from `v` to
/// `t` counts down.
fn read_below(st: &mut State, obj: Ref, field: &FieldKey, v: Ref) {
    if !v.is_obj() {
        return;
    }
    let below: Vec<(FieldSet, Ref)> = st
        .preds
        .must_reach_from(obj)
        .into_iter()
        .filter(|m| m.fields.contains(field) && m.to != v && !st.preds.may_equal(obj, m.to))
        .map(|m| (m.fields.clone(), m.to))
        .collect();
    for (fields, to) in below {
        st.preds.add_must_reach(v, fields, to);
    }
}

/// Predicate maintenance after `parent.field = child` (spec §6.3, the conservative form of
/// rules 1–4), computed on the heap `pre` before the write: everything that may reach `parent`
/// now may share with everything `child` may reach; a possible second path marks ♦, a possible
/// new cycle marks ♦ and ⟲ through the written field; must-reach facts through the field are
/// dropped unless they end at `parent`, and extended by the new step where they do. A `%$`
/// partner counts as reached only where the types allow a path ([`Program::may_reach_type`]: a
/// list cell that shares a string with a string array does not reach the list through the
/// array), and a second path only where it does not run through the replaced edge.
///
/// `shown`: the written slot is shown in the heap afterwards (a field, an element of a
/// concrete array); a store into an abstract array is not, so the sharing it creates is
/// hidden and needs its predicates even between references the heap otherwise connects.
pub(super) fn after_write(
    st: &mut State,
    pre: &State,
    prog: &Program,
    parent: Ref,
    field: &FieldKey,
    child: Ref,
    shown: bool,
) {
    // A path `a →!F parent` ends at `parent` before its `field` step, so the write keeps it;
    // one step more along the written field (the path's next step when `field ∈ F`: F holds
    // one field per class) gives `a →!F child`. Every other path through the field may run
    // through the written slot.
    let derived: Vec<(Ref, FieldSet)> = if child.is_obj() {
        st.preds
            .must_reach
            .iter()
            .filter(|m| m.to == parent && m.fields.contains(field))
            .map(|m| (m.from, m.fields.clone()))
            .collect()
    } else {
        Vec::new()
    };
    let after_parent = cell_after(pre, parent, field);
    st.preds
        .must_reach
        .retain(|m| !m.fields.contains(field) || m.to == parent || Some(m.from) == after_parent);
    for (from, fields) in derived {
        st.preds.add_must_reach(from, fields, child);
    }
    if !child.is_obj() {
        return;
    }
    let below = typed_reach_from(pre, prog, child);
    let above = typed_reach_to(pre, prog, parent);
    // Sharing along realized fields is explicit in the heap: p reaches parent and child
    // reaches q through realized fields only, so the new path p → parent.f → child → q is
    // realized too. A `p %$ q` for it would only blur a later merge (both ends below one
    // abstracted reference become a self-join, as if two paths met).
    let explicit_above = if shown {
        realized_reach_to(pre, parent)
    } else {
        BTreeSet::new()
    };
    let explicit_below = pre.reachable_from([child]);
    // every new cycle runs through `parent.field → child` and back from child to parent
    let cycle_fields: FieldSet = {
        let mut fs = pre.fields_on_every_path(child, parent);
        fs.insert(field.clone());
        fs
    };
    // The same holds for cycles and second paths that run through realized fields only: the
    // heap shows them, and instance conditions (l) and (m) ask for `♦`/`⟲` only where a
    // state does not realize the sharing.
    // What each `p` reaches without the new edge, read on the heap after the write and before
    // its new predicates: where the written field is shown, the edge it replaced is gone (a
    // field's; a store into an array keeps the other elements, which `pre` shows the same way).
    let field_shown = shown && matches!(st.value(parent), Some(HeapValue::Object { .. }));
    let reach_without_edge: BTreeMap<Ref, BTreeSet<Ref>> = above
        .iter()
        .filter(|p| !below.contains(p))
        .map(|&p| {
            let from_p = if field_shown {
                typed_reach_skipping(st, prog, p, Some((parent, field)))
            } else {
                typed_reach_from(pre, prog, p)
            };
            (p, from_p)
        })
        .collect();
    for &p in &above {
        let explicit_p = explicit_above.contains(&p);
        for &q in &below {
            if !(explicit_p && explicit_below.contains(&q)) {
                st.preds.add_join(p, q);
            }
        }
        if below.contains(&p) {
            // the write may close a cycle through `field`
            if !(explicit_p && explicit_below.contains(&p)) {
                st.preds.add_non_tree(p);
                st.preds.add_join(p, p);
                st.preds.add_cyclic(p, cycle_fields.clone());
            }
        } else {
            // a second path that does not use the new edge
            let met: Vec<Ref> = reach_without_edge[&p]
                .iter()
                .filter(|r| below.contains(r))
                .copied()
                .collect();
            if !met.is_empty() {
                // a second path from p to what child reaches
                let realized_p = pre.reachable_from([p]);
                let explicit = explicit_p
                    && met
                        .iter()
                        .all(|r| realized_p.contains(r) && explicit_below.contains(r));
                if !explicit {
                    st.preds.add_non_tree(p);
                    st.preds.add_join(p, p);
                }
            }
        }
    }
}

/// The cell a write into `parent.field` leaves on its way: the old value of the field where
/// the heap shows it. A fact `a →!F t` with `field ∈ F` from that cell `a` survives the write:
/// the F-path from `a` is unique (F holds one field per class), and were `parent` on it before
/// `t`, the path would run `a … parent a …` around a cycle without `t` and never reach `t`.
/// So `next = e.next; e.next = null; e = next` walks on towards `t`.
fn cell_after(pre: &State, parent: Ref, field: &FieldKey) -> Option<Ref> {
    match pre.value(parent) {
        Some(HeapValue::Object { fields, .. }) => fields.get(field).copied().filter(|r| r.is_obj()),
        _ => None,
    }
}

/// After `child` is written into every hidden slot of `parent`'s `field` at once
/// (`Arrays.fill` of an array whose elements are not shown): as [`after_write`], and since two
/// slots now lead to one object, everything that reaches `parent` may be a non-tree (`♦`,
/// `p %$ p`: two paths meet at `child`).
pub(super) fn after_repeated_write(
    st: &mut State,
    pre: &State,
    prog: &Program,
    parent: Ref,
    field: &FieldKey,
    child: Ref,
) {
    after_write(st, pre, prog, parent, field, child, false);
    if !child.is_obj() {
        return;
    }
    for p in typed_reach_to(pre, prog, parent) {
        st.preds.add_non_tree(p);
        st.preds.add_join(p, p);
    }
}

/// References `child` may reach: realized fields, plus `=?`/`%$` partners of anything reached
/// (hidden heap), transitively.
pub(crate) fn may_reach_from(st: &State, start: Ref) -> BTreeSet<Ref> {
    st.may_reach_skipping(start, None)
}

/// References that reach `target` through realized fields only (`target` itself included).
fn realized_reach_to(st: &State, target: Ref) -> BTreeSet<Ref> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![target];
    while let Some(r) = todo.pop() {
        if !r.is_obj() || !seen.insert(r) {
            continue;
        }
        for (k, v) in &st.heap {
            if v.children().any(|c| c == r) {
                todo.push(*k);
            }
        }
    }
    seen
}

/// Whether the object of `from` may reach that of `to` by their static types (unknown types
/// may).
fn type_may_reach(st: &State, prog: &Program, from: Ref, to: Ref) -> bool {
    match (
        st.value(from).and_then(HeapValue::type_name),
        st.value(to).and_then(HeapValue::type_name),
    ) {
        (Some(a), Some(b)) => prog.may_reach_type(a, b),
        _ => true,
    }
}

/// References `start` may reach: realized fields, `=?` partners (it may be them), and the
/// `%$` partners of anything reached that its type may reach and that does not show all its
/// children ([`Program::fully_shown`]), transitively. A `%$` partner it cannot reach shares
/// only what both reach, which a sound state names with a `%$` of its own (or realizes), so
/// it is no step.
fn typed_reach_from(st: &State, prog: &Program, start: Ref) -> BTreeSet<Ref> {
    typed_reach_skipping(st, prog, start, None)
}

/// [`typed_reach_from`] without the realized edge `skip` (an object and one of its fields).
fn typed_reach_skipping(
    st: &State,
    prog: &Program,
    start: Ref,
    skip: Option<(Ref, &FieldKey)>,
) -> BTreeSet<Ref> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![start];
    while let Some(r) = todo.pop() {
        if !r.is_obj() || !seen.insert(r) {
            continue;
        }
        todo.extend(st.preds.may_equal_partners(r));
        let value = st.value(r);
        if let Some(v) = value {
            todo.extend(
                object_children(v)
                    .filter(|(step, _)| {
                        !matches!((skip, step), (Some((o, f)), AccessStep::Field(g)) if o == r && f == *g)
                    })
                    .map(|(_, c)| c),
            );
        }
        if value.is_some_and(|v| prog.fully_shown(v)) {
            continue;
        }
        todo.extend(
            st.preds
                .join_partners(r)
                .into_iter()
                .filter(|&q| type_may_reach(st, prog, r, q)),
        );
    }
    seen
}

/// References that may reach `target`: realized predecessors, `=?` partners, and the `%$`
/// partners of anything found whose type may reach it and that hide some of their children,
/// transitively (one that shows them all reaches it through them: a realized predecessor).
fn typed_reach_to(st: &State, prog: &Program, target: Ref) -> BTreeSet<Ref> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![target];
    while let Some(r) = todo.pop() {
        if !r.is_obj() || !seen.insert(r) {
            continue;
        }
        for (k, v) in &st.heap {
            if v.children().any(|c| c == r) {
                todo.push(*k);
            }
        }
        todo.extend(st.preds.may_equal_partners(r));
        todo.extend(st.preds.join_partners(r).into_iter().filter(|&q| {
            type_may_reach(st, prog, q, r) && !st.value(q).is_some_and(|v| prog.fully_shown(v))
        }));
    }
    seen
}
