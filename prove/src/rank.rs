//! Synthesis of lexicographic linear ranking functions (YES).
//!
//! Per SCC of the rule graph, one *level* after another: affine functions `f_ℓ` per location
//! (Podelski & Rybalchenko 2004, with the Farkas lemma turning "for all x satisfying the guard"
//! into linear constraints on the coefficients and multipliers), non-increasing on all rules
//! of the SCC and strictly decreasing (by ≥ 1) and bounded (≥ 0) on as many as possible; those
//! are removed, SCCs are recomputed on what is left, and so on (Bradley, Manna & Sipma 2005;
//! the "as many as possible" objective is Alias, Darte, Feautrier & Gonnord 2010).
//!
//! Two LPs per level: first all rules bounded (`f_ℓ ≥ 0` on every guard) maximising the number
//! of strict rules; if none, per rule `r` one LP with `r` bounded and strict and the others weak,
//! keeping other rules strict where the function turns out to be bounded on them too. Each LP
//! is solved in floating point first (`lp_float.rs`; its "no point" ends the search, its
//! rounded functions are certified like the exact ones), the exact solver deciding where a
//! proposal fails. The function found is then *certified* rule by rule
//! (`farkas::implication`); `verify` checks those multipliers independently.

use crate::carried;
use crate::cert::{
    InfeasibleChain, InfeasibleRule, Level, RankedRule, RuleCert, SccProof, TerminationCertificate,
};
use crate::chain;
use crate::farkas::{self, instance_rows, instances, Farkas, GaveUp, Row, RuleInstance};
use crate::its::{Its, LocId};
use crate::linexpr::{LinExpr, Var};
use crate::lp::{solve, Cmp, Limits, Lp, LpResult, LpStats, VarKind};
use crate::lp_float::{self, FloatGaveUp, FloatResult};
use crate::nested;
use crate::q::Q;
use crate::scc::sccs;
use std::collections::{BTreeMap, BTreeSet};

/// Outcome of the termination search.
#[derive(Clone, Debug)]
pub(crate) enum RankOutcome {
    Proved(TerminationCertificate),
    /// Rule sets (each a union of SCCs) no level could be found for.
    Failed {
        unproven: Vec<Vec<RuleInstance>>,
        /// The solver hit a limit somewhere.
        gave_up: bool,
    },
}

struct Prepared {
    inst: RuleInstance,
    rows: Vec<Row>,
    from: LocId,
    to: LocId,
}

