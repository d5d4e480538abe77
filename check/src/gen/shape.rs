//! Building one sample: the realized part of the start state copied, and a concrete structure
//! chosen for every unknown reference ("hole": `C(?)`, `C(…)`, an array of unknown contents).
//!
//! For a hole `h` the builder picks a concrete class (among the non-abstract subtypes of its
//! type that the harness can build, [`Generator::classes`]: uniformly, except that program
//! classes take half the draws when JDK classes are candidates too, and that the modelled
//! exception classes together count as one class when other classes are candidates) and then a *plan* among those
//! the start state's predicates allow for `h`, null with weight 1 and each other plan with
//! weight 3 (so null is a quarter of the cases of a plain `C(?)`):
//!
//! | plan | allowed when | structure |
//! |---|---|---|
//! | null | `C(?)` and no `h →!F t` | `null` |
//! | tree | always | a fresh tree of `n ∈ 1..=max` nodes (a list for one-field classes; `max` the case's size bound) |
//! | cycle | `h⟲F` | a tree plus one back edge to its root whose cycle uses every field of F |
//! | panhandle | `h⟲F` | a tree plus one back edge to a node below the root (a lasso) |
//! | dag | `h♦`, class with ≥ 2 reference fields | a tree plus one edge to a non-ancestor |
//! | share | `h %$ g` for an already built `g ≠ h` | a tree whose last free slot points into `g`'s structure |
//! | alias | `h =? g` for an already built non-null `g` | `g`'s object itself |
//!
//! (For classes with two or more reference fields, a cycle or panhandle plan adds up to three
//! further back edges of its kind, each with probability 1/2; with `F` not empty, half of those
//! plans are *sparse*: the tree grows no children in the fields of `F`, which stay free for
//! back edges, and up to one further back edge per node is added, each with probability 1/2.)
//!
//! A hole with `h →!F t` always gets the *reach* plan: an F-chain of fresh nodes whose last
//! F-field is `t`'s object (length 0, i.e. `h` is `t`, only with `h =? t`). Where `h` allows
//! any shape (`h⟲∅` with `h♦` or `h %$ h`), each other reference field of a chain node points,
//! with probability 1/2, to a chain node (itself included) or, with `h %$ t`, to `t`.
//!
//! Tree growth: the node budget `n` is spent breadth-first; a reference slot gets a fresh
//! child with probability 0.75, or always when it is the only open slot (so one-field classes
//! give lists of exactly `n` nodes). Array fields are `null` or a short array.

use super::{floats, ints};
use super::{GenError, Generator};
use jtg_engine::class::FieldType;
use jtg_engine::models;
use jtg_engine::state::{FieldKey, HeapValue, Interval, MustReach, Ref, State};
use rand::Rng;
use rand_chacha::ChaCha12Rng;
use std::collections::{BTreeMap, BTreeSet};

/// Probability that an open reference slot of a tree gets a child.
const GROW: f64 = 0.75;

/// The weight of every plan but null (weight 1) in the choice of a hole's plan.
const NON_NULL_WEIGHT: u32 = 3;

/// At most this many back edges after the first in a cycle or panhandle plan.
const MORE_CYCLES: usize = 3;

/// A node of a structure built for one hole.
struct Node {
    r: Ref,
    class: String,
    /// Parent index and the field leading here (`None` for the structure's root).
    parent: Option<(usize, FieldKey)>,
}

/// The nodes of a fresh structure; index 0 is the root.
struct Tree {
    nodes: Vec<Node>,
}

/// The build of one sample.
pub(super) struct Build<'g, 'a> {
    pub g: &'g Generator<'a>,
    pub rng: ChaCha12Rng,
    /// This case's size bound (the size schedule of [`super::size_bound`]).
    pub max: usize,
    pub out: State,
    /// Start-state reference ↦ sample reference, for everything built so far.
    pub map: BTreeMap<Ref, Ref>,
    /// The ints drawn so far (not lengths), which later ones may repeat ([`ints::repeat`]).
    pub drawn: Vec<i128>,
}

