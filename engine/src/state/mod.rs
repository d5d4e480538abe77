//! Abstract states `(cs, h, hp)` (spec §2): a call stack of [`Frame`]s, a heap from references to
//! [`HeapValue`]s, heap [`Predicates`], static fields, and — for program ends — the result.
//!
//! A state with an empty call stack is a program end; [`End`] says how the program ended.
//! Reference numbers come from per-state counters that only grow along a path, so names stay
//! stable from a state to its successors (edge labels mention references of both ends).

pub mod access;
mod cycles;
mod field;
pub mod floats;
mod frame;
mod interval;
mod predicates;
mod refs;
mod source_line;
pub mod text;
pub mod types;
mod value;

pub use field::FieldKey;
pub use frame::{Frame, MethodId};
pub use interval::{wrap32, wrap64, IntSemantics, Interval, Width, JAVA_MAX, JAVA_MIN};
pub use predicates::{fmt_fields, FieldSet, MustReach, Predicates};
pub use refs::{Ref, RefSet};
pub use source_line::SourceLine;
pub use value::{array_type_can_narrow, display_type, parse_type, HeapValue};

use std::collections::{BTreeMap, BTreeSet};

/// An integer operation: of an arithmetic edge label `res = a op b` (`ArithOp` of the thesis)
/// and of exact interval arithmetic. The instruction operators are `class::ArithOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    /// `a >> k` for a literal distance `k` (JLS §15.19: `⌊a / 2ᵏ⌋`).
    Shr,
    /// `a >>> k` for a literal distance `k`: `a >> k` for `a ≥ 0`, `(a + 2ʷ) >> k` for a
    /// negative `w`-bit `a` (`k ≥ 1`).
    Ushr,
}

impl IntOp {
    pub fn symbol(self) -> &'static str {
        match self {
            IntOp::Add => "+",
            IntOp::Sub => "-",
            IntOp::Mul => "*",
            IntOp::Div => "/",
            IntOp::Rem => "%",
            IntOp::Neg => "-",
            IntOp::Shr => ">>",
            IntOp::Ushr => ">>>",
        }
    }
}

/// How a program end came about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// The entry method returned (with a value unless `void`).
    Return(Option<Ref>),
    /// An exception escaped the entry method.
    Throw(Ref),
}

/// A static field, `(class, name)`.
pub type StaticField = (String, String);

#[derive(Clone, Debug, Default)]
pub struct State {
    /// Call stack, bottom first; the last frame is the top (executing) frame.
    pub frames: Vec<Frame>,
    pub heap: BTreeMap<Ref, HeapValue>,
    pub preds: Predicates,
    pub statics: BTreeMap<StaticField, Ref>,
    /// Set exactly when `frames` is empty.
    pub end: Option<End>,
    /// The outcome of the next integer comparison, fixed by a state split (printed `T:`/`F:`
    /// as in the thesis figures); consumed by that comparison.
    pub split: Option<Outcome>,
    next_int: u32,
    next_obj: u32,
}

/// What a state split fixed for the instruction it was made for: one of the two outcomes of a
/// comparison or a library call (`T:`/`F:`, as in the thesis figures), or a library call's
/// third outcome (`X:`, its `ClassCastException` where the classes of the elements it
/// compares may differ; `eval::library::collections`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    T,
    F,
    X,
}

impl Outcome {
    pub fn of(b: bool) -> Outcome {
        if b {
            Outcome::T
        } else {
            Outcome::F
        }
    }

    /// The outcome of a two-way split (`None` for [`Outcome::X`]).
    pub fn holds(self) -> Option<bool> {
        match self {
            Outcome::T => Some(true),
            Outcome::F => Some(false),
            Outcome::X => None,
        }
    }

    /// The prefix of the state's first line.
    pub fn tag(self) -> &'static str {
        match self {
            Outcome::T => "T:",
            Outcome::F => "F:",
            Outcome::X => "X:",
        }
    }
}

