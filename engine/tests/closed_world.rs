//! The closed world cannot be poisoned: classes the entry cannot reach (an enum, subclasses of
//! unmodelled JDK classes, java-fixtures/closed-world/) compiled into the same folder as
//! everyday fixtures change none of their graphs, nor which of them are unsupported.

use jtg_engine::class::ClassPath;
use jtg_engine::render;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The everyday fixtures compiled beside the unreachable classes.
const FIXTURES: [&str; 3] = ["Lists.java", "Trees.java", "ArrayLoops.java"];

fn compile(out: &Path, sources: &[PathBuf]) {
    std::fs::create_dir_all(out).expect("scratch folder");
    let status = Command::new("javac")
        .args(["-g", "-nowarn", "-d"])
        .arg(out)
        .args(sources)
        .status()
        .expect("javac runs");
    assert!(status.success(), "javac failed on {sources:?}");
}

/// Every static method of the classes of `Lists`, `Trees` and `ArrayLoops`, by name.
fn entries(prog: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for class in ["everyday/Lists", "everyday/Trees", "everyday/ArrayLoops"] {
        let c = prog
            .hierarchy
            .classpath()
            .load(class)
            .expect("fixture class");
        for m in c.methods.iter().filter(|m| m.is_static && m.code.is_some()) {
            if !m.name.starts_with('<') {
                out.push(format!("{}.{}", class.replace('/', "."), m.name));
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The text of the graph of `method`, or its error.
fn outcome(prog: &Program, method: &str) -> String {
    let m = prog.find_method(method).expect("method");
    let ints = IntSemantics::Unbounded;
    let st = prog.default_start(&m, ints).expect("start state");
    let opts = Options {
        ints,
        max_nodes: 5_000,
    };
    match build_graph(prog, &m, st, &opts) {
        Ok(g) if g.is_complete() => render::text::render(&g, prog),
        Ok(g) => format!("incomplete: {:?}", g.open_leaves()),
        Err(e) => format!("error: {e:?}"),
    }
}

#[test]
fn unreachable_unmodelled_classes_change_no_graph() {
    let src = jtg_testkit::fixture_sources();
    let fixtures: Vec<PathBuf> = FIXTURES
        .iter()
        .map(|f| src.join("everyday/everyday").join(f))
        .collect();
    let mut poisoned = fixtures.clone();
    poisoned.push(src.join("closed-world/everyday/Poison.java"));
    let scratch = std::env::temp_dir().join(format!("jtg-closed-world-{}", std::process::id()));
    let (clean_dir, poisoned_dir) = (scratch.join("clean"), scratch.join("poisoned"));
    compile(&clean_dir, &fixtures);
    compile(&poisoned_dir, &poisoned);
    let clean = Program::new(ClassPath::from_paths(&[clean_dir]).expect("class path"));
    let dirty = Program::new(ClassPath::from_paths(&[poisoned_dir]).expect("class path"));
    let methods = entries(&clean);
    assert!(methods.len() >= 20, "too few entries: {methods:?}");
    let mut complete = 0;
    let mut changed = Vec::new();
    for m in &methods {
        let (a, b) = (outcome(&clean, m), outcome(&dirty, m));
        if !a.starts_with("error") && !a.starts_with("incomplete") {
            complete += 1;
        }
        if a != b {
            changed.push(format!(
                "{m}:\n  alone: {}\n  beside the poison: {}",
                first(&a),
                first(&b)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        complete >= 15,
        "only {complete} complete graphs: the comparison shows little"
    );
    assert!(changed.is_empty(), "{}", changed.join("\n"));
}

fn first(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
