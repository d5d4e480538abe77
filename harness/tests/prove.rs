//! `jtg prove` and the ITS export (docs/proving.md, *From graphs to ITS*): the verdicts of
//! issue #19's fixtures, NO witnesses that replay, the cross-check catching a broken
//! certificate, and the ARI export of `List.contains` read back.

mod common;

use jtg_engine::class::ClassPath;
use jtg_engine::{build_graph, Options, Program};
use jtg_terminate::{encode, EncodeOptions};
use std::process::Command;

fn jtg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .output()
        .expect("jtg runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        common::stderr_of(&out.stderr),
    )
}

fn fixtures() -> String {
    common::fixtures().display().to_string()
}

fn start(name: &str) -> String {
    common::fixture_sources()
        .join("start")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn contains_terminates_by_the_size_of_cur() {
    let (code, out, err) = jtg(&["prove", &fixtures(), "List.contains", "--check", "40"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("List.contains(LList;I)Z: YES"), "{out}");
    assert!(
        out.contains("|cur|"),
        "a size ranking function on cur: {out}"
    );
    assert!(out.contains("0 violations"), "{out}");
}

#[test]
fn get_on_a_cyclic_list_terminates_by_the_index() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "List.get",
        "--start",
        &start("List.get.cyclic.state"),
        "--check",
        "20",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("List.get(I)I: YES"), "{out}");
    assert!(
        out.contains("  [16]  x (i7)"),
        "the index x ranks the loop: {out}"
    );
    assert!(out.contains("0 violations"), "{out}");
}

#[test]
fn sentinel_walks_terminate_by_the_distance_to_the_sentinel() {
    // a cyclic list walked to its header (Sentinel, as java.util.LinkedList's indexOf) and a
    // ring walked back to its start: no size decreases, the distance along `next` to the
    // node the walk must reach does (`e →!{next} header`, spec §3)
    for (method, state, walker) in [
        (
            "Sentinel.indexOf",
            "Sentinel.indexOf.cyclic.state",
            "dist(e, ",
        ),
        (
            "Ring.iterate",
            "Ring.iterate.cyclic.state",
            "dist(current, this)",
        ),
    ] {
        let (code, out, err) = jtg(&[
            "prove",
            &fixtures(),
            method,
            "--start",
            &start(state),
            "--check",
            "50",
        ]);
        assert_eq!(code, 0, "{method}: {out}{err}");
        assert!(out.contains(": YES"), "{method}: {out}");
        assert!(
            out.contains(walker),
            "{method}: ranked by the distance: {out}"
        );
        assert!(out.contains("check: 50 runs"), "{method}: {out}");
        assert!(out.contains(" 0 violations"), "{method}: {out}");
        assert!(!out.contains(" 0 transitions"), "{method}: {out}");
    }
}

#[test]
fn a_wrong_distance_update_is_caught() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "Sentinel.indexOf",
        "--start",
        &start("Sentinel.indexOf.cyclic.state"),
        "--check",
        "30",
        "--break-certificate",
        "dist",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("VIOLATION (export)"), "{out}");
    assert!(out.contains("the update gives"), "{out}");
    assert!(out.contains("d_o"), "a distance variable's rule: {out}");
}

/// A NO names an input file that `jtg trace` replays into a cut run.
fn assert_no_with_replay(out: &str, kind: &str) {
    assert_no_with_replay_ending(out, kind, false)
}

/// The text of the witness input a NO's output names.
fn witness_input(out: &str) -> String {
    let file = out
        .lines()
        .find_map(|l| l.strip_prefix("input ")?.strip_suffix(':'))
        .expect("an input file line");
    std::fs::read_to_string(file).expect("the witness file exists")
}

/// As [`assert_no_with_replay`]; with `recursion`, the replay may also end by the JVM's
/// `StackOverflowError` (an unbounded recursion, docs/proving.md *NO for graphs*).
fn assert_no_with_replay_ending(out: &str, kind: &str, recursion: bool) {
    assert!(out.contains(": NO"), "{out}");
    assert!(out.contains(&format!("witness ({kind})")), "{out}");
    let text = witness_input(out);
    assert!(text.starts_with("00 |"), "{text}");
    let replay = out
        .lines()
        .find_map(|l| l.strip_prefix("replay: jtg "))
        .expect("a replay line");
    let args: Vec<String> = replay
        .split_whitespace()
        .map(|a| a.trim_matches('\'').to_string())
        .collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, trace, err) = jtg(&refs);
    assert_eq!(code, 0, "{err}");
    let overflow = recursion && trace.contains("java.lang.StackOverflowError");
    assert!(
        err.contains("trace cut after") || overflow,
        "the replay never ends: {err}"
    );
}

