//! Certificates of *closed* recurrent sets (issue #34): a set per location of an SCC, closed
//! under every rule that leaves those locations and covered by them, with congruences
//! (`e ≡ 0 mod k`) besides linear constraints. Checked by `verify_closed`.
//!
//! Why such a set proves non-termination: from every point of `S_ℓ` some rule is enabled
//! (`cover`), and every rule enabled there, whatever its temporaries, leads into `S_ℓ'`
//! (`steps`); rules to locations without a set are disabled. So every run from a point of a
//! set stays in the sets and never blocks — it is infinite — and the prefix reaches one.
//! Unlike a cycle's recurrent set (`cert::RecurrentSet`) the run may take different rules at
//! different visits: under Java ints a loop's counter takes the no-wrap rule and, once in
//! 2³² steps, the wrap rule (`i = MAX` gives `i + 1 − 2³² = MIN`).

use crate::cert::big_serde;
use crate::farkas::{Farkas, RuleInstance};
use crate::its::{LocId, RuleId};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::q::Q;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

/// `expr ≡ 0 (mod modulus)`: `expr` has integer coefficients, `modulus` is an integer ≥ 2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Congruence {
    pub expr: LinExpr,
    pub modulus: Q,
}

impl Congruence {
    /// Whether the integer point `vals` satisfies it.
    pub fn holds(&self, vals: &[BigInt]) -> bool {
        let Some(v) = self.expr.eval_ints(vals) else {
            return false;
        };
        let (Some(v), Some(k)) = (v.to_integer(), self.modulus.to_integer()) else {
            return false;
        };
        k >= BigInt::from(2) && (v % &k) == BigInt::from(0)
    }

    pub fn display_with(&self, name: &dyn Fn(Var) -> String) -> String {
        // `x − 1 ≡ 0 mod 2` reads better as `x ≡ 1 mod 2`
        let mut lhs = self.expr.clone();
        let c = lhs.constant.clone();
        lhs.constant = Q::zero();
        let k = self.modulus.to_integer().unwrap_or_default();
        let r = (-c).to_integer().unwrap_or_default();
        let r = ((r % &k) + &k) % &k;
        format!("{} ≡ {r} (mod {k})", lhs.display_with(name))
    }
}

/// Proof that a conjunction of rows has no *integer* point.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IntProof {
    /// No rational point: Farkas multipliers (`λ·A = 0`, `λ·b < 0`).
    Rational(Farkas),
    /// The rows bound the linear part `a·x` of congruence `congruence` (`a·x + c ≡ 0 mod k`)
    /// to `[lo, hi]` (two Farkas implications), and no integer of `[lo, hi]` has
    /// `v + c ≡ 0 mod k`: `x = 0` against `x ≡ 1 mod 2`.
    Residue {
        congruence: usize,
        lo: Q,
        lo_proof: Farkas,
        hi: Q,
        hi_proof: Farkas,
    },
}

/// Why a congruence `a'·y + c' ≡ 0 mod k'` of the target holds after a rule: with `y = ē(x̄, t̄)`,
/// `a'·ē + c' − Σ λ_j·P_j − Σ ν_i·E_i` has every coefficient and its constant divisible by
/// `k'`, where `P_j` are congruences of the source's set whose modulus `k'` divides, `E_i`
/// equalities of the guard, and `λ`, `ν` integers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CongruenceStep {
    pub premises: Vec<(usize, Q)>,
    pub equalities: Vec<(usize, Q)>,
}

/// What happens to a set under one rule instance out of its location.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepProof {
    /// No point of the set (with the guard) has an integer solution: the rule never fires.
    Disabled(IntProof),
    /// Every successor lies in the target's set: one Farkas implication per row of its
    /// linear constraints (equalities as two rows; rows: the source's set, then the guard),
    /// one [`CongruenceStep`] per congruence.
    Closed {
        linear: Vec<Farkas>,
        congruences: Vec<CongruenceStep>,
    },
}

/// A rule instance used to cover a set: its temporaries are functions of the location's
/// variables (`temps[j]`, each fixed by an equality of the guard with coefficient ±1 on the
/// temporary), and per guard constraint, with them substituted, either a proof that the set
/// implies it (`Some`: one Farkas per row, two for an equality, none for a true constant)
/// or `None`: open.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoverRule {
    pub instance: RuleInstance,
    pub temps: Vec<LinExpr>,
    pub implied: Vec<Option<Vec<Farkas>>>,
}

/// The set of one location and the proof that it is covered: every choice of one negated
/// open constraint per cover rule (in order; an open `e = 0` negates to `e < 0` then
/// `e > 0`) contradicts the set, `cases` in the order of that product (the last rule's
/// choice varying fastest).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocSet {
    pub location: LocId,
    pub constraints: Vec<Constraint>,
    pub congruences: Vec<Congruence>,
    pub cover: Vec<CoverRule>,
    pub cases: Vec<IntProof>,
}

impl LocSet {
    /// Whether the integer point `vals` lies in the set.
    pub fn contains(&self, vals: &[BigInt]) -> bool {
        crate::cert::in_set(&self.constraints, vals)
            && self.congruences.iter().all(|c| c.holds(vals))
    }
}

/// A closed recurrent set (module docs) and a run from the start into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClosedRecurrentSet {
    pub sets: Vec<LocSet>,
    /// Every instance of every rule leaving a location of `sets`, with its proof.
    pub steps: Vec<(RuleInstance, StepProof)>,
    /// The location the prefix reaches.
    pub head: LocId,
    pub prefix: Vec<RuleId>,
    #[serde(with = "big_serde::vec")]
    pub start_values: Vec<BigInt>,
    #[serde(with = "big_serde::vec_vec")]
    pub prefix_temps: Vec<Vec<BigInt>>,
    #[serde(with = "big_serde::vec")]
    pub witness: Vec<BigInt>,
}

impl ClosedRecurrentSet {
    /// The set at `l`, if it has one.
    pub fn set(&self, l: LocId) -> Option<&LocSet> {
        self.sets.iter().find(|s| s.location == l)
    }
}
