//! From termination graphs to integer transition systems (docs/proving.md, *From graphs to
//! ITS*; spec §9, §6–7).
//!
//! * **Locations**: the start node, every node with other than one incoming or one outgoing
//!   edge (branching nodes, loop heads, program ends), and one node of every cycle that would
//!   otherwise have none; chains of nodes in between are composed into one rule. A fresh
//!   location `start` without incoming rules enters the start node.
//! * **Variables** of a location: the [`Quantity`]s of its state (non-literal integers, the
//!   size of every object reference).
//! * **Rules**: one per chain `n₀ → … → nₖ` between locations. Every node of the chain gets its
//!   quantities as temporaries, every node adds its facts ([`quantity::facts`]) and every edge
//!   its constraints ([`step::edge_constraints`]); then temporaries fixed by an equality are
//!   substituted away. What remains are temporaries of some chain node (the cross-check reads
//!   their values from the concrete run: [`RuleOrigin::temps`]).

mod division;
mod effects;
mod lcmp;
mod product;
pub(crate) mod quantity;
mod ranged;
mod relevance;
mod step;
mod summary;
mod wrap_free;

use effects::CallEffects;
use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::text::LocalNames;
use jtg_engine::state::IntSemantics;
use jtg_engine::Program;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr, Rel, Var};
use jtg_prove::{Its, ItsError, LocId, Rule, RuleId};
pub use quantity::Quantity;
use quantity::{facts, quantities, size_bounds, Slots};
use ranged::RangedUpdate;
pub(crate) use relevance::without_weak_bounds;
use std::collections::{BTreeMap, BTreeSet};

/// How a graph is encoded.
#[derive(Clone, Copy, Debug, Default)]
pub struct EncodeOptions {
    /// The integer semantics the graph was built with: under Java ints an assignment that may
    /// wrap is no exact update.
    pub ints: IntSemantics,
}

/// Where a rule comes from: the chain of graph nodes it composes and the quantities its
/// remaining temporaries stand for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleOrigin {
    /// `n₀ … nₖ` (for the rule out of `start`: the start node alone).
    pub nodes: Vec<NodeId>,
    /// Per temporary: the position in `nodes` and the quantity of that node.
    pub temps: Vec<(usize, Quantity)>,
    /// Updates that may wrap (`--ints java`) and are not yet shown exact, over the rule's
    /// variables: chaining may bring the test that rules the wrap out (`ranged.rs`).
    pub ranged: Vec<RangedUpdate>,
}

/// An ITS with the map back to the graph.
#[derive(Clone, Debug)]
pub struct Encoding {
    pub its: Its,
    /// Per location (by [`LocId`] index): its graph node (`None` for `start`).
    pub loc_node: Vec<Option<NodeId>>,
    /// Per location: its variables' quantities, in order.
    pub loc_vars: Vec<Vec<Quantity>>,
    /// Per rule (by [`RuleId`] index).
    pub origins: Vec<RuleOrigin>,
}

