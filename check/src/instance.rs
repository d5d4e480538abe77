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
//! `run::constructed`: it is walked like any other.) A local
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

mod shapes;
mod walk;
mod witness;

pub use shapes::RegionMemo;
pub use witness::{Condition, Failure, RefMap, StateIndex, Witness};

use jtg_engine::state::{HeapValue, Ref, State, Subtyping};
use jtg_jvm::{CFrame, CStatics, CValue, Objects, TraceEnd};
use std::borrow::Cow;
use walk::Walk;

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
    let mut w = Walk::new(s, idx, c.heap, types, explain, false);
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
    let mut w = Walk::new(s, Cow::Borrowed(idx), c.heap, types, false, true);
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
/// kinds agree and an integer or long lies in its interval; any float is an instance of
/// `float`, and of a literal float only if it has the literal's bits (`-0.0` is no instance of
/// `0.0`; a NaN is an instance of the NaN with its bits: identity, not `==`).
fn primitive_holds(hv: &HeapValue, v: CValue) -> bool {
    match (hv, v) {
        (HeapValue::Int(iv), CValue::Int(x)) => iv.contains(i128::from(x)),
        (HeapValue::Long(iv), CValue::Long(x)) => iv.contains(i128::from(x)),
        (HeapValue::Float(lit), CValue::Float(x)) => lit.is_none_or(|b| b == x),
        (HeapValue::Double(lit), CValue::Double(x)) => lit.is_none_or(|b| b == x),
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
