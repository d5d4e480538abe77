//! Interval invariants of a graph: per node, per integer reference, an interval containing the
//! reference's witness value on every partial path the check can match from the start node.
//!
//! The facts used are only ones the check verifies or the JVM guarantees:
//!
//! * a node's own interval (the check's condition (c));
//! * the labels of an edge on the path (`res = a op b`, `a cond b`), where the check evaluated
//!   them — it skips a label whose operand the witness does not bind, so a label constrains
//!   only when its operands are *surely bound* (see [`Facts::surely_bound`]);
//! * *positions*: an access path `lvk.slot.f.g` / `osk.j.f` / `result`, read like the check's
//!   walk. Refinement, split and instance edges keep the concrete state, so a position names
//!   the same value at both ends; an `eval` edge executes one instruction, whose effect on the
//!   top frame's locals and stack is known (the frames below are untouched, and the heap too
//!   unless the instruction writes it or may run a class initializer: a static field access
//!   does not where its class is initialised already, [`initialized`]); a `call` edge of an
//!   inlined call pushes the callee's frame and pops the arguments off the caller's stack; a
//!   `return` edge pops the callee's frame and pushes the result on the caller's stack.
//!
//! A position is a conditional fact, "if the run's value there is an integer the check reads,
//! it lies in I": the check skips a local the JVM's verifier leaves untyped (a dead local at a
//! merge point), so a reference held only by locals may be unbound. A reference's interval is
//! the intersection over its positions that are surely read, or the hull over all of them.
//!
//! The fixpoint joins the contributions of all incoming edges (hull) and widens each bound of a
//! reference at a node after that bound has grown a few times (not after the node has: another
//! reference's counter growing at the loop head must not widen a bound that settled); every
//! transfer is monotone and capped by the node's own interval, so it terminates.

use jtg_engine::class::{ArrayKind, FieldType, Insn, Kind};
use jtg_engine::graph::{EdgeKind, Label, NodeId, Operand};
use jtg_engine::state::IntOp;
use jtg_engine::state::{End, HeapValue, IntSemantics, Interval, MethodId, Ref, State};
use jtg_engine::{Graph, Program};

use crate::selfcmp::self_compare;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Where an access path starts (frames counted from the top, stack entries from the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Root {
    Local(usize, usize),
    Stack(usize, usize),
    Result,
}

/// One step of an access path below a root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Seg {
    Field(String),
    Elem(usize),
}

pub(super) type Pos = (Root, Vec<Seg>);

/// The root positions of a state (locals and stack entries of every frame, frames and stack
/// entries counted from the top) with their references, `null` included.
pub(super) fn roots(s: &State) -> Vec<(Pos, Ref)> {
    let mut out = Vec::new();
    for (k, f) in s.frames.iter().rev().enumerate() {
        for (slot, r) in f.locals.iter().enumerate() {
            if let Some(r) = r {
                out.push(((Root::Local(k, slot), vec![]), *r));
            }
        }
        for (j, r) in f.stack.iter().rev().enumerate() {
            out.push(((Root::Stack(k, j), vec![]), *r));
        }
    }
    out
}

/// The integer positions of one node's state and what its instruction reads.
pub(super) struct Facts {
    /// Integer positions, each with the reference the state puts there.
    at: BTreeMap<Pos, Ref>,
    /// Object positions (no `null`), each with its reference.
    pub(super) objs: BTreeMap<Pos, Ref>,
    /// The instruction the top frame executes next (none for program ends).
    insn: Option<Insn>,
    /// Locals (frame from the top, slot) that are live at their frame's pc (see `liveness`):
    /// the check always compares them.
    live: BTreeSet<(usize, usize)>,
    /// The instruction is a static field access that cannot run a class initializer (see
    /// [`initialized`]).
    no_init: bool,
}

/// The live locals per method and pc, computed once per method.
type LiveCache = HashMap<MethodId, Option<HashMap<u32, BTreeSet<usize>>>>;

/// The facts of every node of `g`.
pub(super) fn facts(g: &Graph, prog: &Program) -> Vec<Facts> {
    let mut cache = LiveCache::new();
    g.nodes
        .iter()
        .map(|n| Facts::of(&n.state, prog, &mut cache))
        .collect()
}

