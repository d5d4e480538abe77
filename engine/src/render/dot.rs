//! Graphviz DOT, drawn like the thesis figures (Figs. 2.11, 2.13):
//!
//! * nodes are boxes with the state text, left-aligned, the node id above it; the start state
//!   has a bold border, program ends a double border. Successors are left where Graphviz puts
//!   them: forcing edge order (`ordering=out`) made the split of Fig. 2.11 cross its edges;
//! * evaluation edges are solid, refinement and split edges dashed, instance edges doubled
//!   (`⇒`), call and return edges bold; edges carry their labels (checked relations and
//!   arithmetic);
//! * long heap and predicate lines are wrapped at their two-space separators, so a state with
//!   many predicates stays a readable box instead of one very wide line;
//! * with [`DotOptions::compact`], chains of plain evaluation steps are drawn as one dotted
//!   edge (the thesis' "several execution steps" arrow), keeping only the states where
//!   something happens: the start, refinements and splits, targets of refinements, loop heads
//!   (targets of instance edges), program ends, and highlighted nodes.
//!
//! Nodes in the highlight sets are drawn in red (used by `jtg diff`).

use super::node_state_text;
use crate::graph::{EdgeKind, Graph, NodeId};
use crate::state::text::LocalNames;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Lines longer than this are wrapped at their two-space separators.
pub const WRAP: usize = 60;

/// How to draw a graph.
pub struct DotOptions<'a> {
    /// Nodes drawn in red.
    pub highlight: &'a BTreeSet<NodeId>,
    /// Edges (indices into `Graph::edges`) drawn in red.
    pub highlight_edges: &'a BTreeSet<usize>,
    /// Collapse chains of plain evaluation steps into dotted edges.
    pub compact: bool,
    /// Wrap width of heap and predicate lines.
    pub wrap: usize,
    /// A legend drawn as a note beside the graph (`jtg diff`: what red and `«…»` mean).
    pub legend: Option<&'a str>,
}

/// Escapes text for a DOT label with left-aligned lines.
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

/// Wraps one line at its two-space separators (heap entries and predicates are separated by
/// two spaces in the state text form); a single item longer than `width` stays whole.
fn wrap_line(line: &str, width: usize) -> Vec<String> {
    if line.chars().count() <= width || !line.contains("  ") {
        return vec![line.to_string()];
    }
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    for item in line.split("  ") {
        if !cur.is_empty() && cur.chars().count() + 2 + item.chars().count() > width {
            out.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push_str("  ");
        }
        cur.push_str(item);
    }
    out.push(cur);
    out
}

fn wrap(text: &str, width: usize) -> String {
    text.lines()
        .flat_map(|l| wrap_line(l, width))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Renders the full graph (every node); nodes in `highlight` are drawn in red.
pub fn render(g: &Graph, names: &dyn LocalNames, highlight: &BTreeSet<usize>) -> String {
    render_with(
        g,
        names,
        &DotOptions {
            highlight,
            highlight_edges: &BTreeSet::new(),
            compact: false,
            wrap: WRAP,
            legend: None,
        },
    )
}

/// What DOT draws: state texts and edges, from a [`Graph`] or from a graph's JSON form (so
/// `jtg diff` can draw a graph it never parsed).
pub struct Picture {
    pub name: String,
    pub start: NodeId,
    pub nodes: Vec<PictureNode>,
    pub edges: Vec<PictureEdge>,
}

pub struct PictureNode {
    pub text: String,
    pub end: bool,
}

pub struct PictureEdge {
    pub from: NodeId,
    pub to: NodeId,
    pub kind: EdgeKind,
    pub labels: Vec<String>,
}

impl Picture {
    pub fn of_graph(g: &Graph, names: &dyn LocalNames) -> Picture {
        Picture {
            name: g.method.to_string(),
            start: g.start,
            nodes: g
                .nodes
                .iter()
                .map(|n| PictureNode {
                    text: node_state_text(g, n.id, names),
                    end: n.is_end(),
                })
                .collect(),
            edges: g
                .edges
                .iter()
                .map(|e| PictureEdge {
                    from: e.from,
                    to: e.to,
                    kind: e.kind,
                    labels: e.labels.iter().map(ToString::to_string).collect(),
                })
                .collect(),
        }
    }
}

/// An edge as drawn: possibly a chain of evaluation edges collapsed into one.
struct Drawn<'g> {
    first: &'g PictureEdge,
    to: NodeId,
    labels: Vec<String>,
    steps: usize,
    highlighted: bool,
}

