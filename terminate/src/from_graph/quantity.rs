//! The integer quantities of one state (docs/proving.md, *From graphs to ITS*): its integer
//! references (ints and longs) that are not literals, the *size* of every object reference
//! (spec §9, CAV'12 path-length abstraction) and the *distance* of every must-reach fact
//! `a →!F b` (spec §3, CAV'12: the length of the F-path from `a` to `b`), with the facts the
//! state guarantees about them; and the *length* of every array and string reference (fixed
//! for the object's life: JLS §10.3, an array's length never changes; `String` is immutable).

use jtg_engine::class::FieldType;
use jtg_engine::models::{is_always_jdk, is_jdk_class, STRING};
use jtg_engine::state::access::{f_successor, object_children};
use jtg_engine::state::{FieldKey, FieldSet, HeapValue, Ref, State};
use jtg_engine::Program;
use jtg_prove::BigInt;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr, Var};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// One variable of a location: the value of an integer reference, the size of an object
/// reference (the number of objects reachable from it; `null` has size 0), or the distance of
/// a must-reach fact `from →!F to` of the state: the number of F-steps from `from` to `to`
/// (0 when they are one value; F is the state's, [`dist_fields`]); or the length of an array
/// or string reference (`0` for null), which no step changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quantity {
    Int(Ref),
    Size(Ref),
    Dist(Ref, Ref),
    Len(Ref),
    /// The greatest length among the arrays or strings an array of arrays or strings holds
    /// (`0` when it holds none, only nulls, or is null). Only a store of an element changes
    /// it (an element's own length never changes), so a loop bound `g[i].length` read afresh
    /// in every iteration stays below one variable while `g` keeps its elements.
    ElemLen(Ref),
    /// The number of objects reachable from the reference without a step through the field
    /// (`null`: 0): finite and decreasing along the other fields where every cycle uses the
    /// field (`⟲F` with the field in `F`, spec §3), as the `prev` walk of a doubly linked list.
    SizeAvoiding(Ref, FieldName),
}

/// A field name interned for the process, so that quantities stay `Copy`; ordered by the
/// name (not by when it was first seen), so the variables of a state are numbered alike
/// whatever ran before. The table holds one entry per distinct field name that bounds a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FieldName(&'static str);

impl FieldName {
    pub fn of(key: &FieldKey) -> FieldName {
        static NAMES: OnceLock<Mutex<BTreeSet<&'static str>>> = OnceLock::new();
        let mut names = NAMES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        match names.get(key.as_str()) {
            Some(n) => FieldName(n),
            None => {
                let n: &'static str = Box::leak(key.as_str().to_string().into_boxed_str());
                names.insert(n);
                FieldName(n)
            }
        }
    }
    /// The field's key in its wire form (`name`, `pkg/Decl.name` for a shadowed field).
    pub fn as_str(self) -> &'static str {
        self.0
    }
    /// The name as a part of an ITS variable name: `elems` for array elements, and `_` for
    /// what an identifier cannot hold (the `/` and `.` of a shadowed field's key).
    fn ident(self) -> String {
        if self.0 == FieldKey::array_elements().as_str() {
            return "elems".into();
        }
        self.0
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }
    fn is(self, key: &FieldKey) -> bool {
        self.0 == key.as_str()
    }
}

