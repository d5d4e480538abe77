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

mod memo;
mod overflow;
mod witness;

pub use overflow::first_overflow;

use crate::instance::{StateIndex, Witness};
use crate::labels::{Ends, Evaluator, Phase};
use crate::run::ConcreteRun;
use jtg_engine::graph::{EdgeKind, Label, NodeId};
use jtg_engine::state::{IntSemantics, Subtyping};
use jtg_engine::{Graph, Program};
use jtg_jvm::TraceEnd;
use memo::RunMemo;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

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

/// One entry of a matched path: the node, the step whose state (before the step; `len()`: the
/// program end) it took, and the witness of `c ⊑ s` (the node's references to concrete values).
#[derive(Clone, Debug)]
pub struct PathEntry {
    pub node: NodeId,
    pub step: usize,
    pub witness: Rc<Witness>,
}

/// How far a run is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// Every step and the program end.
    Full,
    /// Steps `0..=last` only (a cut trace, or the part before an overflow).
    Prefix { last: usize },
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
        self.search(run, extent, explain, None)
    }

    /// The path of `run` (as [`Matcher::first_pass`] finds it) with the witness of every
    /// entry, and the step each entry is at: what the prover's cross-check maps onto ITS
    /// transitions. `None` if the run is no path of the graph (then [`Matcher::run`] says why).
    pub fn path_with_witnesses(
        &self,
        run: &dyn ConcreteRun,
        extent: Extent,
    ) -> Option<Vec<PathEntry>> {
        let mut kept = Vec::new();
        match self.search(run, extent, false, Some(&mut kept)) {
            Matched::Path { path, .. } => {
                debug_assert_eq!(path.len(), kept.len());
                Some(kept)
            }
            Matched::Stuck(_) => None,
        }
    }

    /// The search of [`Matcher::run_explaining`]; with `keep`, the entries of the path found
    /// with their witnesses are written there.
    fn search(
        &self,
        run: &dyn ConcreteRun,
        extent: Extent,
        explain: bool,
        mut keep: Option<&mut Vec<PathEntry>>,
    ) -> Matched {
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
        // per arena entry, with `keep`: its step and witness
        let mut kept_at: Vec<(usize, Rc<Witness>)> = Vec::new();
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
            if keep.is_some() {
                kept_at.push((it.step, Rc::clone(&w)));
            }
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
                if let Some(out) = keep.as_deref_mut() {
                    let mut cur = me as u32;
                    while cur != NO_PARENT {
                        let (node, parent) = arena[cur as usize];
                        let (step, w) = &kept_at[cur as usize];
                        out.push(PathEntry {
                            node: node as NodeId,
                            step: *step,
                            witness: Rc::clone(w),
                        });
                        cur = parent;
                    }
                    out.reverse();
                }
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
