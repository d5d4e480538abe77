//! `jtg mutate`: derives graph mutants from a method's graph and reports how many the check
//! kills (see `jtg_check::mutate` for the operators and the equivalence criteria).
//! Exit code 0 when the score reaches `--min-score`, 1 otherwise.

use super::check::graph_for;
use super::trace::entries;
use super::{load, Ints};
use anyhow::{Context, Result};
use jtg_check::gen::{GenConfig, Generator};
use jtg_check::ConcreteRun;
use jtg_check::{check_run, Target, Verdict};
use jtg_engine::state::IntSemantics;
use jtg_jvm::{JvmError, Trace};
use jtg_mutate::{mutants, run_mutants, sample, Fate, MutationReport};
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
    #[arg(long, default_value_t = 6)]
    pub max_size: usize,
    /// Step budget per run (longer runs are checked as prefixes; mutants are local, so short
    /// prefixes kill as well as long ones at a fraction of the cost).
    #[arg(long, default_value_t = 1_000)]
    pub max_steps: u64,
    /// Fail (exit 1) below this mutation score.
    #[arg(long, default_value_t = 0.9)]
    pub min_score: f64,
    /// List every mutant, not only survivors and equivalents.
    #[arg(long)]
    pub verbose: bool,
    /// Re-check survivors on a ten times larger input set (another seed, larger structures)
    /// and list those that still survive as equivalent by bounded enumeration.
    #[arg(long)]
    pub enumerate: bool,
}

fn traces(target: &Target<'_>, gen: &Generator<'_>, n: u64, max_steps: u64) -> Result<Vec<Trace>> {
    let states = (0..n)
        .map(|k| {
            gen.case(k)
                .map(|s| s.state)
                .map_err(|e| JvmError::BadInput(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(states.len());
    for t in target.trace_batch(&states, max_steps) {
        out.push(t?);
    }
    Ok(out)
}

pub fn run(a: Args) -> Result<ExitCode> {
    let (prog, m) = load(&a.classpath, &a.method)?;
    let sem: IntSemantics = a.ints.into();
    let graph = graph_for(&prog, &m, None, a.start.as_deref(), sem)?;
    let target = Target::new(&prog, m.clone(), entries(&a.classpath))?;
    let cfg = GenConfig {
        seed: a.seed,
        max_size: a.max_size,
        ints: sem,
    };
    let start = graph.nodes[graph.start].state.clone();
    let gen =
        Generator::new(&prog, &m, &start, cfg).map_err(|e| JvmError::BadInput(e.to_string()))?;
    let base = traces(&target, &gen, a.n, a.max_steps).context("tracing the inputs")?;
    let matcher = jtg_check::Matcher::new(&graph, &prog, sem);
    let broken = base
        .iter()
        .filter(|t| {
            matches!(
                check_run(&matcher, &prog, *t, sem).verdict,
                Verdict::Violation(_)
            )
        })
        .count();
    if broken > 0 {
        anyhow::bail!(
            "the original graph of {m} already fails {broken} of {} traces (run `jtg check`)",
            base.len()
        );
    }
    let all = mutants(&graph, &prog, sem);
    let derived = all.len();
    let picked = sample(all, a.max_mutants);
    let runs: Vec<&dyn ConcreteRun> = base.iter().map(|t| t as &dyn ConcreteRun).collect();
    let mut fates = run_mutants(&graph, &prog, sem, &picked, &runs);
    // survivors: a bounded enumeration ten times larger, of another seed and larger sizes
    let open: Vec<usize> = (0..picked.len())
        .filter(|&k| fates[k] == Fate::Survived)
        .collect();
    if !open.is_empty() && a.enumerate {
        let wide = GenConfig {
            seed: a.seed.wrapping_add(1),
            max_size: a.max_size + 2,
            ints: sem,
        };
        let g2 = Generator::new(&prog, &m, &start, wide)
            .map_err(|e| JvmError::BadInput(e.to_string()))?;
        let more =
            traces(&target, &g2, a.n * 10, a.max_steps).context("tracing the enumeration")?;
        let more_runs: Vec<&dyn ConcreteRun> = more.iter().map(|t| t as &dyn ConcreteRun).collect();
        let subset: Vec<_> = open.iter().map(|&k| picked[k].clone()).collect();
        let again = run_mutants(&graph, &prog, sem, &subset, &more_runs);
        for (&k, f) in open.iter().zip(again) {
            fates[k] = match f {
                Fate::Survived => Fate::Equivalent(format!(
                    "bounded enumeration: also survives {} further inputs (seed {}, structures up to {})",
                    more.len(),
                    wide.seed,
                    wide.max_size
                )),
                other => other,
            };
        }
    }
    // an equivalence proof that a run refutes is a bug of the proof: report it, fail
    let refuted: Vec<&str> = picked
        .iter()
        .zip(&fates)
        .filter(|(mu, f)| mu.equivalent.is_some() && matches!(f, Fate::Killed { .. }))
        .map(|(mu, _)| mu.description.as_str())
        .collect();
    for d in &refuted {
        println!("  REFUTED    equivalence claimed for a killed mutant: {d}");
    }
    let report = MutationReport {
        mutants: picked
            .iter()
            .zip(fates)
            .map(|(mu, f)| (mu.operator, mu.description.clone(), f))
            .collect(),
        derived,
    };
    print_report(&m.to_string(), &report, a.verbose);
    Ok(if report.score() >= a.min_score && refuted.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn print_report(method: &str, r: &MutationReport, verbose: bool) {
    for (op, desc, fate) in &r.mutants {
        match fate {
            Fate::Killed { input, step } if verbose => {
                println!(
                    "  killed     {:<18} {desc} (input {input}, step {step})",
                    op.name()
                )
            }
            Fate::Killed { .. } => {}
            Fate::Equivalent(why) => println!("  equivalent {:<18} {desc}: {why}", op.name()),
            Fate::Survived => println!("  SURVIVED   {:<18} {desc}", op.name()),
        }
    }
    let enumerated = r
        .mutants
        .iter()
        .filter(
            |(_, _, f)| matches!(f, Fate::Equivalent(w) if w.starts_with("bounded enumeration")),
        )
        .count();
    let strict_live = r.mutants.len() - r.equivalent() + enumerated;
    let strict = if strict_live == 0 {
        1.0
    } else {
        r.killed() as f64 / strict_live as f64
    };
    println!(
        "{method}: {} mutants tried (of {} derived): {} killed, {} equivalent, {} survived; score {:.1}% ({enumerated} equivalent by bounded enumeration only; counting them as survivors: {:.1}%)",
        r.mutants.len(),
        r.derived,
        r.killed(),
        r.equivalent(),
        r.survived(),
        100.0 * r.score(),
        100.0 * strict
    );
}
