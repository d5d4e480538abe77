//! Which objects a method's run may write: a mod-ref summary by allocation (the "fresh"
//! objects of Sălcianu & Rinard's purity analysis, VMCAI '05, without their points-to graph).
//! A value is *fresh* where its run allocated it (`new`, an array creation, a lambda object,
//! what a callee returns fresh), a *parameter* where it is the object a parameter held at
//! entry, and *other* where it was read from the heap, a static field, or a library method.
//! A `putfield` or an array store into a fresh object changes nothing that existed before the
//! run; one into a parameter's object is the caller's to judge (a constructor writes `this`,
//! fresh where `new` made it); anything else, a `putstatic`, a library method that may write,
//! and code the frame interpreter does not follow write *elsewhere*.
//!
//! The summaries are the least fixpoint over every method of the class path with code (the
//! frame interpreter of [`super::frames`] per method, calls composed by the callee's current
//! summary), so recursion is covered by induction on the length of a run. Virtual calls may
//! select the method of every concrete class of the class path and of every lambda class its
//! code makes; one that may run a library method counts that method's writes as elsewhere. A class initializer is no part of a run here: the engine starts statics from their
//! first-access values and runs no `<clinit>`.

use super::frames::{interpret_frames, Frame, Interpreter, Unfollowed};
use super::reachable::{declared_method, MethodKey};
use super::{Cfg, Hierarchy, Insn, InvokeKind, Kind, MethodRef};
use std::collections::{BTreeMap, BTreeSet};

/// Where a value may come from, relative to one run of a method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Origin {
    /// An object the run allocated.
    fresh: bool,
    /// The objects of these parameter slots at entry.
    params: BTreeSet<u16>,
    /// Any other object.
    other: bool,
}

impl Origin {
    fn fresh() -> Origin {
        Origin {
            fresh: true,
            ..Origin::default()
        }
    }

    fn other() -> Origin {
        Origin {
            other: true,
            ..Origin::default()
        }
    }

    fn join(&mut self, v: &Origin) -> bool {
        let before = (self.fresh, self.params.len(), self.other);
        self.fresh |= v.fresh;
        self.params.extend(v.params.iter().copied());
        self.other |= v.other;
        before != (self.fresh, self.params.len(), self.other)
    }
}

/// What the runs of a method may write, its callees' runs included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnWrites {
    /// The parameter slots (`this` is 0) whose objects it may write into.
    pub params: BTreeSet<u16>,
    /// Whether it may write anything else: an object it neither allocated nor was passed, a
    /// static field, what a library method writes, or run code the analysis does not follow.
    pub elsewhere: bool,
    /// The methods with code its calls may run.
    pub callees: BTreeSet<MethodKey>,
    /// Where its result may come from.
    ret: Origin,
    /// Where the references it stores (into fields, elements, statics, or through a library
    /// method that may write, or captured by a lambda object) may come from.
    stored: Origin,
    /// Where the objects it stores a reference into may come from (`other` for a static
    /// field or a library method that may write).
    linked: Origin,
}

impl OwnWrites {
    /// Whether every write of its runs goes into an object the run allocated.
    pub fn only_fresh(&self) -> bool {
        self.params.is_empty() && !self.elsewhere
    }

    /// Whether its result is an object the run allocated that shares nothing with what
    /// existed before the run: the result is fresh, and every reference the run stores is a
    /// fresh one stored into a fresh object. Then everything the result reaches is fresh (a
    /// fresh object's fields hold what the run stored, or null), and nothing older reaches it.
    pub fn returns_isolated(&self) -> bool {
        let fresh_only = |o: &Origin| !o.other && o.params.is_empty();
        self.ret.fresh
            && fresh_only(&self.ret)
            && fresh_only(&self.stored)
            && fresh_only(&self.linked)
    }
}

/// The summaries of every method with code in the class path of `h`; `may_write(m)` says
/// whether a call of a library method `m` may write an object that existed before it.
pub fn own_writes(
    h: &Hierarchy,
    may_write: &dyn Fn(&MethodRef) -> bool,
) -> BTreeMap<MethodKey, OwnWrites> {
    let methods = methods_with_code(h);
    // the exact classes of receivers: no interface or abstract class is one
    let mut classes: BTreeSet<String> = h
        .classpath()
        .class_names()
        .into_iter()
        .filter(|c| {
            h.classpath()
                .load(c)
                .is_ok_and(|k| !k.is_interface && !k.is_abstract)
        })
        .collect();
    classes.extend(lambda_classes(h, &methods));
    let mut a = Analysis {
        h,
        may_write,
        classes,
        out: methods
            .iter()
            .map(|m| (m.clone(), OwnWrites::default()))
            .collect(),
        cfgs: BTreeMap::new(),
    };
    loop {
        let mut changed = false;
        for m in &methods {
            let w = a.scan(m);
            if a.out.get(m) != Some(&w) {
                a.out.insert(m.clone(), w);
                changed = true;
            }
        }
        if !changed {
            return a.out;
        }
    }
}

