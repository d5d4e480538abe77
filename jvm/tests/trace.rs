//! End-to-end tests of the tracer against the Java fixtures (`make fixtures`).

mod common;
use common::fixtures;

use std::collections::BTreeMap;

use jtg_jvm::{
    trace_method, Budget, CFrame, CHeap, CObject, CValue, ConcreteInput, JvmError, ObjId, Trace,
    TraceEnd, TraceOptions,
};

fn run(
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
) -> Result<Trace, JvmError> {
    trace_method(&[fixtures()], class, method, desc, input, opts)
}

/// A linked list of `class` objects with the given values; `cycle_to` links the last node back.
fn list(class: &str, vals: &[i32], cycle_to: Option<usize>) -> CHeap {
    let mut heap = CHeap::new();
    for (i, v) in vals.iter().enumerate() {
        let next = if i + 1 < vals.len() {
            CValue::Ref(ObjId(i as u32 + 2))
        } else {
            cycle_to.map_or(CValue::Null, |t| CValue::Ref(ObjId(t as u32 + 1)))
        };
        let fields = BTreeMap::from([
            ("val".to_string(), CValue::Int(*v)),
            ("next".to_string(), next),
        ]);
        heap.insert(
            ObjId(i as u32 + 1),
            CObject::Instance {
                class: class.into(),
                fields,
            },
        );
    }
    heap
}

fn field(heap: &CHeap, v: CValue, name: &str) -> CValue {
    let CValue::Ref(id) = v else {
        panic!("{v:?} is not a reference")
    };
    match &heap[&id] {
        CObject::Instance { fields, .. } => fields[name],
        o => panic!("{o:?} has no fields"),
    }
}

/// The first step of `t` at pc `pc` of `class.method`.
fn first_at(t: &Trace, class: &str, method: &str, pc: u32) -> usize {
    (0..t.len())
        .find(|&i| t.position(i) == (class, method, pc))
        .unwrap_or_else(|| panic!("{class}.{method} pc {pc} never runs"))
}

fn pcs(t: &Trace) -> Vec<u32> {
    (0..t.len()).map(|i| t.position(i).2).collect()
}

#[test]
fn contains_on_three_nodes() {
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(9)],
        heap: list("List", &[5, 7, 9], None),
        ..Default::default()
    };
    let t = run(
        "List",
        "contains",
        "(LList;I)Z",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(1))));
    let iter = [0, 1, 4, 5, 8, 9, 14, 15, 18, 19];
    let mut expected: Vec<u32> = iter.iter().chain(&iter).copied().collect();
    expected.extend([0, 1, 4, 5, 8, 9, 12, 13]);
    assert_eq!(pcs(&t), expected);
    // heap at the start: the three nodes with their next links
    let s0 = t.step(0);
    assert_eq!(s0.frames.len(), 1);
    assert_eq!(
        s0.frames[0],
        CFrame {
            class: "List".into(),
            method: "contains".into(),
            desc: "(LList;I)Z".into(),
            pc: 0,
            locals: vec![s0.frames[0].locals[0], CValue::Int(9)],
            stack: vec![],
        }
    );
    assert_eq!(s0.heap.len(), 3);
    let n0 = s0.frames[0].locals[0];
    let n1 = field(&s0.heap, n0, "next");
    let n2 = field(&s0.heap, n1, "next");
    assert_eq!(field(&s0.heap, n2, "next"), CValue::Null);
    assert_eq!(
        [n0, n1, n2].map(|n| field(&s0.heap, n, "val")),
        [5, 7, 9].map(CValue::Int)
    );
    // pc 9 (if_icmpne) of each iteration: locals [cur, x], stack [x, cur.val] top first
    let at9: Vec<usize> = (0..t.len()).filter(|&i| t.position(i).2 == 9).collect();
    assert_eq!(at9.len(), 3);
    for (k, (&i, (node, val))) in at9.iter().zip([(n0, 5), (n1, 7), (n2, 9)]).enumerate() {
        let f = t.top_frame(i);
        assert_eq!(f.locals, vec![node, CValue::Int(9)], "iteration {k}");
        assert_eq!(
            f.stack,
            vec![CValue::Int(9), CValue::Int(val)],
            "iteration {k}"
        );
        // the reachable heap shrinks as cur advances
        assert_eq!(t.heap_at(i).len(), 3 - k);
    }
}

#[test]
fn get_on_cyclic_list_is_an_instance_method() {
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(7)],
        heap: list("List", &[10, 20, 30], Some(0)),
        ..Default::default()
    };
    let t = run("List", "get", "(I)I", &input, &TraceOptions::default()).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(20))));
    let s0 = t.step(0);
    let this = s0.frames[0].locals[0];
    assert_eq!(s0.frames[0].locals, vec![this, CValue::Int(7), CValue::Top]);
    // the cycle
    let n1 = field(&s0.heap, this, "next");
    let n2 = field(&s0.heap, n1, "next");
    assert_eq!(field(&s0.heap, n2, "next"), this);
    assert_eq!(s0.heap.len(), 3);
    let i17 = (0..t.len())
        .find(|&i| t.position(i).2 == 17)
        .expect("pc 17 reached");
    let f = t.top_frame(i17);
    assert_eq!(f.locals, vec![this, CValue::Int(-1), n1]);
    assert!(f.stack.is_empty());
    assert_eq!(t.len(), i17 + 3);
}

