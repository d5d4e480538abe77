//! The JSON form of a graph and its reader (`jtg check --graph`), documented in `docs/json.md`:
//!
//! ```json
//! {"format_version": 2, "method": "List.contains(LList;I)Z", "start": 0, "complete": true,
//!  "nodes": [{"id": 0, "method": "List.contains(LList;I)Z", "pc": 0, "end": false, "state": "00 | …",
//!             "source": "List.java:12"}],
//!  "edges": [{"from": 0, "to": 1, "kind": "eval",
//!             "labels": [{"label": "arith", "res": "i3", "op": "sub", "a": "i1", "b": "1"}]}]}
//! ```
//! `state` is the text form relative to the graph's method; `pc` is `null` for program ends;
//! labels are typed ([`crate::edge`]). A label that cannot be read is an error naming its edge.

use crate::graph::{validate_labels, EdgeKind, Graph, Label, Node};
use crate::state::text::{parse_state, LocalNames, TextContext};
use crate::state::MethodId;
use serde::{Deserialize, Serialize};

/// The version of the JSON form this module writes and reads (2: typed labels).
pub const FORMAT_VERSION: u32 = 2;

/// The JSON form as data: states stay text (what `jtg diff` compares, so it needs no class
/// path to read local-variable names); labels are typed.
#[derive(Serialize)]
pub struct JsonGraph {
    pub format_version: u32,
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
    /// The source line of the top frame's pc, `File.java:12` (`null` for program ends and
    /// code without a line table; absent in graphs written before it was added).
    #[serde(default)]
    pub source: Option<String>,
}

#[derive(Serialize)]
pub struct JsonEdge {
    pub from: usize,
    pub to: usize,
    pub kind: String,
    pub labels: Vec<Label>,
}

/// [`JsonGraph`] as read, before its labels are: a label that cannot be read is then an
/// error naming its edge.
#[derive(Deserialize)]
struct RawGraph {
    format_version: u32,
    method: String,
    start: usize,
    complete: bool,
    nodes: Vec<JsonNode>,
    edges: Vec<RawEdge>,
}

#[derive(Deserialize)]
struct RawEdge {
    from: usize,
    to: usize,
    kind: String,
    labels: Vec<serde_json::Value>,
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
            source: super::node_source_line(g, n.id, names).map(|l| l.to_string()),
        })
        .collect();
    let edges = g
        .edges
        .iter()
        .map(|e| JsonEdge {
            from: e.from,
            to: e.to,
            kind: e.kind.name().into(),
            labels: e.labels.clone(),
        })
        .collect();
    let j = JsonGraph {
        format_version: FORMAT_VERSION,
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

/// Reads the JSON form without parsing states: the format version must be
/// [`FORMAT_VERSION`], node ids must be 0..n in order, edges must connect existing nodes and
/// have a known kind, and every label must be readable.
pub fn read_text_graph(text: &str) -> Result<JsonGraph, ReadError> {
    let j: RawGraph = serde_json::from_str(text)?;
    if j.format_version != FORMAT_VERSION {
        return Err(ReadError::Invalid(format!(
            "format_version {} is not {FORMAT_VERSION} (write the graph again with this jtg)",
            j.format_version
        )));
    }
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
    let mut edges = Vec::with_capacity(j.edges.len());
    for (k, e) in j.edges.into_iter().enumerate() {
        let at = format!("edge {k} ({} → {})", e.from, e.to);
        if EdgeKind::parse(&e.kind).is_none() {
            return Err(ReadError::Invalid(format!(
                "{at}: unknown edge kind `{}`",
                e.kind
            )));
        }
        if e.from >= j.nodes.len() || e.to >= j.nodes.len() {
            return Err(ReadError::Invalid(format!("{at} mentions a missing node")));
        }
        let labels = e
            .labels
            .into_iter()
            .enumerate()
            .map(|(n, v)| {
                let shown = v.to_string();
                serde_json::from_value::<Label>(v).map_err(|why| {
                    ReadError::Invalid(format!("{at}: label {n} `{shown}` cannot be read: {why}"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        edges.push(JsonEdge {
            from: e.from,
            to: e.to,
            kind: e.kind,
            labels,
        });
    }
    Ok(JsonGraph {
        format_version: j.format_version,
        method: j.method,
        start: j.start,
        complete: j.complete,
        nodes: j.nodes,
        edges,
    })
}

/// Reads the JSON form back ([`read_text_graph`]), parsing states with `names`
/// (local-variable names of the program), and validates the labels against the states
/// ([`validate_labels`]).
pub fn read(text: &str, names: &dyn LocalNames) -> Result<Graph, ReadError> {
    let j = read_text_graph(text)?;
    let method = MethodId::parse(&j.method)
        .ok_or_else(|| ReadError::Invalid(format!("bad method `{}`", j.method)))?;
    let ctx = TextContext::for_method(method.clone(), names);
    let mut nodes = Vec::with_capacity(j.nodes.len());
    for (k, n) in j.nodes.iter().enumerate() {
        let state = parse_state(&n.state, &ctx)
            .map_err(|e| ReadError::Invalid(format!("node {k}: {e}")))?;
        nodes.push(Node { id: k, state });
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
        g.add_edge(e.from, e.to, kind, e.labels);
    }
    validate_labels(&g).map_err(|e| ReadError::Invalid(e.to_string()))?;
    Ok(g)
}
