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

use super::quantity::{location_quantities, Quantity, Slots};
use super::{encode_rooted, EncodeOptions};
use jtg_engine::graph::{call_entry_state, with_statics_of, Graph, NodeId};
use jtg_engine::instance_of::is_instance;
use jtg_engine::state::{End, IntSemantics, Interval, Ref, State};
use jtg_engine::Program;
use jtg_prove::{
    sccs, start_bounds, start_relations, AffineSpace, BigInt, Constraint, FormBounds, LinExpr,
    LocId, Var, Q,
};
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
    /// Affine equalities over `(the entry's quantities, the result)`, and upper bounds of
    /// linear forms over them (`result − entry_j ≤ c`: [`Bounds`]).
    Affine(ResultKind, AffineSpace, Bounds),
    /// Nothing is known.
    Unknown,
}

impl Summary {
    fn join(&self, other: &Summary) -> Summary {
        match (self, other) {
            (Summary::Never, s) | (s, Summary::Never) => s.clone(),
            (Summary::Affine(k1, a, p), Summary::Affine(k2, b, q)) if k1 == k2 => {
                Summary::Affine(*k1, a.join(b), p.join(q))
            }
            _ => Summary::Unknown,
        }
    }

    /// `self` (the join of `old` and a new round) with every bound that grew since `old`
    /// dropped: the widening that ends an iteration over bounds.
    fn widened(self, old: &Summary) -> Summary {
        match (self, old) {
            (Summary::Affine(k, a, b), Summary::Affine(_, _, ob)) => {
                Summary::Affine(k, a, b.widened(ob))
            }
            (s, _) => s,
        }
    }
}

/// The summaries of a graph, by entry node of a method graph (every entry of an abstracted
/// call has one).
#[derive(Clone, Debug, Default)]
pub(super) struct Summaries {
    pub(super) by_entry: BTreeMap<NodeId, Summary>,
    /// The graph's locations have greatest element lengths (`EncodeOptions`).
    pub(super) element_lengths: bool,
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
        element_lengths: opts.element_lengths,
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
        let pres: BTreeMap<NodeId, Vec<Constraint>> = scc
            .iter()
            .filter_map(|&e| Some((e, call_sites_precondition(g, prog, opts, e)?)))
            .collect();
        if !recursive {
            fixpoint(g, prog, opts, &mut sums, &scc, &regions, &pres, false);
            continue;
        }
        // A recursion: with the inequalities, widened, where every entry has its call sites'
        // precondition; else, or where a bound does not settle within the rounds, its
        // equalities alone (their lattice has finite height)
        let settled = pres.len() == scc.len()
            && fixpoint(g, prog, opts, &mut sums, &scc, &regions, &pres, true);
        if !settled {
            let none = BTreeMap::new();
            fixpoint(g, prog, opts, &mut sums, &scc, &regions, &none, true);
        }
    }
    sums
}