impl Build<'_, '_> {
    fn int_in(&mut self, iv: &Interval, cap: Option<i128>) -> Result<Ref, GenError> {
        let mut iv = *iv;
        if let Some(cap) = cap {
            iv = iv
                .intersect(&Interval::new(Some(0), Some(cap)).unwrap_or(Interval::TOP))
                .ok_or_else(|| GenError::Unsatisfiable(format!("no length ≤ {cap} in {iv}")))?;
        }
        let (lo, hi) = ints::java_bounds(&iv)
            .ok_or_else(|| GenError::Unsatisfiable(format!("no Java int in {iv}")))?;
        // a length or a string's count is a size, drawn by the size schedule alone
        let v = match cap {
            Some(_) => ints::sample(&mut self.rng, lo, hi, &self.g.compared),
            None => {
                let v = ints::repeat(&mut self.rng, lo, hi, &self.drawn)
                    .unwrap_or_else(|| ints::sample(&mut self.rng, lo, hi, &self.g.compared));
                self.drawn.push(v);
                v
            }
        };
        Ok(self.out.new_int(Interval::literal(v)))
    }

    /// A sample int for a start-state integer reference (an array length is kept small).
    pub(super) fn start_int(&mut self, iv: &Interval, is_len: bool) -> Result<Ref, GenError> {
        let cap = is_len.then_some(self.max as i128);
        self.int_in(iv, cap)
    }

    /// A sample long in `iv`, biased like ints ([`ints`]) and reaching the long boundaries.
    pub(super) fn long_in(&mut self, iv: &Interval) -> Result<Ref, GenError> {
        let (lo, hi) = ints::long_bounds(iv)
            .ok_or_else(|| GenError::Unsatisfiable(format!("no Java long in {iv}")))?;
        let v = ints::sample(&mut self.rng, lo, hi, &self.g.compared);
        Ok(self.out.new_prim(HeapValue::Long(Interval::literal(v))))
    }

    /// A sample of the float (or double) `v` of the start state: its literal, or a value drawn
    /// as [`floats`] says.
    pub(super) fn float_like(&mut self, v: &HeapValue) -> Ref {
        let value = match v {
            HeapValue::Float(None) => HeapValue::Float(Some(floats::sample_f32(&mut self.rng))),
            HeapValue::Double(None) => HeapValue::Double(Some(floats::sample_f64(&mut self.rng))),
            literal => literal.clone(),
        };
        self.out.new_prim(value)
    }

    fn field_int(&mut self, t: &FieldType, range: &Option<Interval>) -> Result<Ref, GenError> {
        let iv = match range {
            Some(r) => *r,
            None => jtg_engine::state::types::type_range(t, self.g.cfg.ints),
        };
        // String lengths: small, like the rest of a sample.
        let cap = (range.is_some()).then_some(self.max as i128 + 2);
        self.int_in(&iv, cap)
    }

