//! The predicates of a merged state (spec §7.5(3)): `=?` from pairs and carried `=?` (f);
//! `%$` for hidden equalities (g) and carried joins (h, i); `♦`/`⟲F` carried (j, k) and
//! created for realized sharing and cycles the merged state does not realize (l, m);
//! must-reach facts that hold in both inputs (n). They are computed over the access paths of
//! each input, each tagged with the reference of the merged state at its maximal realized
//! prefix.

use super::MAX_POSITIONS;
use crate::state::access::{
    child_at, f_successor, field_names, object_children, provably_reaches, AccessStep,
};
use crate::state::{FieldSet, HeapValue, MustReach, Predicates, Ref, State, Subtyping};
use std::collections::{BTreeMap, BTreeSet};

/// An access path of an input state, tagged with its realization in the merged state.
#[derive(Clone, Debug)]
struct Position<'s> {
    root: usize,
    steps: Vec<AccessStep<'s>>,
    /// The input's reference at the end of the path.
    end: Ref,
    /// `c_refs[i]` is the merged state's reference at the prefix of length `i`, for every
    /// realized prefix; the last one is the reference at the maximal realized prefix.
    c_refs: Vec<Ref>,
}

impl<'s> Position<'s> {
    fn anchor(&self) -> Ref {
        // Positions are only created from a root that exists in the merged state.
        self.c_refs.last().copied().unwrap_or(Ref::Null)
    }
    /// Whether the whole path is realized in the merged state.
    fn full(&self) -> bool {
        self.c_refs.len() == self.steps.len() + 1
    }
    /// The unrealized remainder of the path.
    fn suffix(&self) -> &[AccessStep<'s>] {
        &self.steps[self.c_refs.len().saturating_sub(1).min(self.steps.len())..]
    }
    fn is_prefix_of(&self, o: &Position) -> bool {
        self.root == o.root && o.steps.starts_with(&self.steps)
    }
}

/// Enumerates the simple access paths of `s` to objects (no reference twice on a path), plus
/// the paths that close a cycle (ending at a reference already on the path; not extended).
/// `roots` pairs each root reference of `s` with the merged state's reference there. `None`
/// when there are more than [`MAX_POSITIONS`].
fn positions<'s>(s: &'s State, roots: &[(Ref, Ref)], c: &State) -> Option<Vec<Position<'s>>> {
    let mut out = Vec::new();
    let mut stack: Vec<(Position, Vec<Ref>)> = roots
        .iter()
        .enumerate()
        .filter(|(_, (x, _))| x.is_obj())
        .map(|(i, &(x, cr))| {
            (
                Position {
                    root: i,
                    steps: vec![],
                    end: x,
                    c_refs: vec![cr],
                },
                vec![x],
            )
        })
        .collect();
    stack.reverse();
    while let Some((pos, on_path)) = stack.pop() {
        if out.len() >= MAX_POSITIONS {
            return None;
        }
        if let Some(v) = s.value(pos.end) {
            let mut next = Vec::new();
            for (step, y) in object_children(v) {
                let mut c_refs = pos.c_refs.clone();
                if pos.full() {
                    if let Some(cy) = c.value(pos.anchor()).and_then(|cv| child_at(cv, step)) {
                        c_refs.push(cy);
                    }
                }
                let mut steps = pos.steps.clone();
                steps.push(step);
                let child = Position {
                    root: pos.root,
                    steps,
                    end: y,
                    c_refs,
                };
                if on_path.contains(&y) {
                    out.push(child);
                } else {
                    let mut p = on_path.clone();
                    p.push(y);
                    next.push((child, p));
                }
            }
            stack.extend(next.into_iter().rev());
        }
        out.push(pos);
    }
    Some(out)
}

/// Computes the predicates of the merged state (§7.5(3)).
pub(super) struct Preds<'a> {
    pub(super) a: &'a State,
    pub(super) b: &'a State,
    pub(super) c: &'a State,
    pub(super) types: &'a dyn Subtyping,
    /// Merged reference → its pair.
    pub(super) proj: &'a BTreeMap<Ref, (Ref, Ref)>,
    pub(super) out: Predicates,
}

