//! `jtg prove`: the termination verdict of a method — its graph as an integer transition
//! system (`jtg_terminate::encode`), proved YES (ranking functions), NO (a looping input,
//! confirmed in the JVM) or MAYBE; with `--check N` the encoding and the proof are checked on
//! N concrete runs (README, *Termination verdicts*).

use super::{at_least_one, check_input_values, load, start_state, Ints};
use anyhow::{Context, Result};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::EngineError;
use jtg_engine::{build_graph, Options};
use jtg_harness::prove_text::render_text;
use jtg_terminate::{BreakKind, GivenInput, ProveConfig, ProveReport};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// A hand-broken certificate (`--break-certificate`, testing): [`BreakKind`] as the command
/// line spells it.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Break {
    Guard,
    Rank,
    Chain,
    Invariant,
    Dist,
}

impl From<Break> for BreakKind {
    fn from(b: Break) -> BreakKind {
        match b {
            Break::Guard => BreakKind::Guard,
            Break::Rank => BreakKind::Rank,
            Break::Chain => BreakKind::Chain,
            Break::Invariant => BreakKind::Invariant,
            Break::Dist => BreakKind::Dist,
        }
    }
}

#[derive(clap::Args)]
pub struct Args {
    /// Directories and jars, `:`-separated.
    pub classpath: String,
    /// `Class.method` or `Class.method(descriptor)`.
    pub method: String,
    /// Start state in the state text form (default: most general arguments).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Check the encoding and the certificate on N random inputs run in the JVM.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub check: u64,
    /// Cross-check this one concrete input (state text form, as a violation's shrunk input
    /// is saved) instead of `--check N` random ones.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// JVM runs spent shrinking one input the cross-check fails on.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub shrink_runs: usize,
    /// Seed of the inputs (the NO search's and the check's).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// Fail when the graph grows beyond this many nodes.
    #[arg(long, default_value_t = 100_000)]
    pub max_nodes: usize,
    /// Step budget of one JVM run (NO witnesses must run this long without ending).
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u64,
    /// Where a NO witness's input file is written (default: a file in the system's temp
    /// directory named after the method).
    #[arg(long, value_name = "FILE")]
    pub witness_out: Option<PathBuf>,
    /// Testing: break the certificate before `--check` (`guard`: flip a guard of the ITS;
    /// `rank`: a ranking function that does not decrease; `chain`: every pair of adjacent loop
    /// rules claimed refuted; `dist`: a distance update off by
    /// one) to see the check catch it.
    #[arg(long, value_enum, hide = true)]
    pub break_certificate: Option<Break>,
    /// Leave the times (`*_ms`) out of the JSON report.
    #[arg(long)]
    pub no_times: bool,
    /// Wall-clock safety net, in seconds, of the proof and of the non-termination search
    /// (each; the verdicts rest on deterministic budgets): a MAYBE it causes says so.
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub max_secs: f64,
    /// No spinner on stderr while the graph is built and proved.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(a: Args) -> Result<ExitCode> {
    at_least_one("--max-nodes", a.max_nodes as u64)?;
    at_least_one("--max-steps", a.max_steps)?;
    if !(a.max_secs.is_finite() && a.max_secs > 0.0) {
        anyhow::bail!("--max-secs {}: must be a positive number", a.max_secs);
    }
    let (prog, m) = load(&a.classpath, &a.method)?;
    let start = start_state(&prog, &m, a.start.as_deref(), a.ints.into())?;
    let opts = Options {
        ints: a.ints.into(),
        max_nodes: a.max_nodes,
    };
    let input = a
        .input
        .as_deref()
        .map(|path| given_input(&prog, &m, path, a.ints.into()))
        .transpose()?;
    let spinner = super::graph::building(&m, a.quiet);
    let graph = build_graph(&prog, &m, start, &opts);
    let graph = graph.map_err(|f| {
        if let Some(s) = &spinner {
            s.finish_and_clear();
        }
        anyhow::Error::new(f.error).context(format!("graph of {m} incomplete"))
    })?;
    if let Some(s) = &spinner {
        s.set_message(format!("proving {m}"));
    }
    let cfg = ProveConfig {
        classpath: a.classpath.clone(),
        start_file: a.start.clone(),
        ints: a.ints.into(),
        seed: a.seed,
        check: a.check,
        max_steps: a.max_steps,
        witness_out: a.witness_out.clone(),
        break_certificate: a.break_certificate.map(BreakKind::from),
        input,
        shrink_runs: a.shrink_runs,
        timeout: std::time::Duration::from_secs_f64(a.max_secs),
        ..ProveConfig::default()
    };
    let report = jtg_terminate::run(&prog, &m, &graph, &cfg);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    let report: ProveReport = report?;
    let text = match a.format {
        Format::Text => render_text(&report),
        Format::Json => {
            // the report's fields after the version of its JSON form (docs/json.md)
            #[derive(serde::Serialize)]
            struct Versioned<'a> {
                format_version: u64,
                #[serde(flatten)]
                report: &'a ProveReport,
            }
            let v = Versioned {
                format_version: jtg_check::FORMAT_VERSION,
                report: &report,
            };
            if a.no_times {
                let mut v = serde_json::to_value(&v)?;
                jtg_harness::corpus::drop_times(&mut v);
                serde_json::to_string_pretty(&v)? + "\n"
            } else {
                serde_json::to_string_pretty(&v)? + "\n"
            }
        }
    };
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("cannot write to standard output")?;
    Ok(if report.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The concrete input of `--input`: a state in the text form whose values the JVM accepts
/// (whether it is an instance of the start state, the cross-check's generator decides when it
/// runs it: an input that is not is refused there, before any run).
fn given_input(
    prog: &jtg_engine::Program,
    m: &jtg_engine::state::MethodId,
    path: &std::path::Path,
    sem: jtg_engine::state::IntSemantics,
) -> Result<GivenInput> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read input {}", path.display()))?;
    let ctx = TextContext::for_method(m.clone(), prog);
    let state = parse_state(&text, &ctx)
        .map_err(|e| e.to_string())
        .and_then(|st| check_input_values(prog, &st, sem).map(|()| st))
        .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
    Ok(GivenInput {
        file: path.display().to_string(),
        state,
    })
}
