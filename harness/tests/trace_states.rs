//! Traced steps as concrete states in the engine's text form (`jtg_harness::concrete`): objects
//! under construction, the checker's report of a step, and `jtg trace` output. The traces
//! themselves are tested in the JVM side's own tests (jvm/tests/trace.rs).

mod common;
use common::fixtures;

use std::process::Command;

use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{print_state, TextContext};
use jtg_engine::Program;
use jtg_harness::check::report::state_text;
use jtg_harness::concrete::step_to_state;
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

/// `jtg trace` prints every step of a method that constructs objects, as text and as JSON.
#[test]
fn jtg_trace_prints_objects_under_construction() {
    let dir = std::env::temp_dir().join(format!("jtg-trace-uninit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("make.txt");
    std::fs::write(&input, "00 | x: i1 | ε\ni1: 3\n").unwrap();
    let fx = fixtures();
    let trace = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .arg("trace")
            .arg(&fx)
            .args(["Outer.make", "--input"])
            .arg(&input)
            .args(["--format", format])
            .output()
            .expect("run jtg");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(stderr.is_empty(), "{format}: {stderr}");
        stdout
    };
    let text = trace("text");
    assert!(text.contains("o1: Outer(…)"), "{text}");
    assert!(text.contains("  04 | x: i1 | o1, o1\n"), "{text}");
    assert!(text.contains("Outer$Cell(…)"), "{text}");
    assert!(text.ends_with("end\n  end: return i2\n  i2: 3\n"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&trace("json")).expect("JSON");
    let steps = json["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), text.matches("\nstep ").count() + 1);
    assert!(
        steps[2].as_str().unwrap().contains("o1: Outer(…)"),
        "{json}"
    );
    assert_eq!(json["end"], "end: return i2\ni2: 3");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `static:` lines of an input file are part of the run: `jtg trace` shows them (and an alias
/// of a parameter) from step 0, `jtg check --input` runs such inputs, and a static the JVM
/// cannot set is refused with a one-line error (exit 2).
#[test]
fn static_lines_of_an_input_are_set_before_the_run() {
    let dir = std::env::temp_dir().join(format!("jtg-static-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let alias = write(
        "alias.state",
        "00 | p: o1 | ε\nstatic: StaticInput.shared=o1  StaticInput.count=i1\n\
         o1: StaticInput(val=i2)\ni1: 2  i2: 5\n",
    );
    let apart = write(
        "apart.state",
        "00 | p: o1 | ε\nstatic: StaticInput.shared=o2  StaticInput.count=i1\n\
         o1: StaticInput(val=i2)  o2: StaticInput(val=i3)\ni1: 2  i2: 5  i3: 7\n",
    );
    let fin = write(
        "final.state",
        "00 | p: o1 | ε\nstatic: StaticInput.LIMIT=i1\no1: StaticInput(val=i2)\ni1: 2  i2: 5\n",
    );
    let jtg = |args: &[&str], input: &std::path::Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .arg(args[0])
            .arg(fixtures())
            .args(&args[1..])
            .arg("--input")
            .arg(input)
            .output()
            .expect("run jtg");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, text, err) = jtg(&["trace", "StaticInput.clearShared"], &alias);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.starts_with(
            "step 0\n  00 | p: o1 | ε\n  static: StaticInput.count=i1  StaticInput.shared=o1\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("end\n  end: return i2\n  i2: 2\n"), "{text}");
    // the check runs the input as written; the graph of the default start state assumes that
    // statics do not alias parameters at entry, and the run shows where that assumption ends
    let (code, text, err) = jtg(&["check", "StaticInput.clearShared"], &alias);
    assert_eq!(code, Some(1), "{err}");
    assert!(text.contains("1 traces, 10 steps, 1 violations"), "{text}");
    assert!(text.contains("(f) distinct objects"), "{text}");
    let (code, text, err) = jtg(&["check", "StaticInput.clearShared"], &apart);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("1 traces, 10 steps, 0 violations"), "{text}");
    let (code, _, err) = jtg(&["trace", "StaticInput.clearShared"], &fin);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot set static field StaticInput.LIMIT") && err.contains("final"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
