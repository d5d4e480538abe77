//! A reduced sample of the JayHorn sources (`$JTG_CORPUS/jayhorn`, default
//! `../shared/corpus/jayhorn`): `jtg corpus` compiles them (a flat folder one unit per file, a
//! folder with packages one unit), every sampled entry gets a complete graph, and its JVM runs
//! are paths of it (`Random`, `assert` with `-ea`, `println`, string concatenation, `String`
//! queries, `Integer.parseInt`/`valueOf`). The full
//! run is `scripts/jayhorn-report.sh` (docs/jayhorn.md). Skips when the corpus is absent.

use jtg_harness::corpus::{self, CorpusCheck, CorpusOptions, Status};
use std::path::PathBuf;
use std::time::Duration;

const SAMPLE: &[&str] = &[
    "cbmc-src/UnsatAssert.java",
    "horn-encoding/backlog/UnsatHavoc02.java",
    "horn-encoding/nonlinear/SatMultiplication03.java",
    "horn-encoding/loops/Addition_true.java",
    // the String and Integer models (engine/src/models/text.rs)
    "cbmc-src/SatAssert1.java",
    "horn-encoding/arrays/UnsatLibrary03.java",
    "horn-encoding/regression/SatObjectFromLib.java",
    "horn-encoding/strings/UnsatBoolToString.java",
    "horn-encoding/strings/UnsatStringCharAtOutOfRange.java",
    "horn-encoding/strings/UnsatStringConcat.java",
];

#[test]
fn jayhorn_sample_is_complete_and_sound() {
    let repo = jtg_testkit::repo_dir();
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"))
        .join("jayhorn");
    if !root.is_dir() {
        eprintln!("jayhorn test skipped: no corpus at {}", root.display());
        return;
    }
    let paths: Vec<PathBuf> = SAMPLE.iter().map(|s| root.join(s)).collect();
    let entries = corpus::find_entries(&paths, 2);
    assert_eq!(entries.len(), SAMPLE.len(), "{entries:?}");
    let opts = CorpusOptions {
        time_limit: Duration::from_secs(120),
        check: Some(CorpusCheck {
            n: 20,
            seed: 0,
            max_steps: 20_000,
            max_size: 6,
        }),
        ..CorpusOptions::default()
    };
    let results = corpus::run_corpus_resuming(&entries, &opts, 2, &|_| None, &|_, _, _| {
        Ok::<(), std::convert::Infallible>(())
    })
    .unwrap_or_else(|e| match e {});
    for r in &results {
        assert_eq!(r.status, Status::Complete, "{}: {}", r.jar, r.detail);
        let c = r.check.as_ref().expect("checked");
        assert_eq!(c.violations, 0, "{}: {:?}", r.jar, c.replay);
        assert!(c.error.is_none(), "{}: {:?}", r.jar, c.error);
        assert_eq!(c.traces, 20, "{}", r.jar);
    }
}
