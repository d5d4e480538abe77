//! References the check never binds: those only unread static fields reach.
//!
//! The check compares a static field of a state only from the run's first traced
//! `getstatic`/`putstatic` of it on (`check/src/instance.rs`); before that, the field and
//! everything only it reaches are not walked, their intervals and predicates not read, and
//! labels naming them are left out (counted). A static that no code a run can execute
//! accesses is therefore never compared at any node. The code a run can execute is
//! over-approximated: the methods of every frame of every node, and transitively every method
//! of the class path an `invoke` of such code may reach (any class's method of the invoked
//! name and descriptor: dispatch ignored), and the class initialisers of every class such code
//! names. A static one of these accesses is *read*; the others are *unread*. So is every static
//! a run's input sets, which the run knows from step 0 (`jvm/src/decode/statics.rs`) whether
//! or not code accesses it: those the start state lists (the generator draws them like
//! arguments) and the entry class's own `$assertionsDisabled` (javac's assertion status
//! field, which the generator sets in some inputs: `check/src/gen`, *Assertions*; another
//! class's is known only from an access, like any static).
//!
//! At a node, the *unbound* references are those reachable (through fields, array lengths and
//! elements) from an unread static and not from the frames (locals, stack, pending
//! exceptions), the end (a returned or thrown value) or a read static. A mutant that changes
//! only facts about unbound references (an interval, a predicate with one of them) changes
//! nothing the check reads: it accepts exactly the traces the original does.

use crate::construction::uninitialized;
use jtg_engine::class::{Code, FieldType, Insn};
use jtg_engine::graph::NodeId;
use jtg_engine::state::{End, Ref, State, StaticField};
use jtg_engine::{Graph, Program};
use jtg_jvm::ASSERTIONS_DISABLED;
use std::collections::BTreeSet;

/// The references each node's check never binds.
pub(crate) struct Compared {
    unbound: Vec<BTreeSet<Ref>>,
    /// Those of `unbound` and those only the fields of an object under construction reach.
    unwalked: Vec<BTreeSet<Ref>>,
}

/// Why the check never binds a reference at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unbound {
    /// Only unread statics reach it.
    UnreadStatic,
    /// Only unread statics and the fields of an object under construction reach it (module
    /// `construction`).
    UnderConstruction,
}

impl Compared {
    pub(crate) fn of(g: &Graph, prog: &Program) -> Compared {
        let read = read_statics(g, prog);
        let none = BTreeSet::new();
        let statics_only = g
            .nodes
            .iter()
            .map(|n| unbound(&n.state, &read, None))
            .collect();
        let unwalked = g
            .nodes
            .iter()
            .map(|n| match uninitialized(&n.state, prog) {
                Some(o) => unbound(&n.state, &read, Some(o)),
                None => none.clone(),
            })
            .collect();
        Compared {
            unbound: statics_only,
            unwalked,
        }
    }

    /// Why the check never binds `r` at node `n` (`None`: it may bind it).
    pub(crate) fn unbound(&self, n: NodeId, r: Ref) -> Option<Unbound> {
        if self.unbound[n].contains(&r) {
            Some(Unbound::UnreadStatic)
        } else if self.unwalked[n].contains(&r) {
            Some(Unbound::UnderConstruction)
        } else {
            None
        }
    }
}

/// The references of `s` that only unread statics reach: reachable from a static not in
/// `read`, and not from the frames, the end (a returned or thrown value) or a read static;
/// with `uninit`, also those reachable from its fields and not from the frames, the end or a
/// read static without passing through `uninit`'s object, which the check does not walk.
fn unbound(s: &State, read: &BTreeSet<StaticField>, uninit: Option<Ref>) -> BTreeSet<Ref> {
    let (unread, other): (Vec<_>, Vec<_>) = s.statics.iter().partition(|(k, _)| !read.contains(*k));
    let ends = match &s.end {
        Some(End::Return(r)) => *r,
        Some(End::Throw(r)) => Some(*r),
        None => None,
    };
    let roots: Vec<Ref> = s
        .frames
        .iter()
        .flat_map(|f| f.refs())
        .chain(ends)
        .chain(other.into_iter().map(|(_, r)| *r))
        .collect();
    let bound = reachable(s, roots, uninit);
    let mut hidden: Vec<Ref> = unread.into_iter().map(|(_, r)| *r).collect();
    if let Some(v) = uninit.and_then(|o| s.value(o)) {
        hidden.extend(v.children());
    }
    let mut only = reachable(s, hidden, None);
    only.retain(|r| !bound.contains(r));
    only
}