    /// A concrete object for the hole `h` (value `v` in the start state).
    pub(super) fn hole(&mut self, h: Ref, v: &HeapValue) -> Result<Ref, GenError> {
        let (ty, nullable) = match v {
            HeapValue::Unknown { ty } => (ty.clone(), true),
            HeapValue::Abstract { ty } => (ty.clone(), false),
            HeapValue::Array { ty, len, .. } => {
                let n = self.array_len(*len)?;
                return self.array(ty, n);
            }
            other => return Err(GenError::Unsupported(format!("{h}: {other} is not a hole"))),
        };
        let preds = &self.g.start.preds;
        let reach: Vec<MustReach> = preds.must_reach_from(h).into_iter().cloned().collect();
        let nullable = nullable && reach.is_empty();
        if ty.starts_with('[') {
            if nullable && self.rng.gen_bool(0.15) {
                return Ok(Ref::Null);
            }
            let n = self.rng.gen_range(0..=self.max);
            return self.array(&ty, n);
        }
        let classes = self.g.classes(&ty)?;
        if classes.is_empty() {
            return if nullable {
                Ok(Ref::Null)
            } else {
                Err(GenError::Unsatisfiable(format!(
                    "{h}: no concrete subtype of {ty} can be built"
                )))
            };
        }
        let class = self.pick_class(&classes);
        if let Some(m) = reach.first() {
            return self.reach(h, &class, m);
        }
        let max = self.max.max(1);
        let built = |b: &Self, r: Ref| b.map.get(&r).copied().filter(|c| c.is_obj());
        let aliases: Vec<Ref> = preds
            .may_equal_partners(h)
            .into_iter()
            .filter_map(|p| built(self, p))
            .filter(|c| self.is_a(*c, &ty))
            .collect();
        let shares: Vec<Ref> = preds
            .join_partners(h)
            .into_iter()
            .filter(|p| *p != h)
            .filter_map(|p| built(self, p))
            .collect();
        let ref_slots = self.g.ref_slot_count(&class)?;
        let mut plans: Vec<Plan> = Vec::new();
        if nullable {
            plans.push(Plan::Null);
        }
        plans.push(Plan::Tree);
        if let Some(f) = preds.cyclic(h) {
            plans.push(Plan::Cycle(f.iter().cloned().collect()));
            plans.push(Plan::Panhandle(f.iter().cloned().collect()));
        }
        if preds.is_non_tree(h) && ref_slots >= 2 {
            plans.push(Plan::Dag);
        }
        if !shares.is_empty() {
            plans.push(Plan::Share(shares));
        }
        if !aliases.is_empty() {
            plans.push(Plan::Alias(aliases));
        }
        // null weighs 1, every other plan NON_NULL_WEIGHT: a nullable hole is null in a
        // quarter of the cases when the only other plan is a tree (half the cases would spend
        // half of a check's inputs on one shape), never below 1/10 with every plan allowed
        let weight = |p: &Plan| {
            if matches!(p, Plan::Null) {
                1
            } else {
                NON_NULL_WEIGHT
            }
        };
        let total: u32 = plans.iter().map(weight).sum();
        let mut roll = self.rng.gen_range(0..total);
        let mut pick = 0;
        for (i, p) in plans.iter().enumerate() {
            if roll < weight(p) {
                pick = i;
                break;
            }
            roll -= weight(p);
        }
        let plan = plans.swap_remove(pick);
        match plan {
            Plan::Null => Ok(Ref::Null),
            Plan::Alias(gs) => Ok(gs[self.rng.gen_range(0..gs.len())]),
            Plan::Tree => {
                let n = self.rng.gen_range(1..=max);
                Ok(self.tree(&class, n)?.nodes[0].r)
            }
            Plan::Cycle(ref f) | Plan::Panhandle(ref f) => {
                let panhandle = matches!(plan, Plan::Panhandle(_));
                let lo = if panhandle { 2.min(max) } else { 1 };
                let n = self.rng.gen_range(lo..=max);
                // half of them sparse: the fields of F grow no subtrees, so their slots are
                // free for back edges, and up to one more back edge per node (objects that
                // are their own items, one after another in a list)
                let sparse = ref_slots >= 2 && !f.is_empty() && self.rng.gen_bool(0.5);
                let t = self.tree_sparing(&class, n, if sparse { f } else { &[] })?;
                let mut closed = self.back_edge(&t, f, panhandle)?;
                // with several reference fields, often more cycles of the same kind (an object
                // that is its own item inside a cyclic list): every cycle they make together
                // still uses every field of F, see `back_edge`
                let most = if sparse { t.nodes.len() } else { MORE_CYCLES };
                let mut more = 0;
                while closed && ref_slots >= 2 && more < most && self.rng.gen_bool(0.5) {
                    closed = self.back_edge(&t, f, panhandle)?;
                    more += 1;
                }
                Ok(t.nodes[0].r)
            }
            Plan::Dag => {
                let n = self.rng.gen_range(2.min(max)..=max);
                let t = self.tree(&class, n)?;
                self.cross_edge(&t)?;
                Ok(t.nodes[0].r)
            }
            Plan::Share(gs) => {
                let target = gs[self.rng.gen_range(0..gs.len())];
                let n = self.rng.gen_range(1..=max);
                let t = self.tree(&class, n)?;
                let pool: Vec<Ref> = self.out.reachable_from([target]).into_iter().collect();
                self.edge_into(&t, &pool)?;
                Ok(t.nodes[0].r)
            }
        }
    }

