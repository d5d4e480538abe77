//! `java.util.Objects.equals/hashCode/hash` (`everyday.Equality`, `make fixtures`): modelled
//! where the JDK runs no program code — `null`, the JDK value classes, classes with `Object`'s
//! methods — and unsupported, named, where it would call a program's own `equals`.

mod common;

use jtg_engine::class::ClassPath;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, EngineError, Options, Program};

fn build(prog: &Program, method: &str) -> Result<jtg_engine::Graph, EngineError> {
    let m = prog.find_method(method).expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    build_graph(prog, &m, st, &Options::default()).map_err(|f| f.error)
}

#[test]
fn objects_calls_on_jdk_values_and_identity_classes_give_complete_graphs() {
    let prog = common::program();
    for method in [
        "everyday.Equality.countEqual",
        "everyday.Equality.hashOf",
        "everyday.Equality.sameBox",
    ] {
        let g = build(&prog, method).unwrap_or_else(|e| panic!("{method}: {e}"));
        assert!(g.is_complete(), "{method}");
    }
}

/// `Objects.equals(a, b)` calls `a.equals(b)`: a program class's own `equals` is named.
#[test]
fn objects_equals_of_a_program_equals_is_unsupported_and_named() {
    let dir = std::env::temp_dir().join(format!("jtg-objects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("Person.java");
    std::fs::write(
        &src,
        "final class Person {\n\
         int age;\n\
         public boolean equals(Object o) { return o instanceof Person p && p.age == age; }\n\
         public int hashCode() { return age; }\n\
         static boolean same(Person a, Person b) { return java.util.Objects.equals(a, b); }\n}\n",
    )
    .expect("source");
    let status = std::process::Command::new(std::env::var("JAVAC").unwrap_or("javac".into()))
        .args(["-g", "-d"])
        .arg(&dir)
        .arg(&src)
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed");
    let prog = Program::new(ClassPath::from_paths(std::slice::from_ref(&dir)).expect("class path"));
    let e = build(&prog, "Person.same").expect_err("unsupported");
    std::fs::remove_dir_all(&dir).ok();
    let (method, what) = match e {
        EngineError::Unsupported { method, what, .. } => (method, what),
        EngineError::UnsupportedAt(at) => (at.method, at.what),
        other => panic!("not an unsupported feature: {other}"),
    };
    assert_eq!(method.to_string(), "Person.same(LPerson;LPerson;)Z");
    assert!(
        what.contains("Objects.equals of a Person: its equals() may be program code"),
        "{what}"
    );
}
