//! `jtg mutate`: derives graph mutants from a method's graph and reports how many the check
//! kills (see the crate `jtg_mutate` for the operators and the equivalence criteria).
//! Exit code 0 when the score reaches `--min-score`, 1 otherwise.

use super::{graph_for, load, Ints};
use anyhow::Result;
use jtg_engine::state::IntSemantics;
use jtg_mutate::{analyse, Fate, MutationReport, Plan};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Directories and jars, `:`-separated.
    pub classpath: String,
    /// `Class.method` or `Class.method(descriptor)`.
    pub method: String,
    /// The abstract start state (state text form); default: the most general one.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Random inputs per mutant.
    #[arg(short = 'n', default_value_t = 300)]
    pub n: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// Mutants tried per graph (an even sample of all derived ones).
    #[arg(long, default_value_t = 150)]
    pub max_mutants: usize,
    /// Cap of the generated structures' sizes: most cases draw up to 6, every 8th up to this.
    #[arg(long, default_value_t = jtg_check::gen::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// Step budget per run (longer runs are checked as prefixes; mutants are local, so short
    /// prefixes kill as well as long ones at a fraction of the cost).
    #[arg(long, default_value_t = 1_000)]
    pub max_steps: u64,
    /// Fail (exit 1) below this mutation score (killed / (killed + survived): over the covered
    /// mutants not proven equivalent).
    #[arg(long, default_value_t = 0.9)]
    pub min_score: f64,
    /// List every mutant with its fate and reason, not only the survivors.
    #[arg(long)]
    pub verbose: bool,
    /// Match the mutants no run killed against a ten times larger input set too (another
    /// seed, larger structures): its runs kill and cover like the first ones.
    #[arg(long)]
    pub enumerate: bool,
}

pub fn run(a: Args) -> Result<ExitCode> {
    let (prog, m) = load(&a.classpath, &a.method)?;
    let sem: IntSemantics = a.ints.into();
    let graph = graph_for(&prog, &m, None, a.start.as_deref(), sem)?;
    let plan = Plan {
        ints: sem,
        seed: a.seed,
        n: a.n,
        max_size: a.max_size,
        max_steps: a.max_steps,
        max_mutants: a.max_mutants,
        enumerate: a.enumerate,
    };
    let analysis = analyse(
        &prog,
        &graph,
        &jtg_jvm::classpath_entries(&a.classpath),
        &plan,
    )?;
    // an equivalence proof that a run refutes is a bug of the proof: report it, fail
    for d in &analysis.refuted {
        println!("  REFUTED    equivalence claimed for a killed mutant: {d}");
    }
    let report = &analysis.report;
    print_report(&m.to_string(), report, a.verbose);
    Ok(
        if report.score() >= a.min_score && analysis.refuted.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        },
    )
}

pub fn print_report(method: &str, r: &MutationReport, verbose: bool) {
    for (op, desc, fate) in &r.mutants {
        let name = fate.name();
        match fate {
            Fate::Killed { input, step } if verbose => {
                println!(
                    "  {name:<11} {:<18} {desc} (input {input}, step {step})",
                    op.name()
                )
            }
            Fate::NotCovered(why) | Fate::Equivalent(why) if verbose => {
                println!("  {name:<11} {:<18} {desc}: {why}", op.name())
            }
            Fate::Survived => println!("  {name:<11} {:<18} {desc}", op.name()),
            _ => {}
        }
    }
    println!(
        "{method}: {} mutants tried (of {} derived): {} killed, {} not covered, {} equivalent, {} survived; score {:.1}% (killed / (killed + survived))",
        r.mutants.len(),
        r.derived,
        r.killed(),
        r.not_covered(),
        r.equivalent(),
        r.survived(),
        100.0 * r.score(),
    );
}
