//! `jtg trace` and `jtg check --input` on inputs whose runs construct objects or set static
//! fields: objects under construction print as one reference each, `static:` lines are set
//! before the run (the decoding itself is tested in check/tests/trace_states.rs).

mod common;
use common::fixtures;

use std::process::Command;

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
        let stderr = common::stderr_of(&out.stderr);
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
            common::stderr_of(&out.stderr),
        )
    };
    let (code, text, err) = jtg(&["trace", "StaticInput.clearShared"], &alias);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.starts_with(
            "step 0  @ StaticInput.java:13\n  00 | p: o1 | ε\n  static: StaticInput.count=i1  StaticInput.shared=o1\n"
        ),
        "{text}"
    );
    assert!(text.ends_with("end\n  end: return i2\n  i2: 2\n"), "{text}");
    // the default start state lists no static: the engine's value of `shared` at its first
    // access may alias only other statics' objects, so an input whose `shared` is the parameter
    // is no instance of it, refused before the run (the graph is not wrong)
    let (code, text, err) = jtg(&["check", "StaticInput.clearShared"], &alias);
    assert_eq!(code, Some(2), "{text}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("input is not an instance of the start state")
            && err.contains("static StaticInput.shared reaches o1"),
        "{err}"
    );
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

/// An input may give an `Integer` its value (the model keeps none): the JVM runs on it
/// (`Keys.hashAll` sums the keys' hash codes, an `Integer`'s is its value), `jtg check
/// --input` accepts it, and a start state may not list it (the engine never reads the field).
#[test]
fn an_input_box_runs_with_its_value() {
    let dir = std::env::temp_dir().join(format!("jtg-box-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("box.state");
    std::fs::write(
        &input,
        "00 | e: o1 | ε\n\
         o1: Keys$Entry(key=o2, next=o3, value=i1)  o2: java.lang.Integer(value=i2)\n\
         o3: Keys$Entry(key=o4, next=null, value=i1)  o4: java.lang.Integer(value=i3)\n\
         i1: 0  i2: 1000  i3: -7\n",
    )
    .unwrap();
    let jtg = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .arg(args[0])
            .arg(fixtures())
            .args(&args[1..])
            .output()
            .expect("run jtg");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            common::stderr_of(&out.stderr),
        )
    };
    let path = input.to_str().unwrap();
    let (code, text, err) = jtg(&["trace", "Keys.hashAll", "--input", path]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.ends_with("  i1: 993\n"), "{text}");
    // the trace shows no value (the recorder records no field of a JDK class)
    assert!(!text.contains("java.lang.Integer(value"), "{text}");
    let (code, text, err) = jtg(&["check", "Keys.hashAll", "--input", path]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("1 traces") && text.contains("0 violations"),
        "{text}"
    );
    let (code, _, err) = jtg(&["graph", "Keys.hashAll", "--start", path]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("class java/lang/Integer has no instance field `value`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deep recursion (`Loop.down` calls itself at every few steps): the full trace
/// (`--max-frames` past the depth) prints every frame at every step, so it grows with
/// steps × depth; by default a step shows its 16 top frames and one line for the frames
/// below, `--top-frame` one frame per step and `--changes` only the lines that changed, all
/// linear in the steps.
#[test]
fn trace_of_deep_recursion_top_frame_and_changes_stay_linear() {
    let dir = std::env::temp_dir().join(format!("jtg-trace-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("n.state");
    std::fs::write(&input, "00 | n: i1 | ε\ni1: 0\n").unwrap();
    let fx = fixtures();
    let steps = 3000u64;
    let trace = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .arg("trace")
            .arg(&fx)
            .args(["Loop.down", "--input"])
            .arg(&input)
            .args(["--max-steps", &steps.to_string()])
            .args(extra)
            .output()
            .expect("run jtg");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let full = trace(&["--max-frames", "100000"]);
    let bounded = trace(&[]);
    let top = trace(&["--top-frame"]);
    let changes = trace(&["--changes"]);
    for out in [&full, &bounded, &top, &changes] {
        assert_eq!(
            out.matches("step ").count() as u64,
            steps,
            "one block per step"
        );
        assert!(out.ends_with("cut\n"));
    }
    // every step names its source line (`Loop.down` is line 3 of Loop.java)
    assert!(
        full.starts_with("step 0  @ Loop.java:3\n"),
        "{}",
        &full[..80]
    );
    let lines = |s: &str| s.lines().count() as u64;
    // the recursion is about steps / 4 deep at the end: the full trace has ~depth lines a step
    assert!(lines(&full) > steps * 50, "{} lines", lines(&full));
    // 16 frames, the line for the ones below, the heap line at most
    assert!(
        lines(&bounded) <= steps * 19 + 1,
        "{} lines",
        lines(&bounded)
    );
    let deep = bounded.split("\nstep ").nth(2999).unwrap();
    assert!(deep.contains("\n  … "), "{deep}");
    assert!(deep.contains(" frames below\n"), "{deep}");
    // one frame, its heap line at most: a bounded number of lines per step
    assert!(lines(&top) <= steps * 3 + 1, "{} lines", lines(&top));
    // a call adds a frame line, a step changes a frame: a few lines per step
    assert!(
        lines(&changes) <= steps * 6 + 200,
        "{} lines",
        lines(&changes)
    );
    assert!(changes.contains("\n  + ") && changes.contains("\n  - "));
    // --top-frame: one frame line a step, where the full trace has the whole stack
    let frames = |block: &str| block.lines().filter(|l| l.contains(" | ")).count();
    let full_blocks: Vec<&str> = full.split("\nstep ").collect();
    let top_blocks: Vec<&str> = top.split("\nstep ").collect();
    assert_eq!(full_blocks.len() as u64, steps);
    for k in [0usize, 1, 500, 2999] {
        assert_eq!(frames(top_blocks[k]), 1, "{}", top_blocks[k]);
    }
    assert!(
        frames(full_blocks[2999]) > 100,
        "{}",
        frames(full_blocks[2999])
    );
    // JSON streams too and stays one valid document
    let json: serde_json::Value =
        serde_json::from_str(&trace(&["--format", "json", "--top-frame"])).expect("JSON");
    assert_eq!(json["steps"].as_array().unwrap().len() as u64, steps);
    assert_eq!(json["sources"].as_array().unwrap().len() as u64, steps);
    assert_eq!(json["sources"][0], "Loop.java:3");
    assert_eq!(json["cut"], true);
}
