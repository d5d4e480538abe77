//! Steps of a trace as the checker reads them: the frames of the instrumented methods (top
//! first), the objects and the static fields the run knows, and the objects under
//! construction the frames hold.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::values::{statics_serde, CHeap, CObject, CStatics, CValue, ObjId};

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

/// The objects of one step as the checker reads them: every object the step's frames reach,
/// with its values as of the step, and possibly others (unreachable ones, or ones the run
/// creates later: nothing reaches them). Two layers, `over` before `base`, so that the view of
/// a step after a few writes shares every object not written with the view before
/// ([`crate::Trace::view_after`]).
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

    /// The bottom layer: every object, for objects made from one heap ([`From`]).
    pub fn base(&self) -> &Arc<CHeap> {
        &self.base
    }

    /// Whether these are the objects of `heap` itself, without an overlay.
    pub fn is_heap(&self, heap: &Arc<CHeap>) -> bool {
        Arc::ptr_eq(&self.base, heap) && self.over.is_empty()
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

/// A step as the checker reads it ([`crate::Trace::view_after`]): the frames of [`Step`] and
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
    /// heap nor reach other objects have one heap ([`crate::Trace::step_after`]).
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
