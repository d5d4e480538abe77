//! Path matching: a concrete trace must be a path of graph nodes.
//!
//! From the start node, the concrete state before step `i` must be an instance of the current
//! node ([`concrete_instance`]); then the node's outgoing edges are followed:
//!
//! * refinement, split and instance edges do not execute anything: the same concrete state must
//!   be an instance of one of their targets. All targets are tried, depth first with
//!   backtracking; the edge's labels must hold on that state ([`crate::labels`]): a split's
//!   `i1 < i2` is how its `T:`/`F:` outcome is checked, a refinement's `o1 = null`, `o7 ≠ o6`
//!   or `o1 = o5` which case the run is in;
//! * a step edge (eval, call, return) executes concrete step `i`: the state before step `i + 1`
//!   (or the program end) must be an instance of its target, and its labels must hold —
//!   `res = a op b` with `res` from the target's witness and the operands from the source's,
//!   `a cond b` from the source's ([`crate::labels`]).
//!
//! **Abstracted calls** (recursion, `engine/src/eval/summary.rs`): a call node with a `call`
//! edge labelled `abstract call of M` ([`Label::AbstractCall`]) leads to the entry node of `M`'s method graph, a state of
//! one frame. The callee's instructions, from its first one to the return or exception that
//! leaves its frame, are matched against that method graph comparing only the frames from the
//! callee's frame upwards (the run's frames at the call step are the caller's, below); the path
//! must reach a program end of the method graph, which is compared with how the callee left:
//! `end: return r` with the value the caller got, `end: throw r` with the exception being
//! handled (or escaping the run). Then the run continues in the caller at a target of one of
//! the call node's `return` edges (`return from M`, `C thrown by M`), at the same step. Calls
//! nest: a context records the call node, the caller's frame count and the enclosing context.
//! The call node's `return` edges are only taken that way, never as a step of their own.
//!
//! Every triple (node, step, context) is entered at most once: the witness, and so everything
//! after it, is a function of the triple, so a second visit cannot succeed where the first
//! failed. The search is an explicit stack (traces have up to 10^5 steps).
//!
//! A trace cut by the step budget is checked as a prefix; so is, under unbounded integers, a
//! trace whose run overflowed (up to the overflowing step; the rest is outside the model, see
//! [`first_overflow`]).

use crate::instance::{
    bind_int_roots, concrete_instance, frames_control, shape_key_into, walk_indexed, walk_shape,
    Concrete, Condition, Failure, RegionMemo, StateIndex, Witness,
};
use crate::labels::{Ends, Evaluator, Phase};
use crate::run::ConcreteRun;
use jtg_engine::class::{ArithOp as Op, Insn, Kind};
use jtg_engine::graph::{EdgeKind, Label, NodeId};
use jtg_engine::state::{wrap32, wrap64, IntSemantics, MethodId, Ref, Subtyping};
use jtg_engine::{Graph, Program};
use jtg_jvm::{CFrame, CHeap, CObject, CStatics, CValue, Objects, StepView, TraceEnd};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;

/// One node that did not take the concrete state, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub node: NodeId,
    /// The node the path came from and the kind of the edge, if any.
    pub via: Option<(NodeId, EdgeKind)>,
    pub reason: String,
}

/// Where matching got stuck: the deepest step index that no node took (`len()` = the program
/// end) and every node tried there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    pub step: usize,
    pub candidates: Vec<Candidate>,
}

/// The result of matching one trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Matched {
    /// The run is a path of the graph; `path` is one node per entered (node, step), in order;
    /// `unbound` label evaluations were left out for references the run had not bound
    /// ([`crate::labels`]).
    Path {
        path: Vec<NodeId>,
        checked: usize,
        unbound: usize,
    },
    /// No path of the graph covers the run.
    Stuck(Stuck),
}

/// How far a run is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// Every step and the program end.
    Full,
    /// Steps `0..=last` only (a cut trace, or the part before an overflow).
    Prefix { last: usize },
}

