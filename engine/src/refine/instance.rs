//! Instance refinement (Def. 2.17, spec §5.2): an unknown object `C(?)` (or an existing object
//! with unknown fields `C(…)`) becomes `null` or, for every non-abstract subtype `C_i`, a
//! realized `C_i(f=r_f,…)` with fresh most-general fields. The fresh fields inherit the
//! predicates of the refined reference.

use super::Succ;
use crate::class::World;
use crate::edge::Label;
use crate::error::EngineError;
use crate::models;
use crate::program::Program;
use crate::state::access::provably_reaches;
use crate::state::types::{most_general, type_string};
use crate::state::{
    FieldKey, FieldSet, HeapValue, IntSemantics, Interval, MethodId, Outcome, Ref, State, Subtyping,
};
use std::collections::BTreeMap;

/// Whether an `=?` between values of these two static types is meaningful (they may have a
/// common instance). Unsure answers are `true`: an extra `=?` only costs precision.
pub(crate) fn may_alias(types: &dyn Subtyping, a: &str, b: &str) -> bool {
    if types.is_subtype(a, b) || types.is_subtype(b, a) {
        return true;
    }
    // an array's only supertypes that are no arrays are `Object`, `Cloneable` and
    // `Serializable` (JLS §4.10.3), which `is_subtype` knows: it is no object of another class
    let array_and_class = |x: &str, y: &str| x.starts_with('[') && !y.starts_with('[');
    if array_and_class(a, b) || array_and_class(b, a) {
        return false;
    }
    !(is_class_like(a) && is_class_like(b))
}

fn is_class_like(t: &str) -> bool {
    // arrays and the well-known final classes never share instances with unrelated types
    t.starts_with('[') || t == models::STRING
}

/// The refinement successors of object reference `r`, one per class of `world` (the classes an
/// object of the run can have, [`Program::world`]) below its type. `at` names the instruction
/// for errors.
pub(crate) fn refine(
    st: &State,
    r: Ref,
    prog: &Program,
    world: &World,
    sem: IntSemantics,
    at: (&MethodId, u32),
) -> Result<Vec<Succ>, EngineError> {
    let unsupported = |what: String| EngineError::Unsupported {
        method: at.0.clone(),
        pc: at.1,
        what,
    };
    let (ty, exists) = match st.value(r) {
        Some(HeapValue::Unknown { ty }) => (ty.clone(), false),
        Some(HeapValue::Abstract { ty }) => (ty.clone(), true),
        other => {
            return Err(EngineError::Internal(format!(
                "instance refinement of {r} = {other:?}"
            )))
        }
    };
    let mut out = Vec::new();
    if !exists && null_possible(st, r) {
        let mut s = st.clone();
        s.rename(r, Ref::Null);
        out.push(Succ::labelled(
            s,
            vec![Label::RefEq {
                r,
                p: Ref::Null,
                equal: true,
            }],
        ));
    }
    if ty.starts_with('[') {
        // an array of unknown length and contents
        let mut s = st.clone();
        let len = s.new_int(
            Interval::at_least(0)
                .intersect(&Interval::most_general(sem))
                .unwrap_or(Interval::at_least(0)),
        );
        // `ty` is a bound: the runtime type may be narrower
        let arr = HeapValue::array(ty.clone(), len, None, false);
        let fresh = s.new_obj(arr.clone());
        s.rename(r, fresh);
        s.heap.insert(fresh, arr);
        out.push(Succ::labelled(
            s,
            vec![Label::RefEq {
                r,
                p: fresh,
                equal: true,
            }],
        ));
        return Ok(out);
    }
    // the classes of the world below `ty` (a class outside it is not even asked about, so it
    // cannot make the refinement unsupported); none (a value that can only be null): the
    // unfiltered list, a sound over-approximation that keeps the error for a type with no
    // instantiable subtype
    let mut classes = prog
        .hierarchy
        .non_abstract_subtypes_in(&ty, &|c| world.contains(c))?;
    if classes.is_empty() {
        classes = prog.hierarchy.non_abstract_subtypes(&ty)?;
    }
    if classes.is_empty() {
        return Err(unsupported(format!(
            "no instantiable subtype of {ty} is known"
        )));
    }
    if ty == models::OBJECT {
        if exists {
            return Err(unsupported(
                "instance refinement of java.lang.Object (it would need every class)".into(),
            ));
        }
        // existence refinement (spec §5.3 step 1): the non-null case is an object of an
        // unknown class, which is all `ifnull`/`ifnonnull` need; a later use that needs its
        // class goes through `refine_type`, a dispatch partition, or fails above.
        return Ok(refine_existence(st, r));
    }
    for class in classes {
        let fields = models::instance_fields(&prog.hierarchy, &class)?;
        let mut s = st.clone();
        let fresh = s.fresh_obj();
        let mut values = BTreeMap::new();
        let mut obj_children = Vec::new();
        for (name, declared, range) in &fields {
            // the run stores only objects below a narrower class into some fields
            let t = &match prog
                .hierarchy
                .resolve_field(name.declared_in().unwrap_or(&class), name.name())
            {
                Ok(Some(f)) => world.field_type(&f.class, name.name(), declared),
                _ => declared.clone(),
            };
            let child = match range {
                Some(iv) => s.new_int(*iv),
                None => most_general(&mut s, t, sem)
                    .map_err(|w| unsupported(format!("field {class}.{name}: {w}")))?,
            };
            if child.is_obj() {
                obj_children.push((name.clone(), child, type_string(t)));
            }
            values.insert(name.clone(), child);
        }
        s.rename(r, fresh);
        s.heap.insert(
            fresh,
            HeapValue::Object {
                class: class.clone(),
                fields: values,
            },
        );
        inherit_predicates(&mut s, fresh, &class, &obj_children, prog);
        out.push(Succ::labelled(
            s,
            vec![Label::RefEq {
                r,
                p: fresh,
                equal: true,
            }],
        ));
    }
    Ok(out)
}

