//! The graph builder (spec §7.2, §7.3): a FIFO worklist expands every leaf that is not a
//! program end.
//!
//! * Evaluation successors reached by a backward jump (a loop head) are compared with the
//!   states at the same program position on the path to them: an instance gets an instance
//!   edge; otherwise it is merged with the nearest such state and the merged state, reached by
//!   an instance edge, is expanded instead. The first merge at a position takes interval hulls,
//!   later ones widen, so every chain of merges stabilizes.
//! * Other evaluation successors reuse an existing node at the same position they are an
//!   instance of.
//! * Refinement successors are always expanded.
//!
//! Merging keeps the subgraph of the state it generalizes (the first loop iteration stays
//! unrolled, as in Fig. 2.13, where B's iteration to F is kept and both B's path and F lead to
//! G): that is sound, because every edge already built is a correct over-approximation, and
//! it keeps node numbers stable.

use super::summaries;
use super::{EdgeKind, Graph, Label, NodeId};
use crate::class::Insn;
use crate::error::EngineError;
use crate::eval::summary::{self, CallAbstraction, CallSite, CalleeFacts};
use crate::eval::{self, Ctx, StepOutcome};
use crate::instance_of::{instance_holds, signature_width, Signature};
use crate::merge::{merge, MergeOptions};
use crate::models;
use crate::models::elements::ElementTypes;
use crate::program::{Options, Program};
use crate::refine::Succ;
use crate::state::{End, HeapValue, MethodId, Ref, State};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// A construction that did not finish: the error, and the graph built so far.
pub struct BuildFailure {
    pub error: EngineError,
    pub partial: Box<Graph>,
}

impl std::fmt::Debug for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (after {} nodes)",
            self.error,
            self.partial.nodes.len()
        )
    }
}

/// Expanded states at one position past which a new evaluation successor there is merged
/// ([`Builder::parallel_partner`]).
const PARALLEL_MERGE_AFTER: usize = 64;

/// Whether the frames of `a` and `b` (at one position) hold objects of the same JDK classes
/// in every local and stack slot. Parallel paths that differ in such a class (one per family
/// a library call may return: `List.iterator()` of an unknown list) stay apart: their merge
/// would keep only the common supertype and lose what each class's model counts (an
/// iterator's remaining elements), which is what the ranking needs. Program classes are not
/// compared: the subtypes of a program's own trees and lists kept apart grew TPDB graphs
/// (13 of 348, one past the node budget) and proved nothing more.
fn same_classes_held(a: &State, b: &State) -> bool {
    fn class<'s>(s: &'s State, r: &Ref) -> Option<&'s str> {
        match s.heap.get(r) {
            Some(HeapValue::Object { class, .. }) if models::is_always_jdk(class) => {
                Some(class.as_str())
            }
            _ => None,
        }
    }
    a.frames.iter().zip(&b.frames).all(|(f, g)| {
        f.locals.iter().zip(&g.locals).all(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => class(a, x) == class(b, y),
            (None, None) => true,
            _ => false,
        }) && f
            .stack
            .iter()
            .zip(&g.stack)
            .all(|(x, y)| class(a, x) == class(b, y))
    })
}

/// The program position of a state: the methods and pcs of its frames, bottom to top.
type Position = Vec<(MethodId, u32)>;

fn position(s: &State) -> Position {
    s.frames.iter().map(|f| (f.method.clone(), f.pc)).collect()
}

