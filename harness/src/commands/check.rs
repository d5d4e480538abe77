//! `jtg check`: runs the method in the JVM on many concrete instances of the start state and
//! checks that every trace is a path of the termination graph (see `jtg_check`).
//!
//! Exit code 0 when no trace violates the graph, 1 when some does (with a report per failing
//! trace), 2 and up on errors. With `--journal FILE` every checked case is recorded as it
//! finishes, and `--resume` continues an interrupted run (README, *Long runs*).

use super::{
    at_least_one, check_input_values, graph_for, interrupt, ints_name, load, paint, resuming, Ints,
    JournalArgs,
};
use anyhow::{Context, Result};
use jtg_check::journal::Journal;
use jtg_check::report::{shell_quote, FailureReport};
use jtg_check::shard::Shard;
use jtg_check::{summary_json, summary_junit, summary_text, Inputs, Session, Settings, Summary};
use jtg_engine::class::stable_hash;
use jtg_engine::render::json;
use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::state::{IntSemantics, State};
use jtg_engine::EngineError;
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
    /// Cap of the generated structures' sizes (objects per list/tree, array lengths): most
    /// cases draw up to 6, every 8th up to this (the size schedule of `jtg_check::gen`).
    #[arg(long, default_value_t = jtg_check::gen::DEFAULT_MAX_SIZE)]
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
    /// Check only shard K of N of the cases (cargo-nextest's `--partition count:K/N`: case
    /// `i` belongs to shard `i mod N + 1`); with `--journal`, `jtg merge` of the N journals
    /// is the report of the whole run.
    #[arg(long, value_name = "K/N", conflicts_with_all = ["case", "input"])]
    pub shard: Option<Shard>,
    /// Leave the times out of the report (JUnit `time` attributes).
    #[arg(long)]
    pub no_times: bool,
    #[command(flatten)]
    pub journal: JournalArgs,
}

fn progress(n: u64) -> Option<indicatif::ProgressBar> {
    let quiet = !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some();
    if quiet || n < 2 {
        return None;
    }
    let pb = indicatif::ProgressBar::new(n);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos}/{len} traces [{elapsed_precise}, eta {eta}] {bar:30} {msg}",
    ) {
        pb.set_style(style);
    }
    Some(pb)
}

