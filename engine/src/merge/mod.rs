//! Merging two states at the same program positions into a more general one (spec §7.5).
//!
//! `merge(a, b)` returns a state `c` with `a ⊑ c` and `b ⊑ c` (spec §4). It works in three
//! phases:
//!
//! 1. **Pair table.** Every root position (statics sorted, then frames bottom-up: locals by slot,
//!    stack bottom-up, exception; then the result of a program end) is merged with
//!    [`Merger::node`], which maps a pair `(ref of a, ref of b)` to one reference of `c`. The
//!    same pair reached again (another position, or around a cycle) yields the same reference,
//!    so sharing common to both states survives and cyclic heaps terminate. Realized children
//!    are merged breadth-first after all roots, so shallow positions are realized first.
//! 2. **Names.** A pair `(r, r)` whose value both states agree on and that the merge kept
//!    unchanged keeps the name `r` (so `this` stays `o1` across loop iterations, as in the
//!    thesis figures); every other reference gets a fresh name after both states' counters.
//! 3. **Predicates** (§7.5(3)): `=?` from pairs and carried `=?` (f); `%$` for hidden equalities
//!    (g) and carried joins (h, i); `♦`/`⟲F` carried (j, k) and created for realized sharing and
//!    cycles that `c` does not realize (l, m); must-reach facts that hold in both (n). They are
//!    computed over the access paths of each input, each tagged with the reference of `c` at its
//!    maximal realized prefix.
//!
//! # Finiteness
//!
//! When a reference of one state is already paired with a *different* partner whose merge was
//! realized, the new pair is abstracted (`C(…)`, or `C(?)` if it may be null) instead of being
//! realized again (spec "forcedAbstractions"). So every reference of `a` and of `b` contributes
//! at most one realized object to `c`, which bounds the realized part of `c` by the realized
//! parts of the inputs. Integers stabilize by widening (see [`widen`]).
//!
//! # Widening schedule
//!
//! The graph builder calls `merge` with `widen = false` on the **first** merge at a loop head
//! (the thesis: "at the beginning, the merging process is aimed towards producing the most
//! concrete state") and with `widen = true` on every later merge at that program position.
//! Widening moves every bound that still grows to a threshold or to ±∞, and the realized heap
//! part is bounded by the rule above, so every chain of merges at one position stabilizes:
//! eventually the new state is an instance of the merged one and an instance edge closes the
//! loop (spec §7.7).

mod predicates;
mod widen;

#[cfg(test)]
mod tests;

use predicates::Preds;
pub(crate) use widen::{merge_interval, merge_long_interval};

use crate::state::{
    End, FieldKey, HeapValue, IntSemantics, Interval, Predicates, Ref, State, StaticField,
    Subtyping,
};
use std::collections::{BTreeMap, VecDeque};

/// How aggressively integers are generalized.
#[derive(Clone, Debug, Default)]
pub(crate) struct MergeOptions {
    /// `false`: interval hull. `true`: any bound that moved goes to ±∞, or to a threshold from
    /// `thresholds` (see [`merge_interval`]).
    pub widen: bool,
    /// Constants compared against in the method, for threshold widening; may be empty.
    pub thresholds: Vec<i128>,
    /// Under Java ints, "∞" means the Java int bound: results are clamped to
    /// `[JAVA_MIN, JAVA_MAX]`.
    pub sem: IntSemantics,
}

#[derive(thiserror::Error, Debug)]
pub(crate) enum MergeError {
    #[error("cannot merge states at different program positions: {0}")]
    Incompatible(String),
}

fn incompatible(msg: impl Into<String>) -> MergeError {
    MergeError::Incompatible(msg.into())
}

/// Upper bound on the access paths enumerated per input state. Beyond it the predicates fall
/// back to the most general ones over all references (sound, imprecise); realized heaps of
/// real states are far smaller.
pub(super) const MAX_POSITIONS: usize = 50_000;

