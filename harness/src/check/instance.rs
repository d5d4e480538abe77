//! The concrete instance relation `c ⊑ s`: is the concrete JVM state `c` (a trace [`Step`] or a
//! program end) represented by the abstract state `s`?
//!
//! Written independently of the engine's `instance_of` (which compares two *abstract* states by
//! access positions): here the concrete side is a real heap, so every predicate is read directly
//! as a property of that heap. The two are compared by a differential property test; where they
//! disagree, one of them is wrong.
//!
//! # The reading
//!
//! A lock-step walk from the roots (locals and operand stack of every frame, or the result of a
//! program end, and the static fields of `s` that the run knows) binds every reference `r` of
//! `s` it reaches to the concrete value at the same place; the resulting map is the
//! **witness**. For a reference `r` and its concrete value `v`:
//!
//! * **(b) integers**: `r` an integer reference with interval `I`: `v` is an `int` in `I`. The
//!   same integer reference at two places needs equal values (integers have no identity).
//! * **(c) null**: `r = null`: `v` is `null`.
//! * **(d) objects**: `C(?)`: `v` is `null` or an object whose class is a subtype of `C`
//!   (`Program`'s [`Subtyping`]). `C(…)`: an object (not null) of a subtype of `C`. `C(f=r_f,…)`:
//!   an object of **exactly** class `C` having every listed field `f`, whose value is walked
//!   against `r_f`. A string `java.lang.String(count=r)` is the harness's `Str { len }` with
//!   `len` walked against `r`. An array `T(len=r)[…]`: an array whose type is a subtype of `T`,
//!   its length walked against `r`, and, when the elements are known, the same number of
//!   elements walked one by one.
//! * **(e) one reference, one value**: an object reference of `s` reached at two places must
//!   meet the same concrete object (or `null`) at both.
//!
//! Then the heap predicates, on the objects the witness reaches. A concrete edge `(o, f, o')` is
//! **explicit** if `s` shows it: `o` is the witness of a realized `C(…, f=…, …)` whose listed
//! field `f` leads to `o'`. The **hidden region** `D_r` of an object reference `r` with witness
//! object `o` is the part of the concrete heap that `s` does not show below `r`: for `C(?)`,
//! `C(…)` and arrays of unknown contents, everything reachable from `o`; for a realized object,
//! `o` plus what is reachable through fields `s` does not list (none, for the engine's states,
//! which list every field). `H(r)` is the set of objects `D_r` reaches by at least one step.
//!
//! * **(f) distinct objects unless `=?`**: two different references of `s` whose witnesses are
//!   the same object need `r =? r'`.
//! * **(h) disjoint hidden heaps unless `%$`**: two different references `r, r'` whose hidden
//!   parts meet — `H(r) ∩ ({o'} ∪ H(r')) ≠ ∅` or the converse — need `r %$ r'` (this includes
//!   "the object of `r'` is reachable from `r` through hidden fields").
//! * **(j) trees unless `♦`**: `D_r`, explored depth-first from `o`, must consist of tree edges
//!   and back edges only (a depth-first classification does not depend on the visiting order
//!   for this property). A cross or forward edge means two paths from `o` meet without one being
//!   a prefix of the other (DAG sharing); that needs `r♦` or the self-join `r %$ r` (the engine
//!   always adds the two together).
//! * **(k) cycles only as `⟲F` allows**: a back edge (a cycle in `D_r`) needs `r⟲F`, and every
//!   cycle of `D_r` must traverse every field of `F`: for each `f ∈ F`, `D_r` without its
//!   `f`-edges is acyclic. `♦` alone does not admit cycles — otherwise `⟲F` could never restrict
//!   anything, since the engine sets `♦` whenever it sets `⟲`.
//! * **(n) must-reach**: `r →!F r'`: starting at the witness of `r`, following the unique field
//!   of `F` each object has reaches the witness of `r'` (zero steps if they are equal); running
//!   into `null`, an object without an `F` field, or a repeated object fails.
//!
//! Deliberate gaps, all in the direction of accepting: a JVM value the recorder marks
//! *uninitialized* (after `new`, before `super()` has returned in a constructor frame of the
//! object) carries no identity; it is accepted wherever `s` has a (possibly) non-null object
//! and is never walked further. (Once a constructor frame above has run `super()`, the object
//! has its identity there, and the matcher presents the frames below with that object instead,
//! `path::constructed`: it is walked like any other.) A local
//! the recorder marks unusable (`Top`: the verifier's type at a merge point, a dead local the
//! engine may still hold) is not compared: the code cannot read it before overwriting it.
//!
//! Static fields are roots like locals, keyed by declaring class and name as the engine keys
//! them ([`jtg_jvm::CStatics`]). The run knows a static from its first completed
//! `getstatic` or `putstatic` on (the decoder replays them, `decode.rs`); a static of `s` that
//! the run has not accessed yet is not compared. That only weakens the check: its concrete
//! value is whatever the class initialiser (or an earlier run) left there, which the engine
//! does not model before the first access either (it gives the field its most general value
//! there). A static the run knows and `s` does not is not compared either (`s` says nothing
//! about it). A static that code the tracer does not see (a class initialiser run in the
//! middle of the run) overwrites is unknown from the last observation of its old value until
//! a read shows the new one. The `T:`/`F:` flag
//! of a split state constrains the next comparison, not the heap; the matcher checks it through
//! the relation label of the split edge. Objects of JDK classes other than `String` are modelled
//! without fields by the engine; their concrete fields are outside the model and ignored.

use jtg_engine::models;
use jtg_engine::state::{display_type, End, FieldSet, HeapValue, Ref, State, Subtyping};
use jtg_jvm::{static_value, CFrame, CObject, CStatics, CValue, ObjId, Objects, TraceEnd};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

/// The concrete side: frames top first (as the harness records them) and objects that include
/// everything reachable from them ([`Objects`]), or a program end.
#[derive(Clone, Copy, Debug)]
pub struct Concrete<'a> {
    /// Top (executing) frame first; empty for a program end.
    pub frames: &'a [CFrame],
    pub heap: &'a Objects,
    /// The static fields the run knows (for a program end: as at its last step).
    pub statics: &'a CStatics,
    /// `Some` for a program end (never [`TraceEnd::Cut`]).
    pub end: Option<&'a TraceEnd>,
}

/// The spec §4.2 condition a concrete state failed (letters as in the spec and the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// (a) frames, methods, pcs, stack heights, program-end kind.
    Control,
    /// (b) an integer outside its interval, or one integer reference with two values.
    Integer,
    /// (c) `null` expected.
    Null,
    /// (d) class, existence, fields, array shape.
    Object,
    /// (e) one object reference met two different concrete values.
    SameReference,
    /// (f) two references are one object without `=?`.
    Distinct,
    /// (h) hidden heaps share without `%$`.
    Disjoint,
    /// (j) DAG sharing below a reference without `♦`.
    Tree,
    /// (k) a cycle below a reference not allowed by `⟲F`.
    Cycle,
    /// (n) a `→!F` that does not hold.
    MustReach,
}

