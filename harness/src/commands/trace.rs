//! `jtg trace`: run a method in the real JVM on one concrete input and print the concrete
//! state before every executed instruction.

use super::{check_start, load};
use anyhow::{Context, Result};
use jtg_check::concrete::{end_to_state, state_to_input, step_to_state};
use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::Program;
use jtg_jvm::{trace_method, Budget, Trace, TraceEnd, TraceOptions};
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
    let (prog, m) = load(&a.classpath, &a.method)?;
    let text = std::fs::read_to_string(&a.input)
        .with_context(|| format!("cannot read input {}", a.input.display()))?;
    let ctx = TextContext::for_method(m.clone(), &prog);
    let st = parse_state(&text, &ctx)
        .map_err(|e| jtg_engine::EngineError::StartState(format!("{}: {e}", a.input.display())))?;
    // The same check as for `jtg graph --start`: an input must fit the declared types.
    check_start(&prog, &m, &st)
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
    print_trace(&prog, &m, &trace, a.format)?;
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

fn print_trace(
    prog: &Program,
    m: &jtg_engine::state::MethodId,
    trace: &Trace,
    format: Format,
) -> Result<()> {
    let ctx = TextContext::for_method(m.clone(), prog);
    let mut states = Vec::with_capacity(trace.len() + 1);
    for step in trace.steps() {
        states.push(print_state(&step_to_state(&step)?, &ctx));
    }
    let last_heap = if trace.is_empty() {
        Default::default()
    } else {
        trace.heap_at(trace.len() - 1)
    };
    let end = end_to_state(&trace.end, &last_heap)?.map(|s| print_state(&s, &ctx));
    let mut out = String::new();
    match format {
        Format::Text => {
            for (i, s) in states.iter().enumerate() {
                out.push_str(&format!("step {i}\n"));
                for line in s.lines() {
                    out.push_str(&format!("  {line}\n"));
                }
            }
            match &end {
                Some(e) => {
                    out.push_str("end\n");
                    for line in e.lines() {
                        out.push_str(&format!("  {line}\n"));
                    }
                }
                None => out.push_str("cut\n"),
            }
        }
        Format::Json => {
            let j = serde_json::json!({
                "method": m.to_string(),
                "steps": states,
                "end": end,
                "cut": matches!(trace.end, TraceEnd::Cut { .. }),
            });
            out = serde_json::to_string_pretty(&j)? + "\n";
        }
    }
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write to standard output")
}