/// Generalizes two states at the same program positions: returns C with A ⊑ C and B ⊑ C,
/// garbage-collected.
///
/// With widening, `a` is taken as the older state and `b` as the newer one: bounds of `b` beyond
/// those of `a` are widened.
pub(crate) fn merge(
    a: &State,
    b: &State,
    types: &dyn Subtyping,
    opts: &MergeOptions,
) -> Result<State, MergeError> {
    let slots = root_slots(a, b)?;
    let mut m = Merger {
        a,
        b,
        types,
        opts,
        nodes: Vec::new(),
        table: BTreeMap::new(),
        realized_a: BTreeMap::new(),
        realized_b: BTreeMap::new(),
        queue: VecDeque::new(),
    };
    let mut root_nodes = Vec::with_capacity(slots.len());
    for (slot, ra, rb) in &slots {
        root_nodes.push((slot.clone(), m.node(*ra, *rb)?));
    }
    m.fill()?;
    let names = m.names();
    let mut c = m.materialize(&names, &root_nodes);
    let roots_a: Vec<(Ref, Ref)> = slots
        .iter()
        .zip(&root_nodes)
        .map(|((_, ra, _), (_, n))| (*ra, names[*n]))
        .collect();
    let roots_b: Vec<(Ref, Ref)> = slots
        .iter()
        .zip(&root_nodes)
        .map(|((_, _, rb), (_, n))| (*rb, names[*n]))
        .collect();
    let proj: BTreeMap<Ref, (Ref, Ref)> = m
        .nodes
        .iter()
        .zip(&names)
        .filter(|(_, r)| !r.is_null())
        .map(|(n, r)| (*r, n.pair))
        .collect();
    c.preds = Preds {
        a,
        b,
        c: &c,
        types,
        proj: &proj,
        out: Predicates::default(),
    }
    .build(&roots_a, &roots_b);
    c.gc();
    Ok(c)
}

/// A root position, in the fixed merge order.
#[derive(Clone, Debug)]
enum Slot {
    Static(StaticField),
    Local(usize, usize),
    Stack(usize, usize),
    Exception(usize),
    Result,
}

/// Checks control compatibility (spec §4.2(a)) and lists the root positions both states
/// define, with their references.
fn root_slots(a: &State, b: &State) -> Result<Vec<(Slot, Ref, Ref)>, MergeError> {
    if a.frames.len() != b.frames.len() {
        return Err(incompatible(format!(
            "{} frames vs. {} frames",
            a.frames.len(),
            b.frames.len()
        )));
    }
    if a.split != b.split {
        return Err(incompatible("the states fix different split outcomes"));
    }
    let keys_a: Vec<_> = a.statics.keys().collect();
    let keys_b: Vec<_> = b.statics.keys().collect();
    if keys_a != keys_b {
        return Err(incompatible("the states know different static fields"));
    }
    let mut slots = Vec::new();
    for (key, ra) in &a.statics {
        if let Some(rb) = b.statics.get(key) {
            slots.push((Slot::Static(key.clone()), *ra, *rb));
        }
    }
    for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        if fa.method != fb.method || fa.pc != fb.pc {
            return Err(incompatible(format!(
                "frame {i}: {} {:02} vs. {} {:02}",
                fa.method, fa.pc, fb.method, fb.pc
            )));
        }
        if fa.stack.len() != fb.stack.len() {
            return Err(incompatible(format!(
                "frame {i}: stack heights {} and {}",
                fa.stack.len(),
                fb.stack.len()
            )));
        }
        if fa.exception.is_some() != fb.exception.is_some() {
            return Err(incompatible(format!(
                "frame {i}: only one state has a pending exception"
            )));
        }
        // A slot unset on either side is unset in the merge: the general state then says
        // nothing about it, which every instance satisfies.
        for (slot, (la, lb)) in fa.locals.iter().zip(&fb.locals).enumerate() {
            if let (Some(ra), Some(rb)) = (la, lb) {
                slots.push((Slot::Local(i, slot), *ra, *rb));
            }
        }
        for (k, (ra, rb)) in fa.stack.iter().zip(&fb.stack).enumerate() {
            slots.push((Slot::Stack(i, k), *ra, *rb));
        }
        if let (Some(ra), Some(rb)) = (fa.exception, fb.exception) {
            slots.push((Slot::Exception(i), ra, rb));
        }
    }
    match (&a.end, &b.end) {
        (None, None) | (Some(End::Return(None)), Some(End::Return(None))) => {}
        (Some(End::Return(Some(ra))), Some(End::Return(Some(rb))))
        | (Some(End::Throw(ra)), Some(End::Throw(rb))) => slots.push((Slot::Result, *ra, *rb)),
        _ => return Err(incompatible("different kinds of program end")),
    }
    Ok(slots)
}