impl Condition {
    pub fn letter(self) -> char {
        match self {
            Condition::Control => 'a',
            Condition::Integer => 'b',
            Condition::Null => 'c',
            Condition::Object => 'd',
            Condition::SameReference => 'e',
            Condition::Distinct => 'f',
            Condition::Disjoint => 'h',
            Condition::Tree => 'j',
            Condition::Cycle => 'k',
            Condition::MustReach => 'n',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Condition::Control => "control",
            Condition::Integer => "integer",
            Condition::Null => "null",
            Condition::Object => "object",
            Condition::SameReference => "same reference",
            Condition::Distinct => "distinct objects",
            Condition::Disjoint => "disjoint heaps",
            Condition::Tree => "tree",
            Condition::Cycle => "cycle",
            Condition::MustReach => "must-reach",
        }
    }
}

/// The first condition `c ⊑ s` failed, with a one-line reason naming positions and references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub condition: Condition,
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}) {}: {}",
            self.condition.letter(),
            self.condition.name(),
            self.reason
        )
    }
}

impl std::error::Error for Failure {}

/// The witness of `c ⊑ s`: the concrete value of every reference of `s` the walk reached
/// ([`CValue::Int`], [`CValue::Null`], [`CValue::Ref`], or [`CValue::Uninit`] for an object
/// whose constructor has not returned; its number is not compared).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Witness {
    pub map: RefMap,
}

impl Clone for Witness {
    fn clone(&self) -> Witness {
        Witness {
            map: self.map.clone(),
        }
    }

    /// Reuses the room of `self`.
    fn clone_from(&mut self, o: &Witness) {
        self.map.clone_from(&o.map);
    }
}

/// References of `s` to concrete values, dense by reference number (states number their
/// references from 1 and have a few dozen): O(1) lookups and inserts on the walk's hot path.
/// One vector: the integer references `0..ints`, then the object references.
#[derive(Debug, Default)]
pub struct RefMap {
    slots: Vec<Option<CValue>>,
    ints: usize,
}

impl Clone for RefMap {
    fn clone(&self) -> RefMap {
        RefMap {
            slots: self.slots.clone(),
            ints: self.ints,
        }
    }

    /// Reuses the room of `self`.
    fn clone_from(&mut self, o: &RefMap) {
        self.slots.clone_from(&o.slots);
        self.ints = o.ints;
    }
}

impl RefMap {
    fn index(&self, r: Ref) -> Option<usize> {
        match r {
            Ref::Null => None,
            Ref::Int(n) => Some(n as usize).filter(|&n| n < self.ints),
            Ref::Obj(n) => Some(self.ints + n as usize),
        }
    }

    pub fn get(&self, r: &Ref) -> Option<&CValue> {
        self.slots.get(self.index(*r)?)?.as_ref()
    }

    fn insert(&mut self, r: Ref, v: CValue) {
        if let Ref::Int(n) = r {
            if n as usize >= self.ints {
                // room for more integers: the objects move up
                let more = n as usize + 1 - self.ints;
                self.slots
                    .splice(self.ints..self.ints, std::iter::repeat_n(None, more));
                self.ints += more;
            }
        }
        let Some(k) = self.index(r) else { return };
        if self.slots.len() <= k {
            self.slots.resize(k + 1, None);
        }
        self.slots[k] = Some(v);
    }

    /// In reference order.
    pub fn iter(&self) -> impl Iterator<Item = (Ref, &CValue)> + '_ {
        let ints = self.slots[..self.ints].iter().enumerate();
        let ints = ints.filter_map(|(n, v)| Some((Ref::Int(n as u32), v.as_ref()?)));
        ints.chain(self.objects())
    }

    /// The object references, in reference order.
    pub fn objects(&self) -> impl Iterator<Item = (Ref, &CValue)> + '_ {
        let objs = self.slots[self.ints..].iter().enumerate();
        objs.filter_map(|(n, v)| Some((Ref::Obj(n as u32), v.as_ref()?)))
    }
}

/// Equal when they map the same references to the same values, whatever room they have.
impl PartialEq for RefMap {
    fn eq(&self, o: &RefMap) -> bool {
        self.iter().eq(o.iter())
    }
}

impl Eq for RefMap {}

/// The heap values of a state, dense by reference number: what the walk looks up for every
/// reference it meets, without a search of the state's ordered heap. A matcher builds one
/// per node, once.
#[derive(Clone, Debug, Default)]
pub struct StateIndex<'a> {
    ints: Vec<Option<&'a HeapValue>>,
    objs: Vec<Option<&'a HeapValue>>,
}

impl<'a> StateIndex<'a> {
    pub fn of(s: &'a State) -> StateIndex<'a> {
        let mut idx = StateIndex::default();
        for (r, v) in &s.heap {
            let (vec, n) = match *r {
                Ref::Null => continue,
                Ref::Int(n) => (&mut idx.ints, n as usize),
                Ref::Obj(n) => (&mut idx.objs, n as usize),
            };
            if vec.len() <= n {
                vec.resize(n + 1, None);
            }
            vec[n] = Some(v);
        }
        idx
    }

    pub fn value(&self, r: Ref) -> Option<&'a HeapValue> {
        match r {
            Ref::Null => None,
            Ref::Int(n) => self.ints.get(n as usize).copied().flatten(),
            Ref::Obj(n) => self.objs.get(n as usize).copied().flatten(),
        }
    }

    /// An empty [`RefMap`] with room for every reference of the state.
    fn ref_map(&self) -> RefMap {
        RefMap {
            slots: vec![None; self.ints.len() + self.objs.len()],
            ints: self.ints.len(),
        }
    }
}

impl Witness {
    /// The witness binding exactly `pairs` (hand-written runs in tests).
    pub fn of_pairs(pairs: impl IntoIterator<Item = (Ref, CValue)>) -> Witness {
        let mut w = Witness::default();
        for (r, v) in pairs {
            w.map.insert(r, v);
        }
        w
    }

    pub fn get(&self, r: Ref) -> Option<CValue> {
        if r.is_null() {
            return Some(CValue::Null);
        }
        self.map.get(&r).copied()
    }
}

/// Decides `c ⊑ s` (see the module docs for the reading of every condition).
pub fn concrete_instance(
    c: &Concrete<'_>,
    s: &State,
    types: &dyn Subtyping,
) -> Result<Witness, Failure> {
    walk_roots(c, s, types, true)?.finish()
}

/// The first half of `c ⊑ s`: the walk from the roots, conditions (a)–(e), which binds every
/// reference of `s` it reaches. [`Walked::finish`] checks the heap predicates on the result.
/// Without `explain`, a [`Failure`] has the condition but an empty reason (cheaper).
pub fn walk_roots<'a>(
    c: &Concrete<'a>,
    s: &'a State,
    types: &'a dyn Subtyping,
    explain: bool,
) -> Result<Walked<'a>, Failure> {
    walk_indexed(c, s, Cow::Owned(StateIndex::of(s)), types, explain)
}

