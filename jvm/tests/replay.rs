//! End-to-end tests of the tracer's heap replay against the Java fixtures (`make fixtures`):
//! snapshots of the replayed heap, objects under construction, array stores, strings and wide
//! values, materialised steps and views.

mod common;
use common::{field, first_at, list, run};

use std::collections::BTreeMap;

use jtg_jvm::{CHeap, CObject, CValue, ConcreteInput, JvmError, ObjId, TraceEnd, TraceOptions};

#[test]
fn replayed_heap_matches_snapshots_for_in_place_reverse() {
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1))],
        heap: list("Mutate", &[1, 2, 3, 4, 5, 6], None),
        ..Default::default()
    };
    for seed in 0..4 {
        let opts = TraceOptions {
            verify_replay: Some(seed),
            ..TraceOptions::default()
        };
        let t = run("Mutate", "reverse", "(LMutate;)LMutate;", &input, &opts).expect("trace");
        assert!(
            t.verified_snapshots >= 3,
            "only {} snapshots",
            t.verified_snapshots
        );
        let TraceEnd::Returned(Some(head)) = t.end else {
            panic!("{:?}", t.end)
        };
        // last step (areturn): prev on the stack is the reversed list
        let s = t.step(t.len() - 1);
        assert_eq!(s.frames[0].stack, vec![head]);
        let mut vals = Vec::new();
        let mut cur = head;
        while cur != CValue::Null {
            vals.push(field(&s.heap, cur, "val"));
            cur = field(&s.heap, cur, "next");
        }
        assert_eq!(vals, [6, 5, 4, 3, 2, 1].map(CValue::Int));
        // and the first step still shows the original order (values as of that step)
        let s0 = t.step(0);
        let first = s0.frames[0].locals[0];
        assert_eq!(
            field(&s0.heap, field(&s0.heap, first, "next"), "val"),
            CValue::Int(2)
        );
    }
}

/// An inner class's constructor writes `this$0` before `super()`, when the object is not
/// recorded yet (TPDB Costa_Julia_09/LinkedList.jar): the replay skips that write and the
/// object's first sight, after `super()` returns, already has the field.
#[test]
fn replay_skips_writes_to_an_object_before_its_super_constructor() {
    let opts = TraceOptions {
        verify_replay: Some(3),
        ..TraceOptions::default()
    };
    let input = ConcreteInput {
        args: vec![CValue::Int(3)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Outer", "make", "(I)I", &input, &opts).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(3))));
    let s = t.step(first_at(&t, "Outer$Cell", "get", 0));
    let cell = s.frames[0].locals[0];
    let outer = field(&s.heap, cell, "this$0");
    assert_eq!(field(&s.heap, outer, "v"), CValue::Int(3));
    let write = first_at(&t, "Outer$Cell", "<init>", 2); // the early putfield
    assert!(matches!(t.top_frame(write).stack[1], CValue::Uninit(_)));
}

/// `new Outer(x > 0 ? x : -x)`: a stack map frame after the branch names the object under
/// construction by the offset of its `new`; the instrumented class keeps that offset pointing
/// at the `new` (not at its probe), or the JVM rejects the class.
#[test]
fn a_new_object_across_a_branch_keeps_its_stack_map_offset() {
    let opts = TraceOptions {
        verify_replay: Some(5),
        ..TraceOptions::default()
    };
    for (x, want) in [(4, 4), (-6, 6)] {
        let input = ConcreteInput {
            args: vec![CValue::Int(x)],
            heap: CHeap::new(),
            ..Default::default()
        };
        let t = run("Outer", "pick", "(I)I", &input, &opts).expect("trace");
        assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(want))));
        assert!(
            (0..t.len()).any(|i| t.position(i) == ("Outer", "<init>", 0)),
            "the constructor is traced"
        );
    }
}

/// The number of an object under construction, panicking on any other value.
#[track_caller]
fn uninit(v: CValue) -> u32 {
    match v {
        CValue::Uninit(n) => n,
        v => panic!("{v:?} is not an object under construction"),
    }
}

