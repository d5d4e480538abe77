//! Field type sets: which classes of objects a run can store into each field, by a variable
//! type analysis (Sundaresan et al., OOPSLA '00; the per-field sets of Tip & Palsberg's XTA,
//! with one set per local, stack slot, parameter and return value instead of one per method).
//!
//! Why per variable: in XTA's one set per method, a `LinkedList` method's receiver and its
//! `Object` argument share a set, so `Entry.element` would seem to hold lists; here the
//! argument's set is what the callers pass in that position.
//!
//! The analysis is a fixpoint over the methods a rapid type analysis reached
//! ([`super::rapid_type_analysis`]): each method is interpreted over its bytecode (sets per
//! stack word and local, joined at branch targets and exception handlers) under the current
//! sets of fields, parameters, return values and the one set of all reference array elements;
//! what it stores, passes or returns is added to those, until nothing grows. A set may be
//! `None`, "any class": what library code returns, what a handler catches, what the caller
//! declared unknown (inputs). `jsr`, or an `invokedynamic` other than a string concatenation
//! or a lambda site (whose class `lambda.rs` makes, code included), anywhere give up
//! ([`FieldTypes::complete`] false): code the class files do not show may store anything.

use super::{ArrayKind, Hierarchy, Insn, InvokeKind, Kind, MethodKey, MethodRef};
use crate::class::FieldType;
use std::collections::{BTreeMap, BTreeSet};

/// A set of classes (internal names; arrays by descriptor), or `None` for any class.
pub type Types = Option<BTreeSet<String>>;

/// A field as (declaring class, name).
pub type FieldId = (String, String);

/// Where a set lives between methods.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Node {
    /// A method's local slot at entry (`this` is slot 0).
    Param(MethodKey, u16),
    /// What a method returns.
    Ret(MethodKey),
    /// A static or instance field.
    Field(FieldId),
    /// The elements of every reference array.
    ArrayElems,
}

/// What the caller knows of the start of the run.
#[derive(Clone, Debug, Default)]
pub struct FlowSeeds {
    /// Entry methods' parameter slots and what they may hold.
    pub params: Vec<(MethodKey, u16, Types)>,
    /// What the reference arrays of the start may hold.
    pub array_elems: Types,
    /// Fields that inputs may fill with anything.
    pub unknown_fields: BTreeSet<FieldId>,
    /// Whether statics hold anything at the start (else what the run's code stores).
    pub unknown_statics: bool,
}

/// The result: per field, the classes a run may store there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldTypes {
    /// False when the analysis gave up: every field may hold anything of its type.
    pub complete: bool,
    fields: BTreeMap<FieldId, Types>,
}

impl FieldTypes {
    /// The instance fields the analysis has a set for, with their declared types.
    pub fn instance_fields(&self, h: &Hierarchy) -> Vec<(FieldId, FieldType)> {
        self.fields
            .keys()
            .filter_map(|id| {
                let r = h.resolve_field(&id.0, &id.1).ok()??;
                (!r.field.is_static).then(|| (id.clone(), r.field.desc.clone()))
            })
            .collect()
    }

    /// The classes field `f` may hold (`Some(∅)`: only `null`); `None`: any of its type.
    pub fn of(&self, f: &FieldId) -> Option<&BTreeSet<String>> {
        if !self.complete {
            return None;
        }
        match self.fields.get(f) {
            Some(t) => t.as_ref(),
            None => None,
        }
    }
}

fn join_into(into: &mut Types, v: &Types) -> bool {
    match (into.as_mut(), v) {
        (None, _) => false,
        (Some(_), None) => {
            *into = None;
            true
        }
        (Some(a), Some(b)) => {
            let n = a.len();
            a.extend(b.iter().cloned());
            a.len() != n
        }
    }
}

fn empty() -> Types {
    Some(BTreeSet::new())
}

fn one(c: &str) -> Types {
    Some(BTreeSet::from([c.to_string()]))
}

/// Locals and operand stack (one entry per JVM word) before an instruction.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    locals: Vec<Types>,
    stack: Vec<Types>,
}

