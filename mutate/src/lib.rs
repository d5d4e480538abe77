//! Mutation testing of the check: small unsound-looking changes to a correct graph, each of
//! which the check should catch ("kill") with some concrete trace.
//!
//! Mutation operators (one change per mutant):
//!
//! * `drop-refinement`: remove one successor edge of a refinement or split with several;
//! * `narrow-interval`: shrink one non-literal interval of one node by its lowest or highest
//!   value (`Z` becomes `[≥0]` or `[≤0]`, `[a, b]` becomes `[a+1, b]` or `[a, b-1]`);
//! * `drop-predicate`: remove one `=?`, `%$`, `♦`, `⟲F` or `→!F` of one node;
//! * `flip-label`: negate a relation label (`<` becomes `≥`) or change an arithmetic label's
//!   operation (`+` ↔ `-`, `*` ↔ `/`, `%` → `/`, negation → identity by `+ 0`);
//! * `drop-label`: remove one label;
//! * `replace-label`: replace an arithmetic or relation label by another well-formed label over
//!   the edge's references (another operation, a constant, a copy, an added constant, another
//!   reference; the strict/non-strict and swapped relations: module `labels`);
//! * `swap-refinement`: exchange the `r = p` / `r ≠ p` labels of an equality refinement's
//!   cases, or move `r = null` to another case of its refinement (module `labels`);
//! * `retarget-instance`: point an instance edge at another node of the same program position.
//!
//! # Equivalent mutants
//!
//! A mutant that no trace kills is either a gap of the check or *equivalent* (its graph is
//! still sound). A survivor is listed as equivalent only with one of these reasons, each a
//! proof rather than an observation:
//!
//! * **weakening**: `drop-label` and dropping a `→!F` only remove conditions the check
//!   verifies; every trace that matched the original matches the mutant along the same path.
//!   So does a `replace-label` of `a < b` by `a ≤ b` (or `>` by `≥`): the new label holds
//!   wherever the old one does.
//! * **instance-preserving**: a retargeted instance edge whose source state is an instance of
//!   the new target by the engine's `⊑` (`instance_of::is_instance`) is a correct instance
//!   edge, so the mutant graph is as sound as the original. (This trusts the engine's `⊑`,
//!   which the differential test in `tests/check.rs` keeps honest against the concrete one.)
//! * **vacuous-shape**: dropping `♦` or a self-join `r %$ r` on a reference all of whose
//!   reachable classes have at most one reference field. With one successor per object, the
//!   paths from an object form one chain (possibly ending in a cycle), so two paths never meet
//!   without one being a prefix of the other: the permission (j) allows nothing a tree-or-cycle
//!   heap does not already have.
//!
//! * **redundant**: dropping one of `r♦` and `r %$ r` while the other stays: the check reads
//!   both as the one self-sharing permission (j), as the engine's `⊑` does.
//! * **vacuous-realized**: dropping `♦`, `⟲F` or `%$` on references that are realized objects
//!   with every field listed: such a reference has no hidden region (all its edges are shown),
//!   so under the check's reading of the predicates (see `instance`) the permission applies to
//!   nothing; the structure below is governed by the predicates of its children. (The
//!   engine's `⊑` is stricter here — condition (m) wants `⟲` on every reference of a cycle —
//!   which is sound for the engine and does not matter for concrete states.)
//! * **acyclic join**: dropping `a %$ b` where `b` is a realized object listing every field of
//!   its class and the state shows a path of realized fields from `b` to `a`, and `a` is
//!   `C(?)` or `C(…)` without `⟲`. `b` has no hidden region (`H(b) = ∅`), so the check's
//!   condition (h) can only fail by `b`'s object lying in `H(a)`, everything reachable from
//!   `a`'s object; with the explicit path back from `b` to `a` (which the check walks) that
//!   is a cycle through `a`'s object inside its hidden region, which condition (k) rejects at
//!   the same node. So every state the original node takes, the mutant's takes (e.g. `cur.next
//!   = prev` in an in-place reversal).
//! * **interval invariant**: `narrow-interval` of `r` at node `n` to `J` when the forward
//!   interval invariant of the graph ([`Invariant`], module `invariant`) puts `r`'s witness
//!   at `n` inside `J` on every path the check can match from the start node. The invariant
//!   uses only what the check verifies on such a path (node intervals, edge labels whose
//!   operands it binds) and what the JVM guarantees (a refinement, split or instance edge keeps
//!   the concrete state; an instruction changes only the locals, stack entries and heap it
//!   writes). So on a trace the original accepts, every node of its path still takes the
//!   concrete state — `n` included, with the same witness — and every label is evaluated
//!   on the same witnesses: the mutant accepts it along the same path.
//! * **relational invariant**: `narrow-interval` of `r` at node `n` to `J` when the
//!   difference constraints `x − y ≤ c` between the node's integer references (module
//!   `relations`) bound `r`'s witness inside `J` on every matchable path — e.g. `x = i − 1`
//!   taken before the loop test `i ≥ 1`, which the interval invariant's hull at the join
//!   forgets. The facts and their reading are the interval invariant's (node intervals, the
//!   invariant itself, labels with surely bound operands, positions carried along edges),
//!   plus `res = a ± b` as an exact difference when the operands' intervals rule out
//!   wrapping; so the argument above applies unchanged. The constraints also make nodes
//!   **unreachable** and edges **dead** (a relation label or target interval that contradicts
//!   them), and narrow the source state of **instance-preserving under the interval
//!   invariant** further.
//! * **distinct positions**: dropping `a =? b` at a node where the must-distinct analysis
//!   (module `distinct`) shows that every position of `a` and every position of `b` never
//!   hold one object on a matchable path: the check's condition (f) never needs the
//!   predicate there. The analysis starts from the nodes' own distinctness (two references
//!   without `=?` are different objects, which the check verifies at every node of a path)
//!   and carries it along edges by positions, like the interval invariant. It also starts
//!   from the pairs that **reach and acyclicity** give (module `reach`): where position `q`'s
//!   object is reachable from `p`'s in at least one step on every matchable path (a must
//!   analysis over explicit fields, equal references, heap-preserving edges, transitivity and
//!   classes with a single reference field), and `p`'s or `q`'s reference is `C(?)`/`C(…)`
//!   without `⟲`, one object at both would put a cycle in that reference's hidden region,
//!   which the check's condition (k) rejects at the node itself (e.g. `fast` always ahead of
//!   `slow` in Floyd's loop over an acyclic list). These pairs also make edges **dead** and
//!   nodes **unreachable** (an equality refinement `slow = fast`).
//! * **unreachable**: a node-state mutant of a node that no path the check can match from the
//!   start node reaches (only dead edges lead to it, see below).
//! * **dead edge**: `drop-refinement`, `flip-label`, `replace-label` or `retarget-instance` of
//!   an edge, or `swap-refinement` among edges, that no
//!   matchable path takes — its source is unreachable, a relation label contradicts the
//!   source's interval invariant, a value the check surely reads (a stack entry, a live
//!   local) falls outside the target's interval, the target puts one existing object at two
//!   surely read positions that the source shows distinct (e.g. `cur = head` after a step
//!   along an acyclic list), or the target puts `null` at a surely read local or stack entry
//!   that holds an object on every matchable path (module `nonnull`: e.g. `tail == null`
//!   tested again after a loop iteration set `tail` to a new object). The original's accepted
//!   paths avoid the edge, so they are
//!   paths of the mutant too (for a flipped label: the mutant accepts at least as much).
//!
//! The analyses read a local only where the method's bytecode keeps it live (module
//! `liveness`): the check skips a local the recorder shows untyped, and a live local never is.
//! * **instance-preserving under the interval invariant**: a retargeted instance edge whose
//!   source state, with its intervals narrowed to the invariant, is an instance of the new
//!   target by the engine's `⊑`: every concrete state the check meets at the source is an
//!   instance of that narrowed state, so the edge is correct for all of them (the same trust
//!   in the engine's `⊑` as instance-preserving).
//!
//! With `jtg mutate --enumerate`, a survivor is re-checked on ten times as many inputs of
//! another seed and larger structures; one that survives that too is listed as equivalent by
//! **bounded enumeration** — evidence, not proof (e.g. `x = Z` narrowed to `[≥0]` on a node
//! only reached after `x > 0` was tested and `x` decremented: the engine's interval is wider
//! than the values that occur, so the narrower graph is still sound). Reports show that
//! category separately.
//!
//! Every other survivor counts against the mutation score, which is
//! `killed / (mutants − equivalent)`.
//!
//! All mutants are checked on the same runs, drawn from the *original* start state: a mutant is
//! a wrong graph for the same question (a start node narrowed by a mutant is killed by the
//! inputs it no longer covers).

