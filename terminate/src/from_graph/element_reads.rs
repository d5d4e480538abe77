//! Whether a graph reads an element of an array of arrays or strings inside a loop (or a
//! recursion): only then can the greatest element length `maxlen(a[*])` bound anything, and
//! only then does the encoding give those arrays the variable (`Quantity::ElemLen`), which
//! every location of a `main(String[])` would otherwise carry at the LPs' cost.

use super::quantity::has_element_lengths;
use jtg_engine::class::{ArrayKind, Insn};
use jtg_engine::graph::NodeId;
use jtg_engine::state::{Ref, State};
use jtg_engine::{Graph, Program};

/// Whether some node on a cycle of `g` executes an `aaload` from an array whose elements
/// have lengths.
pub(crate) fn element_reads_in_cycles(g: &Graph, prog: &Program) -> bool {
    let reads: Vec<NodeId> = g
        .nodes
        .iter()
        .filter(|nd| reads_element_length(prog, &nd.state))
        .map(|nd| nd.id)
        .collect();
    if reads.is_empty() {
        return false;
    }
    let on_cycle = on_cycles(g);
    reads.iter().any(|&n| on_cycle[n])
}

/// The array an `aaload` at the top frame of `s` reads (the reference below the index), if
/// that is the instruction `s` executes next.
pub(super) fn aaload_array(prog: &Program, s: &State) -> Option<Ref> {
    let Some(Insn::ArrayLoad(ArrayKind::Ref)) = prog.next_insn(s) else {
        return None;
    };
    let f = s.top()?;
    if f.exception.is_some() {
        return None;
    }
    f.stack.len().checked_sub(2).map(|k| f.stack[k])
}

fn reads_element_length(prog: &Program, s: &State) -> bool {
    aaload_array(prog, s)
        .and_then(|a| s.value(a))
        .is_some_and(has_element_lengths)
}

/// Per node, whether it lies on a cycle of the graph: in a strongly connected component of
/// more than one node, or with an edge to itself.
fn on_cycles(g: &Graph) -> Vec<bool> {
    let edges: Vec<(usize, usize)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
    let mut on = vec![false; g.nodes.len()];
    for c in jtg_prove::sccs(g.nodes.len(), &edges) {
        if c.len() > 1 {
            for v in c {
                on[v] = true;
            }
        }
    }
    for &(a, b) in &edges {
        on[a] |= a == b;
    }
    on
}
