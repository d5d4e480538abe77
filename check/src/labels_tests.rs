//! The evaluator label kind by label kind, on hand-written states, witnesses and runs.

use super::*;
use crate::run::Recorded;
use jtg_engine::graph::Narrowing;
use jtg_engine::state::{FlatTypes, Frame, HeapValue, Interval, MethodId};
use jtg_jvm::{CFrame, CObject, ObjId, Step};
use std::collections::BTreeMap;
use std::sync::Arc;

fn int(n: u32) -> Ref {
    Ref::Int(n)
}
fn obj(n: u32) -> Ref {
    Ref::Obj(n)
}

/// A state of one frame of `M.m()V` with these integer and object references.
fn state(ints: &[u32], objs: &[(u32, &str)]) -> State {
    let mut s = State::default();
    s.frames.push(Frame::new(MethodId::new("M", "m", "()V"), 0));
    for &n in ints {
        s.heap.insert(int(n), HeapValue::Int(Interval::TOP));
    }
    for &(n, ty) in objs {
        s.heap.insert(obj(n), HeapValue::Unknown { ty: ty.into() });
    }
    s
}

/// A graph of two nodes and one edge `0 → 1` of `kind` with `labels`.
fn graph(src: State, dst: State, kind: EdgeKind, labels: Vec<Label>) -> Graph {
    let mut g = Graph::new(MethodId::new("M", "m", "()V"), src);
    g.add_node(dst);
    g.add_edge(0, 1, kind, labels);
    g
}

/// A run of two steps in `M.m()V` whose heap has `objects`.
fn run(objects: &[(u32, &str)]) -> Recorded {
    let heap: BTreeMap<ObjId, CObject> = objects
        .iter()
        .map(|&(id, class)| {
            (
                ObjId(id),
                CObject::Instance {
                    class: class.into(),
                    fields: BTreeMap::new(),
                },
            )
        })
        .collect();
    let frame = CFrame {
        class: "M".into(),
        method: "m".into(),
        desc: "()V".into(),
        pc: 0,
        locals: vec![],
        stack: vec![],
    };
    let step = Step {
        frames: vec![frame],
        heap: Arc::new(heap),
        statics: BTreeMap::new(),
        uninit: BTreeMap::new(),
    };
    Recorded {
        steps: vec![step.clone(), step],
        end: TraceEnd::Returned(None),
    }
}

/// Evaluates the one edge's labels (every phase) on witnesses `src` and `dst`.
fn eval(
    g: &Graph,
    src: &[(Ref, CValue)],
    dst: &[(Ref, CValue)],
    sem: IntSemantics,
) -> Result<Evaluated, String> {
    let ev = Evaluator::new(g, &FlatTypes, sem);
    assert_eq!(ev.plan().first_error(), None);
    let (ws, wd) = (
        Witness::of_pairs(src.iter().copied()),
        Witness::of_pairs(dst.iter().copied()),
    );
    let r = run(&[(1, "A"), (2, "B")]);
    let ends = Ends {
        src: &ws,
        dst: Some(&wd),
        run: &r,
        step: 0,
        callee_end: None,
    };
    ev.holds(0, Phase::All, &ends, true)
}

fn neg_graph() -> Graph {
    graph(
        state(&[1], &[]),
        state(&[1, 2], &[]),
        EdgeKind::Eval,
        vec![Label::Arith {
            res: int(2),
            op: IntOp::Neg,
            a: Operand::Ref(int(1)),
            b: None,
        }],
    )
}

#[test]
fn assignment_reads_operands_in_the_source_and_the_result_in_the_target() {
    let g = neg_graph();
    let u = IntSemantics::Unbounded;
    assert!(eval(
        &g,
        &[(int(1), CValue::Int(-5))],
        &[(int(2), CValue::Int(5))],
        u
    )
    .is_ok());
    let why = eval(
        &g,
        &[(int(1), CValue::Int(-5))],
        &[(int(2), CValue::Int(-5))],
        u,
    )
    .unwrap_err();
    assert!(
        why.starts_with("label `i2 = -i1` does not hold: the run has i2 = -5, i1 = -5"),
        "{why}"
    );
    // the target's i1 is not read: the operand is the source's
    assert!(eval(
        &g,
        &[(int(1), CValue::Int(3))],
        &[(int(1), CValue::Int(9)), (int(2), CValue::Int(-3))],
        u
    )
    .is_ok());
}

