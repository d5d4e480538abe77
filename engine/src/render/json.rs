//! The JSON form of a graph and its reader (`jtg check --graph`):
//!
//! ```json
//! {"method": "List.contains(LList;I)Z", "start": 0, "complete": true,
//!  "nodes": [{"id": 0, "method": "List.contains(LList;I)Z", "pc": 0, "end": false, "state": "00 | …"}],
//!  "edges": [{"from": 0, "to": 1, "kind": "eval", "labels": ["i3 = i1 - 1"]}]}
//! ```
//! `state` is the text form relative to the graph's method; `pc` is `null` for program ends.

use crate::graph::{EdgeKind, Graph, Label, Node};
use crate::state::text::{parse_state, LocalNames, TextContext};
use crate::state::MethodId;
use serde::{Deserialize, Serialize};

/// The JSON form as data: states and labels stay text (what `jtg diff` compares, so it needs
/// no class path to read local-variable names).
#[derive(Serialize, Deserialize)]
pub struct JsonGraph {
    pub method: String,
    pub start: usize,
    pub complete: bool,
    pub nodes: Vec<JsonNode>,
    pub edges: Vec<JsonEdge>,
}

#[derive(Serialize, Deserialize)]
pub struct JsonNode {
    pub id: usize,
    /// The method of the top frame (the graph's method for program ends).
    pub method: String,
    pub pc: Option<u32>,
    pub end: bool,
    pub state: String,
}

#[derive(Serialize, Deserialize)]
pub struct JsonEdge {
    pub from: usize,
    pub to: usize,
    pub kind: String,
    pub labels: Vec<String>,
}

pub fn render(g: &Graph, names: &dyn LocalNames) -> String {
    let nodes = g
        .nodes
        .iter()
        .map(|n| JsonNode {
            id: n.id,
            method: n
                .state
                .top()
                .map_or_else(|| g.method.to_string(), |f| f.method.to_string()),
            pc: n.state.top().map(|f| f.pc),
            end: n.is_end(),
            state: super::node_state_text(g, n.id, names),
        })
        .collect();
    let edges = g
        .edges
        .iter()
        .map(|e| JsonEdge {
            from: e.from,
            to: e.to,
            kind: e.kind.name().into(),
            labels: e.labels.iter().map(|l| l.to_string()).collect(),
        })
        .collect();
    let j = JsonGraph {
        method: g.method.to_string(),
        start: g.start,
        complete: g.is_complete(),
        nodes,
        edges,
    };
    serde_json::to_string_pretty(&j).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("graph JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("graph JSON: {0}")]
    Invalid(String),
}

/// Reads the JSON form without parsing states: node ids must be 0..n in order, edges must
/// connect existing nodes and have a known kind.
pub fn read_text_graph(text: &str) -> Result<JsonGraph, ReadError> {
    let j: JsonGraph = serde_json::from_str(text)?;
    for (k, n) in j.nodes.iter().enumerate() {
        if n.id != k {
            return Err(ReadError::Invalid(format!("node {k} has id {}", n.id)));
        }
    }
    if j.start >= j.nodes.len() {
        return Err(ReadError::Invalid(format!(
            "start node {} does not exist",
            j.start
        )));
    }
    for e in &j.edges {
        if EdgeKind::parse(&e.kind).is_none() {
            return Err(ReadError::Invalid(format!(
                "unknown edge kind `{}`",
                e.kind
            )));
        }
        if e.from >= j.nodes.len() || e.to >= j.nodes.len() {
            return Err(ReadError::Invalid(format!(
                "edge {} → {} mentions a missing node",
                e.from, e.to
            )));
        }
    }
    Ok(j)
}

/// Reads the JSON form back. States are parsed with `names` (local-variable names of the
/// program); node ids must be 0..n in order and edges must connect existing nodes.
pub fn read(text: &str, names: &dyn LocalNames) -> Result<Graph, ReadError> {
    let j: JsonGraph = serde_json::from_str(text)?;
    let method = MethodId::parse(&j.method)
        .ok_or_else(|| ReadError::Invalid(format!("bad method `{}`", j.method)))?;
    let ctx = TextContext::for_method(method.clone(), names);
    let mut nodes = Vec::with_capacity(j.nodes.len());
    for (k, n) in j.nodes.iter().enumerate() {
        if n.id != k {
            return Err(ReadError::Invalid(format!("node {k} has id {}", n.id)));
        }
        let state = parse_state(&n.state, &ctx)
            .map_err(|e| ReadError::Invalid(format!("node {k}: {e}")))?;
        nodes.push(Node { id: k, state });
    }
    if j.start >= nodes.len() {
        return Err(ReadError::Invalid(format!(
            "start node {} does not exist",
            j.start
        )));
    }
    let mut g = Graph {
        method,
        nodes,
        edges: vec![],
        start: j.start,
    };
    for e in j.edges {
        let kind = EdgeKind::parse(&e.kind)
            .ok_or_else(|| ReadError::Invalid(format!("unknown edge kind `{}`", e.kind)))?;
        if e.from >= g.nodes.len() || e.to >= g.nodes.len() {
            return Err(ReadError::Invalid(format!(
                "edge {} → {} mentions a missing node",
                e.from, e.to
            )));
        }
        let labels = e.labels.iter().map(|l| Label::parse(l)).collect();
        g.add_edge(e.from, e.to, kind, labels);
    }
    Ok(g)
}
