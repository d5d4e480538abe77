//! Virtual dispatch on a receiver whose class is not known exactly: which method runs, and
//! the least case analysis that decides it.
//!
//! The classes an object can have are those of the class path and the modelled JDK classes
//! (a closed world: a JDK class the engine does not model cannot be instantiated by analysed
//! code without an "unsupported" error). When every class below the receiver's static type
//! runs the same method, the call needs only that the receiver exists; otherwise the receiver
//! is realized (instance refinement), or, for `java.lang.Object(…)`, whose subtypes are every
//! class, partitioned by the classes below `Object` under which the method is overridden
//! ([`refine::instance::refine_dispatch`]).

use super::{Exec, Flow};
use crate::class::MethodRef;
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::models::{self, LibraryCall};
use crate::program::Program;
use crate::refine;
use crate::state::{HeapValue, MethodId, Ref};
use std::collections::{BTreeMap, BTreeSet};

/// What a virtual call runs on an object of one exact class.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Target {
    /// A library method with a model.
    Model(LibraryCall),
    /// Analysed code.
    Method(MethodId),
    /// Neither: the call is unsupported for that class.
    Missing,
}

/// The method a virtual call of `m` runs on an object of exact class `class`.
pub(super) fn target(prog: &Program, class: &str, m: &MethodRef) -> Result<Target, EngineError> {
    if let Some(model) = models::library_call(class, &m.name, &m.desc_str) {
        return Ok(Target::Model(model));
    }
    if let Some(res) = prog
        .hierarchy
        .dispatch_virtual(class, &m.name, &m.desc_str)?
    {
        let callee = res.method();
        return Ok(Target::Method(MethodId::new(
            &callee.class,
            &callee.name,
            &callee.desc_str,
        )));
    }
    if let Some(model) = inherited_model(prog, class, m)? {
        return Ok(Target::Model(model));
    }
    Ok(Target::Missing)
}

/// The model a virtual call of `m` on an object of exact class `class` reaches when no
/// class-path class declares the method: `java.lang.Enum`'s (`models/enums.rs`) for an enum
/// class, else `java.lang.Object`'s where the call reaches it ([`reaches_object_methods`]).
pub(super) fn inherited_model(
    prog: &Program,
    class: &str,
    m: &MethodRef,
) -> Result<Option<LibraryCall>, EngineError> {
    if models::enums::enum_class(&prog.hierarchy, class).is_some() {
        if let Some(model) = models::library_call(models::ENUM, &m.name, &m.desc_str) {
            return Ok(Some(model));
        }
    }
    if reaches_object_methods(prog, class, &m.name)? {
        return Ok(models::library_call(models::OBJECT, &m.name, &m.desc_str));
    }
    Ok(None)
}

/// Whether a virtual call on `class` that no class-path class declares reaches
/// `java.lang.Object`'s method: the first JDK class up the superclass chain is a modelled
/// class that does not override `Object`'s methods.
pub(super) fn reaches_object_methods(
    prog: &Program,
    class: &str,
    name: &str,
) -> Result<bool, EngineError> {
    let h = &prog.hierarchy;
    let mut c = class.to_string();
    loop {
        if models::is_modelled_class(&c) {
            return Ok(models::keeps_object_method(&c, name));
        }
        match h.super_of(&c)? {
            Some(s) => c = s,
            None => return Ok(false),
        }
    }
}

/// How a virtual call on a receiver of inexact class proceeds.
pub(super) enum Receiver {
    /// Dispatch as on an object of this class.
    Class(String),
    /// Dispatch as on an object of this class, which the receiver is known to be below now
    /// (the class declaring the one method that all its possible classes run): the receiver
    /// becomes a `T(…)` of it, so that the method's uses of `this` can realize it.
    Narrowed(String),
    /// A case analysis first.
    Refine(Flow),
}