use jtg_engine::graph::{EdgeKind, Label, NodeId};
use jtg_engine::state::{HeapValue, IntSemantics, Interval, MustReach, Ref, State};
use jtg_engine::{Graph, Program};
use std::collections::BTreeSet;

mod distinct;
mod invariant;
mod labels;
mod liveness;
mod must;
mod nonnull;
mod reach;
mod relations;
use distinct::Distinct;
pub use invariant::Invariant;
use nonnull::NonNull;
use relations::Relations;

/// The graph analyses behind the proofs: the interval invariant and the must-distinct
/// positions, each excluding the edges the other shows dead.
pub struct Analyses {
    pub intervals: Invariant,
    distinct: Distinct,
    nonnull: NonNull,
    relations: Relations,
    facts: Vec<invariant::Facts>,
}

impl Analyses {
    pub fn of(g: &Graph, prog: &Program, sem: IntSemantics) -> Analyses {
        let facts = invariant::facts(g, prog);
        let first = Invariant::of(g, &facts, sem, None);
        let acyclic = reach::acyclic(g, prog, &facts, &first.edges);
        let feasible: Vec<bool> = (0..g.edges.len())
            .map(|k| first.edges[k] && !acyclic.dead[k])
            .collect();
        let nonnull = NonNull::of(g, &facts, &feasible);
        let feasible: Vec<bool> = (0..g.edges.len())
            .map(|k| feasible[k] && !nonnull.dead[k])
            .collect();
        let distinct = Distinct::of(g, &facts, &feasible, &acyclic.pairs);
        // `distinct.dead` includes every edge that is not `feasible`
        let intervals = Invariant::of(g, &facts, sem, Some(&distinct.dead));
        let dead = |k: usize| !intervals.edges[k] || distinct.dead[k];
        let relations = Relations::of(g, &facts, &intervals, dead, sem);
        Analyses {
            intervals,
            distinct,
            nonnull,
            relations,
            facts,
        }
    }

