//! The Termination Competition corpus (`jtg corpus`): the termination graph of every jar's
//! `main(String[])`, with a status per jar and totals.
//!
//! A jar is *complete* when the graph was built and every leaf is a program end;
//! *unsupported* when the engine met something it does not model (the detail names class,
//! method, pc and what); *budget* when the node budget or the work budget ran out (both
//! deterministic; the wall-clock bound is only a safety net, and a jar it stops says so in its
//! detail); *error* for everything else (no `Main-Class`, no `main(String[])`, malformed
//! classes, internal errors). Every jar gets its own [`Program`]; jars are processed by `jobs`
//! threads.
//!
//! With [`CorpusOptions::check`] (`jtg corpus --check N`), the graph of every complete jar is
//! also checked against the real JVM as `jtg check` does ([`check_jar`], one check
//! [`Session`] per jar): N random inputs of `main(String[])` drawn from the graph's start
//! state, seeded by [`check_seed`] (the run's seed and the jar's name, so a jar's result does
//! not depend on `jobs` or on the other jars), each traced in the process's one JVM (runs of
//! all threads are serialised there) and matched against the graph. The report of a run
//! (totals, Markdown, JSON, CSV) is module `report`.

mod junit;
mod methods;
mod report;
mod sources;

pub use junit::render_junit;

pub use methods::{glob_matches, method_entries};
pub use report::{
    contradicts, coverage, drop_times, read_aprove, read_expected, read_expected_verdicts,
    reason_key, render_csv, render_json, render_md, top_reasons, totals, Totals,
};
pub use sources::{find_entries, find_entries_with, Entry, Javac, Target};

use jtg_check::report::shell_quote;
use jtg_check::{CaseId, Inputs, Session, SessionError, Settings, Summary};
use jtg_engine::class::stable_hash;
use jtg_engine::class::{jar_main_class, ClassPath};
use jtg_engine::graph::{build_graph_limited, BuildLimits};
use jtg_engine::models::MAIN_DESCRIPTOR;
use jtg_engine::state::{IntSemantics, MethodId};
use jtg_engine::{EngineError, Graph, Options, Program};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The outcome class of one jar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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

/// The result for one jar (also the record of a jar in the journal of `jtg corpus`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JarResult {
    /// The jar's path relative to the corpus root given on the command line.
    pub jar: String,
    pub status: Status,
    /// Empty for complete graphs; otherwise the error.
    pub detail: String,
    /// Nodes of the (possibly partial) graph.
    pub nodes: usize,
    pub graph_ms: f64,
    /// The JVM check (`--check`); `None` when not asked for or the graph is not complete.
    pub check: Option<JarCheck>,
    /// The termination verdict (`--prove`); `None` when not asked for or the graph is not
    /// complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prove: Option<JarProve>,
}

/// The termination verdict of one complete graph (`jtg corpus --prove`, as `jtg prove`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JarProve {
    /// `YES`, `NO` or `MAYBE`.
    pub verdict: String,
    /// `ranking`, `repeated_state`, `recurrent_set` or `none`.
    pub certificate: String,
    /// Encoding, proof and NO search, without the cross-check.
    pub prove_ms: f64,
    /// With `--check N`: transitions of the N runs whose rule or ranking function failed.
    pub prove_violations: Option<usize>,
    /// The replay command of a NO witness, or of the first cross-check violation.
    pub replay: Option<String>,
    /// ITS size: locations and rules.
    pub locations: usize,
    pub rules: usize,
    /// Why a step failed or was left out (the prover's notes, an error).
    pub note: Option<String>,
    /// A NO's evidence (`NoWitness::detail`): what repeats or stays in the recurrent set, how
    /// the JVM run was judged, and the integer model the NO is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<String>,
    /// What the verdict assumes (its integer model, its start state's shape); `None` when
    /// no verdict was reached (an error) or in journals written before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assumptions: Option<jtg_terminate::Assumptions>,
    /// Why the verdict is MAYBE (`jtg prove`'s reason; set for every MAYBE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// `--prove`: how complete graphs get verdicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusProve {
    /// Runs of the cross-check per jar (0: none).
    pub check: u64,
    pub seed: u64,
    pub max_steps: u64,
    pub max_size: usize,
    /// The prover's wall-clock safety net per jar (`jtg prove`'s default: 30 s). Verdicts
    /// rest on the deterministic work budget (`jtg_prove::DEFAULT_MAX_WORK`); a MAYBE caused by
    /// this net says so in its note.
    pub timeout: std::time::Duration,
}

