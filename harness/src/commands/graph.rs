//! `jtg graph`: build and print the termination graph of a method.

use super::{at_least_one, load, start_state, Ints};
use anyhow::{Context, Result};
use jtg_engine::graph::build_graph_until;
use jtg_engine::render;
use jtg_engine::render::dot::DotOptions;
use jtg_engine::{Graph, Options, Program};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Text,
    Dot,
    Json,
    /// SVG through Graphviz `dot` (Debian package graphviz).
    Svg,
    /// The graph's integer transition system in the Termination Competition's ARI format
    /// (`jtg_terminate::encode`, docs/proving.md).
    Ari,
    /// The graph's integer transition system in KoAT's format.
    Koat,
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
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// Fail when the graph grows beyond this many nodes.
    #[arg(long, default_value_t = 100_000)]
    pub max_nodes: usize,
    /// Give up after this many seconds (exit code 4, the partial graph written, as for
    /// --max-nodes).
    #[arg(long, value_name = "SECONDS")]
    pub max_secs: Option<f64>,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// No progress indicator (it is shown on stderr only when stderr is a terminal).
    #[arg(long, short)]
    pub quiet: bool,
    /// dot/svg: draw chains of plain evaluation steps as one dotted edge, as the thesis
    /// figures do (node ids stay those of the text form).
    #[arg(long)]
    pub compact: bool,
}

pub fn run(a: Args) -> Result<ExitCode> {
    at_least_one("--max-nodes", a.max_nodes as u64)?;
    let deadline = match a.max_secs {
        None => None,
        Some(s) if s > 0.0 && s.is_finite() => Some(std::time::Duration::from_secs_f64(s)),
        Some(s) => anyhow::bail!("--max-secs {s}: must be a positive number of seconds"),
    };
    let (prog, m) = load(&a.classpath, &a.method)?;
    let start = start_state(&prog, &m, a.start.as_deref(), a.ints.into())?;
    let opts = Options {
        ints: a.ints.into(),
        max_nodes: a.max_nodes,
    };
    let none = BTreeSet::new();
    let picture = DotOptions {
        highlight: &none,
        highlight_edges: &none,
        compact: a.compact,
        wrap: render::dot::WRAP,
        legend: None,
    };
    let spinner = building(&m, a.quiet);
    let built = build_graph_until(&prog, &m, start, &opts, deadline);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    match built {
        Ok(g) => {
            if let Some(text) = its_text(&prog, &g, a.format, a.ints.into())? {
                return write_out(text.into_bytes(), a.output.as_ref()).map(|()| ExitCode::SUCCESS);
            }
            emit(&prog, &g, a.format, a.output.as_ref(), &picture)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(failure) => {
            // keep what was computed: the partial graph goes out, the error to stderr
            emit(
                &prog,
                &failure.partial,
                a.format,
                a.output.as_ref(),
                &picture,
            )?;
            Err(anyhow::Error::new(failure.error).context(format!(
                "graph of {m} incomplete after {} nodes (partial graph written)",
                failure.partial.nodes.len()
            )))
        }
    }
}

/// A spinner with the elapsed time on stderr while the graph is built (none when stderr is
/// not a terminal, with `--quiet` or under `CI`): the builder reports no progress of its own,
/// so this says only that it is still working and for how long.
pub(crate) fn building(
    m: &jtg_engine::state::MethodId,
    quiet: bool,
) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let s = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]") {
        s.set_style(style);
    }
    s.set_message(format!("building the graph of {m}"));
    s.enable_steady_tick(std::time::Duration::from_millis(200));
    Some(s)
}

/// The ITS of `g` in the ARI or KoAT format (`None` for the other formats).
pub fn its_text(
    prog: &Program,
    g: &Graph,
    format: Format,
    ints: jtg_engine::state::IntSemantics,
) -> Result<Option<String>> {
    use jtg_terminate::{encode, EncodeOptions};
    if !matches!(format, Format::Ari | Format::Koat) {
        return Ok(None);
    }
    if !g.is_complete() {
        anyhow::bail!("the graph of {} is incomplete: no ITS", g.method);
    }
    let enc = encode(g, prog, &EncodeOptions::new(ints))?;
    Ok(Some(match format {
        Format::Ari => jtg_prove::to_ari(&enc.its),
        _ => jtg_prove::to_koat(&enc.its),
    }))
}

fn write_out(bytes: Vec<u8>, output: Option<&PathBuf>) -> Result<()> {
    match output {
        Some(p) => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {}", p.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(&bytes)
                .context("cannot write to standard output")
        }
    }
}

/// Renders `g` in `format` to `output` (or stdout); `picture` says how dot and svg draw it.
pub fn emit(
    prog: &Program,
    g: &Graph,
    format: Format,
    output: Option<&PathBuf>,
    picture: &DotOptions<'_>,
) -> Result<()> {
    let bytes = match format {
        Format::Text => render::text::render(g, prog).into_bytes(),
        Format::Json => (render::json::render(g, prog) + "\n").into_bytes(),
        Format::Dot => render::dot::render_with(g, prog, picture).into_bytes(),
        Format::Svg => svg(&render::dot::render_with(g, prog, picture))?,
        Format::Ari | Format::Koat => {
            anyhow::bail!("the ITS formats need a complete graph")
        }
    };
    write_out(bytes, output)
}

/// Runs Graphviz `dot -Tsvg`.
pub fn svg(dot: &str) -> Result<Vec<u8>> {
    let mut child = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context(
            "cannot run Graphviz `dot` (install the Debian package graphviz, or run `make deps`)",
        )?;
    child
        .stdin
        .take()
        .context("dot stdin")?
        .write_all(dot.as_bytes())
        .context("writing to dot")?;
    let out = child.wait_with_output().context("waiting for dot")?;
    if !out.status.success() {
        anyhow::bail!("dot failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Ok(out.stdout)
}
