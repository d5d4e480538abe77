//! Bounded runs (`Alloc.fill`, `Alloc.guarded`): a program that allocates as much as its input
//! asks ends its run as a per-run outcome with bounded recording, never a machine-sized
//! allocation, and the next run works. Sizes are asserted, not times. A test binary of its own:
//! its runs allocate up to the JVM's heap limit.

mod common;
use common::fixtures;

use jtg_jvm::{
    trace_method, Budget, CObject, CValue, ConcreteInput, Trace, TraceEnd, TraceOptions,
    DEFAULT_MAX_HEAP,
};

fn run(method: &str, n: i32, opts: &TraceOptions) -> Trace {
    let input = ConcreteInput {
        args: vec![CValue::Int(n)],
        ..Default::default()
    };
    trace_method(&[fixtures()], "Alloc", method, "(I)I", &input, opts).expect("trace")
}

/// Objects recorded by the end of the trace (the heap log's objects).
fn recorded_objects(t: &Trace) -> usize {
    if t.is_empty() {
        return 0;
    }
    t.known_heap_at(t.len() - 1).len()
}

#[test]
fn an_array_no_jvm_can_hold_ends_the_run_with_the_jvms_error() {
    let t = run("fill", i32::MAX, &TraceOptions::default());
    match &t.end {
        TraceEnd::Threw { class, .. } => assert_eq!(class, "java/lang/OutOfMemoryError"),
        other => panic!("fill(2^31-1) ended {other:?}"),
    }
    assert!(t.end.hit_jvm_limit());
    assert!(!t.end.is_cut());
    // iload, newarray: the allocation itself threw
    assert_eq!(t.len(), 2);
    assert_eq!(recorded_objects(&t), 0);
    // the next run works
    let t = run("fill", 4, &TraceOptions::default());
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(4))));
}

#[test]
fn a_heap_the_recorder_fills_ends_the_run_not_the_batch() {
    // 20 000 appends copy the string each time (5·10⁹ characters in all): the recorder keeps
    // every string the run shows, so the heap runs out within the step budget — in the
    // program's code or in the recorder's bookkeeping after it, where the collector decides
    for _ in 0..2 {
        let t = run("strings", 20_000, &TraceOptions::default());
        assert!(
            t.end.hit_jvm_limit() || t.end.is_cut(),
            "strings(20000) ended {:?}",
            t.end
        );
        // the next run works
        let t = run("strings", 3, &TraceOptions::default());
        assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(78))));
    }
}

#[test]
fn an_array_past_the_recording_budget_cuts_the_run_at_its_first_sight() {
    // 400 MB fit the JVM's heap (-Xmx512m), 10^8 values do not fit the recording budget
    let t = run("fill", 100_000_000, &TraceOptions::default());
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Heap(DEFAULT_MAX_HEAP)
        }
    );
    assert!(t.end.is_cut());
    // iload, newarray; the astore that would see the array is dropped with the run
    assert_eq!(t.len(), 2);
    assert_eq!(recorded_objects(&t), 0);
    let t = run("fill", 3, &TraceOptions::default());
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(3))));
}

#[test]
fn the_recording_budget_counts_one_value_per_object_and_element() {
    let opts = |max_heap| TraceOptions {
        max_heap,
        ..TraceOptions::default()
    };
    // the int[100] is 1 + 100 values
    let t = run("fill", 100, &opts(101));
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(100))));
    let last = t.heap_at(t.len() - 1);
    let arrays: Vec<usize> = last
        .values()
        .filter_map(|o| match o {
            CObject::Array { elems, .. } => Some(elems.len()),
            _ => None,
        })
        .collect();
    assert_eq!(arrays, [100]);
    let t = run("fill", 100, &opts(100));
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Heap(100)
        }
    );
    assert_eq!(t.len(), 2);
}

#[test]
fn a_program_that_catches_the_cut_is_not_recorded_further() {
    // `guarded` catches every Throwable around fill: its handler's first probe ends the run
    let t = run(
        "guarded",
        1_000,
        &TraceOptions {
            max_heap: 10,
            ..TraceOptions::default()
        },
    );
    assert_eq!(
        t.end,
        TraceEnd::Cut {
            budget: Budget::Heap(10)
        }
    );
    assert!(
        (0..t.len()).all(|i| t.position(i).1 != "guarded" || t.position(i).2 < 5),
        "a step of the handler was recorded"
    );
    // the JVM's own error is the program's to catch: the handler runs and returns -1
    let t = run("guarded", i32::MAX, &TraceOptions::default());
    assert_eq!(t.end, TraceEnd::Returned(Some(CValue::Int(-1))));
}