/// States are equal when everything but the fresh-name counters agrees.
impl PartialEq for State {
    fn eq(&self, o: &State) -> bool {
        self.frames == o.frames
            && self.heap == o.heap
            && self.preds == o.preds
            && self.statics == o.statics
            && self.end == o.end
            && self.split == o.split
    }
}
impl Eq for State {}

impl State {
    /// The two-way outcome a split fixed, if any.
    pub fn decided(&self) -> Option<bool> {
        self.split.and_then(Outcome::holds)
    }

    pub fn top(&self) -> Option<&Frame> {
        self.frames.last()
    }
    pub fn top_mut(&mut self) -> Option<&mut Frame> {
        self.frames.last_mut()
    }
    pub fn is_end(&self) -> bool {
        self.frames.is_empty()
    }

    /// A reference number not used in the heap (counters only grow, and names already taken —
    /// e.g. kept by a merge — are skipped).
    pub fn fresh_int(&mut self) -> Ref {
        loop {
            self.next_int += 1;
            let r = Ref::Int(self.next_int);
            if !self.heap.contains_key(&r) {
                return r;
            }
        }
    }
    pub fn fresh_obj(&mut self) -> Ref {
        loop {
            self.next_obj += 1;
            let r = Ref::Obj(self.next_obj);
            if !self.heap.contains_key(&r) {
                return r;
            }
        }
    }
    /// A fresh integer reference pointing to `v`.
    pub fn new_int(&mut self, v: Interval) -> Ref {
        let r = self.fresh_int();
        self.heap.insert(r, HeapValue::Int(v));
        r
    }
    /// A fresh integral reference of `width` (an `int` or a `long`) pointing to `v`.
    pub fn new_integral(&mut self, width: Width, v: Interval) -> Ref {
        match width {
            Width::Int => self.new_int(v),
            Width::Long => self.new_prim(HeapValue::Long(v)),
        }
    }
    /// A fresh primitive reference (`i<n>`) pointing to `v` (an int, long, float or double).
    pub fn new_prim(&mut self, v: HeapValue) -> Ref {
        debug_assert!(v.is_primitive());
        let r = self.fresh_int();
        self.heap.insert(r, v);
        r
    }
    /// A fresh object reference pointing to `v`.
    pub fn new_obj(&mut self, v: HeapValue) -> Ref {
        let r = self.fresh_obj();
        self.heap.insert(r, v);
        r
    }
    /// Makes the fresh-name counters exceed every reference in the state (after parsing).
    pub fn sync_counters(&mut self) {
        for r in self.all_refs() {
            match r {
                Ref::Int(n) => self.next_int = self.next_int.max(n),
                Ref::Obj(n) => self.next_obj = self.next_obj.max(n),
                Ref::Null => {}
            }
        }
    }
    /// Lets this state continue numbering after `other` (used when a state is rebuilt from parts
    /// of another).
    pub fn inherit_counters(&mut self, other: &State) {
        self.next_int = self.next_int.max(other.next_int);
        self.next_obj = self.next_obj.max(other.next_obj);
    }

    pub fn value(&self, r: Ref) -> Option<&HeapValue> {
        self.heap.get(&r)
    }
    pub fn int(&self, r: Ref) -> Option<&Interval> {
        self.heap.get(&r).and_then(HeapValue::as_int)
    }
    /// The interval of an int-like or long value.
    pub fn integral(&self, r: Ref) -> Option<&Interval> {
        self.heap.get(&r).and_then(HeapValue::as_integral)
    }
    /// Whether `r` holds a category-2 value (long or double).
    pub fn is_wide(&self, r: Ref) -> bool {
        self.heap.get(&r).is_some_and(HeapValue::is_wide)
    }

