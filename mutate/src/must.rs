//! The greatest fixpoint both must-analyses compute (`distinct`, `nullness`): per node, the
//! facts that hold on every path the check can match from the start node.
//!
//! A node's facts are its own (what its state makes the check require there) plus what every
//! incoming edge carries from its source, intersected over the edges that a run can take
//! (`feasible`, and not `dead` given the source's facts). The start node has only its own.
//! Starting from "every fact" at every other node (unreached: `None`) and shrinking, the
//! fixpoint holds on every path by induction on its length, and an edge that is dead under it
//! is taken by no run.

use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::{HeapValue, Ref, State};
use std::collections::BTreeSet;

/// Per node the facts (`None`: no path from the start node reaches it), and per edge whether
/// no such path takes it.
pub(super) struct Must<T> {
    pub(super) nodes: Vec<Option<BTreeSet<T>>>,
    pub(super) dead: Vec<bool>,
}

/// The fixpoint over `g` from each node's `own` facts; `dead(k, src)` says whether edge `k`
/// is taken by no run when its source has facts `src`, `transfer(k, src)` what it carries into
/// its target.
pub(super) fn fixpoint<T: Ord + Clone>(
    g: &Graph,
    own: &[BTreeSet<T>],
    feasible: &[bool],
    dead: impl Fn(usize, &BTreeSet<T>) -> bool,
    transfer: impl Fn(usize, &BTreeSet<T>) -> BTreeSet<T>,
) -> Must<T> {
    let n = g.nodes.len();
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, e) in g.edges.iter().enumerate() {
        incoming[e.to].push(k);
        outgoing[e.from].push(k);
    }
    let mut facts: Vec<Option<BTreeSet<T>>> = vec![None; n];
    facts[g.start] = Some(own[g.start].clone());
    let mut todo: Vec<NodeId> = (0..n).collect();
    while let Some(t) = todo.pop() {
        if t == g.start {
            continue;
        }
        let mut acc: Option<BTreeSet<T>> = None;
        for &k in &incoming[t] {
            let Some(src) = facts[g.edges[k].from].as_ref() else {
                continue;
            };
            if !feasible[k] || dead(k, src) {
                continue;
            }
            let tr = transfer(k, src);
            acc = Some(match acc {
                None => tr,
                Some(a) => a.intersection(&tr).cloned().collect(),
            });
        }
        let Some(mut new) = acc else { continue };
        new.extend(own[t].iter().cloned());
        if facts[t].as_ref() != Some(&new) {
            facts[t] = Some(new);
            todo.extend(outgoing[t].iter().map(|&k| g.edges[k].to));
        }
    }
    let dead = (0..g.edges.len())
        .map(|k| match facts[g.edges[k].from].as_ref() {
            None => true,
            Some(src) => !feasible[k] || dead(k, src),
        })
        .collect();
    Must { nodes: facts, dead }
}

/// Whether `r` is an existing object (never null) in `s`.
pub(super) fn existing(s: &State, r: Ref) -> bool {
    matches!(
        s.value(r),
        Some(HeapValue::Object { .. } | HeapValue::Abstract { .. } | HeapValue::Array { .. })
    )
}