impl Frame {
    fn join(&mut self, o: &Frame) -> Option<bool> {
        if self.stack.len() != o.stack.len() || self.locals.len() != o.locals.len() {
            return None;
        }
        let mut changed = false;
        for (a, b) in self.locals.iter_mut().zip(&o.locals) {
            changed |= join_into(a, b);
        }
        for (a, b) in self.stack.iter_mut().zip(&o.stack) {
            changed |= join_into(a, b);
        }
        Some(changed)
    }
}

struct Vta<'a> {
    h: &'a Hierarchy,
    world: &'a BTreeSet<String>,
    seeds: &'a FlowSeeds,
    nodes: BTreeMap<Node, Types>,
    changed: bool,
    complete: bool,
}

/// The field type sets of a run that executes only `methods` (a rapid type analysis's), whose
/// objects have classes in `world`, from the start that `seeds` describe.
pub fn field_types(
    h: &Hierarchy,
    methods: &BTreeSet<MethodKey>,
    world: &BTreeSet<String>,
    seeds: &FlowSeeds,
) -> FieldTypes {
    let mut vta = Vta {
        h,
        world,
        seeds,
        nodes: BTreeMap::new(),
        changed: false,
        complete: true,
    };
    for (m, slot, t) in &seeds.params {
        vta.flow(Node::Param(m.clone(), *slot), t);
    }
    vta.flow(Node::ArrayElems, &seeds.array_elems);
    for f in &seeds.unknown_fields {
        vta.flow(Node::Field(f.clone()), &None);
    }
    loop {
        vta.changed = false;
        for m in methods {
            vta.scan(m);
            if !vta.complete {
                return FieldTypes::default();
            }
        }
        if !vta.changed {
            break;
        }
    }
    let fields = vta
        .nodes
        .into_iter()
        .filter_map(|(n, t)| match n {
            Node::Field(f) => Some((f, t)),
            _ => None,
        })
        .collect();
    FieldTypes {
        complete: true,
        fields,
    }
}

/// The words a value of field type `t` occupies, all holding `v` (primitives: nothing).
fn words(t: &FieldType, v: Types) -> Vec<Types> {
    if t.is_reference() {
        vec![v]
    } else {
        vec![empty(); t.slots() as usize]
    }
}

fn kind_words(k: Kind) -> Vec<Types> {
    vec![empty(); k.slots() as usize]
}

fn array_kind_words(k: ArrayKind) -> usize {
    match k {
        ArrayKind::Long | ArrayKind::Double => 2,
        _ => 1,
    }
}