pub fn run(a: Args) -> Result<ExitCode> {
    if a.case.is_none() && a.input.is_none() {
        at_least_one("-n", a.n)?;
    }
    at_least_one("--max-steps", a.max_steps)?;
    let started = std::time::Instant::now();
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let (prog, m) = load(&a.classpath, &a.method)?;
    let sem: IntSemantics = a.ints.into();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let graph = graph_for(&prog, &m, a.graph.as_deref(), a.start.as_deref(), sem)?;
    let ctx = TextContext::for_method(m.clone(), &prog);

    let mut replay = format!(
        "jtg check {} {}",
        shell_quote(&a.classpath),
        shell_quote(&m.to_string())
    );
    if let Some(g) = &a.graph {
        replay.push_str(&format!(" --graph {}", shell_quote(&g.to_string_lossy())));
    } else if let Some(s) = &a.start {
        replay.push_str(&format!(" --start {}", shell_quote(&s.to_string_lossy())));
    }
    replay.push_str(&format!(
        " --ints {} --max-steps {}",
        ints_name(sem),
        a.max_steps
    ));

    let inputs = match (&a.input, a.case) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read input {}", path.display()))?;
            let state = parse_state(&text, &ctx)
                .map_err(|e| e.to_string())
                .and_then(|st| check_input_values(&prog, &st, sem).map(|()| st))
                .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
            Inputs::Given {
                name: path.display().to_string(),
                replay: format!("--input {}", shell_quote(&path.to_string_lossy())),
                state: Box::new(state),
            }
        }
        (None, Some(k)) => Inputs::Generated { first: k, count: 1 },
        (None, None) if shard.is_whole() => Inputs::Generated {
            first: 0,
            count: a.n,
        },
        (None, None) => Inputs::Sharded { count: a.n, shard },
    };
    let settings = Settings {
        ints: sem,
        seed: a.seed,
        max_size: a.max_size,
        max_steps: a.max_steps,
        max_reports: a.max_reports,
        shrink_runs: a.shrink_runs,
        jobs,
        replay,
    };
    let input_state = match &inputs {
        Inputs::Given { state, .. } => Some(State::clone(state)),
        Inputs::Generated { .. } | Inputs::Sharded { .. } => None,
    };
    let n_inputs = inputs.len();
    let session = Session::new(
        &prog,
        &graph,
        jtg_jvm::classpath_entries(&a.classpath),
        settings,
        inputs,
    )?;

    // The journal: one record per case (or input), keyed `case K` (`input`). Its header holds
    // everything the records depend on, the graph included (by a fingerprint of its JSON form:
    // a rebuilt engine that builds another graph must not resume), but not --format. (Only
    // computed for a journal: rendering a large graph takes a while.)
    let params = if a.journal.journal.is_none() {
        serde_json::Value::Null
    } else {
        let fingerprint = |text: &str| format!("{:016x}", stable_hash(text.as_bytes()));
        let graph_fingerprint = fingerprint(&json::render(&graph, &prog));
        let input_fingerprint = input_state
            .as_ref()
            .map(|st| fingerprint(&print_state(st, &ctx)));
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
            "shard": shard,
            "graph_nodes": graph.nodes.len(),
        })
    };
    let journal = Journal::for_run(a.journal.journal.as_deref(), a.journal.resume, &params)?;
    let resumed = match &journal {
        Some(j) => {
            let r = session.resume(j)?;
            resuming(j, r.len());
            r
        }
        None => Default::default(),
    };

    let pb = progress(n_inputs);
    interrupt::poll();
    let checked = session.run(journal.as_ref(), resumed, &mut |summary| {
        if let Some(pb) = &pb {
            pb.inc(1);
            pb.set_message(format!("{} violations", summary.violations));
        }
        if interrupt::interrupted() {
            // every case counted here is in the journal already (appended before progress)
            if let Some(pb) = &pb {
                pb.finish_and_clear();
            }
            stop_interrupted(&m, summary, n_inputs, a.journal.journal.as_deref());
        }
    });
    if let Some(e) = checked.stopped {
        return Err(e.into());
    }
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let (summary, reports) = (checked.summary, checked.reports);
    let seconds = (!a.no_times).then(|| started.elapsed().as_secs_f64());
    print_report(&m, &summary, &reports, a.format, seconds)
}

/// Ctrl-C: the summary so far and how to continue on stderr, then exit code 130. Called from
/// the session's progress callback, after the case's journal record was written; the tracing
/// thread is ended with the process.
fn stop_interrupted(
    m: &dyn std::fmt::Display,
    summary: &Summary,
    n_inputs: u64,
    journal: Option<&std::path::Path>,
) -> ! {
    let totals = summary_text(m, summary, &[]);
    paint::error_line(&format!(
        "interrupted (Ctrl-C) after {} of {n_inputs} cases; the summary so far:",
        summary.traces
    ));
    let mut err = anstream::stderr();
    let _ = err.write_all(paint::check_report(&totals).as_bytes());
    interrupt::print_resume_hint(journal);
    std::process::exit(interrupt::EXIT_INTERRUPTED.into())
}

/// Prints the report of a check (or of merged journals) in `format`; the exit code says
/// whether some trace violates the graph.
pub(super) fn print_report(
    m: &dyn std::fmt::Display,
    summary: &Summary,
    reports: &[FailureReport],
    format: Format,
    seconds: Option<f64>,
) -> Result<ExitCode> {
    let out = match format {
        Format::Text => paint::check_report(&summary_text(m, summary, reports)),
        Format::Json => {
            let j = summary_json(m, summary, reports, summary.covered.len());
            serde_json::to_string_pretty(&j)? + "\n"
        }
        Format::Junit => summary_junit(m, summary, reports, seconds),
    };
    paint::print(&out)?;
    Ok(if summary.violations > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
