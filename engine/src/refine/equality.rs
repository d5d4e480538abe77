//! Equality refinement (Def. 2.20): for `r =? p` with `r` not realized, the successor `s=`
//! identifies `r` with `p` (`s[r/p]`, combining what both references know, without their
//! join: one object's parts below it do not meet for being reached by two names) and `s≠`
//! drops the predicate.

use super::Succ;
use crate::edge::Label;
use crate::state::{HeapValue, Ref, State, Subtyping};

/// The two successors of an equality refinement (the equal case is left out when the two
/// values cannot be one object).
pub(crate) fn refine(st: &State, r: Ref, p: Ref, types: &dyn Subtyping) -> Vec<Succ> {
    let mut out = Vec::new();
    if let Some(eq) = identify(st, r, p, types) {
        out.push(Succ::labelled(eq, vec![Label::RefEq { r, p, equal: true }]));
    }
    let mut ne = st.clone();
    ne.preds.remove_may_equal(r, p);
    out.push(Succ::labelled(
        ne,
        vec![Label::RefEq { r, p, equal: false }],
    ));
    out
}

/// Drops every `a =? b` whose two values cannot be one object: their types cannot meet (e.g.
/// a realized `java.lang.Object()`, whose class is exact, and a `Tree(?)`), or `b` is below
/// `a` along realized fields and `a` has no `⟲` (then `a = b` would be a cycle through `a`,
/// which needs `a⟲F`, instance condition (m)). Sound: no concrete state of `st` has them
/// equal. Keeps later equality refinements from splitting on impossible cases.
pub(crate) fn drop_impossible(st: &mut State, types: &dyn Subtyping) {
    let below = |a: Ref, b: Ref| {
        st.preds.cyclic(a).is_none()
            && st
                .value(a)
                .is_some_and(|v| st.reachable_from(v.children()).contains(&b))
    };
    let impossible: Vec<(Ref, Ref)> = st
        .preds
        .may_equal
        .iter()
        .filter(|(a, b)| match (st.value(*a), st.value(*b)) {
            (Some(va), Some(vb)) => meet(va, vb, types).is_none() || below(*a, *b) || below(*b, *a),
            _ => false,
        })
        .copied()
        .collect();
    for (a, b) in impossible {
        st.preds.remove_may_equal(a, b);
    }
}

/// `s[r/p]` where `p` takes the combined value of both; `None` when the two cannot be equal.
fn identify(st: &State, r: Ref, p: Ref, types: &dyn Subtyping) -> Option<State> {
    let mut vr = st.value(r)?.clone();
    let mut vp = st.value(p)?.clone();
    // the values may point to r themselves (e.g. p.next = r): rename inside them too
    vr.rename_children(r, p);
    vp.rename_children(r, p);
    let combined = meet(&vr, &vp, types)?;
    let mut s = st.clone();
    s.preds.remove_may_equal(r, p);
    // `r %$ p` let the parts below two references overlap, as they do when both are one
    // object; renamed it would be a self-join, which says that two paths below the one
    // object meet: that needs `r`'s or `p`'s own `♦` or self-join, which the rename keeps
    s.preds.remove_join(r, p);
    // `r =? a` where `p` and `a` surely differ (no `p =? a`): with `r` being `p`, `r` is not
    // `a` either; renamed it would claim `p =? a`, more than the state allows (a child that
    // may be its own parent after `c = this.next` is identified with `this.next`)
    for a in s.preds.may_equal_partners(r) {
        if a != p && !s.preds.may_equal(p, a) {
            s.preds.remove_may_equal(r, a);
        }
    }
    s.rename(r, p);
    s.heap.insert(p, combined);
    // a join of `r` with what `p`'s fields reach (or the reverse) is now one between an
    // object and its own realized descendant: vacuous, and a later write would spread it
    for q in s.preds.join_partners(p) {
        if s.join_is_vacuous(p, q) {
            s.preds.remove_join(p, q);
        }
    }
    Some(s)
}

/// The value of one object known both as `a` (unrealized) and as `b`.
fn meet(a: &HeapValue, b: &HeapValue, types: &dyn Subtyping) -> Option<HeapValue> {
    use HeapValue::*;
    let ta = a.type_name()?;
    let tb = b.type_name()?;
    let exists = a.exists() || b.exists();
    let narrow = |t: &str, exists: bool| {
        if exists {
            Abstract { ty: t.to_string() }
        } else {
            Unknown { ty: t.to_string() }
        }
    };
    match (a, b) {
        (Object { .. } | Array { .. }, _) if !matches!(b, Object { .. } | Array { .. }) => {
            types.is_subtype(ta, tb).then(|| a.clone())
        }
        (_, Object { .. } | Array { .. }) if !matches!(a, Object { .. } | Array { .. }) => {
            types.is_subtype(tb, ta).then(|| b.clone())
        }
        (Object { .. } | Array { .. }, Object { .. } | Array { .. }) => None,
        _ => {
            if types.is_subtype(ta, tb) {
                Some(narrow(ta, exists))
            } else if types.is_subtype(tb, ta) {
                Some(narrow(tb, exists))
            } else {
                // Unrelated static types (interfaces): keep one bound; the other is lost,
                // which over-approximates.
                Some(narrow(tb, exists))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{FieldKey, FlatTypes};

    /// `c =? h.next`, `c =? x` and `h.next` surely not `x`: identifying `c` with `h.next`
    /// rules out `c = x`, so the equal case claims no `h.next =? x` (it would be more than the
    /// source allows, and no instance of it).
    #[test]
    fn identifying_drops_partners_the_target_surely_is_not() {
        let mut s = State::default();
        let cell = |next: Ref| HeapValue::Object {
            class: "L".into(),
            fields: [(FieldKey::plain("next"), next)].into(),
        };
        let x = s.new_obj(HeapValue::Unknown { ty: "L".into() });
        let next = s.new_obj(cell(Ref::Null));
        let _h = s.new_obj(cell(next));
        let c = s.new_obj(HeapValue::Unknown { ty: "L".into() });
        s.preds.add_may_equal(c, next);
        s.preds.add_may_equal(c, x);
        let eq = identify(&s, c, next, &FlatTypes).expect("c may be h.next");
        assert!(!eq.preds.may_equal(next, x), "{:?}", eq.preds.items());
        // where the target may be the partner too, the partner stays
        s.preds.add_may_equal(next, x);
        let eq = identify(&s, c, next, &FlatTypes).expect("c may be h.next");
        assert!(eq.preds.may_equal(next, x), "{:?}", eq.preds.items());
    }
}
