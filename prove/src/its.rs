//! Integer transition systems (ITS): the model the prover works on.
//!
//! * A **location** has a name and its own ordered integer variables (its arity). Locations of
//!   different arity coexist: a location is a graph node, its variables that node's integers
//!   and sizes (the translation decides).
//! * One location is the **start**; it has no incoming rules (enforced by [`Its::add_rule`]),
//!   so a run is any valuation of the start's variables followed by rule applications.
//! * A **rule** `ℓ(x̄) → ℓ'(ē) [φ]` sees the variables of `ℓ` as `Var(0)..Var(n-1)` and its
//!   *temporaries* (fresh, nondeterministic integers chosen anew at each application) as
//!   `Var(n)..Var(n+k-1)`. `ē` has one linear expression per variable of `ℓ'`, with integer
//!   coefficients. The guard `φ` is a conjunction of linear constraints (`≤ < = ≠`, canonical
//!   integer form).
//!
//! All variables range over the mathematical integers. Non-linear terms are not representable:
//! whoever builds an ITS replaces them by temporaries (an over-approximation).
//!
//! The evaluation API ([`Its::step`]) computes one application of a rule on concrete integers;
//! the JVM cross-check maps concrete runs onto ITS runs with it.

use crate::linexpr::{Constraint, LinExpr, Rel, Var};
use crate::q::Q;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Index of a location in [`Its::locations`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LocId(pub u32);

/// Index of a rule in [`Its::rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RuleId(pub u32);

impl LocId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl RuleId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub name: String,
    /// Names of the location's variables, in order.
    pub vars: Vec<String>,
}

impl Location {
    pub fn arity(&self) -> usize {
        self.vars.len()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    pub from: LocId,
    pub to: LocId,
    /// Names of the temporaries; temporary `i` is `Var(arity(from) + i)`.
    pub temps: Vec<String>,
    /// The new values of `to`'s variables.
    pub args: Vec<LinExpr>,
    /// A conjunction.
    pub guard: Vec<Constraint>,
}

impl Rule {
    /// Number of variables a rule's expressions may mention: `from`'s and the temporaries.
    pub fn var_count(&self, its: &Its) -> usize {
        its.location(self.from).arity() + self.temps.len()
    }

    /// Number of `≠` constraints of the guard (each has two sides a proof may split on).
    pub fn ne_count(&self) -> usize {
        self.guard.iter().filter(|c| c.rel == Rel::Ne).count()
    }
}

/// What is wrong with an ITS under construction or with an evaluation request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ItsError {
    #[error("invalid name {0:?}: names are [A-Za-z_][A-Za-z0-9_]* and not a reserved word")]
    BadName(String),
    #[error("location {0:?} declared twice")]
    DuplicateLocation(String),
    #[error("variable {var:?} declared twice in {scope}")]
    DuplicateVariable { var: String, scope: String },
    #[error("unknown location {0:?}")]
    UnknownLocation(String),
    #[error("rule {rule}: {what}")]
    BadRule { rule: String, what: String },
    #[error("the start location {0:?} must have no incoming rules")]
    StartHasIncoming(String),
    #[error("{what}: expected {expected} values, got {got}")]
    Arity {
        what: String,
        expected: usize,
        got: usize,
    },
}

/// Words no location or variable may be named, so both exchange formats can print every ITS.
pub(crate) const RESERVED: &[&str] = &[
    "and",
    "or",
    "not",
    "xor",
    "ite",
    "distinct",
    "true",
    "false",
    "div",
    "mod",
    "abs",
    "rule",
    "fun",
    "format",
    "theory",
    "entrypoint",
    "sort",
    "Int",
    "Bool",
    "GOAL",
    "STARTTERM",
    "FUNCTIONSYMBOLS",
    "VAR",
    "RULES",
    "COMPLEXITY",
    "TERMINATION",
    "Com_1",
    "let",
    "forall",
    "exists",
    "_",
];

/// Whether `s` may name a location or variable.
pub(crate) fn valid_name(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&s)
}

/// An integer transition system. Build it with [`Its::new`], [`Its::add_location`] and
/// [`Its::add_rule`]; every method keeps it well-formed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Its {
    locations: Vec<Location>,
    rules: Vec<Rule>,
    start: LocId,
}

impl Its {
    /// A new ITS whose start location is `start(vars…)`.
    pub fn new(start: &str, vars: &[&str]) -> Result<Its, ItsError> {
        let mut its = Its {
            locations: Vec::new(),
            rules: Vec::new(),
            start: LocId(0),
        };
        its.add_location(start, vars)?;
        Ok(its)
    }

