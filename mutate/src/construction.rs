//! Objects under construction: per node, the references of objects the check accepts without
//! walking them, since the run holds them uninitialized.
//!
//! The recorder marks a value *uninitialized* after `new` until `super()` (or `this(…)`) has
//! returned in a constructor frame of the object; the check accepts such a value wherever the
//! state has a possibly non-null object and never walks its fields (`check/src/instance.rs`,
//! *Deliberate gaps*). This module finds the clearest such case: the top frame runs a
//! constructor (`<init>`) and its pc is at or before the first `invokespecial <init>` of the
//! method's code. The call of the superclass constructor is that one or a later one (an
//! argument of `super(…)` may construct another object first), and a pc before it is never
//! reached again after it (the verifier rejects a merge of an uninitialized and an initialized
//! `this`), so the frame's `this` is still uninitialized there: the state's local 0, or, at the
//! first `invokespecial` of a constructor without parameters, the receiver on top of the
//! stack. (With frames above the constructor the matcher may already present the object, so
//! only the top frame counts; a constructor whose code stores to local 0 is left alone.)

use jtg_engine::class::{Insn, InvokeKind};
use jtg_engine::state::{Ref, State};
use jtg_engine::Program;

/// The object reference the top frame's constructor has not initialized yet, if the node
/// shows one (module docs).
pub(crate) fn uninitialized(s: &State, prog: &Program) -> Option<Ref> {
    let top = s.frames.last()?;
    if &*top.method.name != "<init>" || s.end.is_some() || top.exception.is_some() {
        return None;
    }
    let m = prog.method(&top.method).ok()?;
    let code = m.code.as_ref()?;
    let (init_pc, init) = code.insns.iter().find_map(|(pc, insn)| match insn {
        Insn::Invoke {
            kind: InvokeKind::Special,
            method,
        } if method.name == "<init>" => Some((*pc, method)),
        _ => None,
    })?;
    // javac never stores to local 0 in a constructor; other code that does is left alone
    let stores_this = code
        .insns
        .iter()
        .any(|(_, insn)| matches!(insn, Insn::Store(_, 0)));
    if stores_this {
        return None;
    }
    let this = if top.pc < init_pc {
        top.locals.first().copied().flatten()
    } else if top.pc == init_pc && init.desc.params.is_empty() {
        top.stack.last().copied()
    } else {
        None
    }?;
    (!this.is_null()).then_some(this)
}