/// Which nodes compact mode hides: interior nodes of chains of plain evaluation steps (one
/// incoming and one outgoing edge, both evaluations), except the start and highlighted nodes.
fn elided(g: &Picture, opts: &DotOptions<'_>) -> Vec<bool> {
    let mut ins: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    let mut outs: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        ins[e.to].push(k);
        outs[e.from].push(k);
    }
    let plain = |k: usize| g.edges[k].kind == EdgeKind::Eval && !opts.highlight_edges.contains(&k);
    g.nodes
        .iter()
        .enumerate()
        .map(|(id, n)| {
            opts.compact
                && id != g.start
                && !n.end
                && !opts.highlight.contains(&id)
                && matches!(ins[id].as_slice(), [k] if plain(*k))
                && matches!(outs[id].as_slice(), [k] if plain(*k))
        })
        .collect()
}

fn drawn_edges<'g>(g: &'g Picture, hidden: &[bool], opts: &DotOptions<'_>) -> Vec<Drawn<'g>> {
    let mut out_edge: Vec<Option<usize>> = vec![None; g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        out_edge[e.from] = Some(k);
    }
    let mut drawn = Vec::new();
    for (k, e) in g.edges.iter().enumerate() {
        if hidden[e.from] {
            continue;
        }
        let mut d = Drawn {
            first: e,
            to: e.to,
            labels: e.labels.clone(),
            steps: 1,
            highlighted: opts.highlight_edges.contains(&k),
        };
        // a hidden node has exactly one outgoing edge; the bound guards against cycles
        while hidden[d.to] && d.steps <= g.nodes.len() {
            let Some(next) = out_edge[d.to] else { break };
            let ne = &g.edges[next];
            d.labels.extend(ne.labels.iter().cloned());
            d.to = ne.to;
            d.steps += 1;
        }
        drawn.push(d);
    }
    drawn
}

/// Renders the graph as DOT with the given options.
pub fn render_with(g: &Graph, names: &dyn LocalNames, opts: &DotOptions<'_>) -> String {
    render_picture(&Picture::of_graph(g, names), opts)
}

/// Renders a picture as DOT with the given options.
pub fn render_picture(g: &Picture, opts: &DotOptions<'_>) -> String {
    let hidden = elided(g, opts);
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape_plain(&g.name));
    out.push_str("  graph [nodesep=0.25, ranksep=0.3];\n");
    out.push_str(
        "  node [shape=box, fontname=\"DejaVu Sans Mono\", fontsize=10, margin=\"0.12,0.06\"];\n",
    );
    out.push_str("  edge [fontname=\"DejaVu Sans\", fontsize=9, arrowsize=0.7];\n");
    for (id, n) in g.nodes.iter().enumerate() {
        if hidden[id] {
            continue;
        }
        let text = format!("[{id}]\n{}", wrap(&n.text, opts.wrap));
        let mut attrs = vec![format!("label=\"{}\"", escape(&text))];
        if n.end {
            attrs.push("peripheries=2".into());
        }
        if id == g.start {
            attrs.push("style=bold, penwidth=2".into());
        }
        if opts.highlight.contains(&id) {
            attrs.push("color=red, fontcolor=red".into());
        }
        let _ = writeln!(out, "  n{id} [{}];", attrs.join(", "));
    }
    if let Some(legend) = opts.legend {
        let _ = writeln!(
            out,
            "  legend [shape=note, color=gray40, fontcolor=gray20, label=\"{}\"];",
            escape(legend)
        );
    }
    for d in drawn_edges(g, &hidden, opts) {
        let mut attrs = vec![];
        if !d.labels.is_empty() {
            // the leading space keeps the text off the line it labels
            let text: Vec<String> = d.labels.iter().map(|l| format!(" {l}")).collect();
            attrs.push(format!("label=\"{}\"", escape_plain(&text.join("\n"))));
        }
        match d.first.kind {
            _ if d.steps > 1 => attrs.push("style=dotted, penwidth=1.5".into()),
            EdgeKind::Refine | EdgeKind::Split => attrs.push("style=dashed".into()),
            EdgeKind::Instance => attrs.push("color=\"black:invis:black\"".into()),
            EdgeKind::Call | EdgeKind::Return => attrs.push("style=bold".into()),
            EdgeKind::Eval => {}
        }
        if d.highlighted {
            match d.first.kind {
                EdgeKind::Instance => attrs.push("color=\"red:invis:red\"".into()),
                _ => attrs.push("color=red".into()),
            }
            attrs.push("fontcolor=red".into());
        }
        let _ = writeln!(
            out,
            "  n{} -> n{} [{}];",
            d.first.from,
            d.to,
            attrs.join(", ")
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_two_space_separators_only() {
        let line = "o1: List(next=o2, val=i2)  o2: List(?)  i1: Z  i2: Z";
        assert_eq!(
            wrap_line(line, 30),
            vec!["o1: List(next=o2, val=i2)", "o2: List(?)  i1: Z  i2: Z"]
        );
        assert_eq!(wrap_line(line, 80), vec![line]);
        // one long item is not cut
        assert_eq!(wrap_line("o1: List(next=o2, val=i2)", 5).len(), 1);
    }
}