impl Encoding {
    pub fn location_of(&self, n: NodeId) -> Option<LocId> {
        self.loc_node
            .iter()
            .position(|m| *m == Some(n))
            .map(|i| LocId(i as u32))
    }
    /// Rules by their source location and the chain of nodes they compose (several where a
    /// rule is split by a dividend's sign), in rule order.
    pub fn rule_by_chain(&self) -> BTreeMap<(LocId, Vec<NodeId>), Vec<RuleId>> {
        let mut out: BTreeMap<(LocId, Vec<NodeId>), Vec<RuleId>> = BTreeMap::new();
        for (i, o) in self.origins.iter().enumerate() {
            let r = RuleId(i as u32);
            out.entry((self.its.rule(r).from, o.nodes.clone()))
                .or_default()
                .push(r);
        }
        out
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("ITS construction failed: {0}")]
    Its(#[from] ItsError),
}

/// The location name of node `n`.
pub(crate) fn location_name(n: NodeId) -> String {
    format!("n{n}")
}

/// Which nodes are locations (see the module docs).
pub(crate) fn locations(g: &Graph) -> BTreeSet<NodeId> {
    let n = g.nodes.len();
    let mut indeg = vec![0usize; n];
    let mut out: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for e in &g.edges {
        indeg[e.to] += 1;
        out[e.from].push(e.to);
    }
    let mut locs: BTreeSet<NodeId> = (0..n)
        .filter(|&k| k == g.start || indeg[k] != 1 || out[k].len() != 1)
        .collect();
    // a cycle of pass-through nodes gets one location (its smallest node, as found first)
    let mut covered = vec![false; n];
    loop {
        for &l in &locs {
            covered[l] = true;
            for &m in &out[l] {
                let mut cur = m;
                while !locs.contains(&cur) && !covered[cur] {
                    covered[cur] = true;
                    cur = out[cur][0];
                }
            }
        }
        match (0..n).find(|&k| !covered[k]) {
            Some(k) => {
                locs.insert(k);
            }
            None => return locs,
        }
    }
}

/// Encodes `g` as an ITS (see the module docs and docs/proving.md).
pub fn encode(g: &Graph, prog: &Program, opts: &EncodeOptions) -> Result<Encoding, EncodeError> {
    let sums = summary::summaries(g, prog, opts);
    encode_with(g, prog, opts, &sums, None)
}

/// The ITS of the method graph from `entry` alone (its nodes: `region`, [`summary::region`]),
/// started there (`summary.rs`).
fn encode_rooted(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    sums: &summary::Summaries,
    entry: NodeId,
    region: &BTreeSet<NodeId>,
) -> Result<Encoding, EncodeError> {
    encode_with(g, prog, opts, sums, Some((entry, region)))
}

/// [`encode`] under the call summaries `sums`; with a `root` entry node and its method
/// graph's nodes, only that method graph, started there, without the `call` edges into other
/// method graphs.
fn encode_with(
    g: &Graph,
    prog: &Program,
    opts: &EncodeOptions,
    sums: &summary::Summaries,
    root: Option<(NodeId, &BTreeSet<NodeId>)>,
) -> Result<Encoding, EncodeError> {
    let in_region = |n: &NodeId| root.is_none_or(|(_, region)| region.contains(n));
    let first = root.map_or(g.start, |(entry, _)| entry);
    let mut locs: BTreeSet<NodeId> = locations(g).into_iter().filter(in_region).collect();
    locs.insert(first);
    let node_vars: BTreeMap<NodeId, Vec<Quantity>> = g
        .nodes
        .iter()
        .filter(|nd| in_region(&nd.id))
        .map(|nd| (nd.id, quantities(&nd.state)))
        .collect();
    let start_vars = &node_vars[&first];
    let names = |qs: &[Quantity]| qs.iter().map(|q| q.var_name()).collect::<Vec<_>>();
    let start_names = names(start_vars);
    let refs: Vec<&str> = start_names.iter().map(String::as_str).collect();
    let mut its = Its::new("start", &refs)?;
    let mut enc_loc_node = vec![None];
    let mut loc_vars = vec![start_vars.clone()];
    let mut loc_of: BTreeMap<NodeId, LocId> = BTreeMap::new();
    for &l in &locs {
        let nm = names(&node_vars[&l]);
        let refs: Vec<&str> = nm.iter().map(String::as_str).collect();
        let id = its.add_location(&location_name(l), &refs)?;
        loc_of.insert(l, id);
        enc_loc_node.push(Some(l));
        loc_vars.push(node_vars[&l].clone());
    }
    let succ = g.successors();
    let effects = CallEffects::new(g, prog, sums);
    let mut origins = Vec::new();
    // start(x̄) → n_start(x̄) under the start state's facts
    {
        let chain = RuleChain::new(g, &node_vars, first);
        for (rule, origin) in chain.finish(prog, opts, &effects, its.start(), loc_of[&first], &[]) {
            its.add_rule(rule)?;
            origins.push(origin);
        }
    }
    for &l in &locs {
        for e in &succ[l] {
            if root.is_some() && e.is_abstract_call() {
                continue;
            }
            let mut edges = vec![*e];
            let mut cur = e.to;
            while !locs.contains(&cur) {
                let next = succ[cur][0];
                edges.push(next);
                cur = next.to;
            }
            let chain = RuleChain::new(g, &node_vars, l);
            for (rule, origin) in
                chain.finish(prog, opts, &effects, loc_of[&l], loc_of[&cur], &edges)
            {
                its.add_rule(rule)?;
                origins.push(origin);
            }
        }
    }
    let ranges = wrap_free::int_ranges(g, first, &enc_loc_node, &loc_vars, opts.ints);
    chain_locations(
        Encoding {
            its,
            loc_node: enc_loc_node,
            loc_vars,
            origins,
        },
        &ranges,
    )
}

/// Chaining: a location (not the start) entered by exactly one rule from another location
/// is removed, that rule composed with each rule leaving it. The rule count never grows, and
/// values that were only related by an update become related inside one rule (a loop body
/// `x' = x − 1` and its test `x ≥ 1` at a branching node meet).
pub(crate) fn chain_locations(
    mut enc: Encoding,
    ranges: &[Vec<Constraint>],
) -> Result<Encoding, EncodeError> {
    let mut rules: Vec<Option<(Rule, RuleOrigin)>> = enc
        .its
        .rules()
        .iter()
        .cloned()
        .zip(enc.origins.iter().cloned())
        .map(Some)
        .collect();
    let nloc = enc.its.locations().len();
    let mut removed = vec![false; nloc];
    loop {
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); nloc];
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); nloc];
        for (k, r) in rules.iter().enumerate() {
            if let Some((r, _)) = r {
                into[r.to.index()].push(k);
                out[r.from.index()].push(k);
            }
        }
        let pick = (0..nloc).find(|&l| {
            LocId(l as u32) != enc.its.start()
                && !removed[l]
                && into[l].len() == 1
                && !out[l].is_empty()
                && rules[into[l][0]]
                    .as_ref()
                    .is_some_and(|(r, _)| r.from.index() != l)
        });
        let Some(l) = pick else { break };
        let (a, ao) = rules[into[l][0]].take().expect("live");
        for &k in &out[l] {
            let (b, bo) = rules[k].take().expect("live");
            rules[k] = Some(compose(&enc.its, &a, &ao, &b, &bo));
        }
        removed[l] = true;
    }
    // rebuild without the removed locations
    let keep: Vec<usize> = (0..nloc).filter(|&l| !removed[l]).collect();
    let new_id: BTreeMap<usize, LocId> = keep
        .iter()
        .enumerate()
        .map(|(i, &l)| (l, LocId(i as u32)))
        .collect();
    let old = &enc.its;
    let start = old.location(old.start());
    let sv: Vec<&str> = start.vars.iter().map(String::as_str).collect();
    let mut its = Its::new(&start.name, &sv)?;
    for &l in &keep[1..] {
        let loc = old.location(LocId(l as u32));
        let vs: Vec<&str> = loc.vars.iter().map(String::as_str).collect();
        its.add_location(&loc.name, &vs)?;
    }
    let mut origins = Vec::new();
    let live: Vec<(Rule, RuleOrigin)> = rules.into_iter().flatten().collect();
    let pairs: Vec<(&Rule, &[RangedUpdate])> =
        live.iter().map(|(r, o)| (r, o.ranged.as_slice())).collect();
    let reads = relevance::read_results(old, &pairs);
    // what a run may read and the invariants leave wrapping: one rule per case (`ranged.rs`)
    let (mut rules, meta) = wrap_free::read_candidates(live, reads.split);
    wrap_free::exact_by_invariants(old, ranges, &mut rules);
    for (((mut r, ranged), o), vars) in rules.into_iter().zip(meta).zip(reads.vars) {
        r.from = new_id[&r.from.index()];
        r.to = new_id[&r.to.index()];
        let guard = relevance::drop_unread_bounds(std::mem::take(&mut r.guard), &vars);
        for guard in ranged::wrap_cases(&ranged, guard) {
            its.add_rule(Rule {
                guard: dedup(guard),
                ..r.clone()
            })?;
            origins.push(o.clone());
        }
    }
    enc.loc_node = keep.iter().map(|&l| enc.loc_node[l]).collect();
    enc.loc_vars = keep.iter().map(|&l| enc.loc_vars[l].clone()).collect();
    enc.its = its;
    enc.origins = origins;
    Ok(enc)
}