struct Builder<'a> {
    prog: &'a Program,
    opts: &'a Options,
    graph: Graph,
    /// The node each node was created from (its predecessor on the construction path).
    parent: Vec<Option<NodeId>>,
    /// Whether a node is the result of a merge.
    merged: Vec<bool>,
    /// Whether a node has an outgoing instance edge (it is not expanded).
    redirected: Vec<bool>,
    /// The program position of each node, as an index into `at`.
    pos: Vec<usize>,
    /// Position numbers.
    positions: HashMap<Position, usize>,
    /// The nodes at each position, in creation order.
    at: Vec<Vec<NodeId>>,
    /// Each node's [`Signature`], computed when first needed.
    sigs: Vec<Option<Signature>>,
    /// The width of the signatures at each position, fixed by the first one.
    widths: Vec<Option<usize>>,
    queue: VecDeque<NodeId>,
    /// The current entry node of each abstracted method's graph (call abstraction).
    entries: HashMap<MethodId, NodeId>,
    /// Every entry node of a method graph, replaced ones too.
    entry_nodes: HashSet<NodeId>,
    /// Abstracted call sites: the call node, its entry node, the call, and the exception
    /// classes whose continuations exist already.
    sites: Vec<(NodeId, NodeId, CallSite, BTreeSet<String>)>,
    deadline: Option<Instant>,
    /// The classes an object of the run can have (closed world of virtual dispatch).
    world: std::sync::Arc<crate::class::World>,
    /// What continuations assume of callees (checked as the graph grows and when it is done).
    facts: std::sync::Arc<CalleeFacts>,
    /// The classes the run's collections may hold.
    elements: std::sync::Arc<ElementTypes>,
    /// Work units spent so far ([`BuildLimits::max_work`]).
    work: u64,
    max_work: Option<u64>,
    /// The node count at which `facts` are next checked on the graph built so far.
    next_check: usize,
}

/// How a construction ended that did not fail.
enum Run {
    /// The graph is complete.
    Finished,
    /// An assumption of `facts` failed on the graph built so far (these are the facts
    /// without it): the graph must be built again.
    Refuted(CalleeFacts),
}

/// Every this many nodes a construction checks its callee assumptions on the graph so far.
/// A check walks only the method graphs of abstracted calls, small next to the graph; checking
/// often finds a failed assumption soon after it fails (WorkingSignals: its first two builds
/// are cut at 13 312 nodes each, where checks at powers of two would go on to 16 384).
const CHECK_EVERY: usize = 1024;

/// Bounds of one construction besides [`Options::max_nodes`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildLimits {
    /// A deterministic bound on the construction's work ([`EngineError::WorkBudget`]): the
    /// sizes of the states expanded, compared by `⊑` and merged, summed (a state's size is 1
    /// plus its heap entries and frame slots). The time of a construction grows with exactly
    /// these, so the bound stops costly graphs as a time bound would, but at the same place on
    /// every machine and under any load.
    pub max_work: Option<u64>,
    /// A wall-clock bound ([`EngineError::TimeBudget`]); where it stops depends on the
    /// machine, so it is a safety net, not a budget for reports that must be reproducible.
    pub deadline: Option<Duration>,
}

/// The size of a state in work units: what expanding, comparing or merging it walks.
fn work_of(s: &State) -> u64 {
    let slots: usize = s
        .frames
        .iter()
        .map(|f| f.locals.len() + f.stack.len())
        .sum();
    (1 + s.heap.len() + s.statics.len() + slots) as u64
}

/// Builds the termination graph of `method` from `start`.
pub fn build_graph(
    prog: &Program,
    method: &MethodId,
    start: State,
    opts: &Options,
) -> Result<Graph, BuildFailure> {
    build_graph_until(prog, method, start, opts, None)
}

/// [`build_graph`] that gives up with [`EngineError::TimeBudget`] once `deadline` has passed.
pub fn build_graph_until(
    prog: &Program,
    method: &MethodId,
    start: State,
    opts: &Options,
    deadline: Option<Duration>,
) -> Result<Graph, BuildFailure> {
    let limits = BuildLimits {
        max_work: None,
        deadline,
    };
    build_graph_limited(prog, method, start, opts, limits)
}

