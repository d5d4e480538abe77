//! Linear expressions and linear constraints over numbered variables.

use crate::q::{gcd_numerators, lcm_denominators, Q};
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A variable of a rule (or of a location): an index into its variable list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Var(pub u32);

impl Var {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// `Σ cᵢ·xᵢ + c₀` with exact rational coefficients; zero coefficients are never stored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct LinExpr {
    /// Coefficients by variable, sorted, none zero.
    pub terms: BTreeMap<Var, Q>,
    pub constant: Q,
}

impl LinExpr {
    pub fn zero() -> LinExpr {
        LinExpr::default()
    }

    pub fn constant(c: impl Into<Q>) -> LinExpr {
        LinExpr {
            terms: BTreeMap::new(),
            constant: c.into(),
        }
    }

    pub fn var(v: Var) -> LinExpr {
        LinExpr::term(v, Q::one())
    }

    pub fn term(v: Var, c: impl Into<Q>) -> LinExpr {
        let mut e = LinExpr::zero();
        e.add_term(v, &c.into());
        e
    }

    pub fn coeff(&self, v: Var) -> Q {
        self.terms.get(&v).cloned().unwrap_or_else(Q::zero)
    }

    pub fn add_term(&mut self, v: Var, c: &Q) {
        if c.is_zero() {
            return;
        }
        let sum = match self.terms.get(&v) {
            Some(old) => old + c,
            None => c.clone(),
        };
        if sum.is_zero() {
            self.terms.remove(&v);
        } else {
            self.terms.insert(v, sum);
        }
    }

    /// `self + k·other`.
    pub fn add_scaled(&mut self, other: &LinExpr, k: &Q) {
        if k.is_zero() {
            return;
        }
        for (v, c) in &other.terms {
            self.add_term(*v, &(c * k));
        }
        self.constant += &(&other.constant * k);
    }

    pub fn plus(&self, other: &LinExpr) -> LinExpr {
        let mut e = self.clone();
        e.add_scaled(other, &Q::one());
        e
    }

    pub fn minus(&self, other: &LinExpr) -> LinExpr {
        let mut e = self.clone();
        e.add_scaled(other, &-Q::one());
        e
    }

    pub fn scaled(&self, k: &Q) -> LinExpr {
        let mut e = LinExpr::zero();
        e.add_scaled(self, k);
        e
    }

    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn vars(&self) -> impl Iterator<Item = Var> + '_ {
        self.terms.keys().copied()
    }

    /// Replaces every variable `v` by `sub(v)`.
    pub fn substitute(&self, sub: &dyn Fn(Var) -> LinExpr) -> LinExpr {
        let mut e = LinExpr::constant(self.constant.clone());
        for (v, c) in &self.terms {
            e.add_scaled(&sub(*v), c);
        }
        e
    }

    /// Renames variables (an injective map keeps the expression's shape).
    pub fn rename(&self, f: &dyn Fn(Var) -> Var) -> LinExpr {
        self.substitute(&|v| LinExpr::var(f(v)))
    }

    /// Value at a point; `None` if some variable has no value.
    pub fn eval(&self, val: &dyn Fn(Var) -> Option<Q>) -> Option<Q> {
        let mut s = self.constant.clone();
        for (v, c) in &self.terms {
            s += &(c * &val(*v)?);
        }
        Some(s)
    }

    /// Value at an integer point given as a slice indexed by variable.
    pub fn eval_ints(&self, vals: &[BigInt]) -> Option<Q> {
        self.eval(&|v| vals.get(v.index()).map(Q::from))
    }

    /// Whether all coefficients and the constant are integers.
    pub fn is_integral(&self) -> bool {
        self.constant.is_integer() && self.terms.values().all(Q::is_integer)
    }

    /// Writes the expression with variable names from `name`, e.g. `2*x - y + 1`.
    pub fn display_with(&self, name: &dyn Fn(Var) -> String) -> String {
        let mut out = String::new();
        for (v, c) in &self.terms {
            let n = name(*v);
            let neg = c.is_negative();
            let a = c.abs();
            if out.is_empty() {
                if neg {
                    out.push('-');
                }
            } else {
                out.push_str(if neg { " - " } else { " + " });
            }
            if a.is_one() {
                out.push_str(&n);
            } else {
                out.push_str(&format!("{a}*{n}"));
            }
        }
        if out.is_empty() {
            return self.constant.to_string();
        }
        if !self.constant.is_zero() {
            let neg = self.constant.is_negative();
            out.push_str(if neg { " - " } else { " + " });
            out.push_str(&self.constant.abs().to_string());
        }
        out
    }
}

/// The relation of a constraint `e ⋈ 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Rel {
    /// `e ≤ 0`
    Le,
    /// `e < 0`
    Lt,
    /// `e = 0`
    Eq,
    /// `e ≠ 0`
    Ne,
}

/// A linear constraint `expr ⋈ 0` in canonical form: integer coefficients with greatest common
/// divisor 1 (constant included), and for `=`/`≠` a positive first coefficient. Canonical forms
/// are equal exactly when the constraints are equal up to a positive (for `=`/`≠` any nonzero)
/// factor, so printing and parsing them back gives the same value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Constraint {
    pub expr: LinExpr,
    pub rel: Rel,
}

impl Constraint {
    pub fn new(expr: LinExpr, rel: Rel) -> Constraint {
        let mut c = Constraint { expr, rel };
        c.canonicalize();
        c
    }

