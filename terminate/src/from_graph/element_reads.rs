//! Whether a graph reads an element of an array of arrays or strings inside a loop (or a
//! recursion): only then can the greatest element length `maxlen(a[*])` bound anything, and
//! only then does the encoding give those arrays the variable (`Quantity::ElemLen`), which
//! every location of a `main(String[])` would otherwise carry at the LPs' cost.

use super::quantity::has_element_lengths;
use jtg_engine::class::{ArrayKind, Insn};
use jtg_engine::graph::NodeId;
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

fn reads_element_length(prog: &Program, s: &jtg_engine::state::State) -> bool {
    let Some(Insn::ArrayLoad(ArrayKind::Ref)) = prog.next_insn(s) else {
        return false;
    };
    let Some(f) = s.top() else {
        return false;
    };
    f.exception.is_none()
        && f.stack
            .len()
            .checked_sub(2)
            .and_then(|k| s.value(f.stack[k]))
            .is_some_and(has_element_lengths)
}

/// Per node, whether it lies on a cycle of the graph: in a strongly connected component of
/// more than one node, or with an edge to itself (Kosaraju, iteratively: graphs have tens of
/// thousands of nodes).
fn on_cycles(g: &Graph) -> Vec<bool> {
    let n = g.nodes.len();
    let mut out: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut inc: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut self_loop = vec![false; n];
    for e in &g.edges {
        out[e.from].push(e.to);
        inc[e.to].push(e.from);
        self_loop[e.from] |= e.from == e.to;
    }
    // finishing order of a depth-first search along the edges
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for root in 0..n {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if let Some(&w) = out[v].get(i) {
                stack.push((v, i + 1));
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    // components along the reversed edges, in reverse finishing order
    let mut comp = vec![usize::MAX; n];
    let mut size = Vec::new();
    for &root in order.iter().rev() {
        if comp[root] != usize::MAX {
            continue;
        }
        let c = size.len();
        size.push(0usize);
        comp[root] = c;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            size[c] += 1;
            for &w in &inc[v] {
                if comp[w] == usize::MAX {
                    comp[w] = c;
                    stack.push(w);
                }
            }
        }
    }
    (0..n).map(|v| self_loop[v] || size[comp[v]] > 1).collect()
}
