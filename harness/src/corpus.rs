//! The Termination Competition corpus (`jtg corpus`): the termination graph of every jar's
//! `main(String[])`, with a status per jar and totals.
//!
//! A jar is *complete* when the graph was built and every leaf is a program end;
//! *unsupported* when the engine met something it does not model (the detail names class,
//! method, pc and what); *budget* when the node budget or the time bound ran out; *error*
//! for everything else (no `Main-Class`, no `main(String[])`, malformed classes, internal
//! errors). Every jar gets its own [`Program`]; jars are processed by `jobs` threads.

use jtg_engine::class::{jar_main_class, ClassPath};
use jtg_engine::graph::build_graph_until;
use jtg_engine::state::IntSemantics;
use jtg_engine::{EngineError, Options, Program};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The outcome class of one jar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Complete,
    Unsupported,
    Budget,
    Error,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Unsupported => "unsupported",
            Status::Budget => "budget",
            Status::Error => "error",
        }
    }
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "complete" => Status::Complete,
            "unsupported" => Status::Unsupported,
            "budget" => Status::Budget,
            "error" => Status::Error,
            _ => return None,
        })
    }
    pub const ALL: [Status; 4] = [
        Status::Complete,
        Status::Unsupported,
        Status::Budget,
        Status::Error,
    ];
}

/// The result for one jar.
#[derive(Clone, Debug, Serialize)]
pub struct JarResult {
    /// The jar's path relative to the corpus root given on the command line.
    pub jar: String,
    pub status: Status,
    /// Empty for complete graphs; otherwise the error.
    pub detail: String,
    /// Nodes of the (possibly partial) graph.
    pub nodes: usize,
    pub graph_ms: f64,
    /// Concrete runs checked (`--check`), `None` when not checked.
    pub traces: Option<usize>,
    /// Violations found by the check, `None` when not checked.
    pub violations: Option<usize>,
}

/// Settings of a corpus run.
#[derive(Clone, Debug)]
pub struct CorpusOptions {
    pub max_nodes: usize,
    pub time_limit: Duration,
    pub ints: IntSemantics,
}

impl Default for CorpusOptions {
    fn default() -> CorpusOptions {
        CorpusOptions {
            max_nodes: 20_000,
            time_limit: Duration::from_secs(10),
            ints: IntSemantics::Unbounded,
        }
    }
}

/// Totals over a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    pub jars: usize,
    pub complete: usize,
    pub unsupported: usize,
    pub budget: usize,
    pub error: usize,
    pub nodes: usize,
    pub graph_ms: f64,
    pub median_ms: f64,
    pub p90_ms: f64,
    pub max_ms: f64,
    pub traces: usize,
    pub violations: usize,
}

/// Every `.jar` below the given directories (recursively) and every jar given directly,
/// sorted by path, each with the root it was found under (for relative names).
pub fn find_jars(paths: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, PathBuf)>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|x| x == "jar") {
                out.push((root.to_path_buf(), p));
            }
        }
    }
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, p, &mut out);
        } else {
            out.push((
                p.parent().map(Path::to_path_buf).unwrap_or_default(),
                p.clone(),
            ));
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out.dedup_by(|a, b| a.1 == b.1);
    out
}

/// The name of a jar in reports: its path below `root`.
pub fn jar_name(root: &Path, jar: &Path) -> String {
    jar.strip_prefix(root)
        .unwrap_or(jar)
        .to_string_lossy()
        .replace('\\', "/")
}

/// The status of an engine error.
pub fn status_of(e: &EngineError) -> Status {
    match e.category() {
        "unsupported" => Status::Unsupported,
        "budget" => Status::Budget,
        _ => Status::Error,
    }
}