impl Vta<'_> {
    fn node(&self, n: &Node) -> Types {
        self.nodes.get(n).cloned().unwrap_or_else(empty)
    }

    fn flow(&mut self, n: Node, v: &Types) {
        let slot = self.nodes.entry(n).or_insert_with(empty);
        self.changed |= join_into(slot, v);
    }

    fn field_node(&self, class: &str, name: &str) -> Option<Node> {
        match self.h.resolve_field(class, name) {
            Ok(Some(r)) if !self.h.is_library(&r.class) => {
                Some(Node::Field((r.class, r.field.name)))
            }
            _ => None,
        }
    }

    /// The methods with code that a call runs, and whether it may run code without (a library
    /// method, an array's `Object` method), whose result is then any class.
    fn targets(&self, kind: InvokeKind, m: &MethodRef, recv: &Types) -> (Vec<MethodKey>, bool) {
        let key_of = |r: super::ResolvedMethod| {
            let mm = r.method();
            if mm.code.is_some() && !self.h.is_library(&mm.class) {
                Some((mm.class.clone(), mm.name.clone(), mm.desc_str.clone()))
            } else {
                None
            }
        };
        match kind {
            InvokeKind::Static | InvokeKind::Special => {
                match self.h.resolve_method(&m.class, &m.name, &m.desc_str) {
                    Ok(Some(r)) => match key_of(r) {
                        Some(k) => (vec![k], false),
                        None => (Vec::new(), true),
                    },
                    _ => (Vec::new(), true),
                }
            }
            InvokeKind::Virtual | InvokeKind::Interface => {
                let classes: Vec<&String> = match recv {
                    None => self.world.iter().collect(),
                    Some(s) => s.iter().collect(),
                };
                let mut out = BTreeSet::new();
                let mut lib = false;
                for c in classes {
                    if c.starts_with('[') {
                        lib = true;
                        continue;
                    }
                    if !self.h.is_subtype(c, &m.class).unwrap_or(true) {
                        continue;
                    }
                    match self.h.dispatch_virtual(c, &m.name, &m.desc_str) {
                        Ok(Some(r)) => match key_of(r) {
                            Some(k) => {
                                out.insert(k);
                            }
                            None => lib = true,
                        },
                        _ => lib = true,
                    }
                }
                (out.into_iter().collect(), lib)
            }
        }
    }

    /// Interprets `m` once to its own fixpoint, adding what it stores, passes and returns.
    fn scan(&mut self, m: &MethodKey) {
        let Some((class, i)) = super::reachable::declared_method(self.h, m) else {
            return;
        };
        let method = &class.methods[i];
        let Some(code) = &method.code else { return };
        let mut locals = vec![empty(); code.max_locals as usize];
        let mut slot = 0u16;
        if !method.is_static {
            if let Some(l) = locals.first_mut() {
                *l = self.node(&Node::Param(m.clone(), 0));
            }
            slot = 1;
        }
        for p in &method.desc.params {
            if p.is_reference() {
                if let Some(l) = locals.get_mut(slot as usize) {
                    *l = self.node(&Node::Param(m.clone(), slot));
                }
            }
            slot += p.slots();
        }
        let index: BTreeMap<u32, usize> = code
            .insns
            .iter()
            .enumerate()
            .map(|(i, (pc, _))| (*pc, i))
            .collect();
        let mut frames: BTreeMap<u32, Frame> = BTreeMap::new();
        let Some((first, _)) = code.insns.first() else {
            return;
        };
        frames.insert(
            *first,
            Frame {
                locals,
                stack: Vec::new(),
            },
        );
        let mut todo: BTreeSet<u32> = BTreeSet::from([*first]);
        while let Some(pc) = todo.pop_first() {
            let Some(&i) = index.get(&pc) else {
                self.complete = false;
                return;
            };
            let before = frames[&pc].clone();
            let insn = &code.insns[i].1;
            let Some((after, ends)) = self.step(m, insn, before.clone()) else {
                self.complete = false;
                return;
            };
            let mut succs: Vec<(u32, Frame)> = Vec::new();
            if !ends {
                if let Some((next, _)) = code.insns.get(i + 1) {
                    succs.push((*next, after.clone()));
                }
            }
            for t in insn.branch_targets() {
                succs.push((t, after.clone()));
            }
            for hd in code
                .handlers
                .iter()
                .filter(|hd| hd.start <= pc && pc < hd.end)
            {
                for locals in [&before.locals, &after.locals] {
                    succs.push((
                        hd.handler,
                        Frame {
                            locals: locals.clone(),
                            stack: vec![None],
                        },
                    ));
                }
            }
            for (t, f) in succs {
                match frames.get_mut(&t) {
                    None => {
                        frames.insert(t, f);
                        todo.insert(t);
                    }
                    Some(old) => match old.join(&f) {
                        None => {
                            self.complete = false;
                            return;
                        }
                        Some(true) => {
                            todo.insert(t);
                        }
                        Some(false) => {}
                    },
                }
            }
        }
    }

    /// One instruction: the frame after it and whether control never falls through. `None`
    /// for what the analysis does not follow (`jsr`, `invokedynamic`, a malformed stack).
    fn step(&mut self, m: &MethodKey, insn: &Insn, mut f: Frame) -> Option<(Frame, bool)> {
        let pop = |f: &mut Frame, n: usize| -> Option<Vec<Types>> {
            let at = f.stack.len().checked_sub(n)?;
            Some(f.stack.split_off(at))
        };
        let mut ends = false;
        match insn {
            Insn::Nop | Insn::IInc { .. } | Insn::I2B | Insn::I2C | Insn::I2S => {}
            Insn::AConstNull | Insn::IConst(_) | Insn::FConst(_) => f.stack.push(empty()),
            Insn::LConst(_) | Insn::DConst(_) => f.stack.extend([empty(), empty()]),
            Insn::Ldc(c) => match c {
                super::Constant::Long(_) | super::Constant::Double(_) => {
                    f.stack.extend([empty(), empty()])
                }
                super::Constant::Int(_) | super::Constant::Float(_) => f.stack.push(empty()),
                super::Constant::String(_) => f.stack.push(one(super::jvms::STRING)),
                super::Constant::Class(_) => f.stack.push(one(super::jvms::CLASS)),
                super::Constant::Other(_) => f.stack.push(None),
            },
            Insn::Load(k, i) => {
                if *k == Kind::Ref {
                    f.stack.push(f.locals.get(*i as usize)?.clone());
                } else {
                    f.stack.extend(kind_words(*k));
                }
            }
            Insn::Store(k, i) => {
                let v = pop(&mut f, k.slots() as usize)?;
                for (j, w) in v.into_iter().enumerate() {
                    *f.locals.get_mut(*i as usize + j)? = w;
                }
            }
            Insn::ArrayLoad(k) => {
                pop(&mut f, 2)?;
                if *k == ArrayKind::Ref {
                    f.stack.push(self.node(&Node::ArrayElems));
                } else {
                    f.stack.extend(vec![empty(); array_kind_words(*k)]);
                }
            }
            Insn::ArrayStore(k) => {
                let v = pop(&mut f, array_kind_words(*k))?;
                pop(&mut f, 2)?;
                if *k == ArrayKind::Ref {
                    self.flow(Node::ArrayElems, &v[0]);
                }
            }
            Insn::Pop | Insn::MonitorEnter | Insn::MonitorExit => {
                pop(&mut f, 1)?;
            }
            Insn::Pop2 => {
                pop(&mut f, 2)?;
            }
            Insn::Dup => {
                let v = f.stack.last()?.clone();
                f.stack.push(v);
            }
            Insn::DupX1 | Insn::DupX2 => {
                let under = if matches!(insn, Insn::DupX1) { 1 } else { 2 };
                let v = f.stack.last()?.clone();
                let at = f.stack.len().checked_sub(under + 1)?;
                f.stack.insert(at, v);
            }
            Insn::Dup2 | Insn::Dup2X1 | Insn::Dup2X2 => {
                let under = match insn {
                    Insn::Dup2 => 0,
                    Insn::Dup2X1 => 1,
                    _ => 2,
                };
                let n = f.stack.len();
                let top: Vec<Types> = f.stack.get(n.checked_sub(2)?..)?.to_vec();
                let at = n.checked_sub(under + 2)?;
                f.stack.splice(at..at, top);
            }
            Insn::Swap => {
                let n = f.stack.len();
                f.stack.swap(n.checked_sub(1)?, n.checked_sub(2)?);
            }
            Insn::Arith(k, op) => {
                use super::ArithOp::*;
                let operands = match op {
                    Neg => k.slots(),
                    Shl | Shr | Ushr => k.slots() + 1,
                    _ => 2 * k.slots(),
                };
                pop(&mut f, operands as usize)?;
                f.stack.extend(kind_words(*k));
            }
            Insn::Convert { from, to } => {
                pop(&mut f, from.slots() as usize)?;
                f.stack.extend(kind_words(*to));
            }
            Insn::LCmp | Insn::DCmpL | Insn::DCmpG => {
                pop(&mut f, 4)?;
                f.stack.push(empty());
            }
            Insn::FCmpL | Insn::FCmpG => {
                pop(&mut f, 2)?;
                f.stack.push(empty());
            }
            Insn::If { .. } | Insn::IfNull { .. } | Insn::IfNonNull { .. } => {
                pop(&mut f, 1)?;
            }
            Insn::IfICmp { .. } | Insn::IfACmp { .. } => {
                pop(&mut f, 2)?;
            }
            Insn::Goto(_) => ends = true,
            Insn::Jsr(_) | Insn::Ret(_) => return None,
            Insn::InvokeDynamic {
                descriptor, site, ..
            } => {
                let d = super::MethodDescriptor::parse(descriptor).ok()?;
                let args = pop(&mut f, usize::from(d.param_slots()))?;
                // a concatenation makes a string; a lambda site an object of its class whose
                // fields hold the captured values; any other bootstrap is not followed
                let concat =
                    (self.h.classpath().bootstraps()).and_then(|bs| site.concat_recipe(bs));
                let result = if concat.is_some() {
                    one(super::jvms::STRING)
                } else if let Some(index) = site.lambda_index {
                    let class = super::indy::lambda_class_name(&m.0, index);
                    let mut at = 0;
                    for (k, p) in d.params.iter().enumerate() {
                        if p.is_reference() {
                            let field = super::lambda::captured_field(k);
                            if let Some(n) = self.field_node(&class, &field) {
                                self.flow(n, args.get(at)?);
                            }
                        }
                        at += usize::from(p.slots());
                    }
                    one(&class)
                } else {
                    return None;
                };
                f.stack.extend(words(d.ret.as_ref()?, result));
            }
            Insn::TableSwitch { .. } | Insn::LookupSwitch { .. } => {
                pop(&mut f, 1)?;
                ends = true;
            }
            Insn::Return(k) => {
                if let Some(k) = k {
                    let v = pop(&mut f, k.slots() as usize)?;
                    if *k == Kind::Ref {
                        self.flow(Node::Ret(m.clone()), &v[0]);
                    }
                }
                ends = true;
            }
            Insn::GetStatic(fr) | Insn::GetField(fr) => {
                if matches!(insn, Insn::GetField(_)) {
                    pop(&mut f, 1)?;
                }
                let v = match self.field_node(&fr.class, &fr.name) {
                    Some(_) if matches!(insn, Insn::GetStatic(_)) && self.seeds.unknown_statics => {
                        None
                    }
                    Some(n) => self.node(&n),
                    None => None,
                };
                f.stack.extend(words(&fr.desc, v));
            }
            Insn::PutStatic(fr) | Insn::PutField(fr) => {
                let v = pop(&mut f, fr.desc.slots() as usize)?;
                if matches!(insn, Insn::PutField(_)) {
                    pop(&mut f, 1)?;
                }
                if fr.desc.is_reference() {
                    if let Some(n) = self.field_node(&fr.class, &fr.name) {
                        self.flow(n, &v[0]);
                    }
                }
            }
            Insn::Invoke { kind, method } => {
                let mut args: Vec<(u16, Types)> = Vec::new();
                let mut slot = method.desc.param_slots() + u16::from(*kind != InvokeKind::Static);
                for p in method.desc.params.iter().rev() {
                    let v = pop(&mut f, p.slots() as usize)?;
                    slot -= p.slots();
                    if p.is_reference() {
                        args.push((slot, v[0].clone()));
                    }
                }
                let recv = if *kind == InvokeKind::Static {
                    empty()
                } else {
                    let r = pop(&mut f, 1)?.remove(0);
                    args.push((0, r.clone()));
                    r
                };
                let (targets, lib) = self.targets(*kind, method, &recv);
                let mut result = if lib { None } else { empty() };
                for t in &targets {
                    for (s, v) in &args {
                        self.flow(Node::Param(t.clone(), *s), v);
                    }
                    join_into(&mut result, &self.node(&Node::Ret(t.clone())));
                }
                if let Some(rt) = &method.desc.ret {
                    f.stack.extend(words(rt, result));
                }
            }
            Insn::New(c) => f.stack.push(one(c)),
            Insn::NewArray(_) => {
                pop(&mut f, 1)?;
                f.stack.push(one("["));
            }
            Insn::ANewArray(c) => {
                pop(&mut f, 1)?;
                let d = if c.starts_with('[') {
                    format!("[{c}")
                } else {
                    format!("[L{c};")
                };
                f.stack.push(one(&d));
            }
            Insn::MultiANewArray { class, dims } => {
                pop(&mut f, *dims as usize)?;
                f.stack.push(one(class));
            }
            Insn::ArrayLength | Insn::InstanceOf(_) => {
                pop(&mut f, 1)?;
                f.stack.push(empty());
            }
            Insn::AThrow => {
                pop(&mut f, 1)?;
                ends = true;
            }
            Insn::CheckCast(t) => {
                let mut v = pop(&mut f, 1)?.remove(0);
                if let Some(s) = v.as_mut() {
                    if !t.starts_with('[') {
                        s.retain(|c| c.starts_with('[') || self.h.is_subtype(c, t).unwrap_or(true));
                    }
                }
                f.stack.push(v);
            }
        }
        Some((f, ends))
    }
}
