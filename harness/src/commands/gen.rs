//! `jtg gen`: random concrete start states drawn from an abstract one, in the text form that
//! `jtg trace --input` reads.

use super::{load, start_state, Ints};
use anyhow::{Context, Result};
use jtg_check::gen::{GenConfig, Generator, Stats};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    /// States separated by a line `---`.
    Text,
    /// A JSON array of state texts.
    Json,
    /// Java source: a class `JtgSamples` with a static factory per sample that builds its
    /// objects (cycles included; fields set by reflection) and returns the arguments.
    Java,
}

#[derive(clap::Args)]
pub struct Args {
    /// Directories and jars, `:`-separated.
    pub classpath: String,
    /// `Class.method` or `Class.method(descriptor)`.
    pub method: String,
    /// The abstract start state (state text form); default: the method's default start state.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Number of samples.
    #[arg(short = 'n', long, default_value_t = 10)]
    pub n: u64,
    /// Seed: the same seed gives the same samples on every machine.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Cap of the generated structures' sizes: most cases draw up to 6, every 8th up to this.
    #[arg(long, default_value_t = jtg_check::gen::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print how often each shape family occurred instead of the states.
    #[arg(long)]
    pub stats: bool,
}

pub fn run(a: Args) -> Result<ExitCode> {
    let (prog, m) = load(&a.classpath, &a.method)?;
    let sem = a.ints.into();
    let start = start_state(&prog, &m, a.start.as_deref(), sem)?;
    let cfg = GenConfig {
        seed: a.seed,
        max_size: a.max_size,
        ints: sem,
    };
    let gen = Generator::new(&prog, &m, &start, cfg)?;
    let slots = super::trace::arg_slots(&prog, &m)?;
    let mut stats = Stats::default();
    let mut texts = Vec::new();
    let mut inputs = Vec::new();
    for k in 0..a.n {
        let s = gen.case(k)?;
        stats.add(&s);
        if a.stats {
            continue;
        }
        match a.format {
            Format::Java => {
                inputs.push((k, jtg_check::concrete::state_to_input(&s.state, &slots)?))
            }
            Format::Text | Format::Json => texts.push(gen.print(&s.state)),
        }
    }
    let out = if a.stats {
        stats.to_string()
    } else {
        match a.format {
            Format::Text => texts.join("\n---\n") + "\n",
            Format::Json => serde_json::to_string_pretty(&texts)? + "\n",
            Format::Java => super::gen_java::render(&m.to_string(), a.seed, &inputs),
        }
    };
    use std::io::Write;
    std::io::stdout()
        .lock()
        .write_all(out.as_bytes())
        .context("cannot write to standard output")?;
    Ok(ExitCode::SUCCESS)
}
