//! Branches: integer comparisons (decided by intervals, else integer refinement against a
//! literal, else a state split), reference comparisons (instance and equality refinement
//! first), `goto` and switches.

use super::{Exec, Flow};
use crate::class::{Cond, Insn};
use crate::edge::{EdgeKind, Label, Operand};
use crate::error::EngineError;
use crate::models;
use crate::refine::{equality, instance, integer, split};
use crate::state::{HeapValue, Interval, Ref, State};
use std::cmp::Ordering;

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn, before: &State) -> Result<Flow, EngineError> {
    match insn {
        Insn::Goto(t) => Ok(Flow::Jump(*t)),
        Insn::If { cond, target } => {
            let a = ex.pop()?;
            let zero = ex.st.new_int(Interval::literal(0));
            int_branch(ex, before, a, *cond, zero, *target, true)
        }
        Insn::IfICmp { cond, target } => {
            let b = ex.pop()?;
            let a = ex.pop()?;
            int_branch(ex, before, a, *cond, b, *target, false)
        }
        Insn::IfNull { target } | Insn::IfNonNull { target } => {
            let a = ex.pop()?;
            // an object known to exist is not null; only `C(?)` needs the case analysis
            // (an instance refinement, as at pc 01 of Fig. 2.11)
            let exists = ex.st.value(a).is_some_and(HeapValue::exists);
            if !exists {
                if let Some(flow) = ex.need_realized(a)? {
                    return Ok(flow);
                }
            }
            let is_null = a.is_null();
            let jump = is_null == matches!(insn, Insn::IfNull { .. });
            Ok(if jump {
                Flow::Jump(*target)
            } else {
                Flow::Next
            })
        }
        Insn::IfACmp { eq, target } => {
            let b = ex.pop()?;
            let a = ex.pop()?;
            // Identity needs no class, only whether each side is null and the `=?` pair. An
            // object of a class hierarchy is still realized (the uses after a comparison
            // usually need its fields, so the case analysis is not saved but merely moved);
            // one of unknown class (`java.lang.Object`), which has too many subtypes to
            // realize, only gets its existence decided.
            for r in [a, b] {
                let flow = match ex.st.value(r) {
                    Some(HeapValue::Unknown { ty }) if ty == models::OBJECT => Some(Flow::Refine(
                        EdgeKind::Refine,
                        instance::refine_existence(before, r),
                    )),
                    Some(HeapValue::Abstract { ty }) if ty == models::OBJECT => None,
                    _ => ex.need_realized(r)?,
                };
                if let Some(flow) = flow {
                    return Ok(flow);
                }
            }
            if a != b && ex.st.preds.may_equal(a, b) {
                let succs = equality::refine(before, a, b, ex.cx.prog);
                return Ok(Flow::Refine(EdgeKind::Refine, succs));
            }
            // both null or existing, not `=?`: identity is decided by the reference
            let same = a == b;
            Ok(if same == *eq {
                Flow::Jump(*target)
            } else {
                Flow::Next
            })
        }
        Insn::TableSwitch {
            default,
            low,
            targets,
        } => {
            let cases: Vec<(i32, u32)> = targets
                .iter()
                .enumerate()
                .map(|(k, t)| (low.wrapping_add(k as i32), *t))
                .collect();
            switch(ex, before, *default, &cases)
        }
        Insn::LookupSwitch { default, pairs } => switch(ex, before, *default, pairs),
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
}

/// The condition with its operands swapped: `a < b` ⇔ `b > a`.
pub(super) fn mirror(cond: Cond) -> Cond {
    match cond {
        Cond::Lt => Cond::Gt,
        Cond::Gt => Cond::Lt,
        Cond::Le => Cond::Ge,
        Cond::Ge => Cond::Le,
        c => c,
    }
}

fn holds(ord: Ordering, cond: Cond) -> bool {
    match cond {
        Cond::Eq => ord == Ordering::Equal,
        Cond::Ne => ord != Ordering::Equal,
        Cond::Lt => ord == Ordering::Less,
        Cond::Ge => ord != Ordering::Less,
        Cond::Gt => ord == Ordering::Greater,
        Cond::Le => ord != Ordering::Greater,
    }
}

/// `a cond b` on integers; `vs_zero` for the `if<cond>` forms (b is a fresh literal 0).
fn int_branch(
    ex: &mut Exec<'_>,
    before: &State,
    a: Ref,
    cond: Cond,
    b: Ref,
    target: u32,
    vs_zero: bool,
) -> Result<Flow, EngineError> {
    let va = *ex
        .st
        .int(a)
        .ok_or_else(|| ex.invalid("comparison of a non-integer"))?;
    let vb = *ex
        .st
        .int(b)
        .ok_or_else(|| ex.invalid("comparison of a non-integer"))?;
    // the same reference, the intervals, or the outcome a preceding split fixed
    let decided = if a == b {
        Some(holds(Ordering::Equal, cond))
    } else {
        va.decide(cond, &vb).or(before.decided())
    };
    let Some(taken) = decided else {
        // refine against a literal operand, else split (spec §5.5, §5.6)
        if let Some(c) = vb.as_literal() {
            let parts = integer::partition(&va, cond, c);
            return Ok(Flow::Refine(
                EdgeKind::Refine,
                integer::refine(before, a, &parts),
            ));
        }
        if let Some(c) = va.as_literal() {
            // `c cond b` is `b cond' c` with the comparison mirrored
            let parts = integer::partition(&vb, mirror(cond), c);
            return Ok(Flow::Refine(
                EdgeKind::Refine,
                integer::refine(before, b, &parts),
            ));
        }
        if vs_zero {
            return Err(ex.invalid("comparison with zero without a literal zero"));
        }
        return Ok(Flow::Refine(
            EdgeKind::Split,
            split::split(before, a, cond, b),
        ));
    };
    let both_literal = va.as_literal().is_some() && vb.as_literal().is_some();
    if !both_literal && a != b {
        let rel = if taken { cond } else { cond.negate() };
        ex.labels.push(Label::Rel {
            a: Operand::of(&ex.st, a),
            cond: rel,
            b: Operand::of(&ex.st, b),
        });
    }
    Ok(if taken {
        Flow::Jump(target)
    } else {
        Flow::Next
    })
}

/// Switches: decided on a literal; otherwise the key is refined into the case values and the
/// gaps between them.
fn switch(
    ex: &mut Exec<'_>,
    before: &State,
    default: u32,
    cases: &[(i32, u32)],
) -> Result<Flow, EngineError> {
    let k = ex.pop()?;
    let v = *ex
        .st
        .int(k)
        .ok_or_else(|| ex.invalid("switch on a non-integer"))?;
    if let Some(x) = v.as_literal() {
        let t = cases
            .iter()
            .find(|(c, _)| i128::from(*c) == x)
            .map_or(default, |(_, t)| *t);
        return Ok(Flow::Jump(t));
    }
    // partition v into the case literals it contains and the ranges between them
    let mut keys: Vec<i128> = cases.iter().map(|(c, _)| i128::from(*c)).collect();
    keys.sort_unstable();
    let mut parts = Vec::new();
    let mut rest = Some(v);
    for c in keys {
        let Some(r) = rest else { break };
        if let Some(below) = r.below(c) {
            parts.push(below);
        }
        if r.contains(c) {
            parts.push(Interval::literal(c));
        }
        rest = r.above(c);
    }
    parts.extend(rest);
    if parts.len() == 1 {
        // no case value inside the interval: every value takes the default
        return Ok(Flow::Jump(default));
    }
    Ok(Flow::Refine(
        EdgeKind::Refine,
        integer::refine(before, k, &parts),
    ))
}
