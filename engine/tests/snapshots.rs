//! Snapshot tests of every fixture graph (issue #7): for each entry of
//! `java-fixtures/suite.txt` (named by `SuiteEntry::name()`), the graph's text form and its
//! DOT form, built with unbounded integers, and the text form with Java ints, are stored in the
//! top-level `snapshots/` folder, so a pull request that changes a graph shows the change as a
//! reviewable diff.
//!
//! `make test` runs with `INSTA_UPDATE=no CI=true`: a changed snapshot fails, and a missing
//! one fails too instead of being written. To accept changes, see "Reviewing graph changes" in
//! the README.
//!
//! The snapshots are only reviewable if an unrelated change cannot reorder them, so the second
//! half of this file proves the renderings canonical: building a graph twice, and building it
//! from class files whose methods and fields were permuted, gives byte-identical text.

mod common;

use common::{StartState, SuiteEntry};
use jtg_engine::class::ClassPath;
use jtg_engine::render;
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Graph, Options, Program};
use std::collections::BTreeSet;

fn build(prog: &Program, entry: &SuiteEntry, ints: IntSemantics) -> Graph {
    let m = prog.find_method(&entry.method).expect("method");
    let start = entry.start_state(prog, &m, ints);
    let opts = Options {
        ints,
        max_nodes: 20_000,
    };
    build_graph(prog, &m, start, &opts).unwrap_or_else(|f| panic!("{}: {f:?}", entry.name()))
}

/// Snapshot settings: files in `snapshots/` named `<entry>[.<form>].snap`, without the test
/// module prefix, so the folder reads like a list of fixtures.
fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../../snapshots");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

/// Runs `check` for every suite entry and reports all entries whose snapshots differ, not just
/// the first, so one `INSTA_UPDATE=new cargo test` run writes every `.snap.new`.
fn for_each_entry(check: impl Fn(&Program, &SuiteEntry)) {
    let prog = common::program();
    let suite = common::suite();
    assert!(suite.len() >= 15, "the suite has at least 15 entries");
    let failed: Vec<String> = suite
        .iter()
        .filter(|entry| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&prog, entry))).is_err()
        })
        .map(SuiteEntry::name)
        .collect();
    assert!(
        failed.is_empty(),
        "snapshots differ for: {} (see \"Reviewing graph changes\" in the README)",
        failed.join(", ")
    );
}

#[test]
fn text_snapshots() {
    for_each_entry(|prog, entry| {
        let g = build(prog, entry, IntSemantics::Unbounded);
        settings().bind(|| insta::assert_snapshot!(entry.name(), render::text::render(&g, prog)));
    });
}

#[test]
fn java_ints_text_snapshots() {
    for_each_entry(|prog, entry| {
        let g = build(prog, entry, IntSemantics::Java);
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("{}.java-ints", entry.name()),
                render::text::render(&g, prog)
            )
        });
    });
}

#[test]
fn dot_snapshots() {
    for_each_entry(|prog, entry| {
        let g = build(prog, entry, IntSemantics::Unbounded);
        let dot = render::dot::render(&g, prog, &BTreeSet::new());
        settings().bind(|| insta::assert_snapshot!(format!("{}.dot", entry.name()), dot));
    });
}

/// The text of every suite graph under a program, in the given integer semantics.
fn all_texts(prog: &Program, semantics: &[IntSemantics]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in common::suite() {
        for &ints in semantics {
            let g = build(prog, &entry, ints);
            out.push((
                format!("{} {ints:?}", entry.name()),
                render::text::render(&g, prog),
            ));
        }
    }
    out
}

/// Seeds of the member shuffle.
const SEEDS: [u64; 3] = [1, 2, 0xdead_beef];

fn assert_same(what: &str, base: &[(String, String)], other: &[(String, String)]) {
    assert_eq!(base.len(), other.len());
    let differing: Vec<&str> = base
        .iter()
        .zip(other)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert!(
        differing.is_empty(),
        "{what} changed the graphs of {differing:?}"
    );
}

#[test]
fn building_twice_gives_identical_text() {
    let both = [IntSemantics::Unbounded, IntSemantics::Java];
    let first = all_texts(&common::program(), &both);
    let second = all_texts(&common::program(), &both);
    assert_same("a second build", &first, &second);
}

/// Member order is read in the same places under both integer semantics, so one semantics
/// suffices here (and keeps the test fast: Tree.size has ~3000 nodes).
#[test]
fn member_order_of_class_files_does_not_matter() {
    let unbounded = [IntSemantics::Unbounded];
    let base = all_texts(&common::program(), &unbounded);
    for seed in SEEDS {
        let cp = ClassPath::from_paths(&[common::fixtures_dir()])
            .expect("fixture class path")
            .with_member_shuffle(seed);
        let shuffled = all_texts(&Program::new(cp), &unbounded);
        assert_same(&format!("shuffle seed {seed}"), &base, &shuffled);
    }
}

/// The shuffle hook really permutes members (otherwise the test above proves nothing).
#[test]
fn member_shuffle_permutes_members() {
    let plain = ClassPath::from_paths(&[common::fixtures_dir()]).expect("class path");
    let names = |cp: &ClassPath| -> Vec<(Vec<String>, Vec<String>)> {
        ["List", "ListOps", "IntLoops", "Tree"]
            .iter()
            .map(|c| {
                let class = cp.load(c).expect("fixture class");
                (
                    class.methods.iter().map(|m| m.name.clone()).collect(),
                    class.fields.iter().map(|f| f.name.clone()).collect(),
                )
            })
            .collect()
    };
    let base = names(&plain);
    let moved = SEEDS.iter().any(|&seed| {
        let cp = ClassPath::from_paths(&[common::fixtures_dir()])
            .expect("class path")
            .with_member_shuffle(seed);
        let shuffled = names(&cp);
        // same members, possibly in another order
        for ((m0, f0), (m1, f1)) in base.iter().zip(&shuffled) {
            let sorted = |v: &Vec<String>| {
                let mut v = v.clone();
                v.sort();
                v
            };
            assert_eq!(sorted(m0), sorted(m1));
            assert_eq!(sorted(f0), sorted(f1));
        }
        shuffled != base
    });
    assert!(moved, "no seed changed any member order");
}

/// insta cannot tell a snapshot nobody asserts any more (a fixture left the suite) without
/// `cargo insta test --unreferenced=reject`; this test refuses such leftovers.
#[test]
fn every_snapshot_belongs_to_a_suite_entry() {
    let names: BTreeSet<String> = common::suite()
        .iter()
        .flat_map(|e| {
            let n = e.name();
            [
                format!("{n}.snap"),
                format!("{n}.java-ints.snap"),
                format!("{n}.dot.snap"),
            ]
        })
        .collect();
    let dir = common::repo_dir().join("snapshots");
    let stale: Vec<String> = std::fs::read_dir(&dir)
        .expect("snapshots/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".snap") && !names.contains(f))
        .collect();
    assert!(
        stale.is_empty(),
        "snapshots without a suite entry: {stale:?}"
    );
}
