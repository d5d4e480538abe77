//! Label mutants: a label replaced by another well-formed label (`replace-label`), and the
//! labels of a refinement's cases exchanged (`swap-refinement`).
//!
//! Replacements, all well-formed and naming only references of the edge's states (so the
//! check cannot refuse them before a run; they must be killed by a run):
//!
//! * `res = a op b`: every other operation of `+ - * / %` (the one `flip-label` makes is left
//!   to it), the constant `res = a * 0`, the copy `res = a + 0`, a literal second operand
//!   moved by 7, the result or an operand renamed to another integer reference of its state;
//! * `res = -a`: `res = a + 0` (the copy), `res = a * 0`, `res = 7 - a` (an added constant),
//!   the operand renamed;
//! * `a ◦ b`: the strict and non-strict forms (`<` ↔ `≤`, `>` ↔ `≥`), the swapped form
//!   `b ◦ a` (for `<`, `≤`, `>`, `≥`: `=` and `≠` are symmetric, their swap means the same),
//!   an operand renamed.
//!
//! Swaps: the two cases `r = p` / `r ≠ p` of an equality refinement exchange their labels;
//! the `r = null` label of an instance or existence refinement moves to each other case (that
//! case's labels replaced by it, the null case left unlabelled).
//!
//! # Equivalent label mutants
//!
//! * **weakening**: `a < b` → `a ≤ b` and `a > b` → `a ≥ b`: the new relation holds wherever
//!   the old one does, so every trace the original accepts the mutant accepts on the same path.

use crate::mutant::Change;
use jtg_engine::class::Cond;
use jtg_engine::graph::{EdgeKind, Label, Narrowing, Operand};
use jtg_engine::state::IntOp;
use jtg_engine::state::{HeapValue, Ref, State};
use jtg_engine::Graph;

/// A replacement of one label: (the new label, `Some(reason)` if equivalent by weakening).
pub(super) type Replacement = (Label, Option<String>);

const WEAKENING: &str =
    "weakening: the non-strict relation holds wherever the strict one does, so the mutant accepts every trace the original does";

