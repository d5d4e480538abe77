//! Concrete traces: the data types handed to the checker. A [`Trace`] is the sequence of
//! states *before* each executed bytecode instruction of the analysed program (all frames of
//! instrumented methods, top first, the static fields the run knows, and the heap reachable
//! from them) plus how the run ended.
//!
//! Memory: a trace keeps the compact recorded buffers and a per-field write history; each
//! [`Step`] (frames + reachable heap as of that step) is materialised on demand by
//! [`Trace::step`], so 10^6-step traces cost tens of bytes per step, not a heap copy each.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use jtg_engine::state::StaticField;
use serde::{Deserialize, Serialize};

use crate::decode::TraceData;

/// Object identity within one trace (assigned by the recorder at first sight; never 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjId(pub u32);

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A concrete JVM value. In locals a long/double occupies one entry followed by `Top` for its
/// second slot; on the operand stack it is a single entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CValue {
    Int(i32),
    Long(i64),
    /// IEEE bits.
    Float(u32),
    /// IEEE bits.
    Double(u64),
    Null,
    Ref(ObjId),
    /// Unusable slot (second half of a long/double, or unset).
    Top,
    /// A reference to an object whose constructor has not run yet (after `new`, `this` before
    /// `super()`). The number identifies the object within one materialised [`Step`] (or one
    /// [`Trace::top_frame`]): equal numbers are one object, different numbers different objects;
    /// [`Step::uninit`] has its class.
    Uninit(u32),
}

/// One frame of an instrumented method.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CFrame {
    /// Internal class name (`java/lang/String` style). Shared by all frames of the method.
    pub class: Arc<str>,
    pub method: Arc<str>,
    pub desc: Arc<str>,
    /// Bytecode offset of the next instruction (for caller frames: the invoke being executed).
    pub pc: u32,
    /// Exactly `max_locals` entries.
    pub locals: Vec<CValue>,
    /// TOP OF STACK FIRST. For caller frames the arguments of the pending call are popped.
    pub stack: Vec<CValue>,
}

impl CFrame {
    /// A frame of no method, without values (room to be filled).
    pub fn empty() -> CFrame {
        static EMPTY: std::sync::OnceLock<Arc<str>> = std::sync::OnceLock::new();
        let e = EMPTY.get_or_init(|| "".into());
        CFrame {
            class: Arc::clone(e),
            method: Arc::clone(e),
            desc: Arc::clone(e),
            pc: 0,
            locals: Vec::new(),
            stack: Vec::new(),
        }
    }
}

impl Clone for CFrame {
    fn clone(&self) -> CFrame {
        CFrame {
            class: Arc::clone(&self.class),
            method: Arc::clone(&self.method),
            desc: Arc::clone(&self.desc),
            pc: self.pc,
            locals: self.locals.clone(),
            stack: self.stack.clone(),
        }
    }

    /// Reuses the vectors of `self` (and its names where they are the same).
    fn clone_from(&mut self, o: &CFrame) {
        for (mine, theirs) in [
            (&mut self.class, &o.class),
            (&mut self.method, &o.method),
            (&mut self.desc, &o.desc),
        ] {
            if !Arc::ptr_eq(mine, theirs) {
                *mine = Arc::clone(theirs);
            }
        }
        self.pc = o.pc;
        self.locals.clone_from(&o.locals);
        self.stack.clone_from(&o.stack);
    }
}

/// A heap object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CObject {
    /// `fields`: instance fields incl. inherited, by name (a field shadowed by a subclass field
    /// of the same name is keyed `DeclaringClass.name`).
    Instance {
        class: String,
        fields: BTreeMap<String, CValue>,
    },
    /// `elem`: element type descriptor (`I`, `LList;`, `[I`, ...).
    Array { elem: String, elems: Vec<CValue> },
    /// A `java.lang.String`, abstracted to its length.
    Str { len: i32 },
}

/// A heap: objects by id.
pub type CHeap = BTreeMap<ObjId, CObject>;

/// The static fields a run knows at a step, by key (declaring class, name; see
/// [`Trace::resolve_statics`]): each one the run has read (`getstatic`) or written
/// (`putstatic`) before, with its value at the step. A field the run has not accessed yet is
/// not known: its value then comes from the class's initialiser (or an earlier run), which
/// the trace does not show.
pub type CStatics = BTreeMap<StaticField, CValue>;

/// Serde of [`CStatics`] as a list of `(class, name, value)` (JSON maps need string keys).
mod statics_serde {
    use super::{CStatics, CValue};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(m: &CStatics, s: S) -> Result<S::Ok, S::Error> {
        let v: Vec<(&str, &str, &CValue)> = m
            .iter()
            .map(|((c, n), v)| (c.as_str(), n.as_str(), v))
            .collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CStatics, D::Error> {
        let v: Vec<(String, String, CValue)> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|(c, n, v)| ((c, n), v)).collect())
    }
}

