//! The heap predicates of `c ⊑ s` on the objects the walk reached: (f) distinct objects,
//! (h) disjoint hidden regions, (j) trees, (k) cycles, (n) must-reach; and what is known of one
//! heap's hidden regions across steps ([`RegionMemo`]).

use super::walk::{children, show, Edge, EdgeName, Hidden, Walk};
use super::witness::{Condition, Failure};
use jtg_engine::state::{FieldSet, HeapValue, Ref};
use jtg_jvm::{CObject, CValue, ObjId, Objects};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;
use std::rc::Rc;

/// The objects of one hidden region `H(r)`.
type Reach = FxHashSet<ObjId>;

/// What is known of the hidden regions of one heap: `H(r)` by the targets of the first edges,
/// and whether a region has a DAG edge / a cycle ([`Walk::classify`]) by its root, first
/// edges, skipped field and mode. A loop that keeps a large structure apart from a few other
/// objects, or walks a cursor along it, then classifies the structure once per heap, not once
/// per step and node.
#[derive(Default)]
pub struct RegionMemo {
    heap: Option<u32>,
    sets: FxHashMap<Vec<ObjId>, Rc<Reach>>,
    shapes: FxHashMap<ShapeKey, (bool, bool)>,
}

/// A region's root, its first edges' targets (sorted, with repetitions: two first edges to
/// one object are a DAG edge), the field skipped and whether DAG edges are wanted.
type ShapeKey = (ObjId, Vec<ObjId>, Option<Box<str>>, bool);

impl RegionMemo {
    /// The memo for the heap with id `heap` (equal ids: equal heaps): emptied if it held
    /// another one's.
    pub fn of(&mut self, heap: u32) -> &mut RegionMemo {
        if self.heap != Some(heap) {
            self.heap = Some(heap);
            self.sets.clear();
            self.shapes.clear();
        }
        self
    }
}

