//! Field type sets: which classes of objects a run can store into each field, by a variable
//! type analysis (Sundaresan et al., OOPSLA '00; the per-field sets of Tip & Palsberg's XTA,
//! with one set per local, stack slot, parameter and return value instead of one per method).
//!
//! Why per variable: in XTA's one set per method, a `LinkedList` method's receiver and its
//! `Object` argument share a set, so `Entry.element` would seem to hold lists; here the
//! argument's set is what the callers pass in that position.
//!
//! The analysis is a fixpoint over the methods a rapid type analysis reached
//! ([`super::rapid_type_analysis`]): each method is interpreted over its bytecode by the frame
//! interpreter ([`super::frames`]: sets per stack word and local, joined at branch targets and
//! exception handlers) under the current sets of fields, parameters, return values and the one
//! set of all reference array elements; what it stores, passes or returns is added to those,
//! until nothing grows. A set may be `None`, "any class": what library code returns, what a
//! handler catches, what the caller declared unknown (inputs). `jsr`, or an `invokedynamic`
//! other than a string concatenation or a lambda site (whose class `lambda.rs` makes, code
//! included), anywhere give up ([`FieldTypes::complete`] false): code the class files do not
//! show may store anything.

use super::frames::{interpret_frames, Frame, Interpreter, Unfollowed};
use super::{ArrayKind, Cfg, Hierarchy, Insn, InvokeKind, Kind, MethodKey, MethodRef};
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

struct Vta<'a> {
    h: &'a Hierarchy,
    world: &'a BTreeSet<String>,
    seeds: &'a FlowSeeds,
    nodes: BTreeMap<Node, Types>,
    changed: bool,
    complete: bool,
    /// Each scanned method's control-flow graph, made once.
    cfgs: BTreeMap<MethodKey, Cfg>,
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
        cfgs: BTreeMap::new(),
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

