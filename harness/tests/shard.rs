//! `--shard K/N` and `jtg merge`: the N shards of a run, each with its journal, merged, report
//! exactly what the unsharded run reports (times aside), for `jtg check` and `jtg corpus`.

mod common;
use common::{broken_contains_graph, fixtures, jtg};

use serde_json::Value;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("jtg-shard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

/// Runs `base` as shards 1..=n, each with a journal; the journals' paths.
fn shards(base: &[&str], n: u64, name: &str) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let j = temp(&format!("{name}-{k}of{n}.jsonl"));
            let (j, shard) = (j.to_string_lossy().into_owned(), format!("{k}/{n}"));
            let (code, _, err) = jtg(&with(base, &["--shard", &shard, "--journal", &j]));
            assert!(code == 0 || code == 1, "shard {shard}: {err}");
            j
        })
        .collect()
}

#[test]
fn check_shards_merged_report_what_the_whole_run_reports() {
    let fixtures = fixtures();
    let fx = fixtures.to_str().unwrap();
    let graph = broken_contains_graph(&fixtures, temp("broken-contains.json"));
    let base = [
        "check",
        fx,
        "List.contains",
        "--graph",
        graph.to_str().unwrap(),
        "-n",
        "200",
        "--seed",
        "3",
        "--max-reports",
        "3",
        "--shrink-runs",
        "4",
    ];
    for format in ["json", "text"] {
        let (code, whole, err) = jtg(&with(&base, &["--format", format]));
        assert_eq!(code, 1, "{err}");
        let journals = shards(
            &with(&base, &["--format", format]),
            3,
            &format!("check-{format}"),
        );
        let mut merge = vec!["merge", "--format", format];
        merge.extend(journals.iter().map(String::as_str));
        let (code, merged, err) = jtg(&merge);
        assert_eq!(code, 1, "{err}");
        assert_eq!(merged, whole, "{format}: the merged report differs");
        // in any order of the journals
        merge[3..].reverse();
        assert_eq!(jtg(&merge).1, whole);
    }
}

#[test]
fn check_n_10000_in_two_shards_merged_is_the_whole_run() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let base = [
        "check",
        fx,
        "List.contains",
        "-n",
        "10000",
        "--seed",
        "1",
        "--format",
        "json",
    ];
    let (code, whole, err) = jtg(&base);
    assert_eq!(code, 0, "{err}");
    let j: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(j["traces"], 10000);
    let journals = shards(&base, 2, "check-10000");
    let (code, merged, err) = jtg(&["merge", "--format", "json", &journals[0], &journals[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole);
}

#[test]
fn merge_refuses_journals_that_are_not_the_shards_of_one_run() {
    let fx = fixtures();
    let fx = fx.to_str().unwrap();
    let base = ["check", fx, "List.contains", "-n", "20"];
    let j = shards(&base, 2, "refuse");
    let other = shards(
        &["check", fx, "List.contains", "-n", "21"],
        2,
        "refuse-other",
    );
    for (journals, code, needle) in [
        (vec![j[0].as_str()], 2, "shard 2/2 is missing"),
        (
            vec![j[0].as_str(), j[0].as_str()],
            2,
            "shard 1/2 is given twice",
        ),
        (vec![j[0].as_str(), other[1].as_str()], 2, "`n` differs"),
    ] {
        let (c, out, err) = jtg(&with(&["merge"], &journals));
        assert_eq!(c, code, "{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("jtg: ") && err.contains(needle), "{err}");
    }
    // a shard's journal with a case missing (a run that was interrupted)
    let text = std::fs::read_to_string(&j[1]).unwrap();
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&j[1], cut[..cut.len() - 1].join("\n") + "\n").unwrap();
    let (c, _, err) = jtg(&["merge", &j[0], &j[1]]);
    assert_eq!(c, 2, "{err}");
    assert!(
        err.contains("19 of the run's 20 cases") && err.contains("--resume"),
        "{err}"
    );
    let (c, _, err) = jtg(&["check", fx, "List.contains", "--shard", "3/2"]);
    assert_eq!(c, 2, "{err}");
    assert!(err.contains("expected K/N with 1 <= K <= N"), "{err}");
}

#[test]
fn corpus_shards_merged_report_what_the_whole_run_reports() {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!("corpus shard test skipped: no corpus at {}", root.display());
        return;
    }
    let dir = root.join("tpdb/Aprove_09");
    let jars: Vec<String> = ["Collatz", "CountUpRound", "GCD5", "LogMult", "MinusBuiltIn"]
        .iter()
        .map(|n| dir.join(format!("{n}.jar")).to_string_lossy().into_owned())
        .collect();
    let mut base: Vec<&str> = vec!["corpus"];
    base.extend(jars.iter().map(String::as_str));
    base.extend([
        "--check",
        "6",
        "--seed",
        "2",
        "--max-steps",
        "20000",
        "--quiet",
        "--no-times",
    ]);
    for format in ["json", "md", "csv"] {
        let args = with(&base, &["--format", format]);
        let (code, whole, err) = jtg(&args);
        assert_eq!(code, 0, "{err}");
        let journals = shards(&args, 2, &format!("corpus-{format}"));
        let (code, merged, err) = jtg(&[
            "merge",
            "--no-times",
            "--format",
            format,
            &journals[0],
            &journals[1],
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(merged, whole, "{format}: the merged report differs");
    }
}