impl Facts {
    fn of(s: &State, prog: &Program, cache: &mut LiveCache) -> Facts {
        let mut at = BTreeMap::new();
        let mut objs = BTreeMap::new();
        let mut expanded = BTreeSet::new();
        let mut live = BTreeSet::new();
        for (k, f) in s.frames.iter().rev().enumerate() {
            let by_pc = cache.entry(f.method.clone()).or_insert_with(|| {
                let m = prog.method(&f.method).ok()?;
                m.code.as_ref().map(super::liveness::live_in)
            });
            if let Some(slots) = by_pc.as_ref().and_then(|m| m.get(&f.pc)) {
                live.extend(slots.iter().map(|&slot| (k, slot)));
            }
        }
        for (k, f) in s.frames.iter().rev().enumerate() {
            for (slot, r) in f.locals.iter().enumerate() {
                if let Some(r) = r {
                    walk(
                        s,
                        *r,
                        (Root::Local(k, slot), vec![]),
                        &mut at,
                        &mut objs,
                        &mut expanded,
                    );
                }
            }
            for (j, r) in f.stack.iter().rev().enumerate() {
                walk(
                    s,
                    *r,
                    (Root::Stack(k, j), vec![]),
                    &mut at,
                    &mut objs,
                    &mut expanded,
                );
            }
        }
        if let Some(End::Return(Some(r))) = &s.end {
            walk(
                s,
                *r,
                (Root::Result, vec![]),
                &mut at,
                &mut objs,
                &mut expanded,
            );
        }
        let insn = s.top().and_then(|f| {
            let c = prog.hierarchy.classpath().load(&f.method.class).ok()?;
            let m = c.method(&f.method.name, Some(&f.method.desc)).ok()?;
            m.code.as_ref()?.at(f.pc).cloned()
        });
        let no_init = match &insn {
            Some(Insn::GetStatic(f) | Insn::PutStatic(f)) => {
                initialized(prog, s, &f.class, &f.name)
            }
            _ => false,
        };
        Facts {
            at,
            objs,
            insn,
            live,
            no_init,
        }
    }

    /// The integer positions and the reference at each.
    pub(super) fn at_positions(&self) -> impl Iterator<Item = (&Pos, &Ref)> {
        self.at.iter()
    }

    /// The integer reference at position `p`, if any.
    pub(super) fn at_position(&self, p: &Pos) -> Option<Ref> {
        self.at.get(p).copied()
    }

    /// Whether the check always reads position `p` of the run: a stack entry, the result, or a
    /// live local (not below an object, which may be uninitialized and then not walked).
    pub(super) fn surely_read(&self, p: &Pos) -> bool {
        p.1.is_empty()
            && match p.0 {
                Root::Stack(..) | Root::Result => true,
                Root::Local(k, slot) => self.live.contains(&(k, slot)),
            }
    }

    /// Whether the instruction the top frame executes next leaves every existing object as
    /// it was (see [`keeps_heap`]); `false` for program ends.
    pub(super) fn keeps_heap(&self) -> bool {
        self.insn.as_ref().is_some_and(keeps_heap) || self.no_init
    }

    /// Whether the next instruction allocates an object (`new`), whose value is then
    /// uninitialized until its constructor runs `super()`.
    pub(super) fn allocates(&self) -> bool {
        matches!(self.insn, Some(Insn::New(_)))
    }

    /// Whether the check surely binds `r`: it is an integer directly on a stack (stack entries
    /// are always compared), or in a live local (see `liveness`).
    pub(super) fn surely_bound(&self, r: Ref) -> bool {
        self.at.iter().any(|(p, x)| *x == r && self.binds(p))
    }

    /// Whether the check surely binds the reference at position `p`: `p` is surely read, or
    /// is the local the next instruction reads (the verifier keeps it typed).
    pub(super) fn binds(&self, p: &Pos) -> bool {
        let read = match &self.insn {
            Some(Insn::Load(_, i)) | Some(Insn::IInc { index: i, .. }) => Some(usize::from(*i)),
            _ => None,
        };
        self.surely_read(p) || (p.1.is_empty() && p.0 == Root::Local(0, read.unwrap_or(usize::MAX)))
    }
}

