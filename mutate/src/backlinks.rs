//! Back links: per node, facts `(o, f, g)` — "if object `o`'s field `f` holds an object, that
//! object's field `g` is `o`" (`e.next.previous == e` in a doubly linked list) — that hold on
//! every path the check can match from the start node.
//!
//! A fact is about a reference `o` of the node's state that the check surely binds (below).
//! The facts, each one the check verifies or the JVM guarantees:
//!
//! * a node's own state: a realized `o` whose field `f` is a realized `o'` whose field `g` is
//!   `o` again (the check binds `o` once, so both places hold one object: condition (e));
//! * refinement, split and instance edges keep the concrete state; an `eval` edge changes the
//!   heap only as its instruction does: an instruction that keeps the heap ([`Facts::keeps_heap`]),
//!   a `new` of a class whose initialisation runs no code (no `<clinit>` in it, its
//!   superclasses or superinterfaces; `java/lang/Object` is initialised when the VM starts), and
//!   `Object.<init>` (which does nothing) change no field; `putfield x.h = v` changes field `h`
//!   of `x`'s object only; an inlined call or return changes no field either (a call of a
//!   static method only where its class's initialisation runs no code). A fact `(o, f, g)`
//!   survives `x.h = v` unless the write may change one of the two fields it reads: `o.f`
//!   (`h = f` and `o` may be `x`) or `o.f.g` (`h = g` and `o.f` may be `x`; it is not where the
//!   state shows `o.f` distinct from `x`, or `x.g` distinct from `o`: `o.f = x` and the fact
//!   would make `x.g = o`). Two references the check binds are one object only with `=?`
//!   (condition (f)).
//!
//! The references a fact may name are those the check binds at the node: everything below an
//! *anchor* through realized objects' fields. An anchor is a root the check surely reads (a
//! stack entry, a live local, the result) that surely holds an initialised object — a value the
//! run holds uninitialized (after `new`, before `super()` returned) is accepted unwalked
//! (`check/src/instance.rs`, *Deliberate gaps*). Which locals and stack words may hold one is
//! the verifier's question, answered per pc by module `uninit` (a constructor's `this` before
//! `super()`, the copies of a `new`'s object before its `<init>`); a frame whose method that
//! analysis does not follow has no anchors.
//!
//! The fixpoint is the one of [`must::fixpoint`]: own facts plus the intersection over the
//! incoming edges a run can take, which holds on every path by induction on its length. An edge
//! is **dead** when its target contradicts a fact the edge carries: the target shows `o`
//! realized with `o.f = o'` realized and `o'.g = r` where `r` is not `o` and not `=? o` — the
//! check binds `r` to the run's `o.f.g`, which the fact makes `o`'s object (or, for `r = null`,
//! an object where the state has `null`), so it rejects the target (conditions (e), (f)). E.g.
//! a one-entry list whose entry's `previous` is a fresh object instead of the header.

use super::must;
use super::positions::{roots, source_of, Facts, Pos, Root, Seg};
use super::uninit::{initialized, Initialized};
use jtg_engine::class::{Insn, InvokeKind};
use jtg_engine::graph::{EdgeKind, Graph};
use jtg_engine::state::{End, HeapValue, MethodId, Ref, State};
use jtg_engine::Program;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// `(o, f, g)`: if `o.f` holds an object, its field `g` is `o`.
type Link = (Ref, String, String);
type Links = BTreeSet<Link>;

/// The back links per node (`None`: no path from the start node reaches it) and the edges no
/// such path takes.
pub(super) struct BackLinks {
    pub(super) nodes: Vec<Option<Links>>,
    pub(super) dead: Vec<bool>,
}

/// Per method and pc, what holds an initialized object (module `uninit`; `None`: not
/// followed).
type Windows = HashMap<MethodId, Option<HashMap<u32, Initialized>>>;

/// The references the check binds at one node, each with the positions (root and fields) that
/// reach it through realized objects from an anchor (every anchor, and every field of the
/// objects the walk expands).
struct Bound {
    at: BTreeMap<Ref, Vec<Pos>>,
    anchors: BTreeSet<Root>,
}

