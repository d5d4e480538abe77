//! The text form of labels read back: exactly what `Display` prints, and an error for
//! anything else.

use super::label::{valid_class, Label, Narrowing, Operand};
use crate::class::Cond;
use crate::state::IntOp;
use crate::state::{MethodId, Ref};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a label: `{text}` ({why})")]
pub struct LabelParseError {
    pub text: String,
    pub why: String,
}

const CONDS: [Cond; 6] = [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le];
const OPS: [IntOp; 7] = [
    IntOp::Add,
    IntOp::Sub,
    IntOp::Mul,
    IntOp::Div,
    IntOp::Rem,
    IntOp::Shr,
    IntOp::Ushr,
];

fn operand(s: &str) -> Option<Operand> {
    // a literal as `Display` prints an i128: no `+`, no leading zeros
    if let Ok(v) = s.parse::<i128>() {
        return (v.to_string() == s).then_some(Operand::Lit(v));
    }
    reference(s).filter(|r| r.is_int()).map(Operand::Ref)
}

/// A reference as `Display` prints it (`o07` is not `o7`).
fn reference(s: &str) -> Option<Ref> {
    Ref::parse(s).filter(|r| r.to_string() == s)
}

fn method(s: &str) -> Option<MethodId> {
    MethodId::parse(s).filter(|m| m.to_string() == s)
}

/// `a.b.C` → `a/b/C`, if it is a class name as labels print it.
fn class(s: &str) -> Option<String> {
    let c = s.replace('.', "/");
    valid_class(&c).then_some(c)
}

impl Label {
    /// Reads the text form back: `Label::parse(&l.to_string()) == Ok(l)` for every
    /// well-formed label, and every other text is an error.
    pub fn parse(s: &str) -> Result<Label, LabelParseError> {
        let err = |why: &str| LabelParseError {
            text: s.to_string(),
            why: why.to_string(),
        };
        let label = Self::parse_form(s).ok_or_else(|| err("no label has this form"))?;
        label.well_formed().map_err(|w| err(&w))?;
        if label.to_string() != s {
            return Err(err(&format!("it is written `{label}`")));
        }
        Ok(label)
    }

    fn parse_form(s: &str) -> Option<Label> {
        if let Some(m) = s.strip_prefix("abstract call of ") {
            return Some(Label::AbstractCall { callee: method(m)? });
        }
        if let Some(m) = s.strip_prefix("return from ") {
            return Some(Label::Returned { callee: method(m)? });
        }
        if let Some(list) = s.strip_prefix("filled static fields ") {
            let fields = list
                .split(", ")
                .map(|f| {
                    let dot = f.rfind('.')?;
                    Some((class(&f[..dot])?, f[dot + 1..].to_string()))
                })
                .collect::<Option<Vec<_>>>()?;
            return Some(Label::FilledStatics { fields });
        }
        if let Some((c, m)) = s.split_once(" thrown by ") {
            return Some(Label::Thrown {
                class: class(c)?,
                callee: method(m)?,
            });
        }
        let t: Vec<&str> = s.split(' ').collect();
        match t.as_slice() {
            [res, "=", a, op, b] => {
                let op = *OPS.iter().find(|o| o.symbol() == *op)?;
                Some(Label::Arith {
                    res: reference(res)?,
                    op,
                    a: operand(a)?,
                    b: Some(operand(b)?),
                })
            }
            [res, "=", to, a] if to.starts_with('(') && to.ends_with(')') => Some(Label::Narrow {
                res: reference(res)?,
                to: Narrowing::of_name(&to[1..to.len() - 1])?,
                a: reference(a)?,
            }),
            [r, "exists"] => Some(Label::Exists { r: reference(r)? }),
            [r, kw @ ("instanceof" | "!instanceof"), ty] => Some(Label::Type {
                r: reference(r)?,
                ty: ty.replace('.', "/"),
                holds: *kw == "instanceof",
            }),
            [res, "=", neg] if neg.starts_with('-') && reference(&neg[1..]).is_some() => {
                Some(Label::Arith {
                    res: reference(res)?,
                    op: IntOp::Neg,
                    a: operand(&neg[1..])?,
                    b: None,
                })
            }
            [a, c, b] => {
                let cond = *CONDS.iter().find(|k| k.symbol() == *c)?;
                // object references (and null) make a reference label
                match (reference(a), reference(b)) {
                    (Some(r), Some(p)) if r.is_obj() && (p.is_obj() || p.is_null()) => {
                        let equal = match cond {
                            Cond::Eq => true,
                            Cond::Ne => false,
                            _ => return None,
                        };
                        Some(Label::RefEq { r, p, equal })
                    }
                    _ => Some(Label::Rel {
                        a: operand(a)?,
                        cond,
                        b: operand(b)?,
                    }),
                }
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_printed_form_reads_back() {
        for s in [
            "i3 = i1 - 1",
            "i4 ≤ 0",
            "i1 ≠ i2",
            "i5 = -i2",
            "i9 = 3 * i2",
            "i9 = -7 % i2",
            "o1 = null",
            "o7 = o6",
            "o7 ≠ o6",
            "o1 exists",
            "o3 instanceof javaUtilEx.Content",
            "o3 !instanceof java.lang.String",
            "o3 instanceof [I",
            "abstract call of Corpus.fact(I)I",
            "return from a.b.C.m(La/B;)V",
            "java.lang.ArithmeticException thrown by Corpus.fact(I)I",
            "filled static fields a.B.x, C.y",
        ] {
            let l = Label::parse(s).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(l.to_string(), s);
        }
        assert!(matches!(Label::parse("i4 ≤ 0"), Ok(Label::Rel { .. })));
        assert_eq!(
            Label::parse("o7 ≠ o6"),
            Ok(Label::RefEq {
                r: Ref::Obj(7),
                p: Ref::Obj(6),
                equal: false
            })
        );
        assert_eq!(
            Label::parse("o3 !instanceof a.B"),
            Ok(Label::Type {
                r: Ref::Obj(3),
                ty: "a/B".into(),
                holds: false
            })
        );
        assert_eq!(
            Label::parse("return from List.get(LList;I)I"),
            Ok(Label::Returned {
                callee: MethodId::new("List", "get", "(LList;I)I")
            })
        );
    }

    #[test]
    fn anything_else_is_an_error() {
        for s in [
            "",
            "some note",
            "i3 instanceof A",
            "o1 < o2",
            "i1 = null",
            "o1 = o1",
            "null = o1",
            "i3 = i1 +",
            "i3 = i1 ",
            "i3 = o1 + 1",
            "i3  = i1 + 1",
            "i3 = i1 + 01",
            "i03 = i1 + 1",
            "o1 exists now",
            "abstract call of fact",
            "filled static fields ",
            "filled static fields B",
            "[I thrown by A.m()V",
            "i1 ≤ 0 ",
        ] {
            assert!(Label::parse(s).is_err(), "`{s}` parsed");
        }
    }
}