#[test]
fn assignment_wraps_as_the_result_kind_says_under_java_ints() {
    let g = neg_graph();
    let min = CValue::Int(i32::MIN);
    // -(-2^31) wraps to -2^31 in 32 bits; unbounded it is 2^31, which an int cannot be
    assert!(eval(&g, &[(int(1), min)], &[(int(2), min)], IntSemantics::Java).is_ok());
    assert!(eval(
        &g,
        &[(int(1), min)],
        &[(int(2), min)],
        IntSemantics::Unbounded
    )
    .is_err());
    let lmin = CValue::Long(i64::from(i32::MIN));
    // as a long the same value does not wrap
    assert!(eval(&g, &[(int(1), lmin)], &[(int(2), lmin)], IntSemantics::Java).is_err());
}

#[test]
fn narrowing_keeps_the_low_bits_under_either_integer_model() {
    let g = graph(
        state(&[1], &[]),
        state(&[1, 2], &[]),
        EdgeKind::Eval,
        vec![Label::Narrow {
            res: int(2),
            to: Narrowing::Char,
            a: int(1),
        }],
    );
    for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
        let holds = |a: i32, r: i32| {
            eval(
                &g,
                &[(int(1), CValue::Int(a))],
                &[(int(2), CValue::Int(r))],
                sem,
            )
            .is_ok()
        };
        // (char) 65633 is 'a', (char) -1 is 65535
        assert!(holds(65536 + 97, 97));
        assert!(holds(-1, 65535));
        assert!(holds(120, 120));
        // congruent but out of range, or in range but not congruent
        assert!(!holds(-1, -1));
        assert!(!holds(65536 + 97, 98));
    }
}

#[test]
fn shifts_are_checked_as_the_jvm_shifts() {
    let shift = |op| {
        graph(
            state(&[1], &[]),
            state(&[1, 2], &[]),
            EdgeKind::Eval,
            vec![Label::Arith {
                res: int(2),
                op,
                a: Operand::Ref(int(1)),
                b: Some(Operand::Lit(1)),
            }],
        )
    };
    let (shr, ushr) = (shift(IntOp::Shr), shift(IntOp::Ushr));
    for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
        let x = |v| [(int(1), CValue::Int(v))];
        let r = |v| [(int(2), CValue::Int(v))];
        // -7 >> 1 = -4 (floor), not -3 (truncation)
        assert!(eval(&shr, &x(-7), &r(-4), sem).is_ok());
        assert!(eval(&shr, &x(-7), &r(-3), sem).is_err());
        // -2 >>> 1 = 2^31 - 1 for an int, and 2^63 - 1 for a long
        assert!(eval(&ushr, &x(-2), &r(i32::MAX), sem).is_ok());
        assert!(eval(&ushr, &x(-2), &r(-1), sem).is_err());
        assert!(eval(&ushr, &x(6), &r(3), sem).is_ok());
        let long = |v| [(int(1), CValue::Long(v))];
        let lr = |v| [(int(2), CValue::Long(v))];
        assert!(eval(&ushr, &long(-2), &lr(i64::MAX), sem).is_ok());
        assert!(eval(&ushr, &long(-2), &lr(i64::from(i32::MAX)), sem).is_err());
    }
}

