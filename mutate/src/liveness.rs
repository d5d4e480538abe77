//! Live locals of a method: a slot that some path from `pc` reads before writing it.
//!
//! The check skips a local the recorder shows untyped (the verifier's `top`, a dead local at a
//! merge point). A live slot is never `top` in verified code: from a `top` slot every path
//! keeps it `top` until a store (a stack map frame can only widen a type to `top`), and
//! reading a `top` slot fails verification. So a live local is always shown and compared.
//! Exception edges are left out, which only makes the sets smaller (still live).

use jtg_engine::class::{Code, Insn, Kind};
use std::collections::{BTreeSet, HashMap};

/// The index of each instruction by pc, and each instruction's normal successors (branch
/// targets and the next instruction where control falls through), by index.
pub(crate) fn successors(code: &Code) -> (HashMap<u32, usize>, Vec<Vec<usize>>) {
    let n = code.insns.len();
    let index: HashMap<u32, usize> = code
        .insns
        .iter()
        .enumerate()
        .map(|(i, (pc, _))| (*pc, i))
        .collect();
    let succs = code
        .insns
        .iter()
        .enumerate()
        .map(|(i, (_, insn))| {
            let mut v: Vec<usize> = insn
                .branch_targets()
                .iter()
                .filter_map(|t| index.get(t).copied())
                .collect();
            let falls = !matches!(
                insn,
                Insn::Goto(_)
                    | Insn::Return(_)
                    | Insn::AThrow
                    | Insn::Ret(_)
                    | Insn::Jsr(_)
                    | Insn::TableSwitch { .. }
                    | Insn::LookupSwitch { .. }
            );
            if falls && i + 1 < n {
                v.push(i + 1);
            }
            v
        })
        .collect();
    (index, succs)
}

/// The live slots before each instruction, by pc.
pub(crate) fn live_in(code: &Code) -> HashMap<u32, BTreeSet<usize>> {
    let n = code.insns.len();
    let (_, succs) = successors(code);
    let reads = |insn: &Insn| match insn {
        Insn::Load(_, k) | Insn::IInc { index: k, .. } | Insn::Ret(k) => Some(usize::from(*k)),
        _ => None,
    };
    // a long or double store also overwrites the slot after it
    let writes = |insn: &Insn| match insn {
        Insn::Store(Kind::Long | Kind::Double, k) => vec![usize::from(*k), usize::from(*k) + 1],
        Insn::Store(_, k) => vec![usize::from(*k)],
        _ => vec![],
    };
    let mut live: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let insn = &code.insns[i].1;
            let mut s: BTreeSet<usize> = succs[i]
                .iter()
                .flat_map(|&j| live[j].iter().copied())
                .collect();
            for w in writes(insn) {
                s.remove(&w);
            }
            if let Some(r) = reads(insn) {
                s.insert(r);
            }
            if s != live[i] {
                live[i] = s;
                changed = true;
            }
        }
    }
    code.insns.iter().map(|(pc, _)| *pc).zip(live).collect()
}
