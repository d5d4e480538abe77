//! Summaries of abstracted calls (docs/proving.md, *Call summaries*): what every normal return
//! of a method graph satisfies, as affine equalities between the entry's quantities and the
//! result (`nest(x)` returns `0`, `minus(x, y)` returns `x − y`, `copy(l)` a list of `l`'s size
//! where the graph shows it). The return rule of every abstracted call of the method graph
//! carries them, with the entry's quantities read at the call node through the call's instance
//! witness, as the call rule reads them.
//!
//! A summary is found on the ITS of the method graph alone (its nodes from the entry node, not
//! entering other method graphs: [`region`]), started at the entry: the affine relation between
//! the start values and each `end: return` location ([`jtg_prove::start_relations`]), mapped to
//! `(entry quantities, result)` and joined over the returns. The return rules of the calls
//! inside the method graph carry the summaries being computed, starting from [`Summary::Never`]:
//! a Kleene iteration to the least fixpoint, sound for partial correctness by induction on the
//! depth of the calls (a return of a call is a return of a finished, shorter run). The lattice
//! has finite height, so the iteration ends; past [`MAX_ROUNDS`] every summary is
//! [`Summary::Unknown`]. The cross-check reads every return rule on concrete runs like any
//! other rule (`jtg prove --check`).

use super::quantity::{quantities, Quantity, Slots};
use super::{encode_rooted, EncodeOptions};
use jtg_engine::graph::{call_entry_state, with_statics_of, Graph, NodeId};
use jtg_engine::instance_of::is_instance;
use jtg_engine::state::{End, IntSemantics, Ref, State};
use jtg_engine::Program;
use jtg_prove::{sccs, start_relations, AffineSpace, Constraint, LinExpr, Var};
use std::collections::{BTreeMap, BTreeSet};

/// Rounds of the fixpoint iteration over all summaries of a graph.
const MAX_ROUNDS: usize = 12;

/// Graphs with more abstracted entries than this get no summaries.
const MAX_ENTRIES: usize = 40;

/// Method graphs of more nodes than this get no summary (each round encodes the method graph).
const MAX_REGION: usize = 2_000;

/// What the result of a call is measured by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ResultKind {
    /// An `int` or `long` result: its value.
    Int,
    /// A reference result: its size (`null`: 0).
    Size,
}

/// What every normal return of a method graph's runs satisfies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Summary {
    /// No run of the method graph returns normally.
    Never,
    /// Affine equalities over `(the entry's quantities, the result)`.
    Affine(ResultKind, AffineSpace),
    /// Nothing is known.
    Unknown,
}

impl Summary {
    fn join(&self, other: &Summary) -> Summary {
        match (self, other) {
            (Summary::Never, s) | (s, Summary::Never) => s.clone(),
            (Summary::Affine(k1, a), Summary::Affine(k2, b)) if k1 == k2 => {
                Summary::Affine(*k1, a.join(b))
            }
            _ => Summary::Unknown,
        }
    }
}

/// The summaries of a graph, by entry node of a method graph (every entry of an abstracted
/// call has one).
#[derive(Clone, Debug, Default)]
pub(super) struct Summaries {
    pub(super) by_entry: BTreeMap<NodeId, Summary>,
}

/// The entry nodes of the graph's abstracted calls, in order.
fn entries(g: &Graph) -> Vec<NodeId> {
    let set: BTreeSet<NodeId> = g
        .edges
        .iter()
        .filter(|e| e.is_abstract_call())
        .map(|e| e.to)
        .collect();
    set.into_iter().collect()
}

/// The nodes of the method graph from `entry`: reachable without entering another one.
pub(super) fn region(g: &Graph, entry: NodeId) -> BTreeSet<NodeId> {
    let succ = g.successors();
    let mut seen = BTreeSet::new();
    let mut todo = vec![entry];
    while let Some(n) = todo.pop() {
        if !seen.insert(n) {
            continue;
        }
        todo.extend(
            succ[n]
                .iter()
                .filter(|e| !e.is_abstract_call())
                .map(|e| e.to),
        );
    }
    seen
}

