//! The `jtg` subcommands and what they share: loading a program, start states, exit codes.

pub mod check;
pub mod corpus;
pub mod diff;
pub mod gen;
pub mod graph;
pub mod mutate;
pub mod trace;

use anyhow::{Context, Result};
use jtg_check::journal::{Journal, JournalError};
use jtg_check::SessionError;
use jtg_engine::class::{ClassError, ClassPath};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::{EngineError, Program};
use jtg_mutate::MutateError;
use std::path::{Path, PathBuf};

/// `--ints` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Ints {
    /// Mathematical integers (the thesis' model; default).
    Unbounded,
    /// Java `int`: 32-bit two's complement with wrap-around.
    Java,
}

impl From<Ints> for IntSemantics {
    fn from(i: Ints) -> IntSemantics {
        match i {
            Ints::Unbounded => IntSemantics::Unbounded,
            Ints::Java => IntSemantics::Java,
        }
    }
}

/// `--journal FILE [--resume]` of the long-running commands (`check`, `corpus`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct JournalArgs {
    /// Append every finished unit of work to FILE (JSON lines, each written and fsync'ed
    /// before the run goes on), so that an interrupted run keeps it. An existing non-empty
    /// FILE is refused unless --resume is given.
    #[arg(long, value_name = "FILE")]
    pub journal: Option<PathBuf>,
    /// Continue the run recorded in --journal FILE (which must have been written with the
    /// same parameters): finished units are not done again, and the report covers them.
    #[arg(long)]
    pub resume: bool,
}

/// Says that a resumed run does not do its `n` finished units again.
pub fn resuming(j: &Journal, n: usize) {
    if n > 0 {
        eprintln!(
            "jtg: resuming {}: {n} finished units are not done again",
            j.path().display()
        );
    }
}

/// Exit code for an error, by its kind (see the binary's documentation).
pub fn exit_code(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if cause.downcast_ref::<JournalError>().is_some() {
            return 2;
        }
        // A check session (or a mutation analysis) that could not start or stopped early:
        // bad input, whatever the cause below (a JVM that cannot trace included: issue #23
        // may give those 5).
        if cause.downcast_ref::<SessionError>().is_some()
            || cause.downcast_ref::<MutateError>().is_some()
        {
            return 2;
        }
        if let Some(ee) = cause.downcast_ref::<EngineError>() {
            return match ee {
                EngineError::Unsupported { .. } => 3,
                EngineError::Class(ClassError::Unsupported { .. }) => 3,
                EngineError::Budget { .. } => 4,
                EngineError::Internal(_) => 70,
                _ => 2,
            };
        }
        if cause.downcast_ref::<ClassError>().is_some() {
            return 2;
        }
        if let Some(g) = cause.downcast_ref::<jtg_check::gen::GenError>() {
            return match g {
                jtg_check::gen::GenError::Unsupported(_) => 3,
                jtg_check::gen::GenError::Unsatisfiable(_) => 2,
            };
        }
        if let Some(h) = cause.downcast_ref::<jtg_jvm::JvmError>() {
            return match h {
                jtg_jvm::JvmError::BadInput(_) => 2,
                _ => 5,
            };
        }
    }
    2
}

/// Loads the class path and resolves the method.
pub fn load(classpath: &str, method: &str) -> Result<(Program, MethodId)> {
    let cp = ClassPath::parse(classpath)
        .map_err(EngineError::from)
        .with_context(|| format!("class path `{classpath}`"))?;
    let prog = Program::new(cp);
    let m = prog.find_method(method)?;
    Ok((prog, m))
}

/// The start state: from `--start FILE` (the state text form, frames without a method belong to
/// the analysed method), or the default one.
pub fn start_state(
    prog: &Program,
    m: &MethodId,
    file: Option<&Path>,
    sem: IntSemantics,
) -> Result<State> {
    let Some(path) = file else {
        return Ok(prog.default_start(m, sem)?);
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read start state {}", path.display()))?;
    let ctx = TextContext::for_method(m.clone(), prog);
    let st = parse_state(&text, &ctx)
        .map_err(|e| EngineError::StartState(format!("{}: {e}", path.display())))?;
    check_start(prog, m, &st).map_err(EngineError::StartState)?;
    Ok(st)
}

/// A start state must be a single frame of the method at pc 0 whose parameters have values of
/// the declared types.
fn check_start(prog: &Program, m: &MethodId, st: &State) -> Result<(), String> {
    let [frame] = st.frames.as_slice() else {
        return Err(format!("a start state has exactly one frame, of {m}"));
    };
    if &frame.method != m {
        return Err(format!("the frame is of {}, not of {m}", frame.method));
    }
    if frame.pc != 0 || !frame.stack.is_empty() || frame.exception.is_some() {
        return Err(format!(
            "a start state is at pc 0 with an empty operand stack and no exception (this one is at pc {})",
            frame.pc
        ));
    }
    let method = prog.method(m).map_err(|e| e.to_string())?;
    let mut slot = 0usize;
    let mut params: Vec<(usize, String)> = vec![];
    if !method.is_static {
        params.push((0, m.class.to_string()));
        slot = 1;
    }
    for p in &method.desc.params {
        params.push((slot, jtg_engine::program::type_string(p)));
        slot += p.slots() as usize;
    }
    for (slot, ty) in params {
        let r = frame
            .locals
            .get(slot)
            .copied()
            .flatten()
            .ok_or_else(|| format!("parameter slot {slot} ({ty}) has no value"))?;
        let is_int_type = matches!(ty.as_str(), "I" | "S" | "B" | "C" | "Z");
        let ok = match st.value(r) {
            None => r.is_null() && !is_int_type,
            Some(v) => match v.type_name() {
                None => is_int_type,
                Some(t) => !is_int_type && prog_is_subtype(prog, t, &ty),
            },
        };
        if !ok {
            return Err(format!(
                "parameter slot {slot} has {r}, which does not fit the declared type {}",
                jtg_engine::state::display_type(&ty)
            ));
        }
    }
    Ok(())
}

fn prog_is_subtype(prog: &Program, sub: &str, sup: &str) -> bool {
    use jtg_engine::state::Subtyping;
    prog.is_subtype(sub, sup)
}