/// `Outer.make(3)`: `new Outer; dup; invokespecial Outer.<init>`, then `o.new Cell()`, whose
/// constructor writes `this$0` before `super()`. Every object under construction has one
/// number per step, shared by the caller's copies and the constructor's `this`, and prints as
/// one reference `oN: C(…)`.
#[test]
fn objects_under_construction_are_one_numbered_object_per_step() {
    let input = ConcreteInput {
        args: vec![CValue::Int(3)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Outer", "make", "(I)I", &input, &TraceOptions::default()).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(3))));
    let at = |class: &str, method: &str, pc: u32| first_at(&t, class, method, pc);

    // after `new Outer; dup`: both stack entries are the same object
    let dup = at("Outer", "make", 4);
    let s = t.step(dup);
    let [a, b] = s.frames[0].stack[..] else {
        panic!("{:?}", s.frames[0].stack)
    };
    let n = uninit(a);
    assert_eq!(uninit(b), n);
    assert_eq!(s.uninit[&n].class, "Outer");
    assert_eq!(s.uninit[&n].init, None);
    assert_eq!(t.top_frame(dup).stack[0], t.top_frame(dup).stack[1]);

    // the constructor's `this` is the object the caller still holds a copy of
    let s = t.step(at("Outer", "<init>", 0));
    assert_eq!(s.frames.len(), 2);
    let n = uninit(s.frames[0].locals[0]);
    assert_eq!(s.frames[1].pc, 4);
    assert_eq!(s.frames[1].stack, vec![CValue::Uninit(n)]);
    assert_eq!(s.uninit.len(), 1);
    // past `super()` the constructor holds the object itself: the caller's copy is that object
    let s = t.step(at("Outer", "<init>", 4));
    let CValue::Ref(id) = s.frames[0].locals[0] else {
        panic!("{:?}", s.frames[0].locals)
    };
    let n = uninit(s.frames[1].stack[0]);
    assert_eq!(s.uninit[&n].init, Some(id));

    // Outer$Cell.<init> pc 2 (putfield this$0 before super()): the receiver is `this`, the
    // object of the caller's `new Outer$Cell`
    let w = at("Outer$Cell", "<init>", 2);
    let s = t.step(w);
    let n = uninit(s.frames[0].stack[1]);
    assert_eq!(s.frames[0].locals[0], CValue::Uninit(n));
    assert_eq!(s.frames[1].stack, vec![CValue::Uninit(n)]);
    assert_eq!(s.uninit[&n].class, "Outer$Cell");
    assert!(matches!(s.frames[0].stack[0], CValue::Ref(_)));
    assert!(matches!(t.top_frame(w).stack[1], CValue::Uninit(_)));
}

/// `new Outer$Sub(x)`: Sub's constructor runs the superclass constructor Outer(int), whose
/// `this` is the same object under construction; once Outer(int) is past `super()` it holds the
/// object itself, which the frames below still hold as uninitialized.
#[test]
fn a_superclass_constructor_shares_the_object_under_construction() {
    let input = ConcreteInput {
        args: vec![CValue::Int(5)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Outer", "chain", "(I)I", &input, &TraceOptions::default()).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(11))));
    let at = |pc: u32| first_at(&t, "Outer", "<init>", pc);
    let s = t.step(at(0));
    let methods: Vec<&str> = s.frames.iter().map(|f| &*f.class).collect();
    assert_eq!(methods, ["Outer", "Outer$Sub", "Outer"]);
    let n = uninit(s.frames[0].locals[0]);
    assert_eq!(s.frames[1].locals[0], CValue::Uninit(n));
    assert_eq!(s.frames[2].stack, vec![CValue::Uninit(n)]);
    assert_eq!(s.uninit.len(), 1);
    assert_eq!(s.uninit[&n].class, "Outer$Sub", "the class of the `new`");

    let s = t.step(at(4));
    let CValue::Ref(ObjId(id)) = s.frames[0].locals[0] else {
        panic!("{:?}", s.frames[0].locals)
    };
    let n = uninit(s.frames[1].locals[0]);
    assert_eq!(s.frames[2].stack, vec![CValue::Uninit(n)]);
    assert_eq!(s.uninit[&n].init, Some(ObjId(id)));
}

#[test]
fn replay_handles_new_objects_and_array_stores() {
    let opts = TraceOptions {
        verify_replay: Some(7),
        ..TraceOptions::default()
    };
    let t = run(
        "Mutate",
        "build",
        "(I)LMutate;",
        &ConcreteInput {
            args: vec![CValue::Int(4)],
            heap: CHeap::new(),
            ..Default::default()
        },
        &opts,
    )
    .expect("trace");
    assert!(t.verified_snapshots > 0);
    let s = t.step(t.len() - 1);
    let TraceEnd::Returned(Some(h)) = t.end else {
        panic!("{:?}", t.end)
    };
    assert_eq!(field(&s.heap, h, "val"), CValue::Int(3));
    assert!(
        t.steps().any(|s| s.frames[0]
            .stack
            .iter()
            .any(|v| matches!(v, CValue::Uninit(_)))),
        "new shows an uninitialised ref"
    );
    assert!(
        t.steps()
            .any(|s| s.frames.len() == 2 && &*s.frames[0].method == "<init>"),
        "constructor frames traced"
    );

    let t = run(
        "Mutate",
        "squares",
        "(I)[I",
        &ConcreteInput {
            args: vec![CValue::Int(5)],
            heap: CHeap::new(),
            ..Default::default()
        },
        &opts,
    )
    .expect("trace");
    let TraceEnd::Returned(Some(CValue::Ref(a))) = t.end else {
        panic!("{:?}", t.end)
    };
    let h = t.heap_at(t.len() - 1);
    assert_eq!(
        h[&a],
        CObject::Array {
            elem: "I".into(),
            elems: [0, 1, 4, 9, 16].map(CValue::Int).into_iter().collect()
        }
    );
}

#[test]
fn replay_check_detects_writes_by_uninstrumented_code() {
    let arr = CObject::Array {
        elem: "I".into(),
        elems: (0..12).map(CValue::Int).collect(),
    };
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1))],
        heap: CHeap::from([(ObjId(1), arr)]),
        ..Default::default()
    };
    let opts = TraceOptions {
        verify_replay: Some(1),
        ..TraceOptions::default()
    };
    match run("Mutate", "copyBlind", "([I)I", &input, &opts) {
        Err(JvmError::ReplayMismatch { detail, .. }) => {
            assert!(detail.contains("snapshot"), "{detail}")
        }
        other => panic!("IntBuffer.put writes must be flagged, got {other:?}"),
    }
    // without verification the run itself is fine (the blind spot is documented)
    let t = run(
        "Mutate",
        "copyBlind",
        "([I)I",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Returned(Some(CValue::Int(77 + (1..12).sum::<i32>())))
    );
}

