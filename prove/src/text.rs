//! What both exchange formats parse into before it becomes an [`Its`]: terms, formulas and
//! rules by name; linearisation, disjunctive normal form, and the construction of the ITS.

use crate::its::{Its, LocId, Rule};
use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::q::Q;
use num_bigint::BigInt;
use std::collections::BTreeMap;

/// A format error: what and where (1-based line of the input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

/// An integer term as written.
#[derive(Clone, Debug)]
pub(crate) enum Term {
    Num(BigInt),
    Var(String),
    Add(Vec<Term>),
    /// `a - b - c …`
    Sub(Vec<Term>),
    Neg(Box<Term>),
    Mul(Vec<Term>),
    /// An operator we do not model (`div`, `mod`, `abs`, `ite`, …), by name.
    Unsupported(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

impl Op {
    fn negate(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
            Op::Ge => Op::Lt,
            Op::Gt => Op::Le,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Formula {
    True,
    False,
    Atom(Term, Op, Term),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
}

/// A rule as written: `from(lhs…) → to(rhs…) [guard]`.
#[derive(Clone, Debug)]
pub(crate) struct RawRule {
    pub line: usize,
    pub from: String,
    /// Left-hand side arguments: variables (or terms, constrained by equalities).
    pub lhs: Vec<Term>,
    pub to: String,
    pub rhs: Vec<Term>,
    pub guard: Formula,
}

/// Most disjuncts a guard may expand to.
const MAX_DISJUNCTS: usize = 64;

fn err<T>(line: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        msg: msg.into(),
    })
}

/// A conjunction of atoms `a op b`.
type Conj = Vec<(Term, Op, Term)>;

/// Disjunctive normal form (lists of atoms); `not` pushed to the atoms.
fn dnf(f: &Formula, neg: bool, line: usize) -> Result<Vec<Conj>, ParseError> {
    Ok(match (f, neg) {
        (Formula::True, false) | (Formula::False, true) => vec![vec![]],
        (Formula::True, true) | (Formula::False, false) => vec![],
        (Formula::Atom(a, op, b), _) => {
            let op = if neg { op.negate() } else { *op };
            vec![vec![(a.clone(), op, b.clone())]]
        }
        (Formula::Not(g), _) => dnf(g, !neg, line)?,
        (Formula::And(fs), false) | (Formula::Or(fs), true) => {
            let mut acc: Vec<Conj> = vec![vec![]];
            for g in fs {
                let d = dnf(g, neg, line)?;
                let mut next = Vec::new();
                for a in &acc {
                    for b in &d {
                        let mut c = a.clone();
                        c.extend(b.iter().cloned());
                        next.push(c);
                    }
                }
                if next.len() > MAX_DISJUNCTS {
                    return err(
                        line,
                        format!("guard has more than {MAX_DISJUNCTS} disjuncts"),
                    );
                }
                acc = next;
            }
            acc
        }
        (Formula::Or(fs), false) | (Formula::And(fs), true) => {
            let mut acc = Vec::new();
            for g in fs {
                acc.extend(dnf(g, neg, line)?);
                if acc.len() > MAX_DISJUNCTS {
                    return err(
                        line,
                        format!("guard has more than {MAX_DISJUNCTS} disjuncts"),
                    );
                }
            }
            acc
        }
    })
}

/// A term as a linear expression; variables resolved by `var`.
fn linear(t: &Term, var: &mut dyn FnMut(&str) -> Var, line: usize) -> Result<LinExpr, ParseError> {
    Ok(match t {
        Term::Num(n) => LinExpr::constant(Q::from(n.clone())),
        Term::Var(v) => LinExpr::var(var(v)),
        Term::Add(ts) => {
            let mut e = LinExpr::zero();
            for t in ts {
                e = e.plus(&linear(t, var, line)?);
            }
            e
        }
        Term::Sub(ts) => {
            let mut e = linear(&ts[0], var, line)?;
            for t in &ts[1..] {
                e = e.minus(&linear(t, var, line)?);
            }
            e
        }
        Term::Neg(t) => linear(t, var, line)?.scaled(&-Q::one()),
        Term::Mul(ts) => {
            let mut e = LinExpr::constant(1);
            for t in ts {
                let f = linear(t, var, line)?;
                if e.is_constant() {
                    e = f.scaled(&e.constant);
                } else if f.is_constant() {
                    e = e.scaled(&f.constant);
                } else {
                    return err(line, "non-linear term (a product of variables): not representable in an ITS; replace it by a fresh variable");
                }
            }
            e
        }
        Term::Unsupported(op) => {
            return err(
                line,
                format!("unsupported operator {op:?}: only +, -, * (by constants) are linear"),
            );
        }
    })
}

/// Builds the ITS: locations in the order of `order` (the start first; a fresh start is added
/// when the given one has incoming rules), variables named after the first rule leaving each
/// location (`x1…` for locations no rule leaves), one rule per disjunct of each guard.
pub(crate) fn build(
    start: &str,
    order: &[(String, usize)],
    rules: &[RawRule],
) -> Result<Its, ParseError> {
    let arity: BTreeMap<&str, usize> = order.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let Some(&start_arity) = arity.get(start) else {
        return err(0, format!("unknown start symbol {start:?}"));
    };
    for r in rules {
        for (name, n) in [(&r.from, r.lhs.len()), (&r.to, r.rhs.len())] {
            match arity.get(name.as_str()) {
                None => return err(r.line, format!("undeclared symbol {name:?}")),
                Some(&a) if a != n => {
                    return err(
                        r.line,
                        format!("{name} has arity {a} but is applied to {n} arguments"),
                    )
                }
                _ => {}
            }
        }
    }
    // Variable names of each location: from its first rule with plain distinct variables.
    let mut names: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for r in rules {
        if names.contains_key(r.from.as_str()) {
            continue;
        }
        let vs: Vec<String> = r
            .lhs
            .iter()
            .filter_map(|t| match t {
                Term::Var(v) => Some(v.clone()),
                _ => None,
            })
            .collect();
        let distinct = vs.len() == r.lhs.len()
            && vs.iter().collect::<std::collections::BTreeSet<_>>().len() == vs.len()
            && vs.iter().all(|v| crate::its::valid_name(v));
        if distinct {
            names.insert(r.from.as_str(), vs);
        }
    }
    let default = |n: usize| -> Vec<String> { (1..=n).map(|i| format!("x{i}")).collect() };
    let var_names = |loc: &str| {
        names
            .get(loc)
            .cloned()
            .unwrap_or_else(|| default(arity[loc]))
    };
    let start_has_incoming = rules.iter().any(|r| r.to == start);
    let mut its;
    let mut ids: BTreeMap<&str, LocId> = BTreeMap::new();
    let e = |m: crate::its::ItsError| ParseError {
        line: 0,
        msg: m.to_string(),
    };
    if start_has_incoming {
        let mut fresh = format!("{start}_start");
        while arity.contains_key(fresh.as_str()) {
            fresh.push('_');
        }
        let vs = var_names(start);
        let refs: Vec<&str> = vs.iter().map(String::as_str).collect();
        its = Its::new(&fresh, &refs).map_err(e)?;
    } else {
        let vs = var_names(start);
        let refs: Vec<&str> = vs.iter().map(String::as_str).collect();
        its = Its::new(start, &refs).map_err(e)?;
        ids.insert(start, its.start());
    }
    for (name, _) in order {
        if ids.contains_key(name.as_str()) {
            continue;
        }
        let vs = var_names(name);
        let refs: Vec<&str> = vs.iter().map(String::as_str).collect();
        let id = its.add_location(name, &refs).map_err(e)?;
        ids.insert(name.as_str(), id);
    }
    if start_has_incoming {
        let args = (0..start_arity)
            .map(|i| LinExpr::var(Var(i as u32)))
            .collect();
        its.add_rule(Rule {
            from: its.start(),
            to: ids[start],
            temps: vec![],
            args,
            guard: vec![],
        })
        .map_err(e)?;
    }
    for r in rules {
        add_raw_rule(&mut its, &ids, r)?;
    }
    Ok(its)
}

fn add_raw_rule(its: &mut Its, ids: &BTreeMap<&str, LocId>, r: &RawRule) -> Result<(), ParseError> {
    let from = ids[r.from.as_str()];
    let to = ids[r.to.as_str()];
    let loc_vars = its.location(from).vars.clone();
    let arity = loc_vars.len();
    // Rule-local names: lhs variables map to the location's positions; the rest are temporaries.
    let mut local: BTreeMap<String, Var> = BTreeMap::new();
    let mut temps: Vec<String> = Vec::new();
    let mut extra: Vec<(Var, Term)> = Vec::new();
    for (i, t) in r.lhs.iter().enumerate() {
        match t {
            Term::Var(v) if !local.contains_key(v) => {
                local.insert(v.clone(), Var(i as u32));
            }
            other => extra.push((Var(i as u32), other.clone())),
        }
    }
    let fresh_temp = |name: &str, temps: &mut Vec<String>| -> Var {
        let mut n = if crate::its::valid_name(name) {
            name.to_string()
        } else {
            "t".to_string()
        };
        while loc_vars.contains(&n) || temps.contains(&n) {
            n.push('_');
        }
        temps.push(n);
        Var((arity + temps.len() - 1) as u32)
    };
    let mut resolve = |name: &str| -> Var {
        if let Some(v) = local.get(name) {
            return *v;
        }
        let v = fresh_temp(name, &mut temps);
        local.insert(name.to_string(), v);
        v
    };
    let mut args = Vec::new();
    for t in &r.rhs {
        args.push(linear(t, &mut resolve, r.line)?);
    }
    let mut base: Vec<Constraint> = Vec::new();
    for (v, t) in &extra {
        let e = linear(t, &mut resolve, r.line)?;
        base.push(Constraint::eq(&LinExpr::var(*v), &e));
    }
    let mut disjuncts = Vec::new();
    for conj in dnf(&r.guard, false, r.line)? {
        let mut g = base.clone();
        for (a, op, b) in conj {
            let (a, b) = (
                linear(&a, &mut resolve, r.line)?,
                linear(&b, &mut resolve, r.line)?,
            );
            let c = match op {
                Op::Lt => Constraint::lt(&a, &b),
                Op::Le => Constraint::le(&a, &b),
                Op::Eq => Constraint::eq(&a, &b),
                Op::Ne => Constraint::ne(&a, &b),
                Op::Ge => Constraint::ge(&a, &b),
                Op::Gt => Constraint::gt(&a, &b),
            };
            g.push(c);
        }
        disjuncts.push(g);
    }
    for guard in disjuncts {
        its.add_rule(Rule {
            from,
            to,
            temps: temps.clone(),
            args: args.clone(),
            guard,
        })
        .map_err(|m| ParseError {
            line: r.line,
            msg: m.to_string(),
        })?;
    }
    Ok(())
}

/// Relation symbol of a constraint for printing, with its sides (`l op r`).
pub(crate) fn relation(c: &Constraint) -> (&'static str, LinExpr, LinExpr) {
    let (l, r) = c.sides();
    let op = match c.rel {
        Rel::Le => "<=",
        Rel::Lt => "<",
        Rel::Eq => "=",
        Rel::Ne => "!=",
    };
    (op, l, r)
}