    /// A class for a value among `classes` (not empty): the program's classes (those the
    /// engine does not model) take half the draws when JDK classes are candidates too, each
    /// kind uniformly; else uniformly. For `Object` the JDK offers some twenty classes, which
    /// uniformly would leave a program class to one draw in twenty: a chain of two program
    /// objects through an `Object` field would be rare. Within a kind the modelled exceptions
    /// share one class's draws when other classes are candidates (most of those twenty are
    /// exceptions, which would leave `Object`, `String` and `Integer` rare in turn).
    fn pick_class(&mut self, classes: &[String]) -> String {
        let (program, jdk): (Vec<&String>, Vec<&String>) = classes
            .iter()
            .partition(|c| !jtg_engine::models::is_modelled_class(c));
        let pool = if program.is_empty() || jdk.is_empty() {
            classes.iter().collect()
        } else if self.rng.gen_bool(0.5) {
            program
        } else {
            jdk
        };
        // the modelled exceptions (twenty-odd classes without fields) take one class's share
        let (throwables, others): (Vec<&String>, Vec<&String>) = pool
            .into_iter()
            .partition(|c| jtg_engine::models::is_modelled_throwable(c));
        let shares = others.len() + usize::from(!throwables.is_empty());
        match self.rng.gen_range(0..shares) {
            i if i < others.len() => others[i].clone(),
            _ => throwables[self.rng.gen_range(0..throwables.len())].clone(),
        }
    }

    /// Whether the sample object `c` has a type that fits `ty`.
    fn is_a(&self, c: Ref, ty: &str) -> bool {
        use jtg_engine::state::Subtyping;
        self.out
            .value(c)
            .and_then(HeapValue::type_name)
            .is_some_and(|t| self.g.prog.is_subtype(t, ty))
    }

    fn array_len(&mut self, len: Ref) -> Result<usize, GenError> {
        let r = self
            .map
            .get(&len)
            .copied()
            .ok_or_else(|| GenError::Unsupported(format!("array length {len} has no value")))?;
        let v = self
            .out
            .int(r)
            .and_then(Interval::as_literal)
            .ok_or_else(|| GenError::Unsupported(format!("array length {len} is not an int")))?;
        usize::try_from(v).map_err(|_| GenError::Unsatisfiable(format!("array length {v}")))
    }

    /// A concrete array of descriptor `ty` with `n` elements. Reference elements are null
    /// with probability 0.1, otherwise a fresh tree (strings: a string of random length).
    fn array(&mut self, ty: &str, n: usize) -> Result<Ref, GenError> {
        let elem = ty
            .strip_prefix('[')
            .ok_or_else(|| GenError::Unsupported(format!("bad array type {ty}")))?;
        let et = FieldType::parse(elem)
            .map_err(|e| GenError::Unsupported(format!("array type {ty}: {e}")))?;
        let len = self.out.new_int(Interval::literal(n as i128));
        let mut elems = Vec::with_capacity(n);
        for _ in 0..n {
            elems.push(self.value_of(&et, &None, 2)?);
        }
        // a concrete array: its type is its runtime type
        Ok(self
            .out
            .new_obj(HeapValue::array(ty.to_string(), len, Some(elems), true)))
    }

    /// A fresh value of declared type `t` outside any planned structure (array elements,
    /// array-typed fields): ints sampled, references null or a small tree.
    fn value_of(
        &mut self,
        t: &FieldType,
        range: &Option<Interval>,
        budget: usize,
    ) -> Result<Ref, GenError> {
        match t {
            FieldType::Object(c) => {
                let classes = self.g.classes(c).unwrap_or_default();
                if classes.is_empty() || self.rng.gen_bool(0.1) {
                    return Ok(Ref::Null);
                }
                let class = self.pick_class(&classes);
                let n = self.rng.gen_range(1..=budget.max(1));
                Ok(self.tree(&class, n)?.nodes[0].r)
            }
            FieldType::Array(_) => {
                if self.rng.gen_bool(0.7) {
                    return Ok(Ref::Null);
                }
                let n = self.rng.gen_range(0..=3);
                self.array(&t.to_string(), n)
            }
            FieldType::Long => self.long_in(&jtg_engine::state::types::long_range(self.g.cfg.ints)),
            FieldType::Float => Ok(self.float_like(&HeapValue::Float(None))),
            FieldType::Double => Ok(self.float_like(&HeapValue::Double(None))),
            _ => self.field_int(t, range),
        }
    }

    /// A fresh tree of `n` nodes rooted at an object of `class` (breadth-first growth).
    fn tree(&mut self, class: &str, n: usize) -> Result<Tree, GenError> {
        self.tree_sparing(class, n, &[])
    }

