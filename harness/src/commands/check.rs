//! `jtg check`: runs the method in the JVM on many concrete instances of the start state and
//! checks that every trace is a path of the termination graph (see `jtg_check`).
//!
//! Exit code 0 when no trace violates the graph, 1 when some does (with a report per failing
//! trace), 2 and up on errors. With `--journal FILE` every checked case is recorded as it
//! finishes, and `--resume` continues an interrupted run (README, *Long runs*).

use super::trace::entries;
use super::{journal_records, load, open_journal, start_state, Ints, JournalArgs};
use anyhow::{Context, Result};
use jtg_check::gen::{GenConfig, Generator};
use jtg_check::journal::stable_hash;
use jtg_check::path::Matcher;
use jtg_check::report::{failure, FailureReport};
use jtg_check::{
    check_run, check_runs, shrink, summary_json, summary_junit, Summary, Target, TraceRecord,
    Verdict,
};
use jtg_engine::render::json;
use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::state::{IntSemantics, State};
use jtg_engine::{build_graph, EngineError, Graph, Options};
use jtg_jvm::Trace;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Junit,
}

#[derive(clap::Args)]
pub struct Args {
    /// Directories and jars, `:`-separated.
    pub classpath: String,
    /// `Class.method` or `Class.method(descriptor)`.
    pub method: String,
    /// The abstract start state (state text form); default: the most general one.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Check against this graph (the JSON form of `jtg graph --format json`) instead of
    /// building one. Its start node's state is the start state inputs are drawn from.
    #[arg(long)]
    pub graph: Option<PathBuf>,
    /// Number of random inputs.
    #[arg(short = 'n', default_value_t = 1000)]
    pub n: u64,
    /// Seed of the input generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Check only case K of the seed (replays one input of a run with `-n`).
    #[arg(long)]
    pub case: Option<u64>,
    /// Check one concrete input (state text form) instead of random ones.
    #[arg(long, conflicts_with = "case")]
    pub input: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// Step budget per run; a longer run is checked as a prefix and counted as `cut`.
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u64,
    /// Largest generated structure (objects per list/tree).
    #[arg(long, default_value_t = 6)]
    pub max_size: usize,
    /// Failing traces reported (and shrunk) in detail; the rest are only counted.
    #[arg(long, default_value_t = 5)]
    pub max_reports: usize,
    /// JVM runs spent on shrinking one failing input.
    #[arg(long, default_value_t = 200)]
    pub shrink_runs: usize,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Threads that match traces against the graph (default: the machine's cores). Results
    /// do not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub journal: JournalArgs,
}

/// The graph to check: read from `--graph`, or built from the start state.
pub fn graph_for(
    prog: &jtg_engine::Program,
    m: &jtg_engine::state::MethodId,
    graph: Option<&std::path::Path>,
    start: Option<&std::path::Path>,
    sem: IntSemantics,
) -> Result<Graph> {
    match graph {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read graph {}", path.display()))?;
            // a graph that cannot be read is bad input (exit code 2)
            let g = json::read(&text, prog)
                .map_err(|e| jtg_jvm::JvmError::BadInput(format!("{}: {e}", path.display())))?;
            if g.method != *m {
                anyhow::bail!(EngineError::StartState(format!(
                    "{} is a graph of {}, not of {m}",
                    path.display(),
                    g.method
                )));
            }
            Ok(g)
        }
        None => {
            let st = start_state(prog, m, start, sem)?;
            let opts = Options {
                ints: sem,
                ..Default::default()
            };
            build_graph(prog, m, st, &opts).map_err(|f| anyhow::Error::new(f.error))
        }
    }
}

fn progress(n: u64) -> Option<indicatif::ProgressBar> {
    let quiet = !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some();
    if quiet || n < 2 {
        return None;
    }
    let pb = indicatif::ProgressBar::new(n);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos}/{len} traces [{elapsed_precise}] {bar:30} {msg}",
    ) {
        pb.set_style(style);
    }
    Some(pb)
}

/// Inputs traced per JVM batch (each batch is one JNI session and one Java thread).
const BATCH: usize = 64;