/// Records the integer positions below `r` (each object expanded once, like the check's walk).
fn walk(
    s: &State,
    r: Ref,
    pos: Pos,
    at: &mut BTreeMap<Pos, Ref>,
    objs: &mut BTreeMap<Pos, Ref>,
    expanded: &mut BTreeSet<Ref>,
) {
    if r.is_int() {
        at.insert(pos, r);
        return;
    }
    if !r.is_obj() {
        return;
    }
    objs.insert(pos.clone(), r);
    if !expanded.insert(r) {
        return;
    }
    let child = |seg: Seg| {
        let mut p = pos.clone();
        p.1.push(seg);
        p
    };
    match s.value(r) {
        Some(HeapValue::Object { fields, .. }) => {
            for (f, rf) in fields {
                walk(
                    s,
                    *rf,
                    child(Seg::Field(f.as_str().to_string())),
                    at,
                    objs,
                    expanded,
                );
            }
        }
        Some(HeapValue::Array { len, elems, .. }) => {
            walk(s, *len, child(Seg::Field("len".into())), at, objs, expanded);
            for (k, re) in elems.iter().flatten().enumerate() {
                walk(s, *re, child(Seg::Elem(k)), at, objs, expanded);
            }
        }
        _ => {}
    }
}

/// Per node, the interval of every integer reference of its state (`None`: no path from the
/// start node reaches the node).
pub struct Invariant {
    pub nodes: Vec<Option<BTreeMap<Ref, Interval>>>,
    /// Per edge, whether a path the check can match may take it (its source is reached and
    /// its labels and target intervals do not contradict the source's invariant).
    pub edges: Vec<bool>,
}

impl Invariant {
    /// Node `n`'s state with every integer interval narrowed to the invariant (`None`: the node
    /// is unreachable). Every concrete state the check can meet at `n` is an instance of it.
    pub fn tightened(&self, g: &Graph, n: NodeId) -> Option<State> {
        let ivs = self.nodes[n].as_ref()?;
        let mut st = g.nodes[n].state.clone();
        for (r, iv) in ivs {
            if let Some(HeapValue::Int(own)) = st.heap.get(r) {
                let v = own.intersect(iv).unwrap_or(*own);
                st.heap.insert(*r, HeapValue::Int(v));
            }
        }
        Some(st)
    }
}

/// Times one bound of a reference at a node may grow before it is widened to the node's own
/// interval's bound.
const WIDEN_AFTER: usize = 6;

impl Invariant {
    /// `dead`: edges another sound analysis showed no matchable path takes.
    pub(super) fn of(
        g: &Graph,
        facts: &[Facts],
        sem: IntSemantics,
        dead: Option<&[bool]>,
    ) -> Invariant {
        let own = |n: NodeId| -> BTreeMap<Ref, Interval> {
            g.nodes[n]
                .state
                .heap
                .iter()
                .filter_map(|(r, v)| match v {
                    HeapValue::Int(iv) => Some((*r, *iv)),
                    _ => None,
                })
                .collect()
        };
        let (out, abstract_caller) = adjacency(g);
        let mut inv: Vec<Option<BTreeMap<Ref, Interval>>> = vec![None; g.nodes.len()];
        // per node, per reference and bound (`false`: low, `true`: high): how often it grew
        let mut grown: Vec<BTreeMap<(Ref, bool), usize>> = vec![BTreeMap::new(); g.nodes.len()];
        inv[g.start] = Some(own(g.start));
        let mut todo = vec![g.start];
        while let Some(n) = todo.pop() {
            let Some(src) = inv[n].clone() else { continue };
            for &k in &out[n] {
                if dead.is_some_and(|d| d[k]) {
                    continue;
                }
                let e = &g.edges[k];
                let t = e.to;
                let contrib = match contribution(
                    e.kind,
                    &e.labels,
                    (&g.nodes[n].state, &facts[n], &src),
                    (&g.nodes[t].state, &facts[t]),
                    abstract_caller[n],
                    sem,
                ) {
                    Some(c) => c,
                    None => continue,
                };
                let new = match &inv[t] {
                    None => contrib,
                    Some(old) => {
                        let mut m = old.clone();
                        for (r, iv) in &contrib {
                            let h = m.get(r).map_or(*iv, |o| o.hull(iv));
                            m.insert(*r, h);
                        }
                        let own_t = own(t);
                        for (r, iv) in m.iter_mut() {
                            let Some(o) = old.get(r) else { continue };
                            let cap = own_t.get(r).copied().unwrap_or(Interval::TOP);
                            // each bound is widened after its own growth only: a counter
                            // growing at the top must not cost another bound its precision
                            let mut widen = |high: bool, changed: bool| {
                                let k = grown[t].entry((*r, high)).or_insert(0);
                                *k += usize::from(changed);
                                changed && *k > WIDEN_AFTER
                            };
                            let lo = if widen(false, iv.lo != o.lo) {
                                cap.lo
                            } else {
                                iv.lo
                            };
                            let hi = if widen(true, iv.hi != o.hi) {
                                cap.hi
                            } else {
                                iv.hi
                            };
                            *iv = Interval::new(lo, hi).unwrap_or(cap);
                        }
                        if m == *old {
                            continue;
                        }
                        m
                    }
                };
                inv[t] = Some(new);
                todo.push(t);
            }
        }
        let edges = g
            .edges
            .iter()
            .enumerate()
            .map(|(k, e)| {
                !dead.is_some_and(|d| d[k])
                    && inv[e.from].as_ref().is_some_and(|src| {
                        contribution(
                            e.kind,
                            &e.labels,
                            (&g.nodes[e.from].state, &facts[e.from], src),
                            (&g.nodes[e.to].state, &facts[e.to]),
                            abstract_caller[e.from],
                            sem,
                        )
                        .is_some()
                    })
            })
            .collect();
        Invariant { nodes: inv, edges }
    }
}

