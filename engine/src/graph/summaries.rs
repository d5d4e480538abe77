//! Checks the assumptions the continuations of abstracted calls made of their callees
//! ([`CalleeFacts`]) on a graph, finished or not (nodes and edges are only ever added, so what
//! fails on part of a graph fails on all of it). The builder starts by assuming every callee
//! pure and its results acyclic trees and builds again without the assumptions that fail here,
//! until none fails (the failed sets only grow and the field sets of cyclic results only
//! shrink, so this ends).

use super::{EdgeKind, Graph, NodeId};
use crate::class::Insn;
use crate::eval::may_reach_from;
use crate::eval::summary::{is_isolated_tree, may_be_non_tree, CalleeFacts};
use crate::models;
use crate::program::Program;
use crate::state::Ref;
use crate::state::{End, FieldSet, MethodId, State};
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
        // a write: `putfield`, `putstatic`, an array store, or an invocation the graph does not
        // follow (a library model)
        if !out.impure.contains(&m)
            && some_step(g, &succ, e, |s| writes(prog, s))
            && !writes_only_fresh(g, &succ, e, prog, &m)
        {
            out.impure.insert(m.clone());
        }
        // the fields every cycle below a result uses only shrink from build to build
        if let Some(f) = returned_cycle_fields(g, &succ, entries, e) {
            let meet = match out.cyclic_result.get(&m) {
                Some(old) => old.intersection(&f).cloned().collect(),
                None => f,
            };
            out.cyclic_result.insert(m.clone(), meet);
        }
        if !out.shared_result.contains(&m) && may_return(g, &succ, entries, e, may_be_non_tree) {
            out.shared_result.insert(m.clone());
        }
        // a write `p.f = v` (a field or an array element) whose `v` may reach `p` or a cycle,
        // or a library model that may write
        if !out.cycle_linking.contains(&m) && some_step(g, &succ, e, |s| links_cycle(prog, s)) {
            out.cycle_linking.insert(m.clone());
        }
        // a write `p.f = v` whose `v` is no isolated tree, or a library model that may write
        if !out.tree_breaking.contains(&m) && some_step(g, &succ, e, |s| breaks_trees(prog, s)) {
            out.tree_breaking.insert(m);
        }
    }
    out
}

/// Whether a node reachable from `entry` (through every edge, so the graphs of the calls
/// too) executes a step (an evaluation step) that `step` holds of.
fn some_step(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entry: NodeId,
    step: impl Fn(&State) -> bool,
) -> bool {
    let mut seen = vec![false; g.nodes.len()];
    let mut todo = vec![entry];
    while let Some(n) = todo.pop() {
        if std::mem::replace(&mut seen[n], true) {
            continue;
        }
        let executes = succ[n].iter().any(|e| e.kind == EdgeKind::Eval);
        if executes && step(&g.nodes[n].state) {
            return true;
        }
        todo.extend(succ[n].iter().map(|e| e.to));
    }
    false
}

/// Whether the runs of `m` write only into objects they allocate, so that its continuations
/// may keep the caller's heap as it was: the bytecode summary says so
/// ([`Program::own_writes`]), every field or element write of the graph from `entry` is in
/// `m` or a method its calls may run (not code a library model calls back), and no step
/// writes a static field, runs a library model that may write, or anything
/// [`writes`] cannot read.
fn writes_only_fresh(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entry: NodeId,
    prog: &Program,
    m: &MethodId,
) -> bool {
    let Some(w) = prog.own_writes(m) else {
        return false;
    };
    if !w.only_fresh() {
        return false;
    }
    let mut closure = BTreeSet::from([m.key()]);
    let mut todo: Vec<_> = w.callees.iter().cloned().collect();
    while let Some(k) = todo.pop() {
        if closure.insert(k.clone()) {
            match prog.own_writes(&MethodId::of_key(&k)) {
                Some(c) => todo.extend(c.callees.iter().cloned()),
                None => return false,
            }
        }
    }
    let in_closure = |s: &State| s.top().is_some_and(|f| closure.contains(&f.method.key()));
    !some_step(g, succ, entry, |s| match prog.next_insn(s) {
        Some(Insn::PutField(_) | Insn::ArrayStore(_)) => {
            s.top().is_some_and(|f| f.exception.is_none()) && !in_closure(s)
        }
        _ => writes(prog, s),
    })
}