#[test]
fn parity_loop_does_not_terminate_on_odd_x() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "NonTerm.parity",
        "--max-steps",
        "5000",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_no_with_replay(&out, "recurrent_set");
}

/// `method` is NO by a set closed under all rules of its loop, its witness replays without an
/// end, and the cross-check of 20 runs finds nothing.
fn assert_no_by_closed_set(method: &str) {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        method,
        "--max-steps",
        "5000",
        "--check",
        "20",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_no_with_replay(&out, "recurrent_set");
    assert!(out.contains("a set closed under all"), "{out}");
    assert!(out.contains(" 0 violations"), "{out}");
}

#[test]
fn a_tree_grown_by_a_recursive_constructor_is_walked_to_its_end() {
    // the constructor's abstracted calls may change what they reach, the static string array
    // included; a tree can share nothing with strings, so it stays acyclic and its height
    // recursion is bounded by its size
    let (code, out, err) = jtg(&["prove", &fixtures(), "Grow.grownHeight", "--check", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Grow.grownHeight([Ljava/lang/String;)I: YES"),
        "{out}"
    );
    assert!(out.contains(" 0 violations"), "{out}");
}

#[test]
fn a_loop_cycling_through_its_branches_does_not_terminate() {
    // no single branch repeats: the set 40 ≤ x ≤ 47 is closed under the rules together
    assert_no_by_closed_set("NonTerm.cycleThroughBranches");
}

#[test]
fn a_loop_whose_set_is_the_negated_exit_does_not_terminate() {
    // x catches up with y, y doubles: no state repeats, no box is closed, {0 ≤ x ≤ y} is
    assert_no_by_closed_set("NonTerm.catchUp");
}

#[test]
fn a_set_one_argument_length_enters_gets_its_witness_from_the_path() {
    // {n = 1000} is entered only when args[1] has length 1000: the witness input takes the
    // path's temporary (that length) instead of waiting for a random input to draw it
    for ints in ["unbounded", "java"] {
        let (code, out, err) = jtg(&[
            "prove",
            &fixtures(),
            "NonTerm.spinsOnOneLength",
            "--ints",
            ints,
            "--max-steps",
            "5000",
        ]);
        assert_eq!(code, 0, "{out}{err}");
        assert_no_with_replay(&out, "recurrent_set");
        let text = witness_input(&out);
        assert!(text.contains(": 1000"), "args[1] has length 1000: {text}");
    }
}

#[test]
fn cyclic_walk_does_not_terminate() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "NonTerm.walk",
        "--start",
        &start("NonTerm.walk.cyclic.state"),
        "--max-steps",
        "5000",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_no_with_replay(&out, "repeated_state");
    // on acyclic lists (the default start) the same walk terminates
    let (_, out, _) = jtg(&["prove", &fixtures(), "NonTerm.walk"]);
    assert!(out.contains(": YES"), "{out}");
}

#[test]
fn a_ranking_function_that_does_not_decrease_is_caught() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "List.contains",
        "--check",
        "30",
        "--break-certificate",
        "rank",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("VIOLATION (ranking)"), "{out}");
    assert!(out.contains("does not decrease"), "{out}");
    assert!(out.contains("replay: jtg prove"), "{out}");
}

/// The objects of a state in the text form (`o3: List(…)`): how large an input is.
fn objects(state: &str) -> usize {
    state.matches(": List(").count()
}

