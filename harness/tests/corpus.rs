//! A reduced corpus run (every 8th jar of each folder of `$JTG_CORPUS`, default
//! `../shared/corpus`): no jar that `tests/data/corpus-expected.txt` lists as complete may lose its
//! complete graph, and at least 70 % of the sample must be complete. Jars expected to exceed
//! the node budget are not rebuilt (they only cost time). Skips when the corpus is absent.

use jtg_harness::corpus::{self, CorpusOptions, Status};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

#[test]
fn corpus_sample_statuses_do_not_regress() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!("corpus test skipped: no corpus at {}", root.display());
        return;
    }
    let expected: BTreeMap<String, Status> = corpus::read_expected(
        &std::fs::read_to_string(repo.join("harness/tests/data/corpus-expected.txt"))
            .expect("expected-status list"),
    )
    .into_iter()
    .collect();
    let all = corpus::find_jars(std::slice::from_ref(&root));
    // every 8th jar of each folder (`tpdb/Aprove_09`, ...), so that every folder is sampled
    let folder = |n: &str| n.split('/').take(2).collect::<Vec<_>>().join("/");
    let mut by_folder: BTreeMap<String, Vec<(PathBuf, PathBuf)>> = BTreeMap::new();
    for (r, j) in &all {
        by_folder
            .entry(folder(&corpus::jar_name(r, j)))
            .or_default()
            .push((r.clone(), j.clone()));
    }
    let picked: Vec<(PathBuf, PathBuf)> = by_folder
        .values()
        .flat_map(|v| v.iter().step_by(8).cloned())
        .collect();
    assert!(picked.len() >= 40, "a sample of at least 40 jars");
    assert!(by_folder.len() >= 11, "all folders: {:?}", by_folder.keys());
    let sample: Vec<_> = picked
        .iter()
        .filter(|(r, j)| expected.get(&corpus::jar_name(r, j)) != Some(&Status::Budget))
        .cloned()
        .collect();
    let opts = CorpusOptions {
        time_limit: Duration::from_secs(120),
        ..CorpusOptions::default()
    };
    let results = corpus::run_corpus(&sample, &opts, 2, &|_, _| {});
    let mut regressions = Vec::new();
    for r in &results {
        if expected.get(&r.jar) == Some(&Status::Complete) && r.status != Status::Complete {
            regressions.push(format!("{}: {} ({})", r.jar, r.status.name(), r.detail));
        }
    }
    assert!(
        regressions.is_empty(),
        "regressions:\n{}",
        regressions.join("\n")
    );
    let sampled = picked.len();
    let complete = results
        .iter()
        .filter(|r| r.status == Status::Complete)
        .count();
    assert!(
        complete * 10 >= sampled * 7,
        "only {complete} of {sampled} sampled jars are complete"
    );
}
