//! Concrete traces: a [`Trace`] is the sequence of states *before* each executed bytecode
//! instruction of the analysed program (all frames of instrumented methods, top first, the
//! static fields the run knows, and the heap reachable from them) plus how the run ended.
//!
//! Memory: a trace keeps the compact recorded buffers and a per-field write history; each
//! [`Step`] (frames + reachable heap as of that step) is materialised on demand by
//! [`Trace::step`], so 10^6-step traces cost tens of bytes per step, not a heap copy each.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::decode::TraceData;
use crate::step::{CFrame, Step, StepView, UninitObj};
use crate::values::{CHeap, CStatics, CValue, ClassOf, ObjId, StaticKey};

/// How a traced run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TraceEnd {
    /// Normal return; `None` for `void`.
    Returned(Option<CValue>),
    /// An exception escaped the entry method. `obj` is its id if the trace saw the object.
    Threw { class: String, obj: Option<ObjId> },
    /// A budget of the run was exhausted; the trace holds the steps before.
    Cut { budget: Budget },
}

/// The budgets that cut a run ([`crate::TraceOptions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Budget {
    /// The step budget `max_steps`: the trace holds the first `max_steps` steps.
    Steps(u64),
    /// The recording budget `max_heap`: the next step would have seen an object past it.
    Heap(u64),
}

impl std::fmt::Display for Budget {
    /// How the cut reads after "cut": `after 100000 steps`, `by the recording budget of …`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Steps(n) => write!(f, "after {n} steps"),
            Budget::Heap(n) => write!(f, "by the recording budget of {n} heap values"),
        }
    }
}

/// Classes of the errors by which the JVM ends a run at one of its own limits: its stack, its
/// heap (`-Xmx`) or the largest array it can allocate.
const JVM_LIMITS: [&str; 2] = ["java/lang/StackOverflowError", "java/lang/OutOfMemoryError"];

impl TraceEnd {
    /// Whether a budget of the run cut it ([`TraceEnd::Cut`]).
    pub fn is_cut(&self) -> bool {
        matches!(self, TraceEnd::Cut { .. })
    }

    /// Whether the JVM ended the run at one of its own limits (a `StackOverflowError` or an
    /// `OutOfMemoryError` escaped the method): a resource limit of the machine the run was on,
    /// not a behaviour of the program on unbounded resources.
    pub fn hit_jvm_limit(&self) -> bool {
        matches!(self, TraceEnd::Threw { class, .. } if JVM_LIMITS.contains(&class.as_str()))
    }
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
    pub fn resolve_statics(&mut self, key: &dyn Fn(&str, &str) -> StaticKey) {
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

    /// The `k` top frames of step `i` (all of them if it has fewer), top first, into `frames`
    /// (their vectors refilled in place). Returns the objects under construction they hold,
    /// by their [`CValue::Uninit`] number (empty, without an allocation, when there are none).
    pub fn top_frames_into(&self, i: usize, k: usize, frames: &mut Vec<CFrame>) -> Vec<UninitObj> {
        self.data.top_frames_into(i, k, frames)
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

    /// The class of object `id` of the trace, without materialising a step: equal to that of
    /// `step(i).heap[id]` at every step `i` whose frames or static fields reach the object
    /// (an object's class never changes).
    pub fn class_of(&self, id: ObjId) -> Option<ClassOf<'_>> {
        self.data.class_of(id)
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