    pub fn start(&self) -> LocId {
        self.start
    }

    pub fn locations(&self) -> &[Location] {
        &self.locations
    }

    pub fn location(&self, l: LocId) -> &Location {
        &self.locations[l.index()]
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn rule(&self, r: RuleId) -> &Rule {
        &self.rules[r.index()]
    }

    pub fn rule_ids(&self) -> impl Iterator<Item = RuleId> {
        (0..self.rules.len() as u32).map(RuleId)
    }

    pub fn location_by_name(&self, name: &str) -> Option<LocId> {
        self.locations
            .iter()
            .position(|l| l.name == name)
            .map(|i| LocId(i as u32))
    }

    /// Adds a location with the given variable names.
    pub fn add_location(&mut self, name: &str, vars: &[&str]) -> Result<LocId, ItsError> {
        if !valid_name(name) {
            return Err(ItsError::BadName(name.to_string()));
        }
        if self.location_by_name(name).is_some() {
            return Err(ItsError::DuplicateLocation(name.to_string()));
        }
        check_names(vars.iter().copied(), &format!("location {name}"))?;
        self.locations.push(Location {
            name: name.to_string(),
            vars: vars.iter().map(|s| s.to_string()).collect(),
        });
        Ok(LocId(self.locations.len() as u32 - 1))
    }

    /// Adds a rule after checking it: known locations, not into the start, one argument per
    /// variable of the target, integer update coefficients, only variables of the source and
    /// the temporaries mentioned, temporaries named apart from the source's variables.
    pub fn add_rule(&mut self, rule: Rule) -> Result<RuleId, ItsError> {
        self.check_rule(&rule)?;
        self.rules.push(rule);
        Ok(RuleId(self.rules.len() as u32 - 1))
    }

    fn check_rule(&self, rule: &Rule) -> Result<(), ItsError> {
        let n = self.locations.len() as u32;
        if rule.from.0 >= n || rule.to.0 >= n {
            return Err(ItsError::UnknownLocation(format!(
                "#{}",
                rule.from.0.max(rule.to.0)
            )));
        }
        let from = self.location(rule.from);
        let to = self.location(rule.to);
        let label = format!("{} -> {}", from.name, to.name);
        let bad = |what: String| ItsError::BadRule {
            rule: label.clone(),
            what,
        };
        if rule.to == self.start {
            return Err(ItsError::StartHasIncoming(to.name.clone()));
        }
        if rule.args.len() != to.arity() {
            return Err(bad(format!(
                "{} arguments for {} of arity {}",
                rule.args.len(),
                to.name,
                to.arity()
            )));
        }
        check_names(
            from.vars.iter().chain(&rule.temps).map(String::as_str),
            &format!("rule {label}"),
        )?;
        let nv = from.arity() + rule.temps.len();
        let out_of_scope = |e: &LinExpr| e.vars().any(|v| v.index() >= nv);
        for (i, a) in rule.args.iter().enumerate() {
            if out_of_scope(a) {
                return Err(bad(format!("argument {i} mentions an undeclared variable")));
            }
            if !a.is_integral() {
                return Err(bad(format!("argument {i} has a non-integer coefficient")));
            }
        }
        for c in &rule.guard {
            if out_of_scope(&c.expr) {
                return Err(bad("guard mentions an undeclared variable".to_string()));
            }
        }
        Ok(())
    }

    /// Name of variable `v` in the scope of rule `r`.
    pub fn var_name(&self, r: &Rule, v: Var) -> String {
        let from = self.location(r.from);
        let i = v.index();
        if i < from.arity() {
            from.vars[i].clone()
        } else {
            r.temps
                .get(i - from.arity())
                .cloned()
                .unwrap_or_else(|| format!("_v{i}"))
        }
    }

    /// Rules leaving each location, in rule order.
    pub fn outgoing(&self) -> BTreeMap<LocId, Vec<RuleId>> {
        let mut m: BTreeMap<LocId, Vec<RuleId>> = BTreeMap::new();
        for id in self.rule_ids() {
            m.entry(self.rule(id).from).or_default().push(id);
        }
        m
    }

    /// One application of rule `r` to the values `args` of its source's variables with the
    /// temporaries set to `temps`: `Ok(None)` if the guard does not hold, else the values of
    /// the target's variables. Exact (big integers), never wraps.
    pub fn step(
        &self,
        r: RuleId,
        args: &[BigInt],
        temps: &[BigInt],
    ) -> Result<Option<Vec<BigInt>>, ItsError> {
        let rule = self.rule(r);
        let from = self.location(rule.from);
        if args.len() != from.arity() {
            return Err(ItsError::Arity {
                what: format!("values of {}", from.name),
                expected: from.arity(),
                got: args.len(),
            });
        }
        if temps.len() != rule.temps.len() {
            return Err(ItsError::Arity {
                what: format!("temporaries of rule {}", r.0),
                expected: rule.temps.len(),
                got: temps.len(),
            });
        }
        let vals: Vec<Q> = args.iter().chain(temps).map(Q::from).collect();
        let val = |v: Var| vals.get(v.index()).cloned();
        for c in &rule.guard {
            if c.holds(&val) != Some(true) {
                return Ok(None);
            }
        }
        let out = rule
            .args
            .iter()
            .map(|e| {
                e.eval(&val)
                    .and_then(|q| q.to_integer())
                    .expect("checked by add_rule: integral, in scope")
            })
            .collect();
        Ok(Some(out))
    }

    /// The rule written as `f(x, y) -> g(x - 1, y) :|: x > 0` (KoAT-like, for messages).
    pub fn display_rule(&self, r: RuleId) -> String {
        let rule = self.rule(r);
        let from = self.location(rule.from);
        let to = self.location(rule.to);
        let name = |v: Var| self.var_name(rule, v);
        let args: Vec<String> = rule.args.iter().map(|e| e.display_with(&name)).collect();
        let mut s = format!(
            "{}({}) -> {}({})",
            from.name,
            from.vars.join(", "),
            to.name,
            args.join(", ")
        );
        if !rule.guard.is_empty() {
            let g: Vec<String> = rule.guard.iter().map(|c| c.display_with(&name)).collect();
            s.push_str(" :|: ");
            s.push_str(&g.join(" && "));
        }
        s
    }
}

fn check_names<'a>(names: impl Iterator<Item = &'a str>, scope: &str) -> Result<(), ItsError> {
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        if !valid_name(n) {
            return Err(ItsError::BadName(n.to_string()));
        }
        if !seen.insert(n) {
            return Err(ItsError::DuplicateVariable {
                var: n.to_string(),
                scope: scope.to_string(),
            });
        }
    }
    Ok(())
}

