//! The soundness regression suite (`make test`): every entry of `java-fixtures/suite.txt`,
//! in both integer semantics, × 1000 generated inputs (fixed seed, the generator's size
//! schedule: structures up to 6 and every 8th input up to 64): no trace may violate the
//! engine's graph. One test binary, so one JVM for all runs.
//!
//! The JVM records one run at a time (its recorder is process-global), so the runs are what
//! the suite's time goes to: an input drawn alike for both semantics (most are: both draw Java
//! values from one seed, and differ only where the two start states do) is run once and its
//! trace checked against both graphs. Two workers take alternate entries, so
//! one matches while the other's run is recorded.

mod common;
use common::{fixture_sources, fixtures, suite, SuiteEntry};

use jtg_check::gen::{GenConfig, Generator, DEFAULT_MAX_SIZE};
use jtg_check::Matcher;
use jtg_check::{check_run, Summary, Target, Verdict};
use jtg_engine::class::ClassPath;
use jtg_engine::graph::Graph;
use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::state::{IntSemantics, State};
use jtg_engine::{build_graph, Options, Program};

const INPUTS: u64 = 1000;
const SEED: u64 = 1;
const SEMANTICS: [IntSemantics; 2] = [IntSemantics::Unbounded, IntSemantics::Java];
const WORKERS: usize = 2;

/// What one entry's runs found: the violations, and a totals line per semantics.
#[derive(Default)]
struct EntryResult {
    failures: Vec<String>,
    totals: Vec<String>,
    /// Runs recorded (an input shared by both semantics counts once).
    runs: u64,
}

/// One entry's start state and graph under `sem`.
fn graph_of(prog: &Program, entry: &SuiteEntry, sem: IntSemantics) -> (State, Graph) {
    let m = prog.find_method(&entry.method).expect("method");
    let ctx = TextContext::for_method(m.clone(), prog);
    let st = match &entry.start {
        Some(f) => {
            let text =
                std::fs::read_to_string(fixture_sources().join("start").join(f)).expect("start");
            parse_state(&text, &ctx).expect("start state")
        }
        None => prog.default_start(&m, sem).expect("default start"),
    };
    let opts = Options {
        ints: sem,
        ..Default::default()
    };
    let g = build_graph(prog, &m, st.clone(), &opts).expect("graph");
    (st, g)
}

fn check_entry(prog: &Program, entry: &SuiteEntry) -> EntryResult {
    let SuiteEntry { method, start } = entry;
    let m = prog.find_method(method).expect("method");
    let ctx = TextContext::for_method(m.clone(), prog);
    let target = Target::new(prog, m.clone(), vec![fixtures()]).expect("target");
    let graphs: Vec<(State, Graph)> = SEMANTICS
        .iter()
        .map(|&s| graph_of(prog, entry, s))
        .collect();
    let matchers: Vec<Matcher<'_>> = SEMANTICS
        .iter()
        .zip(&graphs)
        .map(|(&s, (_, g))| Matcher::new(g, prog, s))
        .collect();
    // the generator's size schedule: every 8th input draws structures up to 64
    let gens: Vec<Generator<'_>> = SEMANTICS
        .iter()
        .zip(&graphs)
        .map(|(&ints, (st, _))| {
            let cfg = GenConfig {
                seed: SEED,
                max_size: DEFAULT_MAX_SIZE,
                ints,
            };
            Generator::new(prog, &m, st, cfg).expect("generator")
        })
        .collect();
    let mut sums: Vec<Summary> = graphs.iter().map(|(_, g)| Summary::new(g)).collect();
    let mut out = EntryResult::default();
    for k in 0..INPUTS {
        let samples: Vec<_> = gens.iter().map(|g| g.case(k).expect("sample")).collect();
        let texts: Vec<String> = samples
            .iter()
            .map(|s| print_state(&s.state, &ctx))
            .collect();
        let mut shared = None;
        for (i, &sem) in SEMANTICS.iter().enumerate() {
            let reuse = i > 0 && texts[i] == texts[0];
            if !reuse {
                shared = Some(target.trace(&samples[i].state, 2_000).expect("trace"));
                out.runs += 1;
            }
            let trace = shared.as_ref().expect("a trace of this input");
            let c = check_run(&matchers[i], prog, trace, sem);
            if let Verdict::Violation(s) = &c.verdict {
                out.failures.push(format!(
                    "{method} {start:?} {sem:?} case {k} fails at step {}:\n{}\n{:?}",
                    s.step, texts[i], s.candidates
                ));
            }
            sums[i].add(&c);
        }
    }
    for (sum, sem) in sums.iter().zip(SEMANTICS) {
        out.totals.push(format!(
            "{sem:?}: {method} {}: {} traces, {} steps, {} outside the model, {} cut, coverage {:.0}%",
            start.as_deref().unwrap_or("(default)"),
            sum.traces,
            sum.steps,
            sum.outside_model,
            sum.cut,
            100.0 * sum.node_coverage()
        ));
        assert_eq!(sum.traces as u64, INPUTS);
    }
    out
}

#[test]
fn suite_is_sound_in_both_int_semantics() {
    let entries = suite();
    let results: Vec<Vec<(usize, EntryResult)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let entries = &entries;
                scope.spawn(move || {
                    let prog = Program::new(
                        ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"),
                    );
                    entries
                        .iter()
                        .enumerate()
                        .skip(w)
                        .step_by(WORKERS)
                        .map(|(i, e)| (i, check_entry(&prog, e)))
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    let mut results: Vec<(usize, EntryResult)> = results.into_iter().flatten().collect();
    results.sort_by_key(|(i, _)| *i);
    let runs: u64 = results.iter().map(|(_, r)| r.runs).sum();
    for (_, r) in &results {
        for t in &r.totals {
            eprintln!("{t}");
        }
    }
    eprintln!(
        "{} entries × {INPUTS} inputs × 2 semantics: {runs} JVM runs",
        results.len()
    );
    let failures: Vec<&String> = results.iter().flat_map(|(_, r)| &r.failures).collect();
    assert!(
        failures.is_empty(),
        "{} violations:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