    /// [`Self::tree`] that leaves every `spare` field `null` (free for back edges).
    fn tree_sparing(
        &mut self,
        class: &str,
        n: usize,
        spare: &[FieldKey],
    ) -> Result<Tree, GenError> {
        let mut nodes = Vec::new();
        let mut budget = n.saturating_sub(1);
        let root = self.node(class, None, &mut nodes)?;
        let mut open: std::collections::VecDeque<(usize, FieldKey, String)> =
            self.slots(root, &nodes)?.into();
        open.retain(|(_, f, _)| !spare.contains(f));
        while let Some((idx, field, fty)) = open.pop_front() {
            let grow = budget > 0 && (open.is_empty() || self.rng.gen_bool(GROW));
            // a field whose type has no buildable class stays null (null is an instance of
            // every field's most general value)
            let classes = self.g.classes(&fty).unwrap_or_default();
            if !grow || classes.is_empty() {
                continue;
            }
            budget -= 1;
            let c = self.pick_class(&classes);
            let child = self.node(&c, Some((idx, field.clone())), &mut nodes)?;
            self.set_field(nodes[idx].r, &field, nodes[child].r);
            open.extend(
                self.slots(child, &nodes)?
                    .into_iter()
                    .filter(|(_, f, _)| !spare.contains(f)),
            );
        }
        Ok(Tree { nodes })
    }

    /// A fresh object of `class`: int fields sampled, array fields per [`Self::value_of`],
    /// object fields null (the tree growth fills them); a box (`Integer`) also gets its
    /// value ([`models::input_only_field`]), drawn like an int.
    fn node(
        &mut self,
        class: &str,
        parent: Option<(usize, FieldKey)>,
        nodes: &mut Vec<Node>,
    ) -> Result<usize, GenError> {
        let mut fields = BTreeMap::new();
        for (name, t, range) in self.g.fields(class)? {
            let r = match t {
                FieldType::Object(_) => Ref::Null,
                _ => self.value_of(&t, &range, 1)?,
            };
            fields.insert(name, r);
        }
        // a box's value, which the model does not keep but the run's paths depend on
        if let Some((name, t)) = models::input_only_field(class) {
            let r = self.value_of(&t, &None, 1)?;
            fields.insert(name, r);
        }
        let r = self.out.new_obj(HeapValue::Object {
            class: class.to_string(),
            fields,
        });
        self.add_elements(r)?;
        nodes.push(Node {
            r,
            class: class.to_string(),
            parent,
        });
        Ok(nodes.len() - 1)
    }

    /// A drawn collection's elements ([`models::collections::element_field`]): as many
    /// `Integer` values as its drawn size, drawn like ints, distinct where the collection
    /// keeps distinct ones (a set, a map's keys). Nothing for other objects, or for a
    /// collection that has them already.
    pub(super) fn add_elements(&mut self, obj: Ref) -> Result<(), GenError> {
        let Some(HeapValue::Object { class, fields }) = self.out.value(obj) else {
            return Ok(());
        };
        if !models::collections::is_generated(class)
            || fields.contains_key(models::collections::element_field(0).as_str())
        {
            return Ok(());
        }
        let distinct = models::collections::distinct_elements(class);
        let size = fields
            .get(models::collections::SIZE)
            .and_then(|s| self.out.int(*s))
            .and_then(Interval::as_literal)
            .ok_or_else(|| GenError::Unsupported(format!("collection {obj} without a size")))?;
        let mut seen = BTreeSet::new();
        let mut elems = Vec::new();
        for k in 0..usize::try_from(size).unwrap_or(0) {
            let r = self.value_of(&FieldType::Int, &None, 1)?;
            let mut v = self.out.int(r).and_then(Interval::as_literal).unwrap_or(0);
            while distinct && !seen.insert(v) {
                // the next free value (a set of the drawn size)
                v = if v >= i128::from(i32::MAX) {
                    i128::from(i32::MIN)
                } else {
                    v + 1
                };
            }
            let r = self.out.new_int(Interval::literal(v));
            elems.push((FieldKey::plain(&models::collections::element_field(k)), r));
        }
        if let Some(HeapValue::Object { fields, .. }) = self.out.heap.get_mut(&obj) {
            fields.extend(elems);
        }
        Ok(())
    }

    /// The object-typed fields of node `idx` as `(idx, field, type)`.
    fn slots(
        &self,
        idx: usize,
        nodes: &[Node],
    ) -> Result<Vec<(usize, FieldKey, String)>, GenError> {
        Ok(self
            .g
            .fields(&nodes[idx].class)?
            .into_iter()
            .filter_map(|(name, t, _)| match t {
                FieldType::Object(c) => Some((idx, name, c)),
                _ => None,
            })
            .collect())
    }