/// The first DAG edge and the first back edge of a region, each as (from, field, to).
type ClassifiedEdges<'a> = (
    Option<(ObjId, EdgeName<'a>, ObjId)>,
    Option<(ObjId, EdgeName<'a>, ObjId)>,
);

/// ` (edge o.f back to p)`, for messages.
fn back_edge(e: Option<(ObjId, EdgeName<'_>, ObjId)>) -> String {
    e.map_or_else(String::new, |(from, f, to)| {
        format!(" (edge {from}{f} back to {to})")
    })
}

impl<'a> Walk<'a> {
    /// The concrete edges `s` shows: the object-valued fields and elements `s` lists, with
    /// an object reference, on the objects of realized references.
    pub(super) fn collect_explicit(&mut self) {
        let s = self.s;
        for &(r, id, hidden) in &self.objects {
            if hidden != Hidden::Unlisted {
                continue;
            }
            let Some(obj) = self.heap.get(&id) else {
                continue;
            };
            match (s.value(r), obj) {
                (Some(HeapValue::Object { fields, .. }), CObject::Instance { fields: cf, .. }) => {
                    for (f, rf) in fields {
                        if rf.is_obj() && matches!(cf.get(f.as_str()), Some(CValue::Ref(_))) {
                            self.explicit.insert((id, EdgeName::Field(f.as_str())));
                        }
                    }
                }
                (
                    Some(HeapValue::Array {
                        elems: Some(es), ..
                    }),
                    CObject::Array { elems: ce, .. },
                ) => {
                    for (k, (re, cv)) in es.iter().zip(ce).enumerate() {
                        if re.is_obj() && matches!(cv, CValue::Ref(_)) {
                            self.explicit.insert((id, EdgeName::Elem(k)));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// (f): different references of `s` on one object need `=?`.
    pub(super) fn distinct(&self) -> Result<(), Failure> {
        // (object, reference) sorted by object, each object's references in reference order
        // (a stable sort of the map's order): no map allocated per witness
        let mut pairs: smallvec::SmallVec<[(ObjId, Ref); 16]> = self
            .map
            .objects()
            .filter_map(|(r, v)| match v {
                CValue::Ref(id) => Some((*id, r)),
                _ => None,
            })
            .collect();
        pairs.sort_by_key(|&(id, _)| id);
        for group in pairs.chunk_by(|a, b| a.0 == b.0) {
            let id = group[0].0;
            let refs: smallvec::SmallVec<[Ref; 4]> = group.iter().map(|&(_, r)| r).collect();
            for (k, a) in refs.iter().enumerate() {
                for b in &refs[k + 1..] {
                    if !self.s.preds.may_equal(*a, *b) {
                        return self.fail(Condition::Distinct, || format!(
                                "{a} (at {}) and {b} (at {}) are both {id}, but s has no {a} =? {b}",
                                self.place(*a),
                                self.place(*b)
                            ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The first hidden edges out of the witness object of a reference.
    fn hidden_edges(&self, id: ObjId, hidden: Hidden) -> Vec<Edge<'a>> {
        let heap: &'a Objects = self.heap;
        let Some(o) = heap.get(&id) else {
            return vec![];
        };
        children(o)
            .filter(|(f, _)| hidden == Hidden::All || !self.explicit.contains(&(id, *f)))
            .collect()
    }

    /// `H(r)`: objects reachable from the first hidden edges of `id`; from `memo` if it has
    /// the set for this heap and these edges (`H(r)` is a function of the two).
    fn hidden_reach(&self, first: &[Edge<'a>], memo: &mut Option<&mut RegionMemo>) -> Rc<Reach> {
        let mut roots: Vec<ObjId> = first.iter().map(|(_, t)| *t).collect();
        if let Some(m) = memo {
            roots.sort_unstable();
            roots.dedup();
            if let Some(r) = m.sets.get(&roots) {
                return Rc::clone(r);
            }
        }
        let mut seen = Reach::default();
        let mut todo = roots.clone();
        while let Some(o) = todo.pop() {
            if !seen.insert(o) {
                continue;
            }
            if let Some(obj) = self.heap.get(&o) {
                todo.extend(children(obj).map(|(_, t)| t));
            }
        }
        let seen = Rc::new(seen);
        if let Some(m) = memo {
            m.sets.insert(roots, Rc::clone(&seen));
        }
        seen
    }

    /// (h), (j), (k) on the hidden regions. Each walk is done only where a predicate does not
    /// already allow every shape: a loop over a structure that `s` lets share and cycle
    /// freely then costs nothing per step, however large the structure.
    pub(super) fn shapes(&self, mut memo: Option<&mut RegionMemo>) -> Result<(), Failure> {
        let preds = &self.s.preds;
        let mut seen_refs = BTreeSet::new();
        let regions: Vec<(Ref, ObjId, Vec<Edge<'a>>)> = self
            .objects
            .iter()
            .filter(|(r, ..)| seen_refs.insert(*r))
            .map(|&(r, id, hidden)| (r, id, self.hidden_edges(id, hidden)))
            .collect();
        // (h): `H(r)` only for references in a pair that may not join
        let n = regions.len();
        let mut reach: Vec<Option<Rc<Reach>>> = vec![None; n];
        for k in 0..n {
            for l in k + 1..n {
                if !preds.joins(regions[k].0, regions[l].0) {
                    for m in [k, l] {
                        if reach[m].is_none() {
                            reach[m] = Some(self.hidden_reach(&regions[m].2, &mut memo));
                        }
                    }
                }
            }
        }
        for (k, (a, ida, _)) in regions.iter().enumerate() {
            for (l, (b, idb, _)) in regions.iter().enumerate().skip(k + 1) {
                let (Some(ha), Some(hb)) = (&reach[k], &reach[l]) else {
                    continue;
                };
                if preds.joins(*a, *b) || (ha.is_empty() && hb.is_empty()) {
                    continue;
                }
                let meet =
                    ha.contains(idb) || hb.contains(ida) || ha.iter().any(|o| hb.contains(o));
                if meet {
                    let what = if ha.contains(idb) {
                        format!("{idb} (the object of {b}) is reachable from {a} through fields s does not show")
                    } else if hb.contains(ida) {
                        format!("{ida} (the object of {a}) is reachable from {b} through fields s does not show")
                    } else {
                        let o = ha.iter().filter(|o| hb.contains(o)).min().copied();
                        format!(
                            "{} is reachable from both through fields s does not show",
                            o.map_or_else(String::new, |o| o.to_string())
                        )
                    };
                    return self.fail(Condition::Disjoint, || {
                        format!(
                            "{a} (at {}) and {b} (at {}): {what}, but s has no {a} %$ {b}",
                            self.place(*a),
                            self.place(*b)
                        )
                    });
                }
            }
        }
        // (j), (k)
        for (r, id, first) in &regions {
            if first.is_empty() {
                continue;
            }
            let may_share = preds.is_non_tree(*r) || preds.joins(*r, *r);
            let cyc = preds.cyclic(*r);
            match (may_share, cyc) {
                (true, Some(fields)) if fields.is_empty() => continue, // every shape is allowed
                // only cycles matter, and a cycle without one of `fields` is what fails
                (true, Some(fields)) => {
                    self.cycles_use(*r, *id, first, fields, &mut memo)?;
                    continue;
                }
                _ => {}
            }
            let (dag, cycle) = self.classify_memo(*id, first, None, !may_share, &mut memo);
            if dag && !may_share {
                return self.fail(Condition::Tree, || {
                    let meet = match self.classify(*id, first, None, true).0 {
                        Some((from, f, to)) => format!("two paths meet at {to} (edge {from}{f})"),
                        None => "two paths meet".into(),
                    };
                    format!(
                        "below {r} (at {}, {id}) {meet}, but s has neither {r}♦ nor {r} %$ {r}",
                        self.place(*r)
                    )
                });
            }
            if cycle {
                let Some(fields) = cyc else {
                    return self.fail(Condition::Cycle, || {
                        let edge = back_edge(self.classify(*id, first, None, false).1);
                        format!(
                            "below {r} (at {}, {id}) there is a cycle{edge}, but s has no {r}⟲",
                            self.place(*r)
                        )
                    });
                };
                self.cycles_use(*r, *id, first, fields, &mut memo)?;
            }
        }
        Ok(())
    }

    /// Whether [`Walk::classify`] finds a DAG edge and a cycle, from `memo` where it has them.
    fn classify_memo(
        &self,
        root: ObjId,
        first: &[Edge<'a>],
        skip: Option<&str>,
        want_dag: bool,
        memo: &mut Option<&mut RegionMemo>,
    ) -> (bool, bool) {
        let flags = |(d, c): ClassifiedEdges<'a>| (d.is_some(), c.is_some());
        let Some(m) = memo else {
            return flags(self.classify(root, first, skip, want_dag));
        };
        let mut targets: Vec<ObjId> = first
            .iter()
            .filter(|(f, _)| skip.is_none_or(|sk| *f != EdgeName::Field(sk)))
            .map(|(_, t)| *t)
            .collect();
        targets.sort_unstable();
        let key = (root, targets, skip.map(Box::from), want_dag);
        if let Some(&r) = m.shapes.get(&key) {
            return r;
        }
        let r = flags(self.classify(root, first, skip, want_dag));
        m.shapes.insert(key, r);
        r
    }

    /// Every cycle of the hidden region of `r` traverses every field of `fields`.
    fn cycles_use(
        &self,
        r: Ref,
        id: ObjId,
        first: &[Edge<'a>],
        fields: &FieldSet,
        memo: &mut Option<&mut RegionMemo>,
    ) -> Result<(), Failure> {
        for f in fields {
            if self
                .classify_memo(id, first, Some(f.as_str()), false, memo)
                .1
            {
                return self.fail(Condition::Cycle, || {
                    let edge = back_edge(self.classify(id, first, Some(f.as_str()), false).1);
                    format!(
                        "below {r} (at {}) there is a cycle without field {f}{edge}, but s has {r}⟲{}",
                        self.place(r),
                        jtg_engine::state::fmt_fields(fields)
                    )
                });
            }
        }
        Ok(())
    }

    /// Depth-first classification of the hidden region rooted at `root` (first edges `first`,
    /// then every edge), ignoring edges of field `skip`: the first cross/forward edge (DAG
    /// sharing) and the first back edge (a cycle), each as (from, field, to). Without
    /// `want_dag` it stops at the first cycle (and may miss a DAG edge).
    fn classify(
        &self,
        root: ObjId,
        first: &[Edge<'a>],
        skip: Option<&str>,
        want_dag: bool,
    ) -> ClassifiedEdges<'a> {
        // 0 = unvisited, 1 = on the stack, 2 = done
        let mut state: FxHashMap<ObjId, u8> = FxHashMap::default();
        let mut dag = None;
        let mut cycle = None;
        let heap: &'a Objects = self.heap;
        let kept = |(f, _): &Edge<'a>| skip.is_none_or(|sk| *f != EdgeName::Field(sk));
        // the out-edges of every object on the stack, in one buffer: an entry of `stack` is
        // (object, end of its edges in `edges`, next edge to take)
        let mut edges: Vec<Edge<'a>> = first.iter().copied().filter(kept).collect();
        state.insert(root, 1);
        let mut stack: Vec<(ObjId, usize, usize)> = vec![(root, edges.len(), 0)];
        while let Some(top) = stack.last_mut() {
            let (o, end, k) = *top;
            if k >= end {
                state.insert(o, 2);
                stack.pop();
                if let Some(&(_, below, _)) = stack.last() {
                    edges.truncate(below);
                }
                continue;
            }
            top.2 += 1;
            let (f, t) = edges[k];
            match state.get(&t).copied().unwrap_or(0) {
                0 => {
                    state.insert(t, 1);
                    let start = edges.len();
                    if let Some(obj) = heap.get(&t) {
                        edges.extend(children(obj).filter(kept));
                    }
                    stack.push((t, edges.len(), start));
                }
                1 => {
                    if cycle.is_none() {
                        cycle = Some((o, f, t));
                    }
                }
                _ => {
                    if dag.is_none() {
                        dag = Some((o, f, t));
                    }
                }
            }
            if cycle.is_some() && (dag.is_some() || !want_dag) {
                break;
            }
        }
        (dag, cycle)
    }

    /// (n): every `→!F` of `s` holds on the concrete heap.
    pub(super) fn must_reach(&self) -> Result<(), Failure> {
        for m in &self.s.preds.must_reach {
            let (Some(from), Some(to)) = (self.get(m.from), self.get(m.to)) else {
                continue; // a reference the walk did not reach (under an uninitialized object)
            };
            if matches!(from, CValue::Uninit(_)) || matches!(to, CValue::Uninit(_)) {
                continue;
            }
            let mut cur = from;
            let mut seen = FxHashSet::default();
            let fields = || jtg_engine::state::fmt_fields(&m.fields);
            loop {
                if cur == to {
                    break;
                }
                let CValue::Ref(id) = cur else {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: following {f} from {} runs into null before {}",
                            m.from,
                            m.to,
                            show(&from),
                            show(&to),
                            f = fields()
                        )
                    });
                };
                if !seen.insert(id) {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: following {f} from {} cycles without meeting {}",
                            m.from,
                            m.to,
                            show(&from),
                            show(&to),
                            f = fields()
                        )
                    });
                }
                let next = match self.heap.get(&id) {
                    Some(CObject::Instance { fields: fs, .. }) => {
                        m.fields.iter().find_map(|f| fs.get(f.as_str()).copied())
                    }
                    _ => None,
                };
                let Some(next) = next else {
                    return self.fail(Condition::MustReach, || {
                        format!(
                            "{}→!{f}{}: {id} has no field of {f}",
                            m.from,
                            m.to,
                            f = fields()
                        )
                    });
                };
                cur = next;
            }
        }
        Ok(())
    }
}
