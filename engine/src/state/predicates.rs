//! Heap predicates (spec §3): `=?` possible equality, `%$` possible sharing ("joins"), `♦`
//! non-tree, `⟲F` cyclic, `→!F` must-reach. All but must-reach are permissions: a state without
//! them forbids the shape. Must-reach is a requirement.

use super::{FieldKey, Ref};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A set of field keys (see [`FieldKey`]).
pub type FieldSet = BTreeSet<FieldKey>;

/// `from →!F to`: following the unique F-path from `from` reaches `to`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MustReach {
    pub from: Ref,
    pub fields: FieldSet,
    pub to: Ref,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Predicates {
    /// `a =? b`, stored with `a < b`.
    pub may_equal: BTreeSet<(Ref, Ref)>,
    /// `a %$ b`, stored with `a <= b` (self-pairs allowed).
    pub joins: BTreeSet<(Ref, Ref)>,
    /// `r♦`.
    pub non_tree: BTreeSet<Ref>,
    /// `r⟲F`.
    pub cyclic: BTreeMap<Ref, FieldSet>,
    /// `a →!F b`.
    pub must_reach: BTreeSet<MustReach>,
}

/// The other ends of the pairs that contain `r` (`r` itself for a self-pair), sorted.
fn partners(pairs: &BTreeSet<(Ref, Ref)>, r: Ref) -> Vec<Ref> {
    pairs
        .iter()
        .filter_map(|&(a, b)| {
            if a == r {
                Some(b)
            } else if b == r {
                Some(a)
            } else {
                None
            }
        })
        .collect()
}