#[test]
fn division_by_zero_fails_and_relations_compare() {
    let div = graph(
        state(&[1, 2], &[]),
        state(&[1, 2, 3], &[]),
        EdgeKind::Eval,
        vec![Label::Arith {
            res: int(3),
            op: IntOp::Div,
            a: Operand::Ref(int(1)),
            b: Some(Operand::Ref(int(2))),
        }],
    );
    let u = IntSemantics::Unbounded;
    let src = [(int(1), CValue::Int(7)), (int(2), CValue::Int(-2))];
    assert!(eval(&div, &src, &[(int(3), CValue::Int(-3))], u).is_ok());
    let zero = [(int(1), CValue::Int(7)), (int(2), CValue::Int(0))];
    assert!(eval(&div, &zero, &[(int(3), CValue::Int(0))], u)
        .unwrap_err()
        .contains("undefined"));
    let rel = graph(
        state(&[1, 2], &[]),
        state(&[1, 2], &[]),
        EdgeKind::Split,
        vec![Label::Rel {
            a: Operand::Ref(int(1)),
            cond: Cond::Lt,
            b: Operand::Ref(int(2)),
        }],
    );
    assert!(eval(&rel, &src, &[], u).is_err());
    assert!(eval(
        &rel,
        &[(int(1), CValue::Int(1)), (int(2), CValue::Int(2))],
        &[],
        u
    )
    .is_ok());
}

#[test]
fn reference_equality_treats_two_nulls_as_equal_and_not_one_object() {
    let src = state(&[], &[(1, "A"), (2, "A")]);
    let label = |equal| {
        graph(
            src.clone(),
            src.clone(),
            EdgeKind::Refine,
            vec![Label::RefEq {
                r: obj(1),
                p: obj(2),
                equal,
            }],
        )
    };
    let u = IntSemantics::Unbounded;
    let (a, b, null) = (CValue::Ref(ObjId(1)), CValue::Ref(ObjId(2)), CValue::Null);
    for (x, y, eq, ne) in [
        (a, a, true, false),
        (a, b, false, true),
        (a, null, false, true),
        (null, null, true, true),
    ] {
        let w = [(obj(1), x), (obj(2), y)];
        assert_eq!(eval(&label(true), &w, &[], u).is_ok(), eq, "{x:?} = {y:?}");
        assert_eq!(eval(&label(false), &w, &[], u).is_ok(), ne, "{x:?} ≠ {y:?}");
    }
}

/// No label over floats can pass: the engine writes none (its floats are coarse), and a graph
/// whose label compares floats — an equality (which for floats would have to be `dcmpl`'s,
/// NaN equal to nothing and `-0.0` to `0.0`, not identity) or a relation — is refused before
/// any run, as an error of the graph.
#[test]
fn labels_over_floats_are_refused() {
    let mut src = state(&[], &[]);
    src.heap.insert(int(1), HeapValue::Double(None));
    src.heap.insert(int(2), HeapValue::Double(None));
    let labels = [
        (
            Label::RefEq {
                r: int(1),
                p: int(2),
                equal: true,
            },
            "not an object reference",
        ),
        (
            Label::Rel {
                a: Operand::Ref(int(1)),
                cond: Cond::Le,
                b: Operand::Lit(0),
            },
            "not an integer",
        ),
    ];
    for (label, why) in labels {
        let g = graph(src.clone(), src.clone(), EdgeKind::Refine, vec![label]);
        let ev = Evaluator::new(&g, &FlatTypes, IntSemantics::Unbounded);
        let refused = ev.plan().first_error();
        assert!(refused.is_some_and(|e| e.contains(why)), "{refused:?}");
    }
}

#[test]
fn instance_refinement_names_the_fresh_object_of_the_target() {
    // `o1 = o5`: o1 of the source, o5 (fresh) of the target
    let g = graph(
        state(&[], &[(1, "A")]),
        state(&[], &[(5, "A")]),
        EdgeKind::Refine,
        vec![Label::RefEq {
            r: obj(1),
            p: obj(5),
            equal: true,
        }],
    );
    let u = IntSemantics::Unbounded;
    let (a, b) = (CValue::Ref(ObjId(1)), CValue::Ref(ObjId(2)));
    assert!(eval(&g, &[(obj(1), a)], &[(obj(5), a)], u).is_ok());
    assert!(eval(&g, &[(obj(1), a)], &[(obj(5), b)], u).is_err());
    // `o1 = null` and `o1 exists`
    let null = graph(
        state(&[], &[(1, "A")]),
        state(&[], &[]),
        EdgeKind::Refine,
        vec![Label::RefEq {
            r: obj(1),
            p: Ref::Null,
            equal: true,
        }],
    );
    assert!(eval(&null, &[(obj(1), CValue::Null)], &[], u).is_ok());
    assert!(eval(&null, &[(obj(1), a)], &[], u).is_err());
    let exists = graph(
        state(&[], &[(1, "A")]),
        state(&[], &[(1, "A")]),
        EdgeKind::Refine,
        vec![Label::Exists { r: obj(1) }],
    );
    assert!(eval(&exists, &[(obj(1), a)], &[], u).is_ok());
    assert!(eval(&exists, &[(obj(1), CValue::Null)], &[], u).is_err());
}