/// The objects of one step as the checker reads them: every object the step's frames reach,
/// with its values as of the step, and possibly others (unreachable ones, or ones the run
/// creates later: nothing reaches them). Two layers, `over` before `base`, so that the view of
/// a step after a few writes shares every object not written with the view before
/// ([`Trace::view_after`]).
#[derive(Clone, Debug, Default)]
pub struct Objects {
    pub(crate) base: Arc<CHeap>,
    pub(crate) over: Arc<CHeap>,
}

impl Objects {
    pub fn get(&self, id: &ObjId) -> Option<&CObject> {
        self.over.get(id).or_else(|| self.base.get(id))
    }

    pub fn contains_key(&self, id: &ObjId) -> bool {
        self.get(id).is_some()
    }
}

impl From<Arc<CHeap>> for Objects {
    fn from(base: Arc<CHeap>) -> Objects {
        // one empty overlay for all: no allocation per view
        static EMPTY: std::sync::OnceLock<Arc<CHeap>> = std::sync::OnceLock::new();
        Objects {
            base,
            over: Arc::clone(EMPTY.get_or_init(Arc::default)),
        }
    }
}

/// A step as the checker reads it ([`Trace::view_after`]): the frames of [`Step`] and
/// [`Objects`] instead of the reachable heap.
#[derive(Clone, Debug, Default)]
pub struct StepView {
    /// Top (currently executing) frame first.
    pub frames: Vec<CFrame>,
    pub objects: Objects,
    /// The static fields the run knows at the step.
    pub statics: Arc<CStatics>,
    /// Equal keys are equal [`Objects`] and equal [`StepView::statics`] (within one run);
    /// `None` if the run cannot tell.
    pub heap_key: Option<u32>,
}

/// The concrete state before one executed instruction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Top (currently executing) frame first.
    pub frames: Vec<CFrame>,
    /// Objects reachable from the frames' locals and stacks and from the known static fields,
    /// with field values as of this step. Shared: consecutive steps that neither write the
    /// heap nor reach other objects have one heap ([`Trace::step_after`]).
    pub heap: Arc<CHeap>,
    /// The static fields the run knows at this step.
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        with = "statics_serde"
    )]
    pub statics: CStatics,
    /// The objects under construction the frames hold, by their [`CValue::Uninit`] number.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub uninit: BTreeMap<u32, UninitObj>,
}

/// An object under construction in one [`Step`].
///
/// The number is per frame and `new` instruction (the JVM verifier makes all uninitialized
/// values of one `new` in one frame the same object), shared with the frame above when that is
/// the constructor the frame's pending `invokespecial` runs on the object: there the object is
/// `this` before `super()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UninitObj {
    /// What its class is known to be (internal name): the class of its `new`; if the step does
    /// not show the `new` (`this` before `super()` in the lowest frame shown), the class of that
    /// constructor, which the object's class extends or is.
    pub class: String,
    /// The object itself, once a constructor frame above has run `super()` on it: there it is
    /// this [`CValue::Ref`] while the frames below still hold it as uninitialized.
    pub init: Option<ObjId>,
}

/// How a traced run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceEnd {
    /// Normal return; `None` for `void`.
    Returned(Option<CValue>),
    /// An exception escaped the entry method. `obj` is its id if the trace saw the object.
    Threw { class: String, obj: Option<ObjId> },
    /// The step budget was exhausted; the trace holds the first `max_steps` steps.
    Cut { max_steps: u64 },
}

/// A recorded run.
#[derive(Clone, Debug)]
pub struct Trace {
    pub end: TraceEnd,
    pub(crate) data: TraceData,
    /// Number of recorder snapshots the replayed heap was checked against (`verify_replay`).
    pub verified_snapshots: usize,
    /// Wall time of the traced Java call itself, in nanoseconds.
    pub run_nanos: u64,
}

impl Trace {
    /// Number of steps (executed instructions).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The full state before step `i` (frames top first + reachable heap). Panics if `i >= len()`.
    pub fn step(&self, i: usize) -> Step {
        let (frames, uninit) = self.data.frames(i);
        let heap = Arc::new(self.data.reachable_heap(i, &frames));
        Step {
            frames,
            heap,
            statics: self.data.statics_at(i),
            uninit,
        }
    }

    /// [`Trace::step`] (`k = usize::MAX`) or [`Trace::top_step`] of step `i`, equal to it, but
    /// with the heap taken from `prev`, a step materialised from this trace before, where that
    /// is exact: no object was written or first seen between the two steps and everything
    /// reachable from step `i`'s frames is in `prev`'s heap. A loop that only reads the heap
    /// then shares one heap across its iterations (and the checker compares it by pointer).
    pub fn step_after(&self, i: usize, k: usize, prev: (usize, &Step)) -> Step {
        let (frames, uninit) = self.data.top_frames(i, k);
        let heap = self
            .data
            .reachable_in(i, &frames, (prev.0, &prev.1.heap))
            .unwrap_or_else(|| Arc::new(self.data.reachable_heap(i, &frames)));
        Step {
            frames,
            heap,
            statics: self.data.statics_at(i),
            uninit,
        }
    }

