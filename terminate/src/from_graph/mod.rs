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
mod element_reads;
mod eliminate;
mod lcmp;
mod product;
pub(crate) mod quantity;
mod ranged;
mod relevance;
mod step;
mod summary;
mod wrap_free;

use division::Division;
use effects::CallEffects;
use eliminate::eliminate;
use jtg_engine::graph::{Graph, NodeId};
use jtg_engine::state::text::LocalNames;
use jtg_engine::state::IntSemantics;
use jtg_engine::Program;
use jtg_prove::{Constraint, LinExpr, Rel, Var};
use jtg_prove::{Its, ItsError, LocId, Rule, RuleId};
pub use quantity::Quantity;
use quantity::{facts, location_quantities, size_bounds, Slots};
use ranged::RangedUpdate;
pub(crate) use relevance::without_weak_bounds;
use std::collections::{BTreeMap, BTreeSet};

/// How a graph is encoded.
#[derive(Clone, Copy, Debug, Default)]
pub struct EncodeOptions {
    /// The integer semantics the graph was built with: under Java ints an assignment that may
    /// wrap is no exact update.
    pub ints: IntSemantics,
    /// The greatest element length of arrays of arrays or strings (`maxlen(a[*])`) as
    /// variables where the graph reads such an element on a cycle: they bound loops over
    /// `a[i].length` read afresh, and cost the LPs columns.
    pub element_lengths: bool,
}

impl EncodeOptions {
    /// Every quantity, under `ints`.
    pub fn new(ints: IntSemantics) -> EncodeOptions {
        EncodeOptions {
            ints,
            element_lengths: true,
        }
    }
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
    /// Divisions by a literal whose dividend's sign the rule's guard does not give yet: the
    /// guard after chaining may (`division.rs`, [`division::resolve_signs`]).
    divisions: Vec<Division>,
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
    // one decision per graph, which its callee summaries share
    let opts = &EncodeOptions {
        element_lengths: opts.element_lengths && element_reads::element_reads_in_cycles(g, prog),
        ..*opts
    };
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
        .map(|nd| (nd.id, location_quantities(&nd.state, opts.element_lengths)))
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
    let mut live: Vec<(Rule, RuleOrigin)> = rules.into_iter().flatten().collect();
    let pairs: Vec<(&Rule, &[RangedUpdate])> =
        live.iter().map(|(r, o)| (r, o.ranged.as_slice())).collect();
    let reads = relevance::read_results(old, &pairs);
    for (r, o) in &mut live {
        // the chained guard may give a dividend's sign its own chain did not
        let nvars = old.location(r.from).arity() + r.temps.len();
        division::resolve_signs(&std::mem::take(&mut o.divisions), nvars, &mut r.guard);
    }
    // what a run may read and the invariants leave wrapping: one rule per case (`ranged.rs`)
    let (mut rules, meta) = wrap_free::read_candidates(live, reads.split);
    wrap_free::exact_by_invariants(old, ranges, &mut rules);
    wrap_free::exact_by_certified_invariants(old, ranges, &mut rules);
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
    let mut divisions = ao.divisions.clone();
    divisions.extend(bo.divisions.iter().map(|d| d.substitute(&sub)));
    let (guard, ranged, divisions, kept) =
        eliminate_keeping(guard, &mut args, (ranged, divisions), na, total);
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
            divisions: divisions.iter().map(|d| d.rename(&rn)).collect(),
        },
    )
}

/// [`eliminate`] with the candidate updates `ranged` and the pending divisions carried along
/// (their variables kept alive, their expressions substituted like the arguments).
fn eliminate_keeping(
    guard: Vec<Constraint>,
    args: &mut Vec<LinExpr>,
    (ranged, divisions): (Vec<RangedUpdate>, Vec<Division>),
    n0: usize,
    total: usize,
) -> (Vec<Constraint>, Vec<RangedUpdate>, Vec<Division>, Vec<Var>) {
    let k = args.len();
    for u in &ranged {
        args.extend(u.exprs());
    }
    for d in &divisions {
        args.extend(d.exprs());
    }
    let (guard, _, kept) = eliminate(guard, args, n0, total);
    let extra = args.split_off(k);
    let (eu, ed) = extra.split_at(2 * ranged.len());
    let ranged = eu
        .chunks(2)
        .zip(&ranged)
        .map(|(e, u)| u.with_exprs(e[0].clone(), e[1].clone()))
        .collect();
    let divisions = ed
        .chunks(2)
        .zip(&divisions)
        .map(|(e, d)| d.with_exprs(e[0].clone(), e[1].clone()))
        .collect();
    (guard, ranged, divisions, kept)
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
            // under Java ints every integer of the chain lies in its kind's range: premises
            // for the updates that may wrap by their intervals alone (under unbounded ints
            // the candidates are narrowings, whose operands have no such range)
            let java = opts.ints == IntSemantics::Java;
            let ranges: Vec<Constraint> = owner
                .iter()
                .enumerate()
                .filter_map(|(v, (pos, q))| match q {
                    Quantity::Int(r) if java => {
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
        let (guards, literal) = division::signed_divisions(&divisions, owner.len(), &mut guard);
        let carried = (pending, literal);
        lcmp::compare_cases(&deferred.comparisons, guards)
            .into_iter()
            .map(|g| self.complete(g, carried.clone(), &nodes, &owner, &slots, from, to))
            .collect()
    }

    /// The rule of the chain `nodes` under `guard`: temporaries eliminated and renumbered.
    #[allow(clippy::too_many_arguments)]
    fn complete(
        &self,
        guard: Vec<Constraint>,
        carried: (Vec<RangedUpdate>, Vec<Division>),
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
        let (guard, ranged, divisions, kept) =
            eliminate_keeping(guard, &mut args, carried, n0, total);
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
                divisions: divisions.iter().map(|d| d.rename(&rn)).collect(),
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
        (Quantity::SizeAvoiding(_, g), Some(h)) => {
            format!("|{h}|∖{g} ({q})", g = g.as_str())
        }
        (Quantity::Len(_), Some(h)) => format!("len({h}) (len({r}))"),
        (Quantity::ElemLen(_), Some(h)) => format!("maxlen({h}[*]) ({q})"),
        (Quantity::Dist(a, b), _) => {
            let name = |x| holder(x).unwrap_or_else(|| x.to_string());
            format!("dist({}, {}) ({q})", name(a), name(b))
        }
        (q, None) => q.to_string(),
    }
}
