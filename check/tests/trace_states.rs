//! Traced steps as concrete states in the engine's text form (`jtg_check::concrete`): objects
//! under construction and the checker's report of a step (`jtg trace` output is tested with the
//! CLI, harness/tests/trace_cli.rs). The traces
//! themselves are tested in the JVM side's own tests (jvm/tests/trace.rs).

mod common;
use common::fixtures;

use jtg_check::concrete::step_to_state;
use jtg_check::report::state_text;
use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{print_state, TextContext};
use jtg_engine::Program;
use jtg_jvm::{trace_method, CHeap, CValue, ConcreteInput, ObjId, Trace, TraceEnd, TraceOptions};

fn run(class: &str, method: &str, desc: &str, x: i32) -> Trace {
    let input = ConcreteInput {
        args: vec![CValue::Int(x)],
        heap: CHeap::new(),
        ..Default::default()
    };
    let t = trace_method(
        &[fixtures()],
        class,
        method,
        desc,
        &input,
        &TraceOptions::default(),
    )
    .expect("trace");
    assert!(matches!(t.end, TraceEnd::Returned(Some(_))), "{:?}", t.end);
    t
}

/// The first step of `t` at pc `pc` of `class.method`.
fn first_at(t: &Trace, class: &str, method: &str, pc: u32) -> usize {
    (0..t.len())
        .find(|&i| t.position(i) == (class, method, pc))
        .unwrap_or_else(|| panic!("{class}.{method} pc {pc} never runs"))
}

/// `Outer.make(3)`: one reference per object under construction, numbered after the trace's
/// objects; `Outer$Cell.<init>` writes `this$0` before `super()`.
#[test]
fn objects_under_construction_print_as_one_reference_each() {
    let t = run("Outer", "make", "(I)I", 3);
    let dup = first_at(&t, "Outer", "make", 4);
    let w = first_at(&t, "Outer$Cell", "<init>", 2);
    let s = t.step(w);
    let prog = Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"));
    let m = prog.find_method("Outer.make").expect("method");
    let ctx = TextContext::for_method(m, &prog);
    let text = print_state(&step_to_state(&t.step(dup)).expect("state"), &ctx);
    assert!(text.starts_with("04 | x: i1 | o1, o1\n"), "{text}");
    assert!(text.contains("o1: Outer(…)"), "{text}");
    let text = print_state(&step_to_state(&s).expect("state"), &ctx);
    let CValue::Ref(ObjId(outer)) = s.frames[0].stack[0] else {
        panic!("{:?}", s.frames[0].stack)
    };
    let cell = format!("o{}", outer + 1);
    assert!(text.contains(&format!("{cell}: Outer$Cell(…)")), "{text}");
    assert!(
        text.contains(&format!(
            "| this: {cell}, this$0: o{outer} | o{outer}, {cell}\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("23 | x: i1, o: o{outer} | {cell}\n")),
        "{text}"
    );
    // a checker report prints such a step as a state too
    let report = state_text(&t, w, &ctx);
    assert_eq!(report, text);
}

/// `new Outer$Sub(x)`: once the superclass constructor is past `super()` every frame shows the
/// object itself.
#[test]
fn a_constructed_object_prints_as_itself_in_every_frame() {
    let t = run("Outer", "chain", "(I)I", 5);
    let s = t.step(first_at(&t, "Outer", "<init>", 4));
    let CValue::Ref(ObjId(id)) = s.frames[0].locals[0] else {
        panic!("{:?}", s.frames[0].locals)
    };
    let prog = Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"));
    let m = prog.find_method("Outer.chain").expect("method");
    let text = print_state(
        &step_to_state(&s).expect("state"),
        &TextContext::for_method(m, &prog),
    );
    let o = format!("o{id}");
    assert!(text.contains(&format!("04 | this: {o}, v: i")), "{text}");
    assert!(text.contains(&format!("04 | this: {o}, x: i")), "{text}");
    assert!(text.contains(&format!("05 | x: i1 | {o}\n")), "{text}");
    assert!(text.contains(&format!("{o}: Outer$Sub(v=")), "{text}");
    assert_eq!(text.matches("(…)").count(), 0, "{text}");
}