/// The shape of a merged value; children are filled in breadth-first.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Null,
    Int(Interval),
    Long(Interval),
    Float,
    Double,
    Unknown(String),
    Abstract(String),
    /// Children: one per field, in name order.
    Object {
        class: String,
        fields: Vec<FieldKey>,
    },
    /// Children: the length, then the elements if `concrete`.
    Array {
        ty: String,
        concrete: bool,
        exact: bool,
    },
}

impl Shape {
    fn realized(&self) -> bool {
        matches!(self, Shape::Object { .. } | Shape::Array { .. })
    }
}

struct PairNode {
    pair: (Ref, Ref),
    shape: Shape,
    children: Vec<usize>,
}

struct Merger<'a> {
    a: &'a State,
    b: &'a State,
    types: &'a dyn Subtyping,
    opts: &'a MergeOptions,
    nodes: Vec<PairNode>,
    /// The pair table `T`.
    table: BTreeMap<(Ref, Ref), usize>,
    /// For the finiteness rule: the partners each reference was realized with.
    realized_a: BTreeMap<Ref, Vec<Ref>>,
    realized_b: BTreeMap<Ref, Vec<Ref>>,
    /// Realized nodes whose children are still to be merged.
    queue: VecDeque<usize>,
}

/// The value of `r` in `s`, or an error naming the ill-formed input.
fn value_of<'s>(s: &'s State, r: Ref, side: &str) -> Result<&'s HeapValue, MergeError> {
    s.value(r)
        .ok_or_else(|| incompatible(format!("{r} has no heap value in state {side}")))
}

