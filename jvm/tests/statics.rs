//! Static fields in inputs (`ConcreteInput::statics`, fixture `StaticInput`): set before the
//! run, known to the trace from step 0 (aliases included), refused with a clear error where the
//! JVM cannot set them, and never seen by a later run.

mod common;
use common::fixtures;

use std::collections::BTreeMap;

use jtg_jvm::{
    trace_batch, trace_method, CHeap, CObject, CStatics, CValue, ConcreteInput, JvmError, ObjId,
    StaticKey, Trace, TraceEnd, TraceOptions,
};

fn node(val: i32) -> CObject {
    CObject::Instance {
        class: "StaticInput".into(),
        fields: BTreeMap::from([("val".to_string(), CValue::Int(val))]),
    }
}

/// `clearShared(o1)` with `o1.val = 5` and the given statics.
fn input(statics: &[(&str, CValue)]) -> ConcreteInput {
    ConcreteInput {
        args: vec![CValue::Ref(ObjId(1))],
        heap: CHeap::from([(ObjId(1), node(5)), (ObjId(2), node(7))]),
        statics: statics
            .iter()
            .map(|(name, v)| (StaticKey::new("StaticInput", *name), *v))
            .collect(),
    }
}

fn run(input: &ConcreteInput) -> Result<Trace, JvmError> {
    trace_method(
        &[fixtures()],
        "StaticInput",
        "clearShared",
        "(LStaticInput;)I",
        input,
        &TraceOptions::default(),
    )
}

fn key(name: &str) -> StaticKey {
    StaticKey::new("StaticInput", name)
}

#[test]
fn a_static_aliasing_a_parameter_is_visible_in_step_0() {
    let t = run(&input(&[
        ("shared", CValue::Ref(ObjId(1))),
        ("count", CValue::Int(2)),
    ]))
    .expect("trace");
    let s0 = t.step(0);
    let p = s0.frames[0].locals[0];
    assert!(matches!(p, CValue::Ref(_)), "{p:?}");
    assert_eq!(
        s0.statics,
        CStatics::from([(key("count"), CValue::Int(2)), (key("shared"), p)])
    );
    assert_eq!(t.statics_at(0), s0.statics);
    // the object is the parameter's: the run clears it
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(2))));

    // not aliased: another object, reachable only from the static
    let t = run(&input(&[("shared", CValue::Ref(ObjId(2)))])).expect("trace");
    let s0 = t.step(0);
    let CValue::Ref(shared) = s0.statics[&key("shared")] else {
        panic!("{:?}", s0.statics)
    };
    assert_ne!(CValue::Ref(shared), s0.frames[0].locals[0]);
    assert_eq!(
        s0.heap[&shared],
        node(7),
        "objects of statics are in the step's heap"
    );
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(5))));
}

#[test]
fn a_run_after_one_with_statics_sees_the_initial_statics() {
    let with = input(&[("shared", CValue::Ref(ObjId(1))), ("count", CValue::Int(2))]);
    let without = input(&[]);
    let ends: Vec<TraceEnd> = trace_batch(
        &[fixtures()],
        "StaticInput",
        "clearShared",
        "(LStaticInput;)I",
        &[without.clone(), with, without.clone(), without],
        &TraceOptions::default(),
    )
    .into_iter()
    .map(|t| t.expect("trace").end)
    .collect();
    let ret = |v| TraceEnd::Returned(Some(CValue::Int(v)));
    assert_eq!(ends, [ret(5), ret(2), ret(5), ret(5)]);
    let t = run(&input(&[])).expect("trace");
    assert!(t.statics_at(0).is_empty());
}

#[test]
fn statics_the_jvm_cannot_set_are_bad_inputs() {
    let refused = |statics: &[(&str, CValue)]| match run(&input(statics)) {
        Err(JvmError::BadInput(m)) => m,
        other => panic!("{statics:?}: {other:?}"),
    };
    let m = refused(&[("LIMIT", CValue::Int(4))]);
    assert!(
        m.contains("StaticInput.LIMIT") && m.contains("final"),
        "{m}"
    );
    let m = refused(&[("missing", CValue::Int(4))]);
    assert!(m.contains("no field missing"), "{m}");
    let m = refused(&[("val", CValue::Int(4))]);
    assert!(m.contains("not a static field"), "{m}");
    let m = refused(&[("count", CValue::Ref(ObjId(1)))]);
    assert!(m.contains("count") && m.contains("cannot hold"), "{m}");
    let m = refused(&[("shared", CValue::Long(1))]);
    assert!(m.contains("cannot hold"), "{m}");
    // a reference to an object the input does not have
    let m = refused(&[("shared", CValue::Ref(ObjId(9)))]);
    assert!(m.contains("static field StaticInput.shared"), "{m}");
    // and the next run works
    let t = run(&input(&[])).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(5))));
}

/// `Lib.checked(x)` (`assert x > 0`) on `x = 0` with the given `$assertionsDisabled`.
fn checked(status: &[Option<i32>]) -> Vec<TraceEnd> {
    let inputs: Vec<ConcreteInput> = status
        .iter()
        .map(|s| ConcreteInput {
            args: vec![CValue::Int(0)],
            heap: CHeap::new(),
            statics: s
                .iter()
                .map(|v| {
                    (
                        StaticKey::new("Lib", "$assertionsDisabled"),
                        CValue::Int(*v),
                    )
                })
                .collect(),
        })
        .collect();
    trace_batch(
        &[fixtures()],
        "Lib",
        "checked",
        "(I)I",
        &inputs,
        &TraceOptions::default(),
    )
    .into_iter()
    .map(|t| t.expect("trace").end)
    .collect()
}

#[test]
fn the_assertion_status_is_an_input_given_by_the_runs_loader() {
    // javac's final `$assertionsDisabled` is never set: the run's loader gives the class the
    // status the input asks for, in any order within one batch
    let ends = checked(&[None, Some(1), Some(0), Some(1), Some(1), None]);
    let threw = |e: &TraceEnd| matches!(e, TraceEnd::Threw { class, .. } if class == "java/lang/AssertionError");
    let returned = TraceEnd::Returned(Some(CValue::Int(-1)));
    assert!(threw(&ends[0]), "{:?}", ends[0]);
    assert_eq!(ends[1], returned);
    assert!(threw(&ends[2]), "{:?}", ends[2]);
    assert_eq!(ends[3], returned);
    assert_eq!(ends[4], returned);
    assert!(threw(&ends[5]), "{:?}", ends[5]);
    // another value of the boolean is no status: the class's own value (0) differs, the run fails
    let bad = trace_method(
        &[fixtures()],
        "Lib",
        "checked",
        "(I)I",
        &ConcreteInput {
            args: vec![CValue::Int(0)],
            heap: CHeap::new(),
            statics: CStatics::from([(
                StaticKey::new("Lib", "$assertionsDisabled"),
                CValue::Int(2),
            )]),
        },
        &TraceOptions::default(),
    );
    assert!(bad.is_err(), "{bad:?}");
}
