//! `jtg trace`: run a method in the real JVM on one concrete input and print the concrete
//! state before every executed instruction.

use super::{at_least_one, check_input_values, check_start, load};
use anyhow::{Context, Result};
use jtg_check::concrete::{end_to_state, state_to_input, step_to_state};
use jtg_engine::render::source_suffix;
use jtg_engine::state::text::{parse_state, print_state, LocalNames, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::Program;
use jtg_jvm::{trace_method, Budget, Trace, TraceEnd, TraceOptions};
use std::collections::BTreeSet;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// Directories and jars, `:`-separated.
    pub classpath: String,
    /// `Class.method` or `Class.method(descriptor)`.
    pub method: String,
    /// The concrete start state, in the state text form.
    #[arg(long)]
    pub input: PathBuf,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Stop the run after this many executed instructions (the trace is then "cut").
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u64,
    /// Recording budget: heap values (one per object, field and array element) the run may
    /// record; the step that would see more ends the trace as "cut".
    #[arg(long, default_value_t = jtg_jvm::DEFAULT_MAX_HEAP)]
    pub max_heap: u64,
    /// Print only the executing frame of each step (and the heap it reaches), not the frames
    /// below it: a deep recursion then costs one frame per step.
    #[arg(long)]
    pub top_frame: bool,
    /// Print only what changed at each step: the lines of its state that are new (`+`) or
    /// gone (`-`) since the step before (text format; the first step in full).
    #[arg(long)]
    pub changes: bool,
    /// Print at most this many frames of a step, top first; the frames below are summarised
    /// in one line (`… K frames below`), so that the output of a deep recursion grows with
    /// its steps, not with steps × depth.
    #[arg(long, default_value_t = 16)]
    pub max_frames: usize,
}

/// Number of argument slots of the method (`this` included).
pub fn arg_slots(prog: &Program, m: &jtg_engine::state::MethodId) -> Result<Vec<usize>> {
    let method = prog.method(m)?;
    Ok(jtg_check::concrete::arg_slots(
        method.is_static,
        &method.desc.params,
    ))
}

pub fn run(a: Args) -> Result<ExitCode> {
    at_least_one("--max-steps", a.max_steps)?;
    at_least_one("--max-frames", a.max_frames as u64)?;
    if a.changes && matches!(a.format, Format::Json) {
        anyhow::bail!("--changes is a text format option (--format json prints every step)");
    }
    let (prog, m) = load(&a.classpath, &a.method)?;
    let text = std::fs::read_to_string(&a.input)
        .with_context(|| format!("cannot read input {}", a.input.display()))?;
    let ctx = TextContext::for_method(m.clone(), &prog);
    let st = parse_state(&text, &ctx)
        .map_err(|e| jtg_engine::EngineError::StartState(format!("{}: {e}", a.input.display())))?;
    // The same check as for `jtg graph --start`: an input must fit the declared types.
    check_start(&prog, &m, &st)
        .and_then(|()| check_input_values(&prog, &st, IntSemantics::Unbounded))
        .map_err(|e| jtg_engine::EngineError::StartState(format!("{}: {e}", a.input.display())))?;
    let input = state_to_input(&st, &arg_slots(&prog, &m)?)?;
    let opts = TraceOptions {
        max_steps: a.max_steps,
        max_heap: a.max_heap,
        ..Default::default()
    };
    let trace = trace_method(
        &jtg_jvm::classpath_entries(&a.classpath),
        &m.class,
        &m.name,
        &m.desc,
        &input,
        &opts,
    )
    .map_err(|e| anyhow::Error::new(e).context("tracing failed"))?;
    let shown = Shown {
        format: a.format,
        frames: if a.top_frame { 1 } else { a.max_frames },
        changes: a.changes,
    };
    let summarised = print_trace(&prog, &m, &trace, &shown)?;
    if summarised > 0 && !a.top_frame {
        eprintln!(
            "jtg: {summarised} steps had more than {} frames: the frames below were summarised (--max-frames)",
            a.max_frames
        );
    }
    match trace.end {
        TraceEnd::Cut {
            budget: Budget::Steps(n),
        } => eprintln!("jtg: trace cut after {n} steps (--max-steps)"),
        TraceEnd::Cut {
            budget: Budget::Heap(n),
        } => eprintln!("jtg: trace cut by the recording budget of {n} heap values (--max-heap)"),
        _ => {}
    }
    Ok(ExitCode::SUCCESS)
}

