//! The instance relation `s' ⊑ s` (spec §4): every concrete state represented by the specific
//! state `s'` is represented by the general state `s`.
//!
//! The check is position-wise and never guesses a bijection (spec §4.3):
//!
//! 1. (a) control: frames, methods, pcs, stack heights, exception presence, statics, end kind.
//! 2. A lock-step walk from every root over the positions `SPos(s)` of the general state builds
//!    the witness `s-ref ↦ s'-ref` and checks (b) integers, (c) null, (d) object values and
//!    (e) "shared stays shared". It descends only below values that `s` realizes.
//! 3. The positions of `s'` are enumerated along paths that are simple in the lock-step sense
//!    (a pair `(s-side tag, s'-ref)` never repeats on a path; below what `s` realizes this is
//!    "simple in `s'`"). Every position is tagged with its *maximal realized prefix* (MRP) in `s`
//!    and the remaining suffix. The predicate conditions (f)–(m) are checked on these tags.
//! 4. (n): every `→!F` of `s` holds in `s'`.
//!
//! Positions are printed as access paths. Frames are numbered as in the thesis and spec §2.3:
//! frame 0 is the top (executing) frame and stack slot 0 is the top of the stack:
//! `lv0.1` (frame 0, local 1), `os0.0`, `exc0`, `sf.List.count`, `result`, `thrown`, then
//! `.field`, `.len`, `[k]`.
//!
//! Soundness beats precision throughout: whenever a case is not clearly covered by a predicate
//! of `s`, the answer is "not an instance". The reading of the predicates (spec §3) that this
//! module commits to:
//!
//! * `t %$ u` (t ≠ u) is the only permission for hidden sharing between the structures at two
//!   different references of `s`.
//! * The *self-sharing* permission of `t` (two different hidden paths below `t` meet) is
//!   `t %$ t` or `t♦`; [I] always adds the two together and both say "the structure below `t`
//!   need not be a tree".
//! * A *cycle* below `t` (one position a prefix of another, same object) needs `t⟲F` with `F`
//!   contained in the fields of the cycle; `⟲` is the cycle permission on its own (thesis
//!   Fig. 2.13 draws `⟲{n}` without `♦`, and its state A must admit the one-element cyclic list).
//!   A self-join alone does not admit cycles here.
//! * An explicit DAG (two positions sharing a proper common prefix, neither a prefix of the
//!   other) needs `♦` at the MRP of the common prefix (l); `⟲` does not admit DAGs.

use crate::state::{display_type, End, FieldSet, HeapValue, Interval, Ref, State, Subtyping};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};

mod signature;
#[cfg(test)]
mod tests;

pub use signature::{width_for as signature_width, Signature};

/// Witness of `s' ⊑ s`: maps every reference of the general state `s` reached by the walk to
/// the reference of `s'` at the same positions. When an integer reference of `s` sits at two
/// positions that hold two different but equal literals in `s'` (allowed by (e)), the reference
/// at the first position in walk order is recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub map: BTreeMap<Ref, Ref>,
}

/// Why `s'` is not an instance of `s`: the condition letter of spec §4.2 (`'a'..='n'`) and a
/// one-line reason naming the position and references.
///
/// Letters beyond the spec's own wording: `'h'` is a missing `%$` between two *different*
/// references of `s`, `'i'` a missing self-sharing permission of one reference (the spec lumps
/// both as (h)/(i)). `'l'` is also reported when a state has more positions than
/// [`MAX_POSITIONS`] (undecided, so "no").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub condition: char,
    pub reason: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}) {}", self.condition, self.reason)
    }
}

impl std::error::Error for Mismatch {}

/// Bound on the number of enumerated positions of `s'`. Simple paths can be exponential in a
/// realized DAG; states are small, so reaching this bound means something is off, and the check
/// answers "not an instance" rather than running away.
pub const MAX_POSITIONS: usize = 4_096;

fn no(condition: char, reason: impl FnOnce() -> String) -> Mismatch {
    let explain = EXPLAIN.with(Cell::get);
    Mismatch {
        condition,
        reason: if explain { reason() } else { String::new() },
    }
}

thread_local! {
    /// Whether failures build their reason. [`instance_holds`] turns it off: the graph builder
    /// asks "is it an instance?" hundreds of thousands of times and reads no reason.
    static EXPLAIN: Cell<bool> = const { Cell::new(true) };
}

/// `specific ⊑ general` as [`is_instance`] decides it, without the witness and without
/// formatting the reason of a failure.
pub fn instance_holds(specific: &State, general: &State, types: &dyn Subtyping) -> bool {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPLAIN.with(|e| e.set(self.0));
        }
    }
    let _restore = Restore(EXPLAIN.with(|e| e.replace(false)));
    is_instance(specific, general, types).is_ok()
}

/// Decides `specific ⊑ general` (spec §4.2 (a)–(n)); see the module docs for the algorithm and
/// the reading of the predicates.
pub fn is_instance(
    specific: &State,
    general: &State,
    types: &dyn Subtyping,
) -> Result<Witness, Mismatch> {
    let roots = control(specific, general)?;
    let map = LockStep {
        g: general,
        sp: specific,
        types,
        map: BTreeMap::new(),
        paths: Vec::new(),
        first: BTreeMap::new(),
    }
    .run(&roots)?;
    let pos = Positions::enumerate(specific, general, &roots)?;
    pos.check_realized_equalities()?;
    pos.check_hidden_equalities()?;
    pos.check_joins()?;
    pos.check_shape_predicates()?;
    pos.check_dags()?;
    pos.check_cycles()?;
    check_must_reach(specific, general, &map)?;
    Ok(Witness { map })
}

/// A root of both states: its position, the reference in `s` and the one in `s'`.
type Root<'a> = (RootName<'a>, Ref, Ref);

/// A root position, printed only for messages (the check itself never needs the text).
#[derive(Clone, Copy, Debug)]
enum RootName<'a> {
    /// Frame (0 = top), local slot.
    Local(usize, usize),
    /// Frame, stack slot (0 = top).
    Stack(usize, usize),
    Exc(usize),
    Static(&'a str, &'a str),
    Result,
    Thrown,
}