impl BackLinks {
    /// `feasible`: edges another sound analysis has not ruled out.
    pub(super) fn of(g: &Graph, prog: &Program, facts: &[Facts], feasible: &[bool]) -> BackLinks {
        let mut windows = Windows::new();
        let bound: Vec<Bound> = g
            .nodes
            .iter()
            .zip(facts)
            .map(|(n, f)| bound(&n.state, f, prog, &mut windows))
            .collect();
        let (_, abstract_caller) = super::positions::adjacency(g);
        let mut clinit_free = HashMap::new();
        let effects: Vec<Effect> = (0..g.edges.len())
            .map(|k| heap_effect(g, prog, facts, k, &abstract_caller, &mut clinit_free))
            .collect();
        let own: Vec<Links> = (0..g.nodes.len())
            .map(|n| own(&g.nodes[n].state, &bound[n]))
            .collect();
        let ctx = Ctx {
            g,
            facts,
            bound: &bound,
            effects: &effects,
        };
        let m = must::fixpoint(
            g,
            &own,
            feasible,
            |k, src| ctx.contradicts(k, &ctx.transfer(k, src)),
            |k, src| ctx.transfer(k, src),
        );
        BackLinks {
            nodes: m.nodes,
            dead: m.dead,
        }
    }
}

/// What an edge does to the fields of the run's objects.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Effect {
    /// No field changes.
    Keeps,
    /// `putfield`: field `.1` of the object the source's stack entry below the top holds.
    Writes(Ref, String),
    /// Possibly any.
    Unknown,
}

struct Ctx<'a> {
    g: &'a Graph,
    facts: &'a [Facts],
    bound: &'a [Bound],
    effects: &'a [Effect],
}

impl Ctx<'_> {
    /// The facts edge `k` carries into its target.
    fn transfer(&self, k: usize, src: &Links) -> Links {
        let e = &self.g.edges[k];
        let (sb, tb) = (&self.bound[e.from], &self.bound[e.to]);
        let effect = &self.effects[k];
        let mut out = Links::new();
        if src.is_empty() || *effect == Effect::Unknown {
            return out;
        }
        let s = &self.g.nodes[self.g.edges[k].from].state;
        for (r, ps) in &tb.at {
            let Some(rs) = ps.iter().find_map(|p| self.source_ref(k, p, effect)) else {
                continue;
            };
            for (o, f, gf) in src.range((rs, String::new(), String::new())..) {
                if *o != rs {
                    break;
                }
                if survives(s, sb, effect, rs, f, gf) {
                    out.insert((*r, f.clone(), gf.clone()));
                }
            }
        }
        out
    }

    /// The source reference whose run object the target's position `p` holds after edge `k`
    /// (`None`: the edge does not determine one the check binds at the source).
    fn source_ref(&self, k: usize, p: &Pos, effect: &Effect) -> Option<Ref> {
        let e = &self.g.edges[k];
        let (s, t) = (&self.g.nodes[e.from].state, &self.g.nodes[e.to].state);
        let sb = &self.bound[e.from];
        // (a `getfield` result: the field of the object at the source's stack top)
        let root = source_of(e.kind, s, &self.facts[e.from], t, &(p.0, vec![]))
            .or_else(|| argument(e.kind, s, &self.facts[e.from], t, p.0))?;
        if !sb.anchors.contains(&root.0) {
            return None;
        }
        let mut r = root_ref(s, root.0)?;
        for seg in root.1.iter().chain(&p.1) {
            let Seg::Field(f) = seg else { return None };
            if let Effect::Writes(x, h) = effect {
                if h == f && may_be(s, sb, r, *x) {
                    return None; // the path reads the written field
                }
            }
            let Some(HeapValue::Object { fields, .. }) = s.value(r) else {
                return None;
            };
            r = *fields.get(f.as_str())?;
        }
        (r.is_obj() && sb.at.contains_key(&r)).then_some(r)
    }

    /// Whether edge `k`'s target contradicts one of the facts `carried` into it.
    fn contradicts(&self, k: usize, carried: &Links) -> bool {
        let t = &self.g.nodes[self.g.edges[k].to].state;
        carried.iter().any(|(o, f, gf)| broken(t, *o, f, gf))
    }
}