/// [`build_graph`] within `limits`: it gives up with [`EngineError::WorkBudget`] once more than
/// `limits.max_work` work units are spent, and with [`EngineError::TimeBudget`] once
/// `limits.deadline` has passed.
pub fn build_graph_limited(
    prog: &Program,
    method: &MethodId,
    start: State,
    opts: &Options,
    limits: BuildLimits,
) -> Result<Graph, BuildFailure> {
    let world = std::sync::Arc::new(prog.world(&start));
    let deadline = limits.deadline.map(|d| Instant::now() + d);
    let mut facts = CalleeFacts::default();
    let mut elements = ElementTypes::default();
    let mut work = 0;
    loop {
        let mut b = Builder {
            prog,
            opts,
            graph: Graph::new(method.clone(), start.clone()),
            parent: Vec::new(),
            merged: Vec::new(),
            redirected: Vec::new(),
            pos: Vec::new(),
            positions: HashMap::new(),
            at: Vec::new(),
            sigs: Vec::new(),
            widths: Vec::new(),
            queue: VecDeque::from([0]),
            entries: HashMap::new(),
            entry_nodes: HashSet::new(),
            sites: Vec::new(),
            deadline,
            work,
            max_work: limits.max_work,
            world: std::sync::Arc::clone(&world),
            facts: std::sync::Arc::new(facts.clone()),
            elements: std::sync::Arc::new(elements.clone()),
            next_check: CHECK_EVERY,
        };
        b.register(0, None, false);
        // the assumptions of the continuations are checked on the graph as it grows and when
        // it is finished, and a graph built on one that fails is built again without it.
        // Nodes and edges are only ever added, so an assumption that fails on part of the
        // graph fails on all of it; checking early matters because assumed-pure callees keep
        // the callers' heaps precise, which can make a graph far larger (WorkingSignals: over
        // 20 000 nodes, 17 819 without the failed assumptions)
        facts = match b.run() {
            Ok(Run::Finished) => return Ok(b.graph),
            Ok(Run::Refuted(checked)) => checked,
            // a store of one more element class: the reads already built may not cover it
            // (the set only grows, within the few admitted classes)
            Err(EngineError::ElementClass(class)) if !elements.contains(&class) => {
                elements = elements.with(&class);
                work = b.work;
                continue;
            }
            Err(error) => {
                let checked = summaries::without_failed(&b.graph, prog, &b.entry_nodes, &facts);
                if checked == facts || !matches!(error, EngineError::Budget { .. }) {
                    return Err(BuildFailure {
                        error: error.with_source_line(prog),
                        partial: Box::new(b.graph),
                    });
                }
                checked
            }
        };
        work = b.work;
    }
}