/// Type refinement (spec §5.3 step 2) of an object whose static type is `java.lang.Object`
/// against `t`, for `instanceof t` / `checkcast t`: `null` (when `r` may be null), `T:` `r` is a
/// `t` (fields unknown), `F:` `r` is not a `t`. The `F:` successor keeps the type
/// `java.lang.Object`: the state model has no negative type information, so it also represents
/// `t` instances (an over-approximation); the `F:` flag fixes the outcome of the instruction
/// that asked, like a state split (§5.6), and the `Type` label says what the case is.
pub(crate) fn refine_type(st: &State, r: Ref, t: &str, sem: IntSemantics) -> Vec<Succ> {
    let exists = st.value(r).is_some_and(HeapValue::exists);
    let mut out = Vec::new();
    if !exists && null_possible(st, r) {
        let mut s = st.clone();
        s.rename(r, Ref::Null);
        out.push(Succ::labelled(
            s,
            vec![Label::RefEq {
                r,
                p: Ref::Null,
                equal: true,
            }],
        ));
    }
    for holds in [true, false] {
        let mut s = st.clone();
        s.split = Some(Outcome::of(holds));
        let value = match (holds, t.starts_with('[')) {
            (true, true) => {
                let len = s.new_int(
                    Interval::at_least(0)
                        .intersect(&Interval::most_general(sem))
                        .unwrap_or(Interval::at_least(0)),
                );
                HeapValue::array(t.to_string(), len, None, false)
            }
            (true, false) => HeapValue::Abstract { ty: t.to_string() },
            (false, _) => HeapValue::Abstract {
                ty: models::OBJECT.into(),
            },
        };
        s.heap.insert(r, value);
        out.push(Succ::labelled(
            s,
            vec![Label::Type {
                r,
                ty: t.to_string(),
                holds,
            }],
        ));
    }
    out
}

/// Existence refinement (spec §5.3 step 1) of an unknown object `C(?)`: `null` (when `r` may
/// be null) and `C(…)`, an existing object of class `C` or below whose fields stay unknown.
/// All a use needs that only asks whether `r` is null or which object it is (`if_acmp`, the
/// receiver of a call whose target does not depend on the class).
pub(crate) fn refine_existence(st: &State, r: Ref) -> Vec<Succ> {
    let Some(HeapValue::Unknown { ty }) = st.value(r) else {
        return vec![];
    };
    let mut out = Vec::new();
    if null_possible(st, r) {
        let mut s = st.clone();
        s.rename(r, Ref::Null);
        out.push(Succ::labelled(
            s,
            vec![Label::RefEq {
                r,
                p: Ref::Null,
                equal: true,
            }],
        ));
    }
    let mut s = st.clone();
    s.heap.insert(r, HeapValue::Abstract { ty: ty.clone() });
    out.push(Succ::labelled(s, vec![Label::Exists { r }]));
    out
}