    /// Whether no matchable path reaches node `n`.
    pub fn unreachable(&self, n: NodeId) -> bool {
        self.intervals.nodes[n].is_none()
            || self.distinct.nodes[n].is_none()
            || self.nonnull.nodes[n].is_none()
            || self.relations.unreachable(n)
    }

    /// Whether no matchable path takes edge `k`.
    pub fn dead(&self, k: usize) -> bool {
        !self.intervals.edges[k]
            || self.distinct.dead[k]
            || self.nonnull.dead[k]
            || !self.relations.edges[k]
    }

    /// Node `n`'s state with every integer interval narrowed to the interval invariant and
    /// the difference constraints (`None`: unreachable); every concrete state the check can
    /// meet at `n` is an instance of it.
    pub fn tightened(&self, g: &Graph, n: NodeId) -> Option<State> {
        let mut st = self.intervals.tightened(g, n)?;
        let ints: Vec<(Ref, Interval)> = st
            .heap
            .iter()
            .filter_map(|(r, v)| match v {
                HeapValue::Int(iv) => Some((*r, *iv)),
                _ => None,
            })
            .collect();
        for (r, own) in ints {
            if let Some(v) = self
                .relations
                .interval(n, r)
                .and_then(|i| i.intersect(&own))
            {
                st.heap.insert(r, HeapValue::Int(v));
            }
        }
        Some(st)
    }