/// The replacements of label `l` of an edge from `src` to `dst` of kind `kind`.
pub(super) fn replacements(
    l: &Label,
    src: &State,
    dst: &State,
    kind: EdgeKind,
) -> Vec<Replacement> {
    let mut out: Vec<Replacement> = Vec::new();
    let mut push = |l: Label, eq: Option<String>| {
        if l.well_formed().is_ok() && !out.iter().any(|(x, _)| *x == l) {
            out.push((l, eq));
        }
    };
    // an operand read in the source (every edge carrying these labels reads them there or,
    // for a non-executing edge, in the source first)
    // another integer reference of the source than every operand of the label (a renaming
    // onto the other operand would make `x ≥ x`, a tautology)
    let operands: Vec<Ref> = match l {
        Label::Arith { a, b, .. } => [Some(a), b.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|o| o.as_ref())
            .collect(),
        Label::Rel { a, b, .. } => [a, b].into_iter().filter_map(|o| o.as_ref()).collect(),
        Label::Narrow { a, .. } => vec![*a],
        _ => vec![],
    };
    let other_src = |o: &Operand| match o {
        Operand::Ref(r) => other_int(src, *r, &operands).map(Operand::Ref),
        Operand::Lit(_) => None,
    };
    match l {
        Label::Arith {
            res,
            op: IntOp::Neg,
            a,
            ..
        } => {
            let arith = |op, a, b| Label::Arith {
                res: *res,
                op,
                a,
                b: Some(b),
            };
            push(arith(IntOp::Add, *a, Operand::Lit(0)), None);
            push(arith(IntOp::Mul, *a, Operand::Lit(0)), None);
            push(arith(IntOp::Sub, Operand::Lit(7), *a), None);
            if let Some(o) = other_src(a) {
                push(
                    Label::Arith {
                        res: *res,
                        op: IntOp::Neg,
                        a: o,
                        b: None,
                    },
                    None,
                );
            }
        }
        Label::Arith {
            res,
            op,
            a,
            b: Some(b),
        } => {
            let arith = |res, op, a, b| Label::Arith {
                res,
                op,
                a,
                b: Some(b),
            };
            let flipped = match op {
                IntOp::Add => IntOp::Sub,
                IntOp::Sub => IntOp::Add,
                IntOp::Mul | IntOp::Rem => IntOp::Div,
                _ => IntOp::Mul,
            };
            for other in [IntOp::Add, IntOp::Sub, IntOp::Mul, IntOp::Div, IntOp::Rem] {
                if other != *op && other != flipped {
                    push(arith(*res, other, *a, *b), None);
                }
            }
            push(arith(*res, IntOp::Mul, *a, Operand::Lit(0)), None);
            push(arith(*res, IntOp::Add, *a, Operand::Lit(0)), None);
            match (op, b) {
                // a shift's distance stays a literal in 0..32
                (IntOp::Shr | IntOp::Ushr, Operand::Lit(c)) => {
                    push(arith(*res, *op, *a, Operand::Lit((c + 1) % 32)), None)
                }
                (_, Operand::Lit(c)) => push(arith(*res, *op, *a, Operand::Lit(c + 7)), None),
                _ => {}
            }
            if let Some(o) = other_src(a) {
                push(arith(*res, *op, o, *b), None);
            }
            if let Some(o) = other_src(b) {
                push(arith(*res, *op, *a, o), None);
            }
            // the result is read in the target of an eval edge
            let res_state = if kind.is_step() { dst } else { src };
            if let Some(r) = other_int(res_state, *res, &[]).filter(|r| src.value(*r).is_none()) {
                push(arith(r, *op, *a, *b), None);
            }
        }
        Label::Narrow { res, to, a } => {
            // another target type, another operand
            for other in Narrowing::ALL.into_iter().filter(|n| n != to) {
                push(
                    Label::Narrow {
                        res: *res,
                        to: other,
                        a: *a,
                    },
                    None,
                );
            }
            if let Some(o) = other_int(src, *a, &operands) {
                push(
                    Label::Narrow {
                        res: *res,
                        to: *to,
                        a: o,
                    },
                    None,
                );
            }
        }
        Label::Rel { a, cond, b } => {
            let rel = |a, cond, b| Label::Rel { a, cond, b };
            match cond {
                Cond::Lt => push(rel(*a, Cond::Le, *b), Some(WEAKENING.into())),
                Cond::Gt => push(rel(*a, Cond::Ge, *b), Some(WEAKENING.into())),
                Cond::Le => push(rel(*a, Cond::Lt, *b), None),
                Cond::Ge => push(rel(*a, Cond::Gt, *b), None),
                Cond::Eq | Cond::Ne => {}
            }
            if !matches!(cond, Cond::Eq | Cond::Ne) {
                push(rel(*b, *cond, *a), None);
            }
            if let Some(o) = other_src(a) {
                push(rel(o, *cond, *b), None);
            }
            if let Some(o) = other_src(b) {
                push(rel(*a, *cond, o), None);
            }
        }
        _ => {}
    }
    out
}

/// The `flip-label` mutant of `l`: the negated relation, another arithmetic operation
/// (`+` ↔ `-`, `*` ↔ `/`, `%` → `/`, shifts → `*`, negation → identity by `+ 0`), the other
/// type outcome.
pub(super) fn flip(l: &Label) -> Option<Label> {
    match l {
        Label::Rel { a, cond, b } => Some(Label::Rel {
            a: *a,
            cond: cond.negate(),
            b: *b,
        }),
        Label::Arith { res, op, a, b } => {
            let (op, b) = match op {
                IntOp::Add => (IntOp::Sub, *b),
                IntOp::Sub => (IntOp::Add, *b),
                IntOp::Mul => (IntOp::Div, *b),
                IntOp::Div => (IntOp::Mul, *b),
                IntOp::Rem => (IntOp::Div, *b),
                IntOp::Neg => (IntOp::Add, Some(Operand::Lit(0))),
                IntOp::Shr | IntOp::Ushr => (IntOp::Mul, *b),
            };
            Some(Label::Arith {
                res: *res,
                op,
                a: *a,
                b,
            })
        }
        Label::Type { r, ty, holds } => Some(Label::Type {
            r: *r,
            ty: ty.clone(),
            holds: !holds,
        }),
        _ => None,
    }
}

