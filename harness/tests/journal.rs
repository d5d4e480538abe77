//! `--journal FILE [--resume]` of `jtg check` and `jtg corpus`, through the CLI: a run killed
//! after some records were written and then resumed reports exactly what an uninterrupted run
//! reports (violations found before the kill included); a torn last line is dropped and its
//! unit done again; a journal of other parameters, an existing journal without `--resume` and
//! `--resume` without `--journal` are one-line usage errors (exit code 2).

mod common;
use common::{broken_contains_graph, fixtures, jtg};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A fresh path in a directory of this test process.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jtg-journal-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Complete lines of a journal (the header included).
fn lines(journal: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    let complete = text.rfind('\n').map_or("", |i| &text[..i]);
    complete
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Starts jtg with `args`, waits until `ready(journal lines)` holds, kills it (SIGKILL) and
/// returns the number of records the journal then has. Fails if the run ends first.
fn kill_when(args: &[&str], journal: &Path, ready: &dyn Fn(&[String]) -> bool) -> usize {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn jtg");
    let t0 = Instant::now();
    loop {
        if ready(&lines(journal)) {
            break;
        }
        if let Some(status) = child.try_wait().expect("try_wait") {
            panic!("the run ended ({status}) before it could be interrupted: make it longer");
        }
        if t0.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("the journal is not ready after 120 s: {:?}", lines(journal));
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the run was not interrupted: {status}");
    lines(journal).len() - 1
}

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

#[test]
fn check_killed_and_resumed_reports_what_an_uninterrupted_run_reports() {
    let fx = fixtures();
    let graph = broken_contains_graph(&fx, temp("broken-contains.json"));
    let base = [
        "check",
        fx.to_str().unwrap(),
        "List.contains",
        "--graph",
        graph.to_str().unwrap(),
        "-n",
        "150",
        "--seed",
        "3",
        "--format",
        "json",
        "--max-reports",
        "2",
        "--shrink-runs",
        "4",
    ];
    let (code, whole, err) = jtg(&base);
    assert_eq!(code, 1, "the broken graph has violations: {err}");
    let j: Value = serde_json::from_str(&whole).expect("JSON summary");
    assert_eq!(j["traces"], 150);
    assert!(j["violations"].as_u64().unwrap() > 2, "{whole}");
    assert_eq!(j["failures"].as_array().unwrap().len(), 2);

    let journal = temp("check-kill.jsonl");
    let jp = journal.to_str().unwrap();
    // kill once a violation's report and a few more records are on disk
    let records = kill_when(&with(&base, &["--journal", jp]), &journal, &|l| {
        l.len() > 10 && l.iter().any(|l| l.contains("\"report\""))
    });
    assert!(
        records < 150,
        "finished before the kill ({records} records)"
    );
    let (code, resumed, err) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("resuming"), "{err}");
    assert_eq!(resumed, whole, "the resumed run reports something else");
    assert_eq!(lines(&journal).len(), 151, "one record per case");

    // A finished journal: nothing is run again (no new records), same report, also as text.
    let (code, again, _) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!((code, &again), (1, &whole));
    assert_eq!(lines(&journal).len(), 151);
    let mut text_args = with(&base, &["--journal", jp, "--resume"]);
    let f = text_args.iter().position(|a| *a == "json").unwrap();
    text_args[f] = "text";
    let (_, text_resumed, _) = jtg(&text_args);
    let (_, text_whole, _) = jtg(&text_args[..text_args.len() - 3]);
    assert_eq!(text_resumed, text_whole);
    assert!(text_whole.contains("VIOLATION"), "{text_whole}");
}

#[test]
fn check_journal_with_a_torn_last_line_redoes_that_case() {
    let fx = fixtures();
    let base = [
        "check",
        fx.to_str().unwrap(),
        "List.contains",
        "-n",
        "30",
        "--seed",
        "11",
        "--format",
        "json",
    ];
    let journal = temp("check-torn.jsonl");
    let jp = journal.to_str().unwrap();
    let (code, whole, err) = jtg(&with(&base, &["--journal", jp]));
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(
        (j["traces"].as_u64(), j["violations"].as_u64()),
        (Some(30), Some(0))
    );
    assert!(j["node_coverage"].as_f64().unwrap() > 0.5, "{whole}");
    let full = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(lines(&journal).len(), 31);
    // a kill in the middle of the last append: half of its line is on disk
    let last = lines(&journal).pop().unwrap();
    assert!(last.starts_with("{\"key\":\"case 29\""), "{last}");
    let torn = full.len() - 1 - last.len() / 2;
    std::fs::write(&journal, &full.as_bytes()[..torn]).unwrap();
    let (code, resumed, err) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(resumed, whole);
    assert!(
        std::fs::read_to_string(&journal).unwrap() == full,
        "case 29 not redone, or the file not repaired: {:?}",
        lines(&journal).last()
    );
}

#[test]
fn journal_usage_errors_are_one_line_with_exit_code_2() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let one_line = |err: &str| {
        assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err}");
    };
    let (code, _, err) = jtg(&["check", fx, "List.contains", "-n", "2", "--resume"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--resume needs --journal"), "{err}");
    one_line(&err);

    let journal = temp("usage.jsonl");
    let jp = journal.to_str().unwrap();
    let base = ["check", fx, "List.contains", "-n", "3", "--seed", "1"];
    let (code, _, err) = jtg(&with(&base, &["--journal", jp]));
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read(&journal).unwrap();
    assert_eq!(lines(&journal).len(), 4);

    // an existing journal without --resume
    let (code, _, err) = jtg(&with(&base, &["--journal", jp]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists") && err.contains("--resume"), "{err}");
    one_line(&err);

    // other parameters
    let other = ["check", fx, "List.contains", "-n", "3", "--seed", "2"];
    let (code, _, err) = jtg(&with(&other, &["--journal", jp, "--resume"]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("other parameters") && err.contains("seed: 1 in the journal, 2 now"),
        "{err}"
    );
    one_line(&err);
    let (code, _, err) = jtg(&[
        "check",
        fx,
        "List.get",
        "-n",
        "3",
        "--seed",
        "1",
        "--journal",
        jp,
        "--resume",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("method: "), "{err}");
    // a check journal is no corpus journal
    let (code, _, err) = jtg(&[
        "corpus",
        "/nonexistent/x.jar",
        "--quiet",
        "--journal",
        jp,
        "--resume",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("command: \"check\" in the journal, \"corpus\" now"),
        "{err}"
    );
    one_line(&err);
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        written,
        "a refused journal is untouched"
    );

    // a record of a unit the run does not have
    let mut text = String::from_utf8(written.clone()).unwrap();
    text = text.replacen("\"case 2\"", "\"case 7\"", 1);
    std::fs::write(&journal, text).unwrap();
    let (code, _, err) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`case 7`"), "{err}");
    one_line(&err);
    let text = String::from_utf8(written.clone())
        .unwrap()
        .replacen("\"case 2\"", "\"case 02\"", 1);
    std::fs::write(&journal, text).unwrap();
    let (code, _, err) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`case 02`"), "{err}");
}

/// `$JTG_CORPUS` (default `../shared/corpus`), or `None` with a note.
fn corpus_root() -> Option<PathBuf> {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if root.is_dir() {
        Some(root)
    } else {
        eprintln!(
            "corpus journal test skipped: no corpus at {}",
            root.display()
        );
        None
    }
}

/// The JSON report without timings.
fn without_times(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in ["graph_ms", "check_ms", "median_ms", "p90_ms", "max_ms"] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn corpus_killed_and_resumed_reports_what_an_uninterrupted_run_reports() {
    let Some(root) = corpus_root() else { return };
    let dir = root.join("tpdb/Aprove_09");
    let names = [
        "Collatz",
        "CountUpRound",
        "CountMetaList",
        "Duplicate",
        "GCD5",
        "LogMult",
        "MinusBuiltIn",
        "PastaA1",
        "PastaA10",
        "PastaA4",
        "PastaA5",
    ];
    let jars: Vec<String> = names
        .iter()
        .map(|n| dir.join(format!("{n}.jar")).to_string_lossy().into_owned())
        .collect();
    for j in &jars {
        assert!(Path::new(j).is_file(), "{j} missing from the corpus");
    }
    let mut base: Vec<&str> = vec!["corpus"];
    base.extend(jars.iter().map(String::as_str));
    base.extend([
        "--check",
        "12",
        "--seed",
        "5",
        "--format",
        "json",
        "--quiet",
        "--max-steps",
        "20000",
    ]);
    let (code, whole, err) = jtg(&with(&base, &["--jobs", "1"]));
    assert_eq!(code, 0, "{err}");
    let whole: Value = serde_json::from_str(&whole).expect("JSON report");
    assert_eq!(whole["jars"].as_array().unwrap().len(), names.len());
    assert!(
        whole["totals"]["traces"].as_u64().unwrap() >= 12 * 9,
        "{whole}"
    );

    let journal = temp("corpus-kill.jsonl");
    let jp = journal.to_str().unwrap();
    let records = kill_when(
        &with(&base, &["--jobs", "2", "--journal", jp]),
        &journal,
        &|l| l.len() > 2,
    );
    assert!(records < names.len(), "finished before the kill");
    // other --jobs, same results: jobs are not a parameter of the journal
    let (code, resumed, err) = jtg(&with(&base, &["--jobs", "2", "--journal", jp, "--resume"]));
    assert_eq!(code, 0, "{err}");
    let resumed: Value = serde_json::from_str(&resumed).expect("JSON report");
    assert_eq!(without_times(resumed), without_times(whole.clone()));
    assert_eq!(lines(&journal).len(), names.len() + 1, "one record per jar");

    // a torn last record: that jar is analysed again, the rest is not
    let full = std::fs::read_to_string(&journal).unwrap();
    let last = lines(&journal).pop().unwrap();
    std::fs::write(
        &journal,
        &full.as_bytes()[..full.len() - 1 - last.len() / 2],
    )
    .unwrap();
    let (code, again, err) = jtg(&with(&base, &["--journal", jp, "--resume"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("{} finished units", names.len() - 1)),
        "{err}"
    );
    let again: Value = serde_json::from_str(&again).expect("JSON report");
    assert_eq!(without_times(again), without_times(whole.clone()));
    assert_eq!(lines(&journal).len(), names.len() + 1);

    // other parameters are refused
    let mut other = base.clone();
    let k = other.iter().position(|a| *a == "12").unwrap();
    other[k] = "13";
    let (code, _, err) = jtg(&with(&other, &["--journal", jp, "--resume"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("check: "), "{err}");
}