/// What one edge tells its target: an interval per integer reference of the target, or
/// `None` when the edge cannot be taken (a relation label contradicts the source).
fn contribution(
    kind: EdgeKind,
    labels: &[Label],
    (s, sf, src): (&State, &Facts, &BTreeMap<Ref, Interval>),
    (t, tf): (&State, &Facts),
    abstract_caller: bool,
    sem: IntSemantics,
) -> Option<BTreeMap<Ref, Interval>> {
    let mut src = src.clone();
    for l in labels {
        if let Label::Rel { a, cond, b } = l {
            refine(&mut src, sf, *a, *cond, *b)?;
        }
    }
    let get = |o: &Operand| -> Option<Interval> {
        match o {
            Operand::Lit(v) => Some(Interval::literal(*v)),
            Operand::Ref(r) => src.get(r).copied(),
        }
    };
    let bound = |o: &Operand| match o {
        Operand::Lit(_) => true,
        Operand::Ref(r) => sf.surely_bound(*r),
    };
    // per target position, the interval of the source position it mirrors
    let mut per_ref: BTreeMap<Ref, (Vec<Interval>, Vec<Interval>)> = BTreeMap::new();
    for (p, r) in &tf.at {
        let from = if abstract_caller && kind == EdgeKind::Return {
            None
        } else {
            source_of(kind, s, sf, t, p)
        };
        let iv = from
            .and_then(|q| sf.at.get(&q))
            .and_then(|x| src.get(x))
            .copied()
            .unwrap_or(Interval::TOP);
        let sure = p.1.is_empty() && matches!(p.0, Root::Stack(..) | Root::Result);
        let e = per_ref.entry(*r).or_default();
        if sure {
            e.0.push(iv);
        } else {
            e.1.push(iv);
        }
    }
    let mut res = BTreeMap::new();
    for (r, v) in &t.heap {
        let HeapValue::Int(own) = v else { continue };
        let mut iv = match per_ref.get(r) {
            // a value the check surely reads outside the target's interval: never taken
            Some((sure, _)) if !sure.is_empty() => {
                sure.iter().try_fold(*own, |a, b| a.intersect(b))?
            }
            Some((_, maybe)) if !maybe.is_empty() => {
                maybe.iter().skip(1).fold(maybe[0], |a, b| a.hull(b))
            }
            _ => Interval::TOP,
        };
        if kind.is_step() {
            for l in labels {
                let Label::Arith { res, op, a, b } = l else {
                    continue;
                };
                if res != r || !bound(a) || !b.as_ref().is_none_or(bound) {
                    continue;
                }
                let (Some(x), y) = (get(a), b.as_ref().map(get)) else {
                    continue;
                };
                if let Some(v) = arith(*op, x, y.flatten(), sem) {
                    iv = iv.intersect(&v).unwrap_or(iv);
                }
            }
        }
        if kind == EdgeKind::Eval {
            let cmp = sf.insn.as_ref().and_then(|i| self_compare(i, s, t, *r));
            if let Some(v) = cmp {
                iv = iv.intersect(&v).unwrap_or(iv);
            }
        }
        res.insert(*r, iv.intersect(own).unwrap_or(*own));
    }
    Some(res)
}

