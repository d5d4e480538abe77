//! A recorded run as the matcher reads it ([`ConcreteRun`]): a [`Trace`] decoded step by step
//! on demand, or a [`Recorded`] run whose steps are all materialised (tests, benchmarks,
//! hand-written runs).

use jtg_jvm::{
    CFrame, CObject, CStatics, CValue, ClassOf, ObjId, Objects, Step, StepView, Trace, TraceEnd,
    UninitObj,
};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A recorded run as the matcher reads it.
pub trait ConcreteRun {
    /// Number of recorded steps.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The state before step `i` (`i < len()`).
    fn step(&self, i: usize) -> Cow<'_, Step>;
    /// Number of frames at step `i`.
    fn depth(&self, i: usize) -> usize {
        self.step(i).frames.len()
    }
    /// Step `i` with only its `k` top frames (all if it has fewer) and a heap that contains
    /// everything reachable from them (cheaper where the run can do that).
    fn top_step(&self, i: usize, k: usize) -> Cow<'_, Step> {
        let s = self.step(i);
        if s.frames.len() <= k {
            return s;
        }
        let mut s = s.into_owned();
        s.frames.truncate(k);
        Cow::Owned(s)
    }
    /// Step `i` with its `k` top frames (`usize::MAX`: all) as the matcher reads it
    /// ([`StepView`]), where the run may build it from `prev`, a view of step `j` it returned
    /// before.
    fn view(&self, i: usize, k: usize, _prev: Option<(usize, &StepView)>) -> StepView {
        let s = if k == usize::MAX {
            self.step(i)
        } else {
            self.top_step(i, k)
        };
        let mut frames = s.frames.clone();
        constructed(&mut frames, &s.uninit);
        StepView {
            frames,
            objects: Objects::from(Arc::clone(&s.heap)),
            statics: if s.statics.is_empty() {
                empty_statics()
            } else {
                Arc::new(s.statics.clone())
            },
            heap_key: None,
        }
    }
    /// [`ConcreteRun::view`] into `v`, which holds a view of step `prev` this run returned
    /// before (if `Some`), refilled in place where the run can (its vectors reused).
    fn view_into(&self, i: usize, k: usize, prev: Option<usize>, v: &mut StepView) {
        let new = self.view(i, k, prev.map(|j| (j, &*v)));
        *v = new;
    }
    /// The executing frame of step `i`, decoded into `scratch` where the run must decode it
    /// (then its room is reused).
    fn top_frame_in<'a>(&'a self, i: usize, scratch: &'a mut Vec<CFrame>) -> &'a CFrame {
        scratch.clear();
        scratch.push(self.top_frame(i).into_owned());
        &scratch[0]
    }
    /// Where step `i` executes, as a method number (of this run) and pc, if the run knows
    /// that without decoding the frame.
    fn site(&self, _i: usize) -> Option<(u32, u32)> {
        None
    }
    /// Only the executing frame of step `i` (cheaper where the run can do that).
    fn top_frame(&self, i: usize) -> Cow<'_, CFrame> {
        match self.step(i) {
            Cow::Borrowed(s) => Cow::Borrowed(&s.frames[0]),
            Cow::Owned(s) => Cow::Owned(s.frames.into_iter().next().unwrap_or_else(empty_frame)),
        }
    }
    /// The runtime type (internal name, `[I` for an `int[]`) of object `id` in the heap of step
    /// `i`, `None` if that heap has no such object. Only asked of objects a witness of step `i`
    /// bound (reachable from its frames or static fields).
    fn runtime_type(&self, i: usize, id: ObjId) -> Option<String> {
        self.step(i).heap.get(&id).map(runtime_type)
    }
    fn end(&self) -> &TraceEnd;
}

/// Replaces every object under construction that a constructor frame above has already
/// initialised (`super()` returned there, [`UninitObj::init`]) by that object: it is one JVM
/// object with an identity, which the frames below still hold under the verifier's
/// uninitialized type. The check then walks it like any other object (its fields, and the
/// integers below them), instead of accepting it unseen.
pub(crate) fn constructed(frames: &mut [CFrame], uninit: &BTreeMap<u32, UninitObj>) {
    for f in frames {
        for v in f.locals.iter_mut().chain(f.stack.iter_mut()) {
            if let CValue::Uninit(n) = *v {
                if let Some(id) = uninit.get(&n).and_then(|o| o.init) {
                    *v = CValue::Ref(id);
                }
            }
        }
    }
}

/// One empty map of static fields for all views: no allocation per view.
fn empty_statics() -> Arc<CStatics> {
    static NONE: std::sync::OnceLock<Arc<CStatics>> = std::sync::OnceLock::new();
    Arc::clone(NONE.get_or_init(Arc::default))
}

