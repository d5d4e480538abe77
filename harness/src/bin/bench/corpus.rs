//! Corpus benchmark: graph construction for every jar of `$JTG_CORPUS` (default
//! `../shared/corpus`), one thread: median, 90th percentile and maximum graph time per jar,
//! and the peak memory of the process (VmHWM).

use jtg_harness::corpus::{self, CorpusOptions};
use std::path::{Path, PathBuf};

pub fn run(repo: &Path) -> Result<(), String> {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    if !root.is_dir() {
        println!("\n== corpus: {} not found, skipped", root.display());
        return Ok(());
    }
    let jars = corpus::find_jars(std::slice::from_ref(&root));
    let results = corpus::run_corpus(&jars, &CorpusOptions::default(), 1, &|_, _| {});
    let t = corpus::totals(&results);
    println!(
        "\n== corpus graphs ({}, {} jars, one thread)",
        root.display(),
        t.jars
    );
    println!(
        "  complete {} / unsupported {} / budget {} / error {}",
        t.complete, t.unsupported, t.budget, t.error
    );
    println!(
        "  graph time per jar: median {:.2} ms, 90th percentile {:.2} ms, max {:.2} ms, total {:.1} s",
        t.median_ms,
        t.p90_ms,
        t.max_ms,
        t.graph_ms / 1e3
    );
    let mut over: Vec<_> = results.iter().filter(|r| r.graph_ms > 2000.0).collect();
    over.sort_by(|a, b| b.graph_ms.total_cmp(&a.graph_ms));
    println!("  jars over 2 s: {}", over.len());
    for r in over {
        println!("    {} ({:.0} ms, {})", r.jar, r.graph_ms, r.status.name());
    }
    if let Some(kb) = peak_kb() {
        println!("  peak memory (VmHWM): {:.1} MiB", kb as f64 / 1024.0);
    }
    Ok(())
}

fn peak_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
