//! Which fields the cycles of a state must use (spec §3 `⟲F`: every cycle below `r` traverses
//! every field of `F`): the fields on every path between two references, for the cycle a
//! write closes (spec §6.3 rule 3), and the fields every cycle below a reference uses, for the
//! result of a call.

use super::access::object_children;
use super::{FieldSet, Ref, State};
use std::collections::BTreeSet;

impl State {
    /// The fields every path from `from` to `to` may take uses: `g` is one when `to` is out of
    /// reach of `from` without `g`-steps. Steps through realized fields are named by them;
    /// `=?` partners are no step and `%$` partners a step through unknown fields, which may
    /// avoid any `g` (so a path through hidden heap gives nothing). The write `to.f = from`
    /// closes cycles through `f` and these fields only.
    pub fn fields_on_every_path(&self, from: Ref, to: Ref) -> FieldSet {
        let mut named = FieldSet::new();
        for r in self.may_reach_skipping(from, None) {
            if let Some(v) = self.value(r) {
                named.extend(object_children(v).map(|(step, _)| step.field_key()));
            }
        }
        named
            .into_iter()
            .filter(|g| {
                !self
                    .may_reach_skipping(from, Some(g.as_str()))
                    .contains(&to)
            })
            .collect()
    }

    /// What `from` may reach: through realized fields (but the field `skip`, by its key), and
    /// `=?` and `%$` partners (hidden heap) of anything reached, transitively.
    pub fn may_reach_skipping(&self, from: Ref, skip: Option<&str>) -> BTreeSet<Ref> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from];
        while let Some(r) = todo.pop() {
            if !r.is_obj() || !seen.insert(r) {
                continue;
            }
            if let Some(v) = self.value(r) {
                for (step, c) in object_children(v) {
                    if skip.is_none_or(|g| step.field_key().as_str() != g) {
                        todo.push(c);
                    }
                }
            }
            todo.extend(self.preds.may_equal_partners(r));
            todo.extend(self.preds.join_partners(r));
        }
        seen
    }

    /// Whether the object of `r` may reach a cycle: something it reaches through realized
    /// fields has `⟲`, or the realized fields close a cycle. `=?` partners need no look: an
    /// instance whose reference without `⟲` is a cyclic partner is no instance (spec §4.2 (k)).
    pub fn may_reach_cycle(&self, r: Ref) -> bool {
        let below = self.reachable_from([r]);
        below.iter().any(|x| self.preds.cyclic(*x).is_some()) || self.realized_cycle(&below, None)
    }

    /// The fields every cycle below `r` uses in every instance, `None` when none may be there:
    /// the intersection of the `⟲F` of what `r` reaches through realized fields (a cycle that
    /// leaves the realized part lies below such a reference, spec §4.2 (k)) and of the fields
    /// every realized cycle uses (a field `g` is one when the realized part without `g`-steps
    /// has no cycle).
    pub fn cycle_fields_below(&self, r: Ref) -> Option<FieldSet> {
        let below = self.reachable_from([r]);
        let mut out: Option<FieldSet> = None;
        let meet = |out: &mut Option<FieldSet>, f: FieldSet| {
            *out = Some(match out.take() {
                Some(o) => o.intersection(&f).cloned().collect(),
                None => f,
            });
        };
        for x in &below {
            if let Some(f) = self.preds.cyclic(*x) {
                meet(&mut out, f.clone());
            }
        }
        if self.realized_cycle(&below, None) {
            let named: FieldSet = below
                .iter()
                .filter_map(|x| self.value(*x))
                .flat_map(|v| object_children(v).map(|(step, _)| step.field_key()))
                .collect();
            let used = named
                .iter()
                .filter(|g| !self.realized_cycle(&below, Some(g.as_str())))
                .cloned()
                .collect();
            meet(&mut out, used);
        }
        out
    }

    /// What `r` reaches through realized fields other than `skip` (by its key).
    pub fn reachable_skipping(&self, r: Ref, skip: Option<&str>) -> BTreeSet<Ref> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![r];
        while let Some(x) = todo.pop() {
            if x.is_obj() && seen.insert(x) {
                todo.extend(self.kids(x, skip));
            }
        }
        seen
    }

    /// Whether the realized fields (but `skip`, by its key) among `within` close a cycle.
    pub fn realized_cycle(&self, within: &BTreeSet<Ref>, skip: Option<&str>) -> bool {
        // depth-first with colours: a back edge closes a cycle
        let mut colour: std::collections::BTreeMap<Ref, bool> = Default::default();
        for &root in within {
            if colour.contains_key(&root) {
                continue;
            }
            let mut stack: Vec<(Ref, Vec<Ref>)> = vec![(root, self.kids(root, skip))];
            colour.insert(root, false);
            while let Some(top) = stack.last_mut() {
                match top.1.pop() {
                    Some(c) => match colour.get(&c) {
                        Some(false) => return true,
                        Some(true) => {}
                        None => {
                            colour.insert(c, false);
                            let next = self.kids(c, skip);
                            stack.push((c, next));
                        }
                    },
                    None => {
                        colour.insert(top.0, true);
                        stack.pop();
                    }
                }
            }
        }
        false
    }

    fn kids(&self, r: Ref, skip: Option<&str>) -> Vec<Ref> {
        self.value(r).map_or_else(Vec::new, |v| {
            object_children(v)
                .filter(|(step, _)| skip.is_none_or(|g| step.field_key().as_str() != g))
                .map(|(_, c)| c)
                .collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::state::text::{parse_state, TextContext};
    use crate::state::{FieldKey, FieldSet, Ref};

    fn fields(names: &[&str]) -> FieldSet {
        names.iter().map(|n| FieldKey::plain(n)).collect()
    }

    #[test]
    fn a_path_through_one_realized_field_must_take_it() {
        // o2 = old, o1 = cur with cur.prev = old: the write old.next = cur closes a cycle
        // through next and prev
        let s = parse_state(
            "A.m()V 00 | l0: o1, l1: o2 | ε\n\
             o1: L(next=null, prev=o2)  o2: L(next=o3, prev=o4)  o3: L(?)  o4: L(?)\n\
             o3=?o4  o2%$o3  o2%$o4  o3%$o4  o2⟲{next,prev}  o3⟲{next,prev}  o4⟲{next,prev}",
            &TextContext::plain(),
        )
        .expect("state");
        assert_eq!(
            s.fields_on_every_path(Ref::Obj(1), Ref::Obj(2)),
            fields(&["prev"])
        );
        // from o2 to o1 nothing is known: o2's partners are hidden paths
        assert_eq!(
            s.fields_on_every_path(Ref::Obj(3), Ref::Obj(2)),
            fields(&[])
        );
    }

    #[test]
    fn cycles_below_meet_the_predicates_and_the_realized_cycles() {
        let s = parse_state(
            "A.m()V 00 | l0: o1 | ε\n\
             o1: L(next=o2, prev=null)  o2: L(next=o3, prev=o1)  o3: L(?)\n\
             o3⟲{next,prev}",
            &TextContext::plain(),
        )
        .expect("state");
        assert_eq!(
            s.cycle_fields_below(Ref::Obj(1)),
            Some(fields(&["next", "prev"]))
        );
        assert_eq!(
            s.cycle_fields_below(Ref::Obj(3)),
            Some(fields(&["next", "prev"]))
        );
        let ring = parse_state(
            "A.m()V 00 | l0: o1 | ε\n\
             o1: L(next=o2, prev=null)  o2: L(next=o1, prev=null)",
            &TextContext::plain(),
        )
        .expect("state");
        assert_eq!(
            ring.cycle_fields_below(Ref::Obj(1)),
            Some(fields(&["next"]))
        );
        let list = parse_state(
            "A.m()V 00 | l0: o1 | ε\n\
             o1: L(next=o2, prev=null)  o2: L(next=null, prev=null)",
            &TextContext::plain(),
        )
        .expect("state");
        assert_eq!(list.cycle_fields_below(Ref::Obj(1)), None);
    }
}