impl fmt::Display for Its {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.location(self.start);
        writeln!(f, "start {}({})", s.name, s.vars.join(", "))?;
        for r in self.rule_ids() {
            writeln!(f, "{}", self.display_rule(r))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn countdown() -> Its {
        let mut its = Its::new("start", &["x"]).unwrap();
        let f = its.add_location("f", &["x"]).unwrap();
        let x = LinExpr::var(Var(0));
        its.add_rule(Rule {
            from: its.start(),
            to: f,
            temps: vec![],
            args: vec![x.clone()],
            guard: vec![],
        })
        .unwrap();
        its.add_rule(Rule {
            from: f,
            to: f,
            temps: vec![],
            args: vec![x.minus(&LinExpr::constant(1))],
            guard: vec![Constraint::gt(&x, &LinExpr::zero())],
        })
        .unwrap();
        its
    }

    #[test]
    fn step_evaluates_guard_and_update() {
        let its = countdown();
        let r = RuleId(1);
        assert_eq!(
            its.step(r, &[BigInt::from(3)], &[]).unwrap(),
            Some(vec![BigInt::from(2)])
        );
        assert_eq!(its.step(r, &[BigInt::from(0)], &[]).unwrap(), None);
        assert!(its.step(r, &[], &[]).is_err());
        assert_eq!(its.display_rule(r), "f(x) -> f(x - 1) :|: 0 < x");
    }

    #[test]
    fn ill_formed_rules_are_refused() {
        let mut its = countdown();
        let f = its.location_by_name("f").unwrap();
        let into_start = Rule {
            from: f,
            to: its.start(),
            temps: vec![],
            args: vec![LinExpr::zero()],
            guard: vec![],
        };
        assert!(matches!(
            its.add_rule(into_start),
            Err(ItsError::StartHasIncoming(_))
        ));
        let half = Rule {
            from: f,
            to: f,
            temps: vec![],
            args: vec![LinExpr::term(Var(0), Q::frac(1, 2))],
            guard: vec![],
        };
        assert!(matches!(its.add_rule(half), Err(ItsError::BadRule { .. })));
        let stray = Rule {
            from: f,
            to: f,
            temps: vec![],
            args: vec![LinExpr::var(Var(1))],
            guard: vec![],
        };
        assert!(matches!(its.add_rule(stray), Err(ItsError::BadRule { .. })));
        assert!(its.add_location("and", &[]).is_err());
        assert!(its.add_location("g", &["x", "x"]).is_err());
    }
}
