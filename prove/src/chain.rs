//! The rule graph: which rule instance can follow which.
//!
//! Two instances `a: ℓ → ℓ'` and `b: ℓ' → ℓ''` *chain* when some values satisfy `a`'s guard and
//! `b`'s guard on `a`'s result (`φ_a(x̄, t̄ₐ) ∧ φ_b(ēₐ(x̄, t̄ₐ), t̄_b)`, the temporaries of both free).
//! Where the composition is unsatisfiable (a Farkas proof, [`refute`]), no run takes `a`
//! directly followed by `b`, and the edge `a → b` leaves the rule graph. An infinite run is an
//! infinite path of the rule graph, so it stays in one of its SCCs from some point on: a loop
//! whose branches cannot alternate (`while (x != y) if (x > y) y++; else x++;`) splits into
//! one SCC per branch, each with its own ranking function, where the location graph has one
//! SCC without a linear ranking function (the rule graph of termination tools: AProVE's
//! "chaining" of rules, Brockschmidt et al.'s *Automated detection of non-termination and
//! NullPointerExceptions for Java Bytecode*, and the SCC splitting of KoAT and T2).

use crate::farkas::{instance_guard, rows_of, Farkas, Row, RuleInstance};
use crate::its::Its;
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::lp::{Limits, LpStats};
use crate::scc::sccs;
use std::collections::{BTreeMap, BTreeSet};

/// The guard of `a` followed by `b`, over `a`'s variables (its source's, then its temporaries)
/// and then `b`'s temporaries: one entry per guard constraint of `a`, then of `b` (a dropped
/// `≠` is `None`). `None` when `b` does not start where `a` ends.
pub(crate) fn composed_guard(
    its: &Its,
    a: &RuleInstance,
    b: &RuleInstance,
) -> Option<(Vec<Option<Constraint>>, usize)> {
    let (ra, rb) = (its.rule(a.rule), its.rule(b.rule));
    if ra.to != rb.from {
        return None;
    }
    let na = ra.var_count(its);
    let arity_b = its.location(rb.from).arity();
    let n = na + rb.temps.len();
    let sub = |v: Var| -> LinExpr {
        if v.index() < arity_b {
            ra.args[v.index()].clone()
        } else {
            LinExpr::var(Var((na + v.index() - arity_b) as u32))
        }
    };
    let mut guard = instance_guard(its, a);
    guard.extend(
        instance_guard(its, b)
            .into_iter()
            .map(|c| c.map(|c| c.substitute(&sub))),
    );
    Some((guard, n))
}

/// Rows of [`composed_guard`], tightened for integers.
pub(crate) fn composed_rows(its: &Its, a: &RuleInstance, b: &RuleInstance) -> Option<Vec<Row>> {
    composed_guard(its, a, b).map(|(g, n)| rows_of(&g, n))
}

/// A Farkas proof that `b` never directly follows `a`, if the LP finds one.
pub(crate) fn refute(
    its: &Its,
    a: &RuleInstance,
    b: &RuleInstance,
    limits: &Limits,
    stats: &mut LpStats,
) -> Option<Farkas> {
    let rows = composed_rows(its, a, b)?;
    crate::farkas::infeasibility(&rows, limits, stats)
}

