//! Live local variables (a backward data-flow analysis of a method's bytecode). A local that is
//! written before it is read again on every path is dead: its value cannot influence the
//! execution, so the evaluator forgets it (an unset slot stands for any value). That keeps
//! states at loop heads comparable and graphs small, without losing soundness. Solved backward
//! over the method's [`Cfg`].

use super::{Cfg, Code, Insn, Kind};
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

impl Liveness {
    pub fn of(code: &Code) -> Liveness {
        let cfg = Cfg::of(code);
        let effects: Vec<_> = code.insns.iter().map(|(_, i)| effect(i)).collect();
        let live_in = cfg.solve_backward(
            BTreeSet::new(),
            |live, after| live.extend(after.iter().copied()),
            |i, mut live| {
                let (uses, defs) = &effects[i];
                for d in defs {
                    live.remove(d);
                }
                live.extend(uses.iter().copied());
                live
            },
        );
        let pcs = code.insns.iter().map(|(pc, _)| *pc).collect();
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