    /// The interval the difference constraints give `r` at node `n` (module `relations`).
    pub fn related_interval(&self, n: NodeId, r: Ref) -> Option<Interval> {
        self.relations.interval(n, r)
    }

    /// Whether `a` and `b` are never one object at node `n`.
    pub fn never_same(&self, n: NodeId, a: Ref, b: Ref) -> bool {
        self.distinct.never_same(&self.facts[n], n, a, b)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    DropRefinement,
    NarrowInterval,
    DropPredicate,
    FlipLabel,
    DropLabel,
    ReplaceLabel,
    SwapRefinement,
    RetargetInstance,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::DropRefinement => "drop-refinement",
            Operator::NarrowInterval => "narrow-interval",
            Operator::DropPredicate => "drop-predicate",
            Operator::FlipLabel => "flip-label",
            Operator::DropLabel => "drop-label",
            Operator::ReplaceLabel => "replace-label",
            Operator::SwapRefinement => "swap-refinement",
            Operator::RetargetInstance => "retarget-instance",
        }
    }
}

/// One mutant graph.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub operator: Operator,
    pub description: String,
    /// The change to the original graph (applied on demand by [`Mutant::graph`], so that
    /// thousands of mutants of a large graph do not hold thousands of graph copies).
    pub change: Change,
    /// Whether the start node's state changed (informative: inputs always come from the original).
    pub start_changed: bool,
    /// `Some(reason)` when the mutant is equivalent by one of the module's criteria.
    pub equivalent: Option<String>,
}

/// One mutation of a graph.
#[derive(Clone, Debug)]
pub enum Change {
    RemoveEdge(usize),
    SetInt(NodeId, Ref, Interval),
    RemoveMayEqual(NodeId, Ref, Ref),
    RemoveJoin(NodeId, Ref, Ref),
    RemoveNonTree(NodeId, Ref),
    RemoveCyclic(NodeId, Ref),
    RemoveMustReach(NodeId, MustReach),
    SetLabel(usize, usize, Label),
    /// Every listed edge's labels replaced.
    SetLabels(Vec<(usize, Vec<Label>)>),
    RemoveLabel(usize, usize),
    Retarget(usize, NodeId),
}

impl Mutant {
    /// The mutant graph: `base` (the graph the mutant was derived from) with the change.
    pub fn graph(&self, base: &Graph) -> Graph {
        let mut g = base.clone();
        match &self.change {
            Change::RemoveEdge(k) => {
                g.edges.remove(*k);
            }
            Change::SetInt(n, r, iv) => {
                g.nodes[*n].state.heap.insert(*r, HeapValue::Int(*iv));
            }
            Change::RemoveMayEqual(n, a, b) => g.nodes[*n].state.preds.remove_may_equal(*a, *b),
            Change::RemoveJoin(n, a, b) => {
                g.nodes[*n].state.preds.joins.remove(&(*a, *b));
            }
            Change::RemoveNonTree(n, r) => {
                g.nodes[*n].state.preds.non_tree.remove(r);
            }
            Change::RemoveCyclic(n, r) => {
                g.nodes[*n].state.preds.cyclic.remove(r);
            }
            Change::RemoveMustReach(n, m) => {
                g.nodes[*n].state.preds.must_reach.remove(m);
            }
            Change::SetLabel(k, j, l) => g.edges[*k].labels[*j] = l.clone(),
            Change::SetLabels(ls) => {
                for (k, l) in ls {
                    g.edges[*k].labels.clone_from(l);
                }
            }
            Change::RemoveLabel(k, j) => {
                g.edges[*k].labels.remove(*j);
            }
            Change::Retarget(k, t) => g.edges[*k].to = *t,
        }
        g
    }
}

