//! The decoded, compact form of a trace: the step index, the replayed heap, the static
//! fields the run knows, and the heap version of every step. Materialises what the
//! [`crate::Trace`] accessors hand out: frames, the heap reachable at a step, every object as
//! of a step.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use rustc_hash::FxHashSet;

use crate::decode::heap::{HeapHist, Write};
use crate::decode::library;
use crate::decode::methods::MethodTable;
use crate::decode::statics::StaticHist;
use crate::decode::steps::StepIndex;
use crate::decode::wire::{
    Layout, OP_GETSTATIC, OP_IASTORE, OP_INVOKESTATIC, OP_PUTFIELD, OP_PUTSTATIC, OP_SASTORE,
};
use crate::error::JvmError;
use crate::step::{CFrame, Objects, UninitObj};
use crate::values::{CHeap, CObject, CStatics, CValue, ClassOf, ObjId, StaticKey};

/// The decoded, compact form of a trace (see [`crate::Trace`]).
#[derive(Clone)]
pub(crate) struct TraceData {
    steps: StepIndex,
    heap: HeapHist,
    /// Every replayed object write, in step order.
    obj_writes: Vec<Write>,
    statics: StaticHist,
    /// Heap version of each step: the number of replayed object writes and changes of known
    /// static fields visible at it. Two steps of one version see every object with the same
    /// values and the same static fields.
    version: Vec<u32>,
    /// Every change, in step order, the write to an object or `None` for a static field:
    /// the changes visible at step `i` are the first `version[i]`.
    changes: Vec<Option<Write>>,
}

impl std::fmt::Debug for TraceData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceData")
            .field("steps", &self.steps.len())
            .field("buffer_ints", &self.steps.buf.len())
            .field("methods", &self.steps.methods.len())
            .field("objects", &self.heap.objs.len())
            .field("written_objects", &self.heap.written_objects())
            .finish()
    }
}

impl TraceData {
    /// Decodes the step buffer `trace` and heap log `heap` of one run over the method table
    /// `methods`; `statics` are the static fields the run's input set before its first step.
    /// `layouts` caches the field keys of the classes the heap records name.
    pub(crate) fn build(
        trace: Vec<i32>,
        heap: &[i32],
        statics: &[(StaticKey, CValue)],
        strings: &[String],
        methods: MethodTable,
        layouts: &mut HashMap<i32, Arc<Layout>>,
    ) -> Result<TraceData, JvmError> {
        let steps = StepIndex::build(trace, methods)?;
        let heap = HeapHist::read_log(heap, strings, layouts)?;
        let mut data = TraceData {
            steps,
            heap,
            obj_writes: Vec::new(),
            statics: StaticHist::default(),
            version: Vec::new(),
            changes: Vec::new(),
        };
        for (k, v) in statics {
            data.statics.set_at_start(k.clone(), *v);
        }
        data.replay()?;
        Ok(data)
    }

    /// Re-applies every putfield / xastore whose instruction completed (the next step is the
    /// fall-through in the same frame) to the write history, and every completed static field
    /// access to the static history.
    fn replay(&mut self) -> Result<(), JvmError> {
        let mut writes: Vec<Write> = Vec::new();
        for i in 0..self.steps.len() {
            let (mid, pc, ..) = self.steps.header(i);
            let Some((op, aux)) = self.steps.meta(mid).op(pc) else {
                continue;
            };
            // added as they come: a library write reads arrays as of its step
            let new = match op {
                OP_PUTFIELD | OP_IASTORE..=OP_SASTORE => {
                    self.heap.store(&self.steps, i, op)?.into_iter().collect()
                }
                OP_GETSTATIC | OP_PUTSTATIC => {
                    self.statics.access(&self.steps, i, op)?;
                    vec![]
                }
                OP_INVOKESTATIC if aux >> 8 != 0 => {
                    library::writes(&self.heap, &self.steps, i, aux >> 8)?
                }
                _ => vec![],
            };
            self.heap.add_writes(&new);
            writes.extend(new);
        }
        // the JDK's changes to its collections (update records; no traced instruction writes
        // those slots, so each slot's history stays in step order), merged in step order (a
        // stable sort keeps each slot's history in the order the steps wrote it)
        let library = std::mem::take(&mut self.heap.library_writes);
        self.heap.add_writes(&library);
        writes.extend(library);
        writes.sort_by_key(|w| w.step);
        self.obj_writes = writes;
        self.statics.finish();
        self.index_versions();
        Ok(())
    }