#[test]
fn a_violation_is_shrunk_and_its_shrunk_input_replays_alone() {
    let broken = [
        "prove",
        &fixtures(),
        "List.contains",
        "--check",
        "30",
        "--break-certificate",
        "rank",
        "--format",
        "json",
    ];
    let (code, out, err) = jtg(&broken);
    assert_eq!(code, 1, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON report");
    let v = &report["violations"][0];
    assert_eq!(v["kind"], "ranking", "{out}");
    let shrunk = &v["shrunk"];
    let small = shrunk["input"].as_str().expect("a shrunk input");
    let original = v["input"].as_str().expect("the input");
    assert!(
        objects(small) < objects(original),
        "shrinking kept {} of {} objects:\n{small}",
        objects(small),
        objects(original)
    );
    // a ranking function that increases fails on the first lap of any list: one element
    assert_eq!(objects(small), 1, "{small}");
    let file = shrunk["input_file"].as_str().expect("saved");
    assert_eq!(std::fs::read_to_string(file).expect("saved file"), small);
    let replay = shrunk["replay"].as_str().expect("a replay command");
    assert!(
        replay.contains("--break-certificate rank") && replay.contains(&format!("--input {file}")),
        "{replay}"
    );

    // the shrunk input alone, as the replay runs it: the same violation, and nothing smaller
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "List.contains",
        "--break-certificate",
        "rank",
        "--input",
        file,
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let again: serde_json::Value = serde_json::from_str(&out).expect("JSON report");
    assert_eq!(again["checked_runs"], 1, "{out}");
    assert_eq!(again["violations"][0]["kind"], "ranking", "{out}");
    assert_eq!(
        again["violations"][0]["input"].as_str(),
        Some(small),
        "{out}"
    );
    // with the certificate intact, the same input passes
    let (code, out, err) = jtg(&["prove", &fixtures(), "List.contains", "--input", file]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("check: 1 runs") && out.contains(" 0 violations"),
        "{out}"
    );
}

#[test]
fn an_input_that_is_no_instance_of_the_start_state_is_refused() {
    let dir = std::env::temp_dir().join(format!("jtg-prove-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // a cyclic list: the default start state of contains says the list is acyclic
    let cyclic = dir.join("cyclic.state");
    std::fs::write(
        &cyclic,
        "00 | cur: o1, x: i1 | ε\no1: List(next=o1, val=i2)  i1: 0  i2: 1\n",
    )
    .expect("write");
    let cyclic = cyclic.display().to_string();
    let (code, out, err) = jtg(&["prove", &fixtures(), "List.contains", "--input", &cyclic]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(&cyclic) && err.contains("not an instance of the start state"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    // no state at all
    let garbage = dir.join("garbage.state");
    std::fs::write(&garbage, "garbage\n").expect("write");
    let garbage = garbage.display().to_string();
    let (code, _, err) = jtg(&["prove", &fixtures(), "List.contains", "--input", &garbage]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&garbage), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_subtractive_gcd_terminates_under_its_interval_invariants() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "IntLoops.gcdPositive",
        "--check",
        "30",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("IntLoops.gcdPositive(II)I: YES"), "{out}");
    assert!(
        out.contains("invariant ["),
        "the proof assumes invariants: {out}"
    );
    assert!(out.contains("1 <= a"), "{out}");
    assert!(out.contains("0 violations"), "{out}");
}

#[test]
fn a_broken_invariant_is_caught() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "IntLoops.gcdPositive",
        "--check",
        "30",
        "--break-certificate",
        "invariant",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("VIOLATION (invariant)"), "{out}");
    assert!(out.contains("is false on"), "{out}");
    assert!(out.contains("replay: jtg prove"), "{out}");
}

#[test]
fn a_flipped_guard_is_caught() {
    let (code, out, err) = jtg(&[
        "prove",
        &fixtures(),
        "List.contains",
        "--check",
        "30",
        "--break-certificate",
        "guard",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("VIOLATION (export)"), "{out}");
    assert!(out.contains("the guard is false"), "{out}");
}

#[test]
fn ari_export_of_contains_reads_back_and_is_snapshotted() {
    let prog = Program::new(ClassPath::parse(&fixtures()).expect("class path"));
    let m = prog.find_method("List.contains").expect("method");
    let st = prog.default_start(&m, Default::default()).expect("start");
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    let enc = encode(&g, &prog, &EncodeOptions::default()).expect("ITS");
    let text = jtg_prove::to_ari(&enc.its);
    let back = jtg_prove::parse_ari(&text).expect("our parser reads the export");
    assert_eq!(
        jtg_prove::to_ari(&back),
        text,
        "print ∘ parse is the identity"
    );
    assert_eq!(back.rules().len(), enc.its.rules().len());
    // the CLI prints the same text
    let (code, out, err) = jtg(&["graph", &fixtures(), "List.contains", "--format", "ari"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, text);
    let koat = jtg_prove::to_koat(&enc.its);
    assert!(jtg_prove::parse_koat(&koat).is_ok(), "{koat}");
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../../snapshots/its");
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s.bind(|| insta::assert_snapshot!("List.contains.ari", text));
}

/// The corpus root (`$JTG_CORPUS`, default `../shared/corpus`), if present.
fn corpus_root() -> Option<std::path::PathBuf> {
    let repo = jtg_testkit::repo_dir();
    let root = std::env::var_os("JTG_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    root.is_dir().then_some(root)
}

#[test]
fn dividing_loops_terminate_by_the_truncating_division_bounds() {
    // `x = x / 2` on `x ≥ 1` (TPDB's PastaB8, costa09-example_2): the quotient is bounded by
    // `2·r ≤ x ≤ 2·r + 1`, so `x` decreases; `a % b` (GCD5): `0 ≤ r ≤ b − 1`. The cross-check
    // holds the bounds to the JVM. LogIterative, `x = x / y` on `x ≥ y ≥ 2`: its loop head
    // widens `x` to Z, so the division's rule is split by the dividend's sign (`x ≥ 0` with
    // `2·r ≤ x`, `x < 0` with `x ≤ 2·r`), and the side `x < 0` is infeasible once chained with
    // the loop test `x ≥ y ≥ 2`.
    let Some(root) = corpus_root() else {
        eprintln!("skipped: no corpus");
        return;
    };
    for (jar, main) in [
        ("tpdb/Aprove_09/PastaB8.jar", "PastaB8.main"),
        (
            "tpdb/Costa_Julia_09/costa09-example_2.jar",
            "example_2.Test.main",
        ),
        ("tpdb/Aprove_09/GCD5.jar", "GCD5.main"),
        ("tpdb/Aprove_09/LogIterative.jar", "LogIterative.main"),
    ] {
        let cp = root.join(jar).display().to_string();
        let (code, out, err) = jtg(&["prove", &cp, main, "--check", "30"]);
        assert_eq!(code, 0, "{jar}: {out}{err}");
        assert!(out.contains(": YES"), "{jar}: {out}");
        assert!(out.contains(" 0 violations"), "{jar}: {out}");
        assert!(!out.contains("check: 0 runs"), "{jar}: {out}");
    }
}

#[test]
fn alternating_branches_are_proved_on_the_rule_graph_and_checked() {
    // TPDB's PastaA10, `while (x != y) if (x > y) y++; else x++;`: no linear ranking function
    // on the loop, but neither branch directly follows the other (docs/proving.md, the rule
    // graph); the cross-check holds those refuted pairs to the JVM runs.
    let Some(root) = corpus_root() else {
        eprintln!("skipped: no corpus");
        return;
    };
    let cp = root
        .join("tpdb/Aprove_09/PastaA10.jar")
        .display()
        .to_string();
    let (code, out, err) = jtg(&["prove", &cp, "PastaA10.main", "--check", "30"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(": YES"), "{out}");
    assert!(out.contains("rule graph: never"), "{out}");
    assert!(out.contains(" 0 violations"), "{out}");
    assert!(!out.contains("check: 0 runs"), "{out}");
    // every pair of loop rules claimed never to follow each other: the runs refute it
    let (code, out, err) = jtg(&[
        "prove",
        &cp,
        "PastaA10.main",
        "--check",
        "30",
        "--break-certificate",
        "chain",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("VIOLATION (chain)"), "{out}");
    assert!(out.contains("never directly follows"), "{out}");
}

#[test]
fn recursions_over_built_lists_terminate_by_the_size_across_the_call() {
    // The method graph of a recursive method starts from the call's own callee frame (an
    // acyclic list there), and a recursive builder's result is acyclic (checked on its
    // method graph), so the size decreases across the recursive call: IntListSumRec's
    // `new List(v, this.next.next).sumList()`, AppE's append, BinarySearchTree's insert.
    // The cross-check holds the call edges' size equalities to the JVM runs.
    let Some(root) = corpus_root() else {
        eprintln!("skipped: no corpus");
        return;
    };
    for (jar, main) in [
        (
            "tpdb-recursive/BOG_RTA_11/IntListSumRec.jar",
            "IntListSumRec.IntListSumRec.main",
        ),
        ("tpdb-recursive/BOG_RTA_11/AppE.jar", "AppE.main"),
    ] {
        let cp = root.join(jar).display().to_string();
        let (code, out, err) = jtg(&["prove", &cp, main, "--check", "30"]);
        assert_eq!(code, 0, "{jar}: {out}{err}");
        assert!(out.contains(": YES"), "{jar}: {out}");
        assert!(out.contains(" 0 violations"), "{jar}: {out}");
        assert!(!out.contains("check: 0 runs"), "{jar}: {out}");
    }
}

/// Issue #34, `RecNo` fixtures: infinite recursion (`f(i − 2)` on odd or negative `i`,
/// `f(i + 1)` from `i > 0`, mutual recursion) is NO by a recurrent set over the call rules,
/// judged on the run up to call depth 256 whatever the JVM's stack; a loop alternating between
/// two branches is NO by a cycle of two laps; a recursion whose first call returns and whose
/// second recurses forever is NO by the chain of calls that never return (the returned calls'
/// visits are no laps); each witness states the integer model, and the cross-check finds no
/// violation.
#[test]
fn recursion_and_alternation_are_no_with_deterministic_evidence() {
    for (method, evidence) in [
        ("RecNo.down2", "frames RecNo.down2 ×256"),
        ("RecNo.up", "frames RecNo.up ×256"),
        ("RecNo.even", "RecNo.even ×128, RecNo.odd ×128"),
        ("RecNo.alternate", "(a cycle of 2 laps through it)"),
        ("RecNo.twoCalls", "frames RecNo.twoCalls ×256"),
    ] {
        let (code, out, err) = jtg(&["prove", &fixtures(), method, "--check", "20"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains(": NO"), "{method}: {out}");
        assert!(out.contains(evidence), "{method}: {out}");
        assert!(
            out.contains("NO over mathematical integers"),
            "{method}: the int model: {out}"
        );
        if method != "RecNo.alternate" {
            assert!(
                out.contains("call depth passes 256 without a return")
                    && out.contains("StackOverflowError"),
                "{method}: {out}"
            );
        }
        assert!(out.contains("0 violations"), "{method}: {out}");
        assert_no_with_replay_ending(&out, "recurrent_set", method != "RecNo.alternate");
    }
}

/// Under unbounded ints `while (x > 0) x++` is NO, and the witness says plainly that Java's
/// ints end the run by overflow (in JSON too: `int_model`).
#[test]
fn an_unbounded_no_says_that_java_ints_overflow() {
    let (code, out, err) = jtg(&["prove", &fixtures(), "RecNo.grow", "--format", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["verdict"], "NO");
    assert_eq!(v["witness"]["int_model"], "unbounded");
    let detail = v["witness"]["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("i1 changes by 1 a lap") && detail.contains("overflows"),
        "{detail}"
    );
}

#[test]
fn data_a_method_builds_itself_is_walked_to_its_end() {
    // a ring the builder closes (the walk counts down the distance back to its start, derived
    // after the builder's writes and kept through the merges), a doubly linked list counted
    // along `next` (no cycle avoids `pred`), and a list of lists a static builder returns
    // isolated from the static array it reads, flattened by a recursion that writes into it;
    // a ring unlinked cell by cell (the path from a cut cell's successor survives the cut)
    for (method, measure) in [
        ("SelfBuilt.ring", "dist(c, this)"),
        ("SelfBuilt.ringUnlinked", "dist(c, this)"),
        ("SelfBuilt.doubly", "|l|"),
        ("SelfBuilt.flattened", "|cur|"),
    ] {
        let (code, out, err) = jtg(&["prove", &fixtures(), method, "--check", "10"]);
        assert_eq!(code, 0, "{method}: {out}{err}");
        assert!(out.contains(": YES"), "{method}: {out}");
        assert!(
            out.contains(measure),
            "{method}: ranked by {measure}: {out}"
        );
        assert!(out.contains("check: 10 runs"), "{method}: {out}");
        assert!(out.contains(" 0 violations"), "{method}: {out}");
        assert!(!out.contains(" 0 transitions"), "{method}: {out}");
    }
}
