//! Certificates: what a YES or NO verdict rests on. Serializable, checked by `verify`.

use crate::farkas::{Farkas, RuleInstance};
use crate::invariant::Invariants;
use crate::its::{Its, LocId, RuleId};
use crate::linexpr::{Constraint, LinExpr, Var};
use crate::q::Q;
use crate::refine::Split;
use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

/// How a ranking function treats one rule instance of its level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleCert {
    /// `guard ⇒ f_ℓ(x̄) − f_ℓ'(ē) ≥ 0`
    Weak { decrease: Farkas },
    /// `guard ⇒ f_ℓ(x̄) − f_ℓ'(ē) ≥ 1` and `guard ⇒ f_ℓ(x̄) ≥ 0`: the rule is removed.
    Strict { decrease: Farkas, bounded: Farkas },
    /// A rule of a nested level (`nested.rs`, phases `f₁ … f_d`): `steps[0]` proves
    /// `guard ⇒ f₁(x̄) − f₁(ē) ≥ 1`, `steps[i]` proves `guard ⇒ f_i(x̄) + f_{i+1}(x̄) −
    /// f_{i+1}(ē) ≥ 1`, `bounded` proves `guard ⇒ f_d(x̄) ≥ 0`: the rule is removed.
    Nested { steps: Vec<Farkas>, bounded: Farkas },
}

impl RuleCert {
    /// Whether the level removes the rule.
    pub fn is_strict(&self) -> bool {
        matches!(self, RuleCert::Strict { .. } | RuleCert::Nested { .. })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankedRule {
    pub instance: RuleInstance,
    pub cert: RuleCert,
}

/// One component of a lexicographic ranking function: an affine function per location, over
/// that location's variables, non-increasing on every rule of `rules` and strictly decreasing
/// and bounded on the strict ones. `rules` is a union of SCCs of the rules not yet removed.
/// A *nested* level (`later_phases` not empty: `functions` is `f₁`, `later_phases[i]` is
/// `f_{i+2}`) has only `Nested` rules and removes them all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    pub functions: Vec<(LocId, LinExpr)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub later_phases: Vec<Vec<(LocId, LinExpr)>>,
    pub rules: Vec<RankedRule>,
}

impl Level {
    pub fn function(&self, l: LocId) -> Option<&LinExpr> {
        self.functions.iter().find(|(m, _)| *m == l).map(|(_, f)| f)
    }

    /// The phases `f₁ … f_d` at `l` (one for a lexicographic level), if every one has a
    /// function there.
    pub fn phases(&self, l: LocId) -> Option<Vec<&LinExpr>> {
        std::iter::once(&self.functions)
            .chain(&self.later_phases)
            .map(|fs| fs.iter().find(|(m, _)| *m == l).map(|(_, f)| f))
            .collect()
    }

    /// The rule instances this level removes.
    pub fn removed(&self) -> impl Iterator<Item = &RuleInstance> {
        self.rules
            .iter()
            .filter(|r| r.cert.is_strict())
            .map(|r| &r.instance)
    }
}

/// The lexicographic ranking function of one SCC of the ITS (levels in order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SccProof {
    pub locations: Vec<LocId>,
    pub levels: Vec<Level>,
}

/// A rule instance whose guard is unsatisfiable, with the Farkas proof (`λ·A = 0, λ·b < 0`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfeasibleRule {
    pub instance: RuleInstance,
    pub cert: Farkas,
}

/// Two rule instances that never run one directly after the other: `first`'s guard and
/// `second`'s guard on `first`'s result are unsatisfiable together (`chain::composed_guard`;
/// Farkas multipliers over `first`'s rows, then `second`'s). The edge leaves the rule graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InfeasibleChain {
    pub first: RuleInstance,
    pub second: RuleInstance,
    pub cert: Farkas,
}

/// Proof of termination: every rule instance of the ITS is listed; infeasible ones are
/// removed first, then the SCC proofs' levels in order; what remains has no cycle. Cycles are
/// those of the *rule graph*: instances, with an edge from `a` to every `b` starting where `a`
/// ends except the pairs of `chains` (with `chains` empty, the location graph's cycles).
/// With `invariants`, everything but the invariants' own steps is about the ITS whose guards
/// are strengthened by them (`invariant::strengthen`); with `splits`, about that ITS refined
/// by them (`refine::refine`, in order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TerminationCertificate {
    #[serde(default, skip_serializing_if = "Invariants::is_empty")]
    pub invariants: Invariants,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub splits: Vec<Split>,
    pub instances: Vec<RuleInstance>,
    pub infeasible: Vec<InfeasibleRule>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chains: Vec<InfeasibleChain>,
    pub sccs: Vec<SccProof>,
}