/// Iterates the summaries of the method graphs `scc` (entry nodes) from *never returns* to a
/// fixpoint, the other summaries fixed; `pres`: per entry, what its call sites' arguments
/// satisfy (an entry without one gets no inequalities); `recursive`: the method graphs call
/// each other (else one round is the fixpoint). In a recursion with inequalities a bound that
/// grows from one round to the next is dropped (widening), so the iteration ends once no bound
/// grows. Whether it settled within [`MAX_ROUNDS`]; if not, the summaries of `scc` are
/// [`Summary::Unknown`].
#[allow(clippy::too_many_arguments)]
fn fixpoint(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    sums: &mut Summaries,
    scc: &[NodeId],
    regions: &BTreeMap<NodeId, BTreeSet<NodeId>>,
    pres: &BTreeMap<NodeId, Vec<Constraint>>,
    recursive: bool,
) -> bool {
    let widen = recursive && !pres.is_empty();
    for &e in scc {
        sums.by_entry.insert(e, Summary::Never);
    }
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for &e in scc {
            let pre = pres.get(&e).map(Vec::as_slice);
            let new = summarize(g, prog, opts, sums, e, &regions[&e], pre);
            let old = &sums.by_entry[&e];
            let mut joined = old.join(&new);
            if widen {
                joined = joined.widened(old);
            }
            if joined != *old {
                sums.by_entry.insert(e, joined);
                changed = true;
            }
        }
        if !changed || !recursive {
            return true;
        }
    }
    for &e in scc {
        sums.by_entry.insert(e, Summary::Unknown);
    }
    false
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
/// the calls it makes; `region`: the method graph's nodes; `pre`: what every call site's
/// arguments satisfy (`None`: no inequalities are sought, as inside a recursion).
fn summarize(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    sums: &Summaries,
    entry: NodeId,
    region: &BTreeSet<NodeId>,
    pre: Option<&[Constraint]>,
) -> Summary {
    let Ok(enc) = encode_rooted(g, prog, opts, sums, entry, region) else {
        return Summary::Unknown;
    };
    let k = enc.its.location(enc.its.start()).arity();
    let rel = start_relations(&enc.its);
    // the returns: (location, result kind, the result over the location's variables)
    let mut returns = Vec::new();
    for (l, node) in enc.loc_node.iter().enumerate() {
        let (Some(n), Some(_)) = (node, &rel[l]) else {
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
        returns.push((l, kind, e));
    }
    let forms = summary_forms(k);
    let bounds = pre.and_then(|pre| {
        let mut at = vec![Vec::new(); enc.its.locations().len()];
        for (l, _, e) in &returns {
            let a = enc.its.location(LocId(*l as u32)).arity();
            at[*l] = forms.iter().map(|f| at_return(f, k, a, e)).collect();
        }
        start_bounds(&enc.its, pre, &at, MAX_NE_SPLIT, BOUNDS_MAX_WORK)
    });
    let mut out = Summary::Never;
    for (l, kind, e) in returns {
        let space = rel[l].as_ref().expect("a reached return");
        let found = match bounds.as_ref().map(|b| &b[l]) {
            None => Bounds::unknown(),
            Some(FormBounds::Unreached) => Bounds::Never,
            Some(FormBounds::Bounds(b)) => {
                Bounds::Forms(forms.iter().cloned().zip(b.clone()).collect())
            }
        };
        // (s, x) ↦ (s, e(x))
        let here = Summary::Affine(kind, space.image_keeping_start(k, &[e]), found);
        out = out.join(&here);
    }
    out
}

/// Simplex work one summary's inequalities may spend (deterministic; a tenth of what the
/// invariants of a whole proof get).
const BOUNDS_MAX_WORK: u64 = 1_000_000;

/// `≠` constraints a rule may split on while the inequalities are sought (as the prover).
const MAX_NE_SPLIT: usize = 4;

/// Upper bounds of linear forms over `(the entry's quantities s₀ … s_{k−1}, the result R)`
/// (`R` is `Var(k)`), found on the runs from call sites that satisfy the summary's
/// precondition (the hull of the call sites' intervals).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Bounds {
    /// No return is reached (the bottom of the join).
    Never,
    /// Each form with its bound (`None`: unbounded).
    Forms(Vec<(LinExpr, Option<Q>)>),
}

impl Bounds {
    fn unknown() -> Bounds {
        Bounds::Forms(Vec::new())
    }

    /// The larger bound of each form; forms not bounded on both sides are dropped.
    fn join(&self, other: &Bounds) -> Bounds {
        match (self, other) {
            (Bounds::Never, b) | (b, Bounds::Never) => b.clone(),
            (Bounds::Forms(a), Bounds::Forms(b)) => Bounds::Forms(
                a.iter()
                    .filter_map(|(f, x)| {
                        let (_, y) = b.iter().find(|(g, _)| g == f)?;
                        let m = match (x, y) {
                            (Some(x), Some(y)) => Some(if x >= y { x.clone() } else { y.clone() }),
                            _ => None,
                        };
                        Some((f.clone(), m))
                    })
                    .collect(),
            ),
        }
    }

    /// `self` (a join with `old`) with each bound above its bound in `old` dropped.
    fn widened(self, old: &Bounds) -> Bounds {
        match (self, old) {
            (Bounds::Forms(fs), Bounds::Forms(ofs)) => Bounds::Forms(
                fs.into_iter()
                    .map(|(f, b)| {
                        let before = ofs
                            .iter()
                            .find(|(g, _)| *g == f)
                            .and_then(|(_, x)| x.as_ref());
                        let keep = matches!((&b, before), (Some(b), Some(o)) if b <= o);
                        (f, if keep { b } else { None })
                    })
                    .collect(),
            ),
            (b, _) => b,
        }
    }

    /// The forms with a bound, as constraints `form ≤ bound`.
    fn constraints(&self) -> Vec<(LinExpr, Q)> {
        match self {
            Bounds::Never => Vec::new(),
            Bounds::Forms(fs) => fs
                .iter()
                .filter_map(|(f, b)| Some((f.clone(), b.clone()?)))
                .collect(),
        }
    }
}

/// The forms a summary bounds: `R − sⱼ` and `sⱼ − R` for every entry quantity, `R` and `−R`.
fn summary_forms(k: usize) -> Vec<LinExpr> {
    let r = LinExpr::var(Var(k as u32));
    let mut out = Vec::with_capacity(2 * k + 2);
    for j in 0..k {
        let s = LinExpr::var(Var(j as u32));
        out.push(r.minus(&s));
        out.push(s.minus(&r));
    }
    out.push(r.clone());
    out.push(r.scaled(&-Q::one()));
    out
}

