//! A mutant: one change to a graph, the operator that made it, and its equivalence proof if
//! it has one.

use jtg_engine::graph::{Label, NodeId};
use jtg_engine::state::{HeapValue, Interval, MustReach, Ref};
use jtg_engine::Graph;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    DropRefinement,
    NarrowInterval,
    NarrowCounter,
    DropPredicate,
    FlipLabel,
    DropLabel,
    ReplaceLabel,
    SwapRefinement,
    RetargetInstance,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::DropRefinement => "drop-refinement",
            Operator::NarrowInterval => "narrow-interval",
            Operator::NarrowCounter => "narrow-counter",
            Operator::DropPredicate => "drop-predicate",
            Operator::FlipLabel => "flip-label",
            Operator::DropLabel => "drop-label",
            Operator::ReplaceLabel => "replace-label",
            Operator::SwapRefinement => "swap-refinement",
            Operator::RetargetInstance => "retarget-instance",
        }
    }
}

/// One mutant graph.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub operator: Operator,
    pub description: String,
    /// The change to the original graph (applied on demand by [`Mutant::graph`], so that
    /// thousands of mutants of a large graph do not hold thousands of graph copies).
    pub change: Change,
    /// Whether the start node's state changed (informative: inputs always come from the original).
    pub start_changed: bool,
    /// `Some(reason)` when the mutant is equivalent by one of the module's criteria.
    pub equivalent: Option<String>,
}

/// One mutation of a graph.
#[derive(Clone, Debug)]
pub enum Change {
    RemoveEdge(usize),
    SetInt(NodeId, Ref, Interval),
    RemoveMayEqual(NodeId, Ref, Ref),
    RemoveJoin(NodeId, Ref, Ref),
    RemoveNonTree(NodeId, Ref),
    RemoveCyclic(NodeId, Ref),
    RemoveMustReach(NodeId, MustReach),
    SetLabel(usize, usize, Label),
    /// Every listed edge's labels replaced.
    SetLabels(Vec<(usize, Vec<Label>)>),
    RemoveLabel(usize, usize),
    Retarget(usize, NodeId),
}

impl Mutant {
    /// The mutant graph: `base` (the graph the mutant was derived from) with the change.
    pub fn graph(&self, base: &Graph) -> Graph {
        let mut g = base.clone();
        match &self.change {
            Change::RemoveEdge(k) => {
                g.edges.remove(*k);
            }
            Change::SetInt(n, r, iv) => {
                g.nodes[*n].state.heap.insert(*r, HeapValue::Int(*iv));
            }
            Change::RemoveMayEqual(n, a, b) => g.nodes[*n].state.preds.remove_may_equal(*a, *b),
            Change::RemoveJoin(n, a, b) => {
                g.nodes[*n].state.preds.joins.remove(&(*a, *b));
            }
            Change::RemoveNonTree(n, r) => {
                g.nodes[*n].state.preds.non_tree.remove(r);
            }
            Change::RemoveCyclic(n, r) => {
                g.nodes[*n].state.preds.cyclic.remove(r);
            }
            Change::RemoveMustReach(n, m) => {
                g.nodes[*n].state.preds.must_reach.remove(m);
            }
            Change::SetLabel(k, j, l) => g.edges[*k].labels[*j] = l.clone(),
            Change::SetLabels(ls) => {
                for (k, l) in ls {
                    g.edges[*k].labels.clone_from(l);
                }
            }
            Change::RemoveLabel(k, j) => {
                g.edges[*k].labels.remove(*j);
            }
            Change::Retarget(k, t) => g.edges[*k].to = *t,
        }
        g
    }
}
