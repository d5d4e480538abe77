//! What matching one run remembers to avoid repeated work: the step views, heap ids, the
//! shapes already checked per (node, heap); every shortcut is exact.

use crate::instance::{RegionMemo, Witness};
use crate::run::ConcreteRun;
use jtg_engine::graph::NodeId;
use jtg_engine::state::Ref;
use jtg_jvm::{CHeap, CValue, StepView};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use std::sync::Arc;

/// What matching one run remembers to avoid repeated work; every shortcut is exact.
pub(super) struct RunMemo {
    /// Whether failures say why (else they are only failures).
    pub(super) explain: bool,
    /// The view built last: (index, frames kept (`usize::MAX`: all), the view, the id of its
    /// objects). The candidates of a refinement and the targets of a node's edges all read the
    /// same step; the next view is built from it ([`ConcreteRun::view`]).
    pub(super) last: Option<(usize, usize, Rc<StepView>, u32)>,
    /// Ids of unkeyed objects ([`StepView::heap_key`] `None`): equal ids are equal objects. By
    /// pointer first (views that share one heap), then by content against the heaps interned
    /// last.
    pub(super) heap_ids: FxHashMap<*const CHeap, u32>,
    /// One heap per id, by id.
    pub(super) heaps: Vec<Arc<CHeap>>,
    /// Every heap in `heap_ids`, held so that no pointer there is freed and reused.
    pub(super) alive: Vec<Arc<CHeap>>,
    /// (node, heap id, object witnesses) on which the node's heap predicates held: they are a
    /// function of the node, the heap and the object witnesses alone ([`Walked`]), so an equal
    /// triple needs no second check (a loop that does not write the heap meets the same heap
    /// at every iteration, and the same witnesses whenever it walks around a structure).
    pub(super) shapes_held: FxHashSet<HeldShape>,
    /// A spare vector for the object witnesses of a [`HeldShape`] being looked up.
    pub(super) key_buf: Vec<(Ref, CValue)>,
    /// The shape part of `c ⊑ s` ([`walk_shape`] and the heap predicates) by (node, heap id,
    /// values at the positions [`shape_key_into`] reads): its witness, `None` if it failed.
    /// In a loop that does not write the heap it is the same at every iteration; only the
    /// integer positions are then checked per step ([`bind_int_roots`]). Not used when
    /// explaining: a failure's reason comes from the plain walk.
    pub(super) shapes: FxHashMap<ShapeKey, Option<Rc<Witness>>>,
    /// A spare vector for the values of a [`ShapeKey`] being looked up.
    pub(super) shape_buf: Vec<CValue>,
    /// Hidden regions of the heap checked last.
    pub(super) reach: RegionMemo,
    /// Witnesses no longer held, to be refilled ([`RunMemo::recycle`]): a loop then builds
    /// the witness of each step without an allocation.
    pub(super) spare: Vec<Rc<Witness>>,
    /// Label evaluations left out for references the run had not bound.
    pub(super) unbound: usize,
}

/// A node, a heap id and object witnesses on which the node's heap predicates held.
pub(super) type HeldShape = (NodeId, u32, Vec<(Ref, CValue)>);

/// A node, a heap id and the values at the frame positions [`shape_key_into`] reads.
pub(super) type ShapeKey = (NodeId, u32, Vec<CValue>);

/// Past this many held shapes or heaps a run's memo starts over (bounds its memory).
const HELD_IN_ALL: usize = 4096;

/// How many of the heaps interned last a new heap is compared with by content.
const HEAPS_COMPARED: usize = 4;

impl RunMemo {
    pub(super) fn new(explain: bool) -> Self {
        RunMemo {
            explain,
            last: None,
            heap_ids: FxHashMap::default(),
            heaps: Vec::new(),
            alive: Vec::new(),
            shapes_held: FxHashSet::default(),
            key_buf: Vec::new(),
            shapes: FxHashMap::default(),
            shape_buf: Vec::new(),
            reach: RegionMemo::default(),
            spare: Vec::new(),
            unbound: 0,
        }
    }

    /// Keeps `w` for reuse if nothing else holds it.
    pub(super) fn recycle(&mut self, mut w: Rc<Witness>) {
        if self.spare.len() < 16 && Rc::get_mut(&mut w).is_some() {
            self.spare.push(w);
        }
    }

    /// Step `i` of `run` with its `frames` top frames (`usize::MAX`: all), and the id of its
    /// objects.
    pub(super) fn view(
        &mut self,
        run: &dyn ConcreteRun,
        i: usize,
        frames: usize,
    ) -> (Rc<StepView>, u32) {
        if let Some((j, k, v, id)) = &self.last {
            if (*j, *k) == (i, frames) {
                return (Rc::clone(v), *id);
            }
        }
        // the view of the last step is refilled in place when nothing else holds it
        let v = match self.last.take() {
            Some((j, _, mut v, _)) => match Rc::get_mut(&mut v) {
                Some(m) => {
                    run.view_into(i, frames, Some(j), m);
                    v
                }
                None => Rc::new(run.view(i, frames, Some((j, &*v)))),
            },
            None => Rc::new(run.view(i, frames, None)),
        };
        let id = self.heap_id(&v);
        self.last = Some((i, frames, Rc::clone(&v), id));
        (v, id)
    }

    fn heap_id(&mut self, v: &StepView) -> u32 {
        if self.alive.len() >= HELD_IN_ALL
            || self.shapes_held.len() >= HELD_IN_ALL
            || self.shapes.len() >= HELD_IN_ALL
        {
            self.heap_ids.clear();
            self.heaps.clear();
            self.alive.clear();
            self.shapes_held.clear();
            self.shapes.clear();
            // unkeyed ids restart from 0
            self.reach = RegionMemo::default();
        }
        if let Some(key) = v.heap_key {
            return key;
        }
        // an unkeyed view is one heap ([`ConcreteRun::view`]'s default)
        let heap = v.objects.base();
        if let Some(&id) = self.heap_ids.get(&Arc::as_ptr(heap)) {
            return id;
        }
        let n = self.heaps.len();
        let id = (n.saturating_sub(HEAPS_COMPARED)..n)
            .rev()
            .find(|&k| *self.heaps[k] == **heap)
            .unwrap_or_else(|| {
                self.heaps.push(Arc::clone(heap));
                n
            }) as u32;
        self.alive.push(Arc::clone(heap));
        self.heap_ids.insert(Arc::as_ptr(heap), id);
        id
    }
}