/// Searches a lexicographic ranking proof for all of `its`.
pub(crate) fn prove_termination(
    its: &Its,
    max_ne_split: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> RankOutcome {
    let mut all = Vec::new();
    let mut infeasible = Vec::new();
    let mut live = Vec::new();
    let mut gave_up = false;
    // only a rule inside an SCC of the location graph can lie on a cycle: the others are
    // kept without an infeasibility proof (they never reach a level)
    let n = its.locations().len();
    let edges: Vec<(usize, usize)> = its
        .rules()
        .iter()
        .map(|r| (r.from.index(), r.to.index()))
        .collect();
    let mut comp = vec![usize::MAX; n];
    for (c, members) in sccs(n, &edges).iter().enumerate() {
        for &m in members {
            comp[m] = c;
        }
    }
    for r in its.rule_ids() {
        let rule = its.rule(r);
        let on_cycle = comp[rule.from.index()] == comp[rule.to.index()];
        for inst in instances(its, r, max_ne_split) {
            all.push(inst.clone());
            let rows = instance_rows(its, &inst);
            let refuted = if on_cycle {
                farkas::infeasibility(&rows, limits, stats)
            } else {
                None
            };
            match refuted {
                Some(cert) => infeasible.push(InfeasibleRule {
                    instance: inst,
                    cert,
                }),
                None => live.push(Prepared {
                    inst,
                    rows,
                    from: its.rule(r).from,
                    to: its.rule(r).to,
                }),
            }
        }
    }
    let mut proofs = Vec::new();
    let mut unproven = Vec::new();
    let mut chains = Chains::default();
    for scc in cyclic_components(its, &live, &(0..live.len()).collect::<Vec<_>>()) {
        let mut proof = SccProof {
            locations: locations_of(&live, &scc),
            levels: Vec::new(),
        };
        let mut work = vec![scc];
        while let Some(scope) = work.pop() {
            match find_level(its, &live, &scope, limits, stats) {
                Search::Found(level) => {
                    let removed: BTreeSet<&RuleInstance> = level.removed().collect();
                    let rest: Vec<usize> = scope
                        .iter()
                        .copied()
                        .filter(|&i| !removed.contains(&live[i].inst))
                        .collect();
                    proof.levels.push(level);
                    let mut subs = chains.components(its, &live, &rest);
                    subs.reverse(); // pop in ascending order
                    work.extend(subs);
                }
                Search::None => match chains.split(its, &live, &scope, limits, stats) {
                    // the rule graph splits the scope: its parts may have ranking functions
                    Ok(Some(mut subs)) => {
                        subs.reverse();
                        work.extend(subs);
                    }
                    outcome => {
                        gave_up |= outcome.is_err();
                        match nested_level(its, &live, &scope, limits, stats) {
                            Ok(Some(level)) => proof.levels.push(level),
                            found => {
                                gave_up |= found.is_err();
                                unproven
                                    .push(scope.iter().map(|&i| live[i].inst.clone()).collect());
                            }
                        }
                    }
                },
                Search::GaveUp => {
                    gave_up = true;
                    unproven.push(scope.iter().map(|&i| live[i].inst.clone()).collect());
                }
            }
        }
        proofs.push(proof);
    }
    let cert = TerminationCertificate {
        instances: all,
        infeasible,
        chains: chains.certificates(),
        sccs: proofs,
        ..TerminationCertificate::default()
    };
    if unproven.is_empty() {
        RankOutcome::Proved(cert)
    } else {
        RankOutcome::Failed { unproven, gave_up }
    }
}

/// Nontrivial SCCs (as instance indices into `live`) of the rules `subset`, ordered.
fn cyclic_components(its: &Its, live: &[Prepared], subset: &[usize]) -> Vec<Vec<usize>> {
    let n = its.locations().len();
    let edges: Vec<(usize, usize)> = subset
        .iter()
        .map(|&i| (live[i].from.index(), live[i].to.index()))
        .collect();
    let mut comp = vec![usize::MAX; n];
    let comps = sccs(n, &edges);
    for (c, members) in comps.iter().enumerate() {
        for &m in members {
            comp[m] = c;
        }
    }
    let mut by_comp: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &i in subset {
        let (a, b) = (live[i].from.index(), live[i].to.index());
        if comp[a] == comp[b] {
            by_comp.entry(comp[a]).or_default().push(i);
        }
    }
    by_comp.into_values().collect()
}

/// A scope with more adjacent instance pairs than this is not split by the rule graph (one
/// small LP per pair).
const MAX_CHAIN_PAIRS: usize = 400;

/// The rule graph's refuted edges (`chain`), found on demand: only for a scope no level was
/// found for, so that every proof the location graph gives stays as it was.
#[derive(Default)]
struct Chains {
    refuted: BTreeMap<(RuleInstance, RuleInstance), Farkas>,
    tried: BTreeSet<(RuleInstance, RuleInstance)>,
}

impl Chains {
    /// Nontrivial SCCs of the rules `subset`: of the location graph while no edge is refuted,
    /// else of the rule graph.
    fn components(&self, its: &Its, live: &[Prepared], subset: &[usize]) -> Vec<Vec<usize>> {
        if self.refuted.is_empty() {
            return cyclic_components(its, live, subset);
        }
        let nodes: Vec<&RuleInstance> = subset.iter().map(|&i| &live[i].inst).collect();
        let cut: BTreeSet<(RuleInstance, RuleInstance)> = self.refuted.keys().cloned().collect();
        chain::cyclic_rule_components(its, &nodes, &cut)
            .into_iter()
            .map(|c| c.into_iter().map(|p| subset[p]).collect())
            .collect()
    }

    /// Refutes the adjacent pairs of `scope` that cannot chain; `Some(parts)` if the rule graph
    /// then splits the scope (or leaves part of it acyclic).
    fn split(
        &mut self,
        its: &Its,
        live: &[Prepared],
        scope: &[usize],
        limits: &Limits,
        stats: &mut LpStats,
    ) -> Result<Option<Vec<Vec<usize>>>, GaveUp> {
        let pairs: Vec<(usize, usize)> = scope
            .iter()
            .flat_map(|&i| {
                scope
                    .iter()
                    .filter(move |&&j| live[i].to == live[j].from)
                    .map(move |&j| (i, j))
            })
            .collect();
        if pairs.len() > MAX_CHAIN_PAIRS {
            return Ok(None);
        }
        for (i, j) in pairs {
            let key = (live[i].inst.clone(), live[j].inst.clone());
            if !self.tried.insert(key.clone()) {
                continue;
            }
            if let Some(f) = chain::refute(its, &key.0, &key.1, limits, stats) {
                self.refuted.insert(key, f);
            } else if stats.work_spent(limits) {
                return Err(GaveUp);
            }
        }
        let parts = self.components(its, live, scope);
        let unchanged = parts.len() == 1 && parts[0].len() == scope.len();
        Ok((!unchanged).then_some(parts))
    }

    fn certificates(self) -> Vec<InfeasibleChain> {
        self.refuted
            .into_iter()
            .map(|((first, second), cert)| InfeasibleChain {
                first,
                second,
                cert,
            })
            .collect()
    }
}

/// A nested ranking function for the whole scope (`nested.rs`): the last resort of a scope.
fn nested_level(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<Level>, GaveUp> {
    let rules: Vec<nested::ScopeRule<'_>> = scope
        .iter()
        .map(|&i| nested::ScopeRule {
            inst: &live[i].inst,
            rows: &live[i].rows,
            from: live[i].from,
            to: live[i].to,
        })
        .collect();
    nested::find(its, &rules, &relevant(its, live, scope), limits, stats)
}

fn locations_of(live: &[Prepared], scope: &[usize]) -> Vec<LocId> {
    let s: BTreeSet<LocId> = scope
        .iter()
        .flat_map(|&i| [live[i].from, live[i].to])
        .collect();
    s.into_iter().collect()
}

enum Search {
    Found(Level),
    None,
    GaveUp,
}

/// Indices of the template's LP variables: per location a coefficient variable for each
/// *relevant* variable (others have coefficient 0) and one for the constant.
struct Template {
    base: BTreeMap<LocId, (Vec<Option<usize>>, usize)>,
}

impl Template {
    fn coeff(&self, l: LocId, j: usize) -> Option<usize> {
        self.base[&l].0.get(j).copied().flatten()
    }
    fn constant(&self, l: LocId) -> usize {
        self.base[&l].1
    }
    /// The LP variables of every function (coefficients and constants).
    fn variables(&self) -> impl Iterator<Item = usize> + '_ {
        self.base
            .values()
            .flat_map(|(coeffs, c)| coeffs.iter().flatten().copied().chain([*c]))
    }
    fn function(&self, l: LocId, x: &[Q]) -> LinExpr {
        let (coeffs, c) = &self.base[&l];
        let mut f = LinExpr::constant(x[*c].clone());
        for (j, v) in coeffs.iter().enumerate() {
            if let Some(v) = v {
                f.add_term(Var(j as u32), &x[*v]);
            }
        }
        f
    }
}

/// Per location of `scope`, which variables a ranking function may need (argument filtering,
/// as termination tools slice ITSs): those a guard of a rule reads, and those an update of a
/// needed variable reads, to a fixpoint. The others never constrain a run of the scope, so a
/// ranking function gains nothing from them; leaving them out of the template (coefficient 0)
/// removes their LP rows, which are then `0 = 0`. Only the search space shrinks: the level is
/// certified on the rules as they are.
fn relevant(its: &Its, live: &[Prepared], scope: &[usize]) -> BTreeMap<LocId, Vec<bool>> {
    let mut rel: BTreeMap<LocId, Vec<bool>> = locations_of(live, scope)
        .into_iter()
        .map(|l| (l, vec![false; its.location(l).arity()]))
        .collect();
    for &i in scope {
        let p = &live[i];
        let from = rel.get_mut(&p.from).expect("a location of the scope");
        for r in &p.rows {
            for (j, slot) in from.iter_mut().enumerate() {
                if !r.coeffs[j].is_zero() {
                    *slot = true;
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for &i in scope {
            let p = &live[i];
            let rule = its.rule(p.inst.rule);
            let needed: Vec<usize> = rule
                .args
                .iter()
                .enumerate()
                .filter(|(k, _)| rel[&p.to][*k])
                .flat_map(|(_, u)| u.vars().map(|v| v.index()).collect::<Vec<_>>())
                .collect();
            let from = rel.get_mut(&p.from).expect("a location of the scope");
            for j in needed {
                if j < from.len() && !from[j] {
                    from[j] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return rel;
        }
    }
}

/// How one rule enters the level LP.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// decrease ≥ δ (a fresh variable in [0, 1]), no boundedness
    Free,
    /// decrease ≥ δ and bounded
    FreeBounded,
    /// decrease ≥ 1 and bounded
    Strict,
}

fn find_level(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    limits: &Limits,
    stats: &mut LpStats,
) -> Search {
    // The same search in floating point first: most of the exact solver's time is rational
    // arithmetic, and what the float solver proposes is certified exactly all the same. Only
    // where a proposal fails the certification or the rounding does the exact search decide.
    match find_level_float(its, live, scope, limits, stats) {
        FloatSearch::Found(level) => return Search::Found(level),
        // taken as the answer: a wrong "no point" can only lose a proof, never make one
        FloatSearch::NoPoint => return Search::None,
        // the exact solver's budget is a tenth of the float one's: it would give up too
        FloatSearch::Limit => return carried_level(its, live, scope, limits, stats),
        FloatSearch::Undecided => {}
    }
    for (i, modes) in mode_sequence(scope.len()).enumerate() {
        match level_lp(its, live, scope, &modes, limits, stats) {
            Err(GaveUp) => return carried_level(its, live, scope, limits, stats),
            // the all-bounded LP counts only with a strict rule; a one-strict LP has one
            Ok(Some((fs, strict))) if i > 0 || !strict.is_empty() => {
                if let Some(l) = certify(its, live, scope, &fs, &strict, limits, stats) {
                    return Search::Found(l);
                }
            }
            Ok(_) => {}
        }
    }
    Search::None
}

/// A level whose functions are a counter every rule of the scope carries
/// ([`carried::candidates`]), certified exactly: what the search tries when the level LP is
/// over the solver's limits.
fn carried_level(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    limits: &Limits,
    stats: &mut LpStats,
) -> Search {
    let rules: Vec<carried::ScopeRule> = scope
        .iter()
        .map(|&i| (live[i].inst.rule, live[i].from, live[i].to))
        .collect();
    for (fs, strict) in carried::candidates(its, &rules) {
        if strict.is_empty() {
            continue;
        }
        let strict: BTreeSet<usize> = strict.into_iter().collect();
        if let Some(level) = certify(its, live, scope, &fs, &strict, limits, stats) {
            return Search::Found(level);
        }
    }
    Search::GaveUp
}

/// The level LPs a search tries, in order: all rules bounded with as many strict as possible;
/// then, per rule, that one bounded and strict, the others weak (or strict where bounded).
fn mode_sequence(n: usize) -> impl Iterator<Item = Vec<Mode>> {
    let one_strict = (0..n).map(move |k| {
        let mut modes = vec![Mode::Free; n];
        modes[k] = Mode::Strict;
        modes
    });
    std::iter::once(vec![Mode::FreeBounded; n]).chain(one_strict)
}

/// What `find_level`'s two steps give with the float solver.
enum FloatSearch {
    /// A level it proposed that `certify` accepted.
    Found(Level),
    /// Every LP answered "no point" (or only functions without a strict rule).
    NoPoint,
    /// Its work or pivot limit was reached.
    Limit,
    /// A proposal failed the exact certification or the rounding: the exact solver decides.
    Undecided,
}

fn find_level_float(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    limits: &Limits,
    stats: &mut LpStats,
) -> FloatSearch {
    let mut undecided = false;
    for modes in mode_sequence(scope.len()) {
        match level_lp_float(its, live, scope, &modes, limits, stats) {
            Err(FloatGaveUp::Limit) => return FloatSearch::Limit,
            Err(FloatGaveUp::Rounding) => return FloatSearch::Undecided,
            Ok(Some((fs, strict))) if !strict.is_empty() => {
                if let Some(l) = certify(its, live, scope, &fs, &strict, limits, stats) {
                    return FloatSearch::Found(l);
                }
                undecided = true;
            }
            Ok(_) => {}
        }
    }
    if undecided {
        FloatSearch::Undecided
    } else {
        FloatSearch::NoPoint
    }
}

/// Decrease `f_from(x̄) − f_to(ē)` as (coefficient vector over the rule's variables, constant),
/// for fixed functions.
fn decrease(its: &Its, p: &Prepared, f_from: &LinExpr, f_to: &LinExpr) -> (Vec<Q>, Q) {
    let rule = its.rule(p.inst.rule);
    let n = rule.var_count(its);
    let mut d = f_from.clone();
    let image = f_to.substitute(&|v: Var| rule.args[v.index()].clone());
    d.add_scaled(&image, &-Q::one());
    (farkas::dense(&d, n), d.constant)
}

/// The functions of a level and the positions of the rules meant to be strict on them.
type Candidate = (BTreeMap<LocId, LinExpr>, BTreeSet<usize>);

/// Solves the level LP for `modes` exactly; returns the functions and the rules with positive δ.
fn level_lp(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    modes: &[Mode],
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<Candidate>, GaveUp> {
    let (lp, t, deltas) = level_system(its, live, scope, modes);
    match solve(&lp, limits, stats) {
        LpResult::Unknown => Err(GaveUp),
        LpResult::Infeasible | LpResult::Unbounded => Ok(None),
        LpResult::Optimal { x, .. } => Ok(Some(candidate(&t, &deltas, modes, &x))),
    }
}

/// The same LP in floating point (`lp_float.rs`): a candidate whose functions are rounded to
/// small rationals, for `certify` to check exactly.
fn level_lp_float(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    modes: &[Mode],
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<Candidate>, FloatGaveUp> {
    let (lp, t, deltas) = level_system(its, live, scope, modes);
    let x = match lp_float::solve(&lp, limits, stats) {
        FloatResult::Unknown => return Err(FloatGaveUp::Limit),
        FloatResult::NoPoint => return Ok(None),
        FloatResult::Optimal(x) => x,
    };
    // δ's below the solver's tolerance are noise, not strictness
    let positive = |d: usize| x[d] > 1e-6;
    let min_delta = deltas
        .iter()
        .filter(|&&(_, d)| positive(d))
        .map(|&(_, d)| x[d])
        .fold(1.0f64, f64::min);
    // the functions scaled so that a strict rule decreases by about 1, then rounded; the
    // δ's 1 (strict) or 0; the multipliers are not read (certify finds its own)
    let mut scaled: Vec<f64> = x.iter().map(|v| v / min_delta).collect();
    for &(_, d) in &deltas {
        scaled[d] = if positive(d) { 1.0 } else { 0.0 };
    }
    let read = t.variables().chain(deltas.iter().map(|&(_, d)| d));
    let Some(xs) = lp_float::rounded(&scaled, read) else {
        return Err(FloatGaveUp::Rounding);
    };
    Ok(Some(candidate(&t, &deltas, modes, &xs)))
}

/// The functions and strict rules of an exact (or rounded) point `x` of the level LP.
fn candidate(t: &Template, deltas: &[(usize, usize)], modes: &[Mode], x: &[Q]) -> Candidate {
    let mut strict: BTreeSet<usize> = deltas
        .iter()
        .filter(|(_, d)| x[*d].is_positive())
        .map(|(pos, _)| *pos)
        .collect();
    let mut min_delta = Q::one();
    for &(pos, d) in deltas {
        if strict.contains(&pos) && x[d] < min_delta {
            min_delta = x[d].clone();
        }
    }
    for (pos, m) in modes.iter().enumerate() {
        if *m == Mode::Strict {
            strict.insert(pos);
        }
    }
    // Scale so that every strict rule decreases by at least 1.
    let k = min_delta.recip();
    let fs = t
        .base
        .keys()
        .map(|&l| (l, t.function(l, x).scaled(&k)))
        .collect();
    (fs, strict)
}

/// The level LP for `modes`: the LP, its template and the δ variable of each rule position
/// that has one.
fn level_system(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    modes: &[Mode],
) -> (Lp, Template, Vec<(usize, usize)>) {
    let mut lp = Lp::new();
    let mut t = Template {
        base: BTreeMap::new(),
    };
    for (l, rel) in relevant(its, live, scope) {
        let coeffs = rel
            .iter()
            .map(|r| r.then(|| lp.var(VarKind::Free)))
            .collect();
        let c = lp.var(VarKind::Free);
        t.base.insert(l, (coeffs, c));
    }
    let mut deltas = Vec::new();
    for (pos, &i) in scope.iter().enumerate() {
        let p = &live[i];
        let rule = its.rule(p.inst.rule);
        let n = rule.var_count(its);
        let arity_from = its.location(p.from).arity();
        let mult = multipliers(&mut lp, &p.rows);
        // λ·A = -(g) with g_j = a_from,j − Σ_k a_to,k·U_k[j]
        for j in 0..n {
            let mut coeffs = column(&p.rows, &mult, j);
            if j < arity_from {
                if let Some(a) = t.coeff(p.from, j) {
                    coeffs.push((a, Q::one()));
                }
            }
            for (k, u) in rule.args.iter().enumerate() {
                let c = u.coeff(Var(j as u32));
                if let (false, Some(a)) = (c.is_zero(), t.coeff(p.to, k)) {
                    coeffs.push((a, -c));
                }
            }
            if !coeffs.is_empty() {
                lp.row(coeffs, Cmp::Eq, Q::zero());
            }
        }
        // λ·b − g0 + δ ≤ 0 with g0 = a_from,c − a_to,c − Σ_k a_to,k·U_k.const
        let mut coeffs = right_sides(&p.rows, &mult);
        coeffs.push((t.constant(p.from), -Q::one()));
        coeffs.push((t.constant(p.to), Q::one()));
        for (k, u) in rule.args.iter().enumerate() {
            if let (false, Some(a)) = (u.constant.is_zero(), t.coeff(p.to, k)) {
                coeffs.push((a, u.constant.clone()));
            }
        }
        match modes[pos] {
            Mode::Strict => lp.row(coeffs, Cmp::Le, -Q::one()),
            Mode::Free | Mode::FreeBounded => {
                let d = lp.var(VarKind::NonNeg);
                lp.row(vec![(d, Q::one())], Cmp::Le, Q::one());
                coeffs.push((d, Q::one()));
                lp.row(coeffs, Cmp::Le, Q::zero());
                deltas.push((pos, d));
            }
        }
        if modes[pos] != Mode::Free {
            // μ·A = -a_from (on the source's variables), μ·b − a_from,c ≤ 0
            let mu = multipliers(&mut lp, &p.rows);
            for j in 0..n {
                let mut coeffs = column(&p.rows, &mu, j);
                if j < arity_from {
                    if let Some(a) = t.coeff(p.from, j) {
                        coeffs.push((a, Q::one()));
                    }
                }
                if !coeffs.is_empty() {
                    lp.row(coeffs, Cmp::Eq, Q::zero());
                }
            }
            let mut coeffs = right_sides(&p.rows, &mu);
            coeffs.push((t.constant(p.from), -Q::one()));
            lp.row(coeffs, Cmp::Le, Q::zero());
        }
    }
    lp.objective = deltas.iter().map(|&(_, d)| (d, Q::one())).collect();
    (lp, t, deltas)
}

/// One Farkas multiplier per row of a rule's guard: free for an equality, non-negative else.
fn multipliers(lp: &mut Lp, rows: &[Row]) -> Vec<usize> {
    rows.iter()
        .map(|r| lp.var(if r.eq { VarKind::Free } else { VarKind::NonNeg }))
        .collect()
}

/// `Σ_i λ_i·A_ij`: the multipliers' terms of column `j` of the guard's matrix.
fn column(rows: &[Row], mult: &[usize], j: usize) -> Vec<(usize, Q)> {
    rows.iter()
        .zip(mult)
        .filter(|(r, _)| !r.coeffs[j].is_zero())
        .map(|(r, &m)| (m, r.coeffs[j].clone()))
        .collect()
}

/// `Σ_i λ_i·b_i`: the multipliers' terms of the guard's right-hand sides.
fn right_sides(rows: &[Row], mult: &[usize]) -> Vec<(usize, Q)> {
    rows.iter()
        .zip(mult)
        .filter(|(r, _)| !r.rhs.is_zero())
        .map(|(r, &m)| (m, r.rhs.clone()))
        .collect()
}

/// Certificates for fixed functions: strict candidates that are bounded (after one common
/// shift of the constants) and decrease by ≥ 1 are strict, every other rule must be weak.
fn certify(
    its: &Its,
    live: &[Prepared],
    scope: &[usize],
    fs: &BTreeMap<LocId, LinExpr>,
    candidates: &BTreeSet<usize>,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Level> {
    // Lower bounds of f_from on the candidates' guards; the common shift makes them ≥ 0.
    let mut lower: BTreeMap<usize, Q> = BTreeMap::new();
    for &pos in candidates {
        let p = &live[scope[pos]];
        let n = its.rule(p.inst.rule).var_count(its);
        let f = &fs[&p.from];
        let neg = farkas::dense(&f.scaled(&-Q::one()), n);
        // max(-f·x) = v  ⇒  f ≥ f.const − v
        if let Ok(Some((v, _))) = farkas::best_bound(&p.rows, &neg, limits, stats) {
            lower.insert(pos, &f.constant - &v);
        }
    }
    let shift = lower
        .values()
        .fold(Q::zero(), |m, v| if *v < m { v.clone() } else { m });
    let fs: BTreeMap<LocId, LinExpr> = fs
        .iter()
        .map(|(l, f)| {
            let mut g = f.clone();
            g.constant -= &shift;
            (*l, g)
        })
        .collect();
    let mut rules = Vec::new();
    let mut any_strict = false;
    for (pos, &i) in scope.iter().enumerate() {
        let p = &live[i];
        let n = its.rule(p.inst.rule).var_count(its);
        let (g, g0) = decrease(its, p, &fs[&p.from], &fs[&p.to]);
        // g·x + g0 ≥ δ  ⟺  (−g)·x ≤ g0 − δ
        let neg_g: Vec<Q> = g.iter().map(|v| -v).collect();
        let strict = if lower.contains_key(&pos) {
            let dec = farkas::implication(&p.rows, &neg_g, &(&g0 - &Q::one()), limits, stats);
            let f = &fs[&p.from];
            let bnd = farkas::implication(
                &p.rows,
                &farkas::dense(&f.scaled(&-Q::one()), n),
                &f.constant,
                limits,
                stats,
            );
            match (dec, bnd) {
                (Some(decrease), Some(bounded)) => Some(RuleCert::Strict { decrease, bounded }),
                _ => None,
            }
        } else {
            None
        };
        let cert = match strict {
            Some(c) => {
                any_strict = true;
                c
            }
            None => {
                let decrease: Farkas = farkas::implication(&p.rows, &neg_g, &g0, limits, stats)?;
                RuleCert::Weak { decrease }
            }
        };
        rules.push(RankedRule {
            instance: p.inst.clone(),
            cert,
        });
    }
    any_strict.then(|| Level {
        functions: fs.into_iter().collect(),
        later_phases: Vec::new(),
        rules,
    })
}
