//! The control-flow graph of one method's code, at instruction granularity: which instruction
//! may run after which (fall-through, branch and switch targets, the exception handlers that
//! cover an instruction, with their catch types), the inverse, and instruction index ↔ pc. Every
//! analysis of a method's bytecode walks this graph: the frame interpreter
//! ([`super::frames`], forward) and the live locals ([`super::Liveness`], backward, by
//! [`Cfg::solve_backward`]).
//!
//! `jsr` is an edge to its subroutine and one to the instruction after it (where the
//! subroutine's `ret` returns); `ret` has no successor. The frame interpreter gives up on both.

use super::{Code, Insn};
use std::collections::BTreeSet;

/// How control reaches an instruction from its predecessor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// The next instruction in the code.
    Next,
    /// A branch, `goto`, `jsr` or switch target.
    Jump,
    /// An exception handler covering the instruction; `None` catches everything (`finally`).
    Handler { catch_type: Option<String> },
}

/// One control-flow edge, to an instruction index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    pub to: usize,
    pub kind: EdgeKind,
}

/// The control-flow graph of a method's code (instructions by index in [`Code::insns`]).
#[derive(Clone, Debug)]
pub struct Cfg {
    pcs: Vec<u32>,
    succs: Vec<Vec<Edge>>,
    preds: Vec<Vec<usize>>,
}

/// Whether control can go on to the next instruction after `insn` (a call returns there).
pub fn falls_through(insn: &Insn) -> bool {
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

impl Cfg {
    /// The graph of `code`. Targets that are no instruction's start (the class-file parser
    /// refuses them, so only hand-made code has them) and falling off the end have no edge.
    pub fn of(code: &Code) -> Cfg {
        let pcs: Vec<u32> = code.insns.iter().map(|(pc, _)| *pc).collect();
        let index = |pc: u32| pcs.binary_search(&pc).ok();
        let succs: Vec<Vec<Edge>> = code
            .insns
            .iter()
            .enumerate()
            .map(|(i, (pc, insn))| {
                let mut out: Vec<Edge> = Vec::new();
                let mut add = |e: Edge| {
                    if !out.contains(&e) {
                        out.push(e);
                    }
                };
                if falls_through(insn) && i + 1 < pcs.len() {
                    add(Edge {
                        to: i + 1,
                        kind: EdgeKind::Next,
                    });
                }
                for to in insn.branch_targets().into_iter().filter_map(index) {
                    add(Edge {
                        to,
                        kind: EdgeKind::Jump,
                    });
                }
                for h in code
                    .handlers
                    .iter()
                    .filter(|h| h.start <= *pc && *pc < h.end)
                {
                    if let Some(to) = index(h.handler) {
                        add(Edge {
                            to,
                            kind: EdgeKind::Handler {
                                catch_type: h.catch_type.clone(),
                            },
                        });
                    }
                }
                out
            })
            .collect();
        let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); pcs.len()];
        for (from, es) in succs.iter().enumerate() {
            for e in es {
                preds[e.to].insert(from);
            }
        }
        Cfg {
            pcs,
            succs,
            preds: preds.into_iter().map(|p| p.into_iter().collect()).collect(),
        }
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.pcs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pcs.is_empty()
    }

    /// The pc of instruction `i`.
    pub fn pc(&self, i: usize) -> u32 {
        self.pcs[i]
    }

    /// The index of the instruction starting at `pc`.
    pub fn index_of(&self, pc: u32) -> Option<usize> {
        self.pcs.binary_search(&pc).ok()
    }

    /// Where control may go after instruction `i`: the next instruction, then branch targets,
    /// then covering handlers in the order of the exception table; each edge once.
    pub fn successors(&self, i: usize) -> &[Edge] {
        &self.succs[i]
    }

    /// The instructions that may run right before instruction `i`, ascending, each once.
    pub fn predecessors(&self, i: usize) -> &[usize] {
        &self.preds[i]
    }

    /// The least fixpoint of a backward analysis over every instruction (unreachable ones
    /// included): the fact after `i` is `bottom` joined with the facts before `i`'s
    /// successors, and `transfer(i, after)` is the fact before `i`. Returns the facts before
    /// each instruction. `join` and `transfer` must be monotone.
    pub fn solve_backward<F: Clone + PartialEq>(
        &self,
        bottom: F,
        mut join: impl FnMut(&mut F, &F),
        mut transfer: impl FnMut(usize, F) -> F,
    ) -> Vec<F> {
        let mut before = vec![bottom.clone(); self.len()];
        // highest index first: most code flows forward, so successors are mostly settled
        let mut todo: BTreeSet<usize> = (0..self.len()).collect();
        while let Some(i) = todo.pop_last() {
            let mut after = bottom.clone();
            for e in &self.succs[i] {
                join(&mut after, &before[e.to]);
            }
            let now = transfer(i, after);
            if now != before[i] {
                before[i] = now;
                todo.extend(self.preds[i].iter().copied());
            }
        }
        before
    }
}