/// For an inlined call, the caller's stack entry that the callee's parameter local `root` held
/// when the call pushed the callee's frame (the arguments, popped off the caller's stack).
fn argument(kind: EdgeKind, s: &State, sf: &Facts, t: &State, root: Root) -> Option<Pos> {
    let Root::Local(0, slot) = root else {
        return None;
    };
    let Some(Insn::Invoke { kind: ik, method }) = sf.insn() else {
        return None;
    };
    if kind != EdgeKind::Call || t.is_end() || t.frames.len() != s.frames.len() + 1 {
        return None;
    }
    let receiver = usize::from(*ik != InvokeKind::Static);
    let sizes: Vec<usize> = std::iter::repeat_n(1, receiver)
        .chain(method.desc.params.iter().map(|p| usize::from(p.slots())))
        .collect();
    let pops = s
        .top()?
        .stack
        .len()
        .checked_sub(t.frames[t.frames.len() - 2].stack.len())?;
    if pops != sizes.len() {
        return None;
    }
    let mut at = 0;
    for (i, size) in sizes.iter().enumerate() {
        if at == slot {
            return Some((Root::Stack(0, sizes.len() - 1 - i), vec![]));
        }
        at += size;
    }
    None
}

/// Whether state `t` shows `o.f` realized with a field `g` that is not `o` (nor `=? o`).
fn broken(t: &State, o: Ref, f: &str, g: &str) -> bool {
    let Some(HeapValue::Object { fields, .. }) = t.value(o) else {
        return false;
    };
    let Some(&o1) = fields.get(f) else {
        return false;
    };
    let Some(HeapValue::Object { fields: f1, .. }) = t.value(o1) else {
        return false;
    };
    let Some(&r) = f1.get(g) else { return false };
    r != o && !t.preds.may_equal(r, o)
}

/// Whether the fact `(o, f, g)` of the source survives the edge's effect.
fn survives(s: &State, sb: &Bound, effect: &Effect, o: Ref, f: &str, g: &str) -> bool {
    let Effect::Writes(x, h) = effect else {
        return true;
    };
    let x = *x;
    if h == f && may_be(s, sb, o, x) {
        return false;
    }
    if h != g {
        return true;
    }
    // `o.f` must not be `x`: the state shows it distinct, or `x.g` distinct from `o`
    let field = |r: Ref, name: &str| match s.value(r) {
        Some(HeapValue::Object { fields, .. }) => fields.get(name).copied(),
        _ => None,
    };
    let apart = |a: Ref| a.is_null() || (a.is_obj() && !may_be(s, sb, a, x));
    let o_apart = |a: Ref| a.is_null() || (a.is_obj() && !may_be(s, sb, a, o));
    field(o, f).is_some_and(apart) || (sb.at.contains_key(&x) && field(x, g).is_some_and(o_apart))
}

/// Whether `a` and `b` may be one object in the run: the same reference, `=?`, or one the check
/// does not bind.
fn may_be(s: &State, sb: &Bound, a: Ref, b: Ref) -> bool {
    a == b || s.preds.may_equal(a, b) || !sb.at.contains_key(&a) || !sb.at.contains_key(&b)
}

/// The node's own facts: `o.f.g` is `o` in its state.
fn own(s: &State, b: &Bound) -> Links {
    let mut out = Links::new();
    for o in b.at.keys() {
        let Some(HeapValue::Object { fields, .. }) = s.value(*o) else {
            continue;
        };
        for (f, o1) in fields {
            let Some(HeapValue::Object { fields: f1, .. }) = s.value(*o1) else {
                continue;
            };
            for (gf, r) in f1 {
                if r == o {
                    out.insert((*o, f.as_str().to_string(), gf.as_str().to_string()));
                }
            }
        }
    }
    out
}

/// The anchors of a state and the references below them (module docs).
fn bound(s: &State, f: &Facts, prog: &Program, windows: &mut Windows) -> Bound {
    let mut anchors = BTreeSet::new();
    for (k, fr) in s.frames.iter().rev().enumerate() {
        let w = windows
            .entry(fr.method.clone())
            .or_insert_with(|| tags(prog, &fr.method));
        let Some(init) = w.as_ref().and_then(|w| w.get(&fr.pc)) else {
            continue;
        };
        for slot in 0..fr.locals.len() {
            let root = Root::Local(k, slot);
            if f.surely_read(&(root, vec![])) && init.locals.contains(&slot) {
                anchors.insert(root);
            }
        }
        // the frame's stack is the bottom of the one before its pc (a caller's lacks the
        // arguments its call popped); a long or double entry takes two words
        let mut word = 0;
        for (i, r) in fr.stack.iter().enumerate() {
            let width = match s.value(*r) {
                Some(HeapValue::Long(_) | HeapValue::Double(_)) => 2,
                _ => 1,
            };
            let ok = (word..word + width).all(|w| init.stack.get(w) == Some(&true));
            if ok {
                anchors.insert(Root::Stack(k, fr.stack.len() - 1 - i));
            }
            word += width;
        }
    }
    if s.end.is_some() {
        anchors.insert(Root::Result);
    }
    let mut at: BTreeMap<Ref, Vec<Pos>> = BTreeMap::new();
    let mut todo: Vec<(Ref, Pos)> = roots(s)
        .into_iter()
        .filter(|(p, r)| anchors.contains(&p.0) && r.is_obj())
        .map(|(p, r)| (r, p))
        .collect();
    if let Some(End::Return(Some(r))) = &s.end {
        if r.is_obj() {
            todo.push((*r, (Root::Result, vec![])));
        }
    }
    todo.reverse();
    while let Some((r, p)) = todo.pop() {
        if let Some(ps) = at.get_mut(&r) {
            ps.push(p);
            continue;
        }
        if let Some(HeapValue::Object { fields, .. }) = s.value(r) {
            for (name, c) in fields.iter().rev() {
                if c.is_obj() {
                    let mut q = p.clone();
                    q.1.push(Seg::Field(name.as_str().to_string()));
                    todo.push((*c, q));
                }
            }
        }
        at.insert(r, vec![p]);
    }
    Bound { at, anchors }
}