/// `a` then `b` as one rule (`a` enters `b`'s source).
fn compose(its: &Its, a: &Rule, ao: &RuleOrigin, b: &Rule, bo: &RuleOrigin) -> (Rule, RuleOrigin) {
    let na = its.location(a.from).arity();
    let nl = its.location(b.from).arity();
    let ta = a.temps.len();
    let sub = |v: Var| {
        if v.index() < nl {
            a.args[v.index()].clone()
        } else {
            LinExpr::var(Var((na + ta + v.index() - nl) as u32))
        }
    };
    let mut guard = a.guard.clone();
    guard.extend(b.guard.iter().map(|c| c.substitute(&sub)));
    let mut args: Vec<LinExpr> = b.args.iter().map(|e| e.substitute(&sub)).collect();
    let shift = ao.nodes.len() - 1;
    let mut otemps = ao.temps.clone();
    otemps.extend(bo.temps.iter().map(|(p, q)| (p + shift, *q)));
    let mut nodes = ao.nodes.clone();
    nodes.extend(bo.nodes.iter().skip(1));
    let total = na + otemps.len();
    let mut ranged = ao.ranged.clone();
    ranged.extend(bo.ranged.iter().map(|u| u.substitute(&sub)));
    let ranged = ranged::exact_in_range(&ranged, total, &[], &mut guard);
    let (guard, ranged, kept) = eliminate_keeping(guard, &mut args, ranged, na, total);
    let temps: Vec<(usize, Quantity)> = kept.iter().map(|v| otemps[v.index() - na]).collect();
    let renum: BTreeMap<Var, Var> = kept
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, Var((na + i) as u32)))
        .collect();
    let rn = |v: Var| if v.index() < na { v } else { renum[&v] };
    let guard = dedup(guard.iter().map(|c| c.rename(&rn)).collect());
    let args = args.iter().map(|e| e.rename(&rn)).collect();
    let names = temps
        .iter()
        .map(|(pos, q)| format!("t{pos}_{}", q.var_name()))
        .collect();
    (
        Rule {
            from: a.from,
            to: b.to,
            temps: names,
            args,
            guard,
        },
        RuleOrigin {
            nodes,
            temps,
            ranged: ranged.iter().map(|u| u.rename(&rn)).collect(),
        },
    )
}