/// A summary form at a return location of arity `a`: `R` is the result `e`, the entry's
/// `sⱼ` the start copy `Var(a + j)` ([`start_bounds`]).
fn at_return(form: &LinExpr, k: usize, a: usize, e: &LinExpr) -> LinExpr {
    form.substitute(&|v: Var| {
        if v.index() == k {
            e.clone()
        } else {
            LinExpr::var(Var((a + v.index()) as u32))
        }
    })
}

/// What the arguments of every abstracted call into `entry` satisfy: per integer quantity of
/// the entry, the hull of its intervals at the call nodes (through each call's instance
/// witness), as constraints over the entry's quantities. `None`: a call's witness fails.
fn call_sites_precondition(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    entry: NodeId,
) -> Option<Vec<Constraint>> {
    let sem = opts.ints;
    let entry_state = &g.nodes[entry].state;
    let qs = location_quantities(entry_state, opts.element_lengths);
    let mut hull: Vec<Option<Interval>> = vec![None; qs.len()];
    for e in g
        .edges
        .iter()
        .filter(|e| e.is_abstract_call() && e.to == entry)
    {
        let call = &g.nodes[e.from].state;
        let w = call_witness(prog, sem, entry_state, call)?;
        for (j, q) in qs.iter().enumerate() {
            let Quantity::Int(r) = q else { continue };
            let at = w.get(r).copied()?;
            let i = *call.integral(at)?;
            hull[j] = Some(hull[j].map_or(i, |h| h.hull(&i)));
        }
    }
    let mut pre = Vec::new();
    for (j, i) in hull.iter().enumerate() {
        let Some(i) = i else { continue };
        let x = LinExpr::var(Var(j as u32));
        if let Some(lo) = i.lo {
            pre.push(Constraint::ge(
                &x,
                &LinExpr::constant(Q::from(BigInt::from(lo))),
            ));
        }
        if let Some(hi) = i.hi {
            pre.push(Constraint::le(
                &x,
                &LinExpr::constant(Q::from(BigInt::from(hi))),
            ));
        }
    }
    Some(pre)
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
    /// The entry's location has greatest element lengths.
    pub(super) element_lengths: bool,
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
    let CalleeSummary {
        g,
        entry,
        summary,
        element_lengths,
    } = *callee;
    let (kind, space, bounds) = match summary {
        Summary::Unknown => return,
        Summary::Never => {
            out.push(Constraint::le(&LinExpr::constant(1), &LinExpr::zero()));
            return;
        }
        Summary::Affine(kind, space, bounds) => (kind, space, bounds),
    };
    let entry_state = &g.nodes[entry].state;
    let Some(params) = entry_values(prog, sem, entry_state, element_lengths, src) else {
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
    let values: Vec<Option<LinExpr>> = params.into_iter().chain([Some(ret)]).collect();
    // Σ coefᵢ·valueᵢ, `None` where a value with a nonzero coefficient is unknown
    let combine = |coefs: &mut dyn Iterator<Item = (usize, Q)>| -> Option<LinExpr> {
        let mut lhs = LinExpr::zero();
        for (i, c) in coefs {
            if !c.is_zero() {
                lhs.add_scaled(values[i].as_ref()?, &c);
            }
        }
        Some(lhs)
    };
    for (a, b) in space.equalities() {
        if let Some(lhs) = combine(&mut a.into_iter().enumerate()) {
            out.push(Constraint::eq(&lhs, &LinExpr::constant(b)));
        }
    }
    for (form, b) in bounds.constraints() {
        let mut terms = form.terms.iter().map(|(v, c)| (v.index(), c.clone()));
        if let Some(lhs) = combine(&mut terms) {
            out.push(Constraint::le(&lhs, &LinExpr::constant(b)));
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
    element_lengths: bool,
    src: &Slots<'_>,
) -> Option<Vec<Option<LinExpr>>> {
    let w = call_witness(prog, sem, entry, src.state)?;
    let at = |g: Ref| w.get(&g).copied();
    Some(
        location_quantities(entry, element_lengths)
            .into_iter()
            .map(|q| match q {
                Quantity::Int(g) => src.int(at(g)?),
                Quantity::Size(g) => src.size(at(g)?),
                Quantity::SizeAvoiding(g, f) => src.size_avoiding(at(g)?, f),
                Quantity::Len(g) => src.len(at(g)?),
                Quantity::ElemLen(g) => src.elem_len(at(g)?),
                Quantity::Dist(..) => None,
            })
            .collect(),
    )
}

/// Where each reference of the callee's `entry` state is in the `call` node's state: the
/// witness of the call's view being an instance of the entry (`None`: it is not).
fn call_witness(
    prog: &Program,
    sem: IntSemantics,
    entry: &State,
    call: &State,
) -> Option<BTreeMap<Ref, Ref>> {
    let callee = entry.top()?;
    let view = call_entry_state(call, &callee.method, prog)
        .and_then(|v| with_statics_of(&v, entry, prog, sem))
        .ok()?;
    Some(is_instance(&view, entry, prog).ok()?.map)
}
