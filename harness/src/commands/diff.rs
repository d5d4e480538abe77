//! `jtg diff OLD.json NEW.json`: which nodes and edges were added, removed or changed between
//! two graphs of one method (`jtg graph … --format json`), for reviewing a change without
//! reading two whole graphs. States are compared as text (see `jtg_engine::render::diff` for
//! how nodes are matched), so no class path is needed. `--format svg|dot` draws the NEW graph
//! with the added and changed nodes and edges in red, the changed tokens of a changed node
//! marked `«…»` and a legend. Exit code 0 when the graphs are the same, 1 when they differ (as
//! `diff(1)`), 2 on bad input.
//!
//! `--ints java`: both graphs are of Java ints, where `Z` (an unconstrained integer) and the
//! full int range `[-2147483648,2147483647]` say the same; the range is read as `Z` before
//! comparing (so it is printed as `Z`). The text form does not say whether a variable is an
//! int or a long, so a long whose interval is exactly the int range is read as `Z` too.

use super::graph::svg;
use super::{paint, Ints};
use anyhow::{Context, Result};
use jtg_engine::graph::EdgeKind;
use jtg_engine::render::diff::{diff, GraphDiff};
use jtg_engine::render::dot::{render_picture, DotOptions, Picture, PictureEdge, PictureNode};
use jtg_engine::render::json::{read_text_graph, JsonGraph};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    /// The list of differences.
    Text,
    /// The NEW graph in DOT, differences in red.
    Dot,
    /// The NEW graph as SVG (Graphviz `dot`), differences in red.
    Svg,
}

#[derive(clap::Args)]
pub struct Args {
    /// The graph before the change (`jtg graph … --format json`).
    pub old: PathBuf,
    /// The graph after the change.
    pub new: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The integer semantics both graphs were built with: under `java`, `Z` and the full int
    /// range are the same.
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// dot/svg: draw chains of unchanged plain evaluation steps as one dotted edge.
    #[arg(long)]
    pub compact: bool,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

fn read(path: &PathBuf) -> Result<JsonGraph> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // not an engine error: bad input, exit code 2
    read_text_graph(&text).with_context(|| format!("{}: not jtg graph JSON", path.display()))
}

/// The full Java int range as the state text prints it.
const FULL_INT_RANGE: &str = "[-2147483648,2147483647]";

/// Reads the full int range as `Z` in every state of `g` (`--ints java`).
fn full_range_as_z(g: &mut JsonGraph) {
    for n in &mut g.nodes {
        if n.state.contains(FULL_INT_RANGE) {
            n.state = n.state.replace(FULL_INT_RANGE, "Z");
        }
    }
}

/// The legend of a drawn diff.
const PICTURE_LEGEND: &str =
    "red: added or changed nodes and edges\n«…»: tokens changed in a changed node";

/// The NEW graph of `d` as a picture, changed tokens marked; the reader has checked ids and
/// edge kinds.
fn picture(d: &GraphDiff<'_>) -> Picture {
    let g = d.new;
    Picture {
        name: g.method.clone(),
        start: g.start,
        nodes: g
            .nodes
            .iter()
            .enumerate()
            .map(|(k, n)| PictureNode {
                text: d.marked_new_state(k),
                end: n.end,
            })
            .collect(),
        edges: g
            .edges
            .iter()
            .map(|e| PictureEdge {
                from: e.from,
                to: e.to,
                kind: EdgeKind::parse(&e.kind).unwrap_or(EdgeKind::Eval),
                labels: e.labels.iter().map(ToString::to_string).collect(),
            })
            .collect(),
    }
}

pub fn run(a: Args) -> Result<ExitCode> {
    let (mut old, mut new) = (read(&a.old)?, read(&a.new)?);
    if matches!(a.ints, Ints::Java) {
        full_range_as_z(&mut old);
        full_range_as_z(&mut new);
    }
    let d = diff(&old, &new);
    let bytes = match a.format {
        Format::Text => d.render().into_bytes(),
        Format::Dot | Format::Svg => {
            let (nodes, edges) = (d.highlight_nodes(), d.highlight_edges());
            let opts = DotOptions {
                highlight: &nodes,
                highlight_edges: &edges,
                compact: a.compact,
                wrap: jtg_engine::render::dot::WRAP,
                legend: (!d.is_empty()).then_some(PICTURE_LEGEND),
            };
            let dot = render_picture(&picture(&d), &opts);
            match a.format {
                Format::Svg => svg(&dot)?,
                _ => dot.into_bytes(),
            }
        }
    };
    match &a.output {
        Some(p) => {
            std::fs::write(p, bytes).with_context(|| format!("cannot write {}", p.display()))?
        }
        None if matches!(a.format, Format::Text) => {
            paint::print(&paint::diff_report(&String::from_utf8_lossy(&bytes)))?
        }
        None => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(&bytes)
                .context("cannot write to standard output")?
        }
    }
    // like diff(1): 0 the same, 1 they differ
    Ok(if d.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
