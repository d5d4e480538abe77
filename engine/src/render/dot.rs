//! Graphviz DOT: boxes with the state text; refinement and split edges dashed, instance edges
//! doubled (as in the thesis figures), evaluation edges solid, labels on edges. Program ends
//! are drawn with a double border.

use super::node_state_text;
use crate::graph::{EdgeKind, Graph};
use crate::state::text::LocalNames;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Escapes text for a DOT record-free label with left-aligned lines.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for line in s.lines() {
        out.push_str(&escape_plain(line));
        out.push_str("\\l");
    }
    out
}

fn escape_plain(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// Renders the graph; nodes in `highlight` are drawn in red (used by `jtg diff`).
pub fn render(g: &Graph, names: &dyn LocalNames, highlight: &BTreeSet<usize>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "digraph \"{}\" {{",
        escape_plain(&g.method.to_string())
    );
    out.push_str("  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10];\n");
    out.push_str("  edge [fontname=\"DejaVu Sans\", fontsize=9];\n");
    for n in &g.nodes {
        let text = format!("[{}]\n{}", n.id, node_state_text(g, n.id, names));
        let mut attrs = vec![format!("label=\"{}\"", escape(&text))];
        if n.is_end() {
            attrs.push("peripheries=2".into());
        }
        if n.id == g.start {
            attrs.push("style=bold".into());
        }
        if highlight.contains(&n.id) {
            attrs.push("color=red, fontcolor=red".into());
        }
        let _ = writeln!(out, "  n{} [{}];", n.id, attrs.join(", "));
    }
    for e in &g.edges {
        let labels: Vec<String> = e.labels.iter().map(|l| l.to_string()).collect();
        let mut attrs = vec![];
        if !labels.is_empty() {
            attrs.push(format!("label=\"{}\"", escape_plain(&labels.join("\n"))));
        }
        match e.kind {
            EdgeKind::Refine | EdgeKind::Split => attrs.push("style=dashed".into()),
            EdgeKind::Instance => attrs.push("color=\"black:invis:black\"".into()),
            EdgeKind::Call | EdgeKind::Return => attrs.push("style=bold".into()),
            EdgeKind::Eval => {}
        }
        let _ = writeln!(out, "  n{} -> n{} [{}];", e.from, e.to, attrs.join(", "));
    }
    out.push_str("}\n");
    out
}