/// Every mutant of `g`, in a fixed order.
pub fn mutants(g: &Graph, prog: &Program, sem: IntSemantics) -> Vec<Mutant> {
    let mut out = Vec::new();
    let an = Analyses::of(g, prog, sem);
    let gone = |n: NodeId| an.unreachable(n).then(|| UNREACHABLE.to_string());
    let push = |out: &mut Vec<Mutant>,
                op: Operator,
                desc: String,
                change: Change,
                start_changed: bool,
                eq: Option<String>| {
        out.push(Mutant {
            operator: op,
            description: desc,
            change,
            start_changed,
            equivalent: eq,
        })
    };
    // drop-refinement
    for n in 0..g.nodes.len() {
        let outs: Vec<usize> = (0..g.edges.len())
            .filter(|&k| {
                g.edges[k].from == n
                    && matches!(g.edges[k].kind, EdgeKind::Refine | EdgeKind::Split)
            })
            .collect();
        if outs.len() < 2 {
            continue;
        }
        for &k in &outs {
            let e = &g.edges[k];
            let m = Change::RemoveEdge(k);
            let eq = an.dead(k).then(|| DEAD_EDGE.to_string());
            push(
                &mut out,
                Operator::DropRefinement,
                format!("drop the {} edge {} → {}", e.kind, e.from, e.to),
                m,
                false,
                eq,
            );
        }
    }
    // node-state mutants
    for n in 0..g.nodes.len() {
        let st = &g.nodes[n].state;
        let start = n == g.start;
        for (r, v) in &st.heap {
            let HeapValue::Int(iv) = v else { continue };
            if iv.as_literal().is_some() {
                continue;
            }
            for (side, narrowed) in narrow(iv) {
                let m = Change::SetInt(n, *r, narrowed);
                let eq = match &an.intervals.nodes[n] {
                    _ if an.unreachable(n) => Some(UNREACHABLE.to_string()),
                    None => Some(UNREACHABLE.to_string()),
                    Some(ivs) => ivs
                        .get(r)
                        .filter(|i| i.is_subset_of(&narrowed))
                        .map(|i| format!("{INVARIANT}: {r} ∈ {i} at node {n} on every path"))
                        .or_else(|| {
                            an.related_interval(n, *r)
                                .filter(|i| i.is_subset_of(&narrowed))
                                .map(|i| {
                                    format!("{RELATIONAL}: {r} ∈ {i} at node {n} on every path")
                                })
                        }),
                };
                push(
                    &mut out,
                    Operator::NarrowInterval,
                    format!("node {n}: {r} = {iv} narrowed at its {side} end to {narrowed}"),
                    m,
                    start,
                    eq,
                );
            }
        }
        let p = &st.preds;
        for &(a, b) in &p.may_equal {
            let m = Change::RemoveMayEqual(n, a, b);
            let eq = gone(n).or_else(|| {
                an.never_same(n, a, b)
                    .then(|| format!("{DISTINCT}: {a} and {b} are never one object at node {n}"))
            });
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {a} =? {b}"),
                m,
                start,
                eq,
            );
        }
        for &(a, b) in &p.joins {
            let m = Change::RemoveJoin(n, a, b);
            let eq = if an.unreachable(n) {
                gone(n)
            } else if realized(st, a) && realized(st, b) {
                Some(VACUOUS_REALIZED.to_string())
            } else if let Some(why) =
                cyclic_join(prog, st, a, b).or_else(|| cyclic_join(prog, st, b, a))
            {
                Some(why)
            } else if a == b && p.is_non_tree(a) {
                Some(REDUNDANT.to_string())
            } else if a == b {
                vacuous_shape(prog, st, a)
            } else {
                None
            };
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {a} %$ {b}"),
                m,
                start,
                eq,
            );
        }
        for &r in &p.non_tree {
            let m = Change::RemoveNonTree(n, r);
            let eq = if an.unreachable(n) {
                gone(n)
            } else if realized(st, r) {
                Some(VACUOUS_REALIZED.to_string())
            } else if p.joins(r, r) {
                Some(REDUNDANT.to_string())
            } else {
                vacuous_shape(prog, st, r)
            };
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {r}♦"),
                m,
                start,
                eq,
            );
        }
        for r in p.cyclic.keys() {
            let m = Change::RemoveCyclic(n, *r);
            let eq = gone(n).or_else(|| realized(st, *r).then(|| VACUOUS_REALIZED.to_string()));
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {r}⟲"),
                m,
                start,
                eq,
            );
        }
        for mr in &p.must_reach {
            let m = Change::RemoveMustReach(n, mr.clone());
            let eq = Some(
                "weakening: →! is a requirement the check verifies; dropping it cannot reject a trace".to_string(),
            );
            push(
                &mut out,
                Operator::DropPredicate,
                format!(
                    "node {n}: drop {}→!{}{}",
                    mr.from,
                    jtg_engine::state::fmt_fields(&mr.fields),
                    mr.to
                ),
                m,
                start,
                eq,
            );
        }
    }
    // labels
    for (k, e) in g.edges.iter().enumerate() {
        for (j, l) in e.labels.iter().enumerate() {
            let (src, dst) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
            for (r, weakening) in labels::replacements(l, src, dst, e.kind) {
                let eq = weakening.or_else(|| an.dead(k).then(|| DEAD_EDGE.to_string()));
                push(
                    &mut out,
                    Operator::ReplaceLabel,
                    format!("edge {} → {}: `{l}` replaced by `{r}`", e.from, e.to),
                    Change::SetLabel(k, j, r),
                    false,
                    eq,
                );
            }
            // the labels the check has always evaluated; dropping a call or refinement label
            // would change what the edge is, not only what it requires
            if !matches!(
                l,
                Label::Arith { .. } | Label::Rel { .. } | Label::Type { .. }
            ) {
                continue;
            }
            if let Some(f) = labels::flip(l) {
                let m = Change::SetLabel(k, j, f.clone());
                let eq = an.dead(k).then(|| DEAD_EDGE.to_string());
                push(
                    &mut out,
                    Operator::FlipLabel,
                    format!("edge {} → {}: `{l}` becomes `{f}`", e.from, e.to),
                    m,
                    false,
                    eq,
                );
            }
            let m = Change::RemoveLabel(k, j);
            push(
                &mut out,
                Operator::DropLabel,
                format!("edge {} → {}: drop `{l}`", e.from, e.to),
                m,
                false,
                Some("weakening: labels only restrict the traces a path admits".into()),
            );
        }
    }
    // swap-refinement
    for (desc, change, edges) in labels::swaps(g) {
        let eq = edges
            .iter()
            .all(|&k| an.dead(k))
            .then(|| DEAD_EDGE.to_string());
        push(&mut out, Operator::SwapRefinement, desc, change, false, eq);
    }
    // retarget-instance
    for (k, e) in g.edges.iter().enumerate() {
        if e.kind != EdgeKind::Instance {
            continue;
        }
        let pos = position(&g.nodes[e.to].state);
        for t in 0..g.nodes.len() {
            if t == e.to || t == e.from || position(&g.nodes[t].state) != pos {
                continue;
            }
            let m = Change::Retarget(k, t);
            let is =
                |s: &State| jtg_engine::instance_of::instance_holds(s, &g.nodes[t].state, prog);
            let eq = if an.dead(k) {
                Some(DEAD_EDGE.to_string())
            } else if is(&g.nodes[e.from].state) {
                Some(format!(
                    "instance-preserving: node {} ⊑ node {t} by the engine's ⊑",
                    e.from
                ))
            } else if an.tightened(g, e.from).is_some_and(|s| is(&s)) {
                Some(format!(
                    "instance-preserving under the interval invariant: node {} with its intervals narrowed to the invariant ⊑ node {t} by the engine's ⊑",
                    e.from
                ))
            } else {
                None
            };
            push(
                &mut out,
                Operator::RetargetInstance,
                format!("instance edge {} → {} retargeted to {t}", e.from, e.to),
                m,
                false,
                eq,
            );
        }
    }
    out
}

