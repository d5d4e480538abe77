//! The graph analyses behind the equivalence proofs, together: each excludes the edges the
//! others show dead (module docs of the crate, *Equivalent mutants*).

use crate::distinct::Distinct;
use crate::invariant::Invariant;
use crate::nullness::Nullness;
use crate::positions::{self, Facts};
use crate::reach;
use crate::relations::Relations;
use crate::statics::{Compared, Unbound};
use jtg_engine::graph::{Label, NodeId};
use jtg_engine::state::{HeapValue, IntSemantics, Interval, Ref, State};
use jtg_engine::{Graph, Program};

/// The graph analyses behind the proofs: the interval invariant and the must-distinct
/// positions, each excluding the edges the other shows dead.
pub struct Analyses {
    pub intervals: Invariant,
    distinct: Distinct,
    nullness: Nullness,
    relations: Relations,
    facts: Vec<Facts>,
    compared: Compared,
}

impl Analyses {
    pub fn of(g: &Graph, prog: &Program, sem: IntSemantics) -> Analyses {
        let facts = positions::facts(g, prog);
        let first = Invariant::of(g, &facts, sem, None);
        let acyclic = reach::acyclic(g, prog, &facts, &first.edges);
        let feasible: Vec<bool> = (0..g.edges.len())
            .map(|k| first.edges[k] && !acyclic.dead[k])
            .collect();
        let nullness = Nullness::of(g, &facts, &feasible);
        let feasible: Vec<bool> = (0..g.edges.len())
            .map(|k| feasible[k] && !nullness.dead[k])
            .collect();
        let distinct = Distinct::of(g, &facts, &feasible, &acyclic.pairs);
        // `distinct.dead` includes every edge that is not `feasible`
        let intervals = Invariant::of(g, &facts, sem, Some(&distinct.dead));
        let dead = |k: usize| !intervals.edges[k] || distinct.dead[k];
        let relations = Relations::of(g, &facts, &intervals, dead, sem);
        Analyses {
            compared: Compared::of(g, prog),
            intervals,
            distinct,
            nullness,
            relations,
            facts,
        }
    }

    /// Whether no matchable path reaches node `n`.
    pub fn unreachable(&self, n: NodeId) -> bool {
        self.intervals.nodes[n].is_none()
            || self.distinct.nodes[n].is_none()
            || self.nullness.nodes[n].is_none()
            || self.relations.unreachable(n)
    }

    /// Whether no matchable path takes edge `k`.
    pub fn dead(&self, k: usize) -> bool {
        !self.intervals.edges[k]
            || self.distinct.dead[k]
            || self.nullness.dead[k]
            || !self.relations.edges[k]
    }

    /// Node `n`'s state with every integer interval narrowed to the interval invariant and
    /// the difference constraints (`None`: unreachable); every concrete state the check can
    /// meet at `n` is an instance of it.
    pub fn tightened(&self, g: &Graph, n: NodeId) -> Option<State> {
        let mut st = self.intervals.tightened(g, n)?;
        let ints: Vec<(Ref, Interval)> = st
            .heap
            .iter()
            .filter_map(|(r, v)| match v {
                HeapValue::Int(iv) => Some((*r, *iv)),
                _ => None,
            })
            .collect();
        for (r, own) in ints {
            if let Some(v) = self
                .relations
                .interval(n, r)
                .and_then(|i| i.intersect(&own))
            {
                st.heap.insert(r, HeapValue::Int(v));
            }
        }
        Some(st)
    }

    /// The interval the difference constraints give `r` at node `n` (module `relations`).
    pub fn related_interval(&self, n: NodeId, r: Ref) -> Option<Interval> {
        self.relations.interval(n, r)
    }

    /// Whether the check can bind `r` at node `n` (module `statics`: not when only unread
    /// statics reach it, or those and the fields of an object under construction).
    pub fn bound(&self, n: NodeId, r: Ref) -> bool {
        self.compared.unbound(n, r).is_none()
    }

    /// Why the check never binds `r` at node `n` (`None`: it may bind it).
    pub(crate) fn unbound(&self, n: NodeId, r: Ref) -> Option<Unbound> {
        self.compared.unbound(n, r)
    }

    /// Whether label `new`, in place of label `j` of edge `k`, holds on every matchable path
    /// that takes the edge (module `relations`).
    pub fn implies(&self, g: &Graph, k: usize, j: usize, new: &Label) -> bool {
        self.relations.implies(g, &self.facts, k, j, new)
    }

    /// Whether `a` and `b` are never one object at node `n`.
    pub fn never_same(&self, n: NodeId, a: Ref, b: Ref) -> bool {
        self.distinct.never_same(&self.facts[n], n, a, b)
    }
}