/// [`walk_roots`] with `idx`, the [`StateIndex`] of `s`.
pub fn walk_indexed<'a>(
    c: &Concrete<'a>,
    s: &'a State,
    idx: Cow<'a, StateIndex<'a>>,
    types: &'a dyn Subtyping,
    explain: bool,
) -> Result<Walked<'a>, Failure> {
    let mut w = Walk {
        s,
        map: idx.ref_map(),
        idx,
        heap: c.heap,
        types,
        path: Vec::new(),
        explicit: FxHashSet::default(),
        objects: SmallVec::new(),
        explain,
        defer_ints: false,
    };
    w.roots(c)?;
    Ok(Walked(w))
}

/// The shape part of `c ⊑ s` for a state with frames: [`walk_indexed`] leaving out the frame
/// positions where `s` has an integer reference, without reasons. What it checks is then a
/// function of `s`, the objects, the statics and [`shape_key_into`]'s values alone, so a
/// caller may keep its result for them; [`bind_int_roots`] adds the positions left out.
///
/// Exact: integers have no identity, so an integer reference is accepted iff every value met
/// for it is one int inside its interval, whatever the order of the visits (a position that
/// could hold anything else makes [`shape_key_into`] refuse).
pub fn walk_shape<'a>(
    c: &Concrete<'a>,
    s: &'a State,
    idx: &'a StateIndex<'a>,
    types: &'a dyn Subtyping,
) -> Result<Walked<'a>, Failure> {
    let mut w = Walk {
        s,
        map: idx.ref_map(),
        idx: Cow::Borrowed(idx),
        heap: c.heap,
        types,
        path: Vec::new(),
        explicit: FxHashSet::default(),
        objects: SmallVec::new(),
        explain: false,
        defer_ints: true,
    };
    w.roots(c)?;
    Ok(Walked(w))
}

/// The values at the frame positions [`walk_shape`] visits (every one where `s` has no
/// integer reference), into `out` (cleared first). Call only after [`frames_control`] held.
/// `false` if a position where `s` has an integer reference holds anything but a primitive
/// (or an unusable local): only the plain walk decides that case (an uninitialized object there
/// is accepted or not depending on the order of the visits).
pub fn shape_key_into(frames: &[CFrame], s: &State, out: &mut Vec<CValue>) -> bool {
    out.clear();
    for (sf, cf) in s.frames.iter().rev().zip(frames) {
        for (slot, r) in sf.locals.iter().enumerate() {
            let Some(r) = r else { continue };
            let v = cf.locals.get(slot).copied().unwrap_or(CValue::Top);
            if !r.is_int() {
                out.push(v);
            } else if !(is_primitive(v) || v == CValue::Top) {
                return false;
            }
        }
        for (r, v) in sf.stack.iter().rev().zip(&cf.stack) {
            if !r.is_int() {
                out.push(*v);
            } else if !is_primitive(*v) {
                return false;
            }
        }
    }
    true
}

/// Ints, longs, floats and doubles: values without identity, so the order in which their
/// positions are compared does not matter.
fn is_primitive(v: CValue) -> bool {
    matches!(
        v,
        CValue::Int(_) | CValue::Long(_) | CValue::Float(_) | CValue::Double(_)
    )
}

/// Whether the run's value `v` is an instance of the primitive heap value `hv` of `s`: the
/// kinds agree and an integer or long lies in its interval; floats are coarse (any float is an
/// instance of `float`).
fn primitive_holds(hv: &HeapValue, v: CValue) -> bool {
    match (hv, v) {
        (HeapValue::Int(iv), CValue::Int(x)) => iv.contains(i128::from(x)),
        (HeapValue::Long(iv), CValue::Long(x)) => iv.contains(i128::from(x)),
        (HeapValue::Float, CValue::Float(_)) => true,
        (HeapValue::Double, CValue::Double(_)) => true,
        _ => false,
    }
}

/// Adds the frame positions [`walk_shape`] left out to its witness `w`: each primitive an
/// instance of its value ([`primitive_holds`]) and equal to any other value of its reference. Only where [`shape_key_into`]
/// returned `true`. The failure has no reason.
pub fn bind_int_roots(
    frames: &[CFrame],
    s: &State,
    idx: &StateIndex<'_>,
    w: &mut Witness,
) -> Result<(), Failure> {
    let fail = || {
        Err(Failure {
            condition: Condition::Integer,
            reason: String::new(),
        })
    };
    let mut one = |r: Ref, v: CValue| -> Result<(), Failure> {
        if let Some(prev) = w.map.get(&r) {
            return if *prev == v { Ok(()) } else { fail() };
        }
        match idx.value(r) {
            Some(hv) if primitive_holds(hv, v) => {
                w.map.insert(r, v);
                Ok(())
            }
            _ => fail(),
        }
    };
    for (sf, cf) in s.frames.iter().rev().zip(frames) {
        for (slot, r) in sf.locals.iter().enumerate() {
            let Some(r) = r else { continue };
            if !r.is_int() {
                continue;
            }
            let v = cf.locals.get(slot).copied().unwrap_or(CValue::Top);
            if v != CValue::Top {
                one(*r, v)?;
            }
        }
        for (r, v) in sf.stack.iter().rev().zip(&cf.stack) {
            if r.is_int() {
                one(*r, *v)?;
            }
        }
    }
    Ok(())
}

/// Condition (a) for a state with frames: `s` is not a program end, and has the run's frames
/// (methods, pcs, stack heights).
pub fn frames_control(frames: &[CFrame], s: &State, explain: bool) -> Result<(), Failure> {
    let fail = |reason: &dyn Fn() -> String| {
        Err(Failure {
            condition: Condition::Control,
            reason: if explain { reason() } else { String::new() },
        })
    };
    if s.is_end() {
        return fail(&|| "s is a program end, the run is still executing".to_string());
    }
    if s.frames.len() != frames.len() {
        return fail(&|| format!("s has {} frames, the run {}", s.frames.len(), frames.len()));
    }
    // both lists are checked top first; the engine keeps frames bottom first
    for (k, (sf, cf)) in s.frames.iter().rev().zip(frames).enumerate() {
        if *sf.method.class != *cf.class
            || *sf.method.name != *cf.method
            || *sf.method.desc != *cf.desc
        {
            return fail(&|| {
                format!(
                    "frame {k}: s is in {}, the run in {}.{}{}",
                    sf.method,
                    cf.class.replace('/', "."),
                    cf.method,
                    cf.desc
                )
            });
        }
        if sf.pc != cf.pc {
            return fail(&|| format!("frame {k}: s is at pc {}, the run at pc {}", sf.pc, cf.pc));
        }
        if sf.exception.is_some() {
            return fail(&|| {
                format!("frame {k}: s has a pending exception, a recorded step never has")
            });
        }
        if sf.stack.len() != cf.stack.len() {
            return fail(&|| {
                format!(
                    "frame {k}: s has {} stack slots, the run {}",
                    sf.stack.len(),
                    cf.stack.len()
                )
            });
        }
    }
    Ok(())
}

/// A walk from the roots that succeeded. The heap predicate conditions (f), (h), (j), (k), (n)
/// that remain are a function of `s`, the concrete heap and [`Walked::object_witnesses`]
/// alone, so a caller that has seen them hold for equal arguments may skip them
/// ([`Walked::witness`]).
pub struct Walked<'a>(Walk<'a>);