/// The JVM check of one complete graph.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JarCheck {
    /// The generator's seed ([`check_seed`]): `jtg check JAR MAIN --seed S --case K` replays
    /// case K.
    pub seed: u64,
    /// Concrete runs checked.
    pub traces: usize,
    /// Executed instructions over all runs.
    pub steps: u64,
    pub violations: usize,
    /// Runs that overflowed Java ints under unbounded integers (checked up to the overflow).
    pub outside_model: usize,
    /// Runs cut by the step budget (checked as prefixes).
    pub cut: usize,
    /// Graph nodes some run visited.
    pub covered_nodes: usize,
    /// Why the check stopped before its N runs (no inputs can be generated, a run cannot be
    /// traced); the counts are those of the runs before.
    pub error: Option<String>,
    /// The command that replays the first violating run.
    pub replay: Option<String>,
    pub check_ms: f64,
}

/// `--check N`: how complete graphs are checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusCheck {
    /// Random inputs per jar.
    pub n: u64,
    /// The run's seed; each jar's generator is seeded by [`check_seed`].
    pub seed: u64,
    /// Step budget of one run.
    pub max_steps: u64,
    /// Largest generated structure.
    pub max_size: usize,
}

/// Settings of a corpus run.
#[derive(Clone, Debug)]
pub struct CorpusOptions {
    pub max_nodes: usize,
    /// The deterministic work budget of a jar's graph ([`BuildLimits::max_work`]).
    pub max_work: u64,
    /// The wall-clock safety net of a jar's graph: a jar it stops is reported with
    /// [`TIME_BOUND_NOTE`] in its detail, since where it stops depends on the machine.
    pub time_limit: Duration,
    pub ints: IntSemantics,
    /// Check complete graphs against the JVM.
    pub check: Option<CorpusCheck>,
    /// Prove complete graphs terminating or not.
    pub prove: Option<CorpusProve>,
}

impl Default for CorpusOptions {
    fn default() -> CorpusOptions {
        CorpusOptions {
            max_nodes: 20_000,
            max_work: DEFAULT_MAX_WORK,
            time_limit: Duration::from_secs(DEFAULT_MAX_SECS),
            ints: IntSemantics::Unbounded,
            check: None,
            prove: None,
        }
    }
}

/// The default work budget of a jar's graph (`--max-work`). Measured on the TPDB corpus
/// (release build): the costliest construction within the default node budget spends 3.9 M
/// units (Flatten.jar, stopped at 20 000 nodes), at 0.4–2.2 µs a unit on the 2-core development
/// machine under load; 10 M is several seconds of construction, and stops a jar whose states
/// grow large before it reaches the node budget.
pub const DEFAULT_MAX_WORK: u64 = 10_000_000;

/// The default wall-clock safety net of a jar's graph (`--max-secs`), far above what the work
/// budget allows on a loaded machine, so that it stops only runaway constructions.
pub const DEFAULT_MAX_SECS: u64 = 120;

/// Starts the detail of a jar stopped by the wall-clock safety net: its node count (and
/// status, had it run longer) depends on the machine and its load.
pub const TIME_BOUND_NOTE: &str =
    "stopped by the wall-clock safety net --max-secs (machine-dependent):";

/// The generator seed of jar `name` (its name in reports) in a run with seed `seed`: the
/// [`stable_hash`] of `seed:name`, the same on every machine.
pub fn check_seed(seed: u64, name: &str) -> u64 {
    stable_hash(format!("{seed}:{name}").as_bytes())
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
    analyse_entry(&Entry::jar(root, jar), opts)
}

