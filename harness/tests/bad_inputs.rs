//! The bad-input matrix: `jtg` on class files, class paths, methods, start states, budgets and
//! JVMs it cannot use. Each row gives exactly one line on stderr naming the problem and a
//! documented exit code (README "Exit codes"), never a panic. `cli_errors.rs` has the
//! unsupported-feature rows (exit 3) and the unknown class / method / directory rows.

mod common;
use common::fixtures;

/// The rows of issue #36 (errors that named the wrong thing).
#[path = "bad_inputs/issue36.rs"]
mod issue36;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) fn fx() -> String {
    let d = fixtures();
    assert!(
        d.join("List.class").is_file(),
        "fixtures missing in {}: run `make fixtures`",
        d.display()
    );
    d.to_str().unwrap().to_string()
}

/// A fresh temporary directory for one test.
pub(crate) fn temp(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jtg-bad-inputs-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(crate) fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// What one run of jtg did.
pub(crate) struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub(crate) fn jtg_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_jtg"));
    cmd.args(args).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run jtg");
    let stderr = common::stderr_of(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "jtg {args:?} panicked: {stderr}"
    );
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).to_string(),
        stderr,
    }
}

fn jtg(args: &[&str]) -> Run {
    jtg_env(args, &[])
}

/// Asserts the run failed with `code` and exactly one stderr line, `jtg: …`, containing every
/// needle.
#[track_caller]
fn fails(r: &Run, code: i32, needles: &[&str]) {
    assert_eq!(r.code, code, "exit code; stderr: {}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {:?}", r.stderr);
    assert!(lines[0].starts_with("jtg: "), "{}", lines[0]);
    for n in needles {
        assert!(lines[0].contains(n), "`{n}` missing in: {}", lines[0]);
    }
}

#[test]
fn malformed_and_truncated_class_files() {
    let d = temp("classfiles");
    let list = std::fs::read(fixtures().join("List.class")).expect("List.class");
    // not a class file at all, an empty file, a truncated one, one with a bad magic
    let garbage = d.join("garbage");
    write(&garbage, "List.class", b"garbage");
    fails(
        &jtg(&["graph", garbage.to_str().unwrap(), "List.get"]),
        2,
        &[
            "List.class",
            "malformed",
            "not a class file (magic 0x67617262",
        ],
    );
    let empty = d.join("empty");
    write(&empty, "List.class", b"");
    fails(
        &jtg(&["graph", empty.to_str().unwrap(), "List.get"]),
        2,
        &["List.class", "malformed"],
    );
    for cut in [10, 100, list.len() / 2, list.len() - 1] {
        let t = d.join(format!("trunc{cut}"));
        write(&t, "List.class", &list[..cut]);
        let r = jtg(&["graph", t.to_str().unwrap(), "List.get"]);
        fails(&r, 2, &["List.class", "malformed", "class file"]);
        // what a user can act on, never the parser's internals (`Error(Error { input: … })`)
        assert!(!r.stderr.contains("Error {"), "{}", r.stderr);
    }
    for cut in [10, 100] {
        let t = d.join(format!("trunc{cut}"));
        fails(
            &jtg(&["graph", t.to_str().unwrap(), "List.get"]),
            2,
            &[&format!("truncated at byte {cut}")],
        );
    }
    let magic = d.join("magic");
    let mut bad = list.clone();
    bad[0] = 0;
    write(&magic, "List.class", &bad);
    fails(
        &jtg(&["graph", magic.to_str().unwrap(), "List.get"]),
        2,
        &["List.class", "malformed"],
    );
    // a class file under the wrong name
    let renamed = d.join("renamed");
    write(&renamed, "Foo.class", &list);
    fails(
        &jtg(&["graph", renamed.to_str().unwrap(), "Foo.get"]),
        2,
        &["Foo.class", "declares class List"],
    );
}

#[test]
fn class_path_problems() {
    let d = temp("classpath");
    let list = std::fs::read(fixtures().join("List.class")).expect("List.class");
    // a jar without the class
    let jar = d.join("only-list.jar");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&jar).unwrap());
        z.start_file("List.class", zip::write::SimpleFileOptions::default())
            .unwrap();
        z.write_all(&list).unwrap();
        z.finish().unwrap();
    }
    let jar = jar.to_str().unwrap();
    let ok = jtg(&["graph", jar, "List.get"]);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    fails(
        &jtg(&["graph", jar, "Tree.size"]),
        2,
        &["class Tree not found"],
    );
    // a class file where a class path belongs, and a jar that is not a zip
    let cls = fixtures().join("List.class");
    fails(
        &jtg(&["graph", cls.to_str().unwrap(), "List.get"]),
        2,
        &["List.class is a class file, not a class path"],
    );
    let notzip = write(&d, "broken.jar", b"PK\x03\x04 not really");
    fails(&jtg(&["graph", &notzip, "List.get"]), 2, &["broken.jar"]);
    // an empty class path
    fails(
        &jtg(&["graph", "", "List.get"]),
        2,
        &["class List not found"],
    );
}