/// Builds the graph of one jar's `main(String[])`.
pub fn analyse_jar(root: &Path, jar: &Path, opts: &CorpusOptions) -> JarResult {
    let name = jar_name(root, jar);
    let fail = |status, detail: String, nodes, ms| JarResult {
        jar: name.clone(),
        status,
        detail,
        nodes,
        graph_ms: ms,
        traces: None,
        violations: None,
    };
    let main = match jar_main_class(jar) {
        Ok(Some(m)) => m,
        Ok(None) => {
            return fail(
                Status::Error,
                "no Main-Class in the manifest".into(),
                0,
                0.0,
            )
        }
        Err(e) => return fail(Status::Error, e.to_string(), 0, 0.0),
    };
    let cp = match ClassPath::from_paths(&[jar.to_path_buf()]) {
        Ok(cp) => cp,
        Err(e) => return fail(Status::Error, e.to_string(), 0, 0.0),
    };
    let prog = Program::new(cp);
    let spec = format!("{main}.main([Ljava/lang/String;)V");
    let m = match prog.find_method(&spec) {
        Ok(m) => m,
        Err(e) => return fail(status_of(&e), e.to_string(), 0, 0.0),
    };
    let t0 = Instant::now();
    let start = match prog.default_start(&m, opts.ints) {
        Ok(s) => s,
        Err(e) => return fail(status_of(&e), e.to_string(), 0, 0.0),
    };
    let eopts = Options {
        ints: opts.ints,
        max_nodes: opts.max_nodes,
    };
    let r = build_graph_until(&prog, &m, start, &eopts, Some(opts.time_limit));
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    match r {
        Ok(g) if g.is_complete() => JarResult {
            jar: name,
            status: Status::Complete,
            detail: String::new(),
            nodes: g.nodes.len(),
            graph_ms: ms,
            traces: None,
            violations: None,
        },
        Ok(g) => fail(
            Status::Error,
            format!("open leaves {:?}", g.open_leaves()),
            g.nodes.len(),
            ms,
        ),
        Err(f) => fail(
            status_of(&f.error),
            f.error.to_string(),
            f.partial.nodes.len(),
            ms,
        ),
    }
}