/// [`eliminate`] with the candidate updates `ranged` carried along (their variables kept
/// alive, their expressions substituted like the arguments).
fn eliminate_keeping(
    guard: Vec<Constraint>,
    args: &mut Vec<LinExpr>,
    ranged: Vec<RangedUpdate>,
    n0: usize,
    total: usize,
) -> (Vec<Constraint>, Vec<RangedUpdate>, Vec<Var>) {
    let k = args.len();
    for u in &ranged {
        args.extend(u.exprs());
    }
    let (guard, _, kept) = eliminate(guard, args, n0, total);
    let extra = args.split_off(k);
    let ranged = extra
        .chunks(2)
        .zip(&ranged)
        .map(|(e, u)| u.with_exprs(e[0].clone(), e[1].clone()))
        .collect();
    (guard, ranged, kept)
}

/// A rule under construction along a chain of nodes.
struct RuleChain<'g> {
    g: &'g Graph,
    node_vars: &'g BTreeMap<NodeId, Vec<Quantity>>,
    first: NodeId,
}

impl<'g> RuleChain<'g> {
    fn new(g: &'g Graph, node_vars: &'g BTreeMap<NodeId, Vec<Quantity>>, first: NodeId) -> Self {
        RuleChain {
            g,
            node_vars,
            first,
        }
    }

