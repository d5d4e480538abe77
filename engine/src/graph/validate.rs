//! Static validation of edge labels (before any run): every reference a label names exists in
//! the state where it is read ([`Label::reads`]), its kind fits (integers in arithmetic and
//! relations, objects in reference and type labels), every label stands on an edge of a kind
//! that can carry it, and the call abstraction's labels fit the graph (an `abstract call of M`
//! edge enters a state of `M` at pc 0 with one frame; `return from M` and `E thrown by M`
//! leave a node whose call edge is `abstract call of M`; filled static fields are new in the
//! target). A graph read from a file is validated; the engine's graphs are, in the tests.

use super::{Edge, EdgeKind, Graph, Label};
use crate::edge::Side;
use crate::state::{HeapValue, MethodId};

/// What is wrong with one label of one edge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("edge {edge} ({from} → {to}): label `{label}` {why}")]
pub struct LabelError {
    /// The edge's index in the graph's edge list.
    pub edge: usize,
    pub from: usize,
    pub to: usize,
    pub label: String,
    pub why: String,
}

/// Checks every label of `g` (the first error found, in edge order).
pub fn validate_labels(g: &Graph) -> Result<(), LabelError> {
    for (k, e) in g.edges.iter().enumerate() {
        for l in &e.labels {
            check(g, e, l).map_err(|why| LabelError {
                edge: k,
                from: e.from,
                to: e.to,
                label: l.to_string(),
                why,
            })?;
        }
    }
    Ok(())
}

/// The edge kinds a label may stand on.
fn allowed(l: &Label) -> &'static [EdgeKind] {
    match l {
        Label::Arith { .. } | Label::Narrow { .. } => &[EdgeKind::Eval],
        Label::Rel { .. } => &[EdgeKind::Eval, EdgeKind::Split, EdgeKind::Refine],
        Label::RefEq { .. } | Label::Exists { .. } | Label::Type { .. } => &[EdgeKind::Refine],
        Label::FilledStatics { .. } => &[EdgeKind::Refine],
        Label::AbstractCall { .. } => &[EdgeKind::Call],
        Label::Returned { .. } | Label::Thrown { .. } => &[EdgeKind::Return],
    }
}

fn check(g: &Graph, e: &Edge, l: &Label) -> Result<(), String> {
    l.well_formed()
        .map_err(|w| format!("is not well-formed: {w}"))?;
    if !allowed(l).contains(&e.kind) {
        return Err(format!("cannot stand on a {} edge", e.kind));
    }
    let (src, dst) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    for (r, side) in l.reads(e.kind.is_step()) {
        let value = match side {
            Side::Source => src.value(r).ok_or("which is not in the source state"),
            Side::Target => dst.value(r).ok_or("which is not in the target state"),
            Side::Either => src
                .value(r)
                .or_else(|| dst.value(r))
                .ok_or("which is in neither state"),
        }
        .map_err(|w| format!("names {r}, {w}"))?;
        let fits = if r.is_int() {
            matches!(value, HeapValue::Int(_) | HeapValue::Long(_))
        } else {
            value.type_name().is_some()
        };
        if !fits {
            return Err(format!("names {r}, whose value does not fit its kind"));
        }
    }
    match l {
        Label::AbstractCall { callee } => {
            let entry = match dst.frames.as_slice() {
                [f] => f.method == *callee && f.pc == 0,
                _ => false,
            };
            if !entry {
                return Err(format!(
                    "leads to node {}, which is not an entry state of {callee}",
                    e.to
                ));
            }
        }
        Label::Returned { callee } | Label::Thrown { callee, .. }
            if abstract_callee(g, e.from) != Some(callee) =>
        {
            return Err(format!(
                "leaves node {}, which has no `abstract call of {callee}` edge",
                e.from
            ));
        }
        Label::FilledStatics { fields } => {
            if let Some((c, f)) = fields
                .iter()
                .find(|k| src.statics.contains_key(*k) || !dst.statics.contains_key(*k))
            {
                return Err(format!(
                    "names {}.{f}, which is not a static field new in the target",
                    c.replace('/', ".")
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The callee of node `n`'s `abstract call of M` edge, if it has one.
pub(crate) fn abstract_callee(g: &Graph, n: usize) -> Option<&MethodId> {
    g.edges
        .iter()
        .filter(|e| e.from == n && e.kind == EdgeKind::Call)
        .flat_map(|e| &e.labels)
        .find_map(|l| match l {
            Label::AbstractCall { callee } => Some(callee),
            _ => None,
        })
}