impl Preds<'_> {
    pub(super) fn build(mut self, roots_a: &[(Ref, Ref)], roots_b: &[(Ref, Ref)]) -> Predicates {
        self.equalities();
        for (s, roots) in [(self.a, roots_a), (self.b, roots_b)] {
            match positions(s, roots, self.c) {
                Some(ps) => self.shapes(s, &ps),
                None => self.most_general(),
            }
        }
        self.must_reach();
        // ⟲ implies ♦ (spec §3), and ♦ comes with the self-join that [I] treats as the
        // operative permission for hidden sharing below the reference.
        let cyc: Vec<Ref> = self.out.cyclic.keys().copied().collect();
        for r in cyc {
            self.out.add_non_tree(r);
        }
        let nt: Vec<Ref> = self.out.non_tree.iter().copied().collect();
        for r in nt {
            self.out.add_join(r, r);
        }
        self.out
    }

    /// Adds `x =? y` unless the types rule the equality out: two realized objects of different
    /// classes, or a realized object whose class is not below the other's type bound. Two type
    /// bounds are never ruled out (interfaces may have common subtypes the trait cannot name).
    fn add_eq(&mut self, x: Ref, y: Ref) {
        let (Some(vx), Some(vy)) = (self.c.value(x), self.c.value(y)) else {
            return;
        };
        let compatible = match (vx, vy) {
            (HeapValue::Object { class: cx, .. }, HeapValue::Object { class: cy, .. }) => cx == cy,
            (HeapValue::Object { class, .. }, other) | (other, HeapValue::Object { class, .. }) => {
                other
                    .type_name()
                    .is_some_and(|t| self.types.is_subtype(class, t))
            }
            _ => true,
        };
        if compatible {
            self.out.add_may_equal(x, y);
        }
    }

    /// (f): a reference of one input merged with several partners may be any of the results;
    /// `=?` of the inputs is carried to all partner pairs.
    fn equalities(&mut self) {
        let mut by_a: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
        let mut by_b: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
        for (&cr, &(ra, rb)) in self.proj {
            if cr.is_obj() {
                by_a.entry(ra).or_default().push(cr);
                by_b.entry(rb).or_default().push(cr);
            }
        }
        for groups in [&by_a, &by_b] {
            for (src, cs) in groups {
                if src.is_null() {
                    continue;
                }
                for (i, &x) in cs.iter().enumerate() {
                    for &y in &cs[i + 1..] {
                        self.add_eq(x, y);
                    }
                }
            }
        }
        for (s, groups) in [(self.a, &by_a), (self.b, &by_b)] {
            for &(x, y) in &s.preds.may_equal {
                let (Some(cx), Some(cy)) = (groups.get(&x), groups.get(&y)) else {
                    continue;
                };
                for &p in cx {
                    for &q in cy {
                        self.add_eq(p, q);
                    }
                }
            }
        }
    }

    /// (g), (h, i), (j), (k), (l), (m) for the positions `ps` of input `s`.
    fn shapes(&mut self, s: &State, ps: &[Position]) {
        let mut by_end: BTreeMap<Ref, Vec<&Position>> = BTreeMap::new();
        for p in ps {
            by_end.entry(p.end).or_default().push(p);
        }
        for (x, xs) in &by_end {
            for p in xs {
                // (j), (k)
                if s.preds.is_non_tree(*x) {
                    self.out.add_non_tree(p.anchor());
                }
                if let Some(f) = s.preds.cyclic(*x) {
                    self.out.add_cyclic(p.anchor(), f.clone());
                }
            }
            for (i, p) in xs.iter().enumerate() {
                for q in &xs[i + 1..] {
                    self.same_object(p, q);
                }
            }
        }
        let none = Vec::new();
        // (h, i): carried joins; (g) for `=?` of the input at unrealized positions.
        for (pairs, is_join) in [(&s.preds.joins, true), (&s.preds.may_equal, false)] {
            for &(x, y) in pairs {
                let vacuous = is_join && s.join_is_vacuous(x, y);
                for p in by_end.get(&x).unwrap_or(&none) {
                    for q in by_end.get(&y).unwrap_or(&none) {
                        if vacuous && p.anchor() == q.anchor() {
                            // the object and its realized descendant below one anchor: the
                            // hidden part below it is as much a tree as in the input
                            continue;
                        }
                        if is_join {
                            // Carried as is: even a self-join at one position (two hidden
                            // paths from it meet) must survive.
                            self.out.add_join(p.anchor(), q.anchor());
                        } else if !(p.full() && q.full()) {
                            self.hidden_join(p, q);
                        }
                    }
                }
            }
        }
    }

    /// (g): `%$` between the maximal realized prefixes of two positions that are equal (or `=?`)
    /// in an input, unless both end at the same reference with the same unrealized suffix (then
    /// every instance agrees anyway).
    fn hidden_join(&mut self, p: &Position, q: &Position) {
        if p.anchor() == q.anchor() && p.suffix() == q.suffix() {
            return;
        }
        self.out.add_join(p.anchor(), q.anchor());
    }

    /// Two different positions of one input hold the same object.
    fn same_object(&mut self, p: &Position, q: &Position) {
        // (g)
        if !(p.full() && q.full()) {
            self.hidden_join(p, q);
        }
        if p.full() && q.full() && p.anchor() == q.anchor() {
            return; // the merged state realizes the same sharing
        }
        if p.root != q.root {
            // sharing between roots: `=?` (from `equalities`) says they may be one object, and
            // one object shares everything hidden below it with itself: without `%$` the
            // parts hidden below two references are disjoint in every instance (spec §3)
            if p.anchor() != q.anchor() {
                self.out.add_join(p.anchor(), q.anchor());
            }
            return;
        }
        let (short, long) = if p.steps.len() <= q.steps.len() {
            (p, q)
        } else {
            (q, p)
        };
        if short.is_prefix_of(long) {
            // (m): a realized cycle from `short` back to itself along `long`'s remainder.
            let f = field_names(&long.steps[short.steps.len()..]);
            let start = short.steps.len().min(long.c_refs.len() - 1);
            for &r in &long.c_refs[start..] {
                self.out.add_non_tree(r);
                self.out.add_cyclic(r, f.clone());
            }
        } else {
            // (l): two paths below their common prefix meet.
            let lcp = p
                .steps
                .iter()
                .zip(&q.steps)
                .take_while(|(x, y)| x == y)
                .count();
            let k = lcp.min(p.c_refs.len() - 1);
            self.out.add_non_tree(p.c_refs[k]);
        }
    }

    /// Fallback when the inputs have too many access paths: allow every shape.
    fn most_general(&mut self) {
        let objs: Vec<Ref> = self.proj.keys().copied().filter(|r| r.is_obj()).collect();
        for (i, &x) in objs.iter().enumerate() {
            self.out.add_non_tree(x);
            self.out.add_cyclic(x, FieldSet::new());
            for &y in &objs[i..] {
                self.out.add_join(x, y);
            }
        }
    }

    /// (n): the must-reach facts `x →!F y` over merged references that hold in both inputs,
    /// for the field sets the inputs use, reduced to those the merged state cannot derive from
    /// the others. A fact whose target is `null` in either input is dropped: it would say the
    /// list ends rather than name a reference on it.
    fn must_reach(&mut self) {
        let mut field_sets: BTreeSet<FieldSet> = self
            .a
            .preds
            .must_reach
            .iter()
            .chain(&self.b.preds.must_reach)
            .map(|m| m.fields.clone())
            .collect();
        // A path both inputs realize along one field (a list walked or built cell by cell)
        // becomes a fact where the merged state abstracts it: thesis Fig. 2.13's `o3 →!{n} o1`.
        // (Candidates: every reference field of a realized object of either input; a path of
        // length 0 holds along any field.)
        for s in [self.a, self.b] {
            for v in s.heap.values() {
                if let HeapValue::Object { fields, .. } = v {
                    field_sets.extend(
                        fields
                            .iter()
                            .filter(|(_, r)| r.is_obj() || r.is_null())
                            .map(|(f, _)| FieldSet::from([f.clone()])),
                    );
                }
            }
        }
        let objs: Vec<(Ref, (Ref, Ref))> = self
            .proj
            .iter()
            .filter(|(r, (x, y))| r.is_obj() && x.is_obj() && y.is_obj())
            .map(|(r, p)| (*r, *p))
            .collect();
        let (facts_a, facts_b) = (pushed_down(self.a), pushed_down(self.b));
        let mut found = BTreeSet::new();
        for f in &field_sets {
            for &(from, (fa, fb)) in &objs {
                for &(to, (ta, tb)) in &objs {
                    if from != to
                        && provably_reaches(&self.a.heap, &facts_a, None, fa, f, ta)
                        && provably_reaches(&self.b.heap, &facts_b, None, fb, f, tb)
                    {
                        found.insert(MustReach {
                            from,
                            fields: f.clone(),
                            to,
                        });
                    }
                }
            }
        }
        // Drop facts the rest derive, preferring to drop those starting at realized objects
        // (their successor carries the information).
        let mut order: Vec<MustReach> = found.iter().cloned().collect();
        order.sort_by_key(|m| {
            let realized = matches!(self.c.value(m.from), Some(HeapValue::Object { .. }));
            (!realized, m.clone())
        });
        // A fact between two roots from an abstract reference stays: its distance is what a
        // walk from one to the other counts down (`current →! this` beside `current →!
        // this.next →! this`, which is no sum of distances when the walk passes `this`
        // first). From a realized object, the fact of its successor carries the distance.
        let roots: BTreeSet<Ref> = self.c.roots().into_iter().collect();
        for m in order {
            let realized = matches!(self.c.value(m.from), Some(HeapValue::Object { .. }));
            if !realized && roots.contains(&m.from) && roots.contains(&m.to) {
                continue;
            }
            if provably_reaches(&self.c.heap, &found, Some(&m), m.from, &m.fields, m.to) {
                found.remove(&m);
            }
        }
        for m in found {
            self.out.add_must_reach(m.from, m.fields, m.to);
        }
    }
}

/// The must-reach facts of `s` and those they give below realized objects: `p →!F t` with `p`
/// realized, surely not `t` (no `=?`), and its one F-field holding the object `z` gives
/// `z →!F t` (the path from `p` leaves it through that field), to a fixpoint. A walk that
/// starts below where the fact starts (`c = first.next` with `first →! cur`) then reaches its
/// target provably.
fn pushed_down(s: &State) -> BTreeSet<MustReach> {
    let mut facts = s.preds.must_reach.clone();
    let mut todo: Vec<MustReach> = facts.iter().cloned().collect();
    while let Some(m) = todo.pop() {
        if m.from == m.to || s.preds.may_equal(m.from, m.to) {
            continue;
        }
        if let Some(z) = s.value(m.from).and_then(|v| f_successor(v, &m.fields)) {
            let below = MustReach {
                from: z,
                fields: m.fields.clone(),
                to: m.to,
            };
            if z.is_obj() && z != m.to && facts.insert(below.clone()) {
                todo.push(below);
            }
        }
    }
    facts
}
