//! Renderings of a termination graph: a text form that reads like the thesis figures and
//! diffs well ([`text`]), Graphviz DOT ([`dot`]), and JSON with a reader ([`json`]); and the
//! differences between two graphs' JSON forms ([`diff`], changed tokens: [`word_diff`]).
//!
//! All three are deterministic: nodes in creation order (the builder is deterministic), edges
//! in creation order, states in the canonical text form of [`crate::state::text`].

mod align;
pub mod diff;
pub mod dot;
pub mod json;
mod rename;
pub mod text;
pub mod word_diff;

use crate::graph::Graph;
use crate::state::text::{print_state, LocalNames, TextContext};
use crate::state::SourceLine;

/// The text form of node `id`'s state, printed relative to the graph's method.
pub fn node_state_text(g: &Graph, id: usize, names: &dyn LocalNames) -> String {
    let ctx = TextContext::for_method(g.method.clone(), names);
    print_state(&g.nodes[id].state, &ctx)
}

/// The source line of node `id`'s top frame (`None` for program ends and code without a line
/// table).
pub fn node_source_line(g: &Graph, id: usize, names: &dyn LocalNames) -> Option<SourceLine> {
    let f = g.nodes[id].state.top()?;
    names.source_line(&f.method, f.pc)
}

/// What a node's first line ends with in the text form: `  @ File.java:12`, or nothing.
pub fn source_suffix(line: Option<&SourceLine>) -> String {
    line.map(|l| format!("  @ {l}")).unwrap_or_default()
}
