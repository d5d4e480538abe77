use super::*;
use crate::state::{End, FieldKey, FieldSet, Frame, HeapValue, Interval, MethodId, Ref, State};
use quickcheck::{quickcheck, Arbitrary, Gen};

fn contains() -> MethodId {
    MethodId::new("List", "contains", "(LList;I)Z")
}

#[test]
fn thesis_fig_2_11_start_state() {
    let ctx = TextContext::for_method(contains(), &NoNames);
    let s = parse_state("00 | l0: o1, l1: i1 | ε\no1: List(?)  i1: Z", &ctx).unwrap();
    assert_eq!(s.frames.len(), 1);
    assert_eq!(
        s.frames[0].locals,
        vec![Some(Ref::Obj(1)), Some(Ref::Int(1))]
    );
    assert_eq!(
        s.value(Ref::Obj(1)),
        Some(&HeapValue::Unknown { ty: "List".into() })
    );
    assert_eq!(
        print_state(&s, &ctx),
        "00 | l0: o1, l1: i1 | ε\no1: List(?)  i1: Z"
    );
}

#[test]
fn thesis_fig_2_13_state_a() {
    let m = MethodId::new("List", "get", "(I)I");
    let ctx = TextContext::for_method(m, &NoNames);
    let text = "00 | l0: o1, l1: i1 | ε\n\
                o1: List(next=o2, val=i2)  o2: List(?)  i1: Z  i2: Z\n\
                o1=?o2  o1%$o2  o1⟲{next}  o2⟲{next}  o2→!{next}o1";
    let s = parse_state(text, &ctx).unwrap();
    assert!(s.preds.may_equal(Ref::Obj(2), Ref::Obj(1)));
    assert!(s.preds.joins(Ref::Obj(1), Ref::Obj(2)));
    assert_eq!(s.preds.must_reach.len(), 1);
    assert_eq!(print_state(&s, &ctx), text);
    // ASCII spellings parse to the same state
    let ascii = "00 | l0: o1, l1: i1 | -\n\
                o1: List(next=o2, val=i2)  o2: List(?)  i1: Z  i2: Z\n\
                o2 =? o1  o2 %$ o1  o1 cyc{next}  o2 cyc{next}  o2 ->!{next} o1";
    assert_eq!(parse_state(ascii, &ctx).unwrap(), s);
}

#[test]
fn stack_prints_top_first() {
    let ctx = TextContext::for_method(contains(), &NoNames);
    let s = parse_state(
        "09 | l0: o2, l1: i1 | i1, i2\no2: List(next=o3, val=i2)  o3: List(?)  i1: Z  i2: Z",
        &ctx,
    )
    .unwrap();
    assert_eq!(
        s.frames[0].stack,
        vec![Ref::Int(2), Ref::Int(1)],
        "bottom first inside"
    );
}