impl Quantity {
    /// The reference the quantity is of (for a distance: where the path starts).
    pub fn reference(self) -> Ref {
        match self {
            Quantity::Int(r)
            | Quantity::Size(r)
            | Quantity::Dist(r, _)
            | Quantity::Len(r)
            | Quantity::ElemLen(r)
            | Quantity::SizeAvoiding(r, _) => r,
        }
    }
    /// The ITS variable name: `i3` for an integer, `sz_o2` for the size of `o2`, `d_o2_o1` for
    /// the distance from `o2` to `o1`.
    pub fn var_name(self) -> String {
        match self {
            Quantity::Int(r) => r.to_string(),
            Quantity::Size(r) => format!("sz_{r}"),
            Quantity::Dist(a, b) => format!("d_{a}_{b}"),
            Quantity::Len(r) => format!("len_{r}"),
            Quantity::ElemLen(r) => format!("elen_{r}"),
            Quantity::SizeAvoiding(r, f) => format!("sz_{r}_no_{}", f.ident()),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::Int(r) => write!(f, "{r}"),
            Quantity::Size(r) => write!(f, "|{r}|"),
            Quantity::Dist(a, b) => write!(f, "dist({a}, {b})"),
            Quantity::Len(r) => write!(f, "len({r})"),
            Quantity::ElemLen(r) => write!(f, "maxlen({r}[*])"),
            Quantity::SizeAvoiding(r, g) => write!(f, "|{r}|∖{}", g.as_str()),
        }
    }
}

/// The quantities of a state, in a fixed order (integers by reference, then sizes, then
/// distances by their must-reach fact, then lengths).
pub(crate) fn quantities(s: &State) -> Vec<Quantity> {
    let mut ints = Vec::new();
    let mut sizes = Vec::new();
    let mut lens = Vec::new();
    let cuts = cut_fields(s);
    for (r, v) in &s.heap {
        match v {
            HeapValue::Int(i) | HeapValue::Long(i) if i.as_literal().is_none() => {
                ints.push(Quantity::Int(*r))
            }
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float(_) | HeapValue::Double(_) => {
            }
            _ => {
                sizes.push(Quantity::Size(*r));
                sizes.extend(cuts.iter().map(|g| Quantity::SizeAvoiding(*r, *g)));
                if has_length(v) {
                    lens.push(Quantity::Len(*r));
                }
                if has_element_lengths(v) {
                    lens.push(Quantity::ElemLen(*r));
                }
            }
        }
    }
    ints.extend(sizes);
    let mut dists: Vec<Quantity> = Vec::new();
    for m in &s.preds.must_reach {
        let q = Quantity::Dist(m.from, m.to);
        if m.from.is_obj() && !m.to.is_int() && !dists.contains(&q) {
            dists.push(q);
        }
    }
    dists.sort();
    ints.extend(dists);
    ints.extend(lens);
    ints
}

/// The variables of a location at a node of state `s`: its [`quantities`], without the
/// greatest element lengths unless `element_lengths` (see `EncodeOptions`). Every positional
/// list of a location's variables (the encoding's, a callee summary's) is this one.
pub(crate) fn location_quantities(s: &State, element_lengths: bool) -> Vec<Quantity> {
    let mut qs = quantities(s);
    if !element_lengths {
        qs.retain(|q| !matches!(q, Quantity::ElemLen(_)));
    }
    qs
}

/// The fields some `⟲F` of `s` names: without a step through one of them the structures of
/// the state have fewer cycles (none below a reference whose `F` holds it).
pub(crate) fn cut_fields(s: &State) -> BTreeSet<FieldName> {
    s.preds
        .cyclic
        .values()
        .flatten()
        .map(FieldName::of)
        .collect()
}

/// Whether the value is (null or) an array or a string: an object with a length that never
/// changes. A reference of a wider static type (`Object`) has no length quantity.
pub(crate) fn has_length(v: &HeapValue) -> bool {
    match v {
        HeapValue::Array { .. } => true,
        HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => {
            ty.starts_with('[') || is_string(ty)
        }
        HeapValue::Object { class, .. } => is_string(class),
        _ => false,
    }
}

/// Whether the value is (null or) an array whose elements have lengths: an array of arrays
/// or of strings, by its type (`int[][]`, `String[]`).
pub(crate) fn has_element_lengths(v: &HeapValue) -> bool {
    let ty = match v {
        HeapValue::Array { ty, .. } | HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => ty,
        _ => return false,
    };
    ty.starts_with("[[")
        || ty
            .strip_prefix("[L")
            .and_then(|t| t.strip_suffix(';'))
            .is_some_and(is_string)
}

fn is_string(class: &str) -> bool {
    class == STRING || class == "java.lang.String"
}