/// What matching one run remembers to avoid repeated work; every shortcut is exact.
struct RunMemo {
    /// Whether failures say why (else they are only failures).
    explain: bool,
    /// The view built last: (index, frames kept (`usize::MAX`: all), the view, the id of its
    /// objects). The candidates of a refinement and the targets of a node's edges all read the
    /// same step; the next view is built from it ([`ConcreteRun::view`]).
    last: Option<(usize, usize, Rc<StepView>, u32)>,
    /// Ids of unkeyed objects ([`StepView::heap_key`] `None`): equal ids are equal objects. By
    /// pointer first (views that share one heap), then by content against the heaps interned
    /// last.
    heap_ids: FxHashMap<*const CHeap, u32>,
    /// One heap per id, by id.
    heaps: Vec<Arc<CHeap>>,
    /// Every heap in `heap_ids`, held so that no pointer there is freed and reused.
    alive: Vec<Arc<CHeap>>,
    /// (node, heap id, object witnesses) on which the node's heap predicates held: they are a
    /// function of the node, the heap and the object witnesses alone ([`Walked`]), so an equal
    /// triple needs no second check (a loop that does not write the heap meets the same heap
    /// at every iteration, and the same witnesses whenever it walks around a structure).
    shapes_held: FxHashSet<HeldShape>,
    /// A spare vector for the object witnesses of a [`HeldShape`] being looked up.
    key_buf: Vec<(Ref, CValue)>,
    /// The shape part of `c ⊑ s` ([`walk_shape`] and the heap predicates) by (node, heap id,
    /// values at the positions [`shape_key_into`] reads): its witness, `None` if it failed.
    /// In a loop that does not write the heap it is the same at every iteration; only the
    /// integer positions are then checked per step ([`bind_int_roots`]). Not used when
    /// explaining: a failure's reason comes from the plain walk.
    shapes: FxHashMap<ShapeKey, Option<Rc<Witness>>>,
    /// A spare vector for the values of a [`ShapeKey`] being looked up.
    shape_buf: Vec<CValue>,
    /// Hidden regions of the heap checked last.
    reach: RegionMemo,
    /// Witnesses no longer held, to be refilled ([`RunMemo::recycle`]): a loop then builds
    /// the witness of each step without an allocation.
    spare: Vec<Rc<Witness>>,
    /// Label evaluations left out for references the run had not bound.
    unbound: usize,
}

/// A node, a heap id and object witnesses on which the node's heap predicates held.
type HeldShape = (NodeId, u32, Vec<(Ref, CValue)>);

/// A node, a heap id and the values at the frame positions [`shape_key_into`] reads.
type ShapeKey = (NodeId, u32, Vec<CValue>);

/// Past this many held shapes or heaps a run's memo starts over (bounds its memory).
const HELD_IN_ALL: usize = 4096;

/// How many of the heaps interned last a new heap is compared with by content.
const HEAPS_COMPARED: usize = 4;

