//! Termination graphs (spec §7.1): nodes are states, edges are evaluation, refinement, split,
//! instance, call and return edges; evaluation edges carry the arithmetic and relations they
//! computed or checked.

mod builder;
mod summaries;
mod validate;

pub use crate::edge::{EdgeKind, Label, Narrowing, Operand};
/// The callee's view of an abstracted call, which its `call` edge's target is a generalization of.
pub use crate::eval::summary::{call_entry_state, call_frame, with_statics_of};
pub use builder::{build_graph, build_graph_limited, build_graph_until, BuildFailure, BuildLimits};
pub use validate::{validate_labels, LabelError};

use crate::state::{MethodId, State};

pub type NodeId = usize;

#[derive(Clone, Debug)]
pub struct Node {
    pub id: NodeId,
    pub state: State,
}

impl Node {
    /// A program end: the call stack is empty.
    pub fn is_end(&self) -> bool {
        self.state.is_end()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub kind: EdgeKind,
    pub labels: Vec<Label>,
}

impl Edge {
    /// Whether this is the `call` edge of an abstracted call (into a method graph's entry).
    pub fn is_abstract_call(&self) -> bool {
        self.kind == EdgeKind::Call
            && self
                .labels
                .iter()
                .any(|l| matches!(l, Label::AbstractCall { .. }))
    }
}

/// A termination graph of one entry method.
#[derive(Clone, Debug)]
pub struct Graph {
    pub method: MethodId,
    pub nodes: Vec<Node>,
    /// Edges in creation order; the outgoing edges of a node keep their order.
    pub edges: Vec<Edge>,
    pub start: NodeId,
}

impl Graph {
    pub fn new(method: MethodId, start: State) -> Graph {
        Graph {
            method,
            nodes: vec![Node {
                id: 0,
                state: start,
            }],
            edges: vec![],
            start: 0,
        }
    }
    pub fn add_node(&mut self, state: State) -> NodeId {
        let id = self.nodes.len();
        self.nodes.push(Node { id, state });
        id
    }
    pub fn add_edge(&mut self, from: NodeId, to: NodeId, kind: EdgeKind, labels: Vec<Label>) {
        self.edges.push(Edge {
            from,
            to,
            kind,
            labels,
        });
    }
    pub fn outgoing(&self, n: NodeId) -> impl Iterator<Item = &Edge> {
        self.edges.iter().filter(move |e| e.from == n)
    }
    /// Outgoing edges of every node, indexed by node id.
    pub fn successors(&self) -> Vec<Vec<&Edge>> {
        let mut v = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            v[e.from].push(e);
        }
        v
    }
    /// Nodes that are neither program ends nor have outgoing edges.
    pub fn open_leaves(&self) -> Vec<NodeId> {
        let succ = self.successors();
        self.nodes
            .iter()
            .filter(|n| !n.is_end() && succ[n.id].is_empty())
            .map(|n| n.id)
            .collect()
    }
    /// Complete: every leaf is a program end (spec §7.1).
    pub fn is_complete(&self) -> bool {
        self.open_leaves().is_empty()
    }
}
