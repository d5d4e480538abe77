//! Positions: access paths from the roots of a state (`lvk.slot.f.g` / `osk.j.f` / `result`),
//! read like the check's walk, and how an edge carries them. Refinement, split and instance
//! edges keep the concrete state, so a position names the same value at both ends; an `eval`
//! edge executes one instruction, whose effect on the top frame's locals and stack is known (the
//! frames below are untouched, and the heap too unless the instruction writes it or may run a
//! class initializer: a static field access does not where its class is initialised already,
//! [`initialized`]; `arraylength` pushes the length of the array it pops); a `call` edge of
//! an inlined call pushes the callee's frame, whose parameters are the arguments it pops off
//! the caller's stack (slots laid out by the descriptor, the receiver first); a `return` edge
//! pops the callee's frame and pushes the result on the caller's stack. An array's length
//! never changes: it is carried across every edge that keeps the array's root. An integer
//! static field the start state lists is a root too ([`Root::Static`]): only a `putstatic` of
//! it or a class initializer writes it, so it is carried across every edge that runs neither.
//!
//! [`Facts`] are one node's positions and what the check surely reads of them; the analyses of
//! this crate (intervals, relations, nullness, distinctness, reach) share them.

use jtg_engine::class::{ArrayKind, FieldType, Insn, InvokeKind, Kind, MethodDescriptor};
use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::state::{End, HeapValue, MethodId, Ref, State, StaticField};
use jtg_engine::{Graph, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};
/// Where an access path starts (frames counted from the top, stack entries from the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Root {
    Local(usize, usize),
    Stack(usize, usize),
    Result,
    /// The `k`-th static field the graph's start state lists (in key order), where it holds an
    /// integer. The run knows such a static from step 0 (`jvm/src/decode/statics.rs`), but a
    /// class initializer the tracer does not see may overwrite it, after which the check does
    /// not compare it until a read: it is never surely read, only a conditional fact like a
    /// position below an object.
    Static(usize),
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
    /// Roots that hold an array: the check walks an array's length wherever it walks the
    /// array (an array is never uninitialized).
    arrays: BTreeSet<Root>,
    /// The next instruction is a `getstatic` or `putstatic` of the `k`-th static of
    /// [`Root::Static`].
    accesses_static: Option<usize>,
}

/// The live locals per method and pc, computed once per method.
type LiveCache = HashMap<MethodId, Option<HashMap<u32, BTreeSet<usize>>>>;

/// The facts of every node of `g`.
pub(super) fn facts(g: &Graph, prog: &Program) -> Vec<Facts> {
    let mut cache = LiveCache::new();
    let statics: Vec<&StaticField> = g.nodes[g.start].state.statics.keys().collect();
    g.nodes
        .iter()
        .map(|n| Facts::of(&n.state, prog, &statics, &mut cache))
        .collect()
}