    pub(crate) fn len(&self) -> usize {
        self.steps.len()
    }

    pub(crate) fn depth(&self, i: usize) -> usize {
        self.steps.depth(i)
    }

    pub(crate) fn site(&self, i: usize) -> (u32, u32) {
        self.steps.site(i)
    }

    pub(crate) fn position(&self, i: usize) -> (&str, &str, u32) {
        self.steps.position(i)
    }

    pub(crate) fn frames(&self, i: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        self.steps.frames(i)
    }

    pub(crate) fn top_frames(&self, i: usize, k: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        self.steps.top_frames(i, k)
    }

    pub(crate) fn top_frames_into(
        &self,
        i: usize,
        k: usize,
        frames: &mut Vec<CFrame>,
    ) -> Vec<UninitObj> {
        self.steps.top_frames_into(i, k, frames)
    }

    /// The objects reachable from `frames` (of step `i`) and the static fields known at step
    /// `i`, as of step `i`.
    pub(crate) fn reachable_heap(&self, i: usize, frames: &[CFrame]) -> CHeap {
        let mut heap = CHeap::new();
        let mut queue: VecDeque<ObjId> = VecDeque::new();
        let push = |v: &CValue, queue: &mut VecDeque<ObjId>| {
            if let CValue::Ref(id) = v {
                queue.push_back(*id);
            }
        };
        for f in frames {
            f.locals
                .iter()
                .chain(&f.stack)
                .for_each(|v| push(v, &mut queue));
        }
        self.statics_at(i)
            .values()
            .for_each(|v| push(v, &mut queue));
        while let Some(id) = queue.pop_front() {
            if heap.contains_key(&id) {
                continue;
            }
            let Some(obj) = self.heap.object_at(id.0, i as u32) else {
                continue;
            };
            match &obj {
                CObject::Instance { fields, .. } => {
                    fields.values().for_each(|v| push(v, &mut queue))
                }
                CObject::Array { elems, .. } => elems.iter().for_each(|v| push(v, &mut queue)),
                CObject::Str { .. } => {}
            }
            heap.insert(id, obj);
        }
        heap
    }

