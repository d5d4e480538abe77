//! Ctrl-C (SIGINT) during a long `jtg check`: the run stops after the case in progress, prints
//! the summary so far and the exact `--resume` command on stderr and exits with 130; the
//! resumed run's report equals an uninterrupted run's. The child is interrupted once its
//! journal holds a record, so the test is bounded by the run's cases, not by a wall-clock
//! assertion.

mod common;
use common::fixtures;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Duration;

const CASES: &str = "3000";

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("jtg-interrupt-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn records(journal: &std::path::Path) -> usize {
    std::fs::read_to_string(journal).map_or(0, |t| t.lines().count().saturating_sub(1))
}

/// Splits a POSIX-quoted command line as `shell_quote` writes it (words in single quotes,
/// `'\''` for a quote inside one, or bare words).
fn split_quoted(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_quote = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                in_quote = !in_quote;
                any = true;
            }
            '\\' if !in_quote => {}
            ' ' if !in_quote => {
                if any || !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Runs jtg with `args`, sends it SIGINT once `journal` holds a record, and returns its exit
/// code, stdout and stderr.
fn interrupt_after_first_record(
    args: &[&str],
    journal: &std::path::Path,
) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jtg");
    while records(journal) == 0 {
        assert!(
            child.try_wait().expect("poll").is_none(),
            "the run ended before it was interrupted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = child.wait().expect("wait");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("read stdout");
    (status.code(), stdout, stderr)
}

/// The words of the `--resume` command printed on stderr.
fn resume_words(stderr: &str) -> Vec<String> {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("jtg: continue the run with: "))
        .unwrap_or_else(|| panic!("no resume command: {stderr}"));
    split_quoted(line)
}

#[test]
fn ctrl_c_prints_the_summary_and_the_resume_command() {
    let fx = fixtures();
    let fx = fx.to_str().expect("utf-8 path");
    let dir = scratch("check");
    let journal = dir.join("run.jsonl");
    let journal_s = journal.to_str().expect("utf-8 path");
    let args = [
        "check",
        fx,
        "List.contains",
        "-n",
        CASES,
        "--jobs",
        "1",
        "--journal",
        journal_s,
    ];
    // interrupt once the first case is journalled (the run has thousands to go)
    let (code, stdout, stderr) = interrupt_after_first_record(&args, &journal);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stdout.is_empty(), "no report on stdout: {stdout}");
    assert!(
        stderr.contains("jtg: interrupted (Ctrl-C) after "),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(" of {CASES} cases; the summary so far:")),
        "{stderr}"
    );
    assert!(stderr.contains(" violations, "), "{stderr}");
    let done = records(&journal);
    let all: usize = CASES.parse().expect("a number");
    assert!(done >= 1 && done < all, "{done} cases journalled");
    let words = resume_words(&stderr);
    assert_eq!(
        words.last().map(String::as_str),
        Some("--resume"),
        "{words:?}"
    );
    assert_eq!(&words[1..words.len() - 1], &args[..], "{words:?}");
    // the resume command finishes the run; its report is the uninterrupted run's
    let resumed = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(&words[1..])
        .stdin(Stdio::null())
        .output()
        .expect("resume");
    assert_eq!(resumed.status.code(), Some(0));
    let whole = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(&args[..args.len() - 2])
        .stdin(Stdio::null())
        .output()
        .expect("uninterrupted run");
    assert_eq!(
        String::from_utf8_lossy(&resumed.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    assert!(String::from_utf8_lossy(&whole.stdout).contains(&format!("{CASES} traces")));
    std::fs::remove_dir_all(&dir).ok();
}

/// The check report is coloured only when asked: no escapes when piped, the violation count
/// in green with `--color always`.
#[test]
fn check_colours_its_totals_only_when_asked() {
    let fx = fixtures();
    let fx = fx.to_str().expect("utf-8 path");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
            .args(["check", fx, "List.contains", "-n", "5"])
            .args(extra)
            .stdin(Stdio::null())
            .output()
            .expect("run jtg");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let piped = run(&[]);
    assert!(!piped.contains('\u{1b}'), "{piped:?}");
    assert!(piped.contains(" 0 violations,"), "{piped}");
    let always = run(&["--color", "always"]);
    assert!(always.contains("\u{1b}[32m0 violations"), "{always:?}");
}

/// Ctrl-C during `jtg corpus`: the totals so far and the `--resume` command; the resumed run's
/// report equals an uninterrupted run's.
#[test]
fn ctrl_c_stops_a_corpus_run_after_the_jar_in_progress() {
    let root = std::env::var_os("JTG_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!(
            "corpus interrupt test skipped: no corpus at {}",
            root.display()
        );
        return;
    }
    let dir = root.join("tpdb/Aprove_09");
    // a quick jar first, then jars that take a while each (they reach the node budget)
    let jars: Vec<String> = [
        "Collatz",
        "Flatten",
        "LessLeaves",
        "MirrorTree",
        "Samefringe",
    ]
    .iter()
    .map(|n| dir.join(format!("{n}.jar")).to_string_lossy().into_owned())
    .collect();
    let scratch = scratch("corpus");
    let journal = scratch.join("corpus.jsonl");
    let journal_s = journal.to_str().expect("utf-8 path");
    let mut args: Vec<&str> = vec!["corpus"];
    args.extend(jars.iter().map(String::as_str));
    args.extend([
        "--max-nodes",
        "3000",
        "--no-times",
        "--quiet",
        "--journal",
        journal_s,
    ]);
    let (code, stdout, stderr) = interrupt_after_first_record(&args, &journal);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains(" of 5 jars; the totals so far:"),
        "{stderr}"
    );
    assert!(stderr.contains(" jars: "), "{stderr}");
    let words = resume_words(&stderr);
    assert_eq!(&words[1..words.len() - 1], &args[..], "{words:?}");
    let resumed = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(&words[1..])
        .output()
        .expect("resume");
    assert_eq!(resumed.status.code(), Some(0));
    let whole = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .args(&args[..args.len() - 2])
        .output()
        .expect("uninterrupted run");
    assert_eq!(
        String::from_utf8_lossy(&resumed.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    std::fs::remove_dir_all(&scratch).ok();
}
