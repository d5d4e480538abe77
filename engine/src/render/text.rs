//! The text form of a graph: one block per node (its id, state, and outgoing edges).
//!
//! ```text
//! [1]  01 | cur: o1, x: i1 | o1  @ List.java:12
//!      o1: List(?)  i1: Z
//!      ⇢ [2] refine  o1 = null
//!      ⇢ [3] refine  o1 = o2
//! ```
//! Arrows: `→` evaluation, call and return; `⇢` refinement and split; `⇒` instance. The first
//! line of a node ends with the source line of its top frame's pc (`  @ File.java:LINE`) when
//! the class file has a line table; the state text before it is unchanged.

use super::{node_source_line, node_state_text, source_suffix};
use crate::graph::{EdgeKind, Graph};
use crate::state::text::LocalNames;
use std::fmt::Write as _;

pub fn arrow(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Eval | EdgeKind::Call | EdgeKind::Return => "→",
        EdgeKind::Refine | EdgeKind::Split => "⇢",
        EdgeKind::Instance => "⇒",
    }
}

pub fn render(g: &Graph, names: &dyn LocalNames) -> String {
    let succ = g.successors();
    let mut out = String::new();
    let status = if g.is_complete() {
        "complete"
    } else {
        "INCOMPLETE"
    };
    let _ = writeln!(
        out,
        "graph {}: {} nodes, {} edges, {status}",
        g.method,
        g.nodes.len(),
        g.edges.len()
    );
    // ids right-padded to one width so state lines align
    let width = format!("[{}]", g.nodes.len().saturating_sub(1)).len() + 1;
    let indent = " ".repeat(width);
    for n in &g.nodes {
        out.push('\n');
        let text = node_state_text(g, n.id, names);
        for (k, line) in text.lines().enumerate() {
            if k == 0 {
                let tag = format!("[{}]", n.id);
                let at = source_suffix(node_source_line(g, n.id, names).as_ref());
                let _ = writeln!(out, "{tag:<width$}{line}{at}");
            } else {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
        for e in &succ[n.id] {
            let labels: Vec<String> = e.labels.iter().map(|l| l.to_string()).collect();
            let mut line = format!("{indent}{} [{}] {}", arrow(e.kind), e.to, e.kind);
            if !labels.is_empty() {
                line.push_str("  ");
                line.push_str(&labels.join(", "));
            }
            let _ = writeln!(out, "{line}");
        }
    }
    out
}