/// Builds the graph of one entry's `main(String[])` (a jar's `Main-Class`, or a class of a
/// compiled source folder or class folder).
pub fn analyse_entry(entry: &Entry, opts: &CorpusOptions) -> JarResult {
    let name = entry.name.clone();
    let jar = entry.classpath.as_path();
    let fail = |status, detail: String, nodes, ms| JarResult {
        jar: name.clone(),
        status,
        detail,
        nodes,
        graph_ms: ms,
        check: None,
        prove: None,
    };
    let spec = match &entry.target {
        Target::Main(c) => format!("{c}.main{MAIN_DESCRIPTOR}"),
        Target::Method(spec) => spec.clone(),
        Target::CompileError(msg) => return fail(Status::Error, msg.clone(), 0, 0.0),
        Target::Unit => {
            return fail(
                Status::Error,
                "a class path without a selected method".into(),
                0,
                0.0,
            )
        }
        Target::JarMain => match jar_main_class(jar) {
            Ok(Some(m)) => format!("{m}.main{MAIN_DESCRIPTOR}"),
            Ok(None) => {
                return fail(
                    Status::Error,
                    "no Main-Class in the manifest".into(),
                    0,
                    0.0,
                )
            }
            Err(e) => return fail(Status::Error, e.to_string(), 0, 0.0),
        },
    };
    let cp = match ClassPath::from_paths(&[jar.to_path_buf()]) {
        Ok(cp) => cp,
        Err(e) => return fail(Status::Error, e.to_string(), 0, 0.0),
    };
    let prog = Program::new(cp);
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
    let limits = BuildLimits {
        max_work: Some(opts.max_work),
        deadline: Some(opts.time_limit),
    };
    let r = build_graph_limited(&prog, &m, start, &eopts, limits);
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    match r {
        Ok(g) if g.is_complete() => JarResult {
            check: opts
                .check
                .as_ref()
                .map(|c| check_jar(&prog, &m, jar, &name, &g, c, opts.ints)),
            prove: opts
                .prove
                .as_ref()
                .map(|p| prove_jar(&prog, &m, jar, &name, &g, p, opts.ints)),
            jar: name,
            status: Status::Complete,
            detail: String::new(),
            nodes: g.nodes.len(),
            graph_ms: ms,
        },
        Ok(g) => fail(
            Status::Error,
            format!("open leaves {:?}", g.open_leaves()),
            g.nodes.len(),
            ms,
        ),
        Err(f) => {
            let detail = match f.error {
                EngineError::TimeBudget { .. } => format!("{TIME_BOUND_NOTE} {}", f.error),
                _ => f.error.to_string(),
            };
            fail(status_of(&f.error), detail, f.partial.nodes.len(), ms)
        }
    }
}

/// The verdict of the complete graph `g` of entry `name` (class path `jar`, as `jtg prove`);
/// never fails: an error is a MAYBE with a note.
pub fn prove_jar(
    prog: &Program,
    m: &MethodId,
    jar: &Path,
    name: &str,
    g: &jtg_engine::Graph,
    p: &CorpusProve,
    ints: IntSemantics,
) -> JarProve {
    let cfg = jtg_terminate::ProveConfig {
        classpath: jar.display().to_string(),
        ints,
        seed: p.seed,
        check: p.check,
        max_steps: p.max_steps,
        max_size: p.max_size,
        witness_out: Some(witness_path(jar, name)),
        timeout: p.timeout,
        ..jtg_terminate::ProveConfig::default()
    };
    match jtg_terminate::run(prog, m, g, &cfg) {
        Ok(r) => JarProve {
            prove_ms: ((r.encode_ms + r.prove_ms + r.nonterm_ms) * 1e3).round() / 1e3,
            prove_violations: (p.check > 0).then_some(r.violations.len()),
            replay: r
                .witness
                .as_ref()
                .map(|w| w.replay.clone())
                .or_else(|| r.violations.first().map(|v| v.replay.clone())),
            locations: r.its_locations,
            rules: r.its_rules,
            note: r.notes.first().cloned(),
            witness: r.witness.as_ref().map(|w| w.detail.clone()),
            assumptions: Some(r.assumptions),
            reason: r.reason,
            verdict: r.verdict,
            certificate: r.certificate,
        },
        Err(e) => JarProve {
            verdict: "MAYBE".into(),
            certificate: "none".into(),
            note: Some(format!("{e:#}")),
            reason: Some(format!("{e:#}")),
            ..JarProve::default()
        },
    }
}