impl Walked<'_> {
    /// The witnesses of the object references (and `null` / uninitialized values bound to
    /// them), in reference order.
    pub fn object_witnesses(&self) -> Vec<(Ref, CValue)> {
        let mut out = Vec::new();
        self.object_witnesses_into(&mut out);
        out
    }

    /// [`Walked::object_witnesses`] into `out` (cleared first), reusing its allocation.
    pub fn object_witnesses_into(&self, out: &mut Vec<(Ref, CValue)>) {
        out.clear();
        out.extend(self.0.map.objects().map(|(r, v)| (r, *v)));
    }

    /// Checks the heap predicates: the witness of `c ⊑ s`, or the first condition that failed.
    pub fn finish(self) -> Result<Witness, Failure> {
        self.finish_with(None)
    }

    /// [`Walked::finish`] with hidden regions taken from and added to `memo` (which must be
    /// [`RegionMemo::of`] this heap).
    pub fn finish_with(self, memo: Option<&mut RegionMemo>) -> Result<Witness, Failure> {
        let mut w = self.0;
        w.collect_explicit();
        w.distinct()?;
        w.shapes(memo)?;
        w.must_reach()?;
        Ok(Witness { map: w.map })
    }

    /// The witness without checking the heap predicates: only for a caller that saw them hold
    /// for the same `s`, an equal heap and equal [`Walked::object_witnesses`].
    pub fn witness(self) -> Witness {
        Witness { map: self.0.map }
    }
}

/// The objects of one hidden region `H(r)`.
type Reach = FxHashSet<ObjId>;

/// What is known of the hidden regions of one heap: `H(r)` by the targets of the first edges,
/// and whether a region has a DAG edge / a cycle ([`Walk::classify`]) by its root, first
/// edges, skipped field and mode. A loop that keeps a large structure apart from a few other
/// objects, or walks a cursor along it, then classifies the structure once per heap, not once
/// per step and node.
#[derive(Default)]
pub struct RegionMemo {
    heap: Option<u32>,
    sets: FxHashMap<Vec<ObjId>, Rc<Reach>>,
    shapes: FxHashMap<ShapeKey, (bool, bool)>,
}

/// A region's root, its first edges' targets (sorted, with repetitions: two first edges to
/// one object are a DAG edge), the field skipped and whether DAG edges are wanted.
type ShapeKey = (ObjId, Vec<ObjId>, Option<Box<str>>, bool);

impl RegionMemo {
    /// The memo for the heap with id `heap` (equal ids: equal heaps): emptied if it held
    /// another one's.
    pub fn of(&mut self, heap: u32) -> &mut RegionMemo {
        if self.heap != Some(heap) {
            self.heap = Some(heap);
            self.sets.clear();
            self.shapes.clear();
        }
        self
    }
}

/// The first DAG edge and the first back edge of a region, each as (from, field, to).
type ClassifiedEdges<'a> = (
    Option<(ObjId, EdgeName<'a>, ObjId)>,
    Option<(ObjId, EdgeName<'a>, ObjId)>,
);

/// ` (edge o.f back to p)`, for messages.
fn back_edge(e: Option<(ObjId, EdgeName<'_>, ObjId)>) -> String {
    e.map_or_else(String::new, |(from, f, to)| {
        format!(" (edge {from}{f} back to {to})")
    })
}

/// The name of a concrete edge: a field or an array element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum EdgeName<'a> {
    Field(&'a str),
    Elem(usize),
}

impl fmt::Display for EdgeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdgeName::Field(n) => write!(f, ".{n}"),
            EdgeName::Elem(k) => write!(f, "[{k}]"),
        }
    }
}

/// Where an access path starts.
#[derive(Clone, Copy, Debug)]
enum Root<'a> {
    /// Local `slot` of frame `k` (0 = top).
    Local(usize, usize),
    /// Stack entry `j` (0 = top) of frame `k`.
    Stack(usize, usize),
    Result,
    Thrown,
    /// A static field: declaring class, name.
    Static(&'a str, &'a str),
}

/// One segment of an access path.
#[derive(Clone, Copy, Debug)]
enum Seg<'a> {
    Root(Root<'a>),
    Edge(EdgeName<'a>),
}

/// `sf.C.f`, the name of a static field as a root (as the engine names it).
fn static_name(class: &str, name: &str) -> String {
    format!("sf.{}.{name}", display_type(class))
}

impl fmt::Display for Seg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seg::Root(Root::Local(k, slot)) => write!(f, "lv{k}.{slot}"),
            Seg::Root(Root::Stack(k, j)) => write!(f, "os{k}.{j}"),
            Seg::Root(Root::Result) => f.write_str("result"),
            Seg::Root(Root::Thrown) => f.write_str("thrown"),
            Seg::Root(Root::Static(c, n)) => f.write_str(&static_name(c, n)),
            Seg::Edge(e) => e.fmt(f),
        }
    }
}

/// An edge out of an object: its name and target.
type Edge<'a> = (EdgeName<'a>, ObjId);

/// How much of an object's concrete structure `s` leaves hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hidden {
    /// `C(?)`, `C(…)`, arrays without known elements: all of it.
    All,
    /// A realized object: only fields `s` does not list.
    Unlisted,
}

/// An object's listed fields: name, reference in `s`, concrete value (objects have few).
type SmallFields<'a> = SmallVec<[(&'a str, Ref, CValue); 4]>;

struct Walk<'a> {
    s: &'a State,
    idx: Cow<'a, StateIndex<'a>>,
    heap: &'a Objects,
    types: &'a dyn Subtyping,
    map: RefMap,
    /// The access path being visited, as segments: it is only read in messages, so it is
    /// formatted ([`Walk::path`]) only when a condition fails.
    path: Vec<Seg<'a>>,
    /// Concrete edges `s` shows: (object, field or element index). Only the heap predicates
    /// read them: [`Walked::finish`] collects them ([`Walk::collect_explicit`]).
    explicit: FxHashSet<(ObjId, EdgeName<'a>)>,
    /// Object references bound to objects, with how much of them is hidden.
    objects: SmallVec<[(Ref, ObjId, Hidden); 8]>,
    /// Whether a failure says why ([`Failure::reason`]); a matcher trying candidates only
    /// needs to know which fail, and formats reasons only for a run that gets stuck.
    explain: bool,
    /// Whether frame positions holding an integer reference of `s` are left out (the caller
    /// checks them, [`bind_int_roots`]).
    defer_ints: bool,
}

fn show(v: &CValue) -> String {
    match v {
        CValue::Int(i) => i.to_string(),
        CValue::Long(l) => format!("{l}L"),
        CValue::Float(b) => format!("{}f", f32::from_bits(*b)),
        CValue::Double(b) => format!("{}d", f64::from_bits(*b)),
        CValue::Null => "null".into(),
        CValue::Ref(id) => id.to_string(),
        CValue::Top => "(no value)".into(),
        CValue::Uninit(_) => "(uninitialized object)".into(),
    }
}

/// The class name (internal form) of a concrete object.
fn class_of(o: &CObject) -> Cow<'_, str> {
    match o {
        CObject::Instance { class, .. } => Cow::Borrowed(class),
        CObject::Array { elem, .. } => Cow::Owned(format!("[{elem}")),
        CObject::Str { .. } => Cow::Borrowed(models::STRING),
    }
}