#[test]
fn type_labels_read_the_runtime_class() {
    let g = |holds| {
        graph(
            state(&[], &[(1, "java/lang/Object")]),
            state(&[], &[(1, "java/lang/Object")]),
            EdgeKind::Refine,
            vec![Label::Type {
                r: obj(1),
                ty: "A".into(),
                holds,
            }],
        )
    };
    let u = IntSemantics::Unbounded;
    // the run's object 1 is an A, object 2 a B
    let (a, b) = (CValue::Ref(ObjId(1)), CValue::Ref(ObjId(2)));
    assert!(eval(&g(true), &[(obj(1), a)], &[], u).is_ok());
    assert!(eval(&g(true), &[(obj(1), b)], &[], u).is_err());
    assert!(eval(&g(false), &[(obj(1), b)], &[], u).is_ok());
    assert!(eval(&g(false), &[(obj(1), a)], &[], u).is_err());
    assert!(eval(&g(false), &[(obj(1), CValue::Null)], &[], u).is_err());
}

#[test]
fn an_unbound_reference_is_counted_not_checked() {
    let g = neg_graph();
    let r = eval(
        &g,
        &[],
        &[(int(2), CValue::Int(5))],
        IntSemantics::Unbounded,
    );
    assert_eq!(r, Ok(Evaluated { unbound: 1 }));
}

#[test]
fn the_plan_refuses_references_in_no_state_and_labels_on_the_wrong_edge() {
    let bad = |g: &Graph| LabelPlan::of(g).first_error().map(str::to_string);
    let mut g = neg_graph();
    g.edges[0].labels = vec![Label::Arith {
        res: int(2),
        op: IntOp::Neg,
        a: Operand::Ref(int(9)),
        b: None,
    }];
    assert_eq!(
        bad(&g).as_deref(),
        Some("edge 0 (0 → 1): label `i2 = -i9` names i9, which is not in the source state")
    );
    // a relation may name the step's result (a library call's contract, read in the
    // target), but not a reference of neither state
    g.edges[0].labels = vec![Label::Rel {
        a: Operand::Ref(int(2)),
        cond: Cond::Lt,
        b: Operand::Lit(0),
    }];
    assert_eq!(bad(&g), None);
    g.edges[0].labels = vec![Label::Rel {
        a: Operand::Ref(int(9)),
        cond: Cond::Lt,
        b: Operand::Lit(0),
    }];
    assert!(bad(&g)
        .unwrap()
        .contains("names i9, which is in neither state"));
    // a refinement label on an eval edge
    g.edges[0].labels = vec![Label::Exists { r: obj(1) }];
    assert!(bad(&g).unwrap().contains("cannot stand on a eval edge"));
    // an abstract call whose target is no entry state of the callee
    g.edges[0].kind = EdgeKind::Call;
    g.edges[0].labels = vec![Label::AbstractCall {
        callee: MethodId::new("M", "other", "()V"),
    }];
    assert!(bad(&g).unwrap().contains("no entry state of M.other()V"));
    // an object label on an integer
    let mut r = graph(state(&[1], &[]), state(&[1], &[]), EdgeKind::Refine, vec![]);
    r.edges[0].labels = vec![Label::Exists { r: int(1) }];
    assert!(bad(&r).unwrap().contains("not an object reference"));
    // in neither state
    r.edges[0].labels = vec![Label::RefEq {
        r: obj(3),
        p: Ref::Null,
        equal: true,
    }];
    assert!(bad(&r)
        .unwrap()
        .contains("names o3, which is in neither state"));
}

