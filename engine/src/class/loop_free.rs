//! Code that ends by its shape: a method whose control-flow graph has no backward edge (no
//! branch, switch or exception handler to an instruction at or before the one it leaves),
//! no `jsr`/`ret` and no `invokedynamic`, and whose calls reach only such methods, without
//! recursion, or library methods the caller trusts to end. Each instruction then runs at most
//! once per call and the call tree is finite, so every run ends (normally or by an
//! exception). javac's class initializers of constants and enums have this shape.

use super::cfg::Cfg;
use super::flow::call_targets;
use super::reachable::declared_method;
use super::{Hierarchy, Insn, MethodKey, MethodRef};
use std::collections::BTreeSet;

/// At most this many methods are looked at; a larger call tree is not shown loop-free.
const MAX_METHODS: usize = 200;

/// Whether every run of `root` ends by the shape of its code and its callees' (see the module
/// documentation); `trusted`: the library methods (no code on the class path) taken to end.
pub fn loop_free(h: &Hierarchy, root: &MethodKey, trusted: &dyn Fn(&MethodRef) -> bool) -> bool {
    let mut walk = Walk {
        h,
        trusted,
        classes: h.classpath().class_names(),
        done: BTreeSet::new(),
        on_path: BTreeSet::new(),
    };
    walk.visit(root)
}

struct Walk<'a> {
    h: &'a Hierarchy,
    trusted: &'a dyn Fn(&MethodRef) -> bool,
    /// The receivers' classes a virtual call may select in: every class of the class path.
    classes: Vec<String>,
    /// Methods shown loop-free.
    done: BTreeSet<MethodKey>,
    /// The calls being visited (one reached again is a recursion).
    on_path: BTreeSet<MethodKey>,
}

impl Walk<'_> {
    fn visit(&mut self, m: &MethodKey) -> bool {
        if self.done.contains(m) {
            return true;
        }
        if self.done.len() + self.on_path.len() >= MAX_METHODS || !self.on_path.insert(m.clone()) {
            return false;
        }
        let Some((class, i)) = declared_method(self.h, m) else {
            return false;
        };
        let Some(code) = &class.methods[i].code else {
            return false;
        };
        let cfg = Cfg::of(code);
        for (k, (_, insn)) in code.insns.iter().enumerate() {
            if cfg.successors(k).iter().any(|e| e.to <= k) {
                return false;
            }
            match insn {
                Insn::Jsr(_) | Insn::Ret(_) | Insn::InvokeDynamic { .. } => return false,
                Insn::Invoke { kind, method } => {
                    let (targets, library) = call_targets(self.h, *kind, method, &self.classes);
                    if library && !(self.trusted)(method) {
                        return false;
                    }
                    if !targets.iter().all(|t| self.visit(t)) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        self.on_path.remove(m);
        self.done.insert(m.clone());
        true
    }
}