/// The summaries of every method graph of `g` (see the module documentation), callees before
/// callers: the method graphs that call each other (a strongly connected component of the
/// call relation between them) are iterated together, the others summarized once.
pub(super) fn summaries(g: &Graph, prog: &Program, opts: &EncodeOptions) -> Summaries {
    let entries = entries(g);
    let mut sums = Summaries {
        by_entry: entries.iter().map(|&e| (e, Summary::Unknown)).collect(),
    };
    if entries.len() > MAX_ENTRIES {
        return sums;
    }
    let regions: BTreeMap<NodeId, BTreeSet<NodeId>> =
        entries.iter().map(|&e| (e, region(g, e))).collect();
    let calls: BTreeMap<NodeId, BTreeSet<NodeId>> = regions
        .iter()
        .map(|(&e, r)| {
            let called = g
                .edges
                .iter()
                .filter(|x| r.contains(&x.from) && x.is_abstract_call())
                .map(|x| x.to)
                .collect();
            (e, called)
        })
        .collect();
    for scc in callees_first(&entries, &calls) {
        // what is worth summarizing: a method with a result, whose graph is not too large
        let wanted: Vec<NodeId> = scc
            .iter()
            .copied()
            .filter(|e| returns_value(g, *e) && regions[e].len() <= MAX_REGION)
            .collect();
        if wanted.len() != scc.len() {
            continue; // Unknown, as initialised
        }
        let recursive = scc.len() > 1 || calls[&scc[0]].contains(&scc[0]);
        for &e in &scc {
            sums.by_entry.insert(e, Summary::Never);
        }
        let mut stable = false;
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            for &e in &scc {
                let new = summarize(g, prog, opts, &sums, e, &regions[&e]);
                let old = &sums.by_entry[&e];
                let joined = old.join(&new);
                if joined != *old {
                    sums.by_entry.insert(e, joined);
                    changed = true;
                }
            }
            if !changed || !recursive {
                stable = true;
                break;
            }
        }
        if !stable {
            for &e in &scc {
                sums.by_entry.insert(e, Summary::Unknown);
            }
        }
    }
    sums
}

/// Whether the method of the entry node `e` returns a value (not `void`).
fn returns_value(g: &Graph, e: NodeId) -> bool {
    g.nodes[e]
        .state
        .top()
        .is_some_and(|f| !f.method.desc.ends_with(")V"))
}

/// The strongly connected components of the call relation between method graphs, each
/// after the components it calls, members in entry order.
fn callees_first(
    entries: &[NodeId],
    calls: &BTreeMap<NodeId, BTreeSet<NodeId>>,
) -> Vec<Vec<NodeId>> {
    let index: BTreeMap<NodeId, usize> = entries.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let edges: Vec<(usize, usize)> = calls
        .iter()
        .flat_map(|(a, bs)| bs.iter().map(|b| (index[a], index[b])))
        .collect();
    let mut todo = sccs(entries.len(), &edges);
    let mut done: BTreeSet<usize> = BTreeSet::new();
    let mut out = Vec::new();
    // a component is ready once every component it calls is done (the condensation is acyclic)
    while !todo.is_empty() {
        let ready = todo
            .iter()
            .position(|c| {
                edges
                    .iter()
                    .filter(|(a, b)| c.contains(a) && !c.contains(b))
                    .all(|(_, b)| done.contains(b))
            })
            .expect("the condensation of a graph is acyclic");
        let c = todo.remove(ready);
        done.extend(c.iter().copied());
        out.push(c.into_iter().map(|i| entries[i]).collect());
    }
    out
}