#[test]
fn errors_name_the_problem() {
    let ctx = TextContext::for_method(contains(), &NoNames);
    for (text, needle) in [
        ("00 | l0: o1 | ε", "o1 has no heap value"),
        ("00 | l0: o1 | ε\no1: Z", "object reference"),
        ("00 | l0: i1 | ε\ni1: List(?)", "integer reference"),
        ("00 | l0: x1 | ε", "not a reference"),
        ("xx | ε | ε", "bad pc"),
        ("00 | ε | ε\no1: List(next=o2", "unbalanced"),
        ("", "no frame line"),
        ("00 | l0: o1 | ε\no1: List(?)  o1 ?? o2", "expected"),
        ("00 | l0: i1 | ε\ni1: [5,1]", "bad interval"),
        ("00 | foo: i1 | ε\ni1: Z", "unknown local variable `foo`"),
        // references mentioned only by a predicate or a field need heap values too
        (
            "00 | l0: o1 | ε\no1: List(?)  o1 =? o3",
            "o3 has no heap value",
        ),
        (
            "00 | l0: o1 | ε\no1: List(next=o4, value=i1)  i1: Z",
            "o4 has no heap value",
        ),
        // of several problems, the one of the least reference (integers before objects)
        ("00 | l0: o5, l1: i2 | ε", "i2 has no heap value"),
        (
            "00 | l0: o5, l1: i2 | ε\ni2: List(?)",
            "i2 is an integer reference",
        ),
    ] {
        let e = parse_state(text, &ctx).unwrap_err().to_string();
        assert!(e.contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn end_states_and_statics() {
    let ctx = TextContext::plain();
    for text in [
        "end: return i1\ni1: 1",
        "end: return",
        "T: A.m(I)V 09 | l0: i1 | i1, i1\ni1: Z",
        "end: throw o1\no1: java.lang.NullPointerException()",
        "A.m(I)V 03 | l0: i1 | ε\nstatic: A.count=i2\ni1: Z  i2: [≥0]",
        "A.m([I)V 03 | l0: o1 | ε | exc: o2\no1: int[](len=i1)[i2, i2]  o2: java.lang.ArithmeticException()  i1: 2  i2: [-5,5]",
    ] {
        let s = parse_state(text, &ctx).unwrap();
        assert_eq!(print_state(&s, &ctx), text);
    }
}

/// Arbitrary well-formed states for the round-trip property.
#[derive(Clone, Debug)]
struct ArbState(State);

impl Arbitrary for ArbState {
    fn arbitrary(g: &mut Gen) -> ArbState {
        let mut s = State::default();
        let n_obj = usize::arbitrary(g) % 5;
        let n_int = usize::arbitrary(g) % 5;
        let ints: Vec<Ref> = (0..n_int)
            .map(|_| {
                let lo = i64::arbitrary(g) % 50;
                let w = u8::arbitrary(g) % 4;
                let iv = match w {
                    0 => Interval::TOP,
                    1 => Interval::literal(lo.into()),
                    2 => Interval::at_least(lo.into()),
                    _ => Interval::new(Some(lo.into()), Some((lo + 3).into())).unwrap(),
                };
                // every primitive kind: int, long, float, double; floats also as literals of
                // any bits (NaN payloads included)
                match u8::arbitrary(g) % 8 {
                    0 => s.new_prim(HeapValue::Long(iv)),
                    1 => s.new_prim(HeapValue::Float(None)),
                    2 => s.new_prim(HeapValue::Double(None)),
                    3 => s.new_prim(HeapValue::Float(Some(u32::arbitrary(g)))),
                    4 => s.new_prim(HeapValue::Double(Some(u64::arbitrary(g)))),
                    _ => s.new_int(iv),
                }
            })
            .collect();
        let objs: Vec<Ref> = (0..n_obj).map(|_| s.fresh_obj()).collect();
        let pick = |g: &mut Gen, v: &[Ref]| -> Ref {
            if v.is_empty() || bool::arbitrary(g) && bool::arbitrary(g) {
                Ref::Null
            } else {
                v[usize::arbitrary(g) % v.len()]
            }
        };
        let int_or_new = |g: &mut Gen, s: &mut State, ints: &[Ref]| -> Ref {
            if ints.is_empty() {
                s.new_int(Interval::TOP)
            } else {
                ints[usize::arbitrary(g) % ints.len()]
            }
        };
        for &o in &objs {
            let v = match u8::arbitrary(g) % 4 {
                0 => HeapValue::Unknown { ty: "List".into() },
                1 => HeapValue::Abstract {
                    ty: "a/b/Tree".into(),
                },
                2 => {
                    // ints, or objects whose runtime array type is exact or a bound
                    let ty = if bool::arbitrary(g) { "[I" } else { "[LList;" };
                    let len = int_or_new(g, &mut s, &ints);
                    let elems = if bool::arbitrary(g) && ty == "[I" {
                        Some(vec![int_or_new(g, &mut s, &ints)])
                    } else {
                        None
                    };
                    HeapValue::array(ty.into(), len, elems, bool::arbitrary(g))
                }
                _ => HeapValue::Object {
                    class: "List".into(),
                    fields: [
                        (FieldKey::plain("next"), pick(g, &objs)),
                        (FieldKey::plain("val"), int_or_new(g, &mut s, &ints)),
                    ]
                    .into(),
                },
            };
            s.heap.insert(o, v);
        }
        let mut f = Frame::new(MethodId::new("a/b/C", "m", "(I)V"), 3);
        f.pc = u32::arbitrary(g) % 300;
        f.locals[0] = Some(pick(g, &objs));
        f.locals[2] = Some(int_or_new(g, &mut s, &ints));
        f.stack = (0..usize::arbitrary(g) % 3)
            .map(|_| pick(g, &objs))
            .collect();
        s.frames.push(f);
        if objs.len() >= 2 {
            let (a, b) = (objs[0], objs[1]);
            s.preds.add_may_equal(a, b);
            s.preds.add_join(a, a);
            s.preds.add_non_tree(b);
            let fs: FieldSet = [FieldKey::plain("next")].into();
            s.preds.add_cyclic(a, fs.clone());
            s.preds.add_must_reach(b, fs, a);
        }
        if bool::arbitrary(g) {
            let r = int_or_new(g, &mut s, &ints);
            s.statics.insert(("a/b/C".into(), "count".into()), r);
        }
        if bool::arbitrary(g) {
            // a program end instead
            let r = s.frames[0].locals[2];
            s.frames.clear();
            s.end = Some(End::Return(r));
        }
        s.gc();
        // heap values of unreachable references are gone; predicates too
        ArbState(s)
    }
}

quickcheck! {
    fn print_parse_roundtrip(s: ArbState) -> bool {
        let ctx = TextContext::plain();
        let text = print_state(&s.0, &ctx);
        match parse_state(&text, &ctx) {
            Ok(back) => back == s.0 && print_state(&back, &ctx) == text,
            Err(e) => panic!("{e}\n{text}"),
        }
    }

    fn parser_never_panics(text: String) -> bool {
        let _ = parse_state(&text, &TextContext::plain());
        true
    }
}

#[test]
fn end_with_frames_is_rejected() {
    let s = parse_state("A.m()V 00 | ε | ε\nend: return", &TextContext::plain());
    assert!(s.is_err());
    let _ = End::Return(None);
}

#[test]
fn longs_and_floats_print_and_parse() {
    let m = MethodId::new("Wide", "f", "(JFD)V");
    let ctx = TextContext::for_method(m, &NoNames);
    let text = "00 | l0: i1, l2: i2, l3: i3, l5: i4 | i5, i6\n\
                i1: ZL  i2: float  i3: double  i4: [≥0]L  i5: -7L  i6: [1,5]L";
    let s = parse_state(text, &ctx).unwrap();
    assert_eq!(s.value(Ref::Int(1)), Some(&HeapValue::Long(Interval::TOP)));
    assert_eq!(s.value(Ref::Int(2)), Some(&HeapValue::Float(None)));
    assert_eq!(s.value(Ref::Int(3)), Some(&HeapValue::Double(None)));
    assert_eq!(
        s.value(Ref::Int(4)),
        Some(&HeapValue::Long(Interval::at_least(0)))
    );
    assert_eq!(
        s.value(Ref::Int(5)),
        Some(&HeapValue::Long(Interval::literal(-7)))
    );
    assert_eq!(print_state(&s, &ctx), text);
    // ASCII interval spellings and the `(-∞,0]` form take the suffix too
    let s = parse_state("00 | ε | i1, i2\ni1: (-inf,0]L  i2: [>0]L", &ctx).unwrap();
    assert_eq!(
        s.value(Ref::Int(1)),
        Some(&HeapValue::Long(Interval::at_most(0)))
    );
    assert_eq!(
        s.value(Ref::Int(2)),
        Some(&HeapValue::Long(Interval::at_least(1)))
    );
    // a primitive behind an object reference is rejected
    assert!(parse_state("00 | ε | o1\no1: float", &ctx).is_err());
}

#[test]
fn float_literals_print_and_parse() {
    let m = MethodId::new("Wide", "f", "(FDFD)V");
    let ctx = TextContext::for_method(m, &NoNames);
    let text = "00 | l0: i1, l1: i2, l3: i3, l4: i4 | ε\n\
                i1: NaNf  i2: -0.0d  i3: 1e-45f  i4: -Infinityd";
    let s = parse_state(text, &ctx).unwrap();
    assert!(
        matches!(s.value(Ref::Int(1)), Some(HeapValue::Float(Some(b))) if f32::from_bits(*b).is_nan())
    );
    assert_eq!(
        s.value(Ref::Int(2)),
        Some(&HeapValue::Double(Some((-0.0f64).to_bits())))
    );
    assert_eq!(
        s.value(Ref::Int(3)),
        Some(&HeapValue::Float(Some(f32::from_bits(1).to_bits())))
    );
    assert_eq!(
        s.value(Ref::Int(4)),
        Some(&HeapValue::Double(Some(f64::NEG_INFINITY.to_bits())))
    );
    assert_eq!(print_state(&s, &ctx), text);
    // `inf` is no jtg spelling: read as a type name, refused
    assert!(parse_state("00 | l0: i1 | ε\ni1: inff", &ctx).is_err());
}

#[test]
fn split_outcomes_print_and_parse_back() {
    let ctx = TextContext::for_method(contains(), &NoNames);
    for (tag, outcome) in [
        ("T:", crate::state::Outcome::T),
        ("F:", crate::state::Outcome::F),
        ("X:", crate::state::Outcome::X),
    ] {
        let text = format!("{tag} 00 | l0: o1, l1: i1 | ε\no1: List(?)  i1: Z");
        let s = parse_state(&text, &ctx).unwrap();
        assert_eq!(s.split, Some(outcome));
        assert_eq!(s.decided(), outcome.holds());
        assert_eq!(print_state(&s, &ctx), text);
    }
}
