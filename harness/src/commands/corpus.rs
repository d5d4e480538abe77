//! `jtg corpus`: termination graphs of every jar of a corpus (status, nodes, time), totals;
//! with `--check N` also N JVM runs per complete graph, checked as `jtg check` does.
//!
//! Exit code 2 when some sources did not compile (their entries are in the report, status
//! `error`, with javac's first error), else 1 when a check found a violation or a jar
//! `--expect`ed complete is not, 5 when a check stopped early (no inputs, a run could not be
//! traced) and nothing found a violation.

use super::{at_least_one, interrupt, ints_name, paint, resuming, Ints, JournalArgs};
use anyhow::{bail, Context, Result};
use jtg_check::journal::Journal;
use jtg_check::shard::Shard;
use jtg_harness::corpus::{self, CorpusCheck, CorpusOptions, CorpusProve, JarResult, Status};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Md,
    Json,
    Csv,
    /// JUnit XML: one test case per jar (failed on a violation, in error when its check
    /// stopped, skipped without a complete graph).
    Junit,
}

#[derive(clap::Args)]
pub struct Args {
    /// Corpus directories (searched recursively for `.jar` files and `.java` sources, which are
    /// compiled with `javac --release 8 -g` into a scratch folder: a folder with sources is
    /// compiled as one unit with its subfolders, or file by file when its files reuse class
    /// names; a directory of class files is a class path), jars and `.java` files. Every class
    /// with `main(String[])` is an entry (see `--methods`).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Instead of `main(String[])`, every method with code whose `Class.method` (binary class
    /// name) matches this glob (`*` any characters, `?` one; repeatable), e.g.
    /// `--methods 'everyday.Lists.*'`, from its default start state.
    #[arg(long, value_name = "GLOB")]
    pub methods: Vec<String>,
    /// javac's `--release` for `.java` sources: a Java version, or `default` (the JDK's own:
    /// string concatenation becomes `invokedynamic`).
    #[arg(long, value_name = "N", default_value = "8")]
    pub release: String,
    /// Check every complete graph against N runs of `main(String[])` in the real JVM, on
    /// random inputs (as `jtg check` does).
    #[arg(long, value_name = "N")]
    pub check: Option<u64>,
    /// Seed of the random inputs of `--check` (each jar's generator is seeded by this seed and
    /// the jar's name).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// `--check`: step budget per run; a longer run is checked as a prefix and counted as cut.
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u64,
    /// `--check`: cap of the generated structures' sizes (e.g. the length of `args`): most
    /// cases draw up to 6, every 8th up to this.
    #[arg(long, default_value_t = jtg_check::gen::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    #[arg(long, value_enum, default_value_t = Format::Md)]
    pub format: Format,
    /// Worker threads (one program per jar).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Node budget per jar.
    #[arg(long, default_value_t = 20_000)]
    pub max_nodes: usize,
    /// Work budget per jar: the sizes of the states the construction expands, compares and
    /// merges, summed; deterministic, so a jar it stops stops at the same place on every
    /// machine.
    #[arg(long, default_value_t = corpus::DEFAULT_MAX_WORK)]
    pub max_work: u64,
    /// Wall-clock safety net per jar, in seconds (a jar it stops says so: where it stops
    /// depends on the machine and its load).
    #[arg(long, default_value_t = corpus::DEFAULT_MAX_SECS as f64)]
    pub max_secs: f64,
    #[arg(long, value_enum, default_value_t = Ints::Unbounded)]
    pub ints: Ints,
    /// Leave out the times (for reports that should diff cleanly).
    #[arg(long)]
    pub no_times: bool,
    /// Compare with an expected-status list (`<status> <jar>` per line): exit 1 when a jar
    /// listed as complete is not complete any more.
    #[arg(long, value_name = "FILE")]
    pub expect: Option<PathBuf>,
    /// Also write the statuses as an expected-status list (for `--expect`).
    #[arg(long, value_name = "FILE")]
    pub save_expected: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write to this file instead of standard output.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Prove every complete graph terminating (YES), not terminating (NO, with a looping
    /// input) or neither (MAYBE), as `jtg prove` does; with `--check N` also cross-check the
    /// encoding and the certificate on N runs. Verdicts are compared with AProVE's
    /// (`aprove-termcomp2024.tsv` in the corpus root): a YES where AProVE says NO, or a NO
    /// where it says YES, is a contradiction.
    #[arg(long)]
    pub prove: bool,
    /// Analyse only shard K of N of the jars (cargo-nextest's `--partition count:K/N`: the
    /// `i`-th jar in path order belongs to shard `i mod N + 1`); with `--journal`, `jtg
    /// merge` of the N journals is the report of the whole run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub journal: JournalArgs,
}

pub fn run(a: Args) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    if a.check == Some(0) {
        bail!("--check 0: must be at least 1 (leave --check out to build the graphs only)");
    }
    at_least_one("--max-steps", a.max_steps)?;
    at_least_one("--max-nodes", a.max_nodes as u64)?;
    at_least_one("--max-work", a.max_work)?;
    if !(a.max_secs > 0.0 && a.max_secs.is_finite()) {
        bail!(
            "--max-secs {}: must be a positive number of seconds",
            a.max_secs
        );
    }
    let javac = corpus::Javac {
        release: match a.release.as_str() {
            "default" => None,
            r => Some(r.parse().map_err(|_| {
                anyhow::anyhow!("--release {r}: a Java version (8, 11, 17, …) or `default`")
            })?),
        },
        units: !a.methods.is_empty(),
    };
    let mut all = corpus::find_entries_with(&a.paths, a.jobs, &javac);
    if !a.methods.is_empty() {
        all = corpus::method_entries(&all, &a.methods);
    }
    let not_compiled: Vec<String> = all
        .iter()
        .filter_map(|e| match &e.target {
            corpus::Target::CompileError(m) => Some(format!("{}: {m}", e.name)),
            _ => None,
        })
        .collect();
    if all.is_empty() {
        bail!(
            "no .jar files, Java sources or classes with main found in {:?}",
            a.paths
        );
    }
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let jars = shard.select(&all);
    let opts = CorpusOptions {
        max_nodes: a.max_nodes,
        max_work: a.max_work,
        time_limit: Duration::from_secs_f64(a.max_secs.max(0.001)),
        ints: a.ints.into(),
        check: a.check.map(|n| CorpusCheck {
            n,
            seed: a.seed,
            max_steps: a.max_steps,
            max_size: a.max_size,
        }),
        prove: a.prove.then(|| CorpusProve {
            timeout: jtg_terminate::ProveConfig::default().timeout,
            check: a.check.unwrap_or(0),
            seed: a.seed,
            max_steps: a.max_steps,
            max_size: a.max_size,
        }),
    };
    // The journal: one record per jar, keyed by its path. The header holds what the results
    // depend on (not --jobs: results do not depend on it; not the output options).
    let params = serde_json::json!({
        "command": "corpus",
        "paths": a.paths,
        "methods": a.methods,
        "release": a.release,
        "max_nodes": a.max_nodes,
        "max_work": a.max_work,
        "max_secs": a.max_secs,
        "ints": ints_name(opts.ints),
        "check": opts.check.as_ref().map(|c| serde_json::json!({
            "n": c.n,
            "seed": c.seed,
            "max_steps": c.max_steps,
            "max_size": c.max_size,
        })),
        "prove": opts.prove.as_ref().map(|p| serde_json::json!({
            "check": p.check,
            "seed": p.seed,
            "max_steps": p.max_steps,
            "max_size": p.max_size,
        })),
        "shard": shard,
        "jars": all.len(),
    });
    let journal = Journal::for_run(a.journal.journal.as_deref(), a.journal.resume, &params)?;
    let key = |e: &corpus::Entry| e.key();
    let known: std::collections::BTreeMap<String, JarResult> = match &journal {
        Some(j) => {
            let keys: std::collections::BTreeSet<String> = jars.iter().map(key).collect();
            let known = j.records_of_run(&|k| keys.contains(k))?;
            resuming(j, known.len());
            known
        }
        None => Default::default(),
    };
    let bar = if a.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        let b = indicatif::ProgressBar::new(jars.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} {elapsed} (eta {eta}) {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    };
    bar.inc(known.len() as u64);
    interrupt::poll();
    // the jars finished in this run, for the summary of an interrupted one
    let finished = std::sync::Mutex::new(Vec::new());
    let results = corpus::run_corpus_resuming(
        &jars,
        &opts,
        a.jobs,
        &|jar| known.get(&key(jar)).cloned(),
        &|_, jar, r| -> Result<()> {
            bar.inc(1);
            bar.set_message(r.jar.clone());
            if let Some(j) = &journal {
                j.append(&key(jar), r)?;
            }
            finished
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(r.clone());
            if interrupt::interrupted() {
                return Err(interrupt::Interrupted.into());
            }
            Ok(())
        },
    );
    bar.finish_and_clear();
    let results = match results {
        Err(e) if e.is::<interrupt::Interrupted>() => {
            let mut so_far: Vec<JarResult> = known.into_values().collect();
            so_far.extend(finished.into_inner().unwrap_or_else(|p| p.into_inner()));
            paint::error_line(&format!(
                "interrupted (Ctrl-C) after {} of {} jars; the totals so far:",
                so_far.len(),
                jars.len()
            ));
            print_totals(&so_far, a.no_times, opts.check.is_some());
            interrupt::print_resume_hint(a.journal.journal.as_deref());
            return Err(e);
        }
        r => r?,
    };
    let report = Report {
        format: a.format,
        no_times: a.no_times,
        output: a.output.as_deref(),
        checked: opts.check.is_some(),
        proved: opts.prove.is_some(),
        paths: &a.paths,
        expect: a.expect.as_deref(),
        save_expected: a.save_expected.as_deref(),
        seconds: Some(started.elapsed().as_secs_f64()),
    };
    let code = report.print(&results)?;
    if !not_compiled.is_empty() {
        paint::error_line(&format!(
            "{} source units do not compile (exit 2):",
            not_compiled.len()
        ));
        for line in &not_compiled {
            eprintln!("  {line}");
        }
        return Ok(ExitCode::from(2));
    }
    Ok(code)
}

