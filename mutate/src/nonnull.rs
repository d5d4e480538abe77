//! Must-non-null positions: per node, the root positions (locals and stack entries) whose run
//! value is an object, never `null`, on every path the check can match from the start node.
//!
//! A node's own state gives such positions: where the check surely reads a root (a stack entry
//! or a live local) and the state has an existing object there (`C(…)`, a realized object or
//! array), the check accepts only an object (or one under construction, which is no `null`
//! either). Edges carry the facts from their source positions like the intervals of
//! [`super::Invariant`] ([`source_of`]: the same value at both ends of a refinement, split or
//! instance edge; an instruction's effect on an `eval` edge; an inlined `return`). The greatest
//! fixpoint ([`must::fixpoint`]) holds on every path by induction on its length.
//!
//! An edge is *dead* when its target puts `null` at a position the check surely reads whose
//! source holds an object on every matchable path: the check rejects the target for every run
//! that gets there, so no run takes the edge (e.g. `tail == null` tested again in a later
//! iteration of a loop that set `tail` to a new object, after a merge forgot it).

use super::invariant::{roots, source_of, Facts, Pos};
use super::must::{self, existing};
use jtg_engine::graph::Graph;
use jtg_engine::state::State;
use std::collections::BTreeSet;

type Positions = BTreeSet<Pos>;

/// The must-non-null root positions per node (`None`: no path from the start node reaches it)
/// and the edges no such path takes.
pub(super) struct NonNull {
    pub(super) nodes: Vec<Option<Positions>>,
    pub(super) dead: Vec<bool>,
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
        let m = must::fixpoint(
            g,
            &own,
            feasible,
            |k, src| dead(g, facts, k, src),
            |k, src| transfer(g, facts, k, src),
        );
        NonNull {
            nodes: m.nodes,
            dead: m.dead,
        }
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
