//! Certificates broken on purpose (`jtg prove --break-certificate KIND`), to show that the
//! cross-check ([`crate::crosscheck`]) catches a wrong export or a wrong proof.

use crate::from_graph::{Encoding, Quantity};
use crate::BreakKind;
use jtg_prove::{Certificate, LinExpr, Proof};
use std::collections::BTreeSet;

/// Breaks the ITS or the certificate on purpose (`--break-certificate`).
pub(crate) fn break_certificate(enc: &mut Encoding, proof: &mut Proof, kind: BreakKind) {
    match kind {
        BreakKind::Guard => {
            // the first rule with a guard on a cycle: flip its first constraint
            let its = &enc.its;
            let target = its.rule_ids().find(|r| {
                let rule = its.rule(*r);
                !rule.guard.is_empty() && rule.from != its.start()
            });
            if let Some(r) = target {
                let mut rules: Vec<jtg_prove::Rule> = its.rules().to_vec();
                let g = &mut rules[r.index()].guard[0];
                *g = flip(g);
                enc.its = with_rules(its, rules);
            }
        }
        BreakKind::Dist => {
            let its = &enc.its;
            let target = its.rule_ids().find_map(|r| {
                let rule = its.rule(r);
                if rule.from == its.start() {
                    return None;
                }
                enc.loc_vars[rule.to.index()]
                    .iter()
                    .position(|q| matches!(q, Quantity::Dist(..)))
                    .map(|k| (r, k))
            });
            if let Some((r, k)) = target {
                let mut rules: Vec<jtg_prove::Rule> = its.rules().to_vec();
                let arg = &mut rules[r.index()].args[k];
                *arg = arg.plus(&LinExpr::constant(jtg_prove::Q::one()));
                enc.its = with_rules(its, rules);
            }
        }
        BreakKind::Chain => {
            // every pair of adjacent instances on a cycle, claimed never to follow each other
            if let Certificate::Termination(cert) = &mut proof.certificate {
                let its = &enc.its;
                let on_cycle: Vec<&jtg_prove::RuleInstance> = cert
                    .sccs
                    .iter()
                    .flat_map(|s| s.levels.iter())
                    .flat_map(|l| l.rules.iter().map(|r| &r.instance))
                    .collect();
                let mut bogus = Vec::new();
                for a in &on_cycle {
                    for b in &on_cycle {
                        if its.rule(a.rule).to == its.rule(b.rule).from {
                            bogus.push(jtg_prove::InfeasibleChain {
                                first: (*a).clone(),
                                second: (*b).clone(),
                                cert: jtg_prove::Farkas {
                                    multipliers: vec![],
                                },
                            });
                        }
                    }
                }
                cert.chains.extend(bogus);
            }
        }
        BreakKind::Invariant => {
            // the first bound of the first invariant on a cycle (runs meet it every lap),
            // negated
            if let Certificate::Termination(cert) = &mut proof.certificate {
                let on_cycle: BTreeSet<jtg_prove::LocId> = cert
                    .sccs
                    .iter()
                    .flat_map(|s| s.locations.iter().copied())
                    .collect();
                if let Some(b) = cert
                    .invariants
                    .locations
                    .iter_mut()
                    .find(|l| on_cycle.contains(&l.location))
                    .and_then(|l| l.bounds.first_mut())
                {
                    *b = flip(b);
                }
            }
        }
        BreakKind::Rank => {
            if let Certificate::Termination(cert) = &mut proof.certificate {
                if let Some(level) = cert
                    .sccs
                    .iter_mut()
                    .flat_map(|s| s.levels.iter_mut())
                    .next()
                {
                    for (_, f) in level.functions.iter_mut() {
                        *f = LinExpr::zero().minus(f);
                    }
                }
            }
        }
    }
}

/// `its` with its rules replaced by `rules` (same locations, same shapes).
fn with_rules(its: &jtg_prove::Its, rules: Vec<jtg_prove::Rule>) -> jtg_prove::Its {
    let start = its.location(its.start());
    let vars: Vec<&str> = start.vars.iter().map(String::as_str).collect();
    let mut rebuilt = jtg_prove::Its::new(&start.name, &vars).expect("same start");
    for l in &its.locations()[1..] {
        let vs: Vec<&str> = l.vars.iter().map(String::as_str).collect();
        rebuilt.add_location(&l.name, &vs).expect("same locations");
    }
    for rule in rules {
        rebuilt.add_rule(rule).expect("same shape");
    }
    rebuilt
}

fn flip(c: &jtg_prove::Constraint) -> jtg_prove::Constraint {
    use jtg_prove::Rel;
    let neg = LinExpr::zero().minus(&c.expr);
    match c.rel {
        // ¬(e ≤ 0) is −e < 0; ¬(e < 0) is −e ≤ 0
        Rel::Le => jtg_prove::Constraint::new(neg, Rel::Lt),
        Rel::Lt => jtg_prove::Constraint::new(neg, Rel::Le),
        Rel::Eq => jtg_prove::Constraint::new(c.expr.clone(), Rel::Ne),
        Rel::Ne => jtg_prove::Constraint::new(c.expr.clone(), Rel::Eq),
    }
}