/// The interval of `a op b`, when the label's operands determine one.
pub(super) fn arith(
    op: IntOp,
    a: Interval,
    b: Option<Interval>,
    sem: IntSemantics,
) -> Option<Interval> {
    let b = match (op, b) {
        (IntOp::Neg, _) => a,
        (_, Some(b)) => b,
        _ => return None,
    };
    if matches!(op, IntOp::Div | IntOp::Rem) && b.contains(0) {
        return None;
    }
    let v = Interval::exact(op, &a, &b);
    match sem {
        IntSemantics::Unbounded => Some(v),
        // a wrapped result may be anywhere
        IntSemantics::Java => (!v.overflows_java()).then_some(v),
    }
}

/// Narrows the source intervals by a relation label that held (the check evaluated it with
/// the source witness). `None`: the label cannot hold. A bound of one side is only used on
/// the other when the check surely binds it (else the label is not evaluated).
fn refine(
    src: &mut BTreeMap<Ref, Interval>,
    sf: &Facts,
    a: Operand,
    cond: jtg_engine::class::Cond,
    b: Operand,
) -> Option<()> {
    use jtg_engine::class::Cond;
    let side = |o: Operand, src: &BTreeMap<Ref, Interval>| match o {
        Operand::Lit(v) => Some((Interval::literal(v), true, None)),
        Operand::Ref(r) => src.get(&r).map(|iv| (*iv, sf.surely_bound(r), Some(r))),
    };
    let (Some((ia, ba, ra)), Some((ib, bb, rb))) = (side(a, src), side(b, src)) else {
        return Some(());
    };
    // x cond y, narrowed for x
    let narrow = |x: Interval, cond: Cond, y: Interval| -> Option<Interval> {
        let lim = |lo: Option<i128>, hi: Option<i128>| Interval::new(lo, hi);
        let part = match cond {
            Cond::Lt => lim(None, y.hi.map(|h| h - 1))?,
            Cond::Le => lim(None, y.hi)?,
            Cond::Gt => lim(y.lo.map(|l| l + 1), None)?,
            Cond::Ge => lim(y.lo, None)?,
            Cond::Eq => y,
            Cond::Ne => match y.as_literal() {
                Some(v) if x.lo == Some(v) => lim(Some(v + 1), None)?,
                Some(v) if x.hi == Some(v) => lim(None, Some(v - 1))?,
                _ => Interval::TOP,
            },
        };
        x.intersect(&part)
    };
    let flip = |c: Cond| match c {
        Cond::Lt => Cond::Gt,
        Cond::Gt => Cond::Lt,
        Cond::Le => Cond::Ge,
        Cond::Ge => Cond::Le,
        c => c,
    };
    if let Some(ra) = ra.filter(|_| bb) {
        match narrow(ia, cond, ib) {
            Some(v) => {
                src.insert(ra, v);
            }
            None if ba => return None,
            None => {}
        }
    }
    if let Some(rb) = rb.filter(|_| ba) {
        match narrow(ib, flip(cond), ia) {
            Some(v) => {
                src.insert(rb, v);
            }
            None if bb => return None,
            None => {}
        }
    }
    Some(())
}