/// Another integer reference of `st` than `r` and `not` (the next one by number, wrapping
/// around), with an `int`/`long` value of the same kind as `r`'s.
fn other_int(st: &State, r: Ref, not: &[Ref]) -> Option<Ref> {
    let long = matches!(st.value(r), Some(HeapValue::Long(_)));
    let kind_ok = |v: &HeapValue| {
        if long {
            matches!(v, HeapValue::Long(_))
        } else {
            matches!(v, HeapValue::Int(_))
        }
    };
    let ints: Vec<Ref> = st
        .heap
        .iter()
        .filter(|(x, v)| x.is_int() && **x != r && !not.contains(x) && kind_ok(v))
        .map(|(x, _)| *x)
        .collect();
    ints.iter()
        .find(|x| **x > r)
        .or_else(|| ints.first())
        .copied()
}

/// The label swaps of `g`: (description, change).
pub(super) fn swaps(g: &Graph) -> Vec<(String, Change)> {
    let mut out = Vec::new();
    let mut by_source: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for (k, e) in g.edges.iter().enumerate() {
        if e.kind == EdgeKind::Refine {
            by_source[e.from].push(k);
        }
    }
    for outs in &by_source {
        // equality refinement: `r = p` and `r ≠ p` exchanged
        for &k in outs {
            for &m in outs {
                let (Some(eq), Some(ne)) = (only(g, k), only(g, m)) else {
                    continue;
                };
                if let (
                    Label::RefEq { r, p, equal: true },
                    Label::RefEq {
                        r: r2,
                        p: p2,
                        equal: false,
                    },
                ) = (eq, ne)
                {
                    if (r, p) == (r2, p2) && !p.is_null() {
                        out.push((
                            format!(
                                "refinement at node {}: `{eq}` ({} → {}) and `{ne}` ({} → {}) exchanged",
                                g.edges[k].from, g.edges[k].from, g.edges[k].to, g.edges[m].from, g.edges[m].to
                            ),
                            Change::SetLabels(vec![(k, vec![ne.clone()]), (m, vec![eq.clone()])]),
                        ));
                    }
                }
            }
        }
        // `r = null` moved to every other case of the same refinement
        for &k in outs {
            let Some(
                null @ Label::RefEq {
                    r,
                    p: Ref::Null,
                    equal: true,
                },
            ) = only(g, k)
            else {
                continue;
            };
            for &m in outs {
                let names_r = g.edges[m].labels.iter().any(|l| match l {
                    Label::RefEq { r: x, .. }
                    | Label::Exists { r: x }
                    | Label::Type { r: x, .. } => x == r,
                    _ => false,
                });
                if m == k || !names_r {
                    continue;
                }
                out.push((
                    format!(
                        "refinement at node {}: `{null}` moved from {} → {} to {} → {}",
                        g.edges[k].from,
                        g.edges[k].from,
                        g.edges[k].to,
                        g.edges[m].from,
                        g.edges[m].to
                    ),
                    // the null case only loses its label (a weakening: module `coverage`)
                    Change::SetLabels(vec![(k, vec![]), (m, vec![null.clone()])]),
                ));
            }
        }
    }
    out
}

/// The label of edge `k` if it has exactly one.
fn only(g: &Graph, k: usize) -> Option<&Label> {
    match g.edges[k].labels.as_slice() {
        [l] => Some(l),
        _ => None,
    }
}