impl fmt::Display for RootName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootName::Local(i, slot) => write!(f, "lv{i}.{slot}"),
            RootName::Stack(i, k) => write!(f, "os{i}.{k}"),
            RootName::Exc(i) => write!(f, "exc{i}"),
            RootName::Static(class, field) => write!(f, "sf.{}.{field}", display_type(class)),
            RootName::Result => f.write_str("result"),
            RootName::Thrown => f.write_str("thrown"),
        }
    }
}

/// (a) Control, and the list of root pairs in walk order (frames bottom to top: locals by slot,
/// stack bottom to top, pending exception; then statics by key; then the end result).
fn control<'a>(sp: &State, g: &'a State) -> Result<Vec<Root<'a>>, Mismatch> {
    if sp.frames.len() != g.frames.len() {
        return Err(no('a', || {
            format!(
                "s has {} frames, s' has {}",
                g.frames.len(),
                sp.frames.len()
            )
        }));
    }
    let n = g.frames.len();
    let mut roots = Vec::new();
    for (idx, (fg, fs)) in g.frames.iter().zip(&sp.frames).enumerate() {
        let i = n - 1 - idx;
        if fg.method != fs.method || fg.pc != fs.pc {
            return Err(no('a', || {
                format!(
                    "frame {i}: s is at {} {:02}, s' at {} {:02}",
                    fg.method, fg.pc, fs.method, fs.pc
                )
            }));
        }
        if fg.stack.len() != fs.stack.len() {
            return Err(no('a', || {
                format!(
                    "frame {i}: stack height {} in s, {} in s'",
                    fg.stack.len(),
                    fs.stack.len()
                )
            }));
        }
        for (slot, r) in fg.locals.iter().enumerate() {
            let Some(r) = *r else { continue };
            // An unset slot of s' is unconstrained while s constrains it: not an instance.
            match fs.locals.get(slot).copied().flatten() {
                Some(r2) => roots.push((RootName::Local(i, slot), r, r2)),
                None => {
                    return Err(no('a', || {
                        format!("lv{i}.{slot} holds {r} in s but is unset in s'")
                    }))
                }
            }
        }
        let h = fg.stack.len();
        for (b, (r, r2)) in fg.stack.iter().zip(&fs.stack).enumerate() {
            roots.push((RootName::Stack(i, h - 1 - b), *r, *r2));
        }
        match (fg.exception, fs.exception) {
            (Some(r), Some(r2)) => roots.push((RootName::Exc(i), r, r2)),
            (None, None) => {}
            (e, e2) => {
                return Err(no('a', || {
                    format!(
                        "frame {i}: pending exception {} in s, {} in s'",
                        e.map_or("none".into(), |r| r.to_string()),
                        e2.map_or("none".into(), |r| r.to_string())
                    )
                }))
            }
        }
    }
    // Statics: both states must know the same static fields ([I], `mergeStaticFields`). A
    // static s knows and s' does not is unconstrained in s'; one s' knows and s does not
    // would, in s, get its first-access value at the next read, which cannot alias anything
    // of the run so far, so s would lose the aliasing s' may have.
    if let Some((class, field)) = sp.statics.keys().find(|k| !g.statics.contains_key(*k)) {
        return Err(no('a', || {
            format!(
                "sf.{}.{field} is known in s' but not in s",
                display_type(class)
            )
        }));
    }
    for (key, r) in &g.statics {
        let name = RootName::Static(&key.0, &key.1);
        match sp.statics.get(key) {
            Some(r2) => roots.push((name, *r, *r2)),
            None => return Err(no('a', || format!("{name} is known in s but not in s'"))),
        }
    }
    match (&g.end, &sp.end) {
        (None, None) | (Some(End::Return(None)), Some(End::Return(None))) => {}
        (Some(End::Return(Some(r))), Some(End::Return(Some(r2)))) => {
            roots.push((RootName::Result, *r, *r2))
        }
        (Some(End::Throw(r)), Some(End::Throw(r2))) => roots.push((RootName::Thrown, *r, *r2)),
        (e, e2) => {
            return Err(no('a', || {
                format!("program end {} in s, {} in s'", end_kind(e), end_kind(e2))
            }))
        }
    }
    Ok(roots)
}

fn end_kind(e: &Option<End>) -> &'static str {
    match e {
        None => "none",
        Some(End::Return(None)) => "`return`",
        Some(End::Return(Some(_))) => "`return r`",
        Some(End::Throw(_)) => "`throw`",
    }
}

/// The lock-step walk over `SPos(s)` (conditions (b)–(e)).
struct LockStep<'a> {
    g: &'a State,
    sp: &'a State,
    types: &'a dyn Subtyping,
    map: BTreeMap<Ref, Ref>,
    /// The positions walked so far, as a trie (printed only for messages).
    paths: Vec<PathNode<'a>>,
    /// The first position of each reference of `s`, for messages.
    first: BTreeMap<Ref, usize>,
}

/// A position of the lock-step walk: its parent position and the last step.
struct PathNode<'a> {
    parent: Option<usize>,
    step: PathStep<'a>,
}

