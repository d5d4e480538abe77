//! Starting the embedded JVM leaves the process's working directory alone. A separate test
//! binary (own process): the process's one JVM must not have been started before.
//!
//! HotSpot with `-XX:+UsePerfData` (its default) makes its hsperfdata file after `fchdir` into
//! `/tmp/hsperfdata_USER` and back: for that moment every thread of the process saw another
//! working directory, and a `jtg corpus --jobs 2 --check` worker building a graph read its
//! relative class path (`build/fixtures`) there, and built another graph (309 nodes instead
//! of 553, unsound) in some runs.

mod common;

use common::run;
use jtg_jvm::{CHeap, CValue, ConcreteInput, TraceOptions};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[test]
fn starting_the_jvm_keeps_the_working_directory() {
    let cwd = std::env::current_dir().expect("working directory");
    let stop = Arc::new(AtomicBool::new(false));
    // watches the working directory while the JVM starts (a hint: the moment is short)
    let watcher = {
        let stop = Arc::clone(&stop);
        let cwd = cwd.clone();
        std::thread::spawn(move || {
            let mut seen = std::collections::BTreeSet::new();
            while !stop.load(Ordering::Relaxed) {
                match std::env::current_dir() {
                    Ok(d) if d == cwd => {}
                    other => {
                        seen.insert(format!("{other:?}"));
                    }
                }
            }
            seen
        })
    };
    let input = ConcreteInput {
        args: vec![CValue::Int(1), CValue::Int(0)],
        heap: CHeap::new(),
        ..Default::default()
    };
    run("Throws", "div", "(II)I", &input, &TraceOptions::default()).expect("trace");
    stop.store(true, Ordering::Relaxed);
    let seen = watcher.join().expect("watcher");
    assert!(
        seen.is_empty(),
        "the working directory changed while the JVM started: {seen:?}"
    );
    assert_eq!(std::env::current_dir().expect("working directory"), cwd);
    // the deterministic part: no hsperfdata file of this process, so HotSpot never went into
    // its folder to make one
    let pid = std::process::id().to_string();
    let perf: Vec<_> = std::fs::read_dir("/tmp")
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("hsperfdata_"))
        .map(|e| e.path().join(&pid))
        .filter(|p| Path::new(p).exists())
        .collect();
    assert!(
        perf.is_empty(),
        "the JVM made its hsperfdata file {perf:?} (it changes the working directory to)"
    );
}