    /// Step `i` with its `k` top frames (`usize::MAX`: all) as the checker reads it: the
    /// objects are every object of the trace with its values at step `i`, built from `prev`
    /// (the view of step `j`) where that is cheaper. A loop then costs per step what it
    /// writes, not the size of the heap it reaches; the key is the heap version of the step
    /// (which counts changes of the known static fields too).
    pub fn view_after(&self, i: usize, k: usize, prev: Option<(usize, &StepView)>) -> StepView {
        let (frames, _) = self.data.top_frames(i, k);
        let objects = self
            .data
            .objects_after(i, prev.map(|(j, v)| (j, &v.objects)));
        let version = self.data.heap_version(i);
        let statics = match prev {
            Some((j, v)) if self.data.heap_version(j) == version => Arc::clone(&v.statics),
            _ => Arc::new(self.data.statics_at(i)),
        };
        StepView {
            frames,
            objects,
            statics,
            heap_key: Some(version),
        }
    }

    /// [`Trace::view_after`] into `v`, which holds the view of step `prev` (if `Some`) and
    /// is refilled in place (its frames' vectors reused). Returns the objects under
    /// construction its frames hold, by their [`CValue::Uninit`] number (empty, without an
    /// allocation, when there are none).
    pub fn view_into(
        &self,
        i: usize,
        k: usize,
        prev: Option<usize>,
        v: &mut StepView,
    ) -> Vec<UninitObj> {
        let objs = self.data.top_frames_into(i, k, &mut v.frames);
        let version = self.data.heap_version(i);
        match prev {
            // the same objects and static fields as the view of step `j`
            Some(j) if self.data.heap_version(j) == version => {}
            _ => {
                let objects = self.data.objects_after(i, prev.map(|j| (j, &v.objects)));
                v.objects = objects;
                v.statics = Arc::new(self.data.statics_at(i));
            }
        }
        v.heap_key = Some(version);
        objs
    }

    /// Keys the static fields by `key(class, name)` of the class and name an instruction
    /// names: the program's field resolution (`Program::static_key`, the declaring class), so
    /// that the fields are keyed as the engine's states key them. Until then a field is keyed
    /// by the names of the instructions that access it.
    pub fn resolve_statics(&mut self, key: &dyn Fn(&str, &str) -> StaticField) {
        self.data.resolve_statics(key);
    }

    /// The static fields the run knows at step `i` (`i <= len()`; at `len()` after the last
    /// step: as at the last step, which cannot complete an access of its own).
    pub fn statics_at(&self, i: usize) -> CStatics {
        self.data.statics_at(i)
    }

    /// The state before step `i` restricted to its `k` top frames (all of them if it has
    /// fewer) and the heap reachable from those: what an abstracted call compares, at a cost
    /// independent of the frames below. Panics if `i >= len()`.
    pub fn top_step(&self, i: usize, k: usize) -> Step {
        let (frames, uninit) = self.data.top_frames(i, k);
        let heap = Arc::new(self.data.reachable_heap(i, &frames));
        Step {
            frames,
            heap,
            statics: self.data.statics_at(i),
            uninit,
        }
    }

    /// All steps, materialised one at a time (each from the one before, [`Trace::step_after`]).
    pub fn steps(&self) -> impl Iterator<Item = Step> + '_ {
        let mut prev: Option<Step> = None;
        (0..self.len()).map(move |i| {
            let s = match &prev {
                Some(p) => self.step_after(i, usize::MAX, (i - 1, p)),
                None => self.step(i),
            };
            prev = Some(s.clone());
            s
        })
    }

    /// Only the executing frame of step `i` (cheaper than [`Trace::step`]). Its
    /// [`CValue::Uninit`] numbers are its own, not those of [`Trace::step`].
    pub fn top_frame(&self, i: usize) -> CFrame {
        self.data
            .top_frames(i, 1)
            .0
            .pop()
            .expect("a step has a frame")
    }

    /// Number of instrumented frames at step `i` (1 = the entry method).
    pub fn depth(&self, i: usize) -> usize {
        self.data.depth(i)
    }

    /// `(class, method, pc)` of the executing frame at step `i`, without decoding values.
    pub fn position(&self, i: usize) -> (&str, &str, u32) {
        self.data.position(i)
    }

    /// Where step `i` executes: a number of its method (the same for all steps of a method
    /// in this trace) and the pc, without decoding anything.
    pub fn site(&self, i: usize) -> (u32, u32) {
        self.data.site(i)
    }

    /// The heap reachable from the frames of step `i`, as of step `i`.
    pub fn heap_at(&self, i: usize) -> CHeap {
        let (frames, _) = self.data.frames(i);
        self.data.reachable_heap(i, &frames)
    }

    /// Every object the recorder had seen by step `i` (reachable or not), as of step `i`.
    pub fn known_heap_at(&self, i: usize) -> CHeap {
        self.data.known_heap(i)
    }
}
