//! The frame interpreter: a forward worklist over a method's [`Cfg`] that computes, before every
//! reachable instruction, the locals and operand stack (one entry per JVM word) as values of an
//! analysis's lattice, joined where paths meet (ASM's `Analyzer<V>` with its `Interpreter<V>`).
//! The interpreter moves words between stack and locals by [`stack_effect`] and [`shuffle`];
//! an [`Interpreter`] says what the values are: what an instruction makes of the words it
//! pops, what a load or store copies, what a handler catches.
//!
//! A handler is entered with the locals before the instruction that throws and those after it
//! (an instruction may throw after its store), and a stack holding only the caught value.
//! Subroutines (`jsr`, `ret`) are not followed.

use super::stack_effect::{shuffle, stack_effect};
use super::{Cfg, Code, EdgeKind, Insn};
use std::collections::BTreeSet;

/// The locals and operand stack before an instruction, one value per JVM word.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame<V> {
    pub locals: Vec<V>,
    pub stack: Vec<V>,
}

/// Why the frame interpreter stopped: an instruction an interpreter does not follow, a
/// subroutine, or code no verifier accepts (a stack underflow, a local out of range, stacks of
/// different heights meeting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the frame interpreter does not follow this code")]
pub struct Unfollowed;

/// A value lattice and what each instruction does to its values.
pub trait Interpreter {
    type Value: Clone;

    /// Joins `v` into `into`; whether `into` grew.
    fn join(&mut self, into: &mut Self::Value, v: &Self::Value) -> bool;

    /// A word as a load, a store or a stack shuffle copies it.
    fn copy(&mut self, insn: &Insn, word: Self::Value) -> Self::Value;

    /// The value `insn` pushes (in every word it pushes; ignored when it pushes none) from the
    /// words it pops, deepest first (for `iinc`: the local's word, and the value is its new one).
    fn operation(
        &mut self,
        insn: &Insn,
        popped: Vec<Self::Value>,
    ) -> Result<Option<Self::Value>, Unfollowed>;

    /// The value a handler catching `catch_type` (`None`: everything) finds on the stack.
    fn caught(&mut self, catch_type: Option<&str>) -> Self::Value;
}

/// The frames before every instruction of `code` reachable from `entry` (`None`: unreachable),
/// the least fixpoint of `interp`'s transfer. The worklist takes the lowest pc first.
pub fn interpret_frames<I: Interpreter>(
    code: &Code,
    cfg: &Cfg,
    entry: Frame<I::Value>,
    interp: &mut I,
) -> Result<Vec<Option<Frame<I::Value>>>, Unfollowed> {
    let mut frames: Vec<Option<Frame<I::Value>>> = vec![None; cfg.len()];
    if cfg.is_empty() {
        return Ok(frames);
    }
    frames[0] = Some(entry);
    let mut todo = BTreeSet::from([0usize]);
    while let Some(i) = todo.pop_first() {
        let Some(before) = frames[i].clone() else {
            continue;
        };
        let after = execute(&code.insns[i].1, &before, interp)?;
        for e in cfg.successors(i) {
            let into = match &e.kind {
                EdgeKind::Next | EdgeKind::Jump => vec![after.clone()],
                EdgeKind::Handler { catch_type } => {
                    let caught = interp.caught(catch_type.as_deref());
                    [&before.locals, &after.locals]
                        .into_iter()
                        .map(|locals| Frame {
                            locals: locals.clone(),
                            stack: vec![caught.clone()],
                        })
                        .collect()
                }
            };
            for f in into {
                if merge(&mut frames[e.to], f, interp)? {
                    todo.insert(e.to);
                }
            }
        }
    }
    Ok(frames)
}

/// Joins `f` into the frame `at`; whether it changed.
fn merge<I: Interpreter>(
    at: &mut Option<Frame<I::Value>>,
    f: Frame<I::Value>,
    interp: &mut I,
) -> Result<bool, Unfollowed> {
    let Some(old) = at else {
        *at = Some(f);
        return Ok(true);
    };
    if old.stack.len() != f.stack.len() || old.locals.len() != f.locals.len() {
        return Err(Unfollowed);
    }
    let mut changed = false;
    for (a, b) in old.locals.iter_mut().zip(&f.locals) {
        changed |= interp.join(a, b);
    }
    for (a, b) in old.stack.iter_mut().zip(&f.stack) {
        changed |= interp.join(a, b);
    }
    Ok(changed)
}

fn pop<V>(f: &mut Frame<V>, n: usize) -> Result<Vec<V>, Unfollowed> {
    let at = f.stack.len().checked_sub(n).ok_or(Unfollowed)?;
    Ok(f.stack.split_off(at))
}

/// The frame after `insn`.
fn execute<I: Interpreter>(
    insn: &Insn,
    before: &Frame<I::Value>,
    interp: &mut I,
) -> Result<Frame<I::Value>, Unfollowed> {
    let mut f = before.clone();
    match insn {
        Insn::Jsr(_) | Insn::Ret(_) => return Err(Unfollowed),
        Insn::Load(k, n) => {
            for j in 0..k.slots() {
                let w = f
                    .locals
                    .get(usize::from(*n) + usize::from(j))
                    .ok_or(Unfollowed)?;
                let w = interp.copy(insn, w.clone());
                f.stack.push(w);
            }
        }
        Insn::Store(k, n) => {
            let words = pop(&mut f, usize::from(k.slots()))?;
            for (j, w) in words.into_iter().enumerate() {
                let w = interp.copy(insn, w);
                *f.locals.get_mut(usize::from(*n) + j).ok_or(Unfollowed)? = w;
            }
        }
        Insn::IInc { index, .. } => {
            let local = f.locals.get_mut(usize::from(*index)).ok_or(Unfollowed)?;
            let v = interp.operation(insn, vec![local.clone()])?;
            *local = v.ok_or(Unfollowed)?;
        }
        _ => {
            if let Some((pops, order)) = shuffle(insn) {
                let words = pop(&mut f, usize::from(pops))?;
                for &k in order {
                    let w = interp.copy(insn, words[k].clone());
                    f.stack.push(w);
                }
            } else {
                let effect = stack_effect(insn).ok_or(Unfollowed)?;
                let popped = pop(&mut f, effect.pops)?;
                let v = interp.operation(insn, popped)?;
                if effect.pushes > 0 {
                    let v = v.ok_or(Unfollowed)?;
                    f.stack.extend(std::iter::repeat_n(v, effect.pushes));
                }
            }
        }
    }
    Ok(f)
}