/// The initialization tags of a method's code (see [`Windows`]).
fn tags(prog: &Program, m: &MethodId) -> Option<HashMap<u32, Initialized>> {
    let method = prog.method(m).ok()?;
    let params = usize::from(method.desc.param_slots()) + usize::from(!method.is_static);
    initialized(method.code.as_ref()?, params, method.name == "<init>")
}

/// What edge `k` does to the run's fields.
fn heap_effect(
    g: &Graph,
    prog: &Program,
    facts: &[Facts],
    k: usize,
    abstract_caller: &[bool],
    clinit_free: &mut HashMap<String, bool>,
) -> Effect {
    let e = &g.edges[k];
    let s = &g.nodes[e.from].state;
    let sf = &facts[e.from];
    let mut quiet = |class: &str| {
        *clinit_free
            .entry(class.to_string())
            .or_insert_with(|| initialises_quietly(prog, class))
    };
    match e.kind {
        EdgeKind::Refine | EdgeKind::Split | EdgeKind::Instance => Effect::Keeps,
        EdgeKind::Return if !abstract_caller[e.from] => Effect::Keeps,
        EdgeKind::Return => Effect::Unknown,
        EdgeKind::Call => match sf.insn() {
            Some(Insn::Invoke {
                kind: InvokeKind::Static,
                method,
            }) if !quiet(&method.class) => Effect::Unknown,
            Some(Insn::Invoke { .. }) => Effect::Keeps,
            _ => Effect::Unknown,
        },
        EdgeKind::Eval => {
            let Some(top) = s.top().filter(|f| f.exception.is_none()) else {
                return Effect::Unknown;
            };
            match sf.insn() {
                _ if sf.keeps_heap() => Effect::Keeps,
                Some(Insn::New(class)) if quiet(class) => Effect::Keeps,
                Some(Insn::Invoke {
                    kind: InvokeKind::Special,
                    method,
                }) if method.class == "java/lang/Object" && method.name == "<init>" => {
                    Effect::Keeps
                }
                Some(Insn::PutField(fr)) => {
                    match top.stack.len().checked_sub(2).map(|i| top.stack[i]) {
                        Some(x) => Effect::Writes(x, fr.name.clone()),
                        None => Effect::Unknown,
                    }
                }
                _ => Effect::Unknown,
            }
        }
    }
}

/// Whether initialising `class` runs no code: no `<clinit>` in it, its superclasses or its
/// superinterfaces (`java/lang/Object` is initialised before any run).
fn initialises_quietly(prog: &Program, class: &str) -> bool {
    let mut todo = vec![class.to_string()];
    let mut seen = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if c == "java/lang/Object" || !seen.insert(c.clone()) {
            continue;
        }
        let Ok(cl) = prog.hierarchy.classpath().load(&c) else {
            return false;
        };
        if cl.methods.iter().any(|m| m.name == "<clinit>") {
            return false;
        }
        todo.extend(cl.super_name.iter().cloned());
        todo.extend(cl.interfaces.iter().cloned());
    }
    true
}

/// The reference at root `root` of state `s`.
fn root_ref(s: &State, root: Root) -> Option<Ref> {
    if let (Some(End::Return(Some(r))), Root::Result) = (&s.end, root) {
        return Some(*r);
    }
    roots(s)
        .into_iter()
        .find(|(p, _)| p.0 == root)
        .map(|(_, r)| r)
}