impl RunMemo {
    fn new(explain: bool) -> Self {
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
    fn recycle(&mut self, mut w: Rc<Witness>) {
        if self.spare.len() < 16 && Rc::get_mut(&mut w).is_some() {
            self.spare.push(w);
        }
    }

    /// Step `i` of `run` with its `frames` top frames (`usize::MAX`: all), and the id of its
    /// objects.
    fn view(&mut self, run: &dyn ConcreteRun, i: usize, frames: usize) -> (Rc<StepView>, u32) {
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

/// Graph-side data the matcher needs, prepared once per graph.
pub struct Matcher<'g> {
    pub graph: &'g Graph,
    out: Vec<Vec<usize>>,
    prog: &'g Program,
    types: &'g (dyn Subtyping + Sync),
    /// The labels of every edge, resolved once.
    labels: Evaluator<'g>,
    /// Per node: it has a `call` edge of an abstracted call (its `return` edges continue the
    /// caller once the callee's path ends).
    calls_abstractly: Vec<bool>,
    /// Per node: its state's heap values by reference number.
    index: Vec<StateIndex<'g>>,
    /// Whether [`RunMemo::shapes`] is used (else every step is walked from the roots).
    shape_memo: bool,
}

struct Item {
    node: NodeId,
    step: usize,
    witness: Option<Rc<Witness>>,
    parent: Option<usize>,
    /// The abstracted call being followed (0: none, the analysed method's own graph).
    ctx: usize,
}

/// An abstracted call being followed: the callee's steps are compared with its method graph
/// on the frames above `depth`.
struct CallCtx {
    /// The call node (its `return` edges continue the caller).
    caller: NodeId,
    /// The run's frames at the call step: the caller's, below the callee's frame.
    depth: usize,
    /// The enclosing context.
    parent: usize,
    /// The call node's witness at the call step (for the labels of its `return` edges).
    witness: Rc<Witness>,
}

/// Whether `e` is the `call` edge of an abstracted call ([`Label::AbstractCall`]).
fn is_abstract_call(e: &jtg_engine::graph::Edge) -> bool {
    e.kind == EdgeKind::Call
        && e.labels
            .iter()
            .any(|l| matches!(l, Label::AbstractCall { .. }))
}

/// The objects and static fields of the run's last step (those of its program end: the last
/// step is the return or the throw that ends the run, which accesses no static field).
fn last_objects(run: &dyn ConcreteRun) -> (Objects, CStatics) {
    if run.is_empty() {
        (Objects::default(), CStatics::default())
    } else {
        let s = run.step(run.len() - 1);
        (Objects::from(Arc::clone(&s.heap)), s.statics.clone())
    }
}

fn control<T>(reason: String) -> Result<T, Failure> {
    Err(Failure {
        condition: Condition::Control,
        reason,
    })
}

impl<'g> Matcher<'g> {
    pub fn new(graph: &'g Graph, prog: &'g Program, sem: IntSemantics) -> Matcher<'g> {
        // the matcher's path entries number nodes by u32s
        assert!(graph.nodes.len() < u32::MAX as usize, "graph too large");
        let mut out = vec![Vec::new(); graph.nodes.len()];
        let mut calls_abstractly = vec![false; graph.nodes.len()];
        for (k, e) in graph.edges.iter().enumerate() {
            if e.from < out.len() {
                out[e.from].push(k);
                calls_abstractly[e.from] |= is_abstract_call(e);
            }
        }
        Matcher {
            graph,
            out,
            prog,
            types: prog,
            labels: Evaluator::new(graph, prog, sem),
            calls_abstractly,
            index: graph
                .nodes
                .iter()
                .map(|n| StateIndex::of(&n.state))
                .collect(),
            shape_memo: true,
        }
    }

    /// The first error of the graph's labels (a reference in neither state, a label on an
    /// edge that cannot carry it, …), naming its edge: such a graph is refused before any run.
    pub fn label_error(&self) -> Option<&str> {
        self.labels.plan().first_error()
    }

    /// The same matcher walking every step from the roots (no [`RunMemo::shapes`]): what the
    /// memo is compared with in tests.
    pub fn plain(mut self) -> Self {
        self.shape_memo = false;
        self
    }

    /// The witness of `node` for the state before step `i` (or the run's end); `depth` frames
    /// of the run belong to callers of an abstracted call being followed (`in_call`), and are
    /// not compared.
    fn witness(
        &self,
        run: &dyn ConcreteRun,
        memo: &mut RunMemo,
        node: NodeId,
        i: usize,
        depth: usize,
        in_call: bool,
    ) -> Result<Rc<Witness>, Failure> {
        let state = &self.graph.nodes[node].state;
        if in_call && state.is_end() {
            return self.callee_end(run, state, i, depth).map(Rc::new);
        }
        if i < run.len() {
            let frames = if in_call {
                let n = run.depth(i);
                if n <= depth {
                    return control(format!(
                        "the abstracted call has returned (the run has {n} frames, the caller {depth}), s is still in it"
                    ));
                }
                n - depth
            } else {
                usize::MAX
            };
            let (view, heap_id) = memo.view(run, i, frames);
            let c = Concrete {
                frames: &view.frames,
                heap: &view.objects,
                statics: &view.statics,
                end: None,
            };
            // the heap id covers the statics only where the run keys its views
            if self.shape_memo
                && !memo.explain
                && (view.heap_key.is_some() || view.statics.is_empty())
            {
                if let Some(w) = self.by_shape(memo, node, &c, heap_id) {
                    return w;
                }
            }
            let walked = walk_indexed(
                &c,
                state,
                Cow::Borrowed(&self.index[node]),
                self.types,
                memo.explain,
            )?;
            // the key's vector is reused until a key is kept
            let mut objs = std::mem::take(&mut memo.key_buf);
            walked.object_witnesses_into(&mut objs);
            let key = (node, heap_id, objs);
            if memo.shapes_held.contains(&key) {
                memo.key_buf = key.2;
                return Ok(Rc::new(walked.witness()));
            }
            let w = walked.finish_with(Some(memo.reach.of(heap_id)));
            match w {
                Ok(_) => {
                    memo.shapes_held.insert(key);
                }
                Err(_) => memo.key_buf = key.2,
            }
            w.map(Rc::new)
        } else {
            let (heap, statics) = last_objects(run);
            concrete_instance(
                &Concrete {
                    frames: &[],
                    heap: &heap,
                    statics: &statics,
                    end: Some(run.end()),
                },
                state,
                self.types,
            )
            .map(Rc::new)
        }
    }

    /// [`Matcher::witness`] for a state with frames, from the shape part kept in `memo` for
    /// (`node`, `heap_id`, the values at the positions [`shape_key_into`] reads) plus the
    /// integer positions; `None` where that shortcut does not apply. Failures have no reason.
    fn by_shape(
        &self,
        memo: &mut RunMemo,
        node: NodeId,
        c: &Concrete<'_>,
        heap_id: u32,
    ) -> Option<Result<Rc<Witness>, Failure>> {
        let state = &self.graph.nodes[node].state;
        if let Err(f) = frames_control(c.frames, state, false) {
            return Some(Err(f));
        }
        let mut values = std::mem::take(&mut memo.shape_buf);
        if !shape_key_into(c.frames, state, &mut values) {
            memo.shape_buf = values;
            return None;
        }
        let key = (node, heap_id, values);
        let base = match memo.shapes.get(&key).cloned() {
            Some(b) => {
                memo.shape_buf = key.2;
                b
            }
            None => {
                let b = walk_shape(c, state, &self.index[node], self.types)
                    .and_then(|w| w.finish_with(Some(memo.reach.of(heap_id))))
                    .ok()
                    .map(Rc::new);
                memo.shapes.insert(key, b.clone());
                b
            }
        };
        let Some(base) = base else {
            return Some(Err(Failure {
                condition: Condition::Object,
                reason: String::new(),
            }));
        };
        let mut w = memo.spare.pop().unwrap_or_default();
        let Some(wm) = Rc::get_mut(&mut w) else {
            unreachable!("a spare witness is held by nothing else")
        };
        wm.clone_from(&base);
        match bind_int_roots(c.frames, state, &self.index[node], wm) {
            Ok(()) => Some(Ok(w)),
            Err(f) => {
                memo.recycle(w);
                Some(Err(f))
            }
        }
    }

    /// The witness of a program end `state` of a callee's method graph, for the state before
    /// step `i`: how the callee's frame (above `depth` caller frames) was left. A normal return
    /// (the callee's last instruction a return, the run back at `depth` frames) is compared as
    /// `end: return` with the value on the caller's stack; otherwise an exception left the
    /// frame, compared as `end: throw` with the exception at the handler (on its stack) or the
    /// run's own exceptional end.
    fn callee_end(
        &self,
        run: &dyn ConcreteRun,
        state: &jtg_engine::state::State,
        i: usize,
        depth: usize,
    ) -> Result<Witness, Failure> {
        if i >= run.len() {
            if !matches!(run.end(), TraceEnd::Threw { .. }) {
                return control(
                    "the run ended without an exception inside an abstracted call".to_string(),
                );
            }
            let (heap, statics) = last_objects(run);
            return concrete_instance(
                &Concrete {
                    frames: &[],
                    heap: &heap,
                    statics: &statics,
                    end: Some(run.end()),
                },
                state,
                self.types,
            );
        }
        let n = run.depth(i);
        if n > depth {
            return control(format!(
                "s ends the abstracted call, but the run is still in it ({n} frames, the caller {depth})"
            ));
        }
        // the value or exception is in the top frame: the heap reachable from it is enough
        let step = run.top_step(i, 1);
        // `i >= 1`: the callee's first step follows the call step
        let last = run.top_frame(i.saturating_sub(1));
        let returned = match self.insn_at(&last) {
            Some(Insn::Return(kind)) if n == depth => Some(kind),
            Some(_) => None,
            None => {
                return control(format!(
                    "no instruction at pc {} of {}.{}{} (the callee's last step)",
                    last.pc, last.class, last.method, last.desc
                ))
            }
        };
        let end = if let Some(kind) = returned {
            if kind.is_none() {
                TraceEnd::Returned(None)
            } else {
                match step.frames.first().and_then(|f| f.stack.first()) {
                    Some(v) => TraceEnd::Returned(Some(*v)),
                    None => {
                        return control(
                            "the callee returned a value, but the caller's stack is empty".into(),
                        )
                    }
                }
            }
        } else {
            match step.frames.first().and_then(|f| f.stack.first()) {
                Some(CValue::Ref(id)) => {
                    let class = match step.heap.get(id) {
                        Some(CObject::Instance { class, .. }) => class.clone(),
                        _ => {
                            return control(format!(
                                "the callee was left by an exception, but {id} at the handler is no exception object"
                            ))
                        }
                    };
                    TraceEnd::Threw {
                        class,
                        obj: Some(*id),
                    }
                }
                _ => {
                    return control(
                        "the callee was left by an exception, but the handler has no exception on its stack"
                            .into(),
                    )
                }
            }
        };
        concrete_instance(
            &Concrete {
                frames: &[],
                heap: &Objects::from(Arc::clone(&step.heap)),
                statics: &step.statics,
                end: Some(&end),
            },
            state,
            self.types,
        )
    }

    /// The instruction a frame is at.
    fn insn_at(&self, f: &CFrame) -> Option<Insn> {
        let m = MethodId::new(&f.class, &f.method, &f.desc);
        let c = self.prog.hierarchy.classpath().load(&m.class).ok()?;
        let meth = c.method(&m.name, Some(&m.desc)).ok()?;
        meth.code.as_ref()?.at(f.pc).cloned()
    }

    /// Matches `run` from the start node.
    pub fn run(&self, run: &dyn ConcreteRun, extent: Extent) -> Matched {
        // Candidates are tried without formatting why they fail; a run that gets stuck (a
        // violation, rare) is matched again to say why.
        match self.run_explaining(run, extent, false) {
            Matched::Stuck(_) => self.run_explaining(run, extent, true),
            m => m,
        }
    }

    /// The first pass of [`Matcher::run`] alone: whether the run is a path (then its path),
    /// without the second pass that says why a stuck run is stuck (which would hide a first
    /// pass that rejects wrongly, since it does not use [`RunMemo::shapes`]). For tests.
    pub fn first_pass(&self, run: &dyn ConcreteRun, extent: Extent) -> Matched {
        self.run_explaining(run, extent, false)
    }

    fn run_explaining(&self, run: &dyn ConcreteRun, extent: Extent, explain: bool) -> Matched {
        let last = match extent {
            Extent::Full => match run.end() {
                TraceEnd::Cut { .. } => run.len().saturating_sub(1),
                _ => run.len(),
            },
            Extent::Prefix { last } => last.min(run.len().saturating_sub(1)),
        };
        let mut stuck = Stuck {
            step: 0,
            candidates: vec![],
        };
        // only the candidates of the deepest step are reported: a reason for a shallower
        // step is never formatted. Without `explain` nothing is noted: a stuck run is
        // matched again to say why ([`Matcher::run`]).
        fn note<R: Into<String>>(
            explain: bool,
            stuck: &mut Stuck,
            step: usize,
            node: NodeId,
            via: Option<(NodeId, EdgeKind)>,
            reason: impl FnOnce() -> R,
        ) {
            if !explain {
                return;
            }
            if step > stuck.step || stuck.candidates.is_empty() {
                if step > stuck.step {
                    stuck.candidates.clear();
                }
                stuck.step = step;
            }
            if step == stuck.step {
                stuck.candidates.push(Candidate {
                    node,
                    via,
                    reason: reason().into(),
                });
            }
        }
        // a prefix may end anywhere; a whole run only in the analysed method's own graph
        let prefix = match extent {
            Extent::Prefix { .. } => true,
            Extent::Full => matches!(run.end(), TraceEnd::Cut { .. }),
        };
        let mut ctxs = vec![CallCtx {
            caller: usize::MAX,
            depth: 0,
            parent: 0,
            witness: Rc::new(Witness::default()),
        }];
        // (call node, call step, enclosing context) -> context
        let mut ctx_ids: FxHashMap<(NodeId, usize, usize), usize> = FxHashMap::default();
        // every entered (node, parent entry): u32s (`NO_PARENT` for none), as a long run has
        // one or two per step
        const NO_PARENT: u32 = u32::MAX;
        let mut arena: Vec<(u32, u32)> = Vec::new();
        let mut entered: FxHashSet<(NodeId, usize, usize)> = FxHashSet::default();
        // the step of the last item after which nothing else was pending
        let mut alone_at = 0;
        let mut todo = vec![Item {
            node: self.graph.start,
            step: 0,
            witness: None,
            parent: None,
            ctx: 0,
        }];
        let mut checked = 0usize;
        let mut memo = RunMemo::new(explain);
        while let Some(it) = todo.pop() {
            if todo.is_empty() && it.step > alone_at {
                // Everything from here on descends from `it`, and steps never decrease: no
                // earlier step can be entered again. Forgetting them keeps the set small;
                // the triples of this step are forgotten too, but only once per step, so a
                // cycle of non-executing edges is still caught on its second lap.
                alone_at = it.step;
                if entered.capacity() > 64 {
                    entered = FxHashSet::default();
                } else {
                    entered.clear();
                }
            }
            if !entered.insert((it.node, it.step, it.ctx)) {
                continue;
            }
            let depth = ctxs[it.ctx].depth;
            let w = match it.witness {
                Some(w) => w,
                None => match self.witness(run, &mut memo, it.node, it.step, depth, it.ctx != 0) {
                    Ok(w) => w,
                    Err(f) => {
                        let via = it.parent.map(|p| arena[p].0 as NodeId);
                        let via = via.map(|n| (n, self.kind_between(n, it.node)));
                        note(explain, &mut stuck, it.step, it.node, via, || f.to_string());
                        continue;
                    }
                },
            };
            checked += 1;
            let me = arena.len();
            assert!(
                me < NO_PARENT as usize,
                "more path entries than u32 numbers"
            );
            arena.push((it.node as u32, it.parent.map_or(NO_PARENT, |p| p as u32)));
            if it.step >= last && (it.ctx == 0 || prefix) {
                // the prefix to check (or the whole run, ending at a program end) is covered
                let mut path = Vec::new();
                let mut cur = me as u32;
                while cur != NO_PARENT {
                    let (node, parent) = arena[cur as usize];
                    path.push(node as NodeId);
                    cur = parent;
                }
                path.reverse();
                return Matched::Path {
                    path,
                    checked,
                    unbound: memo.unbound,
                };
            }
            if it.ctx != 0 && self.graph.nodes[it.node].is_end() {
                // the callee's path is through: the caller goes on at a target of one of the
                // call node's return edges, at this step
                let c = &ctxs[it.ctx];
                let (caller, parent, cw) = (c.caller, c.parent, Rc::clone(&c.witness));
                let pdepth = ctxs[parent].depth;
                let end_state = &self.graph.nodes[it.node].state;
                for &k in self.out[caller].iter().rev() {
                    let e = &self.graph.edges[k];
                    if e.kind != EdgeKind::Return {
                        continue;
                    }
                    let r = self
                        .witness(run, &mut memo, e.to, it.step, pdepth, parent != 0)
                        .map_err(|f| f.to_string())
                        .and_then(|w2| {
                            let ends = Ends {
                                src: &cw,
                                dst: Some(&w2),
                                run,
                                step: it.step,
                                callee_end: Some((end_state, &w)),
                            };
                            let ev = self.labels.holds(k, Phase::All, &ends, memo.explain)?;
                            memo.unbound += ev.unbound;
                            Ok(w2)
                        });
                    match r {
                        Err(reason) => note(
                            explain,
                            &mut stuck,
                            it.step,
                            e.to,
                            Some((caller, e.kind)),
                            || reason,
                        ),
                        Ok(w2) => todo.push(Item {
                            node: e.to,
                            step: it.step,
                            witness: Some(w2),
                            parent: Some(me),
                            ctx: parent,
                        }),
                    }
                }
                memo.recycle(w);
                continue;
            }
            let edges = &self.out[it.node];
            if edges.is_empty() {
                let what = if self.graph.nodes[it.node].is_end() {
                    "a program end, but the run goes on".to_string()
                } else {
                    "an open leaf of the graph (no outgoing edge)".to_string()
                };
                note(explain, &mut stuck, it.step + 1, it.node, None, || what);
                memo.recycle(w);
                continue;
            }
            let calls_abstractly = self.calls_abstractly[it.node];
            // push in reverse so that the first edge is tried first
            for &k in edges.iter().rev() {
                let e = &self.graph.edges[k];
                if calls_abstractly && e.kind == EdgeKind::Return {
                    // taken when the callee's path ends (above)
                    continue;
                }
                if e.kind.is_step() {
                    let next = it.step + 1;
                    let (ctx, depth, in_call) = if calls_abstractly && is_abstract_call(e) {
                        let depth = if it.step < run.len() {
                            run.depth(it.step)
                        } else {
                            0
                        };
                        let key = (it.node, it.step, it.ctx);
                        let id = *ctx_ids.entry(key).or_insert_with(|| {
                            ctxs.push(CallCtx {
                                caller: it.node,
                                depth,
                                parent: it.ctx,
                                witness: Rc::clone(&w),
                            });
                            ctxs.len() - 1
                        });
                        (id, depth, true)
                    } else {
                        (it.ctx, depth, it.ctx != 0)
                    };
                    let via = Some((e.from, e.kind));
                    match self.witness(run, &mut memo, e.to, next, depth, in_call) {
                        Err(f) => note(explain, &mut stuck, next, e.to, via, || f.to_string()),
                        Ok(w2) => {
                            let ends = Ends {
                                src: &w,
                                dst: Some(&w2),
                                run,
                                step: it.step,
                                callee_end: None,
                            };
                            match self.labels.holds(k, Phase::All, &ends, memo.explain) {
                                Err(why) => note(explain, &mut stuck, next, e.to, via, || why),
                                Ok(ev) => {
                                    memo.unbound += ev.unbound;
                                    todo.push(Item {
                                        node: e.to,
                                        step: next,
                                        witness: Some(w2),
                                        parent: Some(me),
                                        ctx,
                                    })
                                }
                            }
                        }
                    }
                } else {
                    // the target's witness now, not when it is popped: a candidate that does
                    // not take the state is never pending (then nothing is pending for most
                    // of a run, see `alone_at`)
                    // labels over the source first: a split's relation decides its case before
                    // the target's witness is built
                    let via = Some((e.from, e.kind));
                    let mut ends = Ends {
                        src: &w,
                        dst: None,
                        run,
                        step: it.step,
                        callee_end: None,
                    };
                    let before = match self.labels.holds(k, Phase::SourceOnly, &ends, memo.explain)
                    {
                        Ok(ev) => ev,
                        Err(why) => {
                            note(explain, &mut stuck, it.step, e.to, via, || why);
                            continue;
                        }
                    };
                    match self.witness(run, &mut memo, e.to, it.step, depth, it.ctx != 0) {
                        Err(f) => note(explain, &mut stuck, it.step, e.to, via, || f.to_string()),
                        Ok(w2) => {
                            ends.dst = Some(&w2);
                            match self
                                .labels
                                .holds(k, Phase::TargetNeeded, &ends, memo.explain)
                            {
                                Err(why) => note(explain, &mut stuck, it.step, e.to, via, || why),
                                Ok(after) => {
                                    memo.unbound += before.unbound + after.unbound;
                                    todo.push(Item {
                                        node: e.to,
                                        step: it.step,
                                        witness: Some(w2),
                                        parent: Some(me),
                                        ctx: it.ctx,
                                    })
                                }
                            }
                        }
                    }
                }
            }
            memo.recycle(w);
        }
        Matched::Stuck(stuck)
    }

    fn kind_between(&self, from: NodeId, to: NodeId) -> EdgeKind {
        self.out[from]
            .iter()
            .map(|&k| &self.graph.edges[k])
            .find(|e| e.to == to)
            .map_or(EdgeKind::Refine, |e| e.kind)
    }
}

/// The first step whose instruction overflows 32 bits (`iadd`, `isub`, `imul`, `idiv`, `ineg`,
/// `iinc` whose mathematical result differs from the JVM's) or 64 bits (the same `l…`
/// instructions). Under unbounded integers the run
/// leaves the model there: the engine's labels and intervals denote mathematical integers.
pub fn first_overflow(run: &dyn ConcreteRun, prog: &Program) -> Option<usize> {
    // A step's instruction, by the run's own method number and the pc, or, for runs without
    // method numbers, by its method (compared by name: runs share the names of one method,
    // so mostly by pointer) and the pc. No allocation or hashing of names per step.
    let mut by_site: FxHashMap<(u32, u32), Option<Insn>> = FxHashMap::default();
    type ByName = (Arc<str>, Arc<str>, Arc<str>, FxHashMap<u32, Option<Insn>>);
    let mut by_name: Vec<ByName> = Vec::new();
    let mut last_method = 0usize;
    let same = |a: &Arc<str>, b: &Arc<str>| Arc::ptr_eq(a, b) || **a == **b;
    let mut scratch: Vec<CFrame> = Vec::new();
    for i in 0..run.len() {
        let insn = match run.site(i) {
            Some(site) => by_site
                .entry(site)
                .or_insert_with(|| {
                    let f = run.top_frame_in(i, &mut scratch);
                    arith_insn(prog, &f.class, &f.method, &f.desc, f.pc)
                })
                .clone(),
            None => {
                let f = run.top_frame_in(i, &mut scratch);
                let is = |m: &ByName| {
                    same(&m.0, &f.class) && same(&m.1, &f.method) && same(&m.2, &f.desc)
                };
                if !by_name.get(last_method).is_some_and(is) {
                    last_method = match by_name.iter().position(is) {
                        Some(k) => k,
                        None => {
                            let (c, m, d) = (f.class.clone(), f.method.clone(), f.desc.clone());
                            by_name.push((c, m, d, FxHashMap::default()));
                            by_name.len() - 1
                        }
                    };
                }
                by_name[last_method]
                    .3
                    .entry(f.pc)
                    .or_insert_with(|| arith_insn(prog, &f.class, &f.method, &f.desc, f.pc))
                    .clone()
            }
        };
        let Some(insn) = insn else { continue };
        let f = run.top_frame_in(i, &mut scratch);
        let int = |k: usize| match f.stack.get(k) {
            Some(CValue::Int(v)) => Some(i128::from(*v)),
            Some(CValue::Long(v)) => Some(i128::from(*v)),
            _ => None,
        };
        let wrap = match insn {
            Insn::Arith(Kind::Long, _) => wrap64,
            _ => wrap32,
        };
        let res = match insn {
            Insn::IInc { index, delta } => match f.locals.get(usize::from(index)) {
                Some(CValue::Int(v)) => Some(i128::from(*v) + i128::from(delta)),
                _ => None,
            },
            Insn::Arith(Kind::Int | Kind::Long, Op::Neg) => int(0).map(|a| -a),
            Insn::Arith(Kind::Int | Kind::Long, op) => match (int(1), int(0)) {
                (Some(a), Some(b)) => match op {
                    Op::Add => Some(a + b),
                    Op::Sub => Some(a - b),
                    Op::Mul => Some(a * b),
                    Op::Div if b != 0 => Some(a / b),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        if res.is_some_and(|v| v != wrap(v)) {
            return Some(i);
        }
    }
    None
}

fn arith_insn(prog: &Program, class: &str, method: &str, desc: &str, pc: u32) -> Option<Insn> {
    let m = MethodId::new(class, method, desc);
    let c = prog.hierarchy.classpath().load(&m.class).ok()?;
    let meth = c.method(&m.name, Some(&m.desc)).ok()?;
    let insn = meth.code.as_ref()?.at(pc)?;
    match insn {
        Insn::IInc { .. }
        | Insn::Arith(Kind::Int | Kind::Long, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Neg) => {
            Some(insn.clone())
        }
        _ => None,
    }
}
