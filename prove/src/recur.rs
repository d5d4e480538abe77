//! Non-termination (NO) by recurrent sets of simple cycles.
//!
//! For a cycle of rule instances `r₀ … r_{k-1}` with head `ℓ₀`, a *recurrent set* is a
//! polyhedron `G` of head valuations such that from every integer point of `G` the whole cycle
//! can be taken, and every way of taking it (any temporaries) ends in `G` again (Gupta,
//! Henzinger, Majumdar, Rybalchenko & Xu 2008 define recurrent sets; we require closure for all
//! temporaries, which is stronger, so a NO never depends on a lucky choice of an unknown value).
//! `G` is searched by strengthening: start from the cycle's composed guard (and, second try,
//! that guard plus "no guard constraint loses slack along the cycle"), and repeat
//! `G ← G ∧ pre(G)` until `G ⇒ pre(G)` (closed) or a round limit. `pre` is computed backwards
//! through the cycle by substitution, which also gives the sets at the intermediate locations
//! the certificate lists. Guards must not constrain temporaries (else no NO is claimed).
//!
//! When no single cycle has one, composites are tried: two cycles through a common location
//! taken one after the other, and one cycle taken k times ([`composite_cycles`]).
//!
//! A NO also needs a run from the start into `G`: a path of rules from the start location to
//! the head is turned into one linear system over the start values and the path's temporaries,
//! solved over the integers by branch and bound, and replayed with [`Its::step`].

use crate::cert::{in_set, RecurrentSet};
use crate::cert_closed::Congruence;
use crate::farkas::{self, instance_guard, rows_of, Farkas, NeSide, Row, RuleInstance};
use crate::its::{Its, LocId, RuleId};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::lp::{solve, Cmp, Limits, Lp, LpResult, LpStats, VarKind};
use crate::q::Q;
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// Bounds of the search.
#[derive(Clone, Copy, Debug)]
pub struct RecurLimits {
    pub max_cycles: usize,
    pub max_cycle_len: usize,
    pub rounds: usize,
    pub max_paths: usize,
    pub bnb_nodes: usize,
    /// Single cycles combined into composite ones ([`composite_cycles`]), and the most
    /// composites tried.
    pub max_composite_base: usize,
    pub max_composites: usize,
    /// Most laps of one cycle in a composite (`A^k`).
    pub max_laps: usize,
}

impl Default for RecurLimits {
    fn default() -> RecurLimits {
        RecurLimits {
            max_cycles: 64,
            max_cycle_len: 12,
            rounds: 8,
            max_paths: 8,
            bnb_nodes: 200,
            max_composite_base: 12,
            max_composites: 48,
            max_laps: 3,
        }
    }
}

