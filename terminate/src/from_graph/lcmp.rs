//! `lcmp` (JVMS §6.5): the result is `−1`, `0` or `1` as `a < b`, `a = b` or `a > b`. The
//! engine keeps only `res ∈ [−1, 1]` when neither operand is a literal, so a `long` loop's
//! test (`for (long i = 0; i < n; i++)`: `lcmp` then `ifge`) would relate nothing; the rule is
//! split into the three cases instead (they exclude each other and cover every value), and
//! the branch on `res` then leaves only the case of the taken side feasible.

use super::quantity::Slots;
use jtg_engine::class::Insn;
use jtg_engine::Program;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr};

/// One executed `lcmp` of a rule: its operands and result, over the rule's variables.
#[derive(Clone, Debug)]
pub(super) struct Comparison {
    a: LinExpr,
    b: LinExpr,
    res: LinExpr,
}

/// At most this many comparisons of one rule are split (3ᵏ rules).
const MAX_SPLIT: usize = 2;

/// The comparison a step from `src` to `dst` executes, if its instruction is `lcmp` and both
/// operands and the result are integers of the rule.
pub(super) fn comparison(prog: &Program, src: &Slots<'_>, dst: &Slots<'_>) -> Option<Comparison> {
    if prog.next_insn(src.state)? != Insn::LCmp {
        return None;
    }
    let f = src.state.top()?;
    let k = f.stack.len().checked_sub(2)?;
    let (a, b) = (f.stack[k], f.stack[k + 1]);
    let res = *dst.state.top()?.stack.last()?;
    Some(Comparison {
        a: src.int(a)?,
        b: src.int(b)?,
        res: dst.int(res)?,
    })
}

/// Each guard of `guards` once per case of the first [`MAX_SPLIT`] comparisons.
pub(super) fn compare_cases(
    cmps: &[Comparison],
    guards: Vec<Vec<Constraint>>,
) -> Vec<Vec<Constraint>> {
    let mut out = guards;
    for c in cmps.iter().take(MAX_SPLIT) {
        let k = |v: i64| LinExpr::constant(Q::from(jtg_prove::BigInt::from(v)));
        let cases = [
            [Constraint::lt(&c.a, &c.b), Constraint::eq(&c.res, &k(-1))],
            [Constraint::eq(&c.a, &c.b), Constraint::eq(&c.res, &k(0))],
            [Constraint::gt(&c.a, &c.b), Constraint::eq(&c.res, &k(1))],
        ];
        out = out
            .into_iter()
            .flat_map(|g| {
                cases.iter().map(move |cs| {
                    let mut g = g.clone();
                    g.extend(cs.iter().cloned());
                    g
                })
            })
            .collect();
    }
    out
}