fn methods_with_code(h: &Hierarchy) -> Vec<MethodKey> {
    let mut out = Vec::new();
    for name in h.classpath().class_names() {
        let Ok(class) = h.classpath().load(&name) else {
            continue;
        };
        for m in class.methods.iter().filter(|m| m.code.is_some()) {
            out.push((name.clone(), m.name.clone(), m.desc_str.clone()));
        }
    }
    out
}

/// The classes the engine makes for the lambda sites of `methods` (loaded on demand, so
/// absent from the class path's names).
fn lambda_classes(h: &Hierarchy, methods: &[MethodKey]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for m in methods {
        let Some((class, i)) = declared_method(h, m) else {
            continue;
        };
        for (_, insn) in class.methods[i].code.iter().flat_map(|c| c.insns.iter()) {
            if let Insn::InvokeDynamic { site, .. } = insn {
                if let Some(index) = site.lambda_index {
                    out.insert(super::indy::lambda_class_name(&m.0, index));
                }
            }
        }
    }
    out
}

struct Analysis<'a> {
    h: &'a Hierarchy,
    may_write: &'a dyn Fn(&MethodRef) -> bool,
    /// The classes a virtual call may dispatch on.
    classes: BTreeSet<String>,
    out: BTreeMap<MethodKey, OwnWrites>,
    cfgs: BTreeMap<MethodKey, Cfg>,
}

impl Analysis<'_> {
    /// One interpretation of `m` under the current summaries of its callees.
    fn scan(&mut self, m: &MethodKey) -> OwnWrites {
        let Some((class, i)) = declared_method(self.h, m) else {
            return OwnWrites::default();
        };
        let method = &class.methods[i];
        let Some(code) = &method.code else {
            return OwnWrites::default();
        };
        let mut locals = vec![Origin::default(); usize::from(code.max_locals)];
        let mut slot = 0u16;
        let param = |slot: u16, locals: &mut Vec<Origin>| {
            if let Some(l) = locals.get_mut(usize::from(slot)) {
                l.params.insert(slot);
            }
        };
        if !method.is_static {
            param(0, &mut locals);
            slot = 1;
        }
        for p in &method.desc.params {
            if p.is_reference() {
                param(slot, &mut locals);
            }
            slot += p.slots();
        }
        let cfg = self.cfgs.remove(m).unwrap_or_else(|| Cfg::of(code));
        let mut scan = MethodScan {
            a: self,
            w: OwnWrites::default(),
        };
        let entry = Frame {
            locals,
            stack: Vec::new(),
        };
        let followed = interpret_frames(code, &cfg, entry, &mut scan).is_ok();
        let mut w = scan.w;
        if !followed {
            w.elsewhere = true;
            w.ret = Origin::other();
        }
        self.cfgs.insert(m.clone(), cfg);
        w
    }

    /// The methods with code a call may run, and whether it may run a library method (or one
    /// the class path does not resolve): the receiver may also be of a library class (a
    /// subtype the class path does not show, an array) whenever the named class is one.
    fn targets(&self, kind: InvokeKind, m: &MethodRef) -> (Vec<MethodKey>, bool) {
        let (targets, lib) = super::flow::call_targets(self.h, kind, m, &self.classes);
        let virtual_call = matches!(kind, InvokeKind::Virtual | InvokeKind::Interface);
        (targets, lib || virtual_call && self.h.is_library(&m.class))
    }
}

/// The interpretation of one method: its frame values are [`Origin`]s, its writes go to `w`.
struct MethodScan<'s, 'a> {
    a: &'s Analysis<'a>,
    w: OwnWrites,
}

impl MethodScan<'_, '_> {
    /// A write into an object of origin `target`.
    fn write(&mut self, target: &Origin) {
        self.w.params.extend(target.params.iter().copied());
        self.w.elsewhere |= target.other;
    }

    /// A reference of origin `value` stored into an object of origin `target` (nothing for a
    /// primitive or null, whose origin is empty).
    fn store(&mut self, target: &Origin, value: &Origin) {
        if *value != Origin::default() {
            self.w.stored.join(value);
            self.w.linked.join(target);
        }
    }

