//! Checks the assumptions the continuations of abstracted calls made of their callees
//! ([`CalleeFacts`]) on a graph, finished or not (nodes and edges are only ever added, so what
//! fails on part of a graph fails on all of it). The builder starts by assuming every callee
//! pure and its results acyclic and builds again without the assumptions that fail here,
//! until none fails (the failed sets only grow, so this ends).

use super::{EdgeKind, Graph, NodeId};
use crate::class::Insn;
use crate::eval::summary::CalleeFacts;
use crate::models;
use crate::program::Program;
use crate::state::{End, HeapValue, Ref, State};
use std::collections::{BTreeSet, HashSet};

/// `facts` with every assumption that fails on `g` dropped; `entries` are the entry nodes of
/// the method graphs.
pub(super) fn without_failed(
    g: &Graph,
    prog: &Program,
    entries: &HashSet<NodeId>,
    facts: &CalleeFacts,
) -> CalleeFacts {
    let mut out = facts.clone();
    let succ = g.successors();
    let mut sorted: Vec<NodeId> = entries.iter().copied().collect();
    sorted.sort_unstable();
    for e in sorted {
        let Some(m) = g.nodes[e].state.frames.first().map(|f| f.method.clone()) else {
            continue;
        };
        if !out.impure.contains(&m) && may_write(g, prog, &succ, e) {
            out.impure.insert(m.clone());
        }
        if !out.cyclic_result.contains(&m) && may_return_cyclic(g, &succ, entries, e) {
            out.cyclic_result.insert(m);
        }
    }
    out
}

/// Whether a node reachable from `entry` (through every edge, so the graphs of the calls
/// too) executes a write: `putfield`, `putstatic`, an array store, or an invocation the graph
/// does not follow (a library model).
fn may_write(g: &Graph, prog: &Program, succ: &[Vec<&super::Edge>], entry: NodeId) -> bool {
    let mut seen = vec![false; g.nodes.len()];
    let mut todo = vec![entry];
    while let Some(n) = todo.pop() {
        if std::mem::replace(&mut seen[n], true) {
            continue;
        }
        let executes = succ[n].iter().any(|e| e.kind == EdgeKind::Eval);
        if executes && writes(prog, &g.nodes[n].state) {
            return true;
        }
        todo.extend(succ[n].iter().map(|e| e.to));
    }
    false
}

/// Whether the step of `s` (an evaluation step) may write.
fn writes(prog: &Program, s: &State) -> bool {
    let Some(f) = s.top() else { return false };
    if f.exception.is_some() {
        return false;
    }
    match prog.next_insn(s) {
        Some(Insn::Invoke { method, .. }) => {
            models::invocation_may_write(&method.class, &method.name, &method.desc_str)
        }
        Some(
            Insn::PutField(_)
            | Insn::PutStatic(_)
            | Insn::ArrayStore(_)
            | Insn::InvokeDynamic { .. },
        )
        | None => true,
        Some(_) => false,
    }
}

/// Whether some `end: return r` of the method graph from `entry` (not entering the graphs of
/// other calls) returns an object that may reach a cycle.
fn may_return_cyclic(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entries: &HashSet<NodeId>,
    entry: NodeId,
) -> bool {
    let mut seen = vec![false; g.nodes.len()];
    let mut todo = vec![entry];
    while let Some(n) = todo.pop() {
        if std::mem::replace(&mut seen[n], true) {
            continue;
        }
        let st = &g.nodes[n].state;
        if let Some(End::Return(Some(r))) = &st.end {
            if r.is_obj() && may_reach_cycle(st, *r) {
                return true;
            }
        }
        for e in &succ[n] {
            let into_other = e.kind == EdgeKind::Call && entries.contains(&e.to);
            if !into_other {
                todo.push(e.to);
            }
        }
    }
    false
}

/// Whether the object of `r` may reach a cycle: something it reaches through realized fields
/// has `⟲`, or the realized fields close a cycle. `=?` partners need no look: an instance
/// whose reference without `⟲` is a cyclic partner is no instance (spec §4.2 (k)).
fn may_reach_cycle(st: &State, r: Ref) -> bool {
    let mut done = BTreeSet::new();
    let mut on_path = BTreeSet::new();
    visit(st, r, &mut done, &mut on_path)
}

fn visit(st: &State, r: Ref, done: &mut BTreeSet<Ref>, on_path: &mut BTreeSet<Ref>) -> bool {
    if !r.is_obj() || done.contains(&r) {
        return false;
    }
    if on_path.contains(&r) || st.preds.cyclic(r).is_some() {
        return true;
    }
    on_path.insert(r);
    let next: Vec<Ref> = match st.value(r) {
        Some(v @ (HeapValue::Object { .. } | HeapValue::Array { .. })) => v.children().collect(),
        _ => Vec::new(),
    };
    let found = next.into_iter().any(|c| visit(st, c, done, on_path));
    on_path.remove(&r);
    done.insert(r);
    found
}
