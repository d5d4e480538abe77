//! Which abstracted calls may change a size (docs/proving.md, *Abstracted calls*).
//!
//! A size counts the objects reachable from a reference through fields and array elements, so
//! only a write of a reference into an existing object (`putfield` of a reference field,
//! `aastore` into an object array) or a library model that may write changes one. The
//! graph is complete and sound (every concrete run of the callee is a path of its method graph,
//! spec §6.5), so a callee none of whose reachable nodes executes such a write changes no size
//! of the caller: its abstracted `return` edges keep every size by name instead of havocking
//! all of them. Objects the callee allocates are new references of the continuation, without
//! a size fact.

use super::summary::{CalleeSummary, Summaries};
use jtg_engine::class::{FieldType, Insn};
use jtg_engine::graph::{EdgeKind, Graph, NodeId};
use jtg_engine::models::invocation_may_write;
use jtg_engine::state::{HeapValue, State};
use jtg_engine::Program;
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Per method-graph entry node, memoised: may a run from it write a reference into the heap?
pub(super) struct CallEffects<'g> {
    g: &'g Graph,
    prog: &'g Program,
    /// Per node: its successors, whether one of its edges is a `call` edge, and whether
    /// every one of its edges is a case analysis or an instance edge (nothing executes there:
    /// the state moves to a node of the same instruction, which is searched in its turn).
    succ: Vec<Vec<NodeId>>,
    calls: Vec<bool>,
    executes_nothing: Vec<bool>,
    /// Per node: the entry node of its `abstract call` edge.
    abstract_entry: Vec<Option<NodeId>>,
    /// Per node: whether its own step may write (computed on demand).
    node_writes: RefCell<Vec<Option<bool>>>,
    entry_writes: RefCell<BTreeMap<NodeId, bool>>,
    /// What the returns of each method graph satisfy (`summary.rs`).
    summaries: &'g Summaries,
}

impl<'g> CallEffects<'g> {
    pub(super) fn new(g: &'g Graph, prog: &'g Program, summaries: &'g Summaries) -> Self {
        let mut succ = vec![Vec::new(); g.nodes.len()];
        let mut calls = vec![false; g.nodes.len()];
        let mut abstract_entry = vec![None; g.nodes.len()];
        let mut executes_nothing = vec![false; g.nodes.len()];
        let mut has_edges = vec![false; g.nodes.len()];
        for e in &g.edges {
            let moves = matches!(
                e.kind,
                EdgeKind::Refine | EdgeKind::Split | EdgeKind::Instance
            );
            executes_nothing[e.from] = moves && (executes_nothing[e.from] || !has_edges[e.from]);
            has_edges[e.from] = true;
            succ[e.from].push(e.to);
            if e.kind == EdgeKind::Call {
                calls[e.from] = true;
                if e.is_abstract_call() {
                    abstract_entry[e.from] = Some(e.to);
                }
            }
        }
        CallEffects {
            g,
            prog,
            succ,
            calls,
            executes_nothing,
            abstract_entry,
            node_writes: RefCell::new(vec![None; g.nodes.len()]),
            entry_writes: RefCell::new(BTreeMap::new()),
            summaries,
        }
    }

    /// The summary of the method graph the abstracted call at `call` enters.
    pub(super) fn summary_of(&self, call: NodeId) -> Option<CalleeSummary<'g>> {
        let entry = self.abstract_entry.get(call).copied().flatten()?;
        Some(CalleeSummary {
            g: self.g,
            entry,
            summary: self.summaries.by_entry.get(&entry)?,
            element_lengths: self.summaries.element_lengths,
        })
    }

    /// Whether the callee abstracted at call node `call` may change a size: `true` when the
    /// node has no `abstract call` edge (nothing known) or some node reachable from the
    /// callee's entry may write.
    pub(super) fn call_may_write(&self, call: NodeId) -> bool {
        match self.abstract_entry.get(call).copied().flatten() {
            Some(entry) => self.may_write_from(entry),
            None => true,
        }
    }

    fn may_write_from(&self, entry: NodeId) -> bool {
        if let Some(&w) = self.entry_writes.borrow().get(&entry) {
            return w;
        }
        let mut seen = vec![false; self.g.nodes.len()];
        let mut stack = vec![entry];
        seen[entry] = true;
        let mut writes = false;
        while let Some(n) = stack.pop() {
            if self.node_may_write(n) {
                writes = true;
                break;
            }
            for &m in &self.succ[n] {
                if !seen[m] {
                    seen[m] = true;
                    stack.push(m);
                }
            }
        }
        self.entry_writes.borrow_mut().insert(entry, writes);
        writes
    }

    /// The step of node `n` may write a reference into the heap. An invocation whose callee
    /// runs inside the graph (a `call` edge: inlined or abstracted) is judged by the callee's
    /// nodes, which the search reaches through that edge; a node left only by refinements,
    /// splits or instance edges executes nothing (the instruction runs at the node they lead
    /// to: an invocation reached through an instance edge is judged where it has its `call`).
    fn node_may_write(&self, n: NodeId) -> bool {
        if let Some(w) = self.node_writes.borrow()[n] {
            return w;
        }
        let w = !self.executes_nothing[n]
            && writes_heap(self.prog, &self.g.nodes[n].state, self.calls[n]);
        self.node_writes.borrow_mut()[n] = Some(w);
        w
    }
}

/// Whether the step of `s` may write a reference into an existing object: `putfield` of a
/// reference field, `aastore` (unless the array is known to hold primitives), an invocation
/// whose callee does not run in the graph (`calls_in_graph`: a library model) unless its model
/// writes nothing (`models::invocation_may_write`), or an instruction that cannot be read.
pub(super) fn writes_heap(prog: &Program, s: &State, calls_in_graph: bool) -> bool {
    let Some(f) = s.top() else {
        return false;
    };
    if f.exception.is_some() {
        return false;
    }
    match prog.next_insn(s) {
        Some(Insn::PutField(fr)) => matches!(fr.desc, FieldType::Object(_) | FieldType::Array(_)),
        Some(Insn::ArrayStore(_)) => {
            let arr = f.stack.len().checked_sub(3).map(|k| f.stack[k]);
            !matches!(
                arr.and_then(|a| s.value(a)),
                Some(HeapValue::Array { ty, .. }) if !(ty.starts_with("[L") || ty.starts_with("[["))
            )
        }
        // a library model writes only where its model says it may (`Math.max` never does)
        Some(Insn::Invoke { method, .. }) => {
            !calls_in_graph && invocation_may_write(&method.class, &method.name, &method.desc_str)
        }
        Some(Insn::InvokeDynamic { .. }) => !calls_in_graph,
        Some(_) => false,
        None => true,
    }
}