fn empty_frame() -> CFrame {
    CFrame {
        class: "".into(),
        method: "".into(),
        desc: "".into(),
        pc: 0,
        locals: vec![],
        stack: vec![],
    }
}

impl ConcreteRun for Trace {
    fn len(&self) -> usize {
        Trace::len(self)
    }
    fn step(&self, i: usize) -> Cow<'_, Step> {
        Cow::Owned(Trace::step(self, i))
    }
    fn top_frame(&self, i: usize) -> Cow<'_, CFrame> {
        Cow::Owned(Trace::top_frame(self, i))
    }
    fn site(&self, i: usize) -> Option<(u32, u32)> {
        Some(Trace::site(self, i))
    }
    fn depth(&self, i: usize) -> usize {
        Trace::depth(self, i)
    }
    fn top_step(&self, i: usize, k: usize) -> Cow<'_, Step> {
        Cow::Owned(Trace::top_step(self, i, k))
    }
    fn view(&self, i: usize, k: usize, prev: Option<(usize, &StepView)>) -> StepView {
        let mut v = match prev {
            Some((_, p)) => p.clone(),
            None => StepView::default(),
        };
        self.view_into(i, k, prev.map(|(j, _)| j), &mut v);
        v
    }
    fn view_into(&self, i: usize, k: usize, prev: Option<usize>, v: &mut StepView) {
        let objs = Trace::view_into(self, i, k, prev, v);
        // objects under construction are rare: only then find which ones have an identity
        if !objs.is_empty() {
            let uninit = (0u32..).zip(objs).collect();
            constructed(&mut v.frames, &uninit);
        }
    }
    fn top_frame_in<'a>(&'a self, i: usize, scratch: &'a mut Vec<CFrame>) -> &'a CFrame {
        // a step has a frame
        let _ = self.top_frames_into(i, 1, scratch);
        &scratch[0]
    }
    fn runtime_type(&self, _i: usize, id: ObjId) -> Option<String> {
        // an object's class never changes, and a bound object is in its step's heap: no step
        // (frames and reachable heap) is materialised for a type test
        Some(match self.class_of(id)? {
            ClassOf::Instance(c) => c.to_string(),
            ClassOf::Array(e) => format!("[{e}"),
            ClassOf::Str => jtg_engine::models::STRING.into(),
        })
    }
    fn end(&self) -> &TraceEnd {
        &self.end
    }
}

/// A run with every step materialised (tests, benchmarks, hand-written runs).
#[derive(Clone, Debug)]
pub struct Recorded {
    pub steps: Vec<Step>,
    pub end: TraceEnd,
}

impl Recorded {
    pub fn of(trace: &Trace) -> Recorded {
        Recorded {
            steps: trace.steps().collect(),
            end: trace.end.clone(),
        }
    }
}

impl ConcreteRun for Recorded {
    fn len(&self) -> usize {
        self.steps.len()
    }
    fn step(&self, i: usize) -> Cow<'_, Step> {
        Cow::Borrowed(&self.steps[i])
    }
    fn view_into(&self, i: usize, k: usize, _prev: Option<usize>, v: &mut StepView) {
        let s = &self.steps[i];
        let frames = &s.frames[..s.frames.len().min(k)];
        // `clone_from` keeps the room of the frames and their vectors
        v.frames.truncate(frames.len());
        let n = v.frames.len();
        for (mine, theirs) in v.frames.iter_mut().zip(frames) {
            mine.clone_from(theirs);
        }
        v.frames.extend_from_slice(&frames[n..]);
        constructed(&mut v.frames, &s.uninit);
        if !v.objects.is_heap(&s.heap) {
            v.objects = Objects::from(Arc::clone(&s.heap));
        }
        v.statics = if s.statics.is_empty() {
            empty_statics()
        } else {
            Arc::new(s.statics.clone())
        };
        v.heap_key = None;
    }
    fn top_frame_in<'a>(&'a self, i: usize, _scratch: &'a mut Vec<CFrame>) -> &'a CFrame {
        &self.steps[i].frames[0]
    }
    fn end(&self) -> &TraceEnd {
        &self.end
    }
}

/// The runtime type of a concrete object as an internal name (`[I` for an `int[]`).
pub(crate) fn runtime_type(o: &CObject) -> String {
    match o {
        CObject::Instance { class, .. } => class.clone(),
        CObject::Array { elem, .. } => format!("[{elem}"),
        CObject::Str { .. } => jtg_engine::models::STRING.into(),
    }
}
