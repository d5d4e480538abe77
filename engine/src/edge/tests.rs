//! Properties of the label language: the text form and the JSON form read back every
//! well-formed label, of every kind.

use super::*;
use crate::class::Cond;
use crate::state::IntOp;
use crate::state::{MethodId, Ref};
use quickcheck::{Arbitrary, Gen, QuickCheck};

/// A well-formed label of any kind.
#[derive(Clone, Debug)]
struct AnyLabel(Label);

fn pick<T: Clone>(g: &mut Gen, xs: &[T]) -> T {
    g.choose(xs).cloned().expect("non-empty")
}

fn int_ref(g: &mut Gen) -> Ref {
    Ref::Int(u32::arbitrary(g) % 5000)
}

fn obj_ref(g: &mut Gen) -> Ref {
    Ref::Obj(u32::arbitrary(g) % 5000)
}

fn operand(g: &mut Gen) -> Operand {
    if bool::arbitrary(g) {
        Operand::Ref(int_ref(g))
    } else {
        // literals of every size, negative ones included
        let choices = [
            i128::from(i8::arbitrary(g)),
            i128::from(i64::arbitrary(g)),
            i128::arbitrary(g),
            i128::MIN,
            i128::MAX,
        ];
        Operand::Lit(pick(g, &choices))
    }
}

fn class(g: &mut Gen) -> String {
    pick(
        g,
        &[
            "List".to_string(),
            "java/lang/ArithmeticException".into(),
            "a/b/Outer$Inner".into(),
        ],
    )
}

fn method(g: &mut Gen) -> MethodId {
    pick(
        g,
        &[
            MethodId::new("Corpus", "fact", "(I)I"),
            MethodId::new("a/b/C", "<init>", "(La/B;[I)V"),
            MethodId::new("List", "get", "(LList;I)I"),
        ],
    )
}

impl Arbitrary for AnyLabel {
    fn arbitrary(g: &mut Gen) -> AnyLabel {
        let ops = [
            IntOp::Add,
            IntOp::Sub,
            IntOp::Mul,
            IntOp::Div,
            IntOp::Rem,
            IntOp::Neg,
            IntOp::Shr,
            IntOp::Ushr,
        ];
        let conds = [Cond::Lt, Cond::Le, Cond::Eq, Cond::Ne, Cond::Ge, Cond::Gt];
        let l = match u8::arbitrary(g) % 10 {
            0 => {
                let op = pick(g, &ops);
                // negation of a reference: the engine never negates a literal
                let a = if op == IntOp::Neg {
                    Operand::Ref(int_ref(g))
                } else {
                    operand(g)
                };
                // a shift's distance is a literal in 0..64
                let b = match op {
                    IntOp::Neg => None,
                    IntOp::Shr | IntOp::Ushr => {
                        Some(Operand::Lit(i128::from(u8::arbitrary(g) % 64)))
                    }
                    _ => Some(operand(g)),
                };
                Label::Arith {
                    res: int_ref(g),
                    op,
                    a,
                    b,
                }
            }
            1 => Label::Rel {
                a: operand(g),
                cond: pick(g, &conds),
                b: operand(g),
            },
            2 => {
                let r = obj_ref(g);
                let p = if bool::arbitrary(g) {
                    Ref::Null
                } else {
                    Ref::Obj(r_num(r) + 1 + u32::arbitrary(g) % 10)
                };
                Label::RefEq {
                    r,
                    p,
                    equal: bool::arbitrary(g),
                }
            }
            3 => Label::Exists { r: obj_ref(g) },
            4 => {
                let types = [class(g), "[I".into(), "[Ljava/lang/String;".into()];
                Label::Type {
                    r: obj_ref(g),
                    ty: pick(g, &types),
                    holds: bool::arbitrary(g),
                }
            }
            5 => Label::AbstractCall { callee: method(g) },
            6 => Label::Returned { callee: method(g) },
            7 => Label::Thrown {
                class: class(g),
                callee: method(g),
            },
            8 => Label::Narrow {
                res: int_ref(g),
                to: pick(g, &Narrowing::ALL),
                a: int_ref(g),
            },
            _ => Label::FilledStatics {
                fields: (0..1 + usize::arbitrary(g) % 3)
                    .map(|k| (class(g), format!("f{k}")))
                    .collect(),
            },
        };
        AnyLabel(l)
    }
}