enum PathStep<'a> {
    Root(RootName<'a>),
    Field(&'a str),
    Len,
    Elem(usize),
}

fn literal(st: &State, r: Ref) -> Option<i128> {
    st.int(r).and_then(Interval::as_literal)
}

impl<'a> LockStep<'a> {
    fn run(mut self, roots: &[Root<'a>]) -> Result<BTreeMap<Ref, Ref>, Mismatch> {
        let mut todo: Vec<(usize, Ref, Ref)> = roots
            .iter()
            .enumerate()
            .rev()
            .map(|(k, (_, r, r2))| (k, *r, *r2))
            .collect();
        self.paths.extend(roots.iter().map(|(name, _, _)| PathNode {
            parent: None,
            step: PathStep::Root(*name),
        }));
        while let Some((pos, r, r2)) = todo.pop() {
            // Value conditions first, so that a realized-vs-unknown mismatch is reported as
            // (d) even when (e) fails at the same position.
            self.values(pos, r, r2)?;
            if r.is_null() {
                continue;
            }
            match self.map.get(&r) {
                Some(&prev) if prev == r2 => {}
                Some(&prev) => {
                    // (e), with the exception for two equal integer literals.
                    let same_literal = matches!(
                        (literal(self.sp, prev), literal(self.sp, r2)),
                        (Some(a), Some(b)) if a == b
                    );
                    if !same_literal {
                        let at = self.first.get(&r).map_or("?".into(), |&p| self.name(p));
                        return Err(no('e', || {
                            format!(
                                "{r} is at {at} and {} in s, but s' has {prev} and {r2} there",
                                self.name(pos)
                            )
                        }));
                    }
                }
                None => {
                    self.map.insert(r, r2);
                    self.first.insert(r, pos);
                    self.push_children(pos, r, r2, &mut todo);
                }
            }
        }
        self.check_mapped_equalities()?;
        Ok(self.map)
    }

    /// (f) on the walked positions alone, before the positions of `s'` are enumerated: two
    /// objects of `s` whose first positions hold the same object of `s'`, or two objects of
    /// `s'` related by `=?`, must be equal or `=?` in `s`. Every pair of the walk is the pair of a
    /// realized position that [`Positions::check_realized_equalities`] checks too, so this only
    /// finds its failures sooner (the states at one program position mostly differ here).
    fn check_mapped_equalities(&self) -> Result<(), Mismatch> {
        let mut of: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
        for (&r, &r2) in &self.map {
            if r.is_obj() && r2.is_obj() {
                of.entry(r2).or_default().push(r);
            }
        }
        let need = |r: Ref, q: Ref, why: &dyn Fn() -> String| {
            if r == q || self.g.preds.may_equal(r, q) {
                return Ok(());
            }
            let at = |t: Ref| self.first.get(&t).map_or("?".into(), |&p| self.name(p));
            Err(no('f', || {
                format!(
                    "{} at {} and {}, where s has {r} and {q} without {r}=?{q}",
                    why(),
                    at(r),
                    at(q)
                )
            }))
        };
        for (&x, rs) in &of {
            for (k, &r) in rs.iter().enumerate() {
                for &q in &rs[k + 1..] {
                    need(r, q, &|| format!("s' has {x}"))?;
                }
            }
        }
        for &(a, b) in &self.sp.preds.may_equal {
            for &r in of.get(&a).into_iter().flatten() {
                for &q in of.get(&b).into_iter().flatten() {
                    need(r, q, &|| format!("s' has {a}=?{b}"))?;
                }
            }
        }
        Ok(())
    }

    fn name(&self, id: usize) -> String {
        let mut steps = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            steps.push(&self.paths[c].step);
            cur = self.paths[c].parent;
        }
        let mut out = String::new();
        for s in steps.into_iter().rev() {
            let _ = match s {
                PathStep::Root(n) => write!(out, "{n}"),
                PathStep::Field(f) => write!(out, ".{f}"),
                PathStep::Len => write!(out, ".len"),
                PathStep::Elem(k) => write!(out, "[{k}]"),
            };
        }
        out
    }

    fn child(&mut self, parent: usize, step: PathStep<'a>) -> usize {
        self.paths.push(PathNode {
            parent: Some(parent),
            step,
        });
        self.paths.len() - 1
    }

    /// Pushes the child positions of `pos` that `s` realizes, once [`Self::values`] accepted
    /// it, so that they are popped in order.
    fn push_children(&mut self, pos: usize, r: Ref, r2: Ref, todo: &mut Vec<(usize, Ref, Ref)>) {
        let start = todo.len();
        match (self.g.value(r), self.sp.value(r2)) {
            (
                Some(HeapValue::Object { fields, .. }),
                Some(HeapValue::Object { fields: f2, .. }),
            ) => {
                for ((f, c), c2) in fields.iter().zip(f2.values()) {
                    let id = self.child(pos, PathStep::Field(f));
                    todo.push((id, *c, *c2));
                }
            }
            (
                Some(HeapValue::Array { len, elems, .. }),
                Some(HeapValue::Array {
                    len: len2,
                    elems: elems2,
                    ..
                }),
            ) => {
                let id = self.child(pos, PathStep::Len);
                todo.push((id, *len, *len2));
                if let (Some(e), Some(e2)) = (elems, elems2) {
                    for (k, (a, b)) in e.iter().zip(e2).enumerate() {
                        let id = self.child(pos, PathStep::Elem(k));
                        todo.push((id, *a, *b));
                    }
                }
            }
            _ => {}
        }
        todo[start..].reverse();
    }

    /// Checks (b)–(d) at one position (the children of a realized value are pushed by
    /// [`Self::push_children`]).
    fn values(&self, pos: usize, r: Ref, r2: Ref) -> Result<(), Mismatch> {
        let pos = || self.name(pos);
        if r.is_null() {
            return if r2.is_null() {
                Ok(())
            } else {
                Err(no('c', || format!("{}: null in s, {r2} in s'", pos())))
            };
        }
        let Some(v) = self.g.value(r) else {
            return Err(no('d', || format!("{}: {r} has no heap value in s", pos())));
        };
        let v2 = if r2.is_null() {
            None
        } else {
            match self.sp.value(r2) {
                Some(v2) => Some(v2),
                None => {
                    return Err(no('d', || {
                        format!("{}: {r2} has no heap value in s'", pos())
                    }))
                }
            }
        };
        let shown = |v2: Option<&HeapValue>| v2.map_or("null".to_string(), |v| v.to_string());
        let sub =
            |v2: &HeapValue, ty: &str| v2.type_name().is_some_and(|t| self.types.is_subtype(t, ty));
        match v {
            HeapValue::Int(iv) => match v2 {
                Some(HeapValue::Int(iv2)) if iv2.is_subset_of(iv) => Ok(()),
                _ => Err(no('b', || {
                    format!(
                        "{}: {r} is {iv} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Long(iv) => match v2 {
                Some(HeapValue::Long(iv2)) if iv2.is_subset_of(iv) => Ok(()),
                _ => Err(no('b', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            // floats are coarse: any float is an instance of any other
            HeapValue::Float | HeapValue::Double => match v2 {
                Some(v2) if v2 == v => Ok(()),
                _ => Err(no('b', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Unknown { ty } => match v2 {
                None => Ok(()),
                Some(v2) if !matches!(v2, HeapValue::Int(_)) && sub(v2, ty) => Ok(()),
                Some(v2) => Err(no('d', || {
                    format!("{}: {r} is {v} in s, but {r2} is {v2} in s'", pos())
                })),
            },
            HeapValue::Abstract { ty } => match v2 {
                Some(v2)
                    if !matches!(v2, HeapValue::Int(_) | HeapValue::Unknown { .. })
                        && sub(v2, ty) =>
                {
                    Ok(())
                }
                _ => Err(no('d', || {
                    format!(
                        "{}: {r} is {v} (exists) in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Object { class, fields } => match v2 {
                Some(HeapValue::Object {
                    class: c2,
                    fields: f2,
                }) if c2 == class && f2.keys().eq(fields.keys()) => Ok(()),
                _ => Err(no('d', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s' (needs the same class \
                         and fields)",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Array { ty, elems, .. } => {
                let bad = || {
                    no('d', || {
                        format!(
                            "{}: {r} is {v} in s, but {r2} is {} in s'",
                            pos(),
                            shown(v2)
                        )
                    })
                };
                let Some(w2 @ HeapValue::Array { elems: elems2, .. }) = v2 else {
                    return Err(bad());
                };
                if !sub(w2, ty) {
                    return Err(bad());
                }
                match (elems, elems2) {
                    (None, _) => Ok(()),
                    (Some(e), Some(e2)) if e.len() == e2.len() => Ok(()),
                    _ => Err(bad()),
                }
            }
        }
    }
}

/// One step of an access path below a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Step<'a> {
    Field(&'a str),
    Elem(usize),
}

impl fmt::Display for Step<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Field(n) => write!(f, ".{n}"),
            Step::Elem(k) => write!(f, "[{k}]"),
        }
    }
}

/// A position of `s'` holding an object reference, as a node of the position trie.
struct Node<'a> {
    parent: Option<usize>,
    /// Root index for roots, the step from the parent otherwise.
    root: usize,
    step: Option<Step<'a>>,
    depth: usize,
    /// The reference of `s'` here.
    r2: Ref,
    /// The reference of `s` here, when `s` realizes the position.
    sref: Option<Ref>,
    /// The node of the maximal realized prefix (the node itself when realized).
    mrp: usize,
    /// The reference of `s` at the maximal realized prefix.
    t: Ref,
    /// The steps from the maximal realized prefix down to here, as a node of
    /// [`Positions::suffixes`] (0: none, the position is realized).
    sfx: u32,
}

/// A suffix (steps below a maximal realized prefix) as a node of a trie: the suffix one step
/// shorter, the last step, and the length.
struct Suffix<'a> {
    up: u32,
    step: Option<Step<'a>>,
    len: u32,
}

/// Field names borrowed from the states.
type Fields<'a> = BTreeSet<&'a str>;

/// Prints like [`crate::state::fmt_fields`].
fn fmt_names(f: &Fields) -> String {
    let names: Vec<&str> = f.iter().copied().collect();
    format!("{{{}}}", names.join(","))
}

/// How two positions with the same MRP reference relate (for (g)–(m)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Relation {
    /// Same MRP reference, same suffix: the same object in every instance of `s`.
    Same,
    /// Same MRP reference, one suffix a proper prefix of the other: a cycle below it. The
    /// payload is the node whose suffix is longer and the length of the shorter suffix.
    Cycle(usize, usize),
    /// Same MRP reference, diverging suffixes: DAG sharing below it.
    Dag,
    /// Different MRP references.
    Apart,
}

struct Positions<'a> {
    g: &'a State,
    sp: &'a State,
    roots: Vec<RootName<'a>>,
    nodes: Vec<Node<'a>>,
    /// The nodes holding each object reference of `s'`.
    by_ref: BTreeMap<Ref, Vec<usize>>,
    /// The first node of each distinct (MRP reference, suffix) among `by_ref[x]`: the
    /// predicate conditions look at these once per pair of predicates, so they are kept.
    tags: HashMap<Ref, Vec<usize>>,
    /// The distinct MRP references of the tags of each `x`, sorted.
    mrps: HashMap<Ref, Vec<Ref>>,
    /// Per root: every node below it has an MRP reference with `♦` in `s`, and one with
    /// `⟲∅` in `s` (then (l), resp. (m), cannot fail there).
    root_non_tree: Vec<bool>,
    root_any_cycle: Vec<bool>,
    /// The suffixes of the nodes, interned: equal suffixes have one number, so the relations
    /// of positions below one reference of `s` (same, cycle, DAG) need no step vectors.
    suffixes: Vec<Suffix<'a>>,
    suffix_ids: HashMap<(u32, Step<'a>), u32>,
}

impl<'a> Positions<'a> {
    fn enumerate(sp: &'a State, g: &'a State, roots: &[Root<'a>]) -> Result<Self, Mismatch> {
        let mut p = Positions {
            g,
            sp,
            roots: roots.iter().map(|r| r.0).collect(),
            nodes: Vec::new(),
            by_ref: BTreeMap::new(),
            tags: HashMap::default(),
            mrps: HashMap::default(),
            root_non_tree: Vec::new(),
            root_any_cycle: Vec::new(),
            suffixes: vec![Suffix {
                up: 0,
                step: None,
                len: 0,
            }],
            suffix_ids: HashMap::default(),
        };
        for (k, (_, r, r2)) in roots.iter().enumerate() {
            if !r2.is_obj() {
                continue;
            }
            let id = p.nodes.len();
            p.nodes.push(Node {
                parent: None,
                root: k,
                step: None,
                depth: 0,
                r2: *r2,
                sref: Some(*r),
                mrp: id,
                t: *r,
                sfx: 0,
            });
            p.expand(id)?;
        }
        for (i, n) in p.nodes.iter().enumerate() {
            p.by_ref.entry(n.r2).or_default().push(i);
        }
        let mut seen = HashSet::default();
        for (&x, ids) in &p.by_ref {
            seen.clear();
            let nodes = &p.nodes;
            let tags: Vec<usize> = ids
                .iter()
                .copied()
                .filter(|&i| seen.insert((nodes[i].t, nodes[i].sfx)))
                .collect();
            let mut mrps: Vec<Ref> = tags.iter().map(|&i| nodes[i].t).collect();
            mrps.sort_unstable();
            mrps.dedup();
            p.tags.insert(x, tags);
            p.mrps.insert(x, mrps);
        }
        p.root_non_tree = vec![true; roots.len()];
        p.root_any_cycle = vec![true; roots.len()];
        let mut seen = HashSet::default();
        for n in &p.nodes {
            if seen.insert((n.root, n.t)) {
                p.root_non_tree[n.root] &= g.preds.is_non_tree(n.t);
                p.root_any_cycle[n.root] &= p.any_cycle(n.t);
            }
        }
        Ok(p)
    }

    /// Depth-first extension of the trie below `start`.
    fn expand(&mut self, start: usize) -> Result<(), Mismatch> {
        let mut todo = vec![start];
        while let Some(id) = todo.pop() {
            let (r2, sref, mrp, depth, root) = {
                let n = &self.nodes[id];
                (n.r2, n.sref, n.mrp, n.depth, n.root)
            };
            let gval = sref.and_then(|r| self.g.value(r));
            let mut kids: Vec<(Step<'a>, Ref, Option<Ref>)> = Vec::new();
            match self.sp.value(r2) {
                Some(HeapValue::Object { fields, .. }) => {
                    for (f, c2) in fields {
                        let c = match gval {
                            Some(HeapValue::Object { fields: gf, .. }) => gf.get(f).copied(),
                            _ => None,
                        };
                        kids.push((Step::Field(f), *c2, c));
                    }
                }
                Some(HeapValue::Array {
                    elems: Some(e2), ..
                }) => {
                    for (k, c2) in e2.iter().enumerate() {
                        let c = match gval {
                            Some(HeapValue::Array { elems: Some(e), .. }) => e.get(k).copied(),
                            _ => None,
                        };
                        kids.push((Step::Elem(k), *c2, c));
                    }
                }
                _ => {}
            }
            for (step, c2, c) in kids.into_iter().rev() {
                if !c2.is_obj() {
                    continue; // null and integers carry no sharing
                }
                // A realized child of s is an object too ((c)–(e) hold); anything else is
                // treated as unrealized, which only asks for more predicates.
                let c = c.filter(|c| c.is_obj());
                let cid = self.nodes.len();
                let (cmrp, ct) = match c {
                    Some(c) => (cid, c),
                    None if sref.is_some() => (id, self.nodes[id].t),
                    None => (mrp, self.nodes[mrp].t),
                };
                // an unrealized child extends the suffix of its parent (empty when the parent
                // is realized: it is the child's maximal realized prefix)
                let csfx = if c.is_some() {
                    0
                } else {
                    let up = if sref.is_some() {
                        0
                    } else {
                        self.nodes[id].sfx
                    };
                    self.suffix_id(up, step)
                };
                if cid >= MAX_POSITIONS {
                    return Err(no('l', || {
                        format!(
                            "s' has more than {MAX_POSITIONS} positions; refusing to decide \
                             the sharing conditions"
                        )
                    }));
                }
                self.nodes.push(Node {
                    parent: Some(id),
                    root,
                    step: Some(step),
                    depth: depth + 1,
                    r2: c2,
                    sref: c,
                    mrp: cmrp,
                    t: ct,
                    sfx: csfx,
                });
                if !self.repeats_on_path(cid) {
                    todo.push(cid);
                }
            }
        }
        Ok(())
    }

    /// Whether the (s-side tag, s'-reference) pair of `id` already occurs above it: then the
    /// positions below repeat ones already enumerated.
    fn repeats_on_path(&self, id: usize) -> bool {
        let n = &self.nodes[id];
        let key = |m: &Node| (m.sref, if m.sref.is_some() { 0 } else { m.mrp + 1 }, m.r2);
        let k = key(n);
        let mut cur = n.parent;
        while let Some(a) = cur {
            if key(&self.nodes[a]) == k {
                return true;
            }
            cur = self.nodes[a].parent;
        }
        false
    }

    fn name(&self, id: usize) -> String {
        let mut steps = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let n = &self.nodes[c];
            match &n.step {
                Some(s) => steps.push(s.to_string()),
                None => steps.push(self.roots[n.root].to_string()),
            }
            cur = n.parent;
        }
        steps.reverse();
        steps.concat()
    }

    /// The nodes from the MRP of `id` (inclusive) down to `id`.
    fn path_from_mrp(&self, id: usize) -> Vec<usize> {
        let stop = self.nodes[id].mrp;
        let mut v = vec![id];
        let mut cur = id;
        while cur != stop {
            match self.nodes[cur].parent {
                Some(p) => {
                    v.push(p);
                    cur = p;
                }
                None => break,
            }
        }
        v.reverse();
        v
    }

    fn suffix_id(&mut self, up: u32, step: Step<'a>) -> u32 {
        let next = self.suffixes.len() as u32;
        let id = *self.suffix_ids.entry((up, step)).or_insert(next);
        if id == next {
            let len = self.suffixes[up as usize].len + 1;
            self.suffixes.push(Suffix {
                up,
                step: Some(step),
                len,
            });
        }
        id
    }

    /// The steps from the MRP of `id` down to `id`.
    fn suffix(&self, id: usize) -> Vec<Step<'a>> {
        let mut out = Vec::new();
        let mut k = self.nodes[id].sfx;
        while k != 0 {
            let sf = &self.suffixes[k as usize];
            out.extend(sf.step);
            k = sf.up;
        }
        out.reverse();
        out
    }

    /// Whether suffix `short` is a prefix of suffix `long`.
    fn is_prefix(&self, short: u32, long: u32) -> bool {
        let (ls, mut k) = (self.suffixes[short as usize].len, long);
        while self.suffixes[k as usize].len > ls {
            k = self.suffixes[k as usize].up;
        }
        k == short
    }

    fn relation(&self, a: usize, b: usize) -> Relation {
        if self.nodes[a].t != self.nodes[b].t {
            return Relation::Apart;
        }
        let (sa, sb) = (self.nodes[a].sfx, self.nodes[b].sfx);
        if sa == sb {
            Relation::Same
        } else if self.is_prefix(sa, sb) {
            Relation::Cycle(b, self.suffixes[sa as usize].len as usize)
        } else if self.is_prefix(sb, sa) {
            Relation::Cycle(a, self.suffixes[sb as usize].len as usize)
        } else {
            Relation::Dag
        }
    }

    /// The field names on the suffix of `long` after its first `skip` steps.
    fn cycle_fields(&self, long: usize, skip: usize) -> Fields<'a> {
        self.suffix(long)
            .into_iter()
            .skip(skip)
            .filter_map(|s| match s {
                Step::Field(f) => Some(f),
                Step::Elem(_) => None,
            })
            .collect()
    }

    /// `t⟲F` in `s` with `F ⊆ fields`.
    fn cycle_allowed(&self, t: Ref, fields: &Fields) -> bool {
        self.g
            .preds
            .cyclic(t)
            .is_some_and(|f| f.iter().all(|x| fields.contains(x.as_str())))
    }

    /// Self-sharing permission of `t`: `t %$ t` or `t♦`.
    fn self_share(&self, t: Ref) -> bool {
        self.g.preds.joins(t, t) || self.g.preds.is_non_tree(t)
    }

    fn realized(&self, id: usize) -> bool {
        self.nodes[id].sref.is_some()
    }

    /// (f): equalities at positions both realized in `s`, from equal references of `s'` and
    /// from `=?` of `s'`.
    fn check_realized_equalities(&self) -> Result<(), Mismatch> {
        let realized = |x: Ref| -> BTreeMap<Ref, usize> {
            let mut m = BTreeMap::new();
            for &i in self.by_ref.get(&x).into_iter().flatten() {
                if let Some(r) = self.nodes[i].sref {
                    m.entry(r).or_insert(i);
                }
            }
            m
        };
        let need = |r: Ref, i: usize, q: Ref, j: usize, why: &dyn Fn() -> String| {
            if r == q || self.g.preds.may_equal(r, q) {
                Ok(())
            } else {
                Err(no('f', || {
                    format!(
                        "{} at {} and {}, where s has {r} and {q} without {r}=?{q}",
                        why(),
                        self.name(i),
                        self.name(j)
                    )
                }))
            }
        };
        for (&x, _) in self.by_ref.iter() {
            let m: Vec<(Ref, usize)> = realized(x).into_iter().collect();
            for (k, &(r, i)) in m.iter().enumerate() {
                for &(q, j) in &m[k + 1..] {
                    need(r, i, q, j, &|| format!("s' has {x}"))?;
                }
            }
        }
        for &(a, b) in &self.sp.preds.may_equal {
            let (ma, mb) = (realized(a), realized(b));
            for (&r, &i) in &ma {
                for (&q, &j) in &mb {
                    need(r, i, q, j, &|| format!("s' has {a}=?{b}"))?;
                }
            }
        }
        Ok(())
    }

    /// One node per distinct (MRP reference, suffix) of `x`, in node order.
    fn tags(&self, x: Ref) -> &[usize] {
        self.tags.get(&x).map_or(&[], Vec::as_slice)
    }

    fn mrps(&self, x: Ref) -> &[Ref] {
        self.mrps.get(&x).map_or(&[], Vec::as_slice)
    }

    /// Whether every pair of tags of `x` and `y` surely passes (g)–(i), decided on their MRP
    /// references alone: two different ones are `%$` in `s`, and a common one has the
    /// self-sharing permission (and, with `cycles`, admits cycles through any fields). Merged
    /// states have these predicates almost everywhere, and then the pairs of tags, whose
    /// number is the product of two path counts, need not be looked at. "No" only means: look.
    fn pairs_surely_fine(&self, x: Ref, y: Ref, cycles: bool) -> bool {
        let (tx, ty) = (self.mrps(x), self.mrps(y));
        tx.iter().all(|&ta| {
            ty.iter().all(|&tb| {
                if ta == tb {
                    self.self_share(ta) && (!cycles || self.any_cycle(ta))
                } else {
                    self.g.preds.joins(ta, tb)
                }
            })
        })
    }

    /// `t⟲∅` in `s`: cycles below `t` through any fields.
    fn any_cycle(&self, t: Ref) -> bool {
        self.g.preds.cyclic(t).is_some_and(|f| f.is_empty())
    }

    /// (g): an equality (same reference or `=?` in `s'`) between positions `a` and `b` of
    /// which at least one is not realized in `s`.
    ///
    /// Different MRP references need `%$` between them, as in the spec. For one MRP reference
    /// `t` the spec asks for `t %$ t` unless the suffixes agree; here the shape decides instead:
    /// diverging suffixes (DAG) need the self-sharing permission (`t %$ t` or `t♦`), while one
    /// suffix extending the other is a cycle below `t` and needs `t⟲F` with F within the
    /// fields of the extension. The latter deviates from the letter of the spec on purpose: the
    /// thesis' merged state G (Fig. 2.13) has `⟲{n}` and no self-joins, yet B ⊑ G, where the
    /// equality `this =? this.next` of B lands below G's `cur`. A self-join without `⟲` is not
    /// taken as a cycle permission (the stricter choice).
    fn hidden_equality(
        &self,
        a: usize,
        b: usize,
        what: &dyn Fn() -> String,
    ) -> Result<(), Mismatch> {
        if self.realized(a) && self.realized(b) {
            return Ok(()); // (f)
        }
        let (ta, tb) = (self.nodes[a].t, self.nodes[b].t);
        let at = || format!("{} at {} and {}", what(), self.name(a), self.name(b));
        match self.relation(a, b) {
            Relation::Same => Ok(()),
            Relation::Apart if self.g.preds.joins(ta, tb) => Ok(()),
            Relation::Apart => Err(no('g', || format!("{}: s needs {ta}%${tb}", at()))),
            Relation::Cycle(long, skip) => {
                let f = self.cycle_fields(long, skip);
                if self.cycle_allowed(ta, &f) {
                    Ok(())
                } else {
                    Err(no('g', || {
                        format!(
                            "{}: a cycle below {ta} in s, which needs {ta}⟲F with F ⊆ {}",
                            at(),
                            fmt_names(&f)
                        )
                    }))
                }
            }
            Relation::Dag if self.self_share(ta) => Ok(()),
            Relation::Dag => Err(no('g', || {
                format!("{}: sharing below {ta} in s, which needs {ta}%${ta}", at())
            })),
        }
    }

    fn check_hidden_equalities(&self) -> Result<(), Mismatch> {
        for &x in self.by_ref.keys() {
            if self.pairs_surely_fine(x, x, true) {
                continue;
            }
            let tags = self.tags(x);
            for (k, &a) in tags.iter().enumerate() {
                for &b in &tags[k + 1..] {
                    self.hidden_equality(a, b, &|| format!("s' has {x}"))?;
                }
            }
        }
        for &(x, y) in &self.sp.preds.may_equal {
            if self.pairs_surely_fine(x, y, true) {
                continue;
            }
            for &a in self.tags(x) {
                for &b in self.tags(y) {
                    self.hidden_equality(a, b, &|| format!("s' has {x}=?{y}"))?;
                }
            }
        }
        Ok(())
    }

    /// Whether every node of `long`'s suffix from step `skip` on (excluding `long` itself) is a
    /// realized object of `s'` whose only non-null object field is the next node on the path.
    /// Then everything hidden below the upper node is hidden below `long` too, so a join of the
    /// two can only add cycles back into the path, never a DAG.
    fn single_chain(&self, long: usize, skip: usize) -> bool {
        let path = self.path_from_mrp(long);
        let Some(inner) = path.get(skip..path.len().saturating_sub(1)) else {
            return false;
        };
        inner
            .iter()
            .all(|&n| match self.sp.value(self.nodes[n].r2) {
                Some(HeapValue::Object { fields, .. }) => {
                    fields.values().filter(|r| r.is_obj()).count() == 1
                }
                _ => false,
            })
    }

    /// (h)/(i): every `%$` of `s'` at the MRPs of its positions.
    fn check_joins(&self) -> Result<(), Mismatch> {
        for &(x, y) in &self.sp.preds.joins {
            if self.pairs_surely_fine(x, y, false) {
                continue;
            }
            for &a in self.tags(x) {
                for &b in self.tags(y) {
                    let (ta, tb) = (self.nodes[a].t, self.nodes[b].t);
                    let at = || format!("s' has {x}%${y} at {} and {}", self.name(a), self.name(b));
                    match self.relation(a, b) {
                        Relation::Apart if self.g.preds.joins(ta, tb) => {}
                        Relation::Apart => {
                            return Err(no('h', || format!("{}: s needs {ta}%${tb}", at())))
                        }
                        // The self-join at one position, or sharing between two positions below
                        // the same reference: self-sharing of that reference.
                        Relation::Same | Relation::Dag if self.self_share(ta) => {}
                        // A join between a node and its descendant on a single chain can only
                        // close cycles; ⟲ admits them (the field restriction of cycles in s' is
                        // carried by (k)).
                        Relation::Cycle(long, skip)
                            if self.self_share(ta)
                                || (self.g.preds.cyclic(ta).is_some()
                                    && self.single_chain(long, skip)) => {}
                        _ => {
                            return Err(no('i', || {
                                format!("{}: s needs {ta}%${ta} (or {ta}♦)", at())
                            }))
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// (j) `♦` and (k) `⟲F'` of `s'` at the MRPs of their positions.
    fn check_shape_predicates(&self) -> Result<(), Mismatch> {
        for &x in &self.sp.preds.non_tree {
            for &a in self.tags(x) {
                let t = self.nodes[a].t;
                if !self.g.preds.is_non_tree(t) {
                    return Err(no('j', || {
                        format!("s' has {x}♦ at {}, s lacks {t}♦", self.name(a))
                    }));
                }
            }
        }
        for (&x, f2) in &self.sp.preds.cyclic {
            let names: Fields = f2.iter().map(String::as_str).collect();
            for &a in self.tags(x) {
                let t = self.nodes[a].t;
                if !self.cycle_allowed(t, &names) {
                    return Err(no('k', || {
                        format!(
                            "s' has {x}⟲{} at {}, s needs {t}⟲F with F ⊆ {}",
                            crate::state::fmt_fields(f2),
                            self.name(a),
                            crate::state::fmt_fields(f2)
                        )
                    }));
                }
            }
        }
        Ok(())
    }

    fn is_ancestor(&self, a: usize, b: usize) -> bool {
        let mut cur = Some(b);
        while let Some(c) = cur {
            if c == a {
                return true;
            }
            if self.nodes[c].depth < self.nodes[a].depth {
                return false;
            }
            cur = self.nodes[c].parent;
        }
        false
    }

    fn lca(&self, mut a: usize, mut b: usize) -> Option<usize> {
        while self.nodes[a].depth > self.nodes[b].depth {
            a = self.nodes[a].parent?;
        }
        while self.nodes[b].depth > self.nodes[a].depth {
            b = self.nodes[b].parent?;
        }
        while a != b {
            a = self.nodes[a].parent?;
            b = self.nodes[b].parent?;
        }
        Some(a)
    }

    /// (l): explicit DAG sharing of `s'` (two positions below one root, neither a prefix of the
    /// other) that `s` does not show needs `♦` at the MRP of their longest common prefix.
    fn check_dags(&self) -> Result<(), Mismatch> {
        for (&x, ids) in &self.by_ref {
            for (k, &a) in ids.iter().enumerate() {
                if self.root_non_tree[self.nodes[a].root] {
                    continue; // only a common prefix without `♦` fails
                }
                for &b in &ids[k + 1..] {
                    if self.nodes[a].root != self.nodes[b].root
                        || self.is_ancestor(a, b)
                        || self.is_ancestor(b, a)
                    {
                        continue; // root-level equality: (f)/(g); prefix: (m)
                    }
                    // s shows the same object (Same), or a cycle handled by (g)/(m).
                    if matches!(self.relation(a, b), Relation::Same | Relation::Cycle(..)) {
                        continue;
                    }
                    let Some(c) = self.lca(a, b) else { continue };
                    let t = self.nodes[c].t;
                    if !self.g.preds.is_non_tree(t) {
                        return Err(no('l', || {
                            format!(
                                "s' shares {x} at {} and {}, s lacks {t}♦ (at {})",
                                self.name(a),
                                self.name(b),
                                self.name(self.nodes[c].mrp)
                            )
                        }));
                    }
                }
            }
        }
        Ok(())
    }

    /// (m): an explicit cycle of `s'` (a position and a proper prefix holding the same
    /// reference) that `s` does not realize needs `⟲F` (F ⊆ the cycle's fields) on the MRP
    /// reference of every position on the cycle. The spec also lists `♦` there; it is not
    /// required, because `⟲` is the cycle permission by itself (thesis Fig. 2.13 A admits the
    /// one-element cyclic list with `⟲{n}` and no `♦`). [I] always sets both, so states built
    /// by the engine are unaffected.
    fn check_cycles(&self) -> Result<(), Mismatch> {
        for (b, nb) in self.nodes.iter().enumerate() {
            if self.root_any_cycle[nb.root] {
                continue; // only an MRP reference without `⟲` through the cycle's fields fails
            }
            let mut cur = b;
            while let Some(p) = self.nodes[cur].parent {
                cur = p;
                let np = &self.nodes[p];
                if np.r2 != nb.r2 {
                    continue;
                }
                if np.sref.is_some() && np.sref == nb.sref {
                    continue; // s realizes this cycle
                }
                // the nodes from b up to p, and the fields of the steps between them
                let mut on_cycle = vec![b];
                let mut fields = Fields::new();
                let mut c = b;
                while c != p {
                    if let Some(Step::Field(f)) = self.nodes[c].step {
                        fields.insert(f);
                    }
                    let Some(up) = self.nodes[c].parent else {
                        break;
                    };
                    on_cycle.push(up);
                    c = up;
                }
                for &q in &on_cycle {
                    let t = self.nodes[q].t;
                    if !self.cycle_allowed(t, &fields) {
                        return Err(no('m', || {
                            format!(
                                "s' has a cycle from {} to {} ({}), s needs {t}⟲F with F ⊆ {}",
                                self.name(p),
                                self.name(b),
                                nb.r2,
                                fmt_names(&fields)
                            )
                        }));
                    }
                }
            }
        }
        Ok(())
    }
}

/// (n): every `a →!F b` of `s` holds in `s'` for the references at the same positions.
///
/// The F-path from `m(a)` is followed through realized fields of `s'` (an object with exactly
/// one field in F; none ends the path; several make the path non-unique and are not followed)
/// and through `→!F'` predicates of `s'` with `F' = F` exactly. `F' ⊆ F` would also be sound
/// when F is deterministic, but determinism is a property of the class hierarchy that is not
/// checked here, so only equal field sets compose. Every reference collected this way lies on
/// the unique F-path from `m(a)`, so reaching `m(b)` proves the predicate.
fn check_must_reach(sp: &State, g: &State, map: &BTreeMap<Ref, Ref>) -> Result<(), Mismatch> {
    for mr in &g.preds.must_reach {
        let Some(&a2) = map.get(&mr.from) else {
            continue; // not at any position of s (not reachable): constrains nothing
        };
        let b2 = if mr.to.is_null() {
            Ref::Null
        } else {
            match map.get(&mr.to) {
                Some(&b2) => b2,
                None => {
                    return Err(no('n', || {
                        format!(
                            "s has {}→!{}{} but {} is at no position of s",
                            mr.from,
                            crate::state::fmt_fields(&mr.fields),
                            mr.to,
                            mr.to
                        )
                    }))
                }
            }
        };
        if !reaches(sp, a2, &mr.fields, b2) {
            return Err(no('n', || {
                format!(
                    "s has {}→!{}{}, but in s' the {} path from {a2} is not known to reach {b2}",
                    mr.from,
                    crate::state::fmt_fields(&mr.fields),
                    mr.to,
                    crate::state::fmt_fields(&mr.fields)
                )
            }));
        }
    }
    Ok(())
}

fn reaches(sp: &State, from: Ref, fields: &FieldSet, to: Ref) -> bool {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from];
    while let Some(c) = todo.pop() {
        if c == to {
            return true;
        }
        if c.is_null() || !seen.insert(c) {
            continue;
        }
        todo.extend(
            sp.preds
                .must_reach_from(c)
                .into_iter()
                .filter(|m| m.fields == *fields)
                .map(|m| m.to),
        );
        if let Some(HeapValue::Object { fields: fs, .. }) = sp.value(c) {
            let next: Vec<Ref> = fs
                .iter()
                .filter(|(f, _)| fields.contains(*f))
                .map(|(_, r)| *r)
                .collect();
            if let [n] = next.as_slice() {
                todo.push(*n);
            }
        }
    }
    false
}