    fn finish(
        &self,
        prog: &Program,
        opts: &EncodeOptions,
        effects: &CallEffects<'_>,
        from: LocId,
        to: LocId,
        edges: &[&jtg_engine::graph::Edge],
    ) -> Vec<(Rule, RuleOrigin)> {
        let mut nodes = vec![self.first];
        nodes.extend(edges.iter().map(|e| e.to));
        // variables: the first node's, then every later node's quantities (temporaries)
        let mut owner: Vec<(usize, Quantity)> = Vec::new();
        let mut slots: Vec<Slots<'_>> = Vec::new();
        for (pos, n) in nodes.iter().enumerate() {
            let mut vars = BTreeMap::new();
            for q in &self.node_vars[n] {
                vars.insert(*q, Var(owner.len() as u32));
                owner.push((pos, *q));
            }
            slots.push(Slots {
                state: &self.g.nodes[*n].state,
                vars,
            });
        }
        let mut guard: Vec<Constraint> = Vec::new();
        for s in &slots {
            guard.extend(facts(s));
            guard.extend(size_bounds(s, prog));
        }
        let mut deferred = step::Deferred::default();
        for (k, e) in edges.iter().enumerate() {
            step::edge_constraints(
                prog,
                opts.ints,
                effects,
                e,
                &slots[k],
                &slots[k + 1],
                &mut guard,
                &mut deferred,
            );
        }
        if !deferred.ranged.is_empty() {
            // every integer of the chain lies in its kind's range: premises for the updates
            // that may wrap by their intervals alone (`--ints java`)
            let ranges: Vec<Constraint> = owner
                .iter()
                .enumerate()
                .filter_map(|(v, (pos, q))| match q {
                    Quantity::Int(r) => {
                        let (lo, hi) = step::type_range(slots[*pos].state, *r);
                        Some(ranged::within(&LinExpr::var(Var(v as u32)), lo, hi))
                    }
                    _ => None,
                })
                .flatten()
                .collect();
            deferred.ranged =
                ranged::exact_in_range(&deferred.ranged, owner.len(), &ranges, &mut guard);
        }
        let divisions = std::mem::take(&mut deferred.divisions);
        let pending = std::mem::take(&mut deferred.ranged);
        // a division whose dividend's sign neither the states nor the guard give: one rule per
        // sign (the sides exclude each other and cover every value; the wrong one is
        // infeasible once chaining meets the test that fixed the sign)
        let guards = division::signed_divisions(&divisions, owner.len(), &mut guard);
        lcmp::compare_cases(&deferred.comparisons, guards)
            .into_iter()
            .map(|g| self.complete(g, pending.clone(), &nodes, &owner, &slots, from, to))
            .collect()
    }

    /// The rule of the chain `nodes` under `guard`: temporaries eliminated and renumbered.
    #[allow(clippy::too_many_arguments)]
    fn complete(
        &self,
        guard: Vec<Constraint>,
        ranged: Vec<RangedUpdate>,
        nodes: &[NodeId],
        owner: &[(usize, Quantity)],
        slots: &[Slots<'_>],
        from: LocId,
        to: LocId,
    ) -> (Rule, RuleOrigin) {
        let nodes = nodes.to_vec();
        let n0 = self.node_vars[&self.first].len();
        let last = slots.len() - 1;
        // the target's values: the last node's variables (for the start rule: the first's)
        let mut args: Vec<LinExpr> = self.node_vars[&nodes[last]]
            .iter()
            .map(|q| LinExpr::var(slots[last].vars[q]))
            .collect();
        let total = owner.len();
        let (guard, ranged, kept) = eliminate_keeping(guard, &mut args, ranged, n0, total);
        let temps: Vec<(usize, Quantity)> = kept.iter().map(|v| owner[v.index()]).collect();
        // renumber the kept temporaries n0, n0+1, …
        let renum: BTreeMap<Var, Var> = kept
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, Var((n0 + i) as u32)))
            .collect();
        let rn = |v: Var| if v.index() < n0 { v } else { renum[&v] };
        let guard: Vec<Constraint> = dedup(guard.iter().map(|c| c.rename(&rn)).collect());
        let args: Vec<LinExpr> = args.iter().map(|a| a.rename(&rn)).collect();
        let temp_names: Vec<String> = temps
            .iter()
            .map(|(pos, q)| format!("t{pos}_{}", q.var_name()))
            .collect();
        (
            Rule {
                from,
                to,
                temps: temp_names,
                args,
                guard,
            },
            RuleOrigin {
                nodes,
                temps,
                ranged: ranged.iter().map(|u| u.rename(&rn)).collect(),
            },
        )
    }
}

fn dedup(cs: Vec<Constraint>) -> Vec<Constraint> {
    let mut seen = std::collections::HashSet::new();
    cs.into_iter()
        .filter(|c| !is_trivial(c) && seen.insert(c.clone()))
        .collect()
}

/// A constraint without variables that holds.
fn is_trivial(c: &Constraint) -> bool {
    if !c.expr.is_constant() {
        return false;
    }
    let v = &c.expr.constant;
    match c.rel {
        Rel::Le => !v.is_positive(),
        Rel::Lt => v.is_negative(),
        Rel::Eq => v.is_zero(),
        Rel::Ne => !v.is_zero(),
    }
}