/// Analyses `jars` with `jobs` threads; `progress` is called after each jar (with the number
/// done). Results are in the order of `jars`.
pub fn run_corpus(
    jars: &[(PathBuf, PathBuf)],
    opts: &CorpusOptions,
    jobs: usize,
    progress: &(dyn Fn(usize, &JarResult) + Sync),
) -> Vec<JarResult> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<JarResult>>> = Mutex::new(vec![None; jars.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some((root, jar)) = jars.get(k) else {
                    break;
                };
                let r = analyse_jar(root, jar, opts);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                progress(n, &r);
                if let Ok(mut v) = slots.lock() {
                    v[k] = Some(r);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

pub fn totals(results: &[JarResult]) -> Totals {
    let mut t = Totals {
        jars: results.len(),
        ..Totals::default()
    };
    let mut times: Vec<f64> = Vec::new();
    for r in results {
        match r.status {
            Status::Complete => t.complete += 1,
            Status::Unsupported => t.unsupported += 1,
            Status::Budget => t.budget += 1,
            Status::Error => t.error += 1,
        }
        t.nodes += r.nodes;
        t.graph_ms += r.graph_ms;
        times.push(r.graph_ms);
        t.traces += r.traces.unwrap_or(0);
        t.violations += r.violations.unwrap_or(0);
    }
    times.sort_by(f64::total_cmp);
    t.median_ms = percentile(&times, 0.5);
    t.p90_ms = percentile(&times, 0.9);
    t.max_ms = times.last().copied().unwrap_or(0.0);
    t
}

/// The reason of a non-complete jar with references and numbers blanked out, for grouping
/// ("top unsupported reasons").
pub fn reason_key(detail: &str) -> String {
    // drop the location prefix `unsupported at M pc N: `
    let d = match detail.find(": ") {
        Some(i) if detail.starts_with("unsupported at") || detail.starts_with("invalid") => {
            &detail[i + 2..]
        }
        _ => detail,
    };
    // digit runs that stand alone (not inside a word such as `i2l`) become `N`
    let mut out = String::new();
    let mut prev: Option<char> = None;
    let mut in_number = false;
    for c in d.chars() {
        if c.is_ascii_digit() && (in_number || !prev.is_some_and(char::is_alphanumeric)) {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// Reasons of the jars with `status`, most frequent first.
pub fn top_reasons(results: &[JarResult], status: Status) -> Vec<(String, usize)> {
    let mut m: std::collections::BTreeMap<String, usize> = Default::default();
    for r in results.iter().filter(|r| r.status == status) {
        *m.entry(reason_key(&r.detail)).or_default() += 1;
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// Markdown: a summary, the top reasons, and one row per jar.
pub fn render_md(results: &[JarResult], timing: bool) -> String {
    let t = totals(results);
    let mut s = String::new();
    let _ = writeln!(s, "| status | jars | share |\n|---|---:|---:|");
    for st in Status::ALL {
        let n = results.iter().filter(|r| r.status == st).count();
        let _ = writeln!(s, "| {} | {n} | {:.1} % |", st.name(), pct(n, t.jars));
    }
    let _ = writeln!(s, "| **total** | {} | |", t.jars);
    if timing {
        let _ = writeln!(
            s,
            "\nGraph time per jar: median {:.1} ms, 90th percentile {:.1} ms, max {:.1} ms; {} nodes in all.",
            t.median_ms, t.p90_ms, t.max_ms, t.nodes
        );
    }
    if results.iter().any(|r| r.traces.is_some()) {
        let _ = writeln!(
            s,
            "\nChecked runs: {}, violations: {}.",
            t.traces, t.violations
        );
    }
    for st in [Status::Unsupported, Status::Budget, Status::Error] {
        let reasons = top_reasons(results, st);
        if reasons.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n**{}** reasons:\n", st.name());
        for (why, n) in reasons {
            let _ = writeln!(s, "- {n} × {}", why.replace('|', "\\|"));
        }
    }
    let _ = writeln!(
        s,
        "\n| jar | status | nodes |{} detail |",
        if timing { " ms |" } else { "" }
    );
    let _ = writeln!(s, "|---|---|---:|{}---|", if timing { "---:|" } else { "" });
    for r in results {
        let time = if timing {
            format!(" {:.1} |", r.graph_ms)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} |{time} {} |",
            r.jar,
            r.status.name(),
            r.nodes,
            r.detail.replace('|', "\\|")
        );
    }
    s
}

/// JSON: `{"jars": [...], "totals": {...}}`.
pub fn render_json(results: &[JarResult]) -> String {
    #[derive(Serialize)]
    struct J<'a> {
        jars: &'a [JarResult],
        totals: Totals,
    }
    serde_json::to_string_pretty(&J {
        jars: results,
        totals: totals(results),
    })
    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// CSV: one line per jar (`jar,status,nodes,graph_ms,traces,violations,detail`).
pub fn render_csv(results: &[JarResult]) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut s = String::from("jar,status,nodes,graph_ms,traces,violations,detail\n");
    for r in results {
        let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
        let _ = writeln!(
            s,
            "{},{},{},{:.3},{},{},{}",
            q(&r.jar),
            r.status.name(),
            r.nodes,
            r.graph_ms,
            opt(r.traces),
            opt(r.violations),
            q(&r.detail)
        );
    }
    s
}

/// Reads an expected-status list (`<status> <jar>` per line, `#` comments).
pub fn read_expected(text: &str) -> Vec<(String, Status)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (st, jar) = l.split_once(char::is_whitespace)?;
            Some((jar.trim().to_string(), Status::parse(st)?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_keys_group_numbers() {
        assert_eq!(
            reason_key("unsupported at A.m(I)V pc 12: invokevirtual: library method x.Y.z()V"),
            "invokevirtual: library method x.Y.z()V"
        );
        assert_eq!(
            reason_key("node budget exceeded: 20000 nodes"),
            "node budget exceeded: N nodes"
        );
    }

    #[test]
    fn expected_lists_parse() {
        let v = read_expected("# c\ncomplete a/B.jar\nbudget  c/D.jar\nnonsense\n");
        assert_eq!(
            v,
            vec![
                ("a/B.jar".to_string(), Status::Complete),
                ("c/D.jar".to_string(), Status::Budget)
            ]
        );
    }

    #[test]
    fn totals_and_percentiles() {
        let r = |st, ms| JarResult {
            jar: "x".into(),
            status: st,
            detail: String::new(),
            nodes: 1,
            graph_ms: ms,
            traces: None,
            violations: None,
        };
        let t = totals(&[
            r(Status::Complete, 1.0),
            r(Status::Budget, 3.0),
            r(Status::Complete, 2.0),
        ]);
        assert_eq!((t.jars, t.complete, t.budget), (3, 2, 1));
        assert_eq!(t.median_ms, 2.0);
        assert_eq!(t.max_ms, 3.0);
        assert!(render_json(&[]).contains("\"totals\""));
    }
}
