//! Live local variables (a backward data-flow analysis of a method's bytecode). A local that is
//! written before it is read again on every path is dead: its value cannot influence the
//! execution, so the evaluator forgets it (an unset slot stands for any value). That keeps
//! states at loop heads comparable and graphs small, without losing soundness.

use super::{Code, Insn, Kind};
use std::collections::BTreeSet;

/// The live local slots before every instruction of one method.
#[derive(Debug, Clone)]
pub struct Liveness {
    pcs: Vec<u32>,
    live_in: Vec<BTreeSet<u16>>,
}

fn slots(kind: Kind, n: u16) -> Vec<u16> {
    if kind.slots() == 2 {
        vec![n, n.saturating_add(1)]
    } else {
        vec![n]
    }
}

/// (uses, defs) of one instruction.
fn effect(insn: &Insn) -> (Vec<u16>, Vec<u16>) {
    match insn {
        Insn::Load(k, n) => (slots(*k, *n), vec![]),
        Insn::Store(k, n) => (vec![], slots(*k, *n)),
        Insn::IInc { index, .. } => (vec![*index], vec![*index]),
        Insn::Ret(n) => (vec![*n], vec![]),
        _ => (vec![], vec![]),
    }
}

/// Whether control can fall through to the next instruction.
fn falls_through(insn: &Insn) -> bool {
    !matches!(
        insn,
        Insn::Goto(_)
            | Insn::Return(_)
            | Insn::AThrow
            | Insn::TableSwitch { .. }
            | Insn::LookupSwitch { .. }
            | Insn::Ret(_)
    )
}

impl Liveness {
    pub fn of(code: &Code) -> Liveness {
        let pcs: Vec<u32> = code.insns.iter().map(|(pc, _)| *pc).collect();
        let index = |pc: u32| pcs.binary_search(&pc).ok();
        // successors by instruction index: fall-through, branch targets, covering handlers
        let succs: Vec<Vec<usize>> = code
            .insns
            .iter()
            .enumerate()
            .map(|(i, (pc, insn))| {
                let mut s: Vec<usize> = insn
                    .branch_targets()
                    .into_iter()
                    .filter_map(index)
                    .collect();
                if falls_through(insn) && i + 1 < pcs.len() {
                    s.push(i + 1);
                }
                for h in &code.handlers {
                    if h.start <= *pc && *pc < h.end {
                        s.extend(index(h.handler));
                    }
                }
                s
            })
            .collect();
        let effects: Vec<_> = code.insns.iter().map(|(_, i)| effect(i)).collect();
        let mut live_in = vec![BTreeSet::new(); pcs.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for i in (0..pcs.len()).rev() {
                let mut live: BTreeSet<u16> = succs[i]
                    .iter()
                    .flat_map(|&j| live_in[j].iter().copied())
                    .collect();
                let (uses, defs) = &effects[i];
                for d in defs {
                    live.remove(d);
                }
                live.extend(uses.iter().copied());
                if live != live_in[i] {
                    live_in[i] = live;
                    changed = true;
                }
            }
        }
        Liveness { pcs, live_in }
    }

    /// Whether `slot` may be read before it is written, starting at `pc`. Unknown pcs answer
    /// "live" (the safe answer).
    pub fn is_live(&self, pc: u32, slot: usize) -> bool {
        match self.pcs.binary_search(&pc) {
            Ok(i) => u16::try_from(slot).is_ok_and(|s| self.live_in[i].contains(&s)),
            Err(_) => true,
        }
    }
}