/// The methods with code that a call of `m` runs when its receiver's exact class is one of
/// `classes` (static and special calls: the resolved method), and whether it may run a method
/// without code in the class path (a library method, an array's `Object` method, one the
/// class path does not resolve).
pub(super) fn call_targets<'c>(
    h: &Hierarchy,
    kind: InvokeKind,
    m: &MethodRef,
    classes: impl IntoIterator<Item = &'c String>,
) -> (Vec<MethodKey>, bool) {
    let key_of = |r: super::ResolvedMethod| {
        let mm = r.method();
        (mm.code.is_some() && !h.is_library(&mm.class))
            .then(|| (mm.class.clone(), mm.name.clone(), mm.desc_str.clone()))
    };
    match kind {
        InvokeKind::Static | InvokeKind::Special => {
            match h.resolve_method(&m.class, &m.name, &m.desc_str) {
                Ok(Some(r)) => match key_of(r) {
                    Some(k) => (vec![k], false),
                    None => (Vec::new(), true),
                },
                _ => (Vec::new(), true),
            }
        }
        InvokeKind::Virtual | InvokeKind::Interface => {
            let mut out = BTreeSet::new();
            let mut lib = false;
            for c in classes {
                if c.starts_with('[') {
                    lib = true;
                    continue;
                }
                if !h.is_subtype(c, &m.class).unwrap_or(true) {
                    continue;
                }
                match h.dispatch_virtual(c, &m.name, &m.desc_str) {
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

/// What a value of field type `t` holding `v` is to the analysis (primitives: no class).
fn value_of(t: &FieldType, v: Types) -> Types {
    if t.is_reference() {
        v
    } else {
        empty()
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
        let classes: Vec<&String> = match recv {
            None => self.world.iter().collect(),
            Some(s) => s.iter().collect(),
        };
        call_targets(self.h, kind, m, classes)
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
        let cfg = self.cfgs.remove(m).unwrap_or_else(|| Cfg::of(code));
        let entry = Frame {
            locals,
            stack: Vec::new(),
        };
        let mut scan = MethodScan { vta: self, m };
        if interpret_frames(code, &cfg, entry, &mut scan).is_err() {
            self.complete = false;
        }
        self.cfgs.insert(m.clone(), cfg);
    }

    /// The value `insn` of method `m` pushes, from the words it pops (see
    /// [`Interpreter::operation`]); adds what it stores, passes and returns. `Unfollowed` for
    /// what the analysis does not follow (`jsr`, `invokedynamic` other than a concatenation or
    /// a lambda site).
    fn operation(
        &mut self,
        m: &MethodKey,
        insn: &Insn,
        popped: Vec<Types>,
    ) -> Result<Option<Types>, Unfollowed> {
        let pushed = match insn {
            Insn::AConstNull
            | Insn::IConst(_)
            | Insn::FConst(_)
            | Insn::LConst(_)
            | Insn::DConst(_)
            | Insn::Arith(..)
            | Insn::Convert { .. }
            | Insn::I2B
            | Insn::I2C
            | Insn::I2S
            | Insn::LCmp
            | Insn::DCmpL
            | Insn::DCmpG
            | Insn::FCmpL
            | Insn::FCmpG
            | Insn::ArrayLength
            | Insn::InstanceOf(_) => empty(),
            Insn::Ldc(c) => match c {
                super::Constant::String(_) => one(super::jvms::STRING),
                super::Constant::Class(_) => one(super::jvms::CLASS),
                super::Constant::Other(_) => None,
                _ => empty(),
            },
            // an `iinc`'s local stays what it was (an int: no classes)
            Insn::IInc { .. } => return Ok(popped.into_iter().next()),
            Insn::ArrayLoad(k) if *k == ArrayKind::Ref => self.node(&Node::ArrayElems),
            Insn::ArrayLoad(_) => empty(),
            Insn::ArrayStore(k) => {
                if *k == ArrayKind::Ref {
                    self.flow(Node::ArrayElems, &popped[2]);
                }
                return Ok(None);
            }
            Insn::InvokeDynamic {
                descriptor, site, ..
            } => {
                let d = super::MethodDescriptor::parse(descriptor).map_err(|_| Unfollowed)?;
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
                                self.flow(n, &popped[at]);
                            }
                        }
                        at += usize::from(p.slots());
                    }
                    one(&class)
                } else {
                    return Err(Unfollowed);
                };
                value_of(d.ret.as_ref().ok_or(Unfollowed)?, result)
            }
            Insn::Return(k) => {
                if *k == Some(Kind::Ref) {
                    self.flow(Node::Ret(m.clone()), &popped[0]);
                }
                return Ok(None);
            }
            Insn::GetStatic(fr) | Insn::GetField(fr) => {
                let v = match self.field_node(&fr.class, &fr.name) {
                    Some(_) if matches!(insn, Insn::GetStatic(_)) && self.seeds.unknown_statics => {
                        None
                    }
                    Some(n) => self.node(&n),
                    None => None,
                };
                value_of(&fr.desc, v)
            }
            Insn::PutStatic(fr) | Insn::PutField(fr) => {
                if fr.desc.is_reference() {
                    if let Some(n) = self.field_node(&fr.class, &fr.name) {
                        // a putfield pops its object below the value
                        let at = usize::from(matches!(insn, Insn::PutField(_)));
                        self.flow(n, &popped[at]);
                    }
                }
                return Ok(None);
            }
            Insn::Invoke { kind, method } => {
                // the popped words are the callee's local slots: receiver, then parameters
                let mut args: Vec<(u16, Types)> = Vec::new();
                let mut slot = u16::from(*kind != InvokeKind::Static);
                for p in &method.desc.params {
                    if p.is_reference() {
                        args.push((slot, popped[usize::from(slot)].clone()));
                    }
                    slot += p.slots();
                }
                let recv = if *kind == InvokeKind::Static {
                    empty()
                } else {
                    args.push((0, popped[0].clone()));
                    popped[0].clone()
                };
                let (targets, lib) = self.targets(*kind, method, &recv);
                let mut result = if lib { None } else { empty() };
                for t in &targets {
                    for (s, v) in &args {
                        self.flow(Node::Param(t.clone(), *s), v);
                    }
                    join_into(&mut result, &self.node(&Node::Ret(t.clone())));
                }
                return Ok(method.desc.ret.as_ref().map(|rt| value_of(rt, result)));
            }
            Insn::New(c) => one(c),
            Insn::NewArray(_) => one("["),
            Insn::ANewArray(c) => {
                if c.starts_with('[') {
                    one(&format!("[{c}"))
                } else {
                    one(&format!("[L{c};"))
                }
            }
            Insn::MultiANewArray { class, .. } => one(class),
            Insn::CheckCast(t) => {
                let mut v = popped.into_iter().next().ok_or(Unfollowed)?;
                if let Some(s) = v.as_mut() {
                    if !t.starts_with('[') {
                        s.retain(|c| c.starts_with('[') || self.h.is_subtype(c, t).unwrap_or(true));
                    }
                }
                v
            }
            // the rest push nothing (or are moves the frame interpreter makes itself)
            _ => return Ok(None),
        };
        Ok(Some(pushed))
    }
}

/// The analysis of one method as a frame interpreter over class sets.
struct MethodScan<'v, 'a> {
    vta: &'v mut Vta<'a>,
    m: &'v MethodKey,
}

impl Interpreter for MethodScan<'_, '_> {
    type Value = Types;

    fn join(&mut self, into: &mut Types, v: &Types) -> bool {
        join_into(into, v)
    }

    fn copy(&mut self, insn: &Insn, word: Types) -> Types {
        match insn {
            // a primitive holds no class (whatever a reused slot held before)
            Insn::Load(k, _) if *k != Kind::Ref => empty(),
            _ => word,
        }
    }

    fn operation(&mut self, insn: &Insn, popped: Vec<Types>) -> Result<Option<Types>, Unfollowed> {
        self.vta.operation(self.m, insn, popped)
    }

    /// Any class: library code may throw anything a handler catches.
    fn caught(&mut self, _catch_type: Option<&str>) -> Types {
        None
    }
}