    fn invoke(&mut self, kind: InvokeKind, m: &MethodRef, popped: &[Origin]) -> Origin {
        let (targets, lib) = self.a.targets(kind, m);
        let mut result = Origin::default();
        if lib {
            let may_write = (self.a.may_write)(m);
            self.w.elsewhere |= may_write;
            if may_write {
                // it may store any of its arguments anywhere, fresh objects included
                for p in popped {
                    self.store(&Origin::other(), p);
                }
                self.w.linked.join(&Origin::other());
            }
            result = Origin::other();
        }
        for t in targets {
            let Some(s) = self.a.out.get(&t) else {
                self.w.elsewhere = true;
                result = Origin::other();
                continue;
            };
            // the popped words are the callee's local slots: receiver, then parameters
            let arg = |slot: &u16| {
                popped
                    .get(usize::from(*slot))
                    .cloned()
                    .unwrap_or_else(Origin::other)
            };
            for slot in &s.params {
                let o = arg(slot);
                self.write(&o);
            }
            // the callee's stores, its parameters read as this call's arguments
            let compose = |o: &Origin| {
                let mut out = Origin {
                    fresh: o.fresh,
                    params: BTreeSet::new(),
                    other: o.other,
                };
                for slot in &o.params {
                    out.join(&arg(slot));
                }
                out
            };
            let (stored, linked) = (compose(&s.stored), compose(&s.linked));
            self.w.stored.join(&stored);
            self.w.linked.join(&linked);
            self.w.elsewhere |= s.elsewhere;
            result.fresh |= s.ret.fresh;
            result.other |= s.ret.other;
            for slot in &s.ret.params {
                result.join(&arg(slot));
            }
            self.w.callees.insert(t);
        }
        result
    }
}

impl Interpreter for MethodScan<'_, '_> {
    type Value = Origin;

    fn join(&mut self, into: &mut Origin, v: &Origin) -> bool {
        into.join(v)
    }

    fn copy(&mut self, insn: &Insn, word: Origin) -> Origin {
        match insn {
            // a primitive is no object (whatever a reused slot held before)
            Insn::Load(k, _) if *k != Kind::Ref => Origin::default(),
            _ => word,
        }
    }

    fn operation(
        &mut self,
        insn: &Insn,
        popped: Vec<Origin>,
    ) -> Result<Option<Origin>, Unfollowed> {
        let pushed = match insn {
            Insn::New(_) | Insn::NewArray(_) | Insn::ANewArray(_) | Insn::MultiANewArray { .. } => {
                Origin::fresh()
            }
            Insn::PutField(_) => {
                self.write(&popped[0]);
                self.store(&popped[0], &popped[1]);
                return Ok(None);
            }
            Insn::ArrayStore(_) => {
                self.write(&popped[0]);
                self.store(&popped[0], &popped[2]);
                return Ok(None);
            }
            Insn::PutStatic(_) => {
                self.w.elsewhere = true;
                self.store(&Origin::other(), &popped[0]);
                return Ok(None);
            }
            Insn::Return(k) => {
                if *k == Some(Kind::Ref) {
                    self.w.ret.join(&popped[0]);
                }
                return Ok(None);
            }
            Insn::CheckCast(_) => popped.into_iter().next().ok_or(Unfollowed)?,
            Insn::Invoke { kind, method } => {
                let r = self.invoke(*kind, method, &popped);
                return Ok(method.desc.ret.as_ref().map(|t| match t.is_reference() {
                    true => r,
                    false => Origin::default(),
                }));
            }
            Insn::InvokeDynamic { site, .. } => {
                // a lambda site makes an object of its class holding the captured values; a
                // string concatenation makes a string; any other bootstrap is not followed
                let concat =
                    (self.a.h.classpath().bootstraps()).and_then(|bs| site.concat_recipe(bs));
                if site.lambda_index.is_some() {
                    // the new lambda object holds the captured values
                    for p in &popped {
                        self.store(&Origin::fresh(), p);
                    }
                    Origin::fresh()
                } else if concat.is_some() {
                    Origin::other()
                } else {
                    return Err(Unfollowed);
                }
            }
            Insn::GetField(f) | Insn::GetStatic(f) => match f.desc.is_reference() {
                true => Origin::other(),
                false => Origin::default(),
            },
            Insn::ArrayLoad(super::ArrayKind::Ref) => Origin::other(),
            Insn::Ldc(
                super::Constant::String(_) | super::Constant::Class(_) | super::Constant::Other(_),
            ) => Origin::other(),
            // what pushes no object, or nothing, or is a move the frame interpreter makes
            _ => Origin::default(),
        };
        Ok(Some(pushed))
    }

    /// A caught exception may be any object.
    fn caught(&mut self, _catch_type: Option<&str>) -> Origin {
        Origin::other()
    }
}