const UNREACHABLE: &str =
    "unreachable: no path the check can match from the start node reaches the node";
const INVARIANT: &str = "interval invariant";
const DISTINCT: &str = "distinct positions";
const RELATIONAL: &str = "relational invariant";
const DEAD_EDGE: &str =
    "dead edge: by the interval invariant, no path the check can match takes the edge";
const VACUOUS_REALIZED: &str = "vacuous-realized: the reference is realized with every field listed, so it has no hidden region for the permission to apply to";
const REDUNDANT: &str =
    "redundant: r♦ and r %$ r grant the same permission (j), and the other one stays";

/// `Some(reason)` when `a %$ b` is implied by the rest of the state (see the module docs,
/// **acyclic join**): `b` is a realized object listing every field of its class, the state
/// shows a path of realized fields from `b` to `a`, and `a` is `C(?)`/`C(…)` without `⟲`.
fn cyclic_join(prog: &Program, st: &State, a: Ref, b: Ref) -> Option<String> {
    if a == b
        || !matches!(
            st.value(a)?,
            HeapValue::Unknown { .. } | HeapValue::Abstract { .. }
        )
    {
        return None;
    }
    if st.preds.cyclic(a).is_some() {
        return None;
    }
    let HeapValue::Object { class, fields } = st.value(b)? else {
        return None;
    };
    let all = jtg_engine::models::instance_fields(prog, class).ok()?;
    if all.len() != fields.len() || all.iter().any(|(f, ..)| !fields.contains_key(f)) {
        return None;
    }
    // the explicit fields below `b`, through realized objects only
    let mut todo: Vec<Ref> = fields.values().copied().collect();
    let mut seen = BTreeSet::new();
    while let Some(x) = todo.pop() {
        if x == a {
            return Some(format!(
                "acyclic join: {b} lists every field and reaches {a} through them, and {a} has no ⟲: {b}'s object in {a}'s hidden region would close a cycle there"
            ));
        }
        if !seen.insert(x) {
            continue;
        }
        match st.value(x) {
            Some(HeapValue::Object { fields, .. }) => todo.extend(fields.values().copied()),
            Some(HeapValue::Array {
                elems: Some(es), ..
            }) => todo.extend(es.iter().copied()),
            _ => {}
        }
    }
    None
}