/// Proof of non-termination: a cycle of rule instances `cycle[0] … cycle[k-1]` with a set
/// `sets[i]` of valuations of `cycle[i]`'s source location, where every point of `sets[i]`
/// enables `cycle[i]` and all its successors lie in `sets[i+1 mod k]`; and a run from the start
/// reaching `witness ∈ sets[0]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecurrentSet {
    pub cycle: Vec<RuleInstance>,
    /// `sets[i]` is a conjunction over the variables of `cycle[i]`'s source (`sets[0]`: G).
    pub sets: Vec<Vec<Constraint>>,
    /// Per `i`, per guard constraint of `cycle[i]`: `sets[i] ⇒` it (rows: `sets[i]`).
    pub enabled: Vec<Vec<Farkas>>,
    /// Per `i`, per constraint `c` of `sets[i+1]`: `sets[i] ∧ guard ⇒ c(ē)` (rows: `sets[i]`
    /// then the guard, over the rule's variables).
    pub closed: Vec<Vec<Farkas>>,
    /// Rules from the start location to the cycle's head.
    pub prefix: Vec<RuleId>,
    /// Values of the start location's variables.
    #[serde(with = "big_serde::vec")]
    pub start_values: Vec<BigInt>,
    /// Temporaries chosen at each prefix step.
    #[serde(with = "big_serde::vec_vec")]
    pub prefix_temps: Vec<Vec<BigInt>>,
    /// The valuation of the head reached by the prefix: a point of `sets[0]`.
    #[serde(with = "big_serde::vec")]
    pub witness: Vec<BigInt>,
}

impl RecurrentSet {
    pub fn head(&self, its: &Its) -> LocId {
        its.rule(self.cycle[0].rule).from
    }

    /// Whether the head valuation `vals` lies in `sets[0]`.
    pub fn contains(&self, vals: &[BigInt]) -> bool {
        in_set(&self.sets[0], vals)
    }
}

/// Whether integer point `vals` satisfies every constraint.
pub fn in_set(set: &[Constraint], vals: &[BigInt]) -> bool {
    let q: Vec<Q> = vals.iter().map(Q::from).collect();
    set.iter()
        .all(|c| c.holds(&|v: Var| q.get(v.index()).cloned()) == Some(true))
}

/// Serde for big integers as decimal strings (JSON numbers would lose precision).
pub(crate) mod big_serde {
    use num_bigint::BigInt;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    fn to_strings(v: &[BigInt]) -> Vec<String> {
        v.iter().map(BigInt::to_string).collect()
    }

    fn from_strings<E: serde::de::Error>(v: Vec<String>) -> Result<Vec<BigInt>, E> {
        v.iter()
            .map(|s| s.parse::<BigInt>().map_err(E::custom))
            .collect()
    }

    pub(crate) mod vec {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(v: &[BigInt], s: S) -> Result<S::Ok, S::Error> {
            to_strings(v).serialize(s)
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<BigInt>, D::Error> {
            from_strings(Vec::<String>::deserialize(d)?)
        }
    }

    pub(crate) mod vec_vec {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(v: &[Vec<BigInt>], s: S) -> Result<S::Ok, S::Error> {
            v.iter()
                .map(|x| to_strings(x))
                .collect::<Vec<_>>()
                .serialize(s)
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<Vec<BigInt>>, D::Error> {
            Vec::<Vec<String>>::deserialize(d)?
                .into_iter()
                .map(from_strings)
                .collect()
        }
    }

    pub(crate) mod opt_vec {
        use super::*;
        pub(crate) fn serialize<S: Serializer>(
            v: &Option<Vec<BigInt>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            v.as_ref().map(|x| to_strings(x)).serialize(s)
        }
        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Vec<BigInt>>, D::Error> {
            Option::<Vec<String>>::deserialize(d)?
                .map(from_strings)
                .transpose()
        }
    }
}
