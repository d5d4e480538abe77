//! End-to-end tests of the tracer against the Java fixtures (`make fixtures`): control flow,
//! exceptions, budgets, statics, bad inputs. The heap replay has its own file (`replay.rs`).

mod common;
use common::{field, fixtures, jar_with_list, list, pcs, run};

use std::collections::BTreeMap;

use jtg_jvm::{
    trace_batch, trace_method, Budget, CFrame, CHeap, CObject, CValue, ConcreteInput, JvmError,
    ObjId, TraceEnd, TraceOptions,
};

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

/// A run cut inside a `synchronized` block ends as cut: javac's handler of the block covers its
/// own first instruction, whose probe throws again once the budget is spent (the run looped
/// in that handler forever before the probe was left out of the handler's range).
#[test]
fn step_budget_cuts_a_run_inside_a_synchronized_block() {
    let opts = TraceOptions {
        max_steps: 50,
        ..TraceOptions::default()
    };
    let input = ConcreteInput {
        args: vec![CValue::Int(1_000_000)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run("Loop", "lockedSum", "(I)I", &input, &opts).expect("trace");
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Steps(50)
        }
    );
    assert_eq!(t.len(), 50);
    // uncut, the block's monitorexit and the return run as in the uninstrumented method
    let input = ConcreteInput {
        args: vec![CValue::Int(10)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = run(
        "Loop",
        "lockedSum",
        "(I)I",
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(45))));
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

/// Building an input's object starts its class's initialiser (JNI AllocObject): one that never
/// ends is cut by the step budget like the entry class's, a run of no step, and the runs of the
/// same batch before and after it are the inputs' own (their loader's Spinner is not failed).
/// An object of a class whose initialiser throws cannot exist: a bad input, said so.
#[test]
fn building_an_input_cuts_a_spinning_initialiser_and_refuses_a_failing_one() {
    let opts = TraceOptions {
        max_steps: 1_000,
        ..TraceOptions::default()
    };
    let null = ConcreteInput {
        args: vec![CValue::Null],
        ..Default::default()
    };
    let object = |class: &str| {
        let mut heap = CHeap::new();
        heap.insert(
            ObjId(1),
            CObject::Instance {
                class: class.into(),
                fields: BTreeMap::new(),
            },
        );
        ConcreteInput {
            args: vec![CValue::Ref(ObjId(1))],
            heap,
            ..Default::default()
        }
    };
    let inputs = [null.clone(), object("Spinner"), null];
    let runs = trace_batch(
        &[fixtures()],
        "SpinInit",
        "holdsSpinner",
        "(LSpinner;)I",
        &inputs,
        &opts,
    );
    let ends: Vec<TraceEnd> = runs.into_iter().map(|r| r.expect("trace").end).collect();
    assert_eq!(
        ends,
        [
            TraceEnd::Returned(Some(CValue::Int(0))),
            TraceEnd::Cut {
                budget: Budget::Steps(1_000)
            },
            TraceEnd::Returned(Some(CValue::Int(0))),
        ]
    );
    let e = run(
        "SpinInit",
        "holdsFailing",
        "(LFailing;)I",
        &object("Failing"),
        &opts,
    )
    .expect_err("no Failing object can exist");
    assert!(
        e.to_string().contains(
            "no object of class Failing can be an input: its static initializer threw java.lang.ArithmeticException"
        ),
        "{e}"
    );
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
    jar_with_list(&jar);
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
