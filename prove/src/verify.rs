//! Exact re-verification of certificates, independent of how they were found.
//!
//! Nothing here calls the LP solver or the synthesis code: guards are turned into rows by the
//! verifier's own code (`verify_rows.rs`), Farkas multipliers are checked by exact rational
//! arithmetic (`λ ≥ 0` on inequalities, `λ·A = c`, `λ·b ≤ d`), the rule graph's cycles by
//! plain reachability, and non-termination witnesses are replayed with [`Its::step`].

use crate::cert::{in_set, RecurrentSet, TerminationCertificate};
use crate::farkas::{Farkas, NeSide, RuleInstance};
use crate::invariant::{InvariantStep, Invariants, StepProof};
use crate::its::{Its, LocId};
use crate::linexpr::{LinExpr, Var};
use crate::q::Q;
use crate::refine::refine;
use std::collections::BTreeSet;

pub(crate) use crate::verify_rows::VerifyError;
use crate::verify_rows::{
    bound_rows, chain_rows, check_implication, check_infeasible, fail, guard_rows, replay_prefix,
    set_rows, VRow,
};

/// The rule graph of `current` without the edges in `cut`: successors per instance.
struct RuleGraph<'a> {
    nodes: Vec<&'a RuleInstance>,
    succ: Vec<Vec<usize>>,
}

impl<'a> RuleGraph<'a> {
    fn new(
        its: &Its,
        current: &'a BTreeSet<RuleInstance>,
        cut: &BTreeSet<(&RuleInstance, &RuleInstance)>,
    ) -> RuleGraph<'a> {
        let nodes: Vec<&RuleInstance> = current.iter().collect();
        let succ = nodes
            .iter()
            .map(|a| {
                let to = its.rule(a.rule).to;
                (0..nodes.len())
                    .filter(|&j| {
                        its.rule(nodes[j].rule).from == to && !cut.contains(&(*a, nodes[j]))
                    })
                    .collect()
            })
            .collect();
        RuleGraph { nodes, succ }
    }

    fn index(&self, i: &RuleInstance) -> Option<usize> {
        self.nodes.iter().position(|n| *n == i)
    }

    /// The instances reachable from `i` by one or more edges.
    fn reach(&self, i: usize) -> Vec<bool> {
        Self::closure(&self.succ, i)
    }

    /// The instances that reach `i` by one or more edges.
    fn reached_by(&self, i: usize) -> Vec<bool> {
        let mut pred = vec![Vec::new(); self.nodes.len()];
        for (a, s) in self.succ.iter().enumerate() {
            for &b in s {
                pred[b].push(a);
            }
        }
        Self::closure(&pred, i)
    }

    fn closure(next: &[Vec<usize>], i: usize) -> Vec<bool> {
        let mut seen = vec![false; next.len()];
        let mut todo = next[i].clone();
        while let Some(v) = todo.pop() {
            if !seen[v] {
                seen[v] = true;
                todo.extend(&next[v]);
            }
        }
        seen
    }
}

/// `f_from(x̄) − f_to(ē)` over the rule's variables: (coefficients, constant).
fn decrease(its: &Its, inst: &RuleInstance, f_from: &LinExpr, f_to: &LinExpr) -> (Vec<Q>, Q) {
    let rule = its.rule(inst.rule);
    let n = rule.var_count(its);
    let mut g = vec![Q::zero(); n];
    let mut g0 = f_from.constant.clone() - &f_to.constant;
    for (v, a) in &f_from.terms {
        g[v.index()] += a;
    }
    for (k, a) in &f_to.terms {
        let e = &rule.args[k.index()];
        for (v, u) in &e.terms {
            g[v.index()] -= &(a * u);
        }
        g0 -= &(a * &e.constant);
    }
    (g, g0)
}

/// Reachability between locations over the rule instances `r` (reflexive-transitive).
fn reach(its: &Its, r: &BTreeSet<RuleInstance>) -> Vec<Vec<bool>> {
    let n = its.locations().len();
    let mut succ = vec![Vec::new(); n];
    for i in r {
        let rule = its.rule(i.rule);
        succ[rule.from.index()].push(rule.to.index());
    }
    (0..n)
        .map(|s| {
            let mut seen = vec![false; n];
            seen[s] = true;
            let mut todo = vec![s];
            while let Some(v) = todo.pop() {
                for &w in &succ[v] {
                    if !seen[w] {
                        seen[w] = true;
                        todo.push(w);
                    }
                }
            }
            seen
        })
        .collect()
}

