//! Prove benchmark: `jtg corpus --prove` (no cross-check) on the fixed jar list of the reduced
//! verdict test (`harness/tests/data/corpus-verdicts.txt`), one thread: prove time per jar
//! (encoding, proof, NO search and its JVM runs; median and 90th percentile) beside AProVE's
//! full-proof median on this machine (`aprove-graphs.tsv`: 3.83 s per jar).

use jtg_harness::corpus::{self, CorpusOptions, CorpusProve};
use std::path::{Path, PathBuf};

/// AProVE's median wall time of a full proof per jar on this machine (`aprove-graphs.tsv`).
const APROVE_MEDIAN_S: f64 = 3.83;

pub fn run(repo: &Path) -> Result<(), String> {
    let root = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"));
    if !root.is_dir() {
        println!("\n== prove: {} not found, skipped", root.display());
        return Ok(());
    }
    let list = repo.join("harness/tests/data/corpus-verdicts.txt");
    let text = std::fs::read_to_string(&list).map_err(|e| format!("{}: {e}", list.display()))?;
    let jars: Vec<(PathBuf, PathBuf)> = corpus::read_expected_verdicts(&text)
        .into_iter()
        .map(|(jar, _, _)| (root.clone(), root.join(jar)))
        .collect();
    let opts = CorpusOptions {
        prove: Some(CorpusProve {
            timeout: jtg_harness::prove::ProveConfig::default().timeout,
            check: 0,
            seed: 0,
            max_steps: 100_000,
            max_size: 6,
        }),
        ..CorpusOptions::default()
    };
    let results = corpus::run_corpus(&jars, &opts, 1, &|_, _| {});
    let t = corpus::totals(&results);
    println!(
        "\n== prove ({} jars of {}, one thread)",
        jars.len(),
        list.display()
    );
    println!("  verdicts: {} YES, {} NO, {} MAYBE", t.yes, t.no, t.maybe);
    println!(
        "  prove time per jar: median {:.1} ms, 90th percentile {:.1} ms; AProVE's full proof: median {:.0} ms ({:.0}x)",
        t.prove_median_ms,
        t.prove_p90_ms,
        APROVE_MEDIAN_S * 1e3,
        APROVE_MEDIAN_S * 1e3 / t.prove_median_ms.max(1e-3)
    );
    Ok(())
}
