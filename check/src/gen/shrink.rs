//! Shrink candidates of a concrete state, most aggressive first. The generator keeps only those
//! that are still instances of the start state, so a shrink never leaves it.
//!
//! In order: a reference root set to null; a root moved to its object's only successor when that
//! drops objects (the head of a list); an object field set to null (drops a tail, breaks a cycle); a field
//! skipping its target `x.f = y, y.f = z ⇒ x.f = z` (one node fewer in a list or a cycle); an
//! array's last element dropped; an integer replaced by 0, by half of it, and moved one step
//! toward 0. Every candidate is garbage-collected.

use jtg_engine::state::{FieldKey, HeapValue, Interval, Ref, State};

fn done(mut st: State) -> State {
    st.gc();
    st
}

/// The object field `(obj, field, target)` triples of `st`, in heap order.
fn object_fields(st: &State) -> Vec<(Ref, FieldKey, Ref)> {
    let mut v = Vec::new();
    for (r, val) in &st.heap {
        if let HeapValue::Object { fields, .. } = val {
            for (f, c) in fields {
                if c.is_obj() {
                    v.push((*r, f.clone(), *c));
                }
            }
        }
    }
    v
}

fn set_field(st: &mut State, obj: Ref, field: &FieldKey, to: Ref) {
    if let Some(HeapValue::Object { fields, .. }) = st.heap.get_mut(&obj) {
        fields.insert(field.clone(), to);
    }
}

fn field(st: &State, obj: Ref, field: &FieldKey) -> Option<Ref> {
    match st.value(obj) {
        Some(HeapValue::Object { fields, .. }) => fields.get(field).copied(),
        _ => None,
    }
}

pub(super) fn candidates(st: &State) -> Vec<State> {
    let mut out = Vec::new();
    let Some(frame) = st.frames.last() else {
        return out;
    };
    let top = st.frames.len() - 1;
    // Roots.
    for (slot, r) in frame.locals.iter().enumerate() {
        let Some(r) = *r else { continue };
        if !r.is_obj() {
            continue;
        }
        let mut c = st.clone();
        c.frames[top].locals[slot] = Some(Ref::Null);
        out.push(done(c));
        if let Some(HeapValue::Object { fields, .. }) = st.value(r) {
            let objs: Vec<Ref> = fields.values().copied().filter(|x| x.is_obj()).collect();
            if let [next] = objs.as_slice() {
                let mut c = st.clone();
                c.frames[top].locals[slot] = Some(*next);
                let c = done(c);
                // On a cycle the move only rotates the root: no progress, and a shrink loop
                // would go round forever.
                if c.heap.len() < st.heap.len() {
                    out.push(c);
                }
            }
        }
    }
    let fields = object_fields(st);
    for (obj, f, _) in &fields {
        let mut c = st.clone();
        set_field(&mut c, *obj, f, Ref::Null);
        out.push(done(c));
    }
    for (obj, f, y) in &fields {
        if let Some(z) = field(st, *y, f) {
            if z != *y {
                let mut c = st.clone();
                set_field(&mut c, *obj, f, z);
                out.push(done(c));
            }
        }
    }
    // Arrays.
    for (r, v) in &st.heap {
        if let HeapValue::Array {
            ty, elems: Some(e), ..
        } = v
        {
            if e.is_empty() {
                continue;
            }
            let mut c = st.clone();
            let len = c.new_int(Interval::literal(e.len() as i128 - 1));
            c.heap.insert(
                *r,
                HeapValue::array(ty.clone(), len, Some(e[..e.len() - 1].to_vec()), true),
            );
            out.push(done(c));
        }
    }
    // Integers, in place (a shared integer reference keeps being shared).
    for (r, v) in &st.heap {
        let Some(x) = v.as_int().and_then(Interval::as_literal) else {
            continue;
        };
        if x == 0 {
            continue;
        }
        let mut towards = vec![0, x / 2, x - x.signum()];
        towards.dedup();
        for y in towards {
            if y == x {
                continue;
            }
            let mut c = st.clone();
            c.heap.insert(*r, HeapValue::Int(Interval::literal(y)));
            out.push(c);
        }
    }
    out
}