#[test]
fn division_by_zero_throws() {
    let input = ConcreteInput {
        args: vec![CValue::Int(1), CValue::Int(0)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Throws", "div", "(II)I", &input, &TraceOptions::default()).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Threw {
            class: "java/lang/ArithmeticException".into(),
            obj: None
        }
    );
    assert_eq!(pcs(&t), vec![0, 1, 2]);
    assert_eq!(t.top_frame(2).stack, vec![CValue::Int(0), CValue::Int(1)]);
}

#[test]
fn null_field_read_throws_npe() {
    let mut heap = list("Throws", &[3], None);
    heap.insert(
        ObjId(1),
        CObject::Instance {
            class: "Throws".into(),
            fields: BTreeMap::new(),
        },
    ); // all defaults
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1))],
        heap,
        ..Default::default()
    };
    let t = run(
        "Throws",
        "readNext",
        "(LThrows;)I",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Threw {
            class: "java/lang/NullPointerException".into(),
            obj: None
        }
    );
    let last = t.top_frame(t.len() - 1);
    assert_eq!(last.stack, vec![CValue::Null]);
    assert_eq!(t.step(0).heap.len(), 1);
}

#[test]
fn caught_exception_resumes_in_the_handler_with_call_stack() {
    let input = ConcreteInput {
        args: vec![CValue::Int(5)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Throws", "caught", "(I)I", &input, &TraceOptions::default()).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(-1))));
    let pos: Vec<(String, u32, usize)> = (0..t.len())
        .map(|i| (t.position(i).1.to_string(), t.position(i).2, t.depth(i)))
        .collect();
    let expect = [
        ("caught", 0, 1),
        ("caught", 1, 1),
        ("caught", 2, 1),
        ("div", 0, 2),
        ("div", 1, 2),
        ("div", 2, 2),
    ];
    let expect: Vec<(String, u32, usize)> = expect
        .iter()
        .map(|(m, p, d)| (m.to_string(), *p, *d))
        .collect();
    assert_eq!(pos[..6], expect[..]);
    // inside div, the caller frame is caught at the invoke with its arguments popped
    let s = t.step(5);
    assert_eq!(s.frames.len(), 2);
    assert_eq!(&*s.frames[1].method, "caught");
    assert_eq!(s.frames[1].pc, 2);
    assert!(s.frames[1].stack.is_empty());
    assert_eq!(s.frames[0].locals, vec![CValue::Int(5), CValue::Int(0)]);
    // the handler: depth back to 1, the exception object on the stack
    assert_eq!(pos[6], ("caught".to_string(), 6, 1));
    let h = t.step(6);
    assert_eq!(h.frames.len(), 1);
    let [exc] = h.frames[0].stack[..] else {
        panic!("handler stack {:?}", h.frames[0].stack)
    };
    let CValue::Ref(id) = exc else {
        panic!("{exc:?}")
    };
    assert!(
        matches!(&h.heap[&id], CObject::Instance { class, .. } if class == "java/lang/ArithmeticException")
    );
    assert_eq!(pcs(&t)[6..], [6, 7, 8]);
}

#[test]
fn step_budget_cuts_an_infinite_loop() {
    let input = ConcreteInput {
        args: vec![CValue::Int(0)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let opts = TraceOptions {
        max_steps: 50,
        ..TraceOptions::default()
    };
    let t = run("Loop", "forever", "(I)I", &input, &opts).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Steps(50)
        }
    );
    assert_eq!(t.len(), 50);
    // iinc at pc 0, goto at pc 3: before step 2k + 1 (a goto) x = k + 1
    assert_eq!(pcs(&t)[..4], [0, 3, 0, 3]);
    assert_eq!(t.top_frame(49).locals, vec![CValue::Int(25)]);
}

/// A static initialiser that never finishes spends the step budget too (it is not traced):
/// reached mid-run the trace keeps every state up to the one before the instruction that
/// triggered it (the getstatic at pc 4); as the entry class's own initialiser it leaves an
/// empty, cut trace.
#[test]
fn step_budget_cuts_a_spinning_static_initialiser() {
    let opts = TraceOptions {
        max_steps: 1_000,
        ..TraceOptions::default()
    };
    let input = ConcreteInput {
        args: vec![CValue::Int(4)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("SpinInit", "touch", "(I)I", &input, &opts).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Steps(1_000)
        }
    );
    assert_eq!(pcs(&t), [0, 1, 2, 3, 4]);
    assert_eq!(t.top_frame(4).locals, vec![CValue::Int(5)]);
    let t = run("Spinner", "get", "()I", &ConcreteInput::default(), &opts).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Steps(1_000)
        }
    );
    assert_eq!(t.len(), 0);
}