/// The totals of `results` on stderr (jars by status, jars stopped by the wall-clock safety
/// net, and with `checked` the checks' totals and every violating or stopped check).
fn print_totals(results: &[JarResult], no_times: bool, checked: bool) -> corpus::Totals {
    let t = corpus::totals(results);
    let times = if no_times {
        String::new()
    } else {
        format!("; median {:.1} ms, max {:.1} ms", t.median_ms, t.max_ms)
    };
    eprintln!(
        "{} jars: {} complete, {} unsupported, {} budget, {} error{times}",
        t.jars, t.complete, t.unsupported, t.budget, t.error
    );
    let timed_out: Vec<&str> = results
        .iter()
        .filter(|r| r.detail.starts_with(corpus::TIME_BOUND_NOTE))
        .map(|r| r.jar.as_str())
        .collect();
    if !timed_out.is_empty() {
        paint::error_line(&format!(
            "{} jars stopped by the wall-clock safety net --max-secs, so their rows depend on the machine (raise --max-secs or lower --max-work): {}",
            timed_out.len(),
            timed_out.join(", ")
        ));
    }
    if checked {
        let line = format!(
            "checked {} jars: {} runs ({} cut, {} outside the model), {} violations in {} jars, {} checks stopped early",
            t.checked, t.traces, t.cut, t.outside_model, t.violations, t.violating_jars, t.check_errors
        );
        let mut err = anstream::stderr();
        let _ = writeln!(err, "{}", paint::totals_line(&line, t.violations));
        for r in results {
            let Some(c) = &r.check else { continue };
            if c.violations > 0 {
                let line = format!(
                    "  {}: {} violations; replay: {}",
                    r.jar,
                    c.violations,
                    c.replay.as_deref().unwrap_or("?")
                );
                let _ = writeln!(err, "{}", paint::totals_line(&line, c.violations));
            }
            if let Some(e) = &c.error {
                eprintln!("  {}: check stopped after {} runs: {e}", r.jar, c.traces);
            }
        }
    }
    t
}

