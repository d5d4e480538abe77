//! Which objects a loop reads through locals it never assigns (the loop's *invariant
//! receivers*): a `getfield` on `c` in `for (i = 0; i < c.n; i++)`, a library call on `xs` in
//! `for (i = 0; i < xs.size(); i++)`. The graph builder realizes those objects at the loop's
//! head (`eval::step`), so the head's state shows their fields and every lap reads the same
//! field value: the bound stays one variable of the loop instead of a fresh value per lap.
//!
//! A receiver is traced to the local it was loaded from by the frame interpreter (ASM's
//! `SourceInterpreter` idea, one value per word: the local an `aload` copied, or none).

use super::frames::{interpret_frames, Frame, Interpreter, Unfollowed};
use super::jvms::OBJECT;
use super::{Cfg, Code, Insn, InvokeKind, Kind};
use std::collections::{BTreeMap, BTreeSet};

/// Per loop head pc, the locals (slots) whose objects the loop reads without assigning them.
pub type InvariantReceivers = BTreeMap<u32, Vec<u16>>;

/// What a word is, for this analysis: the local an `aload` loaded it from, or `None`.
struct Origins;

impl Interpreter for Origins {
    type Value = Option<u16>;

    fn join(&mut self, into: &mut Option<u16>, v: &Option<u16>) -> bool {
        if into.is_some() && into != v {
            *into = None;
            return true;
        }
        false
    }

    fn copy(&mut self, insn: &Insn, word: Option<u16>) -> Option<u16> {
        match insn {
            Insn::Load(Kind::Ref, k) => Some(*k),
            // a local keeps what was stored into it, and a shuffle copies the word
            _ => word,
        }
    }

    fn operation(
        &mut self,
        _insn: &Insn,
        _popped: Vec<Option<u16>>,
    ) -> Result<Option<Option<u16>>, Unfollowed> {
        Ok(Some(None))
    }

    fn caught(&mut self, _catch_type: Option<&str>) -> Option<u16> {
        None
    }
}

/// The invariant receivers of every loop of `code` (`library(class)`: whether a call's owner
/// is a library class, whose models read the receiver's fields, e.g. a collection's size;
/// `Object`'s methods are dispatched on whatever the receiver is, and realize nothing).
/// Empty when the frame interpreter does not follow the code.
pub fn invariant_receivers(code: &Code, library: &dyn Fn(&str) -> bool) -> InvariantReceivers {
    let loops = code.loop_ranges();
    if loops.is_empty() {
        return InvariantReceivers::new();
    }
    let cfg = Cfg::of(code);
    let entry = Frame {
        locals: vec![None; usize::from(code.max_locals)],
        stack: Vec::new(),
    };
    let Ok(frames) = interpret_frames(code, &cfg, entry, &mut Origins) else {
        return InvariantReceivers::new();
    };
    // per instruction: the local its receiver was loaded from, for the reads that realize
    let receiver = |i: usize| -> Option<u16> {
        let f = frames[i].as_ref()?;
        let depth = match &code.insns[i].1 {
            Insn::GetField(_) => 0,
            Insn::Invoke {
                kind: InvokeKind::Virtual | InvokeKind::Interface,
                method,
            } if library(&method.class) && method.class != OBJECT => method
                .desc
                .params
                .iter()
                .map(|p| usize::from(p.slots()))
                .sum(),
            _ => return None,
        };
        *f.stack.get(f.stack.len().checked_sub(depth + 1)?)?
    };
    let mut out = InvariantReceivers::new();
    // one body per head: the union of its back edges' ranges
    let mut bodies: BTreeMap<u32, u32> = BTreeMap::new();
    for (head, back) in loops {
        let end = bodies.entry(head).or_insert(back);
        *end = (*end).max(back);
    }
    for (head, back) in bodies {
        let range = code
            .insns
            .iter()
            .enumerate()
            .filter(|(_, (pc, _))| (head..=back).contains(pc));
        let mut assigned = BTreeSet::new();
        let mut read = BTreeSet::new();
        for (i, (_, insn)) in range {
            // any store to the slot (javac reuses slots of scoped locals)
            if let Insn::Store(_, k) | Insn::IInc { index: k, .. } = insn {
                assigned.insert(*k);
            }
            if let Some(k) = receiver(i) {
                read.insert(k);
            }
        }
        let locals: Vec<u16> = read.difference(&assigned).copied().collect();
        if !locals.is_empty() {
            out.insert(head, locals);
        }
    }
    out
}