    /// The root references: locals, stack slots and pending exceptions of all frames, static
    /// fields, and the result of a program end.
    pub fn roots(&self) -> Vec<Ref> {
        let mut v: Vec<Ref> = self.frames.iter().flat_map(|f| f.refs()).collect();
        v.extend(self.statics.values().copied());
        match &self.end {
            Some(End::Return(Some(r))) | Some(End::Throw(r)) => v.push(*r),
            _ => {}
        }
        v
    }

    /// References reachable from the roots through realized fields and array contents.
    pub fn reachable(&self) -> BTreeSet<Ref> {
        self.reachable_from(self.roots())
    }

    /// Whether a join `x %$ y` would permit nothing: one of the two is realized and reaches the
    /// other through realized fields, and neither may be cyclic. What is hidden below a
    /// realized object is what is hidden below its fields' references, so the join could only
    /// let the other's hidden part reach back to it: a cycle, which needs `⟲`.
    pub fn join_is_vacuous(&self, x: Ref, y: Ref) -> bool {
        let below = |a: Ref, b: Ref| {
            matches!(
                self.heap.get(&a),
                Some(HeapValue::Object { .. } | HeapValue::Array { .. })
            ) && self.reachable_from([a]).contains(&b)
        };
        x != y
            && self.preds.cyclic(x).is_none()
            && self.preds.cyclic(y).is_none()
            && (below(x, y) || below(y, x))
    }

    pub fn reachable_from(&self, start: impl IntoIterator<Item = Ref>) -> BTreeSet<Ref> {
        let mut seen = BTreeSet::new();
        self.walk(start, |r| seen.insert(r));
        seen
    }

    /// Visits the non-null references reachable from `start`; `first_visit(r)` records `r` and
    /// says whether it is new (the walk goes on below new ones only).
    fn walk(&self, start: impl IntoIterator<Item = Ref>, mut first_visit: impl FnMut(Ref) -> bool) {
        let mut todo: Vec<Ref> = start.into_iter().collect();
        while let Some(r) = todo.pop() {
            if r.is_null() || !first_visit(r) {
                continue;
            }
            if let Some(v) = self.heap.get(&r) {
                todo.extend(v.children());
            }
        }
    }

    /// Every reference in the state, heap keys and predicate mentions included.
    pub fn all_refs(&self) -> BTreeSet<Ref> {
        let mut s: BTreeSet<Ref> = self.roots().into_iter().collect();
        for (r, v) in &self.heap {
            s.insert(*r);
            s.extend(v.children());
        }
        s.extend(self.preds.refs());
        s.remove(&Ref::Null);
        s
    }

    /// Garbage collection (spec §7.6): drops unreachable references, their heap values and every
    /// predicate mentioning them.
    pub fn gc(&mut self) {
        let mut live = RefSet::new();
        self.walk(self.roots(), |r| live.insert(r));
        self.keep_must_reach_through(&live);
        self.heap.retain(|r, _| live.contains(*r));
        self.preds.retain_refs(|r| live.contains(r));
    }

    /// Before `x` disappears, `a →!F x` is carried on to what the F-path reaches after `x`: its
    /// realized F-successor, or the target of `x →!F b` (the path from `a` runs through `x`).
    /// This keeps `o2 →!{n} o5` when o4 is collected between N and O in Fig. 2.13.
    fn keep_must_reach_through(&mut self, live: &RefSet) {
        loop {
            let dying: Vec<MustReach> = self
                .preds
                .must_reach
                .iter()
                .filter(|m| live.contains(m.from) && !live.contains(m.to))
                .cloned()
                .collect();
            let mut added = false;
            for m in dying {
                let mut next = Vec::new();
                if let Some(HeapValue::Object { fields, .. }) = self.heap.get(&m.to) {
                    let succ: Vec<Ref> = fields
                        .iter()
                        .filter(|(f, _)| m.fields.contains(*f))
                        .map(|(_, r)| *r)
                        .collect();
                    if let [one] = succ.as_slice() {
                        next.push(*one);
                    }
                }
                next.extend(
                    self.preds
                        .must_reach_from(m.to)
                        .into_iter()
                        .filter(|n| n.fields == m.fields)
                        .map(|n| n.to),
                );
                for y in next {
                    let fact = MustReach {
                        from: m.from,
                        fields: m.fields.clone(),
                        to: y,
                    };
                    if y != m.from && y.is_obj() && !self.preds.must_reach.contains(&fact) {
                        self.preds.must_reach.insert(fact);
                        added = true;
                    }
                }
            }
            if !added {
                return;
            }
        }
    }