#[test]
fn missing_method_or_wrong_descriptor() {
    let fx = fx();
    fails(
        &jtg(&["graph", &fx, "List.get(J)I"]),
        2,
        &["List.get(J)I", "candidates: get(I)I"],
    );
    fails(
        &jtg(&["graph", &fx, "List.get(I"]),
        2,
        &["List.get(I", "candidates"],
    );
    fails(
        &jtg(&["graph", &fx, "Listget"]),
        2,
        &["`Listget`", "Class.method"],
    );
    // a method without code
    fails(
        &jtg(&["graph", &fx, "hier.Shape.area"]),
        2,
        &["hier.Shape.area", "no code"],
    );
}

#[test]
fn malformed_start_states() {
    let fx = fx();
    let d = temp("states");
    for (name, text, needle) in [
        ("garbage.state", "this is not a state", "line 1"),
        ("empty.state", "", "start state"),
        (
            "badref.state",
            "00 | this: o1, x: i1 | ε\no1: List(next=o9, val=i1)  i1: 3\n",
            "o9",
        ),
        ("badpc.state", "zz | x: i1 | ε\ni1: 3\n", "pc"),
        ("unknown-local.state", "00 | y: i1 | ε\ni1: 3\n", "`y`"),
    ] {
        let p = write(&d, name, text);
        let r = jtg(&["graph", &fx, "List.get", "--start", &p]);
        fails(&r, 2, &[name, needle]);
        assert!(r.stdout.is_empty(), "{name}: a graph was printed");
    }
    let bin = write(&d, "binary.state", [0xff, 0xfe, 0x00]);
    fails(
        &jtg(&["graph", &fx, "List.get", "--start", &bin]),
        2,
        &["binary.state", "UTF-8"],
    );
    let missing = d.join("missing.state");
    fails(
        &jtg(&[
            "graph",
            &fx,
            "List.get",
            "--start",
            missing.to_str().unwrap(),
        ]),
        2,
        &["missing.state", "No such file"],
    );
    // the same for `jtg trace --input`
    let garbage = d.join("garbage.state");
    fails(
        &jtg(&[
            "trace",
            &fx,
            "List.get",
            "--input",
            garbage.to_str().unwrap(),
        ]),
        2,
        &["garbage.state", "line 1"],
    );
}

#[test]
fn start_states_that_contradict_the_declared_types() {
    let fx = fx();
    let d = temp("types");
    for (name, text, needle) in [
        // an int where `this: List` is declared
        (
            "int-this.state",
            "00 | this: i1, x: i2 | ε\ni1: 3  i2: 4\n",
            "List",
        ),
        // an object where `int x` is declared
        (
            "obj-x.state",
            "00 | this: o1, x: o1 | ε\no1: List(?)\n",
            "slot 1",
        ),
        // a missing parameter
        ("no-x.state", "00 | this: o1 | ε\no1: List(?)\n", "slot 1"),
        // not at pc 0 (it used to give a partial graph and "invalid program"), or with
        // operands on the stack
        (
            "pc5.state",
            "05 | this: o1, x: i1 | ε\no1: List(?)  i1: 1\n",
            "at pc 5",
        ),
        (
            "stack.state",
            "00 | this: o1, x: i1 | i1\no1: List(?)  i1: 1\n",
            "operand stack",
        ),
        // `=?` between two realized objects: the engine would take them for two
        (
            "realized-alias.state",
            "00 | this: o1, x: i1 | ε\no1: List(next=o2, val=i2)  o2: List(next=null, val=i3)  i1: 1  i2: 0  i3: 0\no1 =? o2\n",
            "o1 =? o2 between two realized values",
        ),
        // two frames
        (
            "frames.state",
            "List.get(I)I 00 | this: o1, x: i1 | ε\n00 | this: o1, x: i1 | ε\no1: List(?)  i1: 1\n",
            "exactly one frame",
        ),
    ] {
        let p = write(&d, name, text);
        let r = jtg(&["graph", &fx, "List.get", "--start", &p]);
        fails(&r, 2, &["start state", needle]);
        assert!(r.stdout.is_empty(), "{name}: a graph was printed");
    }
    // `jtg trace` used to run List.get with `this` = null here (and print an NPE trace)
    let p = d.join("int-this.state");
    let r = jtg(&["trace", &fx, "List.get", "--input", p.to_str().unwrap()]);
    fails(
        &r,
        2,
        &["int-this.state", "does not fit the declared type List"],
    );
    assert!(r.stdout.is_empty(), "a trace was printed: {}", r.stdout);
}