/// Whether the engine represents no field of `class`: a class the JVM always takes from the
/// JDK, other than `String` (matched as a length). The models say which classes those are.
fn fieldless_model(class: &str) -> bool {
    models::is_always_jdk(class) && class != models::STRING
}

/// The object-valued children of a concrete object, with the field name or element index.
fn children(o: &CObject) -> impl Iterator<Item = Edge<'_>> {
    let (fields, elems) = match o {
        CObject::Instance { class, fields } if !fieldless_model(class) => (Some(fields), None),
        CObject::Array { elems, .. } => (None, Some(elems)),
        _ => (None, None),
    };
    let fields = fields.into_iter().flatten().filter_map(|(f, v)| match v {
        CValue::Ref(id) => Some((EdgeName::Field(f.as_str()), *id)),
        _ => None,
    });
    let elems = elems
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(k, v)| match v {
            CValue::Ref(id) => Some((EdgeName::Elem(k), *id)),
            _ => None,
        });
    fields.chain(elems)
}

impl<'a> Walk<'a> {
    fn fail<T, R: Into<String>>(
        &self,
        condition: Condition,
        reason: impl FnOnce() -> R,
    ) -> Result<T, Failure> {
        Err(Failure {
            condition,
            reason: if self.explain {
                reason().into()
            } else {
                String::new()
            },
        })
    }

    fn roots(&mut self, c: &Concrete<'_>) -> Result<(), Failure> {
        self.frame_roots(c)?;
        self.static_roots(c.statics)
    }

    /// The static fields of `s` that the run knows (see the module docs: the others are not
    /// compared).
    fn static_roots(&mut self, statics: &CStatics) -> Result<(), Failure> {
        let s = self.s;
        for (key, r) in &s.statics {
            if let Some(v) = static_value(statics, &key.0, &key.1) {
                self.visit_at(*r, *v, Root::Static(&key.0, &key.1))?;
            }
        }
        Ok(())
    }

    fn frame_roots(&mut self, c: &Concrete<'_>) -> Result<(), Failure> {
        let s = self.s;
        if let Some(end) = c.end {
            let Some(se) = &s.end else {
                return self.fail(Condition::Control, || {
                    format!(
                        "the run ended ({}) but s is at {}",
                        end_text(end),
                        position(s)
                    )
                });
            };
            return match (se, end) {
                (End::Return(None), TraceEnd::Returned(None)) => Ok(()),
                (End::Return(Some(r)), TraceEnd::Returned(Some(v))) => {
                    self.visit_at(*r, *v, Root::Result)
                }
                (End::Throw(r), TraceEnd::Threw { class, obj }) => match obj {
                    Some(id) if self.heap.contains_key(id) => {
                        self.visit_at(*r, CValue::Ref(*id), Root::Thrown)
                    }
                    _ => self.unrecorded_exception(*r, class),
                },
                _ => self.fail(Condition::Control, || {
                    format!("s ends with {}, the run {}", end_kind(se), end_text(end))
                }),
            };
        }
        frames_control(c.frames, s, self.explain)?;
        for (k, (sf, cf)) in s.frames.iter().rev().zip(c.frames).enumerate() {
            for (slot, r) in sf.locals.iter().enumerate() {
                // an unset slot of s accepts anything (the JVM may keep a dead value there)
                let Some(r) = r else { continue };
                if self.defer_ints && r.is_int() {
                    continue;
                }
                let v = cf.locals.get(slot).copied().unwrap_or(CValue::Top);
                if v == CValue::Top {
                    // the verifier's type of the slot is unusable here (a dead local at a
                    // merge point): the code cannot read it before overwriting it
                    continue;
                }
                self.visit_at(*r, v, Root::Local(k, slot))?;
            }
            // engine stack bottom first, harness stack top first
            for (j, (r, v)) in sf.stack.iter().rev().zip(&cf.stack).enumerate() {
                if self.defer_ints && r.is_int() {
                    continue;
                }
                self.visit_at(*r, *v, Root::Stack(k, j))?;
            }
        }
        Ok(())
    }

    /// A thrown exception the recorder never saw as an object: only its class is known.
    fn unrecorded_exception(&mut self, r: Ref, class: &str) -> Result<(), Failure> {
        let ok = match self.s.value(r) {
            Some(HeapValue::Unknown { ty } | HeapValue::Abstract { ty }) => {
                self.types.is_subtype(class, ty)
            }
            Some(HeapValue::Object { class: c, .. }) => c == class,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            self.fail(Condition::Object, || {
                format!(
                    "thrown: s throws {r} = {}, the run threw {}",
                    self.value_text(r),
                    display_type(class)
                )
            })
        }
    }

    fn value_text(&self, r: Ref) -> String {
        self.s
            .value(r)
            .map_or_else(|| "(no value)".into(), |v| v.to_string())
    }

    /// Visits a root: `pos` starts the path.
    fn visit_at(&mut self, r: Ref, v: CValue, pos: Root<'a>) -> Result<(), Failure> {
        // the path is only read in reasons
        if self.explain {
            self.path.clear();
            self.path.push(Seg::Root(pos));
        }
        self.visit(r, v)
    }

    /// Visits a child: `seg` extends the path for the duration of the visit.
    fn visit_child(&mut self, r: Ref, v: CValue, seg: EdgeName<'a>) -> Result<(), Failure> {
        if !self.explain {
            return self.visit(r, v);
        }
        self.path.push(Seg::Edge(seg));
        let res = self.visit(r, v);
        self.path.pop();
        res
    }

    /// The access path being visited, e.g. `lv0.1.next.val` (for messages).
    fn path(&self) -> String {
        self.path.iter().map(ToString::to_string).collect()
    }

    fn visit(&mut self, r: Ref, v: CValue) -> Result<(), Failure> {
        if let Some(prev) = self.map.get(&r).copied() {
            if prev == v || matches!(v, CValue::Uninit(_)) {
                return Ok(());
            }
            if !matches!(prev, CValue::Uninit(_)) {
                let cond = if r.is_int() {
                    Condition::Integer
                } else {
                    Condition::SameReference
                };
                return self.fail(cond, || {
                    format!(
                        "{r} is at {} and {}, which hold {} and {}",
                        self.place(r),
                        self.path(),
                        show(&prev),
                        show(&v)
                    )
                });
            }
            // an object met uninitialized earlier is now seen with its identity
        }
        match r {
            Ref::Null => {
                if v == CValue::Null {
                    Ok(())
                } else {
                    self.fail(Condition::Null, || {
                        format!("{}: s has null, the run {}", self.path(), show(&v))
                    })
                }
            }
            Ref::Int(_) => {
                let Some(hv) = self.idx.value(r).filter(|v| v.is_primitive()) else {
                    return self.fail(Condition::Integer, || {
                        format!("{}: {r} has no primitive value in s", self.path())
                    });
                };
                if primitive_holds(hv, v) {
                    self.bind(r, v);
                    Ok(())
                } else {
                    self.fail(Condition::Integer, || {
                        format!("{}: {r} = {hv} in s, the run has {}", self.path(), show(&v))
                    })
                }
            }
            Ref::Obj(_) => self.visit_object(r, v),
        }
    }

