//! The `jtg` subcommands, and what they share: the `--ints` and `--journal` arguments, the
//! program and its start states (`program`), the exit code of every error (`exit`).

pub mod check;
pub mod corpus;
pub mod diff;
pub mod gen;
pub mod gen_java;
pub mod graph;
pub mod interrupt;
pub mod merge;
pub mod mutate;
pub mod paint;
pub mod prove;
pub mod trace;

mod exit;
mod program;

pub use exit::{exit_code, is_broken_pipe};
pub use program::{check_input_values, check_start, graph_for, ints_name, load, start_state};

use jtg_check::journal::Journal;
use jtg_engine::state::IntSemantics;
use std::path::PathBuf;

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

/// Refuses a count or budget of 0 where it would make the run meaningless (`-n 0` checks
/// nothing, `--max-steps 0` runs nothing): one line, exit code 2.
pub fn at_least_one(option: &str, value: impl Into<u64>) -> anyhow::Result<()> {
    if value.into() == 0 {
        anyhow::bail!("{option} 0: must be at least 1");
    }
    Ok(())
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
