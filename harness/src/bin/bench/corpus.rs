//! Corpus benchmark: graph construction for the 348 TPDB jars (`bench/tpdb.rs`), one thread,
//! each jar built `JTG_BENCH_CORPUS_REPS` times (default 3): graph time per jar (the median of
//! its builds; then median, 90th percentile and maximum over the jars, and the jars over 2 s),
//! nodes beside AProVE's (`aprove-graphs.tsv`: the median of jtg/AProVE over the jars both
//! complete, and the largest ratios), and the peak memory of the process (VmHWM).

use crate::tpdb::{self, quantile, sorted};
use jtg_harness::corpus::{self, CorpusOptions, JarResult, Status};
use std::path::Path;

/// A jar whose graph takes longer than this is listed (target: none).
const SLOW_MS: f64 = 2000.0;

pub fn run(repo: &Path) -> Result<(), String> {
    let root = tpdb::corpus_root(repo);
    if !root.is_dir() {
        println!("\n== corpus: {} not found, skipped", root.display());
        return Ok(());
    }
    let reps: usize = std::env::var("JTG_BENCH_CORPUS_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let aprove = tpdb::read(&root)?;
    let jars = tpdb::jars(&root);
    let runs: Vec<Vec<JarResult>> = (0..reps)
        .map(|_| corpus::run_corpus(&jars, &CorpusOptions::default(), 1, &|_, _| {}))
        .collect();
    let results = &runs[0];
    // The graph of a jar is the same in every build (deterministic); only its time varies.
    let ms: Vec<f64> = (0..results.len())
        .map(|k| {
            let v = sorted(runs.iter().map(|r| r[k].graph_ms).collect());
            v[v.len() / 2]
        })
        .collect();
    let t = corpus::totals(results);
    println!(
        "\n== corpus graphs ({}: tpdb, tpdb-recursive; {} jars, one thread, median of {reps} builds)",
        root.display(),
        t.jars
    );
    println!(
        "  complete {} / unsupported {} / budget {} / error {}; {} nodes",
        t.complete, t.unsupported, t.budget, t.error, t.nodes
    );
    let by_time = sorted(ms.clone());
    println!(
        "  graph time per jar: median {:.2} ms, 90th percentile {:.2} ms, max {:.1} ms, total {:.1} s",
        quantile(&by_time, 0.5),
        quantile(&by_time, 0.9),
        quantile(&by_time, 1.0),
        ms.iter().sum::<f64>() / 1e3
    );
    let aprove_ms = sorted(aprove.values().filter_map(|a| a.graph_ms).collect());
    println!(
        "  AProVE's graph construction (warm JVM, {} jars): median {:.0} ms, 90th percentile {:.0} ms",
        aprove_ms.len(),
        quantile(&aprove_ms, 0.5),
        quantile(&aprove_ms, 0.9)
    );
    let mut slow: Vec<(usize, f64)> = ms
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, m)| m > SLOW_MS)
        .collect();
    slow.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("  jars over 2 s: {}", slow.len());
    for (k, m) in slow {
        let r = &results[k];
        println!("    {} ({m:.0} ms, {})", r.jar, r.status.name());
    }
    node_ratios(results, &aprove);
    if let Some(kb) = peak_kb() {
        println!("  peak memory (VmHWM): {:.1} MiB", kb as f64 / 1024.0);
    }
    Ok(())
}

/// jtg's nodes over AProVE's, for the jars both build a complete graph of.
fn node_ratios(
    results: &[JarResult],
    aprove: &std::collections::BTreeMap<String, tpdb::AproveJar>,
) {
    let mut ratios: Vec<(f64, &JarResult, usize)> = results
        .iter()
        .filter(|r| r.status == Status::Complete)
        .filter_map(|r| {
            let a = aprove.get(&r.jar)?.nodes.filter(|&n| n > 0)?;
            Some((r.nodes as f64 / a as f64, r, a))
        })
        .collect();
    let only_aprove = results
        .iter()
        .filter(|r| r.status != Status::Complete)
        .filter(|r| aprove.get(&r.jar).is_some_and(|a| a.nodes.is_some()))
        .count();
    let v = sorted(ratios.iter().map(|x| x.0).collect());
    println!(
        "  nodes jtg/AProVE over {} jars both complete: median {:.2}x, 90th percentile {:.2}x, max {:.2}x; \
         {} jars at most 1.5x; AProVE completes {} jars jtg does not",
        v.len(),
        quantile(&v, 0.5),
        quantile(&v, 0.9),
        quantile(&v, 1.0),
        v.iter().filter(|&&x| x <= 1.5).count(),
        only_aprove
    );
    ratios.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.jar.cmp(&b.1.jar)));
    println!("  largest ratios:");
    for (ratio, r, a) in ratios.iter().take(10) {
        println!("    {:<60} {:>6} / {:>5} = {ratio:.1}x", r.jar, r.nodes, a);
    }
}

fn peak_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