/// The source position whose concrete value the target position `p` holds after the edge,
/// if the edge determines one.
pub(super) fn source_of(kind: EdgeKind, s: &State, sf: &Facts, t: &State, p: &Pos) -> Option<Pos> {
    let (root, path) = p;
    match kind {
        // the same concrete state at both ends
        EdgeKind::Refine | EdgeKind::Split | EdgeKind::Instance => Some(p.clone()),
        EdgeKind::Eval => {
            let sf_top = s.top()?;
            if sf_top.exception.is_some() {
                return None;
            }
            let insn = sf.insn.as_ref()?;
            let keep_heap = sf.keeps_heap();
            let with = |r: Root| (path.is_empty() || keep_heap).then(|| (r, path.clone()));
            if t.is_end() {
                return match (root, insn, s.frames.len()) {
                    (Root::Result, Insn::Return(Some(Kind::Int | Kind::Ref)), 1) => {
                        Some((Root::Stack(0, 0), path.clone()))
                    }
                    _ => None,
                };
            }
            if t.frames.len() != s.frames.len() {
                return None;
            }
            match *root {
                Root::Result => None,
                Root::Local(k, slot) if k > 0 => with(Root::Local(k, slot)),
                Root::Stack(k, j) if k > 0 => with(Root::Stack(k, j)),
                Root::Local(_, slot) => match insn {
                    Insn::Store(kind, i) => {
                        let i = usize::from(*i);
                        if slot == i {
                            with(Root::Stack(0, 0))
                        } else if slot == i + 1 && matches!(kind, Kind::Long | Kind::Double) {
                            None
                        } else {
                            with(Root::Local(0, slot))
                        }
                    }
                    Insn::IInc { index, .. } if usize::from(*index) == slot => None,
                    _ => with(Root::Local(0, slot)),
                },
                Root::Stack(_, j) => {
                    let (pops, pushes) = stack_effect(insn)?;
                    let (ls, lt) = (sf_top.stack.len(), t.top()?.stack.len());
                    if ls < pops || lt != ls - pops + pushes {
                        return None;
                    }
                    match insn {
                        Insn::Load(_, i) if j == 0 => with(Root::Local(0, usize::from(*i))),
                        Insn::Dup if j < 2 => with(Root::Stack(0, 0)),
                        // the field of the object popped (the heap is unchanged)
                        Insn::GetField(f) if j == 0 => {
                            let mut q = vec![Seg::Field(f.name.clone())];
                            q.extend(path.iter().cloned());
                            Some((Root::Stack(0, 0), q))
                        }
                        Insn::Swap if j < 2 => with(Root::Stack(0, 1 - j)),
                        Insn::Swap => with(Root::Stack(0, j)),
                        _ if j < pushes => None,
                        _ => with(Root::Stack(0, j - pushes + pops)),
                    }
                }
            }
        }
        EdgeKind::Return => {
            // an inlined callee's frame returns into its caller (one frame fewer)
            let insn = sf.insn.as_ref()?;
            let Insn::Return(kind) = insn else {
                return None;
            };
            if t.is_end() || t.frames.len() + 1 != s.frames.len() {
                return None;
            }
            let pushed = usize::from(kind.is_some());
            let (ls, lt) = (
                s.frames[s.frames.len() - 2].stack.len(),
                t.top()?.stack.len(),
            );
            match *root {
                Root::Result => None,
                Root::Local(k, slot) => Some((Root::Local(k + 1, slot), path.clone())),
                Root::Stack(k, j) if k > 0 => Some((Root::Stack(k + 1, j), path.clone())),
                Root::Stack(_, j) => {
                    if lt != ls + pushed {
                        None
                    } else if j < pushed {
                        matches!(kind, Some(Kind::Int | Kind::Ref))
                            .then(|| (Root::Stack(0, 0), path.clone()))
                    } else {
                        Some((Root::Stack(1, j - pushed), path.clone()))
                    }
                }
            }
        }
        EdgeKind::Call => {
            // an inlined call pushes the callee's frame: the frames below keep their locals and
            // stacks, except that the caller's stack has lost the arguments (as the check
            // reads a caller frame, too). Nothing below a root: `invokestatic` may run a class
            // initializer. (An abstracted call leads to a method graph's one-frame entry.)
            if t.is_end() || t.frames.len() != s.frames.len() + 1 || !path.is_empty() {
                return None;
            }
            let ls = s.top()?.stack.len();
            let lt = t.frames[t.frames.len() - 2].stack.len();
            let pops = ls.checked_sub(lt)?;
            match *root {
                Root::Local(k, slot) if k > 0 => Some((Root::Local(k - 1, slot), vec![])),
                Root::Stack(1, j) => Some((Root::Stack(0, j + pops), vec![])),
                Root::Stack(k, j) if k > 1 => Some((Root::Stack(k - 1, j), vec![])),
                _ => None,
            }
        }
    }
}

