//! Nested (multiphase) linear ranking functions, for a scope no lexicographic level was found
//! for (docs/proving.md, *Multiphase ranking*).
//!
//! A tuple `⟨f₁, …, f_d⟩` of affine functions per location such that every rule of the scope
//! satisfies, with `x̄` its source's values and `ē` its update:
//!
//! * `f₁(x̄) − f₁(ē) ≥ 1`,
//! * `f_{i−1}(x̄) + f_i(x̄) − f_i(ē) ≥ 1` for `i = 2 … d`,
//! * `f_d(x̄) ≥ 0`.
//!
//! (Leike & Heizmann, *Ranking templates for linear loops*, TACAS 2014, the nested template;
//! Ben-Amram & Genaim, *On multiphase-linear ranking functions*, CAV 2017, show it is as strong
//! as a multiphase function.) Why it terminates: `f₁` falls by 1 every step, so it is `≤ 0`
//! from some step on; from then on `f₂` falls by ≥ 1 every step, and so on, until `f_d` falls
//! by ≥ 1 every step while staying `≥ 0`. The loop `while (x > 0) { x = x + y; y = y − 1; }`
//! has `⟨y + 1, x⟩`: `y` falls until it is negative, then `x`. All conditions are linear in the
//! template's coefficients through the affine Farkas lemma, so one LP per depth finds them;
//! the functions are then certified rule by rule (`farkas::implication`) as the levels are.

use crate::cert::{Level, RankedRule, RuleCert};
use crate::farkas::{self, GaveUp, Row, RuleInstance};
use crate::its::{Its, LocId};
use crate::linexpr::{LinExpr, Var};
use crate::lp::{solve, Cmp, Limits, Lp, LpResult, LpStats, VarKind};
use crate::lp_float::{self, FloatGaveUp, FloatResult};
use crate::q::Q;
use std::collections::BTreeMap;

/// Depths tried, shallowest first (depth 1 is an ordinary ranking function, which the levels
/// already search).
const DEPTHS: [usize; 2] = [2, 3];

/// A scope of more rule instances than this is not searched (the LP grows with rules × depth).
pub(crate) const MAX_RULES: usize = 48;

/// One rule of the scope, as the search sees it.
pub(crate) struct ScopeRule<'a> {
    pub inst: &'a RuleInstance,
    pub rows: &'a [Row],
    pub from: LocId,
    pub to: LocId,
}

/// An affine expression over a rule's variables whose coefficients are linear in LP variables.
#[derive(Default)]
struct Templated {
    /// per rule variable: `Σ coeff·lpvar`
    vars: BTreeMap<usize, Vec<(usize, Q)>>,
    /// constant: `Σ coeff·lpvar`
    constant: Vec<(usize, Q)>,
}

impl Templated {
    fn add(&mut self, other: &Templated, k: &Q) {
        for (j, terms) in &other.vars {
            let e = self.vars.entry(*j).or_default();
            e.extend(terms.iter().map(|(v, c)| (*v, c * k)));
        }
        self.constant
            .extend(other.constant.iter().map(|(v, c)| (*v, c * k)));
    }
}

/// One affine template: LP variables of the coefficients (`None`: not relevant) and of the
/// constant.
type Template = (Vec<Option<usize>>, usize);

/// Per location, one template per phase.
struct Phases {
    base: BTreeMap<LocId, Vec<Template>>,
}