    /// `s[from/to]` (Def. 2.15): replaces every occurrence of `from` in frames, fields, statics,
    /// the result and the predicates. The heap entry of `from` is removed; the caller provides
    /// the value of `to` if it is new.
    pub fn rename(&mut self, from: Ref, to: Ref) {
        if from == to {
            return;
        }
        for f in &mut self.frames {
            f.rename(from, to);
        }
        for v in self.heap.values_mut() {
            v.rename_children(from, to);
        }
        for v in self.statics.values_mut() {
            if *v == from {
                *v = to;
            }
        }
        match &mut self.end {
            Some(End::Return(Some(r))) | Some(End::Throw(r)) if *r == from => *r = to,
            _ => {}
        }
        self.heap.remove(&from);
        self.preds.rename(from, to);
    }

    /// Checks the well-formedness the rest of the engine relies on: every mentioned reference
    /// has a heap value of its kind, program ends have no frames, and the reverse.
    pub fn validate(&self) -> Result<(), String> {
        // The first problem in reference order, as a check of the sorted `all_refs` would find
        // it, without building that set for every new state.
        let mut keys = RefSet::new();
        let mut first: Option<(Ref, String)> = None;
        let mut problem = |r: Ref, msg: &dyn Fn() -> String| {
            if first.as_ref().is_none_or(|(f, _)| r < *f) {
                first = Some((r, msg()));
            }
        };
        for (&r, v) in &self.heap {
            keys.insert(r);
            match r {
                Ref::Int(_) if !v.is_primitive() => problem(r, &|| {
                    format!("{r} is an integer reference but points to {v}")
                }),
                Ref::Obj(_) if v.is_primitive() => problem(r, &|| {
                    format!("{r} is an object reference but points to {v}")
                }),
                _ => {}
            }
        }
        let mentions = self.roots().into_iter().chain(self.preds.mentions());
        let children = self.heap.values().flat_map(|v| v.children());
        for r in mentions.chain(children) {
            if !r.is_null() && !keys.contains(r) {
                problem(r, &|| format!("{r} has no heap value"));
            }
        }
        if let Some((_, msg)) = first {
            return Err(msg);
        }
        for r in self.heap.keys() {
            if r.is_null() {
                return Err("null cannot have a heap value".into());
            }
        }
        if self.frames.is_empty() != self.end.is_some() {
            return Err("a state is a program end exactly when it has no frames".into());
        }
        Ok(())
    }
}

/// Type questions the state operations need answered (implemented by the class hierarchy).
/// Types are internal class names (`java/lang/String`) or array descriptors (`[I`).
pub trait Subtyping {
    /// `sub ⊑ sup` (reflexive).
    fn is_subtype(&self, sub: &str, sup: &str) -> bool;
    /// The least common supertype of two types (`java/lang/Object` when nothing better exists).
    fn join(&self, a: &str, b: &str) -> String;
}

/// Subtyping with no class hierarchy: every type is a subtype of itself and of
/// `java/lang/Object`. For tests and for states that mention one class only.
pub struct FlatTypes;

impl Subtyping for FlatTypes {
    fn is_subtype(&self, sub: &str, sup: &str) -> bool {
        sub == sup || sup == crate::class::jvms::OBJECT
    }
    fn join(&self, a: &str, b: &str) -> String {
        if a == b {
            a.to_string()
        } else {
            crate::class::jvms::OBJECT.to_string()
        }
    }
}