    /// The heap reachable from `frames` (of step `i`) and the known static fields as a part of
    /// `prev`'s, the heap of step `j`: `None` unless the two steps see the same heap version
    /// (so the same static fields) and `prev` holds everything reachable; `prev` itself if
    /// that is all of it.
    pub(crate) fn reachable_in(
        &self,
        i: usize,
        frames: &[CFrame],
        (j, prev): (usize, &Arc<CHeap>),
    ) -> Option<Arc<CHeap>> {
        if self.version.get(i)? != self.version.get(j)? {
            return None;
        }
        let mut seen: FxHashSet<ObjId> = FxHashSet::default();
        let statics = self.statics_at(i);
        let mut todo: Vec<ObjId> = frames
            .iter()
            .flat_map(|f| f.locals.iter().chain(&f.stack))
            .chain(statics.values())
            .filter_map(|v| match v {
                CValue::Ref(id) => Some(*id),
                _ => None,
            })
            .collect();
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            let refs = |v: &CValue| match v {
                CValue::Ref(id) => Some(*id),
                _ => None,
            };
            match prev.get(&id)? {
                CObject::Instance { fields, .. } => todo.extend(fields.values().filter_map(refs)),
                CObject::Array { elems, .. } => todo.extend(elems.iter().filter_map(refs)),
                CObject::Str { .. } => {}
            }
        }
        if seen.len() == prev.len() {
            return Some(Arc::clone(prev));
        }
        Some(Arc::new(
            prev.iter()
                .filter(|(id, _)| seen.contains(id))
                .map(|(id, o)| (*id, o.clone()))
                .collect(),
        ))
    }

    pub(crate) fn class_of(&self, id: ObjId) -> Option<ClassOf<'_>> {
        self.heap.class_of(id.0)
    }

    pub(crate) fn heap_version(&self, i: usize) -> u32 {
        self.version[i]
    }

    /// Every object of the trace, with its values as of step `i` ([`Objects`]), from `prev`
    /// (the objects of step `j`) where that is cheaper: the same objects if no change lies
    /// between, else `prev`'s with the changes in between applied to copies of the written
    /// objects (an array's copy shares its elements: a write costs O(log n)), laid over the
    /// others while the overlay stays small (about the square root of the heap) and folded
    /// into a new base after that. The cost is that of the changes, not of the heap.
    pub(crate) fn objects_after(&self, i: usize, prev: Option<(usize, &Objects)>) -> Objects {
        let v = self.version[i] as usize;
        if let Some((j, p)) = prev {
            let vj = self.version[j] as usize;
            if vj == v {
                return p.clone();
            }
            if vj < v {
                let mut over = (*p.over).clone();
                for w in &self.changes[vj..v] {
                    let Some(w) = w else { continue }; // a static field
                    let id = ObjId(w.id);
                    let o = match over.entry(id) {
                        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
                        std::collections::btree_map::Entry::Vacant(e) => {
                            let Some(o) = p
                                .get(&id)
                                .cloned()
                                .or_else(|| self.heap.object_at(w.id, i as u32))
                            else {
                                continue;
                            };
                            e.insert(o)
                        }
                    };
                    self.heap.apply(o, w);
                }
                let limit = 16 + p.base.len().isqrt();
                if over.len() <= limit {
                    return Objects {
                        base: Arc::clone(&p.base),
                        over: Arc::new(over),
                    };
                }
                let mut base = (*p.base).clone();
                base.extend(over);
                return Objects::from(Arc::new(base));
            }
        }
        let all = self
            .heap
            .objs
            .keys()
            .filter_map(|&id| Some((ObjId(id), self.heap.object_at(id, i as u32)?)))
            .collect::<CHeap>();
        Objects::from(Arc::new(all))
    }

    pub(crate) fn known_heap(&self, i: usize) -> CHeap {
        self.heap
            .objs
            .iter()
            .filter(|(_, r)| r.first as usize <= i)
            .filter_map(|(id, _)| Some((ObjId(*id), self.heap.object_at(*id, i as u32)?)))
            .collect()
    }

    /// Maps every static field as instructions name it, `(class, name)`, to the key `key`
    /// gives it (the declaring class and the name: two names of one field are one key), and
    /// replays the accesses per key again.
    pub(crate) fn resolve_statics(&mut self, key: &dyn Fn(&str, &str) -> StaticKey) {
        self.statics.group(key);
        self.index_versions();
    }

    /// The known static fields at step `i`.
    pub(crate) fn statics_at(&self, i: usize) -> CStatics {
        self.statics.at(i as u32)
    }

    /// [`TraceData::version`] and [`TraceData::changes`] from the object writes and the
    /// changes of the static fields.
    fn index_versions(&mut self) {
        let n = self.len();
        // a write recorded at step k is visible from step k + 1 on
        let mut all: Vec<(u32, Option<Write>)> = self
            .obj_writes
            .iter()
            .map(|w| (w.step + 1, Some(*w)))
            .collect();
        all.extend(self.statics.changes().into_iter().map(|from| (from, None)));
        // stable: within a step, the order does not matter (all are visible from it), but the
        // writes of one object keep their order
        all.sort_by_key(|&(from, _)| from);
        self.version = vec![0; n];
        for &(from, _) in &all {
            if let Some(v) = self.version.get_mut(from as usize) {
                *v += 1;
            }
        }
        for i in 1..n {
            self.version[i] += self.version[i - 1];
        }
        self.changes = all.into_iter().map(|(_, w)| w).collect();
    }
}
