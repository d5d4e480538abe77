//! The 348 TPDB jars of the corpus (`tpdb/`, `tpdb-recursive/`; the jayhorn sources are
//! left out as in `scripts/corpus-report.sh`) and AProVE's per-jar figures on this machine
//! (`aprove-graphs.tsv`, the corpus README): nodes of all its method graphs, method graphs,
//! graph construction time in a warm JVM, the wall time of a full proof and its verdict.
//! Empty cells (no graph) read as `None`.

use jtg_harness::corpus;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus root (`$JTG_CORPUS`, default `../shared/corpus` beside the checkout).
pub fn corpus_root(repo: &Path) -> PathBuf {
    std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared/corpus"))
}

/// Every jar of the TPDB folders, named below `root` (`tpdb/…`, as in `aprove-graphs.tsv`).
pub fn jars(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let folders = [root.join("tpdb"), root.join("tpdb-recursive")];
    corpus::find_jars(&folders)
        .into_iter()
        .map(|(_, jar)| (root.to_path_buf(), jar))
        .collect()
}

/// `p`-quantile of sorted values (the nearest rank, as the corpus report computes it).
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

pub fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AproveJar {
    pub nodes: Option<usize>,
    pub method_graphs: Option<usize>,
    pub graph_ms: Option<f64>,
    pub proof_s: Option<f64>,
    /// `YES`, `NO`, `MAYBE`, `KILLED` (past 60 s), `HARDKILL`.
    pub verdict: String,
}

/// The table by jar name (`tpdb/…`, as `jtg corpus` names jars below the corpus root).
pub fn read(corpus: &Path) -> Result<BTreeMap<String, AproveJar>, String> {
    let path = corpus.join("aprove-graphs.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn parse(text: &str) -> Result<BTreeMap<String, AproveJar>, String> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, l)| l).unwrap_or("");
    if !header.starts_with("jar\taprove_nodes\taprove_method_graphs") {
        return Err(format!("unexpected header {header:?}"));
    }
    let mut out = BTreeMap::new();
    for (k, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        if cells.len() < 5 {
            return Err(format!("line {}: {} cells, expected 6", k + 1, cells.len()));
        }
        let cell = |i: usize| Some(cells[i].trim()).filter(|c| !c.is_empty());
        let bad = |i: usize| format!("line {}: cell {} is not a number", k + 1, i + 1);
        let int = |i: usize| {
            cell(i)
                .map(|c| c.parse::<usize>().map_err(|_| bad(i)))
                .transpose()
        };
        let real = |i: usize| {
            cell(i)
                .map(|c| c.parse::<f64>().map_err(|_| bad(i)))
                .transpose()
        };
        let jar = AproveJar {
            nodes: int(1)?,
            method_graphs: int(2)?,
            graph_ms: real(3)?,
            proof_s: real(4)?,
            verdict: cells
                .get(5)
                .map(|c| c.trim().to_string())
                .unwrap_or_default(),
        };
        out.insert(cells[0].to_string(), jar);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cells_and_empty_cells() {
        let t = "jar\taprove_nodes\taprove_method_graphs\taprove_graph_ms_warm\taprove_full_proof_s\taprove_verdict_60s\n\
                 tpdb/a/X.jar\t156\t1\t89\t3.67\tYES\n\
                 tpdb/a/Y.jar\t\t\t\t60.1\tKILLED\n";
        let m = parse(t).unwrap();
        assert_eq!(m["tpdb/a/X.jar"].nodes, Some(156));
        assert_eq!(m["tpdb/a/X.jar"].proof_s, Some(3.67));
        assert_eq!(m["tpdb/a/Y.jar"].nodes, None);
        assert_eq!(m["tpdb/a/Y.jar"].proof_s, Some(60.1));
        assert_eq!(m["tpdb/a/Y.jar"].verdict, "KILLED");
        assert!(parse("jar\tnodes\n").is_err());
        assert!(parse(&t.replace("156", "x")).is_err());
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let v = sorted(vec![5.0, 1.0, 4.0, 2.0, 3.0]);
        assert_eq!(quantile(&v, 0.5), 3.0);
        assert_eq!(quantile(&v, 0.9), 5.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