/// A chunk of the inputs ([`BATCH`] cases at most): the journal's records that come before
/// its cases, the cases (index, name, replay arguments, state), and the error that ended it.
#[derive(Default)]
struct Chunk {
    records: Vec<TraceRecord>,
    cases: Vec<(usize, String, String, State)>,
    failed: Option<jtg_jvm::JvmError>,
}

/// Shell-quotes one argument if needed.
fn q(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-:=".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

pub fn run(a: Args) -> Result<ExitCode> {
    let (prog, m) = load(&a.classpath, &a.method)?;
    let sem: IntSemantics = a.ints.into();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let graph = graph_for(&prog, &m, a.graph.as_deref(), a.start.as_deref(), sem)?;
    let start = graph.nodes[graph.start].state.clone();
    let target = Target::new(&prog, m.clone(), entries(&a.classpath))?;
    let matcher = Matcher::new(&graph, &prog, sem);
    // a label naming a reference in neither state (…) is an error of the graph, not a pass
    if let Some(e) = matcher.label_error() {
        anyhow::bail!(jtg_jvm::JvmError::BadInput(format!(
            "the graph's labels: {e}"
        )));
    }
    let ctx = TextContext::for_method(m.clone(), &prog);
    let cfg = GenConfig {
        seed: a.seed,
        max_size: a.max_size,
        ints: sem,
    };
    // the generator also shrinks hand-written inputs; without one there is no shrinking
    let generator = Generator::new(&prog, &m, &start, cfg);

    let mut base = format!("jtg check {} {}", q(&a.classpath), q(&m.to_string()));
    if let Some(g) = &a.graph {
        base.push_str(&format!(" --graph {}", q(&g.to_string_lossy())));
    } else if let Some(s) = &a.start {
        base.push_str(&format!(" --start {}", q(&s.to_string_lossy())));
    }
    base.push_str(&format!(
        " --ints {} --max-steps {}",
        ints_name(sem),
        a.max_steps
    ));

    // the inputs: (name, replay arguments, state)
    let cases: Vec<u64> = match (a.input.is_some(), a.case) {
        (true, _) => vec![],
        (false, Some(k)) => vec![k],
        (false, None) => (0..a.n).collect(),
    };
    let mut inputs: Vec<(String, String, State)> = Vec::new();
    if let Some(path) = &a.input {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read input {}", path.display()))?;
        let st = parse_state(&text, &ctx)
            .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
        inputs.push((
            path.display().to_string(),
            format!("--input {}", q(&path.to_string_lossy())),
            st,
        ));
    }
    let gen = match (&generator, cases.is_empty()) {
        (_, true) => None,
        (Ok(g), false) => Some(g),
        (Err(e), false) => anyhow::bail!(jtg_jvm::JvmError::BadInput(e.to_string())),
    };

    // The journal: one record per case (or input), keyed `case K` (`input`). Its header holds
    // everything the records depend on, the graph included (by a fingerprint of its JSON form:
    // a rebuilt engine that builds another graph must not resume), but not --format. (Only
    // computed for a journal: rendering a large graph takes a while.)
    let params = if a.journal.journal.is_none() {
        serde_json::Value::Null
    } else {
        let fingerprint = |text: &str| format!("{:016x}", stable_hash(text.as_bytes()));
        let graph_fingerprint = fingerprint(&json::render(&graph, &prog));
        let input_fingerprint = inputs
            .first()
            .map(|(_, _, st)| fingerprint(&print_state(st, &ctx)));
        serde_json::json!({
            "command": "check",
            "classpath": a.classpath,
            "method": m.to_string(),
            "start": a.start,
            "graph": a.graph,
            "graph_fingerprint": graph_fingerprint,
            "input": a.input,
            "input_fingerprint": input_fingerprint,
            "n": a.n,
            "seed": a.seed,
            "case": a.case,
            "ints": ints_name(sem),
            "max_steps": a.max_steps,
            "max_size": a.max_size,
            "max_reports": a.max_reports,
            "shrink_runs": a.shrink_runs,
        })
    };
    let journal = open_journal(&a.journal, &params)?;
    let key = |k: usize| {
        if k < inputs.len() {
            "input".to_string()
        } else {
            format!("case {}", cases[k - inputs.len()])
        }
    };
    let known = |key: &str| {
        if key == "input" {
            return !inputs.is_empty();
        }
        let case = key
            .strip_prefix("case ")
            .and_then(|c| c.parse::<u64>().ok());
        let in_run = match (case, a.case) {
            (Some(c), Some(k)) => c == k && a.input.is_none(),
            (Some(c), None) => c < a.n && a.input.is_none(),
            (None, _) => false,
        };
        // exactly the key this run writes (not `case 07`)
        in_run && case.is_some_and(|c| key == format!("case {c}"))
    };
    let mut done: std::collections::BTreeMap<String, TraceRecord> =
        journal_records(journal.as_ref(), &known)?;

    let mut summary = Summary::new(&graph);
    let mut reports: Vec<FailureReport> = Vec::new();
    let pb = progress(cases.len().max(inputs.len()) as u64);
    let total = cases.len() + inputs.len();
    let mut next = 0;
    // The next chunk of inputs, traced in one batch, in case order with the journal's records
    // of the cases between them. A failure to build an input ends the chunk; it is raised
    // when the chunk's turn comes, before its cases are checked.
    let mut chunk_after = |next: &mut usize| -> Chunk {
        let mut chunk = Chunk::default();
        while *next < total && chunk.cases.len() < BATCH {
            let k = *next;
            // A case of the journal: its record stands for the run, taken in case order (after
            // the chunk before it) so that the reports are those of an uninterrupted run.
            if done.contains_key(&key(k)) {
                if !chunk.cases.is_empty() {
                    break;
                }
                *next += 1;
                if let Some(r) = done.remove(&key(k)) {
                    chunk.records.push(r);
                }
                continue;
            }
            *next += 1;
            let (name, replay, input) = if k < inputs.len() {
                inputs[k].clone()
            } else {
                let case = cases[k - inputs.len()];
                let Some(g) = gen else { break };
                let sample = match g.case(case) {
                    Ok(s) => s,
                    Err(e) => {
                        chunk.failed = Some(jtg_jvm::JvmError::BadInput(e.to_string()));
                        *next = total;
                        break;
                    }
                };
                (
                    format!("seed {} case {case}", a.seed),
                    format!("--seed {} --case {case} --max-size {}", a.seed, a.max_size),
                    sample.state,
                )
            };
            chunk.cases.push((k, name, replay, input));
        }
        chunk
    };
    // Tracing runs on a thread of its own, one chunk ahead of the checks: the JVM traces the
    // next chunk while this one is matched.
    std::thread::scope(|scope| -> Result<()> {
        let (want, wanted) = std::sync::mpsc::sync_channel::<Vec<State>>(1);
        let (give, given) = std::sync::mpsc::sync_channel(1);
        let target = &target;
        let max_steps = a.max_steps;
        scope.spawn(move || {
            for states in wanted {
                if give.send(target.trace_batch(&states, max_steps)).is_err() {
                    break;
                }
            }
        });
        let request = |c: &Chunk| -> Result<()> {
            if !c.cases.is_empty() {
                let states = c.cases.iter().map(|(_, _, _, s)| s.clone()).collect();
                want.send(states).context("the tracing thread stopped")?;
            }
            Ok(())
        };
        let mut cur = chunk_after(&mut next);
        request(&cur)?;
        loop {
            if cur.records.is_empty() && cur.cases.is_empty() && cur.failed.is_none() {
                break;
            }
            let ahead = if cur.failed.is_none() {
                let c = chunk_after(&mut next);
                request(&c)?;
                c
            } else {
                Chunk::default()
            };
            // as an input that cannot be built always did: nothing of its chunk is checked
            if let Some(e) = cur.failed.take() {
                return Err(e.into());
            }
            for r in cur.records.drain(..) {
                summary.add_record(&r)?;
                reports.extend(r.report);
                if let Some(pb) = &pb {
                    pb.inc(1);
                }
            }
            let traces = if cur.cases.is_empty() {
                Vec::new()
            } else {
                given.recv().context("the tracing thread stopped")?
            };
            // a tracing error stops the command at its case, after the cases before it
            let ok = traces.iter().take_while(|t| t.is_ok()).count();
            let runs: Vec<&Trace> = traces[..ok].iter().flatten().collect();
            let mut checks = check_runs(&matcher, &prog, &runs, sem, jobs).into_iter();
            drop(runs);
            for ((k, name, replay, input), trace) in cur.cases.drain(..).zip(traces) {
                let trace = trace.with_context(|| format!("tracing {name}"))?;
                let c = checks
                    .next()
                    .unwrap_or_else(|| check_run(&matcher, &prog, &trace, sem));
                summary.add(&c);
                let mut record = journal.as_ref().map(|_| TraceRecord::of(&c));
                if let Verdict::Violation(stuck) = &c.verdict {
                    if reports.len() < a.max_reports {
                        let mut r = failure(
                            &graph,
                            &prog,
                            &m,
                            name.clone(),
                            print_state(&input, &ctx),
                            &trace,
                            stuck,
                            format!("{base} {replay}"),
                        );
                        if let Ok(g) = &generator {
                            let cand = |s: &State| g.shrink(s);
                            let (small, sc) = shrink(
                                target,
                                &matcher,
                                &input,
                                sem,
                                a.max_steps,
                                &cand,
                                a.shrink_runs,
                            )?;
                            if let Verdict::Violation(ss) = &sc.verdict {
                                let text = print_state(&small, &ctx);
                                let file = save_input(&m, &name, &text);
                                let replay = file.map_or_else(
                                    || r.replay.clone(),
                                    |f| format!("{base} --input {}", q(&f.to_string_lossy())),
                                );
                                let strace = target.trace(&small, a.max_steps)?;
                                let sr = failure(
                                    &graph,
                                    &prog,
                                    &m,
                                    format!("{name}, shrunk"),
                                    text,
                                    &strace,
                                    ss,
                                    replay,
                                );
                                r.shrunk = Some(Box::new(sr));
                            }
                        }
                        if let Some(rec) = &mut record {
                            rec.report = Some(r.clone());
                        }
                        reports.push(r);
                    }
                }
                if let (Some(j), Some(rec)) = (&journal, &record) {
                    j.append(&key(k), rec)?;
                }
                if let Some(pb) = &pb {
                    pb.inc(1);
                    pb.set_message(format!("{} violations", summary.violations));
                }
            }
            cur = ahead;
        }
        Ok(())
    })?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }

    let mut out = String::new();
    match a.format {
        Format::Text => {
            for r in &reports {
                out.push_str(&r.text());
                out.push('\n');
            }
            if summary.unbound_labels > 0 {
                out.push_str(&format!(
                    "{} label evaluations left out: the run had not bound a reference they name (e.g. a static field not accessed yet)\n",
                    summary.unbound_labels
                ));
            }
            out.push_str(&format!(
                "{m}: {} traces, {} steps, {} violations, {} outside the model, {} cut; node coverage {:.1}% ({} of {} nodes)\n",
                summary.traces,
                summary.steps,
                summary.violations,
                summary.outside_model,
                summary.cut,
                100.0 * summary.node_coverage(),
                summary.covered.iter().filter(|c| **c).count(),
                graph.nodes.len()
            ));
        }
        Format::Json => {
            let j = summary_json(&m, &summary, &reports, graph.nodes.len());
            out = serde_json::to_string_pretty(&j)? + "\n";
        }
        Format::Junit => out = summary_junit(&m, &summary, &reports),
    }
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write to standard output")?;
    Ok(if summary.violations > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The `--ints` value of an integer semantics.
pub fn ints_name(sem: IntSemantics) -> &'static str {
    match sem {
        IntSemantics::Unbounded => "unbounded",
        IntSemantics::Java => "java",
    }
}

/// Writes a shrunk input where a replay command can find it.
fn save_input(m: &jtg_engine::state::MethodId, name: &str, text: &str) -> Option<PathBuf> {
    let dir = std::env::temp_dir().join("jtg-check");
    std::fs::create_dir_all(&dir).ok()?;
    let slug: String = format!("{}.{}.{name}", m.class, m.name)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let path = dir.join(format!("{slug}.state"));
    std::fs::write(&path, text).ok()?;
    Some(path)
}
