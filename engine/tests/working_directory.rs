//! A class path's folders are read where they were when it was made, whatever the process's
//! working directory is later. A separate test binary (own process): it changes the working
//! directory, which every thread shares.
//!
//! The embedded JVM changed it for a moment when it started (its hsperfdata file); a
//! `jtg corpus --jobs 2 --check` worker building a graph at that moment read its relative class
//! path (`build/fixtures`) in the JVM's folder and built another graph.

use jtg_engine::class::ClassPath;
use jtg_engine::render;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options, Program};
use jtg_testkit::fixtures;

/// The JSON of the graph of `method` on `prog`, or its error.
fn graph(prog: &Program, method: &str) -> String {
    let m = prog.find_method(method).expect("method");
    let ints = IntSemantics::Unbounded;
    let st = prog.default_start(&m, ints).expect("start state");
    let opts = Options {
        ints,
        ..Options::default()
    };
    match build_graph(prog, &m, st, &opts) {
        Ok(g) => render::json::render(&g, prog),
        Err(e) => format!("error: {}", e.error),
    }
}

#[test]
fn a_relative_class_path_does_not_follow_the_working_directory() {
    let dir = fixtures().canonicalize().expect("fixtures");
    let parent = dir.parent().expect("fixtures' parent");
    let relative = dir.file_name().expect("fixtures' name").to_string_lossy();
    let methods = [
        "everyday.Lists.length",
        "everyday.Equality.sameBox",
        "everyday.Trees.size",
        "List.contains",
    ];
    std::env::set_current_dir(parent).expect("cd to the fixtures' parent");
    let before = Program::new(ClassPath::parse(&relative).expect("class path"));
    let expected: Vec<String> = methods.iter().map(|m| graph(&before, m)).collect();
    // made here, read (classes loaded, the folder walked for the closed world) elsewhere
    let cp = ClassPath::parse(&relative).expect("class path");
    std::env::set_current_dir(std::env::temp_dir()).expect("cd elsewhere");
    let after = Program::new(cp);
    let got: Vec<String> = methods.iter().map(|m| graph(&after, m)).collect();
    std::env::set_current_dir(parent).expect("cd back");
    for ((m, e), g) in methods.iter().zip(&expected).zip(&got) {
        assert!(!e.starts_with("error"), "{m}: {e}");
        assert!(
            e == g,
            "{m}: another graph after the working directory changed"
        );
    }
}
