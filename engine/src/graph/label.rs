//! Edge labels: arithmetic operations `i3 = i1 - 1` (ArithOp) and checked relations `i4 ≤ 0`
//! (RelOp) of the thesis, plus free-text notes for refinement edges.
//!
//! In an arithmetic label the result is a reference of the edge's target state and the operands
//! are references of its source state (or literals). Under `--ints java` the operations are
//! 32-bit two's-complement operations on ints and 64-bit ones on longs (the result's kind
//! says which).

use crate::class::Cond;
use crate::state::{ArithOp, Ref, State};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Ref(Ref),
    Lit(i128),
}

impl Operand {
    /// The operand for reference `r` of `state`: its literal when it has one.
    pub fn of(state: &State, r: Ref) -> Operand {
        match state.integral(r).and_then(|i| i.as_literal()) {
            Some(v) => Operand::Lit(v),
            None => Operand::Ref(r),
        }
    }
    fn parse(s: &str) -> Option<Operand> {
        s.parse::<i128>()
            .ok()
            .map(Operand::Lit)
            .or_else(|| Ref::parse(s).filter(|r| r.is_int()).map(Operand::Ref))
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Ref(r) => write!(f, "{r}"),
            Operand::Lit(v) => write!(f, "{v}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// `res = a op b` (`res = -a` for negation).
    Arith {
        res: Ref,
        op: ArithOp,
        a: Operand,
        b: Option<Operand>,
    },
    /// `a cond b`, a relation that held when the edge was taken.
    Rel { a: Operand, cond: Cond, b: Operand },
    /// `o3 instanceof T` / `o3 !instanceof T`: the outcome of a type refinement (spec §5.3,
    /// step 2) for `instanceof`/`checkcast` on an object whose static type is too wide to
    /// enumerate its subtypes (`java.lang.Object`). `ty` is an internal name (`a/b/C`).
    Type { r: Ref, ty: String, holds: bool },
    /// Informative text (e.g. which reference a refinement case decided).
    Note(String),
}

const CONDS: [Cond; 6] = [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le];
const OPS: [ArithOp; 5] = [
    ArithOp::Add,
    ArithOp::Sub,
    ArithOp::Mul,
    ArithOp::Div,
    ArithOp::Rem,
];

impl Label {
    /// Parses the printed form; anything else becomes a note.
    pub fn parse(s: &str) -> Label {
        let t: Vec<&str> = s.split_whitespace().collect();
        let parsed = match t.as_slice() {
            [res, "=", a, op, b] => {
                let op = OPS.iter().find(|o| o.symbol() == *op);
                match (Ref::parse(res), op, Operand::parse(a), Operand::parse(b)) {
                    (Some(res), Some(op), Some(a), Some(b)) if res.is_int() => Some(Label::Arith {
                        res,
                        op: *op,
                        a,
                        b: Some(b),
                    }),
                    _ => None,
                }
            }
            [res, "=", neg] if neg.starts_with('-') && Ref::parse(&neg[1..]).is_some() => {
                match (Ref::parse(res), Operand::parse(&neg[1..])) {
                    (Some(res), Some(a)) if res.is_int() => Some(Label::Arith {
                        res,
                        op: ArithOp::Neg,
                        a,
                        b: None,
                    }),
                    _ => None,
                }
            }
            [r, kw @ ("instanceof" | "!instanceof"), ty] => match Ref::parse(r) {
                Some(r) if r.is_obj() => Some(Label::Type {
                    r,
                    ty: ty.replace('.', "/"),
                    holds: *kw == "instanceof",
                }),
                _ => None,
            },
            [a, c, b] => {
                let cond = CONDS.iter().find(|k| k.symbol() == *c);
                match (Operand::parse(a), cond, Operand::parse(b)) {
                    (Some(a), Some(cond), Some(b)) => Some(Label::Rel { a, cond: *cond, b }),
                    _ => None,
                }
            }
            _ => None,
        };
        parsed.unwrap_or_else(|| Label::Note(s.to_string()))
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Label::Arith {
                res,
                op: ArithOp::Neg,
                a,
                ..
            } => write!(f, "{res} = -{a}"),
            Label::Arith { res, op, a, b } => match b {
                Some(b) => write!(f, "{res} = {a} {} {b}", op.symbol()),
                None => write!(f, "{res} = {a}"),
            },
            Label::Rel { a, cond, b } => write!(f, "{a} {} {b}", cond.symbol()),
            Label::Type { r, ty, holds } => {
                let kw = if *holds { "instanceof" } else { "!instanceof" };
                write!(f, "{r} {kw} {}", ty.replace('/', "."))
            }
            Label::Note(s) => f.write_str(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_roundtrip() {
        for s in [
            "i3 = i1 - 1",
            "i4 ≤ 0",
            "i1 ≠ i2",
            "i5 = -i2",
            "i9 = 3 * i2",
            "o1 = null",
            "o3 instanceof javaUtilEx.Content",
            "o3 !instanceof java.lang.String",
        ] {
            let l = Label::parse(s);
            assert_eq!(l.to_string(), s);
        }
        assert!(matches!(Label::parse("o1 = null"), Label::Note(_)));
        assert!(matches!(Label::parse("i4 ≤ 0"), Label::Rel { .. }));
        assert_eq!(
            Label::parse("o3 !instanceof a.B"),
            Label::Type {
                r: Ref::parse("o3").unwrap(),
                ty: "a/B".into(),
                holds: false
            }
        );
        // an int reference cannot be a type test
        assert!(matches!(Label::parse("i3 instanceof A"), Label::Note(_)));
    }
}