/// The integer reference holding the length of a realized array or string (`len`, the
/// string model's `count`).
fn length_ref(v: &HeapValue) -> Option<Ref> {
    match v {
        HeapValue::Array { len, .. } => Some(*len),
        HeapValue::Object { class, fields } if is_string(class) => fields.get("count").copied(),
        _ => None,
    }
}

/// The field set of the distance `from → to` in `s`: that of its must-reach fact (the first
/// in the state's order when two facts join the same pair through different fields).
pub(crate) fn dist_fields(s: &State, from: Ref, to: Ref) -> Option<&FieldSet> {
    s.preds
        .must_reach
        .iter()
        .find(|m| m.from == from && m.to == to)
        .map(|m| &m.fields)
}

/// Whether `a` and `b` are different values in every instance of `s`: different references
/// without `a =? b` are different objects or one of them is null (spec §3), so they differ
/// for sure when one of them is known to exist.
pub(crate) fn surely_distinct(s: &State, a: Ref, b: Ref) -> bool {
    let exists = |r: Ref| s.value(r).is_some_and(HeapValue::exists);
    a != b && !s.preds.may_equal(a, b) && (exists(a) || exists(b))
}

/// Unfoldings of a distance through realized objects (a bound: realized cycles such as
/// `o1.next = o1` would unfold forever).
const DIST_UNFOLD: usize = 8;

/// How the quantities of a state read: the expression of an integer reference (its literal or
/// its variable) and of the size of an object reference (`0` for null).
pub(crate) struct Slots<'a> {
    pub state: &'a State,
    pub vars: BTreeMap<Quantity, Var>,
}

impl Slots<'_> {
    /// The integer value of `r`: a literal, a variable, or `None` (not an integer here).
    pub(crate) fn int(&self, r: Ref) -> Option<LinExpr> {
        let i = self.state.integral(r)?;
        match i.as_literal() {
            Some(v) => Some(LinExpr::constant(Q::from(BigInt::from(v)))),
            None => self.vars.get(&Quantity::Int(r)).map(|v| LinExpr::var(*v)),
        }
    }
    /// The size of `r`: `0` for null, its variable for an object of the state.
    pub(crate) fn size(&self, r: Ref) -> Option<LinExpr> {
        if r.is_null() {
            return Some(LinExpr::zero());
        }
        self.vars.get(&Quantity::Size(r)).map(|v| LinExpr::var(*v))
    }
    /// The size of `r` without steps through `g`: `0` for null, its variable for an object.
    pub(crate) fn size_avoiding(&self, r: Ref, g: FieldName) -> Option<LinExpr> {
        if r.is_null() {
            return Some(LinExpr::zero());
        }
        self.vars
            .get(&Quantity::SizeAvoiding(r, g))
            .map(|v| LinExpr::var(*v))
    }
    /// The length of `r`: `0` for null, its variable for an array or string of the state.
    pub(crate) fn len(&self, r: Ref) -> Option<LinExpr> {
        if r.is_null() {
            return Some(LinExpr::zero());
        }
        self.vars.get(&Quantity::Len(r)).map(|v| LinExpr::var(*v))
    }
    /// The greatest element length of `r`: `0` for null, its variable for an array of arrays
    /// or strings of the state.
    pub(crate) fn elem_len(&self, r: Ref) -> Option<LinExpr> {
        if r.is_null() {
            return Some(LinExpr::zero());
        }
        self.vars
            .get(&Quantity::ElemLen(r))
            .map(|v| LinExpr::var(*v))
    }
    pub(crate) fn of(&self, q: Quantity) -> Option<LinExpr> {
        match q {
            Quantity::Int(r) => self.int(r),
            Quantity::Size(r) => self.size(r),
            Quantity::Len(r) => self.len(r),
            Quantity::ElemLen(r) => self.elem_len(r),
            Quantity::SizeAvoiding(r, g) => self.size_avoiding(r, g),
            Quantity::Dist(a, b) => {
                let fields = dist_fields(self.state, a, b)?;
                self.dist(a, b, fields)
            }
        }
    }
    /// The number of F-steps from `a` to `b` in every instance, as an expression: `0` for one
    /// reference, the state's distance variable for a must-reach fact `a →!F b` (same F), and
    /// `1 + dist(c, b)` through a realized `a` whose one F-field holds `c` when `a` and `b`
    /// surely differ (the F-path of `a` then starts with the step to `c`). `None` when the
    /// state does not determine it.
    pub(crate) fn dist(&self, a: Ref, b: Ref, fields: &FieldSet) -> Option<LinExpr> {
        self.dist_unfolded(a, b, fields, DIST_UNFOLD)
    }

    fn dist_unfolded(&self, a: Ref, b: Ref, fields: &FieldSet, fuel: usize) -> Option<LinExpr> {
        if a == b {
            return Some(LinExpr::zero());
        }
        if dist_fields(self.state, a, b) == Some(fields) {
            if let Some(v) = self.vars.get(&Quantity::Dist(a, b)) {
                return Some(LinExpr::var(*v));
            }
        }
        self.dist_step(a, b, fields, fuel)
    }

    /// `1 + dist(c, b)` for the F-successor `c` of a realized `a` that surely differs from `b`.
    fn dist_step(&self, a: Ref, b: Ref, fields: &FieldSet, fuel: usize) -> Option<LinExpr> {
        if fuel == 0 || !surely_distinct(self.state, a, b) {
            return None;
        }
        let c = f_successor(self.state.value(a)?, fields)?;
        let rest = self.dist_unfolded(c, b, fields, fuel - 1)?;
        Some(rest.plus(&LinExpr::constant(Q::one())))
    }
}