impl Phases {
    /// `f_i` of the rule's source on its variables.
    fn at_source(&self, l: LocId, i: usize) -> Templated {
        let (coeffs, c) = &self.base[&l][i];
        let mut t = Templated::default();
        for (j, v) in coeffs.iter().enumerate() {
            if let Some(v) = v {
                t.vars.entry(j).or_default().push((*v, Q::one()));
            }
        }
        t.constant.push((*c, Q::one()));
        t
    }
    /// `f_i` of the rule's target on its update.
    fn at_target(&self, its: &Its, r: &ScopeRule<'_>, i: usize) -> Templated {
        let rule = its.rule(r.inst.rule);
        let (coeffs, c) = &self.base[&r.to][i];
        let mut t = Templated::default();
        for (k, u) in rule.args.iter().enumerate() {
            let Some(a) = coeffs.get(k).copied().flatten() else {
                continue;
            };
            for (v, q) in &u.terms {
                t.vars.entry(v.index()).or_default().push((a, q.clone()));
            }
            if !u.constant.is_zero() {
                t.constant.push((a, u.constant.clone()));
            }
        }
        t.constant.push((*c, Q::one()));
        t
    }
    /// Every location's functions at the point `x`.
    fn functions(&self, x: &[Q]) -> PhaseFunctions {
        self.base
            .iter()
            .map(|(&l, phases)| {
                (
                    l,
                    (0..phases.len()).map(|i| self.function(l, i, x)).collect(),
                )
            })
            .collect()
    }
    /// The LP variables of every template (coefficients and constants).
    fn variables(&self) -> impl Iterator<Item = usize> + '_ {
        self.base
            .values()
            .flatten()
            .flat_map(|(coeffs, c)| coeffs.iter().flatten().copied().chain([*c]))
    }
    fn function(&self, l: LocId, i: usize, x: &[Q]) -> LinExpr {
        let (coeffs, c) = &self.base[&l][i];
        let mut f = LinExpr::constant(x[*c].clone());
        for (j, v) in coeffs.iter().enumerate() {
            if let Some(v) = v {
                f.add_term(Var(j as u32), &x[*v]);
            }
        }
        f
    }
}

/// Adds "`rows ⇒ e ≥ k`" to `lp` (affine Farkas: `λ·A = −e`, `λ·b ≤ e₀ − k`).
fn implies_at_least(lp: &mut Lp, rows: &[Row], n: usize, e: &Templated, k: Q) {
    let mult: Vec<usize> = rows
        .iter()
        .map(|r| lp.var(if r.eq { VarKind::Free } else { VarKind::NonNeg }))
        .collect();
    for j in 0..n {
        let mut coeffs: Vec<(usize, Q)> = rows
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.coeffs[j].is_zero())
            .map(|(ri, r)| (mult[ri], r.coeffs[j].clone()))
            .collect();
        if let Some(terms) = e.vars.get(&j) {
            coeffs.extend(terms.iter().cloned());
        }
        if !coeffs.is_empty() {
            lp.row(coeffs, Cmp::Eq, Q::zero());
        }
    }
    let mut coeffs: Vec<(usize, Q)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.rhs.is_zero())
        .map(|(ri, r)| (mult[ri], r.rhs.clone()))
        .collect();
    coeffs.extend(e.constant.iter().map(|(v, c)| (*v, -c)));
    lp.row(coeffs, Cmp::Le, -k);
}