#[test]
fn deep_recursion_overflows_the_stack_and_the_process_survives() {
    let input = ConcreteInput {
        args: vec![CValue::Int(0)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let opts = TraceOptions {
        max_steps: 5_000_000,
        ..TraceOptions::default()
    };
    let t = run("Loop", "down", "(I)I", &input, &opts).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Threw {
            class: "java/lang/StackOverflowError".into(),
            obj: None
        }
    );
    let last = t.len() - 1;
    assert!(t.depth(last) > 1000, "depth {}", t.depth(last));
    // every step is consistent: at depth d the argument is d - 1
    let f = t.top_frame(last);
    assert_eq!(f.locals[0], CValue::Int(t.depth(last) as i32 - 1));
    assert_eq!(t.step(last).frames.len(), t.depth(last));
    // and the JVM is still usable
    let again = run(
        "Throws",
        "div",
        "(II)I",
        &ConcreteInput {
            args: vec![CValue::Int(6), CValue::Int(3)],
            heap: CHeap::new(),
            ..Default::default()
        },
        &TraceOptions::default(),
    )
    .expect("trace after overflow");
    assert_eq!(again.end, TraceEnd::Returned(Some(CValue::Int(2))));
}

#[test]
fn runs_do_not_share_static_state() {
    let input = ConcreteInput::default();
    for _ in 0..2 {
        let t = run("Loop", "bump", "()I", &input, &TraceOptions::default()).expect("trace");
        assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(1))));
    }
}

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
        other => panic!("System.arraycopy writes must be flagged, got {other:?}"),
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
        TraceEnd::Returned(Some(CValue::Int((1..12).sum::<i32>() + 11)))
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

#[test]
fn bad_inputs_are_errors() {
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(9)), CValue::Int(1)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let e = run(
        "List",
        "contains",
        "(LList;I)Z",
        &input,
        &TraceOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, JvmError::BadInput(_)), "{e}");
    let e = run(
        "List",
        "contains",
        "(LList;I)Z",
        &ConcreteInput::default(),
        &TraceOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, JvmError::BadInput(_)), "{e}");
    let e = run(
        "NoSuchClass",
        "f",
        "()V",
        &ConcreteInput::default(),
        &TraceOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, JvmError::BadInput(_)), "{e}");
    let mut heap = list("List", &[1], None);
    heap.insert(
        ObjId(1),
        CObject::Instance {
            class: "List".into(),
            fields: BTreeMap::from([("nope".into(), CValue::Int(1))]),
        },
    );
    let e = run(
        "List",
        "contains",
        "(LList;I)Z",
        &ConcreteInput {
            args: vec![CValue::Ref(ObjId(1)), CValue::Int(1)],
            heap,
            ..Default::default()
        },
        &TraceOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e, JvmError::BadInput(_)), "{e}");
}

#[test]
fn big_input_and_jar_class_path() {
    // 5000 nodes: more local references than the default JNI frame holds
    let vals: Vec<i32> = (0..5000).collect();
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(-1)],
        heap: list("List", &vals, None),
        ..Default::default()
    };
    let t = run(
        "List",
        "contains",
        "(LList;I)Z",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(0))));
    assert_eq!(t.len(), 10 * 5000 + 4);
    assert_eq!(t.step(0).heap.len(), 5000);

    // the same class from a jar
    let dir = std::env::temp_dir().join(format!("jtg-jar-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let jar = dir.join("list.jar");
    let mut w = zip::ZipWriter::new(std::fs::File::create(&jar).expect("jar"));
    w.start_file("List.class", zip::write::SimpleFileOptions::default())
        .expect("zip entry");
    std::io::Write::write_all(
        &mut w,
        &std::fs::read(fixtures().join("List.class")).expect("List.class"),
    )
    .expect("zip");
    w.finish().expect("zip");
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(7)],
        heap: list("List", &[5, 7], None),
        ..Default::default()
    };
    let t = trace_method(
        &[jar],
        "List",
        "contains",
        "(LList;I)Z",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(1))));
    assert_eq!(t.len(), 10 + 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn switch_padding_and_wide_pcs() {
    let opts = TraceOptions::default();
    let one = |x: i32| ConcreteInput {
        args: vec![CValue::Int(x)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Switch", "dense", "(I)I", &one(1), &opts).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(1011))));
    assert_eq!(pcs(&t), vec![0, 1, 34, 36, 37, 48, 54, 55]);
    let t = run("Switch", "dense", "(I)I", &one(5), &opts).expect("trace");
    assert_eq!(pcs(&t), vec![0, 1, 46, 47, 48, 54, 55]);
    assert_eq!(
        t.top_frame(6).locals,
        vec![CValue::Int(5), CValue::Int(999)]
    );
    let t = run("Switch", "sparse", "(I)I", &one(100_000), &opts).expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(3))));
    assert_eq!(pcs(&t), vec![0, 1, 40, 41]);
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