impl Facts {
    fn of(s: &State, prog: &Program, statics: &[&StaticField], cache: &mut LiveCache) -> Facts {
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
        // the start state's integer statics (objects below them are left out: a static's
        // object is not walked before the run's first access of the static)
        for (k, key) in statics.iter().enumerate() {
            if let Some(r) = s.statics.get(*key).filter(|r| r.is_int()) {
                at.insert((Root::Static(k), vec![]), *r);
            }
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
        let accesses_static = match &insn {
            Some(Insn::GetStatic(f) | Insn::PutStatic(f)) => {
                let key = prog.static_key(f);
                statics.iter().position(|k| **k == key)
            }
            _ => None,
        };
        // every root holding an array, with its length's position (the walk above expands an
        // object once, under the first root that reaches it)
        let mut arrays = BTreeSet::new();
        for ((root, below), r) in &objs {
            if let (true, Some(HeapValue::Array { len, .. })) = (below.is_empty(), s.value(*r)) {
                arrays.insert(*root);
                at.insert((*root, vec![Seg::Field("len".into())]), *len);
            }
        }
        Facts {
            at,
            objs,
            insn,
            live,
            no_init,
            arrays,
            accesses_static,
        }
    }

    /// The integer positions and the reference at each.
    pub(super) fn at_positions(&self) -> impl Iterator<Item = (&Pos, &Ref)> {
        self.at.iter()
    }

    /// The instruction the top frame executes next (none for program ends).
    pub(super) fn insn(&self) -> Option<&Insn> {
        self.insn.as_ref()
    }

    /// The integer reference at position `p`, if any.
    pub(super) fn at_position(&self, p: &Pos) -> Option<Ref> {
        self.at.get(p).copied()
    }

    /// Whether the check always reads position `p` of the run: a stack entry, the result, or a
    /// live local, and the length of an array there (not otherwise below an object, which may
    /// be uninitialized and then not walked; an array never is).
    pub(super) fn surely_read(&self, p: &Pos) -> bool {
        let below_ok = match p.1.as_slice() {
            [] => true,
            [Seg::Field(f)] => f == "len" && self.arrays.contains(&p.0),
            _ => false,
        };
        below_ok
            && match p.0 {
                Root::Stack(..) | Root::Result => true,
                Root::Local(k, slot) => self.live.contains(&(k, slot)),
                Root::Static(_) => false,
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

/// The source position whose concrete value the target position `p` holds after the edge,
/// if the edge determines one.
pub(super) fn source_of(kind: EdgeKind, s: &State, sf: &Facts, t: &State, p: &Pos) -> Option<Pos> {
    let (root, path) = p;
    if let Root::Static(k) = *root {
        return static_source(kind, s, sf, t, k);
    }
    // an array's length never changes: whatever the edge does to the heap, the length below a
    // root that holds the same array at both ends is the same
    let fixed = array_len(t, p);
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
            let with = |r: Root| (path.is_empty() || keep_heap || fixed).then(|| (r, path.clone()));
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
                Root::Result | Root::Static(_) => None,
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
                        // the length of the array popped
                        Insn::ArrayLength if j == 0 && path.is_empty() => {
                            Some((Root::Stack(0, 0), vec![Seg::Field("len".into())]))
                        }
                        // the value of a start static, where no class initializer runs first
                        Insn::GetStatic(_) if j == 0 && path.is_empty() && sf.no_init => {
                            sf.accesses_static.map(|k| (Root::Static(k), vec![]))
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
                Root::Result | Root::Static(_) => None,
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
            if t.is_end() || t.frames.len() != s.frames.len() + 1 || !(path.is_empty() || fixed) {
                return None;
            }
            let ls = s.top()?.stack.len();
            let lt = t.frames[t.frames.len() - 2].stack.len();
            let pops = ls.checked_sub(lt)?;
            match *root {
                // a parameter of the callee: the argument popped off the caller's stack (the
                // callee's locals at its entry are its parameters, in the order pushed)
                Root::Local(0, slot) => {
                    let Some(Insn::Invoke { kind, .. }) = sf.insn.as_ref() else {
                        return None;
                    };
                    let desc = MethodDescriptor::parse(&t.top()?.method.desc).ok()?;
                    // the first slot of each argument, the receiver first
                    let mut first = Vec::new();
                    let mut next = 0usize;
                    if *kind != InvokeKind::Static {
                        first.push(0);
                        next = 1;
                    }
                    for p in &desc.params {
                        first.push(next);
                        next += usize::from(p.slots());
                    }
                    let k = first.iter().position(|&i| i == slot)?;
                    (first.len() == pops).then(|| (Root::Stack(0, pops - 1 - k), path.clone()))
                }
                Root::Local(k, slot) if k > 0 => Some((Root::Local(k - 1, slot), path.clone())),
                Root::Stack(1, j) => Some((Root::Stack(0, j + pops), path.clone())),
                Root::Stack(k, j) if k > 1 => Some((Root::Stack(k - 1, j), path.clone())),
                _ => None,
            }
        }
    }
}

/// The source position of the `k`-th start static ([`Root::Static`]) after the edge: itself
/// where the edge keeps the concrete state, or executes an instruction that neither writes the
/// static nor may run a class initializer (which the tracer does not see), or returns from a
/// frame (no code runs); the value popped where a `putstatic` that runs no class initializer
/// writes it. A `call` edge may initialise the callee's class.
fn static_source(kind: EdgeKind, s: &State, sf: &Facts, t: &State, k: usize) -> Option<Pos> {
    let same = Some((Root::Static(k), vec![]));
    match kind {
        EdgeKind::Refine | EdgeKind::Split | EdgeKind::Instance => same,
        EdgeKind::Call => None,
        EdgeKind::Return => matches!(sf.insn, Some(Insn::Return(_))).then_some(same?),
        EdgeKind::Eval => {
            if s.top().is_none_or(|f| f.exception.is_some()) {
                return None;
            }
            let insn = sf.insn.as_ref()?;
            if t.is_end() {
                return matches!(insn, Insn::Return(_)).then_some(same?);
            }
            match insn {
                Insn::PutStatic(f) if sf.accesses_static == Some(k) => {
                    let single = !matches!(f.desc, FieldType::Long | FieldType::Double);
                    (sf.no_init && single).then_some((Root::Stack(0, 0), vec![]))
                }
                // `putfield` and array stores write an object, not a static; the other
                // instructions `keeps_heap` rejects may run code
                Insn::PutField(_) | Insn::ArrayStore(_) => same,
                _ => sf.keeps_heap().then_some(same?),
            }
        }
    }
}

/// Whether position `p` of state `t` is the length of an array held directly by its root.
fn array_len(t: &State, p: &Pos) -> bool {
    matches!(p.1.as_slice(), [Seg::Field(f)] if f == "len")
        && value_at(t, &(p.0, vec![]))
            .is_some_and(|r| matches!(t.value(r), Some(HeapValue::Array { .. })))
}

/// The reference at position `p` of state `s` (`null` included), if the state shows one.
pub(super) fn value_at(s: &State, p: &Pos) -> Option<Ref> {
    let frame = |k: usize| s.frames.len().checked_sub(k + 1).map(|i| &s.frames[i]);
    let mut r = match p.0 {
        Root::Local(k, slot) => (*frame(k)?.locals.get(slot)?)?,
        Root::Stack(k, j) => {
            let st = &frame(k)?.stack;
            *st.get(st.len().checked_sub(j + 1)?)?
        }
        Root::Result => match &s.end {
            Some(End::Return(Some(x))) => *x,
            _ => return None,
        },
        // integer statics only: nothing below them
        Root::Static(_) => return None,
    };
    for seg in &p.1 {
        r = match (s.value(r)?, seg) {
            (HeapValue::Object { fields, .. }, Seg::Field(f)) => *fields.get(f.as_str())?,
            (HeapValue::Array { len, .. }, Seg::Field(f)) if f == "len" => *len,
            (HeapValue::Array { elems, .. }, Seg::Elem(k)) => *elems.as_ref()?.get(*k)?,
            _ => return None,
        };
    }
    Some(r)
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

/// Stack entries (values: the engine keeps a `long` or `double` in one entry) an instruction
/// pops and pushes when it completes normally. Left out: the `dup2`/`pop2` forms, which count
/// slots, and the field and element accesses of two-slot values. (The caller also checks the
/// stack heights at both ends against the effect.)
fn stack_effect(insn: &Insn) -> Option<(usize, usize)> {
    Some(match insn {
        Insn::Nop | Insn::Goto(_) | Insn::IInc { .. } => (0, 0),
        Insn::AConstNull
        | Insn::IConst(_)
        | Insn::LConst(_)
        | Insn::FConst(_)
        | Insn::DConst(_)
        | Insn::Ldc(_) => (0, 1),
        Insn::Load(..) => (0, 1),
        Insn::Store(..) => (1, 0),
        Insn::Dup => (1, 2),
        Insn::Swap => (2, 2),
        Insn::Pop => (1, 0),
        Insn::Arith(_, jtg_engine::class::ArithOp::Neg) => (1, 1),
        Insn::Arith(..) => (2, 1),
        Insn::Convert { .. } | Insn::I2B | Insn::I2C | Insn::I2S => (1, 1),
        Insn::LCmp | Insn::FCmpL | Insn::FCmpG | Insn::DCmpL | Insn::DCmpG => (2, 1),
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