/// What `print_trace` shows of each step.
struct Shown {
    format: Format,
    /// The frames shown of each step, top first (`--top-frame`: 1, else `--max-frames`).
    frames: usize,
    changes: bool,
}

/// Prints the trace step by step as it is rendered (nothing but the step in hand is kept:
/// the output of a long run streams, its memory is the recorded trace's). Each step shows
/// its `shown.frames` top frames and the heap they reach; returns the number of steps whose
/// frames below were summarised.
fn print_trace(
    prog: &Program,
    m: &jtg_engine::state::MethodId,
    trace: &Trace,
    shown: &Shown,
) -> Result<usize> {
    let ctx = TextContext::for_method(m.clone(), prog);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let io = |e: std::io::Error| anyhow::Error::new(e).context("cannot write to standard output");
    let json = matches!(shown.format, Format::Json);
    if json {
        write!(
            out,
            "{{\n  \"method\": {},\n  \"steps\": [",
            serde_json::to_string(&m.to_string())?
        )
        .map_err(io)?;
    }
    let mut before: BTreeSet<String> = BTreeSet::new();
    let mut summarised = 0;
    // JSON: the source line of every step, printed after the steps
    let mut sources: Vec<Option<String>> = vec![];
    for i in 0..trace.len() {
        // the top frames cost the same at any depth (`Trace::top_step`)
        let step = trace.top_step(i, shown.frames);
        let state = step_to_state(&step)?;
        let source = state.top().and_then(|f| prog.source_line(&f.method, f.pc));
        let mut text = print_state(&state, &ctx);
        let below = trace.depth(i).saturating_sub(shown.frames);
        if below > 0 && shown.frames > 1 {
            summarised += 1;
            text = with_frames_below(&text, step.frames.len(), below);
        }
        if json {
            let sep = if i == 0 { "" } else { "," };
            write!(out, "{sep}\n    {}", serde_json::to_string(&text)?).map_err(io)?;
            sources.push(source.map(|l| l.to_string()));
            continue;
        }
        writeln!(out, "step {i}{}", source_suffix(source.as_ref())).map_err(io)?;
        if shown.changes && i > 0 {
            let now: BTreeSet<String> = text.lines().map(str::to_string).collect();
            for line in text.lines().filter(|l| !before.contains(*l)) {
                writeln!(out, "  + {line}").map_err(io)?;
            }
            for line in before.difference(&now) {
                writeln!(out, "  - {line}").map_err(io)?;
            }
            before = now;
        } else {
            for line in text.lines() {
                writeln!(out, "  {line}").map_err(io)?;
            }
            if shown.changes {
                before = text.lines().map(str::to_string).collect();
            }
        }
    }
    let last_heap = if trace.is_empty() {
        Default::default()
    } else {
        trace.heap_at(trace.len() - 1)
    };
    let end = end_to_state(&trace.end, &last_heap)?.map(|s| print_state(&s, &ctx));
    if json {
        let tail = if trace.is_empty() { "]" } else { "\n  ]" };
        write!(
            out,
            "{tail},\n  \"sources\": {},\n  \"end\": {},\n  \"cut\": {}\n}}\n",
            serde_json::to_string(&sources)?,
            serde_json::to_string(&end)?,
            matches!(trace.end, TraceEnd::Cut { .. })
        )
        .map_err(io)?;
    } else {
        match &end {
            Some(e) => {
                writeln!(out, "end").map_err(io)?;
                for line in e.lines() {
                    writeln!(out, "  {line}").map_err(io)?;
                }
            }
            None => writeln!(out, "cut").map_err(io)?,
        }
    }
    out.flush().map_err(io)?;
    Ok(summarised)
}

/// `text` (a state of `shown` frames) with a line after its frame lines saying how many
/// frames below them are not shown.
fn with_frames_below(text: &str, shown: usize, below: usize) -> String {
    let mut out = String::with_capacity(text.len() + 40);
    for (k, line) in text.lines().enumerate() {
        out.push_str(line);
        out.push('\n');
        if k + 1 == shown {
            out.push_str(&format!("… {below} frames below\n"));
        }
    }
    out
}