/// Whether the step of `s` (an evaluation step) may write: a `putstatic`, or a write of
/// [`write_of`] (a field, an array element, a library model that may write, or what the state
/// does not show).
fn writes(prog: &Program, s: &State) -> bool {
    let static_write = matches!(prog.next_insn(s), Some(Insn::PutStatic(_)))
        && s.top().is_some_and(|f| f.exception.is_none());
    static_write || !matches!(write_of(prog, s), Write::Nothing)
}

/// What the step of a state writes into the heap.
enum Write {
    /// Nothing.
    Nothing,
    /// `value` into a field or an element of `parent`.
    Value { parent: Ref, value: Ref },
    /// Something the state does not show: a library model that writes, or an instruction the
    /// state does not describe.
    Unknown,
}

/// The write of the step of `s` (an evaluation step).
fn write_of(prog: &Program, s: &State) -> Write {
    let Some(f) = s.top() else {
        return Write::Nothing;
    };
    if f.exception.is_some() {
        return Write::Nothing;
    }
    // the written object and value: `putfield` pops (obj, value), `aastore` (array, index, value)
    let written = match prog.next_insn(s) {
        Some(Insn::PutField(_)) => match f.stack.as_slice() {
            [.., p, v] => Some((*p, *v)),
            _ => None,
        },
        Some(Insn::ArrayStore(_)) => match f.stack.as_slice() {
            [.., p, _, v] => Some((*p, *v)),
            _ => None,
        },
        Some(Insn::Invoke { method, .. }) => {
            return match models::invocation_may_write(&method.class, &method.name, &method.desc_str)
            {
                true => Write::Unknown,
                false => Write::Nothing,
            }
        }
        Some(Insn::InvokeDynamic { .. }) | None => None,
        Some(_) => return Write::Nothing,
    };
    match written {
        Some((parent, value)) => Write::Value { parent, value },
        None => Write::Unknown,
    }
}

/// Whether the step of `s` (an evaluation step) may make a new cycle or link one in.
fn links_cycle(prog: &Program, s: &State) -> bool {
    match write_of(prog, s) {
        Write::Nothing => false,
        Write::Unknown => true,
        Write::Value { parent, value } => {
            value.is_obj()
                && (may_reach_from(s, value).contains(&parent) || s.may_reach_cycle(value))
        }
    }
}

/// Whether the step of `s` (an evaluation step) may make the structure below an object
/// other than a tree: it writes an object that is no isolated tree, or what it writes is
/// unknown.
fn breaks_trees(prog: &Program, s: &State) -> bool {
    match write_of(prog, s) {
        Write::Nothing => false,
        Write::Unknown => true,
        Write::Value { value, .. } => value.is_obj() && !is_isolated_tree(s, value),
    }
}

/// The fields every cycle below the objects the `end: return r` of the method graph from
/// `entry` return uses (`State::cycle_fields_below`, met over the ends); `None` when none of
/// them may reach a cycle.
fn returned_cycle_fields(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entries: &HashSet<NodeId>,
    entry: NodeId,
) -> Option<FieldSet> {
    let mut out: Option<FieldSet> = None;
    method_nodes(g, succ, entries, entry, |st| {
        if let Some(End::Return(Some(r))) = &st.end {
            if let Some(f) = st.cycle_fields_below(*r).filter(|_| r.is_obj()) {
                out = Some(match out.take() {
                    Some(o) => o.intersection(&f).cloned().collect(),
                    None => f,
                });
            }
        }
        false
    });
    out
}

/// Whether some `end: return r` of the method graph from `entry` (not entering the graphs of
/// other calls) returns an object `r` that `shape` holds of (may be no tree).
fn may_return(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entries: &HashSet<NodeId>,
    entry: NodeId,
    shape: fn(&State, crate::state::Ref) -> bool,
) -> bool {
    method_nodes(g, succ, entries, entry, |st| match &st.end {
        Some(End::Return(Some(r))) => r.is_obj() && shape(st, *r),
        _ => false,
    })
}

/// Visits the states of the method graph from `entry` (not entering the graphs of other
/// calls) until `visit` says stop; whether it did.
fn method_nodes(
    g: &Graph,
    succ: &[Vec<&super::Edge>],
    entries: &HashSet<NodeId>,
    entry: NodeId,
    mut visit: impl FnMut(&State) -> bool,
) -> bool {
    let mut seen = vec![false; g.nodes.len()];
    let mut todo = vec![entry];
    while let Some(n) = todo.pop() {
        if std::mem::replace(&mut seen[n], true) {
            continue;
        }
        if visit(&g.nodes[n].state) {
            return true;
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
