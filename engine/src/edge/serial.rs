//! The JSON form of labels (`docs/json.md`): one object per label, tagged by `"label"`;
//! references and integer operands are strings in their text form (`"i4"`, `"-5"`: literals
//! are unbounded integers), methods `Class.name(desc)`, class names internal (`a/b/C`).
//! Reading checks [`Label::well_formed`].

use super::label::{Label, Narrowing, Operand};
use crate::class::Cond;
use crate::state::IntOp;
use crate::state::{MethodId, Ref};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Serialize, Deserialize)]
#[serde(tag = "label", rename_all = "snake_case", deny_unknown_fields)]
enum Repr {
    Arith {
        res: String,
        op: OpRepr,
        a: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        b: Option<String>,
    },
    Narrow {
        res: String,
        to: String,
        a: String,
    },
    Rel {
        a: String,
        cond: CondRepr,
        b: String,
    },
    RefEq {
        r: String,
        p: String,
        equal: bool,
    },
    Exists {
        r: String,
    },
    Type {
        r: String,
        ty: String,
        holds: bool,
    },
    AbstractCall {
        callee: String,
    },
    Returned {
        callee: String,
    },
    Thrown {
        class: String,
        callee: String,
    },
    FilledStatics {
        fields: Vec<FieldRepr>,
    },
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldRepr {
    class: String,
    field: String,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OpRepr {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    Shr,
    Ushr,
}

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CondRepr {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

const OPS: [(IntOp, OpRepr); 8] = [
    (IntOp::Add, OpRepr::Add),
    (IntOp::Sub, OpRepr::Sub),
    (IntOp::Mul, OpRepr::Mul),
    (IntOp::Div, OpRepr::Div),
    (IntOp::Rem, OpRepr::Rem),
    (IntOp::Neg, OpRepr::Neg),
    (IntOp::Shr, OpRepr::Shr),
    (IntOp::Ushr, OpRepr::Ushr),
];

const CONDS: [(Cond, CondRepr); 6] = [
    (Cond::Lt, CondRepr::Lt),
    (Cond::Le, CondRepr::Le),
    (Cond::Eq, CondRepr::Eq),
    (Cond::Ne, CondRepr::Ne),
    (Cond::Ge, CondRepr::Ge),
    (Cond::Gt, CondRepr::Gt),
];

fn op_repr(op: IntOp) -> OpRepr {
    OPS.iter()
        .find(|(o, _)| *o == op)
        .map_or(OpRepr::Neg, |p| p.1)
}

fn op_of(r: OpRepr) -> IntOp {
    OPS.iter()
        .find(|(_, x)| *x as u8 == r as u8)
        .map_or(IntOp::Neg, |p| p.0)
}

fn cond_repr(c: Cond) -> CondRepr {
    CONDS
        .iter()
        .find(|(k, _)| *k == c)
        .map_or(CondRepr::Eq, |p| p.1)
}

fn cond_of(r: CondRepr) -> Cond {
    CONDS
        .iter()
        .find(|(_, x)| *x as u8 == r as u8)
        .map_or(Cond::Eq, |p| p.0)
}

fn reference(s: &str) -> Result<Ref, String> {
    Ref::parse(s)
        .filter(|r| r.to_string() == s)
        .ok_or_else(|| format!("`{s}` is not a reference"))
}

fn operand(s: &str) -> Result<Operand, String> {
    if let Ok(v) = s.parse::<i128>() {
        if v.to_string() == s {
            return Ok(Operand::Lit(v));
        }
    }
    match Ref::parse(s).filter(|r| r.to_string() == s) {
        Some(r) => Ok(Operand::Ref(r)),
        None => Err(format!("`{s}` is neither a reference nor an integer")),
    }
}

fn method(s: &str) -> Result<MethodId, String> {
    MethodId::parse(s)
        .filter(|m| m.to_string() == s)
        .ok_or_else(|| format!("`{s}` is not a method (Class.name(descriptor))"))
}

impl From<&Label> for Repr {
    fn from(l: &Label) -> Repr {
        let s = |r: &Ref| r.to_string();
        match l {
            Label::Arith { res, op, a, b } => Repr::Arith {
                res: s(res),
                op: op_repr(*op),
                a: a.to_string(),
                b: b.map(|b| b.to_string()),
            },
            Label::Narrow { res, to, a } => Repr::Narrow {
                res: s(res),
                to: to.name().to_string(),
                a: s(a),
            },
            Label::Rel { a, cond, b } => Repr::Rel {
                a: a.to_string(),
                cond: cond_repr(*cond),
                b: b.to_string(),
            },
            Label::RefEq { r, p, equal } => Repr::RefEq {
                r: s(r),
                p: s(p),
                equal: *equal,
            },
            Label::Exists { r } => Repr::Exists { r: s(r) },
            Label::Type { r, ty, holds } => Repr::Type {
                r: s(r),
                ty: ty.clone(),
                holds: *holds,
            },
            Label::AbstractCall { callee } => Repr::AbstractCall {
                callee: callee.to_string(),
            },
            Label::Returned { callee } => Repr::Returned {
                callee: callee.to_string(),
            },
            Label::Thrown { class, callee } => Repr::Thrown {
                class: class.clone(),
                callee: callee.to_string(),
            },
            Label::FilledStatics { fields } => Repr::FilledStatics {
                fields: fields
                    .iter()
                    .map(|(c, f)| FieldRepr {
                        class: c.clone(),
                        field: f.clone(),
                    })
                    .collect(),
            },
        }
    }
}

impl TryFrom<Repr> for Label {
    type Error = String;
    fn try_from(r: Repr) -> Result<Label, String> {
        let l = match r {
            Repr::Arith { res, op, a, b } => Label::Arith {
                res: reference(&res)?,
                op: op_of(op),
                a: operand(&a)?,
                b: b.as_deref().map(operand).transpose()?,
            },
            Repr::Narrow { res, to, a } => Label::Narrow {
                res: reference(&res)?,
                to: Narrowing::of_name(&to)
                    .ok_or_else(|| format!("`{to}` is not byte, char, short or int"))?,
                a: reference(&a)?,
            },
            Repr::Rel { a, cond, b } => Label::Rel {
                a: operand(&a)?,
                cond: cond_of(cond),
                b: operand(&b)?,
            },
            Repr::RefEq { r, p, equal } => Label::RefEq {
                r: reference(&r)?,
                p: reference(&p)?,
                equal,
            },
            Repr::Exists { r } => Label::Exists { r: reference(&r)? },
            Repr::Type { r, ty, holds } => Label::Type {
                r: reference(&r)?,
                ty,
                holds,
            },
            Repr::AbstractCall { callee } => Label::AbstractCall {
                callee: method(&callee)?,
            },
            Repr::Returned { callee } => Label::Returned {
                callee: method(&callee)?,
            },
            Repr::Thrown { class, callee } => Label::Thrown {
                class,
                callee: method(&callee)?,
            },
            Repr::FilledStatics { fields } => Label::FilledStatics {
                fields: fields.into_iter().map(|f| (f.class, f.field)).collect(),
            },
        };
        l.well_formed()?;
        Ok(l)
    }
}

impl Serialize for Label {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Repr::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Label {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Label, D::Error> {
        Label::try_from(Repr::deserialize(d)?).map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_of_a_label() {
        let l = Label::parse("i4 = -i2").unwrap();
        let j = serde_json::to_string(&l).unwrap();
        assert_eq!(j, r#"{"label":"arith","res":"i4","op":"neg","a":"i2"}"#);
        assert_eq!(serde_json::from_str::<Label>(&j).unwrap(), l);
        let big = Label::Rel {
            a: Operand::Ref(Ref::Int(1)),
            cond: Cond::Lt,
            b: Operand::Lit(i128::MAX),
        };
        let j = serde_json::to_string(&big).unwrap();
        assert_eq!(serde_json::from_str::<Label>(&j).unwrap(), big);
    }

    #[test]
    fn bad_json_labels_are_errors() {
        for j in [
            r#"{"label":"note","text":"o1 = null"}"#,
            r#"{"label":"arith","res":"i4","op":"neg","a":"i2","b":"i3"}"#,
            r#"{"label":"arith","res":"i4","op":"add","a":"i2"}"#,
            r#"{"label":"rel","a":"o1","cond":"lt","b":"0"}"#,
            r#"{"label":"rel","a":"i1","cond":"lt","b":"007"}"#,
            r#"{"label":"ref_eq","r":"i1","p":"null","equal":true}"#,
            r#"{"label":"exists","r":"o1","extra":1}"#,
            r#"{"label":"abstract_call","callee":"fact"}"#,
            r#""o1 = null""#,
        ] {
            assert!(serde_json::from_str::<Label>(j).is_err(), "{j} was read");
        }
    }
}