/// The facts a state guarantees about its quantities (spec §2.1, §3):
/// * every integer lies in its interval;
/// * a size is `≥ 0`, and `≥ 1` for an object known to exist;
/// * a realized object `o` with a reference field (or array element) `r`, whose structure is
///   acyclic (no `⟲` on anything reachable from `o`, no realized cycle through it), is larger:
///   `|o| ≥ |r| + 1` — `r` cannot reach `o`, so everything reachable from `r` and `o` itself
///   are reachable from `o`;
/// * a distance `dist(a, b)` of `a →!F b` is `≥ 0`, `≥ 1` when `a` and `b` surely differ, and
///   `1 + dist(c, b)` when `a` is realized with the one F-successor `c` ([`Slots::dist`]);
/// * the greatest element length of an array is `≥ 0` and at least each shown element's.
pub(crate) fn facts(slots: &Slots<'_>) -> Vec<Constraint> {
    let s = slots.state;
    let mut out = Vec::new();
    for (q, v) in &slots.vars {
        let x = LinExpr::var(*v);
        match *q {
            Quantity::Int(r) => {
                if let Some(i) = s.integral(r) {
                    if let Some(lo) = i.lo {
                        out.push(Constraint::ge(&x, &LinExpr::constant(big(lo))));
                    }
                    if let Some(hi) = i.hi {
                        out.push(Constraint::le(&x, &LinExpr::constant(big(hi))));
                    }
                }
            }
            Quantity::Size(r) => {
                let exists = s.value(r).is_some_and(HeapValue::exists);
                let min = if exists { 1 } else { 0 };
                out.push(Constraint::ge(&x, &LinExpr::constant(Q::int(min))));
                if !exists || !acyclic_below(s, r) {
                    continue;
                }
                for child in children(s, r) {
                    if child.is_obj() {
                        if let Some(c) = slots.size(child) {
                            out.push(Constraint::ge(&x, &c.plus(&LinExpr::constant(Q::one()))));
                        }
                    }
                }
            }
            Quantity::SizeAvoiding(r, g) => {
                let exists = s.value(r).is_some_and(HeapValue::exists);
                let min = if exists { 1 } else { 0 };
                out.push(Constraint::ge(&x, &LinExpr::constant(Q::int(min))));
                if !exists || !acyclic_avoiding(s, r, g) {
                    continue;
                }
                for (key, child) in fields_of(s, r) {
                    if child.is_obj() && !g.is(&key) {
                        if let Some(c) = slots.size_avoiding(child, g) {
                            out.push(Constraint::ge(&x, &c.plus(&LinExpr::constant(Q::one()))));
                        }
                    }
                }
            }
            Quantity::Dist(a, b) => {
                let Some(fields) = dist_fields(s, a, b) else {
                    continue;
                };
                let distinct = surely_distinct(s, a, b);
                let min = if distinct { 1 } else { 0 };
                out.push(Constraint::ge(&x, &LinExpr::constant(Q::int(min))));
                if let Some(e) = slots.dist_step(a, b, fields, DIST_UNFOLD) {
                    out.push(Constraint::eq(&x, &e));
                }
            }
            Quantity::Len(r) => {
                out.push(Constraint::ge(&x, &LinExpr::zero()));
                // a realized array's `len`, a string's `count`
                let held = s.value(r).and_then(length_ref).and_then(|l| slots.int(l));
                if let Some(l) = held {
                    out.push(Constraint::eq(&x, &l));
                }
            }
            Quantity::ElemLen(r) => {
                out.push(Constraint::ge(&x, &LinExpr::zero()));
                // the elements a concrete array shows are no longer than the greatest
                if let Some(HeapValue::Array {
                    elems: Some(elems), ..
                }) = s.value(r)
                {
                    for e in elems {
                        if let Some(l) = slots.len(*e) {
                            out.push(Constraint::le(&l, &x));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Exact sizes of realized objects (spec §9's path-length sizes): `|o| = 1 + Σ |c|` over its
/// reference fields or elements `c`. Always `≤`, since everything `o` reaches is `o` or
/// reached from a child; `≥` when the structure below `o` is acyclic and the children's
/// structures are disjoint (no shared object, no `%$` or `=?` between them: every instance
/// keeps them apart) — trivially so for no child or one. So `new Nat(x)` has size `|x| + 1`.
/// The same for a size without `g`-steps over the children through other fields.
/// Only where the state shows every reference the concrete object has
/// ([`shows_all_references`]).
pub(crate) fn size_bounds(slots: &Slots<'_>, prog: &Program) -> Vec<Constraint> {
    let s = slots.state;
    let mut out = Vec::new();
    for (q, v) in &slots.vars {
        let (r, skip) = match *q {
            Quantity::Size(r) => (r, None),
            Quantity::SizeAvoiding(r, g) => (r, Some(g)),
            _ => continue,
        };
        if !shows_all_references(s, r, prog) {
            continue;
        }
        let kids: Vec<Ref> = fields_of(s, r)
            .into_iter()
            .filter(|(k, c)| c.is_obj() && skip.is_none_or(|g| !g.is(k)))
            .map(|(_, c)| c)
            .collect();
        let size = |c: Ref| match skip {
            None => slots.size(c),
            Some(g) => slots.size_avoiding(c, g),
        };
        let Some(sizes) = kids.iter().map(|c| size(*c)).collect::<Option<Vec<_>>>() else {
            continue;
        };
        let sum = sizes
            .iter()
            .fold(LinExpr::constant(Q::one()), |acc, e| acc.plus(e));
        // only where the bound makes the size exact (with [`facts`]' `|o| ≥ |c| + 1` for one
        // child): a bare upper bound costs the prover rows and rarely decides a proof
        let acyclic = || match skip {
            None => acyclic_below(s, r),
            Some(g) => acyclic_avoiding(s, r, g),
        };
        let exact = match kids.len() {
            0 => true,
            1 => acyclic(),
            _ => acyclic() && disjoint_below(s, &kids),
        };
        if exact {
            out.push(Constraint::eq(&LinExpr::var(*v), &sum));
        }
    }
    out
}

/// Whether the state shows every reference the concrete object of `r` holds: a realized array
/// (all its elements), an object of a `java.` class (the tracer records none of their fields,
/// so their concrete size is 1), or a realized object of a program class whose superclasses
/// are program classes too, with every reference field of its class present.
fn shows_all_references(s: &State, r: Ref, prog: &Program) -> bool {
    match s.value(r) {
        Some(HeapValue::Array { elems: Some(_), .. }) => true,
        Some(HeapValue::Object { class, fields }) => {
            if is_always_jdk(class) {
                return true;
            }
            // program classes up to the root of the hierarchy (the one class without a
            // superclass), whose instances the tracer records with every field
            if is_jdk_class(class) {
                return false;
            }
            let mut c = class.to_string();
            loop {
                match prog.hierarchy.super_of(&c) {
                    Ok(Some(sup)) if !is_jdk_class(&sup) => c = sup,
                    Ok(Some(sup)) if matches!(prog.hierarchy.super_of(&sup), Ok(None)) => break,
                    _ => return false,
                }
            }
            prog.hierarchy.instance_fields(class).is_ok_and(|fs| {
                fs.iter()
                    .filter(|f| matches!(f.ty, FieldType::Object(_) | FieldType::Array(_)))
                    .all(|f| fields.keys().any(|k| k.name() == f.name))
            })
        }
        _ => false,
    }
}

/// Whether the structures below `kids` share nothing in any instance: their realized parts
/// are disjoint and no two references of different parts are `%$` or `=?`.
fn disjoint_below(s: &State, kids: &[Ref]) -> bool {
    let parts: Vec<BTreeSet<Ref>> = kids.iter().map(|c| s.reachable_from([*c])).collect();
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            for x in a {
                if b.contains(x)
                    || b.iter()
                        .any(|y| s.preds.joins(*x, *y) || s.preds.may_equal(*x, *y))
                {
                    return false;
                }
            }
        }
    }
    true
}

fn big(v: i128) -> Q {
    Q::from(BigInt::from(v))
}

/// The object references held by the fields or elements of `r` (integers excluded).
pub(crate) fn children(s: &State, r: Ref) -> Vec<Ref> {
    match s.value(r) {
        Some(HeapValue::Object { fields, .. }) => {
            fields.values().copied().filter(|c| !c.is_int()).collect()
        }
        Some(HeapValue::Array {
            elems: Some(elems), ..
        }) => elems.iter().copied().filter(|c| !c.is_int()).collect(),
        _ => Vec::new(),
    }
}

/// Whether every instance of `s` has an acyclic structure below `r`: nothing reachable from
/// `r` (realized fields) carries `⟲`, and the realized part has no cycle. Without `⟲` no
/// concrete instance may hide a cycle (spec §3, §4.2 (k), (m)).
pub(crate) fn acyclic_below(s: &State, r: Ref) -> bool {
    !s.may_reach_cycle(r)
}

/// The object references `r` holds with the fields that hold them (`[]` for elements).
fn fields_of(s: &State, r: Ref) -> Vec<(FieldKey, Ref)> {
    s.value(r).map_or_else(Vec::new, |v| {
        object_children(v)
            .map(|(step, c)| (step.field_key(), c))
            .collect()
    })
}

/// Whether no cycle that avoids field `g` lies below `r` in any instance of `s`: nothing `r`
/// reaches through realized fields other than `g` carries a `⟲F` without `g` in `F`, and those
/// fields close no cycle ([`acyclic_below`] for the structure without `g`-steps: a cycle that
/// leaves the realized part lies below such a reference, spec §4.2 (k)). Then what a child
/// of `r` reaches without `g` excludes `r`.
pub(crate) fn acyclic_avoiding(s: &State, r: Ref, g: FieldName) -> bool {
    let below = s.reachable_skipping(r, Some(g.as_str()));
    below
        .iter()
        .all(|x| s.preds.cyclic(*x).is_none_or(|f| f.iter().any(|k| g.is(k))))
        && !s.realized_cycle(&below, Some(g.as_str()))
}

/// References of `s` whose structure may reach `target` (so a write into `target` may change
/// their size): `target`, what reaches it through realized fields, and what may be or share
/// with one of those (`=?`, `%$`: hidden paths, spec §3).
pub(crate) fn may_reach(s: &State, target: Ref) -> BTreeSet<Ref> {
    let mut set: BTreeSet<Ref> = BTreeSet::new();
    if target.is_null() {
        return set;
    }
    set.insert(target);
    loop {
        let mut added = false;
        for r in s.heap.keys() {
            if set.contains(r) {
                continue;
            }
            let reaches = children(s, *r).iter().any(|c| set.contains(c))
                || set
                    .iter()
                    .any(|t| s.preds.joins(*r, *t) || s.preds.may_equal(*r, *t));
            if reaches {
                set.insert(*r);
                added = true;
            }
        }
        if !added {
            return set;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtg_engine::state::text::{parse_state, TextContext};

    fn state(text: &str) -> State {
        parse_state(text, &TextContext::plain()).expect("state")
    }

    fn slots(s: &State) -> Slots<'_> {
        let vars = quantities(s)
            .into_iter()
            .enumerate()
            .map(|(k, q)| (q, Var(k as u32)))
            .collect();
        Slots { state: s, vars }
    }

    /// `o3 →!{next} o1` behind two realized nodes `o1.next = o2`, `o2.next = o3`.
    const WALK: &str = "A.m()V 00 | l0: o1 | ε\n\
        o1: L(next=o2)  o2: L(next=o3)  o3: L(?)\n\
        o1=?o3  o2=?o3  o1%$o3  o2%$o3  o3%$o3  o1⟲{next}  o2⟲{next}  o3⟲{next}  o3→!{next}o1";

    /// `o1.prev = o2` in a doubly linked list whose every cycle uses `next` and `prev`.
    const DOUBLY: &str = "A.m()V 00 | l0: o1 | ε\n\
        o1: L(next=null, prev=o2)  o2: L(?)\n\
        o2%$o2  o2♦  o2⟲{next,prev}";

    #[test]
    fn a_size_without_one_field_of_every_cycle_decreases_along_the_others() {
        let s = state(DOUBLY);
        let sl = slots(&s);
        let next = FieldName::of(&FieldKey::plain("next"));
        let prev = FieldName::of(&FieldKey::plain("prev"));
        let q = |r, g| Quantity::SizeAvoiding(Ref::Obj(r), g);
        assert!(quantities(&s).contains(&q(2, next)) && quantities(&s).contains(&q(2, prev)));
        assert_eq!(q(1, next).var_name(), "sz_o1_no_next");
        let x = |r, g| LinExpr::var(sl.vars[&q(r, g)]);
        let one = LinExpr::constant(Q::one());
        let fs = facts(&sl);
        // along prev, without next: |o1|∖next ≥ |o2|∖next + 1
        assert!(fs.contains(&Constraint::ge(&x(1, next), &x(2, next).plus(&one))));
        // without prev nothing decreases along prev, and the plain size knows nothing
        assert!(!fs.contains(&Constraint::ge(&x(1, prev), &x(2, prev).plus(&one))));
        let sz = |r| LinExpr::var(sl.vars[&Quantity::Size(Ref::Obj(r))]);
        assert!(!fs.contains(&Constraint::ge(&sz(1), &sz(2).plus(&one))));
        // a cycle through prev alone may be below o2: no size without next, and a state
        // whose cycles name no field has no such sizes at all
        let ring = state(&DOUBLY.replace("o2⟲{next,prev}", "o2⟲{prev}"));
        assert!(!quantities(&ring).contains(&q(1, next)));
        assert!(acyclic_avoiding(&ring, Ref::Obj(1), prev));
        assert!(!acyclic_avoiding(&ring, Ref::Obj(1), next));
        let any = state(&DOUBLY.replace("o2⟲{next,prev}", "o2⟲{}"));
        assert!(!quantities(&any)
            .iter()
            .any(|q| matches!(q, Quantity::SizeAvoiding(..))));
    }

    #[test]
    fn an_array_of_arrays_or_strings_has_a_greatest_element_length() {
        let s = state(
            "A.m()V 00 | l0: o1, l1: o2, l2: o3, l3: o4 | ε\n\
             o1: int[][](len=i1)  o2: java.lang.String[](len=i2)  o3: int[](len=i3)\n\
             o4: int[][](len=i4)[o5, null]  o5: int[](len=i5)\n\
             i1: [>=0]  i2: [>=0]  i3: [>=0]  i4: 2  i5: [>=0]",
        );
        let qs = quantities(&s);
        let el = |r| Quantity::ElemLen(Ref::Obj(r));
        assert!(qs.contains(&el(1)) && qs.contains(&el(2)) && qs.contains(&el(4)));
        // an int[]'s elements have no length
        assert!(!qs.contains(&el(3)) && !qs.contains(&el(5)));
        assert_eq!(el(1).var_name(), "elen_o1");
        assert_eq!(el(1).to_string(), "maxlen(o1[*])");
        let sl = slots(&s);
        let x = |q| LinExpr::var(sl.vars[&q]);
        let fs = facts(&sl);
        assert!(fs.contains(&Constraint::ge(&x(el(1)), &LinExpr::zero())));
        // a shown element is no longer than the greatest
        assert!(fs.contains(&Constraint::le(&x(Quantity::Len(Ref::Obj(5))), &x(el(4)))));
    }

    #[test]
    fn a_must_reach_fact_is_a_distance_variable() {
        let s = state(WALK);
        let qs = quantities(&s);
        let d = Quantity::Dist(Ref::Obj(3), Ref::Obj(1));
        assert_eq!(qs.last(), Some(&d), "{qs:?}");
        assert_eq!(d.var_name(), "d_o3_o1");
        assert_eq!(d.to_string(), "dist(o3, o1)");
        let next: FieldSet = [jtg_engine::state::FieldKey::plain("next")].into();
        assert_eq!(dist_fields(&s, Ref::Obj(3), Ref::Obj(1)), Some(&next));
    }

    #[test]
    fn distances_unfold_through_realized_nodes_that_surely_differ() {
        let s = state(WALK);
        let sl = slots(&s);
        let next: FieldSet = [jtg_engine::state::FieldKey::plain("next")].into();
        let d31 = LinExpr::var(sl.vars[&Quantity::Dist(Ref::Obj(3), Ref::Obj(1))]);
        let one = LinExpr::constant(Q::one());
        // o2 ≠ o1 for sure (both realized, no `=?`): dist(o2, o1) = 1 + dist(o3, o1)
        assert_eq!(
            sl.dist(Ref::Obj(2), Ref::Obj(1), &next),
            Some(d31.plus(&one))
        );
        // o1 to itself: 0; from o1 the walk to o1 is not unfolded (o1 = o1)
        assert_eq!(
            sl.dist(Ref::Obj(1), Ref::Obj(1), &next),
            Some(LinExpr::zero())
        );
        // along another field nothing is known
        let prev: FieldSet = [jtg_engine::state::FieldKey::plain("prev")].into();
        assert_eq!(sl.dist(Ref::Obj(2), Ref::Obj(1), &prev), None);
    }

    #[test]
    fn a_distance_is_positive_only_where_its_ends_surely_differ() {
        let s = state(WALK);
        let sl = slots(&s);
        let d = Quantity::Dist(Ref::Obj(3), Ref::Obj(1));
        let x = LinExpr::var(sl.vars[&d]);
        let fs = facts(&sl);
        // o3 =? o1: the walk may already be there
        assert!(fs.contains(&Constraint::ge(&x, &LinExpr::zero())));
        assert!(!fs.contains(&Constraint::ge(&x, &LinExpr::constant(Q::one()))));
        let apart = state(&WALK.replace("o1=?o3  ", ""));
        let sl = slots(&apart);
        let x = LinExpr::var(sl.vars[&d]);
        assert!(facts(&sl).contains(&Constraint::ge(&x, &LinExpr::constant(Q::one()))));
    }
}
