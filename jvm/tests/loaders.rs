//! Loader and instrumentation caching (`jvm/src/run.rs`): a stateless program reuses one
//! loader and instruments each class once; a run never sees static state left by an earlier
//! run. One test function, so that no other test of this binary creates loaders meanwhile.

mod common;
use common::fixtures;

use std::collections::BTreeMap;

use jtg_jvm::{
    trace_batch, trace_method, tracer_stats, CHeap, CObject, CValue, ConcreteInput, ObjId,
    TraceEnd, TraceOptions,
};

fn returned(class: &str, method: &str, desc: &str, inputs: &[ConcreteInput]) -> Vec<TraceEnd> {
    trace_batch(
        &[fixtures()],
        class,
        method,
        desc,
        inputs,
        &TraceOptions::default(),
    )
    .into_iter()
    .map(|t| t.expect("trace").end)
    .collect()
}

fn int(v: i32) -> TraceEnd {
    TraceEnd::Returned(Some(CValue::Int(v)))
}

fn one_node(val: i32) -> ConcreteInput {
    let node = CObject::Instance {
        class: "List".into(),
        fields: BTreeMap::from([
            ("val".to_string(), CValue::Int(val)),
            ("next".to_string(), CValue::Null),
        ]),
    };
    ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(7)],
        heap: CHeap::from([(ObjId(1), node)]),
        ..Default::default()
    }
}

#[test]
fn loaders_are_reused_only_without_static_state() {
    let none = ConcreteInput::default();
    let three = vec![none.clone(), none.clone(), none.clone()];

    // a stateless class: after the first run, neither loaders nor instrumentation again
    let cp = [fixtures()];
    let contains = |inputs: &[ConcreteInput]| {
        trace_batch(
            &cp,
            "List",
            "contains",
            "(LList;I)Z",
            inputs,
            &TraceOptions::default(),
        )
        .into_iter()
        .map(|t| t.expect("trace").end)
        .collect::<Vec<_>>()
    };
    assert_eq!(
        contains(&[one_node(7)]),
        [TraceEnd::Returned(Some(CValue::Int(1)))]
    );
    let before = tracer_stats().expect("stats");
    let ends = contains(&[one_node(7), one_node(8), one_node(7)]);
    assert_eq!(
        ends,
        [1, 0, 1].map(|b| TraceEnd::Returned(Some(CValue::Int(b))))
    );
    trace_method(
        &cp,
        "List",
        "contains",
        "(LList;I)Z",
        &one_node(1),
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(tracer_stats().expect("stats"), before, "List is stateless");

    // a static counter without initializer (putstatic): every run starts from 0
    assert_eq!(
        returned("Loop", "bump", "()I", &three),
        [int(1), int(1), int(1)]
    );
    // ... and single runs, after other runs in the same loader
    for _ in 0..2 {
        let t = trace_method(&cp, "Loop", "bump", "()I", &none, &TraceOptions::default());
        assert_eq!(t.expect("trace").end, int(1));
    }
    // a static initializer: every run starts from its value
    assert_eq!(
        returned("StaticState", "next", "()I", &three),
        [int(42), int(42), int(42)]
    );
    // a putstatic into another class's field
    assert_eq!(
        returned("Poke", "poke", "()I", &three),
        [int(1), int(1), int(1)]
    );
    // a static initializer that fails: the class is erroneous only in the loader that ran it,
    // so every run sees the initializer fail, never the NoClassDefFoundError of a reused loader
    let ends = returned("BadInit", "get", "()I", &three);
    for e in &ends {
        match e {
            TraceEnd::Threw { class, .. } => {
                assert_eq!(class, "java/lang/ExceptionInInitializerError")
            }
            other => panic!("BadInit.get: {other:?}"),
        }
    }
    // the stateless program gets a loader again, and keeps it
    contains(&[one_node(7)]);
    let after = tracer_stats().expect("stats");
    contains(&[one_node(7), one_node(8)]);
    assert_eq!(tracer_stats().expect("stats"), after);
}