/// Substitutes away every temporary (index `≥ n0`) fixed by an equality with coefficient ±1
/// (Gaussian elimination on unit pivots), and every temporary no constraint and no argument
/// mentions any more. Returns the guard, the arguments and the temporaries kept (sorted).
fn eliminate(
    mut guard: Vec<Constraint>,
    args: &mut [LinExpr],
    n0: usize,
    total: usize,
) -> (Vec<Constraint>, (), Vec<Var>) {
    let mut alive: BTreeSet<Var> = (n0..total).map(|i| Var(i as u32)).collect();
    // the bulk of a chain's equalities carry a value from one node to the next (`x = y + k`):
    // merged in one union-find pass and substituted at once (a substitution per equality,
    // each over the whole guard, was quadratic in the chain's length)
    guard = merge_differences(guard, args, n0, total, &mut alive);
    loop {
        let pick = guard.iter().enumerate().find_map(|(k, c)| {
            if c.rel != Rel::Eq {
                return None;
            }
            // prefer the latest temporary: chains then resolve towards the source
            c.expr
                .terms
                .iter()
                .filter(|(v, q)| v.index() >= n0 && (q.is_one() || (-(*q).clone()).is_one()))
                .map(|(v, q)| (*v, q.clone()))
                .next_back()
                .map(|(v, q)| (k, v, q))
        });
        let Some((k, v, coef)) = pick else { break };
        let c = guard.swap_remove(k);
        // c: coef·v + rest = 0  ⇒  v = −rest / coef
        let mut rest = c.expr.clone();
        rest.terms.remove(&v);
        let value = rest.scaled(&(-Q::one() / coef));
        let sub = |w: Var| {
            if w == v {
                value.clone()
            } else {
                LinExpr::var(w)
            }
        };
        guard = guard.iter().map(|c| c.substitute(&sub)).collect();
        for a in args.iter_mut() {
            *a = a.substitute(&sub);
        }
        alive.remove(&v);
    }
    let mut used: BTreeSet<Var> = BTreeSet::new();
    for c in &guard {
        used.extend(c.expr.vars());
    }
    for a in args.iter() {
        used.extend(a.vars());
    }
    // a temporary that only its own facts constrain is dropped with them when no argument
    // reads it and the facts say no more than a Java int's range: they are satisfiable on
    // their own (every state has an instance). A fact that restricts the unknown (the branch
    // `b.count > 0` of a field no variable holds) stays: a NO must not assume the run takes
    // that branch (`recur`: guards must not constrain temporaries)
    let mut kept: Vec<Var> = alive.into_iter().filter(|v| used.contains(v)).collect();
    let arg_vars: BTreeSet<Var> = args
        .iter()
        .flat_map(|a| a.vars().collect::<Vec<_>>())
        .collect();
    let mut drop: BTreeSet<Var> = BTreeSet::new();
    for v in &kept {
        if arg_vars.contains(v) {
            continue;
        }
        let own: Vec<&Constraint> = guard
            .iter()
            .filter(|c| c.expr.coeff(*v) != Q::zero())
            .collect();
        let alone = own.iter().all(|c| c.expr.vars().count() == 1);
        if alone && own.iter().all(|c| holds_on_int_range(c, *v)) {
            drop.insert(*v);
        }
    }
    if !drop.is_empty() {
        guard.retain(|c| !c.expr.vars().any(|w| drop.contains(&w)));
        kept.retain(|v| !drop.contains(v));
    }
    (guard, (), kept)
}

/// Whether `c`, a constraint over `v` alone, holds for every value of a Java `int` (the range
/// facts every integer temporary carries, or weaker).
fn holds_on_int_range(c: &Constraint, v: Var) -> bool {
    let sub = |value: i64| {
        move |w: Var| {
            if w == v {
                LinExpr::constant(Q::from(value))
            } else {
                LinExpr::var(w)
            }
        }
    };
    // a convex constraint over one variable holds on an interval iff it holds at both ends
    // (`≠` is not convex: it always restricts)
    c.rel != Rel::Ne
        && [i64::from(i32::MIN), i64::from(i32::MAX)]
            .into_iter()
            .all(|x| is_trivial(&c.substitute(&sub(x))))
}

/// Union-find with offsets over the variables: `x = root + offset`.
struct Offsets {
    parent: Vec<usize>,
    offset: Vec<Q>,
}

impl Offsets {
    fn find(&mut self, v: usize) -> (usize, Q) {
        let mut path = Vec::new();
        let mut cur = v;
        while self.parent[cur] != cur {
            path.push(cur);
            cur = self.parent[cur];
        }
        // compress: every node on the path points at the root, offsets summed from the top
        let root = cur;
        let mut acc = Q::zero();
        for &p in path.iter().rev() {
            acc = &acc + &self.offset[p];
            self.offset[p] = acc.clone();
            self.parent[p] = root;
        }
        (root, self.offset[v].clone())
    }
}