fn ordered(a: Ref, b: Ref) -> (Ref, Ref) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl Predicates {
    pub fn is_empty(&self) -> bool {
        self.may_equal.is_empty()
            && self.joins.is_empty()
            && self.non_tree.is_empty()
            && self.cyclic.is_empty()
            && self.must_reach.is_empty()
    }

    /// Adds `a =? b`; a no-op for `a == b` and for null or integer references.
    pub fn add_may_equal(&mut self, a: Ref, b: Ref) {
        if a != b && a.is_obj() && b.is_obj() {
            self.may_equal.insert(ordered(a, b));
        }
    }
    pub fn may_equal(&self, a: Ref, b: Ref) -> bool {
        self.may_equal.contains(&ordered(a, b))
    }
    pub fn remove_may_equal(&mut self, a: Ref, b: Ref) {
        self.may_equal.remove(&ordered(a, b));
    }
    /// The `=?` partners of `r`, sorted.
    pub fn may_equal_partners(&self, r: Ref) -> Vec<Ref> {
        partners(&self.may_equal, r)
    }

    /// Adds `a %$ b` (self-joins allowed); a no-op for null or integer references.
    pub fn add_join(&mut self, a: Ref, b: Ref) {
        if a.is_obj() && b.is_obj() {
            self.joins.insert(ordered(a, b));
        }
    }
    pub fn joins(&self, a: Ref, b: Ref) -> bool {
        self.joins.contains(&ordered(a, b))
    }
    pub fn remove_join(&mut self, a: Ref, b: Ref) {
        self.joins.remove(&ordered(a, b));
    }
    /// The `%$` partners of `r` (including `r` itself for a self-join), sorted.
    pub fn join_partners(&self, r: Ref) -> Vec<Ref> {
        partners(&self.joins, r)
    }

    pub fn add_non_tree(&mut self, r: Ref) {
        if r.is_obj() {
            self.non_tree.insert(r);
        }
    }
    pub fn is_non_tree(&self, r: Ref) -> bool {
        self.non_tree.contains(&r)
    }

    /// Adds `r⟲F`. If `r` already allows cycles through `F'`, the result allows the cycles of
    /// both, i.e. `F ∩ F'`.
    pub fn add_cyclic(&mut self, r: Ref, fields: FieldSet) {
        if !r.is_obj() {
            return;
        }
        match self.cyclic.get_mut(&r) {
            Some(old) => {
                let both: FieldSet = old.intersection(&fields).cloned().collect();
                *old = both;
            }
            None => {
                self.cyclic.insert(r, fields);
            }
        }
    }
    pub fn cyclic(&self, r: Ref) -> Option<&FieldSet> {
        self.cyclic.get(&r)
    }

    pub fn add_must_reach(&mut self, from: Ref, fields: FieldSet, to: Ref) {
        if from != to && from.is_obj() && !to.is_int() {
            self.must_reach.insert(MustReach { from, fields, to });
        }
    }
    /// The must-reach predicates starting at `r`.
    pub fn must_reach_from(&self, r: Ref) -> Vec<&MustReach> {
        self.must_reach.iter().filter(|m| m.from == r).collect()
    }

    /// Every reference mentioned.
    pub fn refs(&self) -> BTreeSet<Ref> {
        self.mentions().collect()
    }

    /// Every mention of a reference, with repetitions, in no particular order.
    pub fn mentions(&self) -> impl Iterator<Item = Ref> + '_ {
        let pairs = self.may_equal.iter().chain(&self.joins);
        pairs
            .flat_map(|&(a, b)| [a, b])
            .chain(self.non_tree.iter().copied())
            .chain(self.cyclic.keys().copied())
            .chain(self.must_reach.iter().flat_map(|m| [m.from, m.to]))
    }

    /// Keeps only predicates whose references all satisfy `keep`.
    pub fn retain_refs(&mut self, keep: impl Fn(Ref) -> bool) {
        self.may_equal.retain(|&(a, b)| keep(a) && keep(b));
        self.joins.retain(|&(a, b)| keep(a) && keep(b));
        self.non_tree.retain(|&r| keep(r));
        self.cyclic.retain(|&r, _| keep(r));
        self.must_reach.retain(|m| keep(m.from) && keep(m.to));
    }

    /// Renames `from` to `to` in every predicate (Def. 2.15). Renaming to `null` drops the
    /// predicates that mention `from`; a must-reach to `null` would be contradictory and is
    /// dropped as well (the refinement that renames decides consistency separately).
    pub fn rename(&mut self, from: Ref, to: Ref) {
        if from == to {
            return;
        }
        if to.is_null() {
            self.retain_refs(|r| r != from);
            return;
        }
        let sw = |r: Ref| if r == from { to } else { r };
        let me: Vec<_> = std::mem::take(&mut self.may_equal).into_iter().collect();
        for (a, b) in me {
            self.add_may_equal(sw(a), sw(b));
        }
        let js: Vec<_> = std::mem::take(&mut self.joins).into_iter().collect();
        for (a, b) in js {
            self.add_join(sw(a), sw(b));
        }
        if self.non_tree.remove(&from) {
            self.non_tree.insert(to);
        }
        if let Some(f) = self.cyclic.remove(&from) {
            self.add_cyclic(to, f);
        }
        let mr: Vec<_> = std::mem::take(&mut self.must_reach).into_iter().collect();
        for m in mr {
            self.add_must_reach(sw(m.from), m.fields, sw(m.to));
        }
    }

    /// The predicates as printed items, in canonical order.
    pub fn items(&self) -> Vec<String> {
        let mut v = Vec::new();
        for (a, b) in &self.may_equal {
            v.push(format!("{a}=?{b}"));
        }
        for (a, b) in &self.joins {
            v.push(format!("{a}%${b}"));
        }
        for r in &self.non_tree {
            v.push(format!("{r}♦"));
        }
        for (r, f) in &self.cyclic {
            v.push(format!("{r}⟲{}", fmt_fields(f)));
        }
        for m in &self.must_reach {
            v.push(format!("{}→!{}{}", m.from, fmt_fields(&m.fields), m.to));
        }
        v
    }
}

pub fn fmt_fields(f: &FieldSet) -> String {
    let names: Vec<String> = f.iter().map(FieldKey::to_string).collect();
    format!("{{{}}}", names.join(","))
}

impl fmt::Display for Predicates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.items().join("  "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_merges_and_drops() {
        let (a, b, c) = (Ref::Obj(1), Ref::Obj(2), Ref::Obj(3));
        let mut p = Predicates::default();
        p.add_may_equal(a, b);
        p.add_join(b, c);
        p.add_cyclic(a, [FieldKey::plain("next")].into());
        p.add_cyclic(b, FieldSet::new());
        p.add_must_reach(b, [FieldKey::plain("next")].into(), a);
        p.rename(b, a);
        assert!(p.may_equal.is_empty(), "a =? a is trivial");
        assert!(p.joins(a, c));
        assert_eq!(p.cyclic(a), Some(&FieldSet::new()), "F ∩ ∅ = ∅");
        assert!(p.must_reach.is_empty(), "a →! a is trivial");
        p.rename(a, Ref::Null);
        assert!(p.is_empty());
    }

    #[test]
    fn no_int_or_null_predicates() {
        let mut p = Predicates::default();
        p.add_may_equal(Ref::Int(1), Ref::Int(2));
        p.add_may_equal(Ref::Obj(1), Ref::Null);
        p.add_join(Ref::Int(1), Ref::Obj(1));
        assert!(p.is_empty());
    }
}
