//! Must-distinct positions: per node, pairs of access paths whose run values are never the
//! same object on a path the check can match from the start node.
//!
//! A node's own state gives such pairs (the check's condition (f): two references without
//! `=?` bound to one object fail the node), and edges carry them from their source like the
//! intervals of [`super::Invariant`] (same positions at both ends of a refinement, split or
//! instance edge; an instruction's effect on an `eval` edge). A pair is a conditional fact:
//! "if the run shows an object at both positions, the objects differ". The greatest fixpoint
//! ([`must::fixpoint`]) holds on every path by induction on its length.
//!
//! An edge is *dead* when its target puts one existing object at two positions the check
//! surely reads whose sources are a distinct pair: no run takes it.

use super::must::{self, existing};
use super::positions::{source_of, Facts, Pos};
use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::{Ref, State};
use std::collections::BTreeSet;

pub(super) type Pairs = BTreeSet<(Pos, Pos)>;

/// The must-distinct pairs per node (`None`: no path from the start node reaches it) and the
/// edges no such path takes.
pub(super) struct Distinct {
    pub(super) nodes: Vec<Option<Pairs>>,
    pub(super) dead: Vec<bool>,
}

fn pair(p: &Pos, q: &Pos) -> (Pos, Pos) {
    if p <= q {
        (p.clone(), q.clone())
    } else {
        (q.clone(), p.clone())
    }
}

/// Pairs of positions of different object references without `=?`.
fn own(s: &State, f: &Facts) -> Pairs {
    let mut out = Pairs::new();
    for (p, a) in &f.objs {
        for (q, b) in &f.objs {
            if p < q && a != b && !s.preds.may_equal(*a, *b) {
                out.insert((p.clone(), q.clone()));
            }
        }
    }
    out
}

impl Distinct {
    /// `feasible`: edges another sound analysis has not ruled out; `extra`: further pairs per
    /// node that hold on every matchable path (module `reach`).
    pub(super) fn of(g: &Graph, facts: &[Facts], feasible: &[bool], extra: &[Pairs]) -> Distinct {
        let n = g.nodes.len();
        let own: Vec<Pairs> = (0..n)
            .map(|k| {
                let mut p = own(&g.nodes[k].state, &facts[k]);
                p.extend(extra[k].iter().cloned());
                p
            })
            .collect();
        let m = must::fixpoint(
            g,
            &own,
            feasible,
            |k, src| dead(g, facts, k, src),
            |k, src| transfer(g, facts, k, src),
        );
        Distinct {
            nodes: m.nodes,
            dead: m.dead,
        }
    }

    /// Whether the run values of every position of `a` and every position of `b` at node `n`
    /// are never one object (vacuously when the node is unreachable).
    pub(super) fn never_same(&self, f: &Facts, n: NodeId, a: Ref, b: Ref) -> bool {
        let Some(md) = &self.nodes[n] else {
            return true;
        };
        let positions = |x: Ref| -> Vec<&Pos> {
            f.objs
                .iter()
                .filter(|(_, r)| **r == x)
                .map(|(p, _)| p)
                .collect()
        };
        let (pa, pb) = (positions(a), positions(b));
        !pa.is_empty()
            && !pb.is_empty()
            && pa
                .iter()
                .all(|p| pb.iter().all(|q| p != q && md.contains(&pair(p, q))))
    }
}

/// The pairs edge `k` carries into its target.
fn transfer(g: &Graph, facts: &[Facts], k: usize, src: &Pairs) -> Pairs {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let (sf, tf) = (&facts[e.from], &facts[e.to]);
    let from: Vec<(&Pos, Option<Pos>)> = tf
        .objs
        .keys()
        .map(|p| (p, source_of(e.kind, s, sf, t, p)))
        .collect();
    let mut out = Pairs::new();
    for (i, (p, ps)) in from.iter().enumerate() {
        let Some(ps) = ps else { continue };
        for (q, qs) in &from[i + 1..] {
            let Some(qs) = qs else { continue };
            if ps != qs && src.contains(&pair(ps, qs)) {
                out.insert(pair(p, q));
            }
        }
    }
    out
}

/// Whether edge `k`'s target needs one existing object at two surely read positions whose
/// sources are distinct.
fn dead(g: &Graph, facts: &[Facts], k: usize, src: &Pairs) -> bool {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let (sf, tf) = (&facts[e.from], &facts[e.to]);
    let sure: Vec<(&Pos, Ref, Pos)> = tf
        .objs
        .iter()
        .filter(|(p, r)| existing(t, **r) && tf.surely_read(p))
        .filter_map(|(p, r)| source_of(e.kind, s, sf, t, p).map(|q| (p, *r, q)))
        .collect();
    sure.iter().enumerate().any(|(i, (_, r, ps))| {
        sure[i + 1..]
            .iter()
            .any(|(_, x, qs)| x == r && ps != qs && src.contains(&pair(ps, qs)))
    })
}