/// Eliminates the temporaries fixed by equalities `x − y + k = 0` (unit coefficients): each
/// is replaced by its class's representative plus an offset. A representative is a variable
/// of the source location (index `< n0`) where the class has one, else its smallest
/// temporary. An equality between two classes that both hold a source variable stays in the
/// guard (rewritten); one that closes a cycle becomes a constant constraint (dropped when it
/// holds, kept — an unsatisfiable guard — when not).
fn merge_differences(
    guard: Vec<Constraint>,
    args: &mut [LinExpr],
    n0: usize,
    total: usize,
    alive: &mut BTreeSet<Var>,
) -> Vec<Constraint> {
    let mut uf = Offsets {
        parent: (0..total).collect(),
        offset: vec![Q::zero(); total],
    };
    let mut rest = Vec::with_capacity(guard.len());
    for c in guard {
        let pair = (c.rel == Rel::Eq && c.expr.terms.len() == 2)
            .then(|| {
                let mut it = c.expr.terms.iter();
                let (x, a) = it.next()?;
                let (y, b) = it.next()?;
                (a.is_one() && (-b.clone()).is_one() && x.index() < total && y.index() < total)
                    .then_some((x.index(), y.index()))
            })
            .flatten();
        let Some((x, y)) = pair else {
            rest.push(c);
            continue;
        };
        // x − y + k = 0: x = y − k
        let k = c.expr.constant.clone();
        let (rx, ox) = uf.find(x);
        let (ry, oy) = uf.find(y);
        // rx + ox = ry + oy − k  ⇒  rx = ry + d
        let d = &(&oy - &k) - &ox;
        if rx == ry {
            if !d.is_zero() {
                rest.push(Constraint::new(LinExpr::constant(d), Rel::Eq));
            }
            continue;
        }
        if rx < n0 && ry < n0 {
            rest.push(c);
            continue;
        }
        // the smaller index is the representative: source variables first, then the earliest
        // temporary (the chain resolves towards its source)
        if rx < ry {
            uf.parent[ry] = rx;
            uf.offset[ry] = -d;
        } else {
            uf.parent[rx] = ry;
            uf.offset[rx] = d;
        }
    }
    let mut value: Vec<Option<LinExpr>> = vec![None; total];
    for (v, slot) in value.iter_mut().enumerate() {
        let (r, o) = uf.find(v);
        if r != v {
            *slot = Some(LinExpr::var(Var(r as u32)).plus(&LinExpr::constant(o)));
            alive.remove(&Var(v as u32));
        }
    }
    if value.iter().all(Option::is_none) {
        return rest;
    }
    let sub = |w: Var| {
        value
            .get(w.index())
            .and_then(|e| e.clone())
            .unwrap_or_else(|| LinExpr::var(w))
    };
    for a in args.iter_mut() {
        *a = a.substitute(&sub);
    }
    rest.iter().map(|c| c.substitute(&sub)).collect()
}

/// A readable name of a quantity at a node: the local variable or stack slot holding the
/// reference when there is one (`|cur|`, `x`, `dist(cur, this)`), else the reference (`|o3|`).
pub(crate) fn readable(g: &Graph, node: NodeId, q: Quantity, names: &dyn LocalNames) -> String {
    let st = &g.nodes[node].state;
    let holder = |r: jtg_engine::state::Ref| {
        let f = st.top()?;
        let slot = f.locals.iter().position(|v| *v == Some(r))?;
        names
            .local_name(&f.method, slot, f.pc)
            .or(Some(format!("local{slot}")))
    };
    let r = q.reference();
    match (q, holder(r)) {
        (Quantity::Int(_), Some(h)) => format!("{h} ({r})"),
        (Quantity::Size(_), Some(h)) => format!("|{h}| (|{r}|)"),
        (Quantity::Len(_), Some(h)) => format!("len({h}) (len({r}))"),
        (Quantity::Dist(a, b), _) => {
            let name = |x| holder(x).unwrap_or_else(|| x.to_string());
            format!("dist({}, {}) ({q})", name(a), name(b))
        }
        (q, None) => q.to_string(),
    }
}