    fn bind(&mut self, r: Ref, v: CValue) {
        self.map.insert(r, v);
    }

    fn concrete(&self, id: ObjId, r: Ref) -> Result<&'a CObject, Failure> {
        let heap: &'a Objects = self.heap;
        match heap.get(&id) {
            Some(o) => Ok(o),
            None => self.fail(Condition::Object, || {
                format!(
                    "{}: {r} meets {id}, which the trace did not record",
                    self.path()
                )
            }),
        }
    }

    fn type_ok(&self, o: &CObject, ty: &str) -> bool {
        self.types.is_subtype(&class_of(o), ty)
    }

    fn visit_object(&mut self, r: Ref, v: CValue) -> Result<(), Failure> {
        let Some(hv) = self.idx.value(r) else {
            return self.fail(Condition::Object, || {
                format!("{}: {r} has no heap value in s", self.path())
            });
        };
        let id = match v {
            CValue::Ref(id) => id,
            CValue::Null if matches!(hv, HeapValue::Unknown { .. }) => {
                self.bind(r, v);
                return Ok(());
            }
            CValue::Uninit(_) => {
                self.bind(r, v);
                return Ok(());
            }
            _ => {
                return self.fail(Condition::Object, || {
                    format!("{}: {r} = {hv} in s, the run has {}", self.path(), show(&v))
                })
            }
        };
        let obj = self.concrete(id, r)?;
        self.bind(r, v);
        match hv {
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float | HeapValue::Double => self
                .fail(Condition::Object, || {
                    format!("{}: {r} is a primitive in s", self.path())
                }),
            HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => {
                if !self.type_ok(obj, ty) {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of class {}",
                            self.path(),
                            display_type(&class_of(obj))
                        )
                    });
                }
                self.objects.push((r, id, Hidden::All));
                Ok(())
            }
            HeapValue::Object { class, fields } => {
                let cclass = class_of(obj);
                if *class != cclass {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of class {}",
                            self.path(),
                            display_type(&cclass)
                        )
                    });
                }
                // every listed field first, then the walk below them
                let mut values = SmallFields::new();
                for (f, rf) in fields {
                    let cv = match obj {
                        CObject::Instance { fields: cf, .. } => cf.get(f.as_str()).copied(),
                        CObject::Str { len } => {
                            (f.as_str() == "count").then_some(CValue::Int(*len))
                        }
                        CObject::Array { .. } => None,
                    };
                    let Some(cv) = cv else {
                        return self.fail(Condition::Object, || {
                            format!("{}: {r} has field {f} in s, {id} has none", self.path())
                        });
                    };
                    values.push((f.as_str(), *rf, cv));
                }
                self.objects.push((r, id, Hidden::Unlisted));
                for &(f, rf, cv) in &values {
                    self.visit_child(rf, cv, EdgeName::Field(f))?;
                }
                Ok(())
            }
            HeapValue::Array {
                ty,
                len,
                elems,
                exact,
            } => {
                let CObject::Array { elems: ce, .. } = obj else {
                    return self.fail(Condition::Object, || {
                        format!("{}: {r} = {hv} in s, {id} is not an array", self.path())
                    });
                };
                // an exact array type (`A[]!`) is the run's array type itself
                let type_ok = if *exact {
                    class_of(obj) == ty.as_str()
                } else {
                    self.type_ok(obj, ty)
                };
                if !type_ok {
                    return self.fail(Condition::Object, || {
                        format!(
                            "{}: {r} = {hv} in s, the run has {id} of type {}",
                            self.path(),
                            display_type(&class_of(obj))
                        )
                    });
                }
                let n = i32::try_from(ce.len()).unwrap_or(i32::MAX);
                self.visit_child(*len, CValue::Int(n), EdgeName::Field("len"))?;
                match elems {
                    None => {
                        self.objects.push((r, id, Hidden::All));
                        Ok(())
                    }
                    Some(es) => {
                        if es.len() != ce.len() {
                            return self.fail(Condition::Object, || {
                                format!(
                                    "{}: {r} has {} elements in s, {id} has {}",
                                    self.path(),
                                    es.len(),
                                    ce.len()
                                )
                            });
                        }
                        self.objects.push((r, id, Hidden::Unlisted));
                        for (k, (re, cv)) in es.iter().zip(ce).enumerate() {
                            self.visit_child(*re, *cv, EdgeName::Elem(k))?;
                        }
                        Ok(())
                    }
                }
            }
        }
    }

    /// The concrete edges `s` shows: the object-valued fields and elements `s` lists, with
    /// an object reference, on the objects of realized references.
    fn collect_explicit(&mut self) {
        let s = self.s;
        for &(r, id, hidden) in &self.objects {
            if hidden != Hidden::Unlisted {
                continue;
            }
            let Some(obj) = self.heap.get(&id) else {
                continue;
            };
            match (s.value(r), obj) {
                (Some(HeapValue::Object { fields, .. }), CObject::Instance { fields: cf, .. }) => {
                    for (f, rf) in fields {
                        if rf.is_obj() && matches!(cf.get(f.as_str()), Some(CValue::Ref(_))) {
                            self.explicit.insert((id, EdgeName::Field(f.as_str())));
                        }
                    }
                }
                (
                    Some(HeapValue::Array {
                        elems: Some(es), ..
                    }),
                    CObject::Array { elems: ce, .. },
                ) => {
                    for (k, (re, cv)) in es.iter().zip(ce).enumerate() {
                        if re.is_obj() && matches!(cv, CValue::Ref(_)) {
                            self.explicit.insert((id, EdgeName::Elem(k)));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// (f): different references of `s` on one object need `=?`.
    fn distinct(&self) -> Result<(), Failure> {
        let mut by_obj: BTreeMap<ObjId, Vec<Ref>> = BTreeMap::new();
        for (r, v) in self.map.objects() {
            if let CValue::Ref(id) = v {
                by_obj.entry(*id).or_default().push(r);
            }
        }
        for (id, refs) in by_obj {
            for (k, a) in refs.iter().enumerate() {
                for b in &refs[k + 1..] {
                    if !self.s.preds.may_equal(*a, *b) {
                        return self.fail(Condition::Distinct, || format!(
                                "{a} (at {}) and {b} (at {}) are both {id}, but s has no {a} =? {b}",
                                self.place(*a),
                                self.place(*b)
                            ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The first access path of `r` in `s` (roots top frame first, then breadth first),
    /// computed only for messages.
    fn place(&self, r: Ref) -> String {
        let s = self.s;
        let mut todo: std::collections::VecDeque<(Ref, String)> = Default::default();
        for (k, f) in s.frames.iter().rev().enumerate() {
            for (slot, l) in f.locals.iter().enumerate() {
                if let Some(l) = l {
                    todo.push_back((*l, format!("lv{k}.{slot}")));
                }
            }
            for (j, x) in f.stack.iter().rev().enumerate() {
                todo.push_back((*x, format!("os{k}.{j}")));
            }
        }
        match &s.end {
            Some(End::Return(Some(x))) => todo.push_back((*x, "result".into())),
            Some(End::Throw(x)) => todo.push_back((*x, "thrown".into())),
            _ => {}
        }
        for ((class, name), x) in &s.statics {
            todo.push_back((*x, static_name(class, name)));
        }
        let mut seen = BTreeSet::new();
        while let Some((x, p)) = todo.pop_front() {
            if x == r {
                return p;
            }
            if !seen.insert(x) {
                continue;
            }
            match s.value(x) {
                Some(HeapValue::Object { fields, .. }) => {
                    for (f, c) in fields {
                        todo.push_back((*c, format!("{p}.{f}")));
                    }
                }
                Some(HeapValue::Array { len, elems, .. }) => {
                    todo.push_back((*len, format!("{p}.len")));
                    for (k, c) in elems.iter().flatten().enumerate() {
                        todo.push_back((*c, format!("{p}[{k}]")));
                    }
                }
                _ => {}
            }
        }
        "?".into()
    }

    /// The first hidden edges out of the witness object of a reference.
    fn hidden_edges(&self, id: ObjId, hidden: Hidden) -> Vec<Edge<'a>> {
        let heap: &'a Objects = self.heap;
        let Some(o) = heap.get(&id) else {
            return vec![];
        };
        children(o)
            .filter(|(f, _)| hidden == Hidden::All || !self.explicit.contains(&(id, *f)))
            .collect()
    }

    /// `H(r)`: objects reachable from the first hidden edges of `id`; from `memo` if it has
    /// the set for this heap and these edges (`H(r)` is a function of the two).
    fn hidden_reach(&self, first: &[Edge<'a>], memo: &mut Option<&mut RegionMemo>) -> Rc<Reach> {
        let mut roots: Vec<ObjId> = first.iter().map(|(_, t)| *t).collect();
        if let Some(m) = memo {
            roots.sort_unstable();
            roots.dedup();
            if let Some(r) = m.sets.get(&roots) {
                return Rc::clone(r);
            }
        }
        let mut seen = Reach::default();
        let mut todo = roots.clone();
        while let Some(o) = todo.pop() {
            if !seen.insert(o) {
                continue;
            }
            if let Some(obj) = self.heap.get(&o) {
                todo.extend(children(obj).map(|(_, t)| t));
            }
        }
        let seen = Rc::new(seen);
        if let Some(m) = memo {
            m.sets.insert(roots, Rc::clone(&seen));
        }
        seen
    }

    /// (h), (j), (k) on the hidden regions. Each walk is done only where a predicate does not
    /// already allow every shape: a loop over a structure that `s` lets share and cycle
    /// freely then costs nothing per step, however large the structure.
    fn shapes(&self, mut memo: Option<&mut RegionMemo>) -> Result<(), Failure> {
        let preds = &self.s.preds;
        let mut seen_refs = BTreeSet::new();
        let regions: Vec<(Ref, ObjId, Vec<Edge<'a>>)> = self
            .objects
            .iter()
            .filter(|(r, ..)| seen_refs.insert(*r))
            .map(|&(r, id, hidden)| (r, id, self.hidden_edges(id, hidden)))
            .collect();
        // (h): `H(r)` only for references in a pair that may not join
        let n = regions.len();
        let mut reach: Vec<Option<Rc<Reach>>> = vec![None; n];
        for k in 0..n {
            for l in k + 1..n {
                if !preds.joins(regions[k].0, regions[l].0) {
                    for m in [k, l] {
                        if reach[m].is_none() {
                            reach[m] = Some(self.hidden_reach(&regions[m].2, &mut memo));
                        }
                    }
                }
            }
        }
        for (k, (a, ida, _)) in regions.iter().enumerate() {
            for (l, (b, idb, _)) in regions.iter().enumerate().skip(k + 1) {
                let (Some(ha), Some(hb)) = (&reach[k], &reach[l]) else {
                    continue;
                };
                if preds.joins(*a, *b) || (ha.is_empty() && hb.is_empty()) {
                    continue;
                }
                let meet =
                    ha.contains(idb) || hb.contains(ida) || ha.iter().any(|o| hb.contains(o));
                if meet {
                    let what = if ha.contains(idb) {
                        format!("{idb} (the object of {b}) is reachable from {a} through fields s does not show")
                    } else if hb.contains(ida) {
                        format!("{ida} (the object of {a}) is reachable from {b} through fields s does not show")
                    } else {
                        let o = ha.iter().filter(|o| hb.contains(o)).min().copied();
                        format!(
                            "{} is reachable from both through fields s does not show",
                            o.map_or_else(String::new, |o| o.to_string())
                        )
                    };
                    return self.fail(Condition::Disjoint, || {
                        format!(
                            "{a} (at {}) and {b} (at {}): {what}, but s has no {a} %$ {b}",
                            self.place(*a),
                            self.place(*b)
                        )
                    });
                }
            }
        }
        // (j), (k)
        for (r, id, first) in &regions {
            if first.is_empty() {
                continue;
            }
            let may_share = preds.is_non_tree(*r) || preds.joins(*r, *r);
            let cyc = preds.cyclic(*r);
            match (may_share, cyc) {
                (true, Some(fields)) if fields.is_empty() => continue, // every shape is allowed
                // only cycles matter, and a cycle without one of `fields` is what fails
                (true, Some(fields)) => {
                    self.cycles_use(*r, *id, first, fields, &mut memo)?;
                    continue;
                }
                _ => {}
            }
            let (dag, cycle) = self.classify_memo(*id, first, None, !may_share, &mut memo);
            if dag && !may_share {
                return self.fail(Condition::Tree, || {
                    let meet = match self.classify(*id, first, None, true).0 {
                        Some((from, f, to)) => format!("two paths meet at {to} (edge {from}{f})"),
                        None => "two paths meet".into(),
                    };
                    format!(
                        "below {r} (at {}, {id}) {meet}, but s has neither {r}♦ nor {r} %$ {r}",
                        self.place(*r)
                    )
                });
            }
            if cycle {
                let Some(fields) = cyc else {
                    return self.fail(Condition::Cycle, || {
                        let edge = back_edge(self.classify(*id, first, None, false).1);
                        format!(
                            "below {r} (at {}, {id}) there is a cycle{edge}, but s has no {r}⟲",
                            self.place(*r)
                        )
                    });
                };
                self.cycles_use(*r, *id, first, fields, &mut memo)?;
            }
        }
        Ok(())
    }

    /// Whether [`Walk::classify`] finds a DAG edge and a cycle, from `memo` where it has them.
    fn classify_memo(
        &self,
        root: ObjId,
        first: &[Edge<'a>],
        skip: Option<&str>,
        want_dag: bool,
        memo: &mut Option<&mut RegionMemo>,
    ) -> (bool, bool) {
        let flags = |(d, c): ClassifiedEdges<'a>| (d.is_some(), c.is_some());
        let Some(m) = memo else {
            return flags(self.classify(root, first, skip, want_dag));
        };
        let mut targets: Vec<ObjId> = first
            .iter()
            .filter(|(f, _)| skip.is_none_or(|sk| *f != EdgeName::Field(sk)))
            .map(|(_, t)| *t)
            .collect();
        targets.sort_unstable();
        let key = (root, targets, skip.map(Box::from), want_dag);
        if let Some(&r) = m.shapes.get(&key) {
            return r;
        }
        let r = flags(self.classify(root, first, skip, want_dag));
        m.shapes.insert(key, r);
        r
    }

    /// Every cycle of the hidden region of `r` traverses every field of `fields`.
    fn cycles_use(
        &self,
        r: Ref,
        id: ObjId,
        first: &[Edge<'a>],
        fields: &FieldSet,
        memo: &mut Option<&mut RegionMemo>,
    ) -> Result<(), Failure> {
        for f in fields {
            if self
                .classify_memo(id, first, Some(f.as_str()), false, memo)
                .1
            {
                return self.fail(Condition::Cycle, || {
                    let edge = back_edge(self.classify(id, first, Some(f.as_str()), false).1);
                    format!(
                        "below {r} (at {}) there is a cycle without field {f}{edge}, but s has {r}⟲{}",
                        self.place(r),
                        jtg_engine::state::fmt_fields(fields)
                    )
                });
            }
        }
        Ok(())
    }

    /// Depth-first classification of the hidden region rooted at `root` (first edges `first`,
    /// then every edge), ignoring edges of field `skip`: the first cross/forward edge (DAG
    /// sharing) and the first back edge (a cycle), each as (from, field, to). Without
    /// `want_dag` it stops at the first cycle (and may miss a DAG edge).
    fn classify(
        &self,
        root: ObjId,
        first: &[Edge<'a>],
        skip: Option<&str>,
        want_dag: bool,
    ) -> ClassifiedEdges<'a> {
        // 0 = unvisited, 1 = on the stack, 2 = done
        let mut state: FxHashMap<ObjId, u8> = FxHashMap::default();
        let mut dag = None;
        let mut cycle = None;
        let heap: &'a Objects = self.heap;
        let kept = |(f, _): &Edge<'a>| skip.is_none_or(|sk| *f != EdgeName::Field(sk));
        // the out-edges of every object on the stack, in one buffer: an entry of `stack` is
        // (object, end of its edges in `edges`, next edge to take)
        let mut edges: Vec<Edge<'a>> = first.iter().copied().filter(kept).collect();
        state.insert(root, 1);
        let mut stack: Vec<(ObjId, usize, usize)> = vec![(root, edges.len(), 0)];
        while let Some(top) = stack.last_mut() {
            let (o, end, k) = *top;
            if k >= end {
                state.insert(o, 2);
                stack.pop();
                if let Some(&(_, below, _)) = stack.last() {
                    edges.truncate(below);
                }
                continue;
            }
            top.2 += 1;
            let (f, t) = edges[k];
            match state.get(&t).copied().unwrap_or(0) {
                0 => {
                    state.insert(t, 1);
                    let start = edges.len();
                    if let Some(obj) = heap.get(&t) {
                        edges.extend(children(obj).filter(kept));
                    }
                    stack.push((t, edges.len(), start));
                }
                1 => {
                    if cycle.is_none() {
                        cycle = Some((o, f, t));
                    }
                }
                _ => {
                    if dag.is_none() {
                        dag = Some((o, f, t));
                    }
                }
            }
            if cycle.is_some() && (dag.is_some() || !want_dag) {
                break;
            }
        }
        (dag, cycle)
    }

    /// (n): every `→!F` of `s` holds on the concrete heap.
    fn must_reach(&self) -> Result<(), Failure> {
        for m in &self.s.preds.must_reach {
            let (Some(from), Some(to)) = (self.get(m.from), self.get(m.to)) else {
                continue; // a reference the walk did not reach (under an uninitialized object)
            };
            if matches!(from, CValue::Uninit(_)) || matches!(to, CValue::Uninit(_)) {
                continue;
            }
            let mut cur = from;
            let mut seen = FxHashSet::default();
            let fields = || jtg_engine::state::fmt_fields(&m.fields);
            loop {
                if cur == to {
                    break;
                }
                let CValue::Ref(id) = cur else {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: following {f} from {} runs into null before {}",
                            m.from,
                            m.to,
                            show(&from),
                            show(&to),
                            f = fields()
                        )
                    });
                };
                if !seen.insert(id) {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: following {f} from {} cycles without meeting {}",
                            m.from,
                            m.to,
                            show(&from),
                            show(&to),
                            f = fields()
                        )
                    });
                }
                let next = match self.heap.get(&id) {
                    Some(CObject::Instance { fields: fs, .. }) => {
                        m.fields.iter().find_map(|f| fs.get(f.as_str()).copied())
                    }
                    _ => None,
                };
                let Some(next) = next else {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: {id} has no field of {f}",
                            m.from,
                            m.to,
                            f = fields()
                        )
                    });
                };
                cur = next;
            }
        }
        Ok(())
    }

    fn get(&self, r: Ref) -> Option<CValue> {
        if r.is_null() {
            Some(CValue::Null)
        } else {
            self.map.get(&r).copied()
        }
    }
}

fn end_kind(e: &End) -> String {
    match e {
        End::Return(None) => "return".into(),
        End::Return(Some(r)) => format!("return {r}"),
        End::Throw(r) => format!("throw {r}"),
    }
}

fn end_text(e: &TraceEnd) -> String {
    match e {
        TraceEnd::Returned(None) => "returned".into(),
        TraceEnd::Returned(Some(v)) => format!("returned {}", show(v)),
        TraceEnd::Threw { class, .. } => format!("threw {}", display_type(class)),
        TraceEnd::Cut { budget } => format!("was cut {budget}"),
    }
}

fn position(s: &State) -> String {
    match s.top() {
        Some(f) => format!("pc {} of {}", f.pc, f.method),
        None => "a program end".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn refs(ops: &[(bool, u8, i32)]) -> Vec<(Ref, CValue)> {
        ops.iter()
            .map(|&(obj, n, v)| {
                let r = if obj {
                    Ref::Obj(u32::from(n % 40))
                } else {
                    Ref::Int(u32::from(n % 40))
                };
                (r, CValue::Int(v))
            })
            .collect()
    }

    quickcheck! {
        /// The dense map behaves like an ordered map, whatever room it starts with.
        fn ref_map_is_an_ordered_map(ops: Vec<(bool, u8, i32)>, ints: u8, objs: u8) -> bool {
            let mut dense = RefMap {
                slots: vec![None; usize::from(ints % 8) + usize::from(objs % 8)],
                ints: usize::from(ints % 8),
            };
            let mut plain = BTreeMap::new();
            for (r, v) in refs(&ops) {
                dense.insert(r, v);
                plain.insert(r, v);
            }
            let mut fresh = RefMap::default();
            for (r, v) in plain.iter().rev() {
                fresh.insert(*r, *v);
            }
            dense.iter().map(|(r, v)| (r, *v)).eq(plain.iter().map(|(r, v)| (*r, *v)))
                && plain.iter().all(|(r, v)| dense.get(r) == Some(v))
                && dense.get(&Ref::Null).is_none()
                && dense.get(&Ref::Int(1000)).is_none()
                && dense.get(&Ref::Obj(1000)).is_none()
                && dense == fresh
                && dense
                    .objects()
                    .map(|(r, v)| (r, *v))
                    .eq(plain.iter().filter(|(r, _)| r.is_obj()).map(|(r, v)| (*r, *v)))
        }
    }
}
