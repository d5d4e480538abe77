//! A reduced verdict run (`jtg corpus --prove` on the jars of
//! `tests/data/corpus-verdicts.txt`, `<status> <jar> <verdict>` per line, jars of every folder
//! of `$JTG_CORPUS` whose proofs are fast): every listed verdict is reached again, none
//! contradicts AProVE's (`aprove-termcomp2024.tsv`), every NO comes with a replay command and
//! every MAYBE with a reason.
//! The list was taken from a full release run (`jtg corpus <corpus> --prove`); a change of a
//! verdict changes the list, and the commit says why. Skips when the corpus is absent.

use jtg_harness::corpus::{self, CorpusOptions, CorpusProve, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

#[test]
fn corpus_sample_verdicts_do_not_change() {
    let repo = jtg_testkit::repo_dir();
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!("verdict test skipped: no corpus at {}", root.display());
        return;
    }
    let listed = corpus::read_expected_verdicts(
        &std::fs::read_to_string(repo.join("harness/tests/data/corpus-verdicts.txt"))
            .expect("expected-verdict list"),
    );
    let expected: BTreeMap<String, String> = listed
        .iter()
        .map(|(jar, st, v)| {
            assert_eq!(
                *st,
                Status::Complete,
                "{jar}: only complete graphs have verdicts"
            );
            (jar.clone(), v.clone().expect("a verdict column"))
        })
        .collect();
    assert!(expected.len() >= 40, "at least 40 jars");
    let folders: BTreeSet<String> = expected
        .keys()
        .map(|n| n.split('/').take(2).collect::<Vec<_>>().join("/"))
        .collect();
    assert!(folders.len() >= 11, "all folders: {folders:?}");
    for v in ["YES", "NO", "MAYBE"] {
        assert!(expected.values().any(|e| e == v), "no {v} in the list");
    }
    let jars: Vec<(PathBuf, PathBuf)> = expected
        .keys()
        .map(|j| (root.clone(), root.join(j)))
        .collect();
    let opts = CorpusOptions {
        time_limit: Duration::from_secs(120),
        prove: Some(CorpusProve {
            check: 0,
            seed: 0,
            max_steps: 100_000,
            max_size: 6,
            // the verdicts rest on the deterministic work budget; the wall-clock safety net is
            // generous so that a debug build on a loaded machine never reaches it
            timeout: Duration::from_secs(120),
        }),
        ..CorpusOptions::default()
    };
    let results = corpus::run_corpus(&jars, &opts, 2, &|_, _| {});
    let aprove = corpus::read_aprove(
        &std::fs::read_to_string(root.join("aprove-termcomp2024.tsv")).unwrap_or_default(),
    );
    let mut problems = Vec::new();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for r in &results {
        let want = &expected[&r.jar];
        let Some(p) = &r.prove else {
            problems.push(format!("{}: no verdict ({})", r.jar, r.status.name()));
            continue;
        };
        *counts.entry(p.verdict.clone()).or_default() += 1;
        if &p.verdict != want {
            problems.push(format!(
                "{}: {} instead of {want} ({})",
                r.jar,
                p.verdict,
                p.note.as_deref().unwrap_or("")
            ));
        }
        if let Some(a) = aprove.get(&r.jar) {
            if corpus::contradicts(&p.verdict, a) {
                problems.push(format!("{}: {} contradicts AProVE's {a}", r.jar, p.verdict));
            }
        }
        if p.verdict == "MAYBE" && p.reason.as_deref().is_none_or(str::is_empty) {
            problems.push(format!("{}: MAYBE without a reason", r.jar));
        }
        if p.verdict == "NO" && p.replay.is_none() {
            problems.push(format!("{}: NO without a replay command", r.jar));
        }
    }
    assert_eq!(results.len(), expected.len());
    assert!(problems.is_empty(), "verdicts:\n{}", problems.join("\n"));
    eprintln!("corpus verdict sample: {counts:?}");
}