#[test]
fn strings_arrays_sharing_and_wide_values() {
    let mut heap = CHeap::new();
    heap.insert(ObjId(1), CObject::Str { len: 3 });
    heap.insert(ObjId(2), CObject::Str { len: 5 });
    let elems = [
        CValue::Ref(ObjId(1)),
        CValue::Ref(ObjId(2)),
        CValue::Ref(ObjId(1)),
    ]
    .into_iter()
    .collect();
    heap.insert(
        ObjId(3),
        CObject::Array {
            elem: "Ljava/lang/String;".into(),
            elems,
        },
    );
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(3))],
        heap: heap.clone(),
        ..Default::default()
    };
    let t = run(
        "Inputs",
        "lens",
        "([Ljava/lang/String;)I",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(11))));
    let s0 = t.step(0);
    let CValue::Ref(a) = s0.frames[0].locals[0] else {
        panic!()
    };
    let CObject::Array { elem, elems } = &s0.heap[&a] else {
        panic!()
    };
    assert_eq!(elem, "Ljava/lang/String;");
    assert_eq!(elems[0], elems[2], "sharing preserved");
    assert_ne!(elems[0], elems[1]);
    let CValue::Ref(s) = elems[1] else { panic!() };
    assert_eq!(s0.heap[&s], CObject::Str { len: 5 });

    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Ref(ObjId(1))],
        heap: heap.clone(),
        ..Default::default()
    };
    let t = run(
        "Inputs",
        "same",
        "(Ljava/lang/Object;Ljava/lang/Object;)I",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(1))));

    let args = vec![
        CValue::Long(1 << 40),
        CValue::Double(2.5f64.to_bits()),
        CValue::Float(3.0f32.to_bits()),
    ];
    let t = run(
        "Inputs",
        "wide",
        "(JDF)J",
        &ConcreteInput {
            args,
            heap: CHeap::new(),
            ..Default::default()
        },
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Long((1 << 40) + 5))));
    let f = t.top_frame(0);
    assert_eq!(
        f.locals,
        vec![
            CValue::Long(1 << 40),
            CValue::Top,
            CValue::Double(2.5f64.to_bits()),
            CValue::Top,
            CValue::Float(3.0f32.to_bits()),
            CValue::Top,
            CValue::Top
        ]
    );
    // lload_0 then dload_2: one stack entry each
    assert_eq!(
        t.top_frame(2).stack,
        vec![CValue::Double(2.5f64.to_bits()), CValue::Long(1 << 40)]
    );
}