#[test]
fn node_budget_exceeded() {
    let fx = fx();
    let d = temp("budget");
    let out = d.join("g.json");
    let r = jtg(&[
        "graph",
        &fx,
        "IntLoops.nested",
        "--max-nodes",
        "20",
        "--format",
        "json",
        "-o",
        out.to_str().unwrap(),
    ]);
    fails(&r, 4, &["IntLoops.nested", "node budget", "--max-nodes"]);
    // the partial graph is kept, and says it is incomplete
    let g: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(g["complete"], false);
}

#[test]
fn concrete_run_that_never_terminates_is_cut() {
    let fx = fx();
    let d = temp("loop");
    let p = write(&d, "x.state", "00 | x: i1 | ε\ni1: 5\n");
    let r = jtg(&[
        "trace",
        &fx,
        "Loop.forever",
        "--input",
        &p,
        "--max-steps",
        "500",
    ]);
    // a cut trace is a result (exit 0), with a one-line notice
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim(),
        "jtg: trace cut after 500 steps (--max-steps)"
    );
    assert_eq!(r.stdout.matches("\nstep ").count() + 1, 500);
    assert!(r.stdout.ends_with("cut\n"));
}

#[test]
fn concrete_run_that_throws() {
    let fx = fx();
    let d = temp("throws");
    let p = write(&d, "div0.state", "00 | a: i1, b: i2 | ε\ni1: 5  i2: 0\n");
    let r = jtg(&["trace", &fx, "Throws.div", "--input", &p]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(
        r.stdout.contains("end: throw o1") && r.stdout.contains("java.lang.ArithmeticException"),
        "{}",
        r.stdout
    );
    let p = write(
        &d,
        "npe.state",
        "00 | t: o1 | ε\no1: Throws(next=null, val=i1)  i1: 1\n",
    );
    let r = jtg(&["trace", &fx, "Throws.readNext", "--input", &p]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("java.lang.NullPointerException"),
        "{}",
        r.stdout
    );
}

/// `Loop.down` recurses until the Java stack overflows. With the default 1 MiB stack that
/// takes tens of thousands of steps and the text output grows with steps × depth, so this
/// test gives the JVM a 256 KiB stack (`JAVA_TOOL_OPTIONS=-Xss256k`; the JVM notes that on
/// stderr) and reads only the JSON end.
#[test]
fn stack_overflow_in_the_concrete_run() {
    let fx = fx();
    let d = temp("overflow");
    let p = write(&d, "n.state", "00 | n: i1 | ε\ni1: 0\n");
    let r = jtg_env(
        &[
            "trace",
            &fx,
            "Loop.down",
            "--input",
            &p,
            "--max-steps",
            "50000",
            "--format",
            "json",
        ],
        &[("JAVA_TOOL_OPTIONS", "-Xss256k")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let j: serde_json::Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| {
        let tail = &r.stdout[r.stdout.len().saturating_sub(600)..];
        panic!("trace JSON: {e}\n... {tail}\nstderr: {}", r.stderr)
    });
    assert_eq!(
        j["cut"], false,
        "the run was cut before the stack overflowed"
    );
    let end = j["end"].as_str().unwrap();
    assert!(end.contains("java.lang.StackOverflowError"), "{end}");
    let others: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| !l.starts_with("Picked up JAVA_TOOL_OPTIONS"))
        // HotSpot's own note when the overflow happens inside a @ReservedStackAccess method
        // (java.util.concurrent locks); timing-dependent, and it belongs on stderr.
        .filter(|l| !l.contains("VM warning: Potentially dangerous stack overflow"))
        // the note that deep steps show their top frames only (`--max-frames`)
        .filter(|l| !l.contains("the frames below were summarised (--max-frames)"))
        .collect();
    assert!(others.is_empty(), "{others:?}");
}

#[test]
fn jvm_not_found() {
    let fx = fx();
    let d = temp("nojvm");
    let p = write(&d, "div.state", "00 | a: i1, b: i2 | ε\ni1: 6  i2: 3\n");
    let r = jtg_env(
        &["trace", &fx, "Throws.div", "--input", &p],
        &[("JAVA_HOME", "/nonexistent/jdk")],
    );
    fails(&r, 5, &["JVM not found", "/nonexistent/jdk"]);
    // a JAVA_HOME that exists but holds no JVM
    let r = jtg_env(
        &["trace", &fx, "Throws.div", "--input", &p],
        &[("JAVA_HOME", d.to_str().unwrap())],
    );
    fails(&r, 5, &["JVM not found", d.to_str().unwrap()]);
}

#[test]
fn a_panic_is_one_line_and_exit_70() {
    // debug builds of jtg panic on purpose when JTG_TEST_PANIC is set (see main.rs)
    if !cfg!(debug_assertions) {
        return;
    }
    let fx = fx();
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(["graph", &fx, "List.get"])
        .env("JTG_TEST_PANIC", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(70), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        lines[0].starts_with("jtg: internal error: JTG_TEST_PANIC is set (a second line) (at "),
        "{err}"
    );
}

/// One row of the matrix of issue #23: a command on a bad input, its exit code and the start
/// of its one line on stderr.
pub(crate) struct Row {
    pub what: &'static str,
    pub args: Vec<String>,
    pub env: Vec<(&'static str, String)>,
    pub code: i32,
    /// The stderr line starts with this …
    pub starts: &'static str,
    /// … and contains this.
    pub contains: String,
}

/// The bad-input matrix of issue #23, one table: environment failures exit 5 and do not
/// blame a case; malformed class files say what is wrong in the file's terms; `graph` refuses
/// what `check` refuses (class versions the tracer cannot instrument, unknown fields, ints
/// outside the Java range under `--ints java`); counts and budgets of 0 are usage errors.
#[test]
fn the_bad_input_matrix_of_issue_23() {
    let fx = fx();
    let d = temp("matrix");
    let list = std::fs::read(fixtures().join("List.class")).expect("List.class");
    let s = |x: &str| x.to_string();
    let dir = |name: &str, bytes: &[u8]| {
        let p = d.join(name);
        write(&p, "List.class", bytes);
        p.to_str().unwrap().to_string()
    };
    let garbage = dir("garbage", b"\x00\x01\x02\x03 not a class");
    let truncated = dir("truncated", &list[..100]);
    let mut v65 = list.clone();
    v65[6..8].copy_from_slice(&65u16.to_be_bytes());
    let v65 = dir("v65", &v65);
    let foo = write(
        &d,
        "foo.state",
        "00 | cur: o1, x: i1 | ε\no1: List(next=null, val=i2, foo=i3)  i1: 1  i2: 2  i3: 3\n",
    );
    let big = write(
        &d,
        "big.state",
        "00 | cur: o1, x: i1 | ε\no1: List(?)  i1: 3000000000\n",
    );
    let huge = write(
        &d,
        "huge.state",
        "00 | s: o1 | ε\no1: java.lang.String(count=i1)  i1: 2000000000\n",
    );
    let empty_jdk = d.join("jdk");
    std::fs::create_dir_all(&empty_jdk).unwrap();
    let x = write(&d, "x.state", "00 | a: i1, b: i2 | ε\ni1: 6  i2: 3\n");
    let missing = d.join("missing.json").to_str().unwrap().to_string();
    let cmd = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let rows = vec![
        Row {
            what: "check without a JVM",
            args: cmd(&["check", &fx, "List.contains", "-n", "3"]),
            env: vec![("JAVA_HOME", s("/nonexistent/jdk"))],
            code: 5,
            starts: "jtg: JVM not found at /nonexistent/jdk",
            contains: s("not a directory"),
        },
        Row {
            what: "check with a JAVA_HOME without a JVM",
            args: cmd(&["check", &fx, "List.contains", "-n", "3"]),
            env: vec![("JAVA_HOME", empty_jdk.display().to_string())],
            code: 5,
            starts: "jtg: JVM not found at",
            contains: s("libjvm.so"),
        },
        Row {
            what: "trace without a JVM",
            args: cmd(&["trace", &fx, "Throws.div", "--input", &x]),
            env: vec![("JAVA_HOME", s("/nonexistent/jdk"))],
            code: 5,
            starts: "jtg: ",
            contains: s("JVM not found at /nonexistent/jdk"),
        },
        Row {
            what: "trace of a string input longer than inputs may be",
            args: cmd(&[
                "trace",
                &fx,
                "everyday.Strings.isPalindrome",
                "--input",
                &huge,
            ]),
            env: vec![],
            code: 2,
            starts: "jtg: ",
            contains: s("a string of length 2000000000, longer than an input may be (16777216)"),
        },
        Row {
            what: "graph of a non-class file",
            args: cmd(&["graph", &garbage, "List.get"]),
            env: vec![],
            code: 2,
            starts: "jtg: malformed input: ",
            contains: s("not a class file (magic 0x00010203, not 0xcafebabe)"),
        },
        Row {
            what: "graph of a truncated class file",
            args: cmd(&["graph", &truncated, "List.get"]),
            env: vec![],
            code: 2,
            starts: "jtg: malformed input: ",
            contains: s("truncated at byte 100"),
        },
        Row {
            what: "graph of a class newer than ASM instruments",
            args: cmd(&["graph", &v65, "List.get"]),
            env: vec![],
            code: 3,
            starts: "jtg: unsupported: class List: ",
            contains: s("class file version 65 (Java 21) is newer than jtg handles"),
        },
        Row {
            what: "check of a class newer than ASM instruments",
            args: cmd(&["check", &v65, "List.get", "-n", "2"]),
            env: vec![],
            code: 3,
            starts: "jtg: unsupported: class List: ",
            contains: s("version 65"),
        },
        Row {
            what: "graph with an unknown field",
            args: cmd(&["graph", &fx, "List.contains", "--start", &foo]),
            env: vec![],
            code: 2,
            starts: "jtg: start state: ",
            contains: s("o1: class List has no instance field `foo`"),
        },
        Row {
            what: "check with an unknown field",
            args: cmd(&["check", &fx, "List.contains", "--start", &foo, "-n", "2"]),
            env: vec![],
            code: 2,
            starts: "jtg: start state: ",
            contains: s("no instance field `foo`"),
        },
        Row {
            what: "graph with an int outside the Java range",
            args: cmd(&[
                "graph",
                &fx,
                "List.contains",
                "--start",
                &big,
                "--ints",
                "java",
            ]),
            env: vec![],
            code: 2,
            starts: "jtg: start state: ",
            contains: s("i1: 3000000000 is outside the Java int range"),
        },
        Row {
            what: "graph --max-nodes 0",
            args: cmd(&["graph", &fx, "List.contains", "--max-nodes", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-nodes 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "graph --max-secs 0",
            args: cmd(&["graph", &fx, "List.contains", "--max-secs", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-secs 0: must be a positive number",
            contains: s(""),
        },
        Row {
            what: "check -n 0",
            args: cmd(&["check", &fx, "List.contains", "-n", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: -n 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "check --max-steps 0",
            args: cmd(&["check", &fx, "List.contains", "--max-steps", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-steps 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "trace --max-steps 0",
            args: cmd(&[
                "trace",
                &fx,
                "Throws.div",
                "--input",
                &x,
                "--max-steps",
                "0",
            ]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-steps 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "corpus --check 0",
            args: cmd(&["corpus", &garbage, "--check", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --check 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "corpus --max-work 0",
            args: cmd(&["corpus", &garbage, "--max-work", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-work 0: must be at least 1",
            contains: s(""),
        },
        Row {
            what: "diff of a missing file",
            args: cmd(&["diff", &missing, &missing]),
            env: vec![],
            code: 2,
            starts: "jtg: cannot read ",
            contains: s("missing.json"),
        },
        Row {
            what: "diff of a file that is no graph",
            args: cmd(&["diff", &foo, &foo]),
            env: vec![],
            code: 2,
            starts: "jtg: ",
            contains: s("not jtg graph JSON"),
        },
        Row {
            what: "prove --max-nodes 0",
            args: cmd(&["prove", &fx, "List.contains", "--max-nodes", "0"]),
            env: vec![],
            code: 2,
            starts: "jtg: --max-nodes 0: must be at least 1",
            contains: s(""),
        },
    ];
    run_rows(&rows);
}

/// Runs each row: its exit code, exactly one stderr line starting and containing what the
/// row says, no case blamed for an environment failure, nothing on stdout.
pub(crate) fn run_rows(rows: &[Row]) {
    for row in rows {
        let args: Vec<&str> = row.args.iter().map(String::as_str).collect();
        let env: Vec<(&str, &str)> = row.env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = jtg_env(&args, &env);
        assert_eq!(
            r.code, row.code,
            "{}: exit code; stderr: {}",
            row.what, r.stderr
        );
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{}: not one line: {:?}", row.what, r.stderr);
        assert!(
            lines[0].starts_with(row.starts),
            "{}: {}",
            row.what,
            lines[0]
        );
        assert!(
            lines[0].contains(&row.contains),
            "{}: {}",
            row.what,
            lines[0]
        );
        // an environment failure is not the fault of the case it happened on
        assert!(
            !lines[0].contains("tracing seed"),
            "{}: {}",
            row.what,
            lines[0]
        );
        assert!(r.stdout.is_empty(), "{}: printed {}", row.what, r.stdout);
    }
}