/// Whether `r` is a realized object or an array with known elements (no hidden region).
fn realized(st: &State, r: Ref) -> bool {
    matches!(
        st.value(r),
        Some(HeapValue::Object { .. } | HeapValue::Array { elems: Some(_), .. })
    )
}

fn position(s: &State) -> Vec<(String, u32)> {
    s.frames
        .iter()
        .map(|f| (f.method.to_string(), f.pc))
        .collect()
}

/// The narrowings of a non-literal interval: (which end, result).
fn narrow(iv: &Interval) -> Vec<(&'static str, Interval)> {
    let mut v = Vec::new();
    let lo = match iv.lo {
        Some(a) => Interval::new(Some(a + 1), iv.hi),
        None => Interval::new(Some(iv.hi.map_or(0, |b| b.min(0))), iv.hi),
    };
    let hi = match iv.hi {
        Some(b) => Interval::new(iv.lo, Some(b - 1)),
        None => Interval::new(iv.lo, Some(iv.lo.map_or(0, |a| a.max(0)))),
    };
    if let Some(x) = lo.filter(|x| x != iv) {
        v.push(("low", x));
    }
    if let Some(x) = hi.filter(|x| x != iv) {
        v.push(("high", x));
    }
    v
}

/// `Some(reason)` when every class reachable from `r`'s type has at most one reference field
/// (see the module docs: DAG sharing is then impossible).
fn vacuous_shape(prog: &Program, st: &State, r: Ref) -> Option<String> {
    let ty = st.value(r)?.type_name()?.to_string();
    if ty.starts_with('[') {
        return None;
    }
    let mut todo = vec![ty];
    let mut seen = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if !seen.insert(c.clone()) {
            continue;
        }
        // every concrete subtype may appear; be conservative: only final-like leaf classes
        // with no loaded subclasses are accepted, checked by the field count of `c` itself
        let fields = jtg_engine::models::instance_fields(prog, &c).ok()?;
        let refs: Vec<String> = fields
            .iter()
            .filter(|(_, t, _)| t.is_reference())
            .map(|(_, t, _)| jtg_engine::program::type_string(t))
            .collect();
        if refs.len() > 1 || refs.iter().any(|t| t.starts_with('[')) {
            return None;
        }
        if !subclasses_known_absent(prog, &c) {
            return None;
        }
        todo.extend(refs);
    }
    Some(format!(
        "vacuous-shape: every class reachable from {r} ({}) has at most one reference field, so no two paths meet without one being a prefix of the other",
        seen.into_iter().collect::<Vec<_>>().join(", ")
    ))
}