/// SCCs of the rule graph on `nodes` (instances): an edge `a → b` where `b` starts at `a`'s
/// target and `(a, b)` is not in `cut`. Only components with an edge inside (a cycle) are
/// returned, as positions into `nodes`, each sorted, in order of their smallest position.
pub(crate) fn cyclic_rule_components(
    its: &Its,
    nodes: &[&RuleInstance],
    cut: &BTreeSet<(RuleInstance, RuleInstance)>,
) -> Vec<Vec<usize>> {
    let mut by_source: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (j, b) in nodes.iter().enumerate() {
        by_source
            .entry(its.rule(b.rule).from.index())
            .or_default()
            .push(j);
    }
    let mut edges = Vec::new();
    for (i, a) in nodes.iter().enumerate() {
        let to = its.rule(a.rule).to.index();
        for &j in by_source.get(&to).map(Vec::as_slice).unwrap_or(&[]) {
            if !cut.contains(&((*a).clone(), nodes[j].clone())) {
                edges.push((i, j));
            }
        }
    }
    let comps = sccs(nodes.len(), &edges);
    let mut comp = vec![0; nodes.len()];
    for (c, members) in comps.iter().enumerate() {
        for &m in members {
            comp[m] = c;
        }
    }
    let cyclic: BTreeSet<usize> = edges
        .iter()
        .filter(|(a, b)| comp[*a] == comp[*b])
        .map(|(a, _)| comp[*a])
        .collect();
    comps
        .into_iter()
        .enumerate()
        .filter(|(c, _)| cyclic.contains(c))
        .map(|(_, m)| m)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::{InfeasibleChain, TerminationCertificate};
    use crate::its::Rule;
    use crate::its::RuleId;
    use crate::linexpr::Rel;
    use crate::q::Q;
    use crate::verify::verify_termination;
    use crate::{parse_koat, Farkas};

    /// `a: f(x, y) → g(2x, 2y) [x > y]`, then `b: g(x, y) → f(x, y) [x = y]`: `b`'s guard on `a`'s
    /// result is `2x = 2y`, which the prover's rows write as `x = y`; the verifier must accept the
    /// multipliers for that scale.
    #[test]
    fn a_chain_over_a_scaled_equation_is_accepted() {
        let its = parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
             (RULES start(x, y) -> f(x, y)
                    f(x, y) -> g(2 * x, 2 * y) :|: x > y
                    g(x, y) -> f(x, y) :|: x = y)",
        )
        .unwrap();
        let inst = |r: u32| RuleInstance {
            rule: RuleId(r),
            ne_sides: vec![],
        };
        let (l, mut st) = (Limits::default(), Default::default());
        let f = refute(&its, &inst(1), &inst(2), &l, &mut st).expect("refuted");
        let cert = TerminationCertificate {
            instances: (0..3).map(inst).collect(),
            infeasible: vec![],
            chains: vec![InfeasibleChain {
                first: inst(1),
                second: inst(2),
                cert: f.clone(),
            }],
            sccs: vec![],
            ..TerminationCertificate::default()
        };
        verify_termination(&its, &cert).unwrap();
        // and a wrong one is still refused
        let mut wrong = cert.clone();
        wrong.chains[0].cert = Farkas {
            multipliers: f.multipliers.iter().map(|m| m * &Q::int(3)).collect(),
        };
        wrong.chains[0].cert.multipliers[0] = Q::zero();
        assert!(verify_termination(&its, &wrong).is_err());
    }

    fn v(i: u32) -> LinExpr {
        LinExpr::var(Var(i))
    }

    /// `f(x, y) → f(x, y+1) [x > y]` and `f(x, y) → f(x+1, y) [x < y]`.
    fn alternating() -> Its {
        let mut its = Its::new("start", &["x", "y"]).unwrap();
        let f = its.add_location("f", &["x", "y"]).unwrap();
        its.add_rule(Rule {
            from: its.start(),
            to: f,
            temps: vec![],
            args: vec![v(0), v(1)],
            guard: vec![],
        })
        .unwrap();
        its.add_rule(Rule {
            from: f,
            to: f,
            temps: vec![],
            args: vec![v(0), v(1).plus(&LinExpr::constant(1))],
            guard: vec![Constraint::gt(&v(0), &v(1))],
        })
        .unwrap();
        its.add_rule(Rule {
            from: f,
            to: f,
            temps: vec![],
            args: vec![v(0).plus(&LinExpr::constant(1)), v(1)],
            guard: vec![Constraint::lt(&v(0), &v(1))],
        })
        .unwrap();
        its
    }

    fn inst(r: u32) -> RuleInstance {
        RuleInstance {
            rule: crate::its::RuleId(r),
            ne_sides: vec![],
        }
    }

    #[test]
    fn branches_that_cannot_alternate_are_refuted() {
        let its = alternating();
        let (l, s) = (Limits::default(), &mut LpStats::default());
        assert!(refute(&its, &inst(1), &inst(2), &l, s).is_some());
        assert!(refute(&its, &inst(2), &inst(1), &l, s).is_some());
        assert!(refute(&its, &inst(1), &inst(1), &l, s).is_none());
        assert!(refute(&its, &inst(2), &inst(2), &l, s).is_none());
        // not adjacent: the start rule does not follow a loop rule
        assert!(composed_guard(&its, &inst(1), &inst(0)).is_none());
    }

    #[test]
    fn cut_edges_split_the_components() {
        let its = alternating();
        let (a, b) = (inst(1), inst(2));
        let nodes = [&inst(0), &a, &b];
        let none = BTreeSet::new();
        assert_eq!(
            cyclic_rule_components(&its, &nodes, &none),
            vec![vec![1, 2]]
        );
        let cut: BTreeSet<_> = [(a.clone(), b.clone()), (b.clone(), a.clone())].into();
        assert_eq!(
            cyclic_rule_components(&its, &nodes, &cut),
            vec![vec![1], vec![2]]
        );
        let all: BTreeSet<_> = [(a.clone(), a.clone()), (b.clone(), b.clone())]
            .into_iter()
            .chain(cut)
            .collect();
        assert!(cyclic_rule_components(&its, &nodes, &all).is_empty());
    }

    #[test]
    fn composition_renames_the_second_rules_temporaries() {
        // g(x) → g(t) [t < x] then g(x) → g(x) [x ≥ 5, t2 = x]: t2 is a fresh variable
        let mut its = Its::new("start", &["x"]).unwrap();
        let g = its.add_location("g", &["x"]).unwrap();
        its.add_rule(Rule {
            from: g,
            to: g,
            temps: vec!["t".into()],
            args: vec![v(1)],
            guard: vec![Constraint::lt(&v(1), &v(0))],
        })
        .unwrap();
        its.add_rule(Rule {
            from: g,
            to: g,
            temps: vec!["t2".into()],
            args: vec![v(0)],
            guard: vec![
                Constraint::ge(&v(0), &LinExpr::constant(5)),
                Constraint::eq(&v(1), &v(0)),
            ],
        })
        .unwrap();
        let (guard, n) = composed_guard(&its, &inst(0), &inst(1)).unwrap();
        assert_eq!(n, 3);
        // t < x, then t ≥ 5 and t2 = t
        assert_eq!(guard[1], Some(Constraint::ge(&v(1), &LinExpr::constant(5))));
        assert_eq!(guard[2], Some(Constraint::new(v(2).minus(&v(1)), Rel::Eq)));
    }
}