/// Runs that write fields (in-place reverse), create objects and store into arrays (build),
/// and only read (get on a cyclic list).
fn heap_runs() -> Vec<(&'static str, &'static str, &'static str, ConcreteInput)> {
    vec![
        (
            "Mutate",
            "reverse",
            "(LMutate;)LMutate;",
            ConcreteInput {
                args: vec![CValue::Ref(ObjId(1))],
                heap: list("Mutate", &[1, 2, 3, 4], None),
                ..Default::default()
            },
        ),
        (
            "Mutate",
            "build",
            "(I)LMutate;",
            ConcreteInput {
                args: vec![CValue::Int(4)],
                heap: CHeap::new(),
                ..Default::default()
            },
        ),
        (
            "List",
            "get",
            "(I)I",
            ConcreteInput {
                args: vec![CValue::Ref(ObjId(1)), CValue::Int(7)],
                heap: list("List", &[1, 2, 3], Some(0)),
                ..Default::default()
            },
        ),
    ]
}

/// `Trace::step_after` (a step materialised from the one before, sharing its heap where
/// nothing was written) is `Trace::step`, for every step and frame count, on `heap_runs`
/// (get on a cyclic list only reads: consecutive steps then share one heap).
#[test]
fn steps_materialised_from_the_step_before_are_the_steps() {
    let runs = heap_runs();
    for (class, method, desc, input) in runs {
        let t = run(class, method, desc, &input, &TraceOptions::default()).expect("trace");
        let mut shared = 0;
        for k in [usize::MAX, 1] {
            let mut prev = t.step(0);
            for i in 1..t.len() {
                let s = t.step_after(i, k, (i - 1, &prev));
                let direct = if k == usize::MAX {
                    t.step(i)
                } else {
                    t.top_step(i, k)
                };
                assert_eq!(s, direct, "{class}.{method} step {i}, {k} frames");
                shared += usize::from(std::sync::Arc::ptr_eq(&s.heap, &prev.heap));
                prev = s;
            }
        }
        let steps: Vec<_> = t.steps().collect();
        assert_eq!(steps, (0..t.len()).map(|i| t.step(i)).collect::<Vec<_>>());
        if method == "get" {
            // a read-only loop: most steps reuse the heap of the step before
            assert!(shared > t.len(), "{shared} shared of 2 × {}", t.len());
        }
    }
}

/// The checker's view of a step (`Trace::view_after`) has the step's frames and every object
/// the step reaches with its values at the step, whichever view it was built from: the one of
/// the step before, one far before or after (the matcher backtracks), or none; views with
/// equal keys have equal objects.
#[test]
fn views_hold_every_reachable_object_as_of_the_step() {
    for (class, method, desc, input) in heap_runs() {
        let t = run(class, method, desc, &input, &TraceOptions::default()).expect("trace");
        let n = t.len();
        for k in [usize::MAX, 1] {
            let direct = |i: usize| {
                if k == usize::MAX {
                    t.step(i)
                } else {
                    t.top_step(i, k)
                }
            };
            // forward one step at a time, then jumps back and forth
            let order = (0..n)
                .chain((0..n).rev().step_by(7))
                .chain((0..n).step_by(5));
            let mut prev: Option<(usize, jtg_jvm::StepView)> = None;
            let mut by_key: BTreeMap<u32, usize> = BTreeMap::new();
            for i in order {
                let v = t.view_after(i, k, prev.as_ref().map(|(j, v)| (*j, v)));
                let s = direct(i);
                assert_eq!(v.frames, s.frames, "{class}.{method} step {i}, {k} frames");
                for (id, o) in s.heap.iter() {
                    assert_eq!(
                        v.objects.get(id),
                        Some(o),
                        "{class}.{method} step {i}, {k} frames: object {id}"
                    );
                }
                let key = v.heap_key.expect("a trace knows its heap versions");
                let first = *by_key.entry(key).or_insert(i);
                for (id, o) in t.known_heap_at(first).iter() {
                    if s.heap.contains_key(id) {
                        assert_eq!(
                            v.objects.get(id),
                            Some(o),
                            "key {key}: steps {first} and {i}"
                        );
                    }
                }
                prev = Some((i, v));
            }
        }
    }
}