/// A nested ranking function for every rule of `scope` (all removed at once), shallowest
/// depth first; `relevant` gives per location the variables a function may use.
pub(crate) fn find(
    its: &Its,
    scope: &[ScopeRule<'_>],
    relevant: &BTreeMap<LocId, Vec<bool>>,
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<Level>, GaveUp> {
    if scope.is_empty() || scope.len() > MAX_RULES {
        return Ok(None);
    }
    for d in DEPTHS {
        // the float solver first (`lp_float.rs`): its "no point" is taken as it is, its
        // functions are certified exactly; where they fail or it gives up, the exact solver
        match synthesize_float(its, scope, relevant, d, limits, stats) {
            Ok(None) => continue,
            Ok(Some(phases)) => {
                if let Some(level) = certify(its, scope, &phases, limits, stats) {
                    return Ok(Some(level));
                }
            }
            // the exact budget is a tenth of the float one's: it would give up too
            Err(FloatGaveUp::Limit) => return Err(GaveUp),
            Err(FloatGaveUp::Rounding) => {}
        }
        let Some(phases) = synthesize(its, scope, relevant, d, limits, stats)? else {
            continue;
        };
        if let Some(level) = certify(its, scope, &phases, limits, stats) {
            return Ok(Some(level));
        }
    }
    Ok(None)
}

/// Per location, the functions `f_1 … f_d`.
type PhaseFunctions = BTreeMap<LocId, Vec<LinExpr>>;

/// The functions `f_1 … f_d` per location, from one exact LP.
fn synthesize(
    its: &Its,
    scope: &[ScopeRule<'_>],
    relevant: &BTreeMap<LocId, Vec<bool>>,
    depth: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<PhaseFunctions>, GaveUp> {
    let (lp, ph) = system(its, scope, relevant, depth);
    match solve(&lp, limits, stats) {
        LpResult::Unknown => Err(GaveUp),
        LpResult::Infeasible | LpResult::Unbounded => Ok(None),
        LpResult::Optimal { x, .. } => Ok(Some(ph.functions(&x))),
    }
}

/// The same with the float solver (`lp_float.rs`), the functions rounded to small rationals
/// for `certify` to check exactly; its "no point" is taken as it is.
fn synthesize_float(
    its: &Its,
    scope: &[ScopeRule<'_>],
    relevant: &BTreeMap<LocId, Vec<bool>>,
    depth: usize,
    limits: &Limits,
    stats: &mut LpStats,
) -> Result<Option<PhaseFunctions>, FloatGaveUp> {
    let (lp, ph) = system(its, scope, relevant, depth);
    match lp_float::solve(&lp, limits, stats) {
        FloatResult::Unknown => Err(FloatGaveUp::Limit),
        FloatResult::NoPoint => Ok(None),
        FloatResult::Optimal(x) => match lp_float::rounded(&x, ph.variables()) {
            Some(x) => Ok(Some(ph.functions(&x))),
            None => Err(FloatGaveUp::Rounding),
        },
    }
}

/// The LP of the nested conditions at `depth` and its templates.
fn system(
    its: &Its,
    scope: &[ScopeRule<'_>],
    relevant: &BTreeMap<LocId, Vec<bool>>,
    depth: usize,
) -> (Lp, Phases) {
    let mut lp = Lp::new();
    let mut ph = Phases {
        base: BTreeMap::new(),
    };
    for (l, rel) in relevant {
        let per_phase = (0..depth)
            .map(|_| {
                let coeffs = rel
                    .iter()
                    .map(|r| r.then(|| lp.var(VarKind::Free)))
                    .collect();
                (coeffs, lp.var(VarKind::Free))
            })
            .collect();
        ph.base.insert(*l, per_phase);
    }
    for r in scope {
        let n = its.rule(r.inst.rule).var_count(its);
        for i in 0..depth {
            // f_{i−1}(x̄) + f_i(x̄) − f_i(ē) ≥ 1
            let mut e = ph.at_source(r.from, i);
            e.add(&ph.at_target(its, r, i), &-Q::one());
            if i > 0 {
                e.add(&ph.at_source(r.from, i - 1), &Q::one());
            }
            implies_at_least(&mut lp, r.rows, n, &e, Q::one());
        }
        implies_at_least(
            &mut lp,
            r.rows,
            n,
            &ph.at_source(r.from, depth - 1),
            Q::zero(),
        );
    }
    (lp, ph)
}

/// `rows ⇒ e ≥ k` for a fixed expression over the rule's `n` variables.
fn prove_at_least(
    rows: &[Row],
    n: usize,
    e: &LinExpr,
    k: &Q,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<farkas::Farkas> {
    // e ≥ k  ⟺  (−e)·x ≤ e₀ − k
    let neg = farkas::dense(&e.scaled(&-Q::one()), n);
    farkas::implication(rows, &neg, &(&e.constant - k), limits, stats)
}

/// The rule's `f_i(x̄) − f_i(ē)` for fixed functions.
pub(crate) fn drop_of(its: &Its, inst: &RuleInstance, f_from: &LinExpr, f_to: &LinExpr) -> LinExpr {
    let rule = its.rule(inst.rule);
    let image = f_to.substitute(&|v: Var| rule.args[v.index()].clone());
    f_from.minus(&image)
}

fn certify(
    its: &Its,
    scope: &[ScopeRule<'_>],
    phases: &BTreeMap<LocId, Vec<LinExpr>>,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Level> {
    let depth = phases.values().next()?.len();
    let mut rules = Vec::new();
    for r in scope {
        let n = its.rule(r.inst.rule).var_count(its);
        let (pf, pt) = (&phases[&r.from], &phases[&r.to]);
        let mut steps = Vec::new();
        for i in 0..depth {
            let mut e = drop_of(its, r.inst, &pf[i], &pt[i]);
            if i > 0 {
                e = e.plus(&pf[i - 1]);
            }
            steps.push(prove_at_least(r.rows, n, &e, &Q::one(), limits, stats)?);
        }
        let bounded = prove_at_least(r.rows, n, &pf[depth - 1], &Q::zero(), limits, stats)?;
        rules.push(RankedRule {
            instance: r.inst.clone(),
            cert: RuleCert::Nested { steps, bounded },
        });
    }
    Some(Level {
        functions: phases.iter().map(|(l, fs)| (*l, fs[0].clone())).collect(),
        later_phases: (1..depth)
            .map(|i| phases.iter().map(|(l, fs)| (*l, fs[i].clone())).collect())
            .collect(),
        rules,
    })
}