/// Whether a `getstatic` / `putstatic` of field `class.name` in state `s` surely runs no class
/// initializer: the class declaring the field (field resolution, as `Program::static_key`)
/// is the class of a method on `s`'s frames or one of its superclasses. Such a method runs
/// only once its class's initialization has completed or is in progress on this thread (the
/// entry's class is initialised before the run; `invokestatic` initialises the class of the
/// method it calls; an instance method's receiver was created by `new` or an input builder
/// that initialise its class; JVMS §5.5), and initialising a class initialises its
/// superclasses first. An access to a field of such a class then reads or writes the field and
/// nothing else: `putstatic` writes no object, `getstatic` none at all.
fn initialized(prog: &Program, s: &State, class: &str, name: &str) -> bool {
    let declaring = prog
        .static_key(&jtg_engine::class::FieldRef {
            class: class.to_string(),
            name: name.to_string(),
            desc: FieldType::Int,
        })
        .0;
    s.frames.iter().any(|f| {
        let mut c = Some(f.method.class.to_string());
        // a bounded walk up the superclass chain (class files may be malformed)
        for _ in 0..64 {
            match c {
                Some(ref x) if *x == declaring => return true,
                Some(x) => c = prog.hierarchy.super_of(&x).ok().flatten(),
                None => return false,
            }
        }
        false
    })
}

/// Whether the instruction leaves every existing object as it was (no field or element
/// write, no call, no allocation or static access that may run a class initializer; see
/// [`initialized`] for the static accesses that cannot).
fn keeps_heap(insn: &Insn) -> bool {
    !matches!(
        insn,
        Insn::PutField(_)
            | Insn::PutStatic(_)
            | Insn::GetStatic(_)
            | Insn::ArrayStore(_)
            | Insn::Invoke { .. }
            | Insn::InvokeDynamic { .. }
            | Insn::New(_)
            | Insn::NewArray(_)
            | Insn::ANewArray(_)
            | Insn::MultiANewArray { .. }
            | Insn::AThrow
            | Insn::MonitorEnter
            | Insn::MonitorExit
            | Insn::Jsr(_)
            | Insn::Ret(_)
    )
}

/// Stack entries (values) an instruction pops and pushes when it completes normally; only
/// for instructions on single-slot values, where values and slots agree.
fn stack_effect(insn: &Insn) -> Option<(usize, usize)> {
    let one = |k: &Kind| matches!(k, Kind::Int | Kind::Ref | Kind::Float);
    Some(match insn {
        Insn::Nop | Insn::Goto(_) | Insn::IInc { .. } => (0, 0),
        Insn::AConstNull | Insn::IConst(_) => (0, 1),
        Insn::Load(k, _) if one(k) => (0, 1),
        Insn::Store(k, _) if one(k) => (1, 0),
        Insn::Dup => (1, 2),
        Insn::Swap => (2, 2),
        Insn::Pop => (1, 0),
        Insn::Arith(Kind::Int, jtg_engine::class::ArithOp::Neg) => (1, 1),
        Insn::Arith(Kind::Int, _) => (2, 1),
        Insn::I2B | Insn::I2C | Insn::I2S => (1, 1),
        Insn::If { .. } | Insn::IfNull { .. } | Insn::IfNonNull { .. } => (1, 0),
        Insn::IfICmp { .. } | Insn::IfACmp { .. } => (2, 0),
        Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => (1, 0),
        Insn::GetField(f) if !matches!(f.desc, FieldType::Long | FieldType::Double) => (1, 1),
        Insn::GetStatic(f) if !matches!(f.desc, FieldType::Long | FieldType::Double) => (0, 1),
        Insn::PutStatic(f) if !matches!(f.desc, FieldType::Long | FieldType::Double) => (1, 0),
        Insn::ArrayLoad(k) if !matches!(k, ArrayKind::Long | ArrayKind::Double) => (2, 1),
        Insn::ArrayLength | Insn::CheckCast(_) | Insn::InstanceOf(_) => (1, 1),
        _ => return None,
    })
}

/// The outgoing edges of every node, and whether it makes an abstracted call (a `call` edge
/// labelled `abstract call of M`: its `return` edges are not steps of its own method graph).
pub(super) fn adjacency(g: &Graph) -> (Vec<Vec<usize>>, Vec<bool>) {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    let mut abstract_caller = vec![false; g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        out[e.from].push(k);
        abstract_caller[e.from] |= e.kind == EdgeKind::Call
            && e.labels
                .iter()
                .any(|l| matches!(l, Label::AbstractCall { .. }));
    }
    (out, abstract_caller)
}