/// Dispatch partition of an existing `java.lang.Object(…)` (closed world: the class path's
/// classes and the modelled JDK classes): for every class of `tops` (classes directly below
/// `Object`, under which some class overrides the called method) the case `r instanceof T`,
/// where `r` becomes `T(…)`; and the case that `r` is none of them, which keeps
/// `java.lang.Object(…)` (the state model has no negative type information, so it also
/// represents `T` instances, an over-approximation) with the `F:` flag that makes the call
/// take `Object`'s own method, and one `r !instanceof T` label per class of `tops` (left out
/// when no class of the run runs `Object`'s method: `with_default` false).
pub(crate) fn refine_dispatch(
    st: &State,
    r: Ref,
    tops: &[String],
    with_default: bool,
) -> Vec<Succ> {
    let mut out = Vec::new();
    for t in tops {
        let mut s = st.clone();
        s.heap.insert(r, HeapValue::Abstract { ty: t.clone() });
        out.push(Succ::labelled(
            s,
            vec![Label::Type {
                r,
                ty: t.clone(),
                holds: true,
            }],
        ));
    }
    if !with_default {
        return out;
    }
    let mut s = st.clone();
    s.split = Some(Outcome::F);
    let labels = tops
        .iter()
        .map(|t| Label::Type {
            r,
            ty: t.clone(),
            holds: false,
        })
        .collect();
    out.push(Succ::labelled(s, labels));
    out
}

/// `r = null` is impossible when `r →!F t` with `t` a different, existing object (seed
/// footnote 10: the null successor would be inconsistent).
fn null_possible(st: &State, r: Ref) -> bool {
    !st.preds
        .must_reach_from(r)
        .iter()
        .any(|m| m.to != r && st.value(m.to).is_some_and(HeapValue::exists))
}

/// Predicate inheritance of Def. 2.17 for the fresh object `parent` with object-typed
/// `children` (field name, reference, static type).
fn inherit_predicates(
    s: &mut State,
    parent: Ref,
    class: &str,
    children: &[(FieldKey, Ref, String)],
    types: &dyn Subtyping,
) {
    let partners = s.preds.join_partners(parent);
    let self_join = partners.contains(&parent);
    let non_tree = s.preds.is_non_tree(parent);
    let cyclic = s.preds.cyclic(parent).cloned();
    let type_of = |s: &State, r: Ref| s.value(r).and_then(|v| v.type_name().map(str::to_string));
    // r' %$ r: every child may be r' or share with it
    for &p in partners.iter().filter(|&&p| p != parent) {
        let pt = type_of(s, p);
        for (_, c, ct) in children {
            if pt.as_deref().is_some_and(|pt| may_alias(types, pt, ct)) {
                s.preds.add_may_equal(p, *c);
            }
            s.preds.add_join(p, *c);
        }
    }
    // sharing below the parent is now sharing below (and between) its children
    if self_join || non_tree || cyclic.is_some() {
        for (i, (_, c, ct)) in children.iter().enumerate() {
            s.preds.add_join(*c, *c);
            for (_, d, dt) in &children[i + 1..] {
                s.preds.add_join(*c, *d);
                if (non_tree || cyclic.is_some()) && may_alias(types, ct, dt) {
                    s.preds.add_may_equal(*c, *d);
                }
            }
        }
    }
    if self_join {
        s.preds.joins.remove(&(parent, parent));
    }
    if non_tree || cyclic.is_some() {
        for (_, c, _) in children {
            s.preds.add_non_tree(*c);
        }
    }
    if let Some(f) = &cyclic {
        for (name, c, ct) in children {
            s.preds.add_cyclic(*c, f.clone());
            s.preds.add_join(parent, *c);
            // a cycle of length one, the child the parent itself, traverses only its own
            // field: allowed where F is empty or that field alone
            let self_loop = f.is_empty() || (f.len() == 1 && f.contains(name));
            if self_loop && may_alias(types, class, ct) {
                s.preds.add_may_equal(parent, *c);
            }
        }
    }
    // r →!F t moves to the child in F — where r is surely not t, or t lies on an F-cycle (a
    // path of length 0 says nothing of the child unless the walk from it comes round to t);
    // otherwise the fact stays as it is
    let moves: Vec<_> = s
        .preds
        .must_reach_from(parent)
        .into_iter()
        .filter(|m| !s.preds.may_equal(parent, m.to) || on_cycle(s, m.to, &m.fields))
        .cloned()
        .collect();
    for m in moves {
        s.preds.must_reach.remove(&m);
        for (name, c, _) in children {
            if m.fields.contains(name) {
                s.preds.add_must_reach(*c, m.fields.clone(), m.to);
            }
        }
    }
}

/// Whether `t` surely lies on a cycle along `fields`: it must reach some `u` that provably
/// reaches it back (through realized fields and must-reach facts).
fn on_cycle(s: &State, t: Ref, fields: &FieldSet) -> bool {
    s.preds.must_reach_from(t).into_iter().any(|m| {
        &m.fields == fields
            && m.to.is_obj()
            && provably_reaches(&s.heap, &s.preds.must_reach, Some(m), m.to, fields, t)
    })
}
