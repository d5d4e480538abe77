//! The bad-input rows of issue #36: each error names the real problem, in one line, with the
//! documented exit code (README, *Exit codes*); a closed pipe ends quietly.

use super::common::fixtures;
use super::{fx, jtg_env, run_rows, temp, write, Row};
use std::io::Read;
use std::process::{Command, Stdio};

/// A copy of fixture `class` in `dir` with its class file version set to `version`.
fn with_version(dir: &std::path::Path, class: &str, version: u16) {
    let mut bytes = std::fs::read(fixtures().join(format!("{class}.class"))).unwrap();
    bytes[6..8].copy_from_slice(&version.to_be_bytes());
    write(dir, &format!("{class}.class"), bytes);
}

/// The major version of the JVM the tests run (`java -version`: `openjdk version "17.0.15"`).
fn java_feature_version() -> Option<u32> {
    let out = Command::new("java").arg("-version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    let quoted = text.split('"').nth(1)?;
    quoted.split('.').next()?.parse().ok()
}

#[test]
fn the_bad_input_rows_of_issue_36() {
    let fx = fx();
    let d = temp("issue36");
    let s = |x: &str| x.to_string();
    let cmd = |args: &[&str]| args.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let list_class = fixtures().join("List.class").display().to_string();
    // a concrete input with a predicate: no concrete state has one
    let shared = write(
        &d,
        "shared.state",
        "00 | cur: o1, x: i1 | ε\no1: List(next=null, val=i2)  i1: 1  i2: 2\no1♦\n",
    );
    // predicates over a field no object has, beside the same mistake in an object
    let cyc = write(
        &d,
        "cyc.state",
        "00 | cur: o1, x: i1 | ε\no1: List(?)  i1: Z\no1⟲{nxt}\n",
    );
    let reach = write(
        &d,
        "reach.state",
        "00 | cur: o1, x: i1 | ε\no1: List(?)  o2: List(?)  i1: Z\no1→!{nxt}o2\n",
    );
    // a class file of version 64 (Java 20): the engine and ASM read it, a JDK 17 cannot run it
    let v64 = d.join("v64");
    with_version(&v64, "List", 64);
    with_version(&v64, "NonTerm", 64);
    let v64 = v64.display().to_string();
    let mut rows = vec![
        Row {
            what: "graph with a method argument that is no Class.method",
            args: cmd(&["graph", &fx, "sum"]),
            env: vec![],
            code: 2,
            starts: "jtg: method `sum` is not of the form Class.method or Class.method(descriptor)",
            contains: s(""),
        },
        Row {
            what: "graph with a class file as class path",
            args: cmd(&["graph", &list_class, "List.get"]),
            env: vec![],
            code: 2,
            starts: "jtg: class path ",
            contains: s("List.class is a class file, not a class path: a class path is a folder"),
        },
        Row {
            what: "check --input with a predicate",
            args: cmd(&["check", &fx, "List.contains", "--input", &shared]),
            env: vec![],
            code: 2,
            starts: "jtg: bad input: input is not an instance of the start state: a concrete input has no predicates",
            contains: s("o1♦"),
        },
        Row {
            what: "graph with a cycle predicate over a missing field",
            args: cmd(&["graph", &fx, "List.contains", "--start", &cyc]),
            env: vec![],
            code: 2,
            starts: "jtg: start state: ",
            contains: s("o1⟲{nxt}: no object reachable from o1 has an instance field `nxt`"),
        },
        Row {
            what: "check with a must-reach predicate over a missing field",
            args: cmd(&["check", &fx, "List.contains", "--start", &reach, "-n", "2"]),
            env: vec![],
            code: 2,
            starts: "jtg: start state: ",
            contains: s("o1→!{nxt}o2: no object reachable from o1 has an instance field `nxt`"),
        },
        Row {
            what: "check with JVM options the JVM does not start with",
            args: cmd(&["check", &fx, "List.contains", "-n", "2"]),
            env: vec![("JTG_JVM_OPTIONS", s("-Xmx1m"))],
            code: 5,
            starts: "jtg: cannot start the embedded JVM: JTG_JVM_OPTIONS=-Xmx1m: ",
            contains: s("Too small maximum heap"),
        },
    ];
    // only a JVM older than Java 20 refuses version 64
    if java_feature_version().is_some_and(|v| v < 20) {
        rows.push(Row {
            what: "check of a class file newer than the JVM",
            args: cmd(&["check", &v64, "List.contains", "-n", "2"]),
            env: vec![],
            code: 5,
            starts: "jtg: the JVM cannot load class List: ",
            contains: s("class file version 64.0"),
        });
        rows.push(Row {
            what: "prove of a class file newer than the JVM",
            args: cmd(&["prove", &v64, "NonTerm.parity"]),
            env: vec![],
            code: 5,
            starts: "jtg: the JVM cannot load class NonTerm: ",
            contains: s("class file version 64.0"),
        });
    }
    run_rows(&rows);
    // the inner error's own "bad input:" is not repeated
    let r = jtg_env(&["check", &fx, "List.contains", "--input", &shared], &[]);
    assert_eq!(r.stderr.matches("bad input").count(), 1, "{}", r.stderr);
}

/// `jtg … | head`: the reader goes away after the first line; jtg ends at once, quietly, with
/// exit code 0 (it used to say "cannot write to standard output: Broken pipe", exit 2).
#[test]
fn a_closed_pipe_ends_quietly() {
    let fx = fx();
    let d = temp("pipe");
    let x = write(&d, "x.state", "00 | x: i1 | ε\ni1: 5\n");
    for args in [
        vec![
            "trace",
            &fx,
            "Loop.forever",
            "--input",
            &x,
            "--max-steps",
            "100000",
        ],
        vec!["graph", &fx, "IntLoops.nested"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // the read end is closed here: the rest of the output has nowhere to go
        let out = child.wait_with_output().unwrap();
        let stderr = super::common::stderr_of(&out.stderr);
        let stderr: Vec<&str> = stderr
            .lines()
            .filter(|l| !l.starts_with("jtg: trace cut after"))
            .collect();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr:?}");
        assert!(stderr.is_empty(), "{args:?}: {stderr:?}");
    }
}