/// Where the NO witness of entry `name` (class path `jar`) is written: beside the system's
/// temp files, named after the class path, the entry (two entries of one class folder, such as
/// `Folder:MainLoops` and `Folder:MainLoops2`, never share a file) and this process (two runs
/// at once never overwrite each other's witnesses).
pub fn witness_path(jar: &Path, name: &str) -> PathBuf {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect()
    };
    std::env::temp_dir().join(format!(
        "jtg-no-{}-{}-{}.state",
        safe(&jar.to_string_lossy()),
        safe(name),
        std::process::id()
    ))
}

/// Checks the complete graph `g` of jar `name` (at `jar`) against the JVM: `c.n` random
/// inputs, every run traced and matched as `jtg check` does (one [`Session`], matching on this
/// thread: the jars are the parallel units). Never fails: a problem stops the check and is
/// recorded in [`JarCheck::error`].
pub fn check_jar(
    prog: &Program,
    m: &MethodId,
    jar: &Path,
    name: &str,
    g: &Graph,
    c: &CorpusCheck,
    ints: IntSemantics,
) -> JarCheck {
    let t0 = Instant::now();
    let seed = check_seed(c.seed, name);
    let replay = format!(
        "jtg check {} {}",
        shell_quote(&jar.to_string_lossy()),
        shell_quote(&m.to_string())
    );
    let settings = Settings {
        ints,
        seed,
        max_size: c.max_size,
        max_steps: c.max_steps,
        max_reports: 0,
        shrink_runs: 0,
        jobs: 1,
        replay: replay.clone(),
    };
    let inputs = Inputs::Generated {
        first: 0,
        count: c.n,
    };
    let checked = Session::new(prog, g, vec![jar.to_path_buf()], settings, inputs)
        .map(|s| s.run(None, Default::default(), &mut |_| {}));
    let (summary, first_violation, error) = match checked {
        Ok(ch) => (
            ch.summary,
            ch.first_violation,
            ch.stopped.map(|e| stopped(&e)),
        ),
        Err(e) => (Summary::new(g), None, Some(stopped(&e))),
    };
    let replay = first_violation.map(|case| {
        let k = match case {
            CaseId::Generated(k) => k,
            CaseId::Input => 0,
        };
        format!(
            "{replay} --seed {seed} --case {k} --max-size {} --max-steps {} --ints {}",
            c.max_size,
            c.max_steps,
            match ints {
                IntSemantics::Unbounded => "unbounded",
                IntSemantics::Java => "java",
            }
        )
    });
    JarCheck {
        seed,
        traces: summary.traces,
        steps: summary.steps,
        violations: summary.violations,
        outside_model: summary.outside_model,
        cut: summary.cut,
        covered_nodes: summary.covered_nodes(),
        error,
        replay,
        check_ms: t0.elapsed().as_secs_f64() * 1e3,
    }
}

/// Why a jar's check stopped, on one line: the case it stopped at and the cause.
fn stopped(e: &SessionError) -> String {
    let msg = match e {
        SessionError::Generator { error } => error.to_string(),
        SessionError::Generate { case, error } => format!("case {case}: {error}"),
        SessionError::Trace { case, source, .. } => format!("tracing {case}: {source}"),
        e => e.to_string(),
    };
    msg.replace('\n', " ")
}