/// What the returns of the method graph from `entry` satisfy, under the summaries `sums` of
/// the calls it makes; `region`: the method graph's nodes.
fn summarize(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    sums: &Summaries,
    entry: NodeId,
    region: &BTreeSet<NodeId>,
) -> Summary {
    let Ok(enc) = encode_rooted(g, prog, opts, sums, entry, region) else {
        return Summary::Unknown;
    };
    let k = enc.its.location(enc.its.start()).arity();
    let rel = start_relations(&enc.its);
    let mut out = Summary::Never;
    for (l, node) in enc.loc_node.iter().enumerate() {
        let (Some(n), Some(space)) = (node, &rel[l]) else {
            continue;
        };
        let state = &g.nodes[*n].state;
        let Some(End::Return(ret)) = &state.end else {
            continue;
        };
        let Some(r) = ret else {
            // a `void` method: nothing to relate
            return Summary::Unknown;
        };
        let slots = Slots {
            state,
            vars: enc.loc_vars[l]
                .iter()
                .enumerate()
                .map(|(i, q)| (*q, Var(i as u32)))
                .collect(),
        };
        let Some((kind, e)) = result(&slots, *r) else {
            return Summary::Unknown;
        };
        // (s, x) ↦ (s, e(x))
        out = out.join(&Summary::Affine(kind, space.image_keeping_start(k, &[e])));
    }
    out
}

/// The result `r` measured in `s`: an integer's value, a reference's size.
fn result(s: &Slots<'_>, r: Ref) -> Option<(ResultKind, LinExpr)> {
    if let Some(e) = s.int(r) {
        return Some((ResultKind::Int, e));
    }
    if r.is_int() {
        return None;
    }
    Some((ResultKind::Size, s.size(r)?))
}

/// The summary of the method graph an abstracted call enters.
pub(super) struct CalleeSummary<'a> {
    pub(super) g: &'a Graph,
    /// The entry node of the method graph.
    pub(super) entry: NodeId,
    pub(super) summary: &'a Summary,
}

/// The constraints the summary of the callee puts on the `return` edge of an abstracted call
/// at slots `src` into `dst`, where the result is on top of the operand stack.
pub(super) fn return_constraints(
    prog: &Program,
    sem: IntSemantics,
    callee: &CalleeSummary<'_>,
    src: &Slots<'_>,
    dst: &Slots<'_>,
    out: &mut Vec<Constraint>,
) {
    let CalleeSummary { g, entry, summary } = *callee;
    let (kind, space) = match summary {
        Summary::Unknown => return,
        Summary::Never => {
            out.push(Constraint::le(&LinExpr::constant(1), &LinExpr::zero()));
            return;
        }
        Summary::Affine(kind, space) => (kind, space),
    };
    let entry_state = &g.nodes[entry].state;
    let Some(params) = entry_values(prog, sem, entry_state, src) else {
        return;
    };
    let Some(&r) = dst.state.top().and_then(|f| f.stack.last()) else {
        return;
    };
    let ret = match kind {
        ResultKind::Int => dst.int(r),
        ResultKind::Size if !r.is_int() => dst.size(r),
        ResultKind::Size => None,
    };
    let Some(ret) = ret else { return };
    for (a, b) in space.equalities() {
        let mut lhs = LinExpr::zero();
        let mut known = true;
        for (coef, value) in a.iter().zip(params.iter().chain([&Some(ret.clone())])) {
            if coef.is_zero() {
                continue;
            }
            match value {
                Some(v) => lhs.add_scaled(v, coef),
                None => known = false,
            }
        }
        if known {
            out.push(Constraint::eq(&lhs, &LinExpr::constant(b)));
        }
    }
}

/// The values of the entry's quantities at the call node `src`, by the call's instance
/// witness (`None`: the witness fails; an entry quantity the call node has no expression for
/// is `None` in the list).
fn entry_values(
    prog: &Program,
    sem: IntSemantics,
    entry: &State,
    src: &Slots<'_>,
) -> Option<Vec<Option<LinExpr>>> {
    let callee = entry.top()?;
    let view = call_entry_state(src.state, &callee.method, prog)
        .and_then(|v| with_statics_of(&v, entry, prog, sem))
        .ok()?;
    let w = is_instance(&view, entry, prog).ok()?;
    let at = |g: Ref| w.map.get(&g).copied();
    Some(
        quantities(entry)
            .into_iter()
            .map(|q| match q {
                Quantity::Int(g) => src.int(at(g)?),
                Quantity::Size(g) => src.size(at(g)?),
                Quantity::Len(g) => src.len(at(g)?),
                Quantity::Dist(..) => None,
            })
            .collect(),
    )
}