/// Whether `class` has no subclass on the class path that could add reference fields. The
/// check is conservative: only classes of the analysed class path whose subclasses are all
/// enumerable are accepted.
fn subclasses_known_absent(prog: &Program, class: &str) -> bool {
    match prog.hierarchy.non_abstract_subtypes(class) {
        Ok(subs) => subs.iter().all(|s| s == class),
        Err(_) => false,
    }
}

/// What happened to one mutant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// A trace violated the mutant (the step and the first reason).
    Killed { input: usize, step: usize },
    /// Equivalent by a criterion of the module docs.
    Equivalent(String),
    /// Not killed, not shown equivalent: a gap of the check or of the inputs.
    Survived,
}

/// The outcome of a mutation run over one graph.
#[derive(Clone, Debug, Default)]
pub struct MutationReport {
    /// (operator, description, fate) per mutant tried.
    pub mutants: Vec<(Operator, String, Fate)>,
    /// Mutants derived before sampling.
    pub derived: usize,
}

impl MutationReport {
    pub fn killed(&self) -> usize {
        self.count(|f| matches!(f, Fate::Killed { .. }))
    }
    pub fn equivalent(&self) -> usize {
        self.count(|f| matches!(f, Fate::Equivalent(_)))
    }
    pub fn survived(&self) -> usize {
        self.count(|f| matches!(f, Fate::Survived))
    }
    fn count(&self, p: impl Fn(&Fate) -> bool) -> usize {
        self.mutants.iter().filter(|(_, _, f)| p(f)).count()
    }
    /// `killed / (mutants − equivalent)`; 1 when every mutant is equivalent.
    pub fn score(&self) -> f64 {
        let live = self.mutants.len() - self.equivalent();
        if live == 0 {
            1.0
        } else {
            self.killed() as f64 / live as f64
        }
    }
}

/// Picks at most `max` of `all` mutants, spread evenly over the derivation order (which is by
/// operator, then node), so that every operator keeps its share.
pub fn sample(all: Vec<Mutant>, max: usize) -> Vec<Mutant> {
    if all.len() <= max || max == 0 {
        return all;
    }
    let n = all.len();
    all.into_iter()
        .enumerate()
        .filter(|(k, _)| (k * max) / n != ((k + 1) * max) / n)
        .map(|(_, m)| m)
        .collect()
}

/// Checks every mutant against the same concrete runs (drawn from the original start state).
pub fn run_mutants(
    base: &Graph,
    prog: &Program,
    sem: jtg_engine::state::IntSemantics,
    mutants: &[Mutant],
    runs: &[&dyn jtg_check::ConcreteRun],
) -> Vec<Fate> {
    use jtg_check::{check_run, Verdict};
    mutants
        .iter()
        .map(|m| {
            let graph = m.graph(base);
            let matcher = jtg_check::Matcher::new(&graph, prog, sem);
            for (k, r) in runs.iter().enumerate() {
                if let Verdict::Violation(s) = check_run(&matcher, prog, *r, sem).verdict {
                    return Fate::Killed {
                        input: k,
                        step: s.step,
                    };
                }
            }
            match &m.equivalent {
                Some(why) => Fate::Equivalent(why.clone()),
                None => Fate::Survived,
            }
        })
        .collect()
}