    fn set_field(&mut self, obj: Ref, field: &FieldKey, to: Ref) {
        if let Some(HeapValue::Object { fields, .. }) = self.out.heap.get_mut(&obj) {
            fields.insert(field.clone(), to);
        }
    }

    fn field(&self, obj: Ref, field: &FieldKey) -> Option<Ref> {
        match self.out.value(obj) {
            Some(HeapValue::Object { fields, .. }) => fields.get(field).copied(),
            _ => None,
        }
    }

    /// The null object slots of the tree whose type admits `target`, as `(node, field)`.
    fn free_slots_for(&self, t: &Tree, target: Ref) -> Result<Vec<(usize, FieldKey)>, GenError> {
        let mut v = Vec::new();
        for (i, n) in t.nodes.iter().enumerate() {
            for (field, fty) in self.slots(i, &t.nodes)?.into_iter().map(|(_, f, c)| (f, c)) {
                if self.field(n.r, &field) == Some(Ref::Null) && self.is_a(target, &fty) {
                    v.push((i, field));
                }
            }
        }
        Ok(v)
    }

    /// Ancestors of node `i` (itself first, the root last), with the field leading to each
    /// node from its parent.
    fn path_up(t: &Tree, i: usize) -> Vec<(usize, Option<FieldKey>)> {
        let mut v = vec![];
        let mut cur = Some(i);
        while let Some(c) = cur {
            let p = t.nodes[c].parent.clone();
            v.push((c, p.as_ref().map(|(_, f)| f.clone())));
            cur = p.map(|(p, _)| p);
        }
        v
    }

    /// Closes one cycle: a free slot of a node `x` points to an ancestor-or-self `a` of `x`
    /// (the root for a full cycle, a node below it for a panhandle) such that the cycle
    /// `a → … → x → a` uses every field of `need`. Leaves the tree alone if no slot fits
    /// (returns whether it closed one). Several such edges keep `⟲need`: a cycle of a tree
    /// with back edges enters the subtree of every node on the tree path from the highest
    /// target `a` it visits to that back edge's source `x` through its tree edge (back edges
    /// stay inside the subtree of their target), so it uses every field of that one cycle.
    fn back_edge(
        &mut self,
        t: &Tree,
        need: &[FieldKey],
        panhandle: bool,
    ) -> Result<bool, GenError> {
        let mut options = Vec::new();
        for (i, n) in t.nodes.iter().enumerate() {
            let up = Self::path_up(t, i);
            let mut fields: Vec<FieldKey> = Vec::new();
            for (a, into_a) in up.iter() {
                let is_root = *a == 0;
                if is_root != panhandle {
                    let target = t.nodes[*a].r;
                    for (x, f) in self.free_slots_for(t, target)? {
                        if x != i {
                            continue;
                        }
                        let mut all = fields.clone();
                        all.push(f.clone());
                        if need.iter().all(|nf| all.contains(nf)) {
                            options.push((n.r, f, target));
                        }
                    }
                }
                if let Some(f) = into_a {
                    fields.push(f.clone());
                }
            }
        }
        if options.is_empty() {
            return Ok(false);
        }
        let (x, f, a) = options.swap_remove(self.rng.gen_range(0..options.len()));
        self.set_field(x, &f, a);
        Ok(true)
    }

    /// One edge from a free slot of a node `x` to a node that is no ancestor of `x`: two paths
    /// meet, no cycle.
    fn cross_edge(&mut self, t: &Tree) -> Result<(), GenError> {
        let mut options = Vec::new();
        for (i, n) in t.nodes.iter().enumerate() {
            let up: Vec<usize> = Self::path_up(t, i).into_iter().map(|p| p.0).collect();
            for (j, m) in t.nodes.iter().enumerate() {
                if up.contains(&j) {
                    continue;
                }
                for (x, f) in self.free_slots_for(t, m.r)? {
                    if x == i {
                        options.push((n.r, f, m.r));
                    }
                }
            }
        }
        if !options.is_empty() {
            let (x, f, y) = options.swap_remove(self.rng.gen_range(0..options.len()));
            self.set_field(x, &f, y);
        }
        Ok(())
    }

