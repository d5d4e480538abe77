//! The soundness regression suite (`make test`): every entry of `java-fixtures/suite.txt`,
//! in both integer semantics, × 1000 generated inputs (fixed seed, the generator's size
//! schedule: structures up to 6 and every 8th input up to 64): no trace may violate the
//! engine's graph. One test binary, so one JVM for all runs.

mod common;
use common::{fixture_sources, fixtures, suite, SuiteEntry};

use jtg_check::gen::{GenConfig, Generator, DEFAULT_MAX_SIZE};
use jtg_check::Matcher;
use jtg_check::{check_run, Summary, Target, Verdict};
use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, print_state, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Options, Program};

const INPUTS: u64 = 1000;
const SEED: u64 = 1;

fn check_suite(sem: IntSemantics) {
    let prog = Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"));
    let mut failures = Vec::new();
    let mut totals = Vec::new();
    for SuiteEntry { method, start } in suite() {
        let m = prog.find_method(&method).expect("method");
        let ctx = TextContext::for_method(m.clone(), &prog);
        let st = match &start {
            Some(f) => {
                let text = std::fs::read_to_string(fixture_sources().join("start").join(f))
                    .expect("start");
                parse_state(&text, &ctx).expect("start state")
            }
            None => prog.default_start(&m, sem).expect("default start"),
        };
        let opts = Options {
            ints: sem,
            ..Default::default()
        };
        let g = build_graph(&prog, &m, st.clone(), &opts).expect("graph");
        let target = Target::new(&prog, m.clone(), vec![fixtures()]).expect("target");
        let matcher = Matcher::new(&g, &prog, sem);
        // the generator's size schedule: every 8th input draws structures up to 64
        let cfg = GenConfig {
            seed: SEED,
            max_size: DEFAULT_MAX_SIZE,
            ints: sem,
        };
        let gen = Generator::new(&prog, &m, &st, cfg).expect("generator");
        let mut sum = Summary::new(&g);
        for k in 0..INPUTS {
            let sample = gen.case(k).expect("sample");
            let trace = target.trace(&sample.state, 2_000).expect("trace");
            let c = check_run(&matcher, &prog, &trace, sem);
            if let Verdict::Violation(s) = &c.verdict {
                failures.push(format!(
                    "{method} {start:?} {sem:?} case {k} fails at step {}:\n{}\n{:?}",
                    s.step,
                    print_state(&sample.state, &ctx),
                    s.candidates
                ));
            }
            sum.add(&c);
        }
        totals.push(format!(
            "{method} {}: {} traces, {} steps, {} outside the model, {} cut, coverage {:.0}%",
            start.as_deref().unwrap_or("(default)"),
            sum.traces,
            sum.steps,
            sum.outside_model,
            sum.cut,
            100.0 * sum.node_coverage()
        ));
        assert_eq!(sum.traces as u64, INPUTS);
    }
    for t in &totals {
        eprintln!("{sem:?}: {t}");
    }
    assert!(
        failures.is_empty(),
        "{} violations:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn suite_is_sound_with_unbounded_ints() {
    check_suite(IntSemantics::Unbounded);
}

#[test]
fn suite_is_sound_with_java_ints() {
    check_suite(IntSemantics::Java);
}
