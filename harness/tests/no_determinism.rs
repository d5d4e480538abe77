//! Issue #34: a jar's verdict is a function of the jar and the options, never of what ran
//! before it in the process (JIT state, class loading, the depth where the JVM's stack
//! overflows) or of `--jobs`. A reduced corpus — `TerminatorRec03` (an infinite recursion,
//! once MAYBE inside a run over all jars), NO jars by a recurrent set and by a repeated state
//! that warm the JVM with long runs, a YES jar — is run in two orders and with one and two
//! threads in one process; verdicts, certificates, notes and witnesses are identical. Skips
//! when the corpus is absent.

use jtg_harness::corpus::{self, CorpusOptions, CorpusProve, JarProve};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

const JARS: [&str; 5] = [
    "tpdb/BSOG_FoVeOOS_11/Velroyen08-whileIncr.jar",
    "tpdb/BSOG_FoVeOOS_11/Velroyen08-alternKonv.jar",
    "tpdb/BSOG_FoVeOOS_11/LoopingNonterm.jar",
    "tpdb-recursive/BOG_RTA_11/TerminatorRec03.jar",
    "tpdb-recursive/BOG_RTA_11/TerminatorRec02.jar",
];

/// What must not change between runs: everything of the verdict but its times.
fn key(
    p: &JarProve,
) -> (
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
) {
    (
        p.verdict.clone(),
        p.certificate.clone(),
        p.note.clone(),
        p.witness.clone(),
        p.replay.clone(),
    )
}

#[test]
fn verdicts_do_not_depend_on_order_or_threads() {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if !root.is_dir() {
        eprintln!("determinism test skipped: no corpus at {}", root.display());
        return;
    }
    let jars: Vec<(PathBuf, PathBuf)> = JARS.iter().map(|j| (root.clone(), root.join(j))).collect();
    let opts = CorpusOptions {
        time_limit: Duration::from_secs(120),
        prove: Some(CorpusProve {
            check: 0,
            seed: 0,
            max_steps: 100_000,
            max_size: 6,
            // generous: a debug build on a loaded machine never reaches the safety net
            timeout: Duration::from_secs(300),
        }),
        ..CorpusOptions::default()
    };
    let run = |jars: &[(PathBuf, PathBuf)], jobs: usize| {
        corpus::run_corpus(jars, &opts, jobs, &|_, _| {})
            .into_iter()
            .map(|r| {
                let p = r.prove.unwrap_or_else(|| panic!("{}: no verdict", r.jar));
                (r.jar, key(&p))
            })
            .collect::<BTreeMap<_, _>>()
    };
    let reversed: Vec<(PathBuf, PathBuf)> = jars.iter().rev().cloned().collect();
    let first = run(&jars, 1);
    assert_eq!(first.len(), JARS.len());
    let rec03 = &first["tpdb-recursive/BOG_RTA_11/TerminatorRec03.jar"];
    assert_eq!(rec03.0, "NO", "TerminatorRec03: {rec03:?}");
    let witness = rec03.3.as_deref().unwrap_or_default();
    assert!(
        witness.contains("call depth passes 256") && witness.contains("StackOverflowError"),
        "the recursion's evidence: {witness}"
    );
    for (name, other) in [
        ("reversed, one thread", run(&reversed, 1)),
        ("in order, two threads", run(&jars, 2)),
        ("reversed, two threads", run(&reversed, 2)),
    ] {
        for (jar, k) in &first {
            assert_eq!(Some(k), other.get(jar), "{jar}: {name}");
        }
    }
}
