//! Prove benchmark: `jtg corpus --prove` (no cross-check) on the 348 TPDB jars
//! (`bench/tpdb.rs`), one thread: prove time per jar with a complete graph (encoding, proof,
//! NO search and its JVM runs; median and 90th percentile) beside AProVE's full proof on this
//! machine (`aprove-graphs.tsv`: wall time per jar of the runs that finished within its 60 s,
//! i.e. with a verdict YES, NO or MAYBE).

use crate::tpdb::{self, quantile, sorted};
use jtg_harness::corpus::{self, CorpusOptions, CorpusProve};
use std::path::Path;

pub fn run(repo: &Path) -> Result<(), String> {
    let root = tpdb::corpus_root(repo);
    if !root.is_dir() {
        println!("\n== prove: {} not found, skipped", root.display());
        return Ok(());
    }
    let aprove = tpdb::read(&root)?;
    let jars = tpdb::jars(&root);
    let opts = CorpusOptions {
        prove: Some(CorpusProve {
            timeout: jtg_terminate::ProveConfig::default().timeout,
            check: 0,
            seed: 0,
            max_steps: 100_000,
            max_size: 6,
        }),
        ..CorpusOptions::default()
    };
    let results = corpus::run_corpus(&jars, &opts, 1, &|_, _| {});
    let t = corpus::totals(&results);
    let ms = sorted(
        results
            .iter()
            .filter_map(|r| r.prove.as_ref().map(|p| p.prove_ms))
            .collect(),
    );
    println!(
        "\n== prove (the TPDB jars of {}: {} jars, {} with a complete graph; one thread, no --check)",
        root.display(),
        jars.len(),
        ms.len()
    );
    println!("  verdicts: {} YES, {} NO, {} MAYBE", t.yes, t.no, t.maybe);
    let finished = sorted(
        aprove
            .values()
            .filter(|a| matches!(a.verdict.as_str(), "YES" | "NO" | "MAYBE"))
            .filter_map(|a| a.proof_s.map(|s| s * 1e3))
            .collect(),
    );
    let aprove_median = quantile(&finished, 0.5);
    let median = quantile(&ms, 0.5);
    println!(
        "  prove time per jar: median {:.1} ms, 90th percentile {:.1} ms, max {:.0} ms, total {:.1} s",
        median,
        quantile(&ms, 0.9),
        quantile(&ms, 1.0),
        ms.iter().sum::<f64>() / 1e3
    );
    println!(
        "  AProVE's full proof ({} jars it finished in 60 s): median {:.0} ms, 90th percentile {:.0} ms; \
         jtg's median is {:.0}x faster (target: at most 190 ms)",
        finished.len(),
        aprove_median,
        quantile(&finished, 0.9),
        aprove_median / median.max(1e-3)
    );
    Ok(())
}
