//! A run's jar is closed once its loader leaves the cache and no session uses it
//! (`Runner.release`): a corpus run over hundreds of jars keeps a bounded number open. Its own
//! test binary, so that no other test's loaders count.

mod common;
use common::{jar_with_list, list};

use jtg_jvm::{trace_method, CValue, ConcreteInput, ObjId, TraceEnd, TraceOptions};
use std::path::{Path, PathBuf};

/// The files this process holds open under `dir`.
fn open_under(dir: &Path) -> Vec<PathBuf> {
    let mut open: Vec<PathBuf> = std::fs::read_dir("/proc/self/fd")
        .expect("/proc/self/fd")
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter(|p| p.starts_with(dir))
        .collect();
    open.sort();
    open
}

#[test]
fn jars_of_earlier_runs_are_closed() {
    let dir = std::env::temp_dir().join(format!("jtg-open-jars-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = ConcreteInput {
        args: vec![CValue::Ref(ObjId(1)), CValue::Int(7)],
        heap: list("List", &[5, 7], None),
        ..Default::default()
    };
    // more class paths than Runner caches loaders for (4)
    let jars: Vec<PathBuf> = (0..12).map(|k| dir.join(format!("list{k}.jar"))).collect();
    let contains = |jar: &PathBuf| {
        trace_method(
            std::slice::from_ref(jar),
            "List",
            "contains",
            "(LList;I)Z",
            &input,
            &TraceOptions::default(),
        )
        .expect("trace")
        .end
    };
    for jar in &jars {
        jar_with_list(jar);
        assert_eq!(contains(jar), TraceEnd::Returned(Some(CValue::Int(1))));
    }
    let open = open_under(&dir);
    assert!(
        open.len() <= 4,
        "{} of {} jars still open: {open:?}",
        open.len(),
        jars.len()
    );
    assert!(
        !open.contains(&jars[0]),
        "the first run's jar is still open: {open:?}"
    );
    // a jar closed with its loader runs again (a fresh loader)
    assert_eq!(contains(&jars[0]), TraceEnd::Returned(Some(CValue::Int(1))));
    let _ = std::fs::remove_dir_all(&dir);
}