impl Builder<'_> {
    fn run(&mut self) -> Result<Run, EngineError> {
        loop {
            if let Run::Refuted(checked) = self.run_queue()? {
                return Ok(Run::Refuted(checked));
            }
            if !self.add_exceptional_returns()? {
                let checked = self.checked_facts();
                return Ok(if checked == *self.facts {
                    Run::Finished
                } else {
                    Run::Refuted(checked)
                });
            }
        }
    }

    /// The callee assumptions without those that fail on the graph built so far.
    fn checked_facts(&self) -> CalleeFacts {
        summaries::without_failed(&self.graph, self.prog, &self.entry_nodes, &self.facts)
    }

    fn run_queue(&mut self) -> Result<Run, EngineError> {
        let world = std::sync::Arc::clone(&self.world);
        let facts = std::sync::Arc::clone(&self.facts);
        let elements = std::sync::Arc::clone(&self.elements);
        let cx = Ctx {
            prog: self.prog,
            sem: self.opts.ints,
            world: &world,
            facts: &facts,
            elements: &elements,
        };
        let mut steps = 0u32;
        while let Some(n) = self.queue.pop_front() {
            steps += 1;
            if steps % 4 == 0 {
                if let Some(d) = self.deadline {
                    if Instant::now() > d {
                        return Err(EngineError::TimeBudget {
                            nodes: self.graph.nodes.len(),
                        });
                    }
                }
            }
            let st = &self.graph.nodes[n].state;
            if st.is_end() {
                continue;
            }
            self.spend(work_of(&self.graph.nodes[n].state))?;
            let st = &self.graph.nodes[n].state;
            match eval::step(st, &cx)? {
                StepOutcome::Refine { kind, succs } => {
                    for s in succs {
                        let id = self.add(n, s.state, kind, s.labels)?;
                        self.queue.push_back(id);
                    }
                }
                StepOutcome::Eval { kind, succ } => self.add_evaluated(n, kind, *succ)?,
                StepOutcome::Abstract(a) => self.abstract_call(n, *a)?,
            }
            if self.graph.nodes.len() >= self.next_check {
                self.next_check += CHECK_EVERY;
                let checked = self.checked_facts();
                if checked != *self.facts {
                    return Ok(Run::Refuted(checked));
                }
            }
        }
        Ok(Run::Finished)
    }

    /// Connects the call node `n` of an abstracted call: a `call` edge to the callee's entry
    /// node and a `return` edge to the continuation. The entry node is the callee's current
    /// one when the call's entry state is an instance of it; else (and on first use) a new
    /// one, the call's entry state merged with the current one (hulls first, then widening,
    /// as at a loop head), which becomes the current one. Entry nodes replaced so stay in the
    /// graph with the calls that lead to them: each call edge leads to a state its callee
    /// frame is an instance of.
    fn abstract_call(&mut self, n: NodeId, a: CallAbstraction) -> Result<(), EngineError> {
        let callee = a.site.callee.clone();
        let entry = match self.entries.get(&callee).copied() {
            Some(e) => {
                let view = self.with_statics_of(&a.entry, &self.graph.nodes[e].state)?;
                if self.holds(&view, e)? {
                    e
                } else {
                    self.generalize_entry(e, view)?
                }
            }
            None => self.new_entry(a.entry, false)?,
        };
        self.entries.insert(callee.clone(), entry);
        self.graph
            .add_edge(n, entry, EdgeKind::Call, vec![summary::call_label(&callee)]);
        self.sites.push((n, entry, a.site, BTreeSet::new()));
        self.add_evaluated(n, EdgeKind::Return, a.cont)
    }

    /// A new entry node of a method graph, expanded like the start node.
    fn new_entry(&mut self, st: State, merged: bool) -> Result<NodeId, EngineError> {
        if self.graph.nodes.len() >= self.opts.max_nodes {
            return Err(EngineError::Budget {
                max: self.opts.max_nodes,
            });
        }
        let e = self.graph.add_node(st);
        self.register(e, None, merged);
        self.entry_nodes.insert(e);
        self.queue.push_back(e);
        Ok(e)
    }

    /// The entry node that replaces entry node `e` for a call whose entry state `view` is no
    /// instance of it: their merge (spec §7.3; the first merge takes hulls, later ones widen,
    /// so the entries of one callee stabilize as a loop head's states do).
    fn generalize_entry(&mut self, e: NodeId, view: State) -> Result<NodeId, EngineError> {
        let older = self.with_statics_of(&self.graph.nodes[e].state, &view)?;
        let opts = MergeOptions {
            widen: self.merged[e],
            thresholds: self.prog.compared_constants(&older.frames[0].method),
            sem: self.opts.ints,
        };
        self.spend(work_of(&older) + work_of(&view))?;
        let g = merge(&older, &view, self.prog, &opts)
            .map_err(|err| EngineError::Internal(err.to_string()))?;
        self.new_entry(g, true)
    }

    /// Whether the state `s` (no node) is an instance of node `general`.
    fn holds(&mut self, s: &State, general: NodeId) -> Result<bool, EngineError> {
        self.spend(work_of(s) + work_of(&self.graph.nodes[general].state))?;
        Ok(instance_holds(
            s,
            &self.graph.nodes[general].state,
            self.prog,
        ))
    }

    /// For every abstracted call whose callee's method graph has exceptional ends: a
    /// `return` edge per exception class to the caller's handling of it. `false` when there
    /// was nothing to add.
    fn add_exceptional_returns(&mut self) -> Result<bool, EngineError> {
        let world = std::sync::Arc::clone(&self.world);
        let facts = std::sync::Arc::clone(&self.facts);
        let elements = std::sync::Arc::clone(&self.elements);
        let cx = Ctx {
            prog: self.prog,
            sem: self.opts.ints,
            world: &world,
            facts: &facts,
            elements: &elements,
        };
        let mut added = false;
        for k in 0..self.sites.len() {
            let (n, entry, site) = (self.sites[k].0, self.sites[k].1, self.sites[k].2.clone());
            for class in self.thrown_classes(entry)? {
                if !self.sites[k].3.insert(class.clone()) {
                    continue;
                }
                let succ =
                    summary::continuation(&self.graph.nodes[n].state, &site, Some(&class), &cx)?;
                self.add_evaluated(n, EdgeKind::Return, succ)?;
                added = true;
            }
        }
        Ok(added)
    }

    /// The exception classes that end paths of the method graph from `entry` (following
    /// every edge but the `call` edges into other method graphs).
    fn thrown_classes(&self, entry: NodeId) -> Result<BTreeSet<String>, EngineError> {
        let succ = self.graph.successors();
        let mut seen = vec![false; self.graph.nodes.len()];
        let mut todo = vec![entry];
        let mut out = BTreeSet::new();
        while let Some(x) = todo.pop() {
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            let st = &self.graph.nodes[x].state;
            if let Some(End::Throw(r)) = &st.end {
                match st.value(*r) {
                    Some(HeapValue::Object { class, .. }) => {
                        out.insert(class.clone());
                    }
                    Some(v) => {
                        let ty = v.type_name().unwrap_or(crate::models::THROWABLE);
                        out.extend(self.prog.hierarchy.non_abstract_subtypes(ty)?);
                    }
                    None => {}
                }
            }
            for e in &succ[x] {
                let into_other = e.kind == EdgeKind::Call
                    && self.graph.nodes[e.to].state.frames.len() == 1
                    && self.entry_nodes.contains(&e.to);
                if !into_other {
                    todo.push(e.to);
                }
            }
        }
        Ok(out)
    }

    fn add(
        &mut self,
        from: NodeId,
        mut state: State,
        kind: EdgeKind,
        labels: Vec<Label>,
    ) -> Result<NodeId, EngineError> {
        if self.graph.nodes.len() >= self.opts.max_nodes {
            return Err(EngineError::Budget {
                max: self.opts.max_nodes,
            });
        }
        crate::refine::equality::drop_impossible(&mut state, self.prog);
        state.gc();
        state.validate().map_err(|e| {
            EngineError::Internal(format!(
                "ill-formed state after {kind} from node {from}: {e}"
            ))
        })?;
        let id = self.graph.add_node(state);
        self.register(id, Some(from), false);
        self.graph.add_edge(from, id, kind, labels);
        Ok(id)
    }

    /// Records the bookkeeping of the new node `id`.
    fn register(&mut self, id: NodeId, parent: Option<NodeId>, merged: bool) {
        self.parent.push(parent);
        self.merged.push(merged);
        self.redirected.push(false);
        let next = self.positions.len();
        let p = *self
            .positions
            .entry(position(&self.graph.nodes[id].state))
            .or_insert(next);
        if p == self.at.len() {
            self.at.push(Vec::new());
            self.widths.push(None);
        }
        self.pos.push(p);
        self.at[p].push(id);
        self.sigs.push(None);
    }

    /// Counts `units` of work against [`BuildLimits::max_work`].
    fn spend(&mut self, units: u64) -> Result<(), EngineError> {
        self.work += units;
        match self.max_work {
            Some(max) if self.work > max => Err(EngineError::WorkBudget {
                max,
                nodes: self.graph.nodes.len(),
            }),
            _ => Ok(()),
        }
    }

    fn instance_edge(&mut self, from: NodeId, to: NodeId) {
        self.redirected[from] = true;
        self.graph.add_edge(from, to, EdgeKind::Instance, vec![]);
    }

    fn add_evaluated(&mut self, n: NodeId, kind: EdgeKind, succ: Succ) -> Result<(), EngineError> {
        let backward = self.is_backward_jump(n, &succ.state)?;
        let id = self.add(n, succ.state, kind, succ.labels)?;
        if self.graph.nodes[id].is_end() {
            return Ok(());
        }
        if backward {
            self.loop_head(id)
        } else {
            let p = self.pos[id];
            // the nodes at p stay the same meanwhile (`id` is the last of them)
            for k in 0..self.at[p].len() {
                let m = self.at[p][k];
                if m != id && self.is_inner(m) && self.instance_of(id, m)? {
                    self.instance_edge(id, m);
                    return Ok(());
                }
            }
            if let Some(m) = self.parallel_partner(id) {
                return self.merge_into(id, m);
            }
            self.queue.push_back(id);
            Ok(())
        }
    }

    /// The node a new evaluation successor `id` is merged with when many expanded states have
    /// reached its position on parallel paths: [I] merges such states (spec §7.3, "parallel
    /// path merging") so that the case analyses of straight-line code (one equality refinement
    /// per `=?` partner before a `putfield`) do not multiply. The partner is the last merged
    /// node there, so repeated merges widen one chain; else the last expanded node.
    fn parallel_partner(&self, id: NodeId) -> Option<NodeId> {
        let here = &self.at[self.pos[id]];
        if here.len() <= PARALLEL_MERGE_AFTER {
            return None;
        }
        // parallel: not on the construction path of `id` (earlier loop iterations are, and
        // loop heads have their own merging)
        let mut path = HashSet::new();
        let mut cur = self.parent[id];
        while let Some(a) = cur {
            path.insert(a);
            cur = self.parent[a];
        }
        let expanded = here
            .iter()
            .filter(|&&m| m != id && self.is_inner(m) && !path.contains(&m));
        if expanded.clone().count() < PARALLEL_MERGE_AFTER {
            return None;
        }
        let st = &self.graph.nodes[id].state;
        let fits = |m: NodeId| {
            let other = &self.graph.nodes[m].state;
            // what `merge` requires besides the position (statics are filled by `merge_into`)
            other.split == st.split
                && other.frames.iter().zip(&st.frames).all(|(a, b)| {
                    a.exception.is_some() == b.exception.is_some() && a.stack.len() == b.stack.len()
                })
                && same_classes_held(other, st)
        };
        let cands: Vec<NodeId> = expanded.copied().filter(|&m| fits(m)).collect();
        let last_merged = cands.iter().rev().find(|&&m| self.merged[m]);
        last_merged.or(cands.last()).copied()
    }

    /// Nodes that are expanded (not themselves redirected by an instance edge).
    fn is_inner(&self, m: NodeId) -> bool {
        !self.redirected[m]
    }

    fn instance_of(&mut self, specific: NodeId, general: NodeId) -> Result<bool, EngineError> {
        // the signatures are a necessary condition, far cheaper than the check itself
        self.sig(general);
        self.sig(specific);
        if let (Some(g), Some(s)) = (&self.sigs[general], &self.sigs[specific]) {
            if !g.admits(s) {
                return Ok(false);
            }
        }
        let (a, b) = (
            &self.graph.nodes[specific].state,
            &self.graph.nodes[general].state,
        );
        self.spend(work_of(a) + work_of(b))?;
        let (a, b) = (
            &self.graph.nodes[specific].state,
            &self.graph.nodes[general].state,
        );
        Ok(instance_holds(a, b, self.prog))
    }

    fn sig(&mut self, n: NodeId) {
        if self.sigs[n].is_none() {
            let width = &mut self.widths[self.pos[n]];
            let sig = Signature::of(&self.graph.nodes[n].state, |features| {
                *width.get_or_insert_with(|| signature_width(features))
            });
            self.sigs[n] = Some(sig);
        }
    }

    /// Whether the step from `n` to `succ` was a jump to an earlier instruction of the same
    /// method.
    fn is_backward_jump(&self, n: NodeId, succ: &State) -> Result<bool, EngineError> {
        let st = &self.graph.nodes[n].state;
        let (Some(f), Some(g)) = (st.top(), succ.top()) else {
            return Ok(false);
        };
        if f.method != g.method || st.frames.len() != succ.frames.len() || g.pc > f.pc {
            return Ok(false);
        }
        let class = self.prog.hierarchy.classpath().load(&f.method.class)?;
        let method = class.method(&f.method.name, Some(&f.method.desc))?;
        let insn = method.code.as_ref().and_then(|c| c.at(f.pc));
        Ok(matches!(
            insn,
            Some(
                Insn::Goto(_)
                    | Insn::If { .. }
                    | Insn::IfICmp { .. }
                    | Insn::IfACmp { .. }
                    | Insn::IfNull { .. }
                    | Insn::IfNonNull { .. }
                    | Insn::TableSwitch { .. }
                    | Insn::LookupSwitch { .. }
            )
        ))
    }

    /// A state `id` at a loop head: instance edge to an ancestor at the same position, or
    /// merge with the nearest one.
    fn loop_head(&mut self, id: NodeId) -> Result<(), EngineError> {
        let p = self.pos[id];
        let mut ancestors = Vec::new();
        let mut cur = self.parent[id];
        while let Some(a) = cur {
            if self.pos[a] == p && self.is_inner(a) {
                ancestors.push(a);
            }
            cur = self.parent[a];
        }
        for &m in &ancestors {
            if self.instance_of(id, m)? {
                self.instance_edge(id, m);
                return Ok(());
            }
        }
        let Some(&m) = ancestors.first() else {
            // first visit of this position on this path
            self.queue.push_back(id);
            return Ok(());
        };
        self.merge_into(id, m)
    }

    /// Generalizes the new state `id` with the expanded node `m` at its position: the merged
    /// state is added, reached from `id` by an instance edge, and expanded. The first merge with
    /// `m` takes hulls; a merge with a merged `m` widens.
    fn merge_into(&mut self, id: NodeId, m: NodeId) -> Result<(), EngineError> {
        let method = &self.graph.nodes[id]
            .state
            .top()
            .map(|f| f.method.clone())
            .ok_or_else(|| EngineError::Internal("loop head without frames".into()))?;
        let opts = MergeOptions {
            widen: self.merged[m],
            thresholds: self.prog.compared_constants(method),
            sem: self.opts.ints,
        };
        // both states must know the same static fields; the new one gets the statics only
        // the older one knows along a refinement edge (it represents the same states)
        let older =
            self.with_statics_of(&self.graph.nodes[m].state, &self.graph.nodes[id].state)?;
        let newer = self.with_statics_of(&self.graph.nodes[id].state, &older)?;
        let id = if newer.statics.len() > self.graph.nodes[id].state.statics.len() {
            let fields = newer
                .statics
                .keys()
                .filter(|k| !self.graph.nodes[id].state.statics.contains_key(*k))
                .cloned()
                .collect();
            let label = Label::FilledStatics { fields };
            let filled = self.add(id, newer.clone(), EdgeKind::Refine, vec![label])?;
            self.redirected[id] = true;
            filled
        } else {
            id
        };
        self.spend(work_of(&older) + work_of(&newer))?;
        let g = merge(&older, &newer, self.prog, &opts)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        if self.graph.nodes.len() >= self.opts.max_nodes {
            return Err(EngineError::Budget {
                max: self.opts.max_nodes,
            });
        }
        let gid = self.graph.add_node(g);
        self.register(gid, Some(id), true);
        self.instance_edge(id, gid);
        self.queue.push_back(gid);
        Ok(())
    }

    /// `st` knowing also the static fields `other` knows ([`summary::with_statics_of`]).
    fn with_statics_of(&self, st: &State, other: &State) -> Result<State, EngineError> {
        summary::with_statics_of(st, other, self.prog, self.opts.ints)
            .map_err(EngineError::Internal)
    }
}