/// Whether instance `i` lies on a cycle of `r` (its target reaches its source).
fn on_cycle(its: &Its, reach: &[Vec<bool>], i: &RuleInstance) -> bool {
    let rule = its.rule(i.rule);
    reach[rule.to.index()][rule.from.index()]
}

/// Checks a termination certificate for `its` exactly: its invariants on `its`, the rest on
/// `its` with every guard strengthened by its source's invariant.
pub fn verify_termination(its: &Its, cert: &TerminationCertificate) -> Result<(), VerifyError> {
    let strong;
    let mut its = its;
    if !cert.invariants.is_empty() {
        verify_invariants(its, &cert.invariants)?;
        strong = strengthened(its, &cert.invariants)?;
        its = &strong;
    }
    if cert.splits.is_empty() {
        return verify_ranking(its, cert);
    }
    // a split keeps every run (`refine`): the ranking is checked on the refined ITS
    let refined = refine(its, &cert.splits).map_err(|e| VerifyError(e.to_string()))?;
    verify_ranking(&refined.its, cert)
}

/// Checks that the invariants are inductive: the start location has none, and after every
/// rule into a location with bounds, each bound follows from the source's bounds and the
/// guard of each instance of the rule (its steps cover every `≠` side) by the step's
/// multipliers, or that premise is infeasible.
pub fn verify_invariants(its: &Its, inv: &Invariants) -> Result<(), VerifyError> {
    let mut seen = BTreeSet::new();
    for li in &inv.locations {
        let Some(loc) = its.locations().get(li.location.index()) else {
            return fail(format!("invariant of unknown location {}", li.location.0));
        };
        if li.location == its.start() || !seen.insert(li.location) {
            return fail(format!("invariant of location {} not allowed", loc.name));
        }
        if li
            .bounds
            .iter()
            .any(|c| c.expr.vars().any(|v| v.index() >= loc.arity()))
        {
            return fail(format!("invariant of {} out of scope", loc.name));
        }
        bound_rows(&li.bounds, loc.arity())?;
    }
    for st in &inv.steps {
        if its.rules().get(st.instance.rule.index()).is_none() {
            return fail(format!(
                "invariant step of unknown rule {}",
                st.instance.rule.0
            ));
        }
    }
    for r in its.rule_ids() {
        let rule = its.rule(r);
        let target = inv.at(rule.to);
        if target.is_empty() {
            continue;
        }
        let steps: Vec<&InvariantStep> =
            inv.steps.iter().filter(|s| s.instance.rule == r).collect();
        let insts: Vec<&RuleInstance> = steps.iter().map(|s| &s.instance).collect();
        if !covers_rule(its, r, &insts) {
            return fail(format!("rule {} is not covered by invariant steps", r.0));
        }
        let n = rule.var_count(its);
        let goals = bound_rows(target, its.location(rule.to).arity())?;
        for step in steps {
            let mut premise = bound_rows(inv.at(rule.from), n)?;
            premise.extend(guard_rows(its, &step.instance)?);
            let proofs = match &step.proof {
                StepProof::Infeasible(f) if check_infeasible(&premise, f, n) => continue,
                StepProof::Infeasible(_) => {
                    return fail(format!("rule {}: invariant premise not infeasible", r.0))
                }
                StepProof::Bounds(p) if p.len() == goals.len() => p,
                StepProof::Bounds(_) => {
                    return fail(format!("invariant step of rule {}: proofs miscounted", r.0))
                }
            };
            for (k, (t, f)) in goals.iter().zip(proofs).enumerate() {
                // t.a·ē ≤ t.b over the rule's variables
                let mut c = vec![Q::zero(); n];
                let mut d = t.b.clone();
                for (j, a) in t.a.iter().enumerate().filter(|(_, a)| !a.is_zero()) {
                    let e = &rule.args[j];
                    for (v, u) in &e.terms {
                        c[v.index()] += &(a * u);
                    }
                    d -= &(a * &e.constant);
                }
                if !check_implication(&premise, f, &c, &d) {
                    return fail(format!(
                        "rule {}: invariant bound {k} of its target does not hold",
                        r.0
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether the instances `mine` of rule `r` cover every side of its `≠` constraints
/// (`Dropped` matches both sides; with more than 16, one instance must drop them all).
fn covers_rule(its: &Its, r: crate::its::RuleId, mine: &[&RuleInstance]) -> bool {
    let k = its.rule(r).ne_count();
    let covers = |bits: usize| {
        mine.iter().any(|i| {
            i.ne_sides.iter().enumerate().all(|(j, s)| match s {
                NeSide::Dropped => true,
                NeSide::Less => bits >> j & 1 == 0,
                NeSide::Greater => bits >> j & 1 == 1,
            })
        })
    };
    if k > 16 {
        mine.iter()
            .any(|i| i.ne_sides.iter().all(|s| *s == NeSide::Dropped))
    } else {
        (0..1usize << k).all(covers)
    }
}

/// `its` with each rule's guard followed by its source's invariant.
fn strengthened(its: &Its, inv: &Invariants) -> Result<Its, VerifyError> {
    fn vars(l: &crate::its::Location) -> Vec<&str> {
        l.vars.iter().map(String::as_str).collect()
    }
    let bad = |e: crate::its::ItsError| VerifyError(e.to_string());
    let start = its.location(its.start());
    let mut out = Its::new(&start.name, &vars(start)).map_err(bad)?;
    for (i, l) in its.locations().iter().enumerate() {
        if i != its.start().index() {
            out.add_location(&l.name, &vars(l)).map_err(bad)?;
        }
    }
    for rule in its.rules() {
        let mut r = rule.clone();
        r.guard.extend(inv.at(rule.from).iter().cloned());
        out.add_rule(r).map_err(bad)?;
    }
    Ok(out)
}

fn verify_ranking(its: &Its, cert: &TerminationCertificate) -> Result<(), VerifyError> {
    // Every rule is covered by its instances (Dropped matches both sides).
    let mut current: BTreeSet<RuleInstance> = BTreeSet::new();
    for inst in &cert.instances {
        guard_rows(its, inst)?;
        current.insert(inst.clone());
    }
    for r in its.rule_ids() {
        let mine: Vec<&RuleInstance> = cert.instances.iter().filter(|i| i.rule == r).collect();
        if !covers_rule(its, r, &mine) {
            return fail(format!("rule {} is not covered by its instances", r.0));
        }
    }
    for inf in &cert.infeasible {
        if !current.contains(&inf.instance) {
            return fail(format!(
                "infeasible rule {} is not an instance",
                inf.instance.rule.0
            ));
        }
        let rows = guard_rows(its, &inf.instance)?;
        let n = its.rule(inf.instance.rule).var_count(its);
        if !check_infeasible(&rows, &inf.cert, n) {
            return fail(format!(
                "rule {}: infeasibility certificate does not hold",
                inf.instance.rule.0
            ));
        }
        current.remove(&inf.instance);
    }
    // Pairs of instances that never follow each other leave the rule graph.
    let all_instances: BTreeSet<&RuleInstance> = cert.instances.iter().collect();
    for ch in &cert.chains {
        if !all_instances.contains(&ch.first) || !all_instances.contains(&ch.second) {
            return fail(format!(
                "chain of rules {} and {}: not instances",
                ch.first.rule.0, ch.second.rule.0
            ));
        }
        let rows = chain_rows(its, &ch.first, &ch.second)?;
        let n = rows.first().map_or(0, |r| r.a.len());
        if !check_infeasible(&rows, &ch.cert, n) {
            return fail(format!(
                "rule {} followed by rule {}: infeasibility certificate does not hold",
                ch.first.rule.0, ch.second.rule.0
            ));
        }
    }
    let cut: BTreeSet<(&RuleInstance, &RuleInstance)> =
        cert.chains.iter().map(|c| (&c.first, &c.second)).collect();
    for (si, scc) in cert.sccs.iter().enumerate() {
        for (li, level) in scc.levels.iter().enumerate() {
            let at = format!("SCC {si} level {li}");
            let scope: BTreeSet<RuleInstance> =
                level.rules.iter().map(|r| r.instance.clone()).collect();
            if !scope.is_subset(&current) {
                return fail(format!("{at}: mentions a rule already removed or unknown"));
            }
            // The scope must be a union of SCCs of the current rules' rule graph.
            if !cut.is_empty() {
                let g = RuleGraph::new(its, &current, &cut);
                for inside in &scope {
                    let a = g.index(inside).expect("a current instance");
                    let (from_a, to_a) = (g.reach(a), g.reached_by(a));
                    for outside in current.difference(&scope) {
                        let b = g.index(outside).expect("a current instance");
                        if from_a[b] && to_a[b] {
                            return fail(format!(
                                "{at}: rule {} shares a cycle with rule {} outside the level",
                                inside.rule.0, outside.rule.0
                            ));
                        }
                    }
                }
            }
            let reach_now = reach(its, &current);
            for inside in scope.iter().filter(|_| cut.is_empty()) {
                let a = its.rule(inside.rule);
                for outside in current.difference(&scope) {
                    let b = its.rule(outside.rule);
                    if reach_now[a.to.index()][b.from.index()]
                        && reach_now[b.to.index()][a.from.index()]
                    {
                        return fail(format!(
                            "{at}: rule {} shares a cycle with rule {} outside the level",
                            inside.rule.0, outside.rule.0
                        ));
                    }
                }
            }
            let f = |l: LocId| -> Result<LinExpr, VerifyError> {
                match level.function(l) {
                    Some(e) if e.vars().all(|v| v.index() < its.location(l).arity()) => {
                        Ok(e.clone())
                    }
                    Some(_) => fail(format!("{at}: function of location {} out of scope", l.0)),
                    None => fail(format!("{at}: no function for location {}", l.0)),
                }
            };
            let nested = !level.later_phases.is_empty();
            for rr in &level.rules {
                let rule = its.rule(rr.instance.rule);
                let n = rule.var_count(its);
                let rows = guard_rows(its, &rr.instance)?;
                if nested != matches!(rr.cert, crate::cert::RuleCert::Nested { .. }) {
                    return fail(format!(
                        "{at}: rule {} mixes a nested level with a lexicographic one",
                        rr.instance.rule.0
                    ));
                }
                if let crate::cert::RuleCert::Nested { steps, bounded } = &rr.cert {
                    let phases = |l: LocId| -> Result<Vec<LinExpr>, VerifyError> {
                        let fs = level.phases(l).ok_or_else(|| {
                            VerifyError(format!("{at}: no phase functions for location {}", l.0))
                        })?;
                        if fs
                            .iter()
                            .any(|e| e.vars().any(|v| v.index() >= its.location(l).arity()))
                        {
                            return fail(format!(
                                "{at}: function of location {} out of scope",
                                l.0
                            ));
                        }
                        Ok(fs.into_iter().cloned().collect())
                    };
                    let (pf, pt) = (phases(rule.from)?, phases(rule.to)?);
                    if !check_nested(its, &rr.instance, &rows, n, &pf, &pt, steps, bounded) {
                        return fail(format!(
                            "{at}: the nested certificate of rule {} does not hold",
                            rr.instance.rule.0
                        ));
                    }
                    continue;
                }
                let (ff, ft) = (f(rule.from)?, f(rule.to)?);
                let (g, g0) = decrease(its, &rr.instance, &ff, &ft);
                let neg_g: Vec<Q> = g.iter().map(|v| -v).collect();
                let ok = match &rr.cert {
                    crate::cert::RuleCert::Weak { decrease } => {
                        check_implication(&rows, decrease, &neg_g, &g0)
                    }
                    crate::cert::RuleCert::Nested { .. } => false,
                    crate::cert::RuleCert::Strict { decrease, bounded } => {
                        let mut neg_f = vec![Q::zero(); n];
                        for (v, a) in &ff.terms {
                            neg_f[v.index()] = -a;
                        }
                        check_implication(&rows, decrease, &neg_g, &(&g0 - &Q::one()))
                            && check_implication(&rows, bounded, &neg_f, &ff.constant)
                    }
                };
                if !ok {
                    return fail(format!(
                        "{at}: the certificate of rule {} does not hold",
                        rr.instance.rule.0
                    ));
                }
            }
            for removed in level.removed() {
                current.remove(removed);
            }
        }
    }
    let reach_end = reach(its, &current);
    let mut on_location_cycle = current.iter().filter(|i| on_cycle(its, &reach_end, i));
    if cut.is_empty() {
        if let Some(i) = on_location_cycle.next() {
            return fail(format!("rule {} still lies on a cycle", i.rule.0));
        }
    } else {
        // only an instance on a cycle of the location graph can lie on one of the rule graph
        let g = RuleGraph::new(its, &current, &cut);
        for i in on_location_cycle {
            let k = g.index(i).expect("a current instance");
            if g.reach(k)[k] {
                return fail(format!("rule {} still lies on a cycle", i.rule.0));
            }
        }
    }
    Ok(())
}

/// `rows ⇒ e ≥ k` by the multipliers `m`, `e` over the rule's `n` variables.
fn check_at_least(rows: &[VRow], m: &Farkas, n: usize, e: &LinExpr, k: &Q) -> bool {
    let mut neg = vec![Q::zero(); n];
    for (v, a) in &e.terms {
        if v.index() >= n {
            return false;
        }
        neg[v.index()] = -a;
    }
    check_implication(rows, m, &neg, &(&e.constant - k))
}

/// The conditions of a nested level (`nested.rs`) on one rule: `f₁` falls by ≥ 1,
/// `f_{i−1} + f_i` falls by ≥ 1 in `f_i`'s part, `f_d ≥ 0` — phases `pf` at the source, `pt`
/// at the target, one certificate per condition.
#[allow(clippy::too_many_arguments)]
fn check_nested(
    its: &Its,
    inst: &RuleInstance,
    rows: &[VRow],
    n: usize,
    pf: &[LinExpr],
    pt: &[LinExpr],
    steps: &[Farkas],
    bounded: &Farkas,
) -> bool {
    let d = pf.len();
    if d < 2 || pt.len() != d || steps.len() != d {
        return false;
    }
    let rule = its.rule(inst.rule);
    for i in 0..d {
        let image = pt[i].substitute(&|v: Var| rule.args[v.index()].clone());
        let mut e = pf[i].minus(&image);
        if i > 0 {
            e = e.plus(&pf[i - 1]);
        }
        if !check_at_least(rows, &steps[i], n, &e, &Q::one()) {
            return false;
        }
    }
    check_at_least(rows, bounded, n, &pf[d - 1], &Q::zero())
}

/// Checks a recurrent set: the cycle, enabledness, closure, and the witness run.
pub fn verify_nontermination(its: &Its, rs: &RecurrentSet) -> Result<(), VerifyError> {
    let k = rs.cycle.len();
    if k == 0 || rs.sets.len() != k || rs.enabled.len() != k || rs.closed.len() != k {
        return fail("cycle, sets and certificates differ in length");
    }
    for i in 0..k {
        if rs.cycle[i].ne_sides.contains(&NeSide::Dropped) {
            return fail("a dropped disequality in a non-termination cycle (weaker guard)");
        }
        guard_rows(its, &rs.cycle[i])?;
        let a = its.rule(rs.cycle[i].rule);
        let b = its.rule(rs.cycle[(i + 1) % k].rule);
        if a.to != b.from {
            return fail(format!("cycle broken after rule {}", rs.cycle[i].rule.0));
        }
    }
    for i in 0..k {
        let inst = &rs.cycle[i];
        let rule = its.rule(inst.rule);
        let n = rule.var_count(its);
        let arity = its.location(rule.from).arity();
        if rs.sets[i]
            .iter()
            .any(|c| c.expr.vars().any(|v| v.index() >= arity))
        {
            return fail(format!("set {i} mentions variables beyond its location"));
        }
        let premise = set_rows(&rs.sets[i], n)?;
        // Enabled: sets[i] ⇒ every guard row (equalities both ways).
        let mut targets = Vec::new();
        for r in guard_rows(its, inst)? {
            if r.eq {
                targets.push((r.a.iter().map(|x| -x).collect::<Vec<Q>>(), -&r.b));
            }
            targets.push((r.a, r.b));
        }
        if rs.enabled[i].len() != targets.len()
            || !targets
                .iter()
                .zip(&rs.enabled[i])
                .all(|((c, d), f)| check_implication(&premise, f, c, d))
        {
            return fail(format!("set {i} does not enable rule {}", inst.rule.0));
        }
        // Closed: sets[i] ∧ guard ⇒ sets[i+1](ē).
        let mut rows = premise;
        rows.extend(guard_rows(its, inst)?);
        let next_loc = rule.to;
        let next = set_rows(&rs.sets[(i + 1) % k], its.location(next_loc).arity())?;
        if rs.closed[i].len() != next.len() {
            return fail(format!("closure certificates of step {i} miscounted"));
        }
        for (t, f) in next.iter().zip(&rs.closed[i]) {
            let mut c = vec![Q::zero(); n];
            let mut d = t.b.clone();
            for (kk, a) in t.a.iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                let e = &rule.args[kk];
                for (v, u) in &e.terms {
                    c[v.index()] += &(a * u);
                }
                d -= &(a * &e.constant);
            }
            if !check_implication(&rows, f, &c, &d) {
                return fail(format!("step {i} (rule {}) leaves the set", inst.rule.0));
            }
        }
    }
    // The witness run from the start.
    let (loc, vals) = replay_prefix(its, &rs.start_values, &rs.prefix, &rs.prefix_temps)?;
    if loc != rs.head(its) || vals != rs.witness {
        return fail("the prefix does not reach the witness at the cycle's head");
    }
    if !in_set(&rs.sets[0], &rs.witness) {
        return fail("the witness is not in the recurrent set");
    }
    Ok(())
}