/// Every non-null reference reachable from `roots` in `s`, not walking into `stop`'s object.
fn reachable(s: &State, mut todo: Vec<Ref>, stop: Option<Ref>) -> BTreeSet<Ref> {
    let mut seen = BTreeSet::new();
    while let Some(r) = todo.pop() {
        if r.is_null() || !seen.insert(r) {
            continue;
        }
        if Some(r) == stop {
            continue;
        }
        if let Some(v) = s.value(r) {
            todo.extend(v.children());
        }
    }
    seen
}

/// The statics some code a run can execute accesses, and those a run's input sets (module
/// docs).
fn read_statics(g: &Graph, prog: &Program) -> BTreeSet<StaticField> {
    let cp = prog.hierarchy.classpath();
    let classes: Vec<_> = cp
        .class_names()
        .iter()
        .filter_map(|c| cp.load(c).ok())
        .collect();
    // (class, name, descriptor) of every method a run may execute, from the graph's frames
    let mut todo: Vec<(String, String, String)> = g
        .nodes
        .iter()
        .flat_map(|n| n.state.frames.iter())
        .map(|f| {
            (
                f.method.class.to_string(),
                f.method.name.to_string(),
                f.method.desc.to_string(),
            )
        })
        .collect();
    let mut seen = BTreeSet::new();
    // the input sets these: known from step 0, compared wherever a state lists them
    let start = &g.nodes[g.start].state;
    let mut read: BTreeSet<StaticField> = start.statics.keys().cloned().collect();
    // the generator sets the entry class's own assertion status field (declared there,
    // `boolean`), no other class's
    let entry = g.method.class.to_string();
    read.extend(
        prog.hierarchy
            .static_fields(&entry)
            .unwrap_or_default()
            .into_iter()
            .filter(|(_, name, t)| name == ASSERTIONS_DISABLED && *t == FieldType::Boolean)
            .map(|(decl, name, _)| (decl, name)),
    );
    let code_of = |class: &str, name: &str, desc: &str| -> Option<Code> {
        let c = cp.load(class).ok()?;
        let m = c
            .methods
            .iter()
            .find(|m| m.name == name && m.desc_str == desc)?;
        m.code.clone()
    };
    while let Some(key) = todo.pop() {
        if !seen.insert(key.clone()) {
            continue;
        }
        let Some(code) = code_of(&key.0, &key.1, &key.2) else {
            continue;
        };
        for (_, insn) in &code.insns {
            let named = match insn {
                Insn::GetStatic(f) | Insn::PutStatic(f) => {
                    read.insert(prog.static_key(f));
                    Some(f.class.as_str())
                }
                Insn::New(c) => Some(c.as_str()),
                Insn::Invoke { method, .. } => {
                    // any class's method of this name and descriptor: dispatch ignored
                    for c in &classes {
                        if c.methods
                            .iter()
                            .any(|m| m.name == method.name && m.desc_str == method.desc_str)
                        {
                            todo.push((
                                c.name.clone(),
                                method.name.clone(),
                                method.desc_str.clone(),
                            ));
                        }
                    }
                    Some(method.class.as_str())
                }
                _ => None,
            };
            if let Some(c) = named {
                // its class initialiser and its superclasses' may run
                let mut next = Some(c.to_string());
                while let Some(c) = next {
                    next = cp.load(&c).ok().and_then(|k| k.super_name.clone());
                    todo.push((c, "<clinit>".into(), "()V".into()));
                }
            }
        }
    }
    read
}