/// Analyses `jars` with `jobs` threads; `progress` is called after each jar (with the number
/// done). Results are in the order of `jars`.
pub fn run_corpus(
    jars: &[(PathBuf, PathBuf)],
    opts: &CorpusOptions,
    jobs: usize,
    progress: &(dyn Fn(usize, &JarResult) + Sync),
) -> Vec<JarResult> {
    let entries: Vec<Entry> = jars.iter().map(|(r, j)| Entry::jar(r, j)).collect();
    let r = run_corpus_resuming(&entries, opts, jobs, &|_| None, &|n, _, r| {
        progress(n, r);
        Ok::<(), std::convert::Infallible>(())
    });
    match r {
        Ok(v) => v,
        Err(e) => match e {},
    }
}

/// [`run_corpus`] over entries, continuing an earlier run: `known(entry)` is the result of an
/// entry finished before (it is not analysed again); `finished(n, entry, result)` is called
/// after each entry analysed now (`n` counts the known entries too). When `finished` fails, no further jar is
/// started and its first error is returned once the jars in progress are done.
pub fn run_corpus_resuming<E: Send>(
    jars: &[Entry],
    opts: &CorpusOptions,
    jobs: usize,
    known: &(dyn Fn(&Entry) -> Option<JarResult> + Sync),
    finished: &(dyn Fn(usize, &Entry, &JarResult) -> Result<(), E> + Sync),
) -> Result<Vec<JarResult>, E> {
    let mut slots: Vec<Option<JarResult>> = jars.iter().map(known).collect();
    let todo: Vec<usize> = (0..jars.len()).filter(|&k| slots[k].is_none()).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(jars.len() - todo.len());
    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<E>> = Mutex::new(None);
    let new: Mutex<Vec<(usize, JarResult)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Some(&k) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    break;
                };
                let entry = &jars[k];
                let r = analyse_entry(entry, opts);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                if let Err(e) = finished(n, entry, &r) {
                    stop.store(true, Ordering::SeqCst);
                    let mut fe = first_error.lock().unwrap_or_else(|p| p.into_inner());
                    fe.get_or_insert(e);
                    break;
                }
                new.lock().unwrap_or_else(|p| p.into_inner()).push((k, r));
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    for (k, r) in new.into_inner().unwrap_or_else(|p| p.into_inner()) {
        slots[k] = Some(r);
    }
    Ok(slots.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtg_check::gen::GenError;
    use jtg_check::CheckError;

    /// Two entries of one class folder get their own witness files, and the name carries the
    /// process id (two runs at once never replay each other's input).
    #[test]
    fn witness_files_are_per_entry_and_per_process() {
        let folder = Path::new("/corpus/Folder");
        let a = witness_path(folder, "Folder:MainLoops");
        let b = witness_path(folder, "Folder:MainLoops2");
        assert_ne!(a, b);
        assert_eq!(
            a,
            witness_path(folder, "Folder:MainLoops"),
            "stable in a process"
        );
        let pid = std::process::id().to_string();
        for p in [&a, &b] {
            assert!(p.to_string_lossy().contains(&pid), "{}", p.display());
            assert!(p.starts_with(std::env::temp_dir()));
        }
    }

    /// A jar's check that stopped says so on one line, with the case, as before the session:
    /// `case K: …` for an input that cannot be drawn, `tracing case K: …` for a run.
    #[test]
    fn a_stopped_check_is_one_line_naming_the_case() {
        let drawn = SessionError::Generate {
            case: 3,
            error: GenError::Unsatisfiable("case 3: none".into()),
        };
        assert_eq!(
            stopped(&drawn),
            "case 3: no concrete instance found: case 3: none"
        );
        let traced = SessionError::Trace {
            case: CaseId::Generated(4),
            name: "seed 9 case 4".into(),
            source: CheckError::BadInput("no\nJVM".into()),
        };
        assert_eq!(stopped(&traced), "tracing case 4: no JVM");
        let generator = SessionError::Generator {
            error: GenError::Unsupported("two frames".into()),
        };
        assert_eq!(stopped(&generator), "cannot generate inputs: two frames");
    }
}