    /// `a ≤ b`
    pub fn le(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(a.minus(b), Rel::Le)
    }
    /// `a < b`
    pub fn lt(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(a.minus(b), Rel::Lt)
    }
    /// `a ≥ b`
    pub fn ge(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(b.minus(a), Rel::Le)
    }
    /// `a > b`
    pub fn gt(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(b.minus(a), Rel::Lt)
    }
    /// `a = b`
    pub fn eq(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(a.minus(b), Rel::Eq)
    }
    /// `a ≠ b`
    pub fn ne(a: &LinExpr, b: &LinExpr) -> Constraint {
        Constraint::new(a.minus(b), Rel::Ne)
    }

    fn canonicalize(&mut self) {
        let all: Vec<Q> = self
            .expr
            .terms
            .values()
            .cloned()
            .chain(std::iter::once(self.expr.constant.clone()))
            .collect();
        let lcm = lcm_denominators(&all);
        let scaled: Vec<Q> = all.iter().map(|q| q * &Q::from(lcm.clone())).collect();
        let g = gcd_numerators(&scaled);
        if num_traits::Zero::is_zero(&g) {
            return;
        }
        let mut k = Q::from(lcm) / Q::from(g);
        if matches!(self.rel, Rel::Eq | Rel::Ne) {
            let first = self
                .expr
                .terms
                .values()
                .next()
                .cloned()
                .unwrap_or_else(|| self.expr.constant.clone());
            if first.is_negative() {
                k = -k;
            }
        }
        self.expr = self.expr.scaled(&k);
    }

    /// Truth value at a point (`None` if a variable has no value).
    pub fn holds(&self, val: &dyn Fn(Var) -> Option<Q>) -> Option<bool> {
        let v = self.expr.eval(val)?;
        Some(match self.rel {
            Rel::Le => !v.is_positive(),
            Rel::Lt => v.is_negative(),
            Rel::Eq => v.is_zero(),
            Rel::Ne => !v.is_zero(),
        })
    }

    /// Renames variables.
    pub fn rename(&self, f: &dyn Fn(Var) -> Var) -> Constraint {
        Constraint::new(self.expr.rename(f), self.rel)
    }

    /// Substitutes expressions for variables.
    pub fn substitute(&self, sub: &dyn Fn(Var) -> LinExpr) -> Constraint {
        Constraint::new(self.expr.substitute(sub), self.rel)
    }

    /// Writes `lhs op rhs` with the positive terms on the left, e.g. `x > y + 1`.
    pub fn display_with(&self, name: &dyn Fn(Var) -> String) -> String {
        let (l, r) = self.sides();
        let op = match self.rel {
            Rel::Le => "<=",
            Rel::Lt => "<",
            Rel::Eq => "=",
            Rel::Ne => "!=",
        };
        format!("{} {op} {}", l.display_with(name), r.display_with(name))
    }

    /// Splits `e ⋈ 0` into `l ⋈ r` with nonnegative coefficients on both sides and the
    /// constant on the side where it is nonnegative.
    pub fn sides(&self) -> (LinExpr, LinExpr) {
        let mut l = LinExpr::zero();
        let mut r = LinExpr::zero();
        for (v, c) in &self.expr.terms {
            if c.is_positive() {
                l.add_term(*v, c);
            } else {
                r.add_term(*v, &-c);
            }
        }
        if self.expr.constant.is_positive() {
            l.constant = self.expr.constant.clone();
        } else {
            r.constant = -&self.expr.constant;
        }
        (l, r)
    }
}

/// A map from variables to values for evaluation.
#[cfg(test)]
pub(crate) fn point(vals: &[BigInt]) -> BTreeMap<Var, Q> {
    vals.iter()
        .enumerate()
        .map(|(i, v)| (Var(i as u32), Q::from(v)))
        .collect()
}

impl fmt::Display for LinExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.display_with(&|v| format!("v{}", v.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> LinExpr {
        LinExpr::var(Var(0))
    }
    fn y() -> LinExpr {
        LinExpr::var(Var(1))
    }

    #[test]
    fn canonical_forms_identify_scaled_constraints() {
        let a = Constraint::le(&x().scaled(&Q::int(4)), &LinExpr::constant(6));
        let b = Constraint::le(&x().scaled(&Q::int(2)), &LinExpr::constant(3));
        assert_eq!(a, b);
        let c = Constraint::eq(&y(), &x());
        let d = Constraint::eq(&x(), &y());
        assert_eq!(c, d);
        let e = Constraint::le(
            &x().scaled(&Q::frac(1, 2)),
            &LinExpr::constant(Q::frac(1, 3)),
        );
        assert_eq!(e.expr.coeff(Var(0)), Q::int(3));
        assert_eq!(e.expr.constant, Q::int(-2));
    }

    #[test]
    fn sides_and_display() {
        let c = Constraint::gt(&x(), &y().plus(&LinExpr::constant(1)));
        let name = |v: Var| ["x", "y"][v.index()].to_string();
        assert_eq!(c.display_with(&name), "y + 1 < x");
        let vals = point(&[BigInt::from(3), BigInt::from(1)]);
        assert_eq!(c.holds(&|v| vals.get(&v).cloned()), Some(true));
        let vals = point(&[BigInt::from(2), BigInt::from(1)]);
        assert_eq!(c.holds(&|v| vals.get(&v).cloned()), Some(false));
    }
}