impl Merger<'_> {
    /// `T(ra, rb)`, creating the merged reference on first sight (mergeRef, §7.5(2)).
    fn node(&mut self, ra: Ref, rb: Ref) -> Result<usize, MergeError> {
        if let Some(&id) = self.table.get(&(ra, rb)) {
            return Ok(id);
        }
        let shape = self.shape(ra, rb)?;
        let id = self.nodes.len();
        if shape.realized() {
            self.realized_a.entry(ra).or_default().push(rb);
            self.realized_b.entry(rb).or_default().push(ra);
            self.queue.push_back(id);
        }
        self.nodes.push(PairNode {
            pair: (ra, rb),
            shape,
            children: Vec::new(),
        });
        self.table.insert((ra, rb), id);
        Ok(id)
    }

    fn object_type(&self, s: &State, r: Ref, side: &str) -> Result<String, MergeError> {
        value_of(s, r, side)?
            .type_name()
            .map(str::to_string)
            .ok_or_else(|| incompatible(format!("{r} holds an integer in state {side}")))
    }

    fn shape(&self, ra: Ref, rb: Ref) -> Result<Shape, MergeError> {
        let (a, b) = (self.a, self.b);
        match (ra, rb) {
            (Ref::Null, Ref::Null) => Ok(Shape::Null),
            (Ref::Int(_), Ref::Int(_)) => match (value_of(a, ra, "A")?, value_of(b, rb, "B")?) {
                (HeapValue::Int(ia), HeapValue::Int(ib)) => {
                    Ok(Shape::Int(merge_interval(ia, ib, self.opts)))
                }
                (HeapValue::Long(ia), HeapValue::Long(ib)) => {
                    Ok(Shape::Long(merge_long_interval(ia, ib, self.opts)))
                }
                (HeapValue::Float(_), HeapValue::Float(_)) => Ok(Shape::Float),
                (HeapValue::Double(_), HeapValue::Double(_)) => Ok(Shape::Double),
                (va, vb) => Err(incompatible(format!(
                    "one position holds {ra} = {va} in A and {rb} = {vb} in B (different kinds)"
                ))),
            },
            (Ref::Int(_), _) | (_, Ref::Int(_)) => Err(incompatible(format!(
                "one position holds {ra} in A and {rb} in B (integer vs. object)"
            ))),
            (Ref::Null, _) => Ok(Shape::Unknown(self.object_type(b, rb, "B")?)),
            (_, Ref::Null) => Ok(Shape::Unknown(self.object_type(a, ra, "A")?)),
            (Ref::Obj(_), Ref::Obj(_)) => {
                let va = value_of(a, ra, "A")?;
                let vb = value_of(b, rb, "B")?;
                let ty = self.types.join(
                    &self.object_type(a, ra, "A")?,
                    &self.object_type(b, rb, "B")?,
                );
                if !va.exists() || !vb.exists() {
                    return Ok(Shape::Unknown(ty));
                }
                let forced = self
                    .realized_a
                    .get(&ra)
                    .is_some_and(|p| p.iter().any(|&x| x != rb))
                    || self
                        .realized_b
                        .get(&rb)
                        .is_some_and(|p| p.iter().any(|&x| x != ra));
                if forced {
                    return Ok(Shape::Abstract(ty));
                }
                Ok(match (va, vb) {
                    (
                        HeapValue::Object {
                            class: ca,
                            fields: fa,
                        },
                        HeapValue::Object {
                            class: cb,
                            fields: fb,
                        },
                    ) if ca == cb && fa.keys().eq(fb.keys()) => Shape::Object {
                        class: ca.clone(),
                        fields: fa.keys().cloned().collect(),
                    },
                    (
                        HeapValue::Array {
                            ty: ta,
                            len: la,
                            elems: ea,
                            exact: xa,
                        },
                        HeapValue::Array {
                            ty: tb,
                            len: lb,
                            elems: eb,
                            exact: xb,
                        },
                    ) if ta == tb => {
                        let lit = |s: &State, r: Ref| s.int(r).and_then(Interval::as_literal);
                        // Contents stay concrete only where neither state changed them
                        // (the same references): an array the loop writes becomes an
                        // abstract array of its length, or every later access at an index
                        // that is not a literal would refine the index into each element.
                        let concrete = match (ea, eb) {
                            (Some(ea), Some(eb)) => {
                                ea == eb && lit(a, *la).is_some() && lit(a, *la) == lit(b, *lb)
                            }
                            _ => false,
                        };
                        Shape::Array {
                            ty: ta.clone(),
                            concrete,
                            exact: *xa && *xb,
                        }
                    }
                    _ => Shape::Abstract(ty),
                })
            }
        }
    }

    /// Merges the children of realized nodes, breadth-first.
    fn fill(&mut self) -> Result<(), MergeError> {
        while let Some(id) = self.queue.pop_front() {
            let (ra, rb) = self.nodes[id].pair;
            let pairs: Vec<(Ref, Ref)> = match (
                &self.nodes[id].shape,
                value_of(self.a, ra, "A")?,
                value_of(self.b, rb, "B")?,
            ) {
                (
                    Shape::Object { fields, .. },
                    HeapValue::Object { fields: fa, .. },
                    HeapValue::Object { fields: fb, .. },
                ) => fields
                    .iter()
                    .map(|f| match (fa.get(f), fb.get(f)) {
                        (Some(x), Some(y)) => Ok((*x, *y)),
                        _ => Err(incompatible(format!("field {f} missing"))),
                    })
                    .collect::<Result<_, _>>()?,
                (
                    Shape::Array { concrete, .. },
                    HeapValue::Array {
                        len: la, elems: ea, ..
                    },
                    HeapValue::Array {
                        len: lb, elems: eb, ..
                    },
                ) => {
                    let mut v = vec![(*la, *lb)];
                    if let (true, Some(ea), Some(eb)) = (concrete, ea, eb) {
                        v.extend(ea.iter().copied().zip(eb.iter().copied()));
                    }
                    v
                }
                _ => return Err(incompatible("internal: realized shape without value")),
            };
            let mut kids = Vec::with_capacity(pairs.len());
            for (x, y) in pairs {
                kids.push(self.node(x, y)?);
            }
            self.nodes[id].children = kids;
        }
        Ok(())
    }

    /// Whether node `id` keeps the name of its (identical) source references, ignoring
    /// children: both states hold the same value under the same name and the merge did not
    /// change it.
    fn keeps_value(&self, id: usize) -> bool {
        let node = &self.nodes[id];
        let (ra, rb) = node.pair;
        if ra != rb || ra.is_null() {
            return false;
        }
        let (Some(va), Some(vb)) = (self.a.value(ra), self.b.value(rb)) else {
            return false;
        };
        if va != vb {
            return false;
        }
        match (&node.shape, va) {
            (Shape::Int(i), HeapValue::Int(j)) | (Shape::Long(i), HeapValue::Long(j)) => i == j,
            (Shape::Float, HeapValue::Float(_)) | (Shape::Double, HeapValue::Double(_)) => true,
            (Shape::Unknown(t), HeapValue::Unknown { ty }) => t == ty,
            (Shape::Abstract(t), HeapValue::Abstract { ty }) => t == ty,
            (Shape::Object { class, .. }, HeapValue::Object { class: c, .. }) => class == c,
            (
                Shape::Array {
                    ty,
                    concrete,
                    exact,
                },
                HeapValue::Array {
                    ty: t,
                    elems,
                    exact: x,
                    ..
                },
            ) => ty == t && *concrete == elems.is_some() && exact == x,
            _ => false,
        }
    }

    /// The final reference of every node: the source name where it is kept (greatest fixpoint:
    /// a realized value keeps its name only if all its children keep theirs, so that the kept
    /// name denotes literally the same value), otherwise fresh names after both inputs, in
    /// node (= position) order.
    fn names(&self) -> Vec<Ref> {
        let mut keep: Vec<bool> = (0..self.nodes.len()).map(|i| self.keeps_value(i)).collect();
        loop {
            let mut changed = false;
            for (i, n) in self.nodes.iter().enumerate() {
                if keep[i] && n.children.iter().any(|&k| !keep[k]) {
                    keep[i] = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Counters after both inputs and after every kept name, so fresh names never collide.
        let mut counter = State::default();
        for (i, n) in self.nodes.iter().enumerate() {
            if keep[i] {
                counter.heap.insert(n.pair.0, HeapValue::Int(Interval::TOP));
            }
        }
        counter.sync_counters();
        counter.heap.clear();
        counter.inherit_counters(self.a);
        counter.inherit_counters(self.b);
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| match &n.shape {
                Shape::Null => Ref::Null,
                _ if keep[i] => n.pair.0,
                Shape::Int(_) | Shape::Long(_) | Shape::Float | Shape::Double => {
                    counter.fresh_int()
                }
                _ => counter.fresh_obj(),
            })
            .collect()
    }

    /// Builds the merged state without predicates.
    fn materialize(&self, names: &[Ref], roots: &[(Slot, usize)]) -> State {
        let mut c = State::default();
        c.inherit_counters(self.a);
        c.inherit_counters(self.b);
        for (n, &r) in self.nodes.iter().zip(names) {
            let kid = |k: usize| names[n.children[k]];
            let v = match &n.shape {
                Shape::Null => continue,
                Shape::Int(i) => HeapValue::Int(*i),
                Shape::Long(i) => HeapValue::Long(*i),
                Shape::Float => HeapValue::Float(None),
                Shape::Double => HeapValue::Double(None),
                Shape::Unknown(ty) => HeapValue::Unknown { ty: ty.clone() },
                Shape::Abstract(ty) => HeapValue::Abstract { ty: ty.clone() },
                Shape::Object { class, fields } => HeapValue::Object {
                    class: class.clone(),
                    fields: fields
                        .iter()
                        .enumerate()
                        .map(|(k, f)| (f.clone(), kid(k)))
                        .collect(),
                },
                Shape::Array {
                    ty,
                    concrete,
                    exact,
                } => HeapValue::array(
                    ty.clone(),
                    kid(0),
                    concrete.then(|| n.children[1..].iter().map(|&k| names[k]).collect()),
                    *exact,
                ),
            };
            c.heap.insert(r, v);
        }
        c.frames = self
            .a
            .frames
            .iter()
            .zip(&self.b.frames)
            .map(|(fa, fb)| {
                let mut f = fa.clone();
                f.locals = vec![None; fa.locals.len().max(fb.locals.len())];
                f.exception = None;
                f
            })
            .collect();
        c.split = self.a.split;
        for (slot, id) in roots {
            let r = names[*id];
            match slot {
                Slot::Static(key) => {
                    c.statics.insert(key.clone(), r);
                }
                Slot::Local(i, s) => c.frames[*i].locals[*s] = Some(r),
                Slot::Stack(i, k) => c.frames[*i].stack[*k] = r,
                Slot::Exception(i) => c.frames[*i].exception = Some(r),
                Slot::Result => {
                    c.end = Some(match self.a.end {
                        Some(End::Throw(_)) => End::Throw(r),
                        _ => End::Return(Some(r)),
                    })
                }
            }
        }
        if c.end.is_none() && self.a.end.is_some() {
            c.end = Some(End::Return(None));
        }
        c
    }
}
