//! The matcher's shape memo (`RunMemo::shapes` in `check/src/path/memo.rs`) against the plain walk
//! from the roots at every step (`make fixtures`): on every fixture-suite entry, its graph and
//! a sample of its mutants (hand-broken graphs: narrowed intervals, dropped predicates and
//! labels, retargeted edges), over generated inputs, the first matching pass gives the same
//! result with and without the memo, on the recorded trace and on its materialised steps.

mod common;
use common::{fixture_sources, fixtures, program, suite, SuiteEntry};

use jtg_check::gen::{GenConfig, Generator};
use jtg_check::Target;
use jtg_check::{first_overflow, ConcreteRun, Extent, Matched, Matcher, Recorded};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Graph, Options, Program};
use jtg_mutate::{mutants, sample};

const SEM: IntSemantics = IntSemantics::Unbounded;
const INPUTS: u64 = 12;
const MUTANTS: usize = 16;

/// As the check takes a run: up to its first overflow, and without its end when the JVM's
/// stack or heap ended it (`new int[n]` with a large `n` is an OutOfMemoryError).
fn extent(run: &dyn ConcreteRun, prog: &Program) -> Extent {
    match first_overflow(run, prog) {
        Some(k) => Extent::Prefix { last: k },
        None if run.end().hit_jvm_limit() => Extent::Prefix {
            last: run.len().saturating_sub(1),
        },
        None => Extent::Full,
    }
}

/// Compares both matchers of `g` on `runs`; the number of runs the graph does not take.
fn compare(prog: &Program, g: &Graph, runs: &[(&dyn ConcreteRun, Extent)], what: &str) -> usize {
    let memo = Matcher::new(g, prog, SEM);
    let plain = Matcher::new(g, prog, SEM).plain();
    let mut stuck = 0;
    for (k, (run, ext)) in runs.iter().enumerate() {
        let a = memo.first_pass(*run, *ext);
        let b = plain.first_pass(*run, *ext);
        assert_eq!(
            a, b,
            "{what}, run {k}: the memo and the plain walk disagree"
        );
        stuck += usize::from(matches!(a, Matched::Stuck(_)));
    }
    stuck
}

/// One entry: its graph and a sample of its mutants compared on its runs; the mutants tried
/// and those some run does not take.
fn check_entry(prog: &Program, entry: &SuiteEntry) -> (usize, usize) {
    let SuiteEntry { method, start } = entry;
    let m = prog.find_method(method).expect("method");
    let ctx = TextContext::for_method(m.clone(), prog);
    let st = match start {
        Some(f) => {
            let text =
                std::fs::read_to_string(fixture_sources().join("start").join(f)).expect("start");
            parse_state(&text, &ctx).expect("start state")
        }
        None => prog.default_start(&m, SEM).expect("default start"),
    };
    let opts = Options {
        ints: SEM,
        ..Default::default()
    };
    let g = build_graph(prog, &m, st.clone(), &opts).expect("graph");
    let target = Target::new(prog, m.clone(), vec![fixtures()]).expect("target");
    let cfg = GenConfig {
        seed: 7,
        max_size: 6,
        ints: SEM,
    };
    let gen = Generator::new(prog, &m, &st, cfg).expect("generator");
    let states: Vec<_> = (0..INPUTS)
        .map(|k| gen.case(k).expect("case").state)
        .collect();
    let traces: Vec<_> = target
        .trace_batch(&states, 2_000)
        .into_iter()
        .map(|t| t.expect("trace"))
        .collect();
    let recorded: Vec<_> = traces.iter().map(Recorded::of).collect();
    let mut runs: Vec<(&dyn ConcreteRun, Extent)> = Vec::new();
    for t in &traces {
        runs.push((t, extent(t, prog)));
    }
    for r in &recorded {
        runs.push((r, extent(r, prog)));
    }
    let what = format!("{method} {start:?}");
    assert_eq!(compare(prog, &g, &runs, &what), 0, "{what}: the graph");
    let (mut tried, mut caught) = (0, 0);
    for (k, mu) in sample(mutants(&g, prog, SEM), MUTANTS).iter().enumerate() {
        let mg = mu.graph(&g);
        tried += 1;
        caught += usize::from(compare(prog, &mg, &runs, &format!("{what} mutant {k}")) > 0);
    }
    (tried, caught)
}

/// Workers on alternate entries: the JVM records one run at a time, the comparisons (most of
/// the time) run side by side.
const WORKERS: usize = 2;

#[test]
fn shape_memo_gives_the_plain_walks_results() {
    let entries = suite();
    let counts: Vec<(usize, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..WORKERS)
            .map(|w| {
                let entries = &entries;
                scope.spawn(move || {
                    let prog = program();
                    entries
                        .iter()
                        .skip(w)
                        .step_by(WORKERS)
                        .map(|e| check_entry(&prog, e))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    let tried: usize = counts.iter().map(|c| c.0).sum();
    let caught: usize = counts.iter().map(|c| c.1).sum();
    // the comparison covers graphs that are caught, not only ones that pass
    assert!(
        caught * 4 > tried,
        "only {caught} of {tried} mutants caught"
    );
}
