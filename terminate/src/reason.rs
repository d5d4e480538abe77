//! Why a verdict is MAYBE, in one sentence: the limit that was hit, or the loops and
//! recursions (their method, pc, source line and graph node) that have no ranking function, no recurrent
//! set confirmed in the JVM and no repeated state.

use crate::from_graph::Encoding;
use jtg_engine::graph::NodeId;
use jtg_engine::render::node_source_line;
use jtg_engine::state::text::LocalNames;
use jtg_engine::Graph;
use jtg_prove::{Certificate, Proof};
use std::collections::BTreeSet;

/// At most this many loops are named (the rest are counted).
const MAX_NAMED: usize = 4;

/// The reason of a MAYBE from the prover's `proof` of `enc` and the report's notes (limits,
/// unconfirmed recurrent sets). Never empty.
pub(crate) fn why_maybe(
    graph: &Graph,
    names: &dyn LocalNames,
    enc: &Encoding,
    proof: &Proof,
    notes: &[String],
) -> String {
    let mut parts: Vec<String> = Vec::new();
    let limits: Vec<&String> = notes.iter().filter(|n| is_limit(n)).collect();
    if let Some(first) = limits.first() {
        parts.push(format!("a limit was hit: {first}"));
    }
    if let Certificate::Unproven { rule_sets } = &proof.certificate {
        let mut loops: Vec<String> = Vec::new();
        for set in rule_sets {
            let heads: BTreeSet<NodeId> = set
                .iter()
                .filter_map(|i| enc.loc_node[enc.its.rule(i.rule).from.index()])
                .collect();
            let recursive = set
                .iter()
                .any(|i| enters_call(graph, &enc.origins[i.rule.index()].nodes));
            if let Some(text) = describe_loop(graph, names, &heads, recursive) {
                if !loops.contains(&text) {
                    loops.push(text);
                }
            }
        }
        if !loops.is_empty() {
            let more = loops.len().saturating_sub(MAX_NAMED);
            let mut text = loops
                .iter()
                .take(MAX_NAMED)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ");
            if more > 0 {
                text.push_str(&format!("; and {more} more"));
            }
            parts.push(format!("no ranking function found for {text}"));
        }
    }
    if let Some(n) = notes
        .iter()
        .find(|n| n.starts_with("recurrent set not confirmed"))
    {
        // which loop the unconfirmed set is of: its cycle's head (or the closed set's)
        let heads: BTreeSet<NodeId> = match &proof.certificate {
            Certificate::NonTermination(r) => r
                .cycle
                .first()
                .and_then(|i| enc.loc_node[enc.its.rule(i.rule).from.index()])
                .into_iter()
                .collect(),
            Certificate::ClosedNonTermination(c) => {
                enc.loc_node[c.head.index()].into_iter().collect()
            }
            _ => BTreeSet::new(),
        };
        match describe_loop(graph, names, &heads, false) {
            Some(at) => parts.push(format!("{n} (a recurrent set of {at})")),
            None => parts.push(n.clone()),
        }
    }
    if parts.is_empty() {
        parts.extend(notes.first().cloned());
    }
    if parts.is_empty() {
        parts.push("no ranking function and no non-termination witness found".into());
    }
    parts.join("; ")
}

/// Whether a prover note says a limit was hit (and not a fact of the program).
fn is_limit(note: &str) -> bool {
    [
        "limit",
        "work budget",
        "too large",
        "not encoded",
        "internal error",
    ]
    .iter()
    .any(|k| note.contains(k))
}

/// `the loop at C.m(…) pc 12 (C.java:7) [node 40]` for the smallest node of `heads` (the loop
/// or recursion's entry as the graph builds it first; the source line where the class file
/// has a line table); a recursion where one of the rule set's chains takes an abstracted call
/// edge.
fn describe_loop(
    graph: &Graph,
    names: &dyn LocalNames,
    heads: &BTreeSet<NodeId>,
    recursive: bool,
) -> Option<String> {
    let node = *heads.iter().next()?;
    let f = graph.nodes[node].state.top()?;
    let kind = if recursive { "recursion" } else { "loop" };
    let line = node_source_line(graph, node, names)
        .map(|l| format!(" ({l})"))
        .unwrap_or_default();
    Some(format!(
        "the {kind} at {} pc {}{line} [node {node}]",
        f.method, f.pc
    ))
}

/// Whether the chain of nodes `nodes` enters an abstracted call (a call edge with its label).
fn enters_call(graph: &Graph, nodes: &[NodeId]) -> bool {
    nodes.windows(2).any(|w| {
        graph
            .edges
            .iter()
            .any(|e| e.from == w[0] && e.to == w[1] && e.is_abstract_call())
    })
}