    /// One edge from a free slot of the tree into `pool` (another root's structure).
    fn edge_into(&mut self, t: &Tree, pool: &[Ref]) -> Result<(), GenError> {
        let mut options = Vec::new();
        for &y in pool.iter().filter(|y| y.is_obj()) {
            for (x, f) in self.free_slots_for(t, y)? {
                options.push((t.nodes[x].r, f, y));
            }
        }
        if !options.is_empty() {
            let (x, f, y) = options.swap_remove(self.rng.gen_range(0..options.len()));
            self.set_field(x, &f, y);
        }
        Ok(())
    }

    /// The reach plan for `h →!F t`: an F-chain of fresh `class` nodes ending in `t`'s object.
    fn reach(&mut self, h: Ref, class: &str, m: &MustReach) -> Result<Ref, GenError> {
        let target = self.map.get(&m.to).copied().ok_or_else(|| {
            GenError::Unsupported(format!(
                "{h}→!{}{}: the target has no value yet",
                jtg_engine::state::fmt_fields(&m.fields),
                m.to
            ))
        })?;
        let may_be_target = self.g.start.preds.may_equal(h, m.to) || target.is_null();
        let lo = usize::from(!may_be_target);
        // A realized target counts toward the structure's size (`this` of a ring).
        let realized = matches!(self.g.start.value(m.to), Some(HeapValue::Object { .. }));
        let max = (self.max - usize::from(realized && self.max > 1)).max(lo);
        let n = self.rng.gen_range(lo..=max);
        if n == 0 {
            return Ok(target);
        }
        let mut first = Ref::Null;
        let mut prev: Option<(Ref, FieldKey)> = None;
        let mut chain = Vec::with_capacity(n);
        for _ in 0..n {
            let mut nodes = Vec::new();
            let i = self.node(class, None, &mut nodes)?;
            let r = nodes[i].r;
            let f = self
                .g
                .fields(class)?
                .into_iter()
                .map(|(name, _, _)| name)
                .find(|name| m.fields.contains(name))
                .ok_or_else(|| {
                    GenError::Unsatisfiable(format!(
                        "{h}→!{}{}: {class} has none of these fields",
                        jtg_engine::state::fmt_fields(&m.fields),
                        m.to
                    ))
                })?;
            match &prev {
                Some((p, pf)) => self.set_field(*p, pf, r),
                None => first = r,
            }
            chain.push(r);
            prev = Some((r, f));
        }
        if let Some((p, pf)) = prev {
            self.set_field(p, &pf, target);
        }
        self.link_chain(h, m, &chain, target)?;
        Ok(first)
    }

    /// The other reference fields of a reach chain's nodes, where `h`'s predicates allow any
    /// shape (`h⟲∅` and `h♦` or `h %$ h`): each, with probability 1/2, points to a node of the
    /// chain (itself included) or, with `h %$ t`, to the target `t`; else it stays `null`.
    /// Without this, those fields were always `null`, and no run had, say, a sentinel list
    /// node whose `previous` is itself.
    fn link_chain(
        &mut self,
        h: Ref,
        m: &MustReach,
        chain: &[Ref],
        target: Ref,
    ) -> Result<(), GenError> {
        let preds = &self.g.start.preds;
        let any_cycle = preds.cyclic(h).is_some_and(|f| f.is_empty());
        let may_share = preds.is_non_tree(h) || preds.joins(h, h);
        if !any_cycle || !may_share {
            return Ok(());
        }
        let mut pool = chain.to_vec();
        if target.is_obj() && preds.joins(h, m.to) {
            pool.push(target);
        }
        for &x in chain {
            let Some(HeapValue::Object { class, .. }) = self.out.value(x) else {
                continue;
            };
            let class = class.clone();
            for (name, t, _) in self.g.fields(&class)? {
                let FieldType::Object(ty) = t else { continue };
                if m.fields.contains(&name) || !self.rng.gen_bool(0.5) {
                    continue;
                }
                let fits: Vec<Ref> = pool
                    .iter()
                    .copied()
                    .filter(|c| self.is_a(*c, &ty))
                    .collect();
                if !fits.is_empty() {
                    let to = fits[self.rng.gen_range(0..fits.len())];
                    self.set_field(x, &name, to);
                }
            }
        }
        Ok(())
    }
}

/// What to build for one hole (see the module docs).
enum Plan {
    Null,
    Tree,
    Cycle(Vec<FieldKey>),
    Panhandle(Vec<FieldKey>),
    Dag,
    Share(Vec<Ref>),
    Alias(Vec<Ref>),
}