/// How a corpus run (or merged journals of one) is reported.
pub(super) struct Report<'a> {
    pub format: Format,
    pub no_times: bool,
    pub output: Option<&'a Path>,
    /// `--check` was given.
    pub checked: bool,
    /// `--prove` was given.
    pub proved: bool,
    /// The corpus paths (AProVE's verdicts are read from their `aprove-termcomp2024.tsv`).
    pub paths: &'a [PathBuf],
    pub expect: Option<&'a Path>,
    pub save_expected: Option<&'a Path>,
    /// Wall time of the run (JUnit's suite `time`), when known.
    pub seconds: Option<f64>,
}

impl Report<'_> {
    /// Writes the report of `results` and the totals on stderr; the exit code of the run.
    pub(super) fn print(&self, results: &[JarResult]) -> Result<ExitCode> {
        let a = self;
        let text = match a.format {
            Format::Md => corpus::render_md(results, !a.no_times),
            Format::Json => corpus::render_json(results, !a.no_times) + "\n",
            Format::Csv => corpus::render_csv(results, !a.no_times),
            Format::Junit => corpus::render_junit(results, !a.no_times, a.seconds, a.checked),
        };
        match &a.output {
            Some(p) => {
                std::fs::write(p, text).with_context(|| format!("cannot write {}", p.display()))?
            }
            None => print!("{text}"),
        }
        if let Some(p) = &a.save_expected {
            let mut s = String::from(
                "# Expected status per corpus jar (scripts/corpus-report.sh); harness/tests/corpus.rs checks a sample.\n",
            );
            for r in results {
                match &r.prove {
                    Some(p) => {
                        s.push_str(&format!("{} {} {}\n", r.status.name(), r.jar, p.verdict))
                    }
                    None => s.push_str(&format!("{} {}\n", r.status.name(), r.jar)),
                }
            }
            std::fs::write(p, s).with_context(|| format!("cannot write {}", p.display()))?;
        }
        let t = print_totals(results, a.no_times, a.checked);
        let mut contradictions = 0usize;
        if a.proved {
            eprintln!(
                "verdicts: {} YES, {} NO, {} MAYBE (prove median {:.1} ms, p90 {:.1} ms); {} cross-check violations",
                t.yes, t.no, t.maybe, t.prove_median_ms, t.prove_p90_ms, t.prove_violations
            );
            let aprove = a
                .paths
                .iter()
                .map(|p| p.join("aprove-termcomp2024.tsv"))
                .find_map(|p| std::fs::read_to_string(p).ok())
                .map(|t| corpus::read_aprove(&t))
                .unwrap_or_default();
            for r in results {
                let (Some(p), Some(theirs)) = (&r.prove, aprove.get(&r.jar)) else {
                    continue;
                };
                if corpus::contradicts(&p.verdict, theirs) {
                    contradictions += 1;
                    eprintln!(
                        "  CONTRADICTION {}: jtg {}, AProVE {theirs}; replay: {}",
                        r.jar,
                        p.verdict,
                        p.replay.as_deref().unwrap_or("-")
                    );
                }
                if p.prove_violations.unwrap_or(0) > 0 {
                    eprintln!(
                        "  {}: {} cross-check violations; replay: {}",
                        r.jar,
                        p.prove_violations.unwrap_or(0),
                        p.replay.as_deref().unwrap_or("-")
                    );
                }
            }
            eprintln!("contradictions with AProVE: {contradictions}");
        }
        let mut code = if t.violations > 0 || t.prove_violations > 0 || contradictions > 0 {
            ExitCode::from(1)
        } else if t.check_errors > 0 {
            ExitCode::from(5)
        } else {
            ExitCode::SUCCESS
        };
        if let Some(p) = &a.expect {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            let mut regressions: Vec<String> = corpus::read_expected(&text)
                .into_iter()
                .filter(|(_, st)| *st == Status::Complete)
                .filter_map(|(jar, _)| {
                    let now = results.iter().find(|r| r.jar == jar)?;
                    (now.status != Status::Complete)
                        .then(|| format!("{jar}: {} ({})", now.status.name(), now.detail))
                })
                .collect();
            if a.proved {
                for (jar, _, verdict) in corpus::read_expected_verdicts(&text) {
                    let (Some(want), Some(now)) = (verdict, results.iter().find(|r| r.jar == jar))
                    else {
                        continue;
                    };
                    let got = now.prove.as_ref().map_or("-", |p| p.verdict.as_str());
                    if got != want {
                        regressions.push(format!("{jar}: verdict {got}, expected {want}"));
                    }
                }
            }
            if !regressions.is_empty() {
                eprintln!("regressions against {}:", p.display());
                for r in &regressions {
                    eprintln!("  {r}");
                }
                code = ExitCode::from(1);
            }
        }
        Ok(code)
    }
}
