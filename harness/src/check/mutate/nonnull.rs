//! Must-non-null positions: per node, the root positions (locals and stack entries) whose run
//! value is an object, never `null`, on every path the check can match from the start node.
//!
//! A node's own state gives such positions: where the check surely reads a root (a stack entry
//! or a live local) and the state has an existing object there (`C(…)`, a realized object or
//! array), the check accepts only an object (or one under construction, which is no `null`
//! either). Edges carry the facts from their source positions like the intervals of
//! [`super::Invariant`] ([`source_of`]: the same value at both ends of a refinement, split or
//! instance edge; an instruction's effect on an `eval` edge; an inlined `return`). The greatest
//! fixpoint (intersection over incoming edges, starting from "all positions") holds on every
//! path by induction on its length.
//!
//! An edge is *dead* when its target puts `null` at a position the check surely reads whose
//! source holds an object on every matchable path: the check rejects the target for every run
//! that gets there, so no run takes the edge (e.g. `tail == null` tested again in a later
//! iteration of a loop that set `tail` to a new object, after a merge forgot it).

use super::invariant::{source_of, Facts, Pos, Root};
use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::{HeapValue, Ref, State};
use std::collections::BTreeSet;

type Positions = BTreeSet<Pos>;

/// The must-non-null root positions per node (`None`: no path from the start node reaches it)
/// and the edges no such path takes.
pub(super) struct NonNull {
    pub(super) nodes: Vec<Option<Positions>>,
    pub(super) dead: Vec<bool>,
}

/// The root positions of `s` (frames and stack entries counted from the top) and their
/// references.
fn roots(s: &State) -> Vec<(Pos, Ref)> {
    let mut out = Vec::new();
    for (k, f) in s.frames.iter().rev().enumerate() {
        for (slot, r) in f.locals.iter().enumerate() {
            if let Some(r) = r {
                out.push(((Root::Local(k, slot), vec![]), *r));
            }
        }
        for (j, r) in f.stack.iter().rev().enumerate() {
            out.push(((Root::Stack(k, j), vec![]), *r));
        }
    }
    out
}

/// Whether `r` is an existing object (never null) in `s`.
fn existing(s: &State, r: Ref) -> bool {
    matches!(
        s.value(r),
        Some(HeapValue::Object { .. } | HeapValue::Abstract { .. } | HeapValue::Array { .. })
    )
}

/// Surely read root positions holding an existing object.
fn own(s: &State, f: &Facts) -> Positions {
    roots(s)
        .into_iter()
        .filter(|(p, r)| f.surely_read(p) && existing(s, *r))
        .map(|(p, _)| p)
        .collect()
}

impl NonNull {
    /// `feasible`: edges another sound analysis has not ruled out.
    pub(super) fn of(g: &Graph, facts: &[Facts], feasible: &[bool]) -> NonNull {
        let n = g.nodes.len();
        let own: Vec<Positions> = (0..n).map(|k| own(&g.nodes[k].state, &facts[k])).collect();
        let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, e) in g.edges.iter().enumerate() {
            incoming[e.to].push(k);
            outgoing[e.from].push(k);
        }
        let mut nn: Vec<Option<Positions>> = vec![None; n];
        nn[g.start] = Some(own[g.start].clone());
        let mut todo: Vec<NodeId> = (0..n).collect();
        while let Some(t) = todo.pop() {
            if t == g.start {
                continue;
            }
            let mut acc: Option<Positions> = None;
            for &k in &incoming[t] {
                let e = &g.edges[k];
                let Some(src) = nn[e.from].as_ref() else {
                    continue;
                };
                if !feasible[k] || dead(g, facts, k, src) {
                    continue;
                }
                let tr = transfer(g, facts, k, src);
                acc = Some(match acc {
                    None => tr,
                    Some(a) => a.intersection(&tr).cloned().collect(),
                });
            }
            let Some(mut new) = acc else { continue };
            new.extend(own[t].iter().cloned());
            if nn[t].as_ref() != Some(&new) {
                nn[t] = Some(new);
                todo.extend(outgoing[t].iter().map(|&k| g.edges[k].to));
            }
        }
        let dead = (0..g.edges.len())
            .map(|k| {
                let e = &g.edges[k];
                match nn[e.from].as_ref() {
                    None => true,
                    Some(src) => !feasible[k] || dead(g, facts, k, src),
                }
            })
            .collect();
        NonNull { nodes: nn, dead }
    }
}

/// The positions edge `k` carries into its target.
fn transfer(g: &Graph, facts: &[Facts], k: usize, src: &Positions) -> Positions {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let sf = &facts[e.from];
    roots(t)
        .into_iter()
        .filter(|(p, _)| source_of(e.kind, s, sf, t, p).is_some_and(|q| src.contains(&q)))
        .map(|(p, _)| p)
        .collect()
}

/// Whether edge `k`'s target puts `null` at a surely read position whose source holds an
/// object on every matchable path.
fn dead(g: &Graph, facts: &[Facts], k: usize, src: &Positions) -> bool {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let (sf, tf) = (&facts[e.from], &facts[e.to]);
    roots(t).into_iter().any(|(p, r)| {
        r.is_null()
            && tf.surely_read(&p)
            && source_of(e.kind, s, sf, t, &p).is_some_and(|q| src.contains(&q))
    })
}
