//! A reduced corpus run (every 8th jar of each folder of `$JTG_CORPUS`, default
//! `../shared/corpus`): no jar that `tests/data/corpus-expected.txt` lists as complete may lose its
//! complete graph, and at least 70 % of the sample must be complete. Jars expected to exceed
//! the node budget are not rebuilt (they only cost time). Every complete graph is checked
//! against [`CHECK_RUNS`] JVM runs of `main(String[])` on random inputs (`jtg corpus --check`):
//! all of them must be run and none may violate the graph. Skips when the corpus is absent.

use jtg_harness::corpus::{self, CorpusCheck, CorpusOptions, Status};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// JVM runs per complete graph.
const CHECK_RUNS: u64 = 4;

#[test]
fn corpus_sample_statuses_do_not_regress() {
    let repo = jtg_testkit::repo_dir();
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
        check: Some(CorpusCheck {
            n: CHECK_RUNS,
            seed: 1,
            max_steps: 20_000,
            max_size: 6,
        }),
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

    // the JVM check: every complete graph got all its runs, and no run left its graph
    let mut problems = Vec::new();
    for r in &results {
        match (&r.check, r.status) {
            (None, Status::Complete) => problems.push(format!("{}: not checked", r.jar)),
            (Some(_), st) if st != Status::Complete => {
                problems.push(format!("{}: {} but checked", r.jar, st.name()))
            }
            (Some(c), _) => {
                if let Some(e) = &c.error {
                    problems.push(format!(
                        "{}: check stopped after {} runs: {e}",
                        r.jar, c.traces
                    ));
                } else if c.traces as u64 != CHECK_RUNS {
                    problems.push(format!("{}: {} runs checked", r.jar, c.traces));
                }
                if c.violations > 0 {
                    problems.push(format!(
                        "{}: {} violations; replay: {}",
                        r.jar,
                        c.violations,
                        c.replay.as_deref().unwrap_or("?")
                    ));
                }
            }
            (None, _) => {}
        }
    }
    assert!(problems.is_empty(), "check:\n{}", problems.join("\n"));
    let t = corpus::totals(&results);
    assert_eq!(t.checked, complete);
    assert_eq!(t.traces as u64, CHECK_RUNS * complete as u64);
    assert!(t.steps > 0 && t.violations == 0, "{t:?}");
    eprintln!(
        "corpus sample: {sampled} jars, {} built, {complete} complete, {} JVM runs ({} steps, {} cut), 0 violations",
        sample.len(),
        t.traces,
        t.steps,
        t.cut
    );
}