/// The class to dispatch a virtual call of `m` on `r` (not realized, not null) as, or the
/// refinement that decides it.
pub(super) fn receiver(ex: &Exec<'_>, r: Ref, m: &MethodRef) -> Result<Receiver, EngineError> {
    let (ty, exists) = match ex.st.value(r) {
        Some(HeapValue::Unknown { ty }) => (ty.clone(), false),
        Some(HeapValue::Abstract { ty }) => (ty.clone(), true),
        // a realized array: its methods are `Object`'s (and `clone`), named by the reference
        _ => return Ok(Receiver::Class(m.class.clone())),
    };
    let prog = ex.cx.prog;
    if ty.starts_with('[') {
        return realize(ex, r, m);
    }
    // the classes an object of the run can have (none: the unfiltered list, so that the
    // error for an uninstantiable type stays the instance refinement's)
    // (a class outside the world is not even asked about: it cannot make the call unsupported)
    let world = &ex.cx.world;
    let mut classes = prog
        .hierarchy
        .non_abstract_subtypes_in(&ty, &|c| world.contains(c))?;
    if classes.is_empty() {
        classes = prog.hierarchy.non_abstract_subtypes(&ty)?;
    }
    // ... and of the method's class: the verifier guarantees it for `invokevirtual`, and an
    // `invokeinterface` on an object of another class (which javac's casts rule out) would
    // throw IncompatibleClassChangeError instead. A merge may have widened the value's type
    // (an iterator kept in a local becomes a `java.lang.Object(…)`).
    let h = &prog.hierarchy;
    let fits: Vec<bool> = classes
        .iter()
        .map(|c| h.is_subtype(c, &m.class))
        .collect::<Result<_, _>>()?;
    if fits.iter().any(|f| *f) {
        let mut keep = fits.into_iter();
        classes.retain(|_| keep.next().unwrap_or(false));
    }
    let mut groups: BTreeMap<Target, Vec<&String>> = BTreeMap::new();
    for c in &classes {
        groups.entry(target(prog, c, m)?).or_default().push(c);
    }
    if groups.len() == 1 {
        if !exists {
            let succs = refine::instance::refine_existence(&ex.before, r);
            return Ok(Receiver::Refine(Flow::Refine(EdgeKind::Refine, succs)));
        }
        if let Some((Target::Method(id), _)) = groups.first_key_value() {
            if id.class.as_ref() != ty && prog.hierarchy.is_subtype(&id.class, &ty)? {
                return Ok(Receiver::Narrowed(id.class.to_string()));
            }
        }
        return Ok(Receiver::Class(classes[0].clone()));
    }
    if ty != models::OBJECT || !exists {
        // a class hierarchy to enumerate (or, for `Object(?)`, its existence first)
        return realize(ex, r, m);
    }
    let default = target(prog, models::OBJECT, m)?;
    let with_default = groups.contains_key(&default);
    if with_default && ex.before.decided() == Some(false) {
        // the dispatch partition's case "none of the overriding classes"
        return Ok(Receiver::Class(models::OBJECT.into()));
    }
    let mut tops = BTreeSet::new();
    for (t, cs) in &groups {
        if *t != default {
            for c in cs {
                tops.insert(top_below_object(prog, c)?);
            }
        }
    }
    let tops: Vec<String> = tops.into_iter().collect();
    let succs = refine::instance::refine_dispatch(&ex.before, r, &tops, with_default);
    Ok(Receiver::Refine(Flow::Refine(EdgeKind::Refine, succs)))
}

fn realize(ex: &Exec<'_>, r: Ref, m: &MethodRef) -> Result<Receiver, EngineError> {
    Ok(match ex.need_realized(r)? {
        Some(flow) => Receiver::Refine(flow),
        None => Receiver::Class(m.class.clone()),
    })
}

/// The class of `class`'s superclass chain directly below `java.lang.Object` (`class` itself
/// when its superclass is `Object`).
fn top_below_object(prog: &Program, class: &str) -> Result<String, EngineError> {
    let mut c = class.to_string();
    loop {
        match prog.hierarchy.super_of(&c)? {
            Some(s) if s != models::OBJECT => c = s,
            _ => return Ok(c),
        }
    }
}