/// Searches the given rule sets (each usually an SCC) for a cycle with a recurrent set
/// reachable from the start.
pub(crate) fn find_recurrent_set(
    its: &Its,
    rule_sets: &[Vec<RuleInstance>],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<RecurrentSet> {
    for set in rule_sets {
        let singles = simple_cycles(its, set, rl);
        for cycle in &singles {
            if let Some(rs) = try_cycle(its, cycle, rl, limits, stats) {
                return Some(rs);
            }
        }
        // no single cycle has a recurrent set: a run may need several laps of different
        // cycles (or of one cycle) before its values repeat a pattern
        for cycle in composite_cycles(its, &singles, rl) {
            if let Some(rs) = try_cycle(its, &cycle, rl, limits, stats) {
                return Some(rs);
            }
        }
    }
    None
}

/// Cycles of several laps, each lap a cycle of `singles` through a common head: `A·B` for two
/// cycles sharing a location (a loop whose body alternates between two branches, neither of
/// which repeats alone: `x = -x` taken from `x > 0`, then from `x < 0`), and `A^k` for
/// `k = 2 …` [`RecurLimits::max_laps`] (a set closed only every k laps). Each candidate is
/// rotated to start at the shared location, so its head is that location; at most
/// [`RecurLimits::max_composites`] candidates, the shortest first.
pub(crate) fn composite_cycles(
    its: &Its,
    singles: &[Vec<RuleInstance>],
    rl: &RecurLimits,
) -> Vec<Vec<RuleInstance>> {
    let from = |i: &RuleInstance| its.rule(i.rule).from;
    // `c` rotated to start at location `at`, if it passes there
    let rotated = |c: &[RuleInstance], at: LocId| -> Option<Vec<RuleInstance>> {
        let p = c.iter().position(|i| from(i) == at)?;
        Some((0..c.len()).map(|k| c[(p + k) % c.len()].clone()).collect())
    };
    let base: Vec<&Vec<RuleInstance>> = singles
        .iter()
        .filter(|c| c.len() <= rl.max_cycle_len)
        .take(rl.max_composite_base)
        .collect();
    let mut out: Vec<Vec<RuleInstance>> = Vec::new();
    for (ia, a) in base.iter().enumerate() {
        for b in base.iter().skip(ia + 1) {
            // the first location of `a` that `b` passes through
            let Some(at) = a.iter().map(from).find(|l| b.iter().any(|i| from(i) == *l)) else {
                continue;
            };
            let (Some(ra), Some(rb)) = (rotated(a, at), rotated(b, at)) else {
                continue;
            };
            // both orders: the runs reaching the head may all enter one branch first
            out.push(ra.iter().chain(&rb).cloned().collect());
            out.push(rb.iter().chain(&ra).cloned().collect());
        }
        for k in 2..=rl.max_laps {
            out.push(a.iter().cycle().take(k * a.len()).cloned().collect());
        }
    }
    out.sort_by_key(Vec::len);
    out.dedup();
    out.truncate(rl.max_composites);
    out
}

/// Simple cycles (no location repeated), shortest first, within the limits. A cycle starts at
/// its smallest location.
pub(crate) fn simple_cycles(
    its: &Its,
    set: &[RuleInstance],
    rl: &RecurLimits,
) -> Vec<Vec<RuleInstance>> {
    let usable: Vec<&RuleInstance> = set
        .iter()
        .filter(|i| !i.ne_sides.contains(&NeSide::Dropped))
        .collect();
    let mut out: Vec<Vec<RuleInstance>> = Vec::new();
    let mut starts: Vec<LocId> = usable.iter().map(|i| its.rule(i.rule).from).collect();
    starts.sort();
    starts.dedup();
    let budget = rl.max_cycles * 8;
    for &s in &starts {
        let mut path: Vec<&RuleInstance> = Vec::new();
        let mut visited = vec![s];
        dfs(
            its,
            &usable,
            s,
            s,
            &mut path,
            &mut visited,
            rl,
            &mut out,
            budget,
        );
    }
    out.sort_by_key(Vec::len);
    out.truncate(rl.max_cycles);
    let laps = with_self_loops(its, &usable, &out);
    out.extend(laps);
    out.truncate(2 * rl.max_cycles);
    out
}

/// Cycles that take a self-loop once on the way: for a simple cycle through a location `ℓ`
/// (not its only one) with a self-loop `s` at `ℓ`, the cycle rotated to start after `ℓ`, with
/// `s` taken at `ℓ`. Catches loops whose body alternates between branches, such as
/// `while (i != 0) { if (i < 0) i = -(i - 1); else i = -(i + 1); }`, where a lap takes one
/// branch then the other. The head is never `ℓ`, so it is visited once per lap.
fn with_self_loops(
    its: &Its,
    usable: &[&RuleInstance],
    cycles: &[Vec<RuleInstance>],
) -> Vec<Vec<RuleInstance>> {
    let mut out = Vec::new();
    for c in cycles.iter().filter(|c| c.len() >= 2) {
        for i in 0..c.len() {
            let at = its.rule(c[i].rule).from;
            for s in usable.iter().filter(|s| {
                let r = its.rule(s.rule);
                r.from == at && r.to == at
            }) {
                // rotation starting after position i: c[i+1], …, c[i-1], s, c[i]
                let mut v: Vec<RuleInstance> =
                    (1..c.len()).map(|k| c[(i + k) % c.len()].clone()).collect();
                v.push((*s).clone());
                v.push(c[i].clone());
                out.push(v);
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn dfs<'a>(
    its: &Its,
    usable: &[&'a RuleInstance],
    start: LocId,
    at: LocId,
    path: &mut Vec<&'a RuleInstance>,
    visited: &mut Vec<LocId>,
    rl: &RecurLimits,
    out: &mut Vec<Vec<RuleInstance>>,
    budget: usize,
) {
    if out.len() >= budget || path.len() >= rl.max_cycle_len {
        return;
    }
    for inst in usable {
        let r = its.rule(inst.rule);
        if r.from != at {
            continue;
        }
        if r.to == start {
            let mut c: Vec<RuleInstance> = path.iter().map(|i| (*i).clone()).collect();
            c.push((*inst).clone());
            out.push(c);
        } else if r.to > start && !visited.contains(&r.to) {
            path.push(inst);
            visited.push(r.to);
            dfs(its, usable, start, r.to, path, visited, rl, out, budget);
            visited.pop();
            path.pop();
        }
    }
}

/// A constraint with no variables: its truth value.
fn constant_truth(c: &Constraint) -> Option<bool> {
    c.expr.is_constant().then(|| {
        c.holds(&|_| None::<Q>)
            .expect("a constant constraint evaluates")
    })
}

/// `P_i` for `i = 0..k`: `P_k = g`, `P_i = guard_i ∧ P_{i+1}(ē_i)`; `None` if a temporary
/// would enter a set or some `P_i` is trivially false.
fn backward(its: &Its, cycle: &[RuleInstance], g: &[Constraint]) -> Option<Vec<Vec<Constraint>>> {
    let k = cycle.len();
    let mut sets = vec![Vec::new(); k + 1];
    sets[k] = g.to_vec();
    for i in (0..k).rev() {
        let rule = its.rule(cycle[i].rule);
        let arity = its.location(rule.from).arity();
        let mut p: Vec<Constraint> = Vec::new();
        let guard = instance_guard(its, &cycle[i]);
        let subst: Vec<Constraint> = sets[i + 1]
            .iter()
            .map(|c| c.substitute(&|v: Var| rule.args[v.index()].clone()))
            .collect();
        for c in guard
            .into_iter()
            .map(|c| c.expect("no dropped sides"))
            .chain(subst)
        {
            if c.expr.vars().any(|v| v.index() >= arity) {
                return None;
            }
            match constant_truth(&c) {
                Some(true) => continue,
                Some(false) => return None,
                None => {}
            }
            if !p.contains(&c) {
                p.push(c);
            }
        }
        sets[i] = p;
    }
    Some(sets)
}

/// Rows of a conjunction with equalities as two inequalities (`-a,-b` then `a,b`), the layout
/// `verify` expects.
pub(crate) fn set_rows(set: &[Constraint], n: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for c in set {
        let r = rows_of(&[Some(c.clone())], n).remove(0);
        if r.eq {
            out.push(Row {
                coeffs: r.coeffs.iter().map(|x| -x).collect(),
                rhs: -&r.rhs,
                eq: false,
            });
            out.push(Row { eq: false, ..r });
        } else {
            out.push(r);
        }
    }
    out
}

/// Whether `premise ⇒ c` for every row of `c` (as a set of rows).
fn implies_all(premise: &[Row], targets: &[Row], limits: &Limits, stats: &mut LpStats) -> bool {
    targets
        .iter()
        .all(|t| farkas::implication(premise, &t.coeffs, &t.rhs, limits, stats).is_some())
}

/// The composed update of the cycle on the head variables, if it has no temporaries.
pub fn composed_update(its: &Its, cycle: &[RuleInstance]) -> Option<Vec<LinExpr>> {
    let head = its.rule(cycle[0].rule).from;
    let n = its.location(head).arity();
    let mut cur: Vec<LinExpr> = (0..n).map(|i| LinExpr::var(Var(i as u32))).collect();
    for inst in cycle {
        let rule = its.rule(inst.rule);
        let arity = its.location(rule.from).arity();
        if rule
            .args
            .iter()
            .any(|e| e.vars().any(|v| v.index() >= arity))
        {
            return None;
        }
        cur = rule
            .args
            .iter()
            .map(|e| e.substitute(&|v: Var| cur[v.index()].clone()))
            .collect();
    }
    Some(cur)
}

fn try_cycle(
    its: &Its,
    cycle: &[RuleInstance],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<RecurrentSet> {
    let head = its.rule(cycle[0].rule).from;
    let n = its.location(head).arity();
    let guard = backward(its, cycle, &[])?.swap_remove(0);
    let mut candidates = vec![guard.clone()];
    if let Some(u) = composed_update(its, cycle) {
        // No guard constraint may lose slack along the cycle: e(ū(x)) − e(x) ≤ 0 (= 0 for =).
        let mut mono = guard.clone();
        for c in &guard {
            let after = c.expr.substitute(&|v: Var| u[v.index()].clone());
            let change = after.minus(&c.expr);
            if change.is_constant() {
                continue;
            }
            let rel = match c.rel {
                Rel::Eq => Rel::Eq,
                _ => Rel::Le,
            };
            mono.push(Constraint::new(change, rel));
        }
        if mono != guard {
            candidates.push(mono);
        }
    }
    for mut g in candidates {
        for _ in 0..rl.rounds {
            if farkas::satisfiable(&set_rows(&g, n), limits, stats) != Some(true) {
                break;
            }
            let sets = backward(its, cycle, &g)?;
            let premise = set_rows(&g, n);
            let missing: Vec<Constraint> = sets[0]
                .iter()
                .filter(|c| !implies_all(&premise, &set_rows(&[(*c).clone()], n), limits, stats))
                .cloned()
                .collect();
            if missing.is_empty() {
                let mut sets = sets;
                sets.truncate(cycle.len());
                sets[0] = g.clone();
                if let Some(rs) = certify(its, cycle, sets, rl, limits, stats) {
                    return Some(rs);
                }
                break;
            }
            g.extend(missing);
        }
    }
    None
}

fn certify(
    its: &Its,
    cycle: &[RuleInstance],
    sets: Vec<Vec<Constraint>>,
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<RecurrentSet> {
    let k = cycle.len();
    let mut enabled = Vec::new();
    let mut closed = Vec::new();
    for i in 0..k {
        let inst = &cycle[i];
        let rule = its.rule(inst.rule);
        let n = rule.var_count(its);
        let premise = set_rows(&sets[i], n);
        let grows = farkas::instance_rows(its, inst);
        let mut en = Vec::new();
        for r in &grows {
            if r.eq {
                let neg: Vec<Q> = r.coeffs.iter().map(|x| -x).collect();
                en.push(farkas::implication(
                    &premise, &neg, &-&r.rhs, limits, stats,
                )?);
            }
            en.push(farkas::implication(
                &premise, &r.coeffs, &r.rhs, limits, stats,
            )?);
        }
        enabled.push(en);
        let mut rows = premise;
        rows.extend(grows);
        let next = set_rows(&sets[(i + 1) % k], its.location(rule.to).arity());
        let mut cl: Vec<Farkas> = Vec::new();
        for t in &next {
            let mut c = vec![Q::zero(); n];
            let mut d = t.rhs.clone();
            for (kk, a) in t.coeffs.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                let e = &rule.args[kk];
                for (v, u) in &e.terms {
                    c[v.index()] += &(a * u);
                }
                d -= &(a * &e.constant);
            }
            cl.push(farkas::implication(&rows, &c, &d, limits, stats)?);
        }
        closed.push(cl);
    }
    let head = its.rule(cycle[0].rule).from;
    let (prefix, start_values, prefix_temps, witness) =
        reach_set(its, head, &sets[0], &[], rl, limits, stats)?;
    Some(RecurrentSet {
        cycle: cycle.to_vec(),
        sets,
        enabled,
        closed,
        prefix,
        start_values,
        prefix_temps,
        witness,
    })
}

/// Paths of rules from the start to `head` (simple in locations), shortest first.
pub(crate) fn paths_to(
    its: &Its,
    head: LocId,
    max: usize,
    mut usable: impl FnMut(RuleId) -> bool,
) -> Vec<Vec<RuleId>> {
    let out_rules = its.outgoing();
    let mut found = Vec::new();
    let mut layer: Vec<(LocId, Vec<RuleId>, Vec<LocId>)> =
        vec![(its.start(), Vec::new(), vec![its.start()])];
    while !layer.is_empty() && found.len() < max {
        let mut next = Vec::new();
        for (at, path, seen) in layer {
            if at == head {
                found.push(path);
                continue;
            }
            for &r in out_rules.get(&at).map(Vec::as_slice).unwrap_or(&[]) {
                let to = its.rule(r).to;
                if seen.contains(&to) || !usable(r) {
                    continue;
                }
                let mut p = path.clone();
                p.push(r);
                let mut s = seen.clone();
                s.push(to);
                next.push((to, p, s));
            }
            if next.len() > 64 * max {
                break;
            }
        }
        layer = next;
    }
    found.truncate(max);
    found
}

type Reached = (Vec<RuleId>, Vec<BigInt>, Vec<Vec<BigInt>>, Vec<BigInt>);

/// A run from the start into `g` (and the congruences `congr`) at `head`: the path, start
/// values, temporaries, end point. A congruence `e ≡ 0 mod k` is the equation `e = k·μ` with
/// one more integer unknown `μ` per congruence.
pub(crate) fn reach_set(
    its: &Its,
    head: LocId,
    g: &[Constraint],
    congr: &[Congruence],
    rl: &RecurLimits,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Reached> {
    // rules whose guard alone has no rational point (the ≠-split copies of a graph's ITS
    // often do: `i + 1 ≤ 0 ∧ 0 < i`) start no path, else they crowd out the paths that run
    let mut known: BTreeMap<RuleId, bool> = BTreeMap::new();
    let mut usable = |r: RuleId| {
        *known.entry(r).or_insert_with(|| {
            let rule = its.rule(r);
            let guard: Vec<Constraint> = rule
                .guard
                .iter()
                .filter(|c| c.rel != Rel::Ne)
                .cloned()
                .collect();
            let rows = set_rows(&guard, rule.var_count(its));
            farkas::satisfiable(&rows, limits, stats) != Some(false)
        })
    };
    for path in paths_to(its, head, rl.max_paths, &mut usable) {
        // Variables: the start's, then each step's temporaries.
        let n0 = its.location(its.start()).arity();
        let mut offsets = Vec::new();
        let mut nvars = n0;
        for r in &path {
            offsets.push(nvars);
            nvars += its.rule(*r).temps.len();
        }
        let mut state: Vec<LinExpr> = (0..n0).map(|i| LinExpr::var(Var(i as u32))).collect();
        let mut cons: Vec<Constraint> = Vec::new();
        let mut nes: Vec<LinExpr> = Vec::new();
        for (j, r) in path.iter().enumerate() {
            let rule = its.rule(*r);
            let arity = its.location(rule.from).arity();
            let sub = |v: Var| {
                if v.index() < arity {
                    state[v.index()].clone()
                } else {
                    LinExpr::var(Var((offsets[j] + v.index() - arity) as u32))
                }
            };
            for c in &rule.guard {
                let c = c.substitute(&sub);
                if c.rel == Rel::Ne {
                    nes.push(c.expr);
                } else {
                    cons.push(c);
                }
            }
            state = rule.args.iter().map(|e| e.substitute(&sub)).collect();
        }
        for c in g {
            cons.push(c.substitute(&|v: Var| state[v.index()].clone()));
        }
        for (i, k) in congr.iter().enumerate() {
            let e = k.expr.substitute(&|v: Var| state[v.index()].clone());
            let mu = LinExpr::term(Var((nvars + i) as u32), k.modulus.clone());
            cons.push(Constraint::new(e.minus(&mu), Rel::Eq));
        }
        let nvars = nvars + congr.len();
        if nes.len() > 4 {
            continue;
        }
        for bits in 0..1usize << nes.len() {
            let mut all = cons.clone();
            for (i, e) in nes.iter().enumerate() {
                let e = if bits >> i & 1 == 0 {
                    e.clone()
                } else {
                    e.scaled(&-Q::one())
                };
                all.push(Constraint::new(e, Rel::Lt));
            }
            if all.iter().any(|c| constant_truth(c) == Some(false)) {
                continue;
            }
            let all: Vec<Constraint> = all
                .into_iter()
                .filter(|c| constant_truth(c).is_none())
                .collect();
            let rows = rows_of(&all.iter().cloned().map(Some).collect::<Vec<_>>(), nvars);
            let mut budget = rl.bnb_nodes;
            let Some(z) = integer_point(&rows, nvars, &mut budget, limits, stats) else {
                continue;
            };
            let start_values: Vec<BigInt> = z[..n0].to_vec();
            let temps: Vec<Vec<BigInt>> = path
                .iter()
                .enumerate()
                .map(|(j, r)| z[offsets[j]..offsets[j] + its.rule(*r).temps.len()].to_vec())
                .collect();
            // Replay with the ITS semantics; keep only a run that really lands in g.
            let mut vals = start_values.clone();
            let mut ok = true;
            for (r, t) in path.iter().zip(&temps) {
                match its.step(*r, &vals, t) {
                    Ok(Some(v)) => vals = v,
                    _ => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok && in_set(g, &vals) && congr.iter().all(|k| k.holds(&vals)) {
                return Some((path, start_values, temps, vals));
            }
        }
    }
    None
}

/// An integer point of `rows` by branch and bound over the LP relaxation, within `budget` nodes.
pub(crate) fn integer_point(
    rows: &[Row],
    n: usize,
    budget: &mut usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Vec<BigInt>> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut lp = Lp::new();
    for _ in 0..n {
        lp.var(VarKind::Free);
    }
    for r in rows {
        let coeffs: Vec<(usize, Q)> = r
            .coeffs
            .iter()
            .enumerate()
            .filter(|(_, a)| !a.is_zero())
            .map(|(j, a)| (j, a.clone()))
            .collect();
        if coeffs.is_empty() {
            let ok = if r.eq {
                r.rhs.is_zero()
            } else {
                !r.rhs.is_negative()
            };
            if !ok {
                return None;
            }
            continue;
        }
        lp.row(coeffs, if r.eq { Cmp::Eq } else { Cmp::Le }, r.rhs.clone());
    }
    let x = match solve(&lp, limits, stats) {
        LpResult::Optimal { x, .. } => x,
        _ => return None,
    };
    match x.iter().position(|v| !v.is_integer()) {
        None => Some(x.iter().map(|v| v.numer()).collect()),
        Some(j) => {
            let mut unit = vec![Q::zero(); n];
            unit[j] = Q::one();
            let mut down = rows.to_vec();
            down.push(Row {
                coeffs: unit.clone(),
                rhs: Q::from(x[j].floor()),
                eq: false,
            });
            if let Some(p) = integer_point(&down, n, budget, limits, stats) {
                return Some(p);
            }
            let mut up = rows.to_vec();
            up.push(Row {
                coeffs: unit.iter().map(|v| -v).collect(),
                rhs: -Q::from(x[j].ceil()),
                eq: false,
            });
            integer_point(&up, n, budget, limits, stats)
        }
    }
}

/// Every instance of every rule (the search space when no termination proof was attempted).
pub(crate) fn all_instances(its: &Its, max_split: usize) -> Vec<RuleInstance> {
    its.rule_ids()
        .flat_map(|r| farkas::instances(its, r, max_split))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::farkas::RuleInstance;

    #[test]
    fn paths_through_rules_without_points_do_not_crowd_out_the_run() {
        // nine start rules whose guards have no point come first (as the ≠-split copies of a
        // graph's ITS do), the one that runs last: the search must still find the run
        let dead: String = (0..9)
            .map(|k| format!("start(x) -> h(x + {k}) :|: x >= {k} && x <= -1  "))
            .collect();
        let its = crate::parse_koat(&format!(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x) (RULES {dead}
             start(x) -> h(x) :|: x >= 1
             h(x) -> h(x + 1) :|: x >= 1)"
        ))
        .unwrap();
        let p = crate::prove(&its, &crate::Options::default());
        assert_eq!(p.verdict, crate::Verdict::No, "{:?}", p.notes);
    }

    /// Composite candidates: both orders of two cycles through a common location, and a cycle
    /// taken twice (`A²`, `RecurLimits::max_laps`), each starting at a location of the first lap.
    #[test]
    fn composite_cycles_are_both_orders_and_repeated_laps() {
        let its = crate::parse_koat(&format!(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {}) (RULES {})",
            "x c",
            "start(x) -> f(x, 0)
             f(x, c) -> g(x, c) :|: c >= 0
             g(x, c) -> f(0 - x, c + 1) :|: x > 0
             g(x, c) -> f(0 - x, c + 1) :|: x < 0"
        ))
        .unwrap();
        let all = all_instances(&its, 4);
        let limits = RecurLimits::default();
        let singles = simple_cycles(&its, &all, &limits);
        assert_eq!(singles.len(), 2, "f → g → f by either branch");
        let comp = composite_cycles(&its, &singles, &limits);
        let rules = |c: &Vec<RuleInstance>| c.iter().map(|i| i.rule.0).collect::<Vec<_>>();
        let shapes: Vec<Vec<u32>> = comp.iter().map(rules).collect();
        let (a, b) = (rules(&singles[0]), rules(&singles[1]));
        for want in [
            [a.clone(), b.clone()].concat(),
            [b.clone(), a.clone()].concat(),
            [a.clone(), a.clone()].concat(),
            [b.clone(), b.clone()].concat(),
        ] {
            assert!(shapes.contains(&want), "{want:?} missing from {shapes:?}");
        }
        for c in &comp {
            for w in c.windows(2) {
                assert_eq!(its.rule(w[0].rule).to, its.rule(w[1].rule).from, "a path");
            }
            assert_eq!(
                its.rule(c[c.len() - 1].rule).to,
                its.rule(c[0].rule).from,
                "closed"
            );
        }
    }
}