#[test]
fn abstract_call_returns_and_throws() {
    let callee = MethodId::new("M", "m", "()V");
    let mut entry = State::default();
    entry.frames.push(Frame::new(callee.clone(), 0));
    let mut g = graph(
        state(&[], &[]),
        entry,
        EdgeKind::Call,
        vec![Label::AbstractCall {
            callee: callee.clone(),
        }],
    );
    let after = g.add_node(state(&[], &[]));
    g.add_edge(
        0,
        after,
        EdgeKind::Return,
        vec![Label::Returned {
            callee: callee.clone(),
        }],
    );
    g.add_edge(
        0,
        after,
        EdgeKind::Return,
        vec![Label::Thrown {
            class: "A".into(),
            callee,
        }],
    );
    let ev = Evaluator::new(&g, &FlatTypes, IntSemantics::Unbounded);
    assert_eq!(ev.plan().first_error(), None);
    let r = run(&[(1, "A"), (2, "B")]);
    let w = Witness::default();
    let at = |callee_end| Ends {
        src: &w,
        dst: Some(&w),
        run: &r,
        step: 0,
        callee_end,
    };
    // the run's next step is in M.m()V
    assert!(ev.holds(0, Phase::All, &at(None), true).is_ok());
    let mut returned = State::default();
    returned.end = Some(End::Return(None));
    let mut threw = State::default();
    threw.end = Some(End::Throw(obj(1)));
    threw
        .heap
        .insert(obj(1), HeapValue::Abstract { ty: "A".into() });
    let thrown_a = Witness::of_pairs([(obj(1), CValue::Ref(ObjId(1)))]);
    let thrown_b = Witness::of_pairs([(obj(1), CValue::Ref(ObjId(2)))]);
    assert!(ev
        .holds(1, Phase::All, &at(Some((&returned, &w))), true)
        .is_ok());
    assert!(ev
        .holds(1, Phase::All, &at(Some((&threw, &thrown_a))), true)
        .is_err());
    assert!(ev
        .holds(2, Phase::All, &at(Some((&threw, &thrown_a))), true)
        .is_ok());
    let why = ev
        .holds(2, Phase::All, &at(Some((&threw, &thrown_b))), true)
        .unwrap_err();
    assert!(why.contains("an exception of class B"), "{why}");
    assert!(ev
        .holds(2, Phase::All, &at(Some((&returned, &w))), true)
        .is_err());
}

/// An exception that leaves the callee and the whole run: its class is the run's end's, even
/// where the run never saw the object.
#[test]
fn thrown_at_the_end_of_the_run_reads_the_runs_exception() {
    let callee = MethodId::new("M", "m", "()V");
    let mut entry = State::default();
    entry.frames.push(Frame::new(callee.clone(), 0));
    let mut g = graph(
        state(&[], &[]),
        entry,
        EdgeKind::Call,
        vec![Label::AbstractCall {
            callee: callee.clone(),
        }],
    );
    let after = g.add_node(state(&[], &[]));
    g.add_edge(
        0,
        after,
        EdgeKind::Return,
        vec![Label::Thrown {
            class: "A".into(),
            callee,
        }],
    );
    let ev = Evaluator::new(&g, &FlatTypes, IntSemantics::Unbounded);
    let mut r = run(&[]);
    r.end = TraceEnd::Threw {
        class: "A".into(),
        obj: None,
    };
    let mut threw = State::default();
    threw.end = Some(End::Throw(obj(1)));
    threw
        .heap
        .insert(obj(1), HeapValue::Abstract { ty: "A".into() });
    let w = Witness::default();
    let ends = Ends {
        src: &w,
        dst: Some(&w),
        run: &r,
        step: r.steps.len(),
        callee_end: Some((&threw, &w)),
    };
    assert!(ev.holds(1, Phase::All, &ends, true).is_ok());
    let mut other = r.clone();
    other.end = TraceEnd::Threw {
        class: "B".into(),
        obj: None,
    };
    let ends = Ends {
        run: &other,
        step: other.steps.len(),
        ..ends
    };
    assert!(ev.holds(1, Phase::All, &ends, true).is_err());
}