fn r_num(r: Ref) -> u32 {
    match r {
        Ref::Int(n) | Ref::Obj(n) => n,
        Ref::Null => 0,
    }
}

#[test]
fn generated_labels_are_well_formed() {
    fn prop(l: AnyLabel) -> bool {
        l.0.well_formed().is_ok()
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(AnyLabel) -> bool);
}

#[test]
fn text_form_round_trips() {
    fn prop(l: AnyLabel) -> bool {
        Label::parse(&l.0.to_string()) == Ok(l.0)
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(prop as fn(AnyLabel) -> bool);
}

#[test]
fn json_form_round_trips() {
    fn prop(l: AnyLabel) -> bool {
        let j = serde_json::to_string(&l.0).expect("serializes");
        serde_json::from_str::<Label>(&j).ok() == Some(l.0)
    }
    QuickCheck::new()
        .tests(5000)
        .quickcheck(prop as fn(AnyLabel) -> bool);
}

/// One label of every kind, by its JSON form: the names of docs/json.md.
#[test]
fn json_form_of_every_kind() {
    for (json, text) in [
        (
            r#"{"label":"arith","res":"i3","op":"sub","a":"i1","b":"1"}"#,
            "i3 = i1 - 1",
        ),
        (
            r#"{"label":"arith","res":"i5","op":"neg","a":"i2"}"#,
            "i5 = -i2",
        ),
        (
            r#"{"label":"narrow","res":"i6","to":"char","a":"i5"}"#,
            "i6 = (char) i5",
        ),
        (r#"{"label":"rel","a":"i4","cond":"le","b":"0"}"#, "i4 ≤ 0"),
        (
            r#"{"label":"ref_eq","r":"o1","p":"null","equal":true}"#,
            "o1 = null",
        ),
        (
            r#"{"label":"ref_eq","r":"o7","p":"o6","equal":false}"#,
            "o7 ≠ o6",
        ),
        (r#"{"label":"exists","r":"o1"}"#, "o1 exists"),
        (
            r#"{"label":"type","r":"o3","ty":"java/lang/String","holds":false}"#,
            "o3 !instanceof java.lang.String",
        ),
        (
            r#"{"label":"abstract_call","callee":"Corpus.fact(I)I"}"#,
            "abstract call of Corpus.fact(I)I",
        ),
        (
            r#"{"label":"returned","callee":"Corpus.fact(I)I"}"#,
            "return from Corpus.fact(I)I",
        ),
        (
            r#"{"label":"thrown","class":"java/lang/ArithmeticException","callee":"Corpus.fact(I)I"}"#,
            "java.lang.ArithmeticException thrown by Corpus.fact(I)I",
        ),
        (
            r#"{"label":"filled_statics","fields":[{"class":"Statics","field":"last"}]}"#,
            "filled static fields Statics.last",
        ),
    ] {
        let l: Label = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(l.to_string(), text);
        assert_eq!(serde_json::to_string(&l).unwrap(), json);
        assert_eq!(Label::parse(text), Ok(l));
    }
}

/// A narrowing keeps the low bits, read in the target type's range (JLS §5.1.3).
#[test]
fn narrowing_keeps_the_low_bits() {
    assert_eq!(Narrowing::Char.apply(65536 + 97), 97);
    assert_eq!(Narrowing::Char.apply(-1), 65535);
    assert_eq!(Narrowing::Byte.apply(128), -128);
    assert_eq!(Narrowing::Byte.apply(-129), 127);
    assert_eq!(Narrowing::Short.apply(32768), -32768);
    assert_eq!(Narrowing::Int.apply(1 << 31), -(1 << 31));
    assert_eq!(Narrowing::Int.apply(-1), -1);
    for n in Narrowing::ALL {
        let (lo, hi) = n.range();
        assert_eq!(hi - lo + 1, 1 << n.bits());
        assert_eq!(Narrowing::of_name(n.name()), Some(n));
    }
}
