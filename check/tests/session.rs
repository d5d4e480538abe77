//! The check session (`make fixtures` first): generated and given inputs, totals that do not
//! depend on the number of matching threads, reports with shrunk inputs and replay commands,
//! the first violating case, a journal and its resume, and where a session stops.

mod common;
use common::fixtures;
use jtg_check::journal::Journal;
use jtg_check::{
    CaseId, Checked, Inputs, Session, SessionError, Settings, Summary, TraceRecord, CHUNK,
};
use jtg_engine::class::ClassPath;
use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::IntSemantics;
use jtg_engine::{build_graph, Graph, Options, Program};

fn program() -> Program {
    Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"))
}

fn graph(prog: &Program, method: &str) -> Graph {
    let m = prog.find_method(method).expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    build_graph(prog, &m, st, &Options::default()).expect("graph")
}

fn settings(jobs: usize) -> Settings {
    Settings {
        ints: IntSemantics::Unbounded,
        seed: 1,
        max_size: 6,
        max_steps: 100_000,
        max_reports: 2,
        shrink_runs: 50,
        jobs,
        replay: "jtg check FIXTURES M".into(),
    }
}

fn generated(count: u64) -> Inputs {
    Inputs::Generated { first: 0, count }
}

fn run(prog: &Program, g: &Graph, s: Settings, inputs: Inputs) -> Checked {
    let session = Session::new(prog, g, vec![fixtures()], s, inputs).expect("session");
    let mut calls = 0usize;
    let checked = session.run(None, Default::default(), &mut |_| calls += 1);
    assert_eq!(calls, checked.summary.traces, "progress once per case");
    checked
}

/// What a summary says, as a comparable value (it holds timings too).
fn totals(s: &Summary) -> (usize, u64, usize, usize, usize, Vec<bool>, u64) {
    (
        s.traces,
        s.steps,
        s.violations,
        s.outside_model,
        s.cut,
        s.covered.clone(),
        s.checked,
    )
}

/// `IntLoops.negate` with its negation label replaced by `i2 = i1 + 0`: every run with a ≠ 0
/// violates it.
fn broken_negate(prog: &Program) -> Graph {
    let mut g = graph(prog, "IntLoops.negate");
    let e = g
        .edges
        .iter_mut()
        .find(|e| e.kind == EdgeKind::Eval && e.labels.iter().any(|l| l.to_string().contains('-')))
        .expect("the negation edge");
    let text = e.labels[0].to_string();
    let replaced = text.replace("= -", "= ") + " + 0";
    e.labels[0] = Label::parse(&replaced).unwrap_or_else(|err| panic!("{replaced}: {err}"));
    g
}

#[test]
fn a_correct_graph_passes_every_case_whatever_the_threads() {
    let prog = program();
    let g = graph(&prog, "List.contains");
    // more cases than one chunk, and not a multiple of it
    let n = CHUNK as u64 * 2 + 7;
    let one = run(&prog, &g, settings(1), generated(n));
    let three = run(&prog, &g, settings(3), generated(n));
    assert!(one.stopped.is_none(), "{:?}", one.stopped);
    assert_eq!(one.summary.traces as u64, n);
    assert_eq!(one.summary.violations, 0);
    assert!(one.reports.is_empty() && one.first_violation.is_none());
    assert!(one.summary.covered_nodes() > g.nodes.len() / 2);
    assert_eq!(totals(&one.summary), totals(&three.summary));
}

#[test]
fn violations_are_reported_shrunk_with_replay_commands() {
    let prog = program();
    let g = broken_negate(&prog);
    let checked = run(&prog, &g, settings(2), generated(40));
    assert!(checked.stopped.is_none(), "{:?}", checked.stopped);
    assert!(checked.summary.violations > 0);
    assert_eq!(checked.reports.len(), 2, "max_reports");
    let first = checked.first_violation.expect("a violation");
    let r = &checked.reports[0];
    let CaseId::Generated(k) = first else {
        panic!("{first:?}")
    };
    assert_eq!(r.name, format!("seed 1 case {k}"));
    assert_eq!(
        r.replay,
        format!("jtg check FIXTURES M --seed 1 --case {k} --max-size 6")
    );
    let shrunk = r.shrunk.as_ref().expect("shrunk");
    assert!(shrunk.name.ends_with(", shrunk"));
    assert!(
        shrunk.replay.starts_with("jtg check FIXTURES M --input "),
        "{}",
        shrunk.replay
    );
    // the shrunk input still fails, and is no larger than the input
    let value = |text: &str| -> i64 {
        let v = text.rsplit("i1: ").next().unwrap_or_default();
        v.trim().parse().unwrap_or_else(|_| panic!("{text}"))
    };
    assert!(value(&shrunk.input).abs() <= value(&r.input).abs());
    assert_ne!(value(&shrunk.input), 0, "a = 0 does not fail");
}

#[test]
fn a_given_input_is_one_case() {
    let prog = program();
    let g = broken_negate(&prog);
    let ctx = TextContext::for_method(g.method.clone(), &prog);
    let state = parse_state("00 | a: i1 | ε\ni1: 5\n", &ctx).expect("state");
    let inputs = Inputs::Given {
        name: "five.state".into(),
        replay: "--input five.state".into(),
        state: Box::new(state),
    };
    let checked = run(&prog, &g, settings(1), inputs);
    assert_eq!(checked.summary.traces, 1);
    assert_eq!(checked.first_violation, Some(CaseId::Input));
    assert_eq!(
        checked.reports[0].replay,
        "jtg check FIXTURES M --input five.state"
    );
}

/// A journal written by one session and cut short is resumed by another: the totals and the
/// reports are those of an uninterrupted session, and the resumed cases are not run again.
#[test]
fn a_resumed_session_reports_what_an_uninterrupted_one_does() {
    let prog = program();
    let g = broken_negate(&prog);
    let dir = std::env::temp_dir().join(format!("jtg-session-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("j.jsonl");
    let params = serde_json::json!({"test": "resume"});
    let n = CHUNK as u64 + 20;
    let whole = {
        let j = Journal::open(&path, &params, false).expect("journal");
        let s = Session::new(&prog, &g, vec![fixtures()], settings(2), generated(n)).unwrap();
        s.run(Some(&j), Default::default(), &mut |_| {})
    };
    let records: Vec<(String, TraceRecord)> = Journal::open(&path, &params, true)
        .unwrap()
        .records()
        .unwrap();
    assert_eq!(records.len() as u64, n);
    assert_eq!(records[3].0, "case 3");
    // keep the header and the first 30 records, then resume
    let text = std::fs::read_to_string(&path).unwrap();
    let cut: String = text.lines().take(31).map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, cut).unwrap();
    let j = Journal::open(&path, &params, true).unwrap();
    let s = Session::new(&prog, &g, vec![fixtures()], settings(1), generated(n)).unwrap();
    let resumed = s.resume(&j).expect("resume");
    assert_eq!(resumed.len(), 30);
    let mut calls = 0;
    let again = s.run(Some(&j), resumed, &mut |_| calls += 1);
    assert_eq!(calls as u64, n, "progress for resumed and new cases");
    assert!(again.stopped.is_none(), "{:?}", again.stopped);
    assert_eq!(totals(&whole.summary), totals(&again.summary));
    assert_eq!(whole.reports, again.reports);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().lines().count() as u64,
        n + 1
    );
    // a journal of other cases is refused
    let fewer = Session::new(&prog, &g, vec![fixtures()], settings(1), generated(10)).unwrap();
    let e = fewer.resume(&j).err().expect("refused");
    assert!(
        e.to_string().contains("which is not a unit of this run"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A given input that is no concrete instance of the start state (here: an abstract value)
/// is refused before any run: the graph is not wrong, the input is.
#[test]
fn a_session_refuses_a_given_input_that_is_no_instance() {
    let prog = program();
    let g = graph(&prog, "IntLoops.negate");
    let ctx = TextContext::for_method(g.method.clone(), &prog);
    let state = parse_state("00 | a: i1 | ε\ni1: [1, 5]\n", &ctx).expect("state");
    let inputs = Inputs::Given {
        name: "abstract.state".into(),
        replay: String::new(),
        state: Box::new(state),
    };
    match Session::new(&prog, &g, vec![fixtures()], settings(1), inputs) {
        Err(e @ SessionError::NotInstance(_)) => {
            assert!(e.to_string().contains("not an instance"), "{e}")
        }
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("an abstract input was accepted"),
    }
}

/// A `long` parameter is drawn (it used to stop the session at case 0): every case runs.
#[test]
fn a_session_draws_long_parameters() {
    let prog = program();
    let g = graph(&prog, "Inputs.wide");
    let checked = run(&prog, &g, settings(1), generated(3));
    assert!(checked.stopped.is_none(), "{:?}", checked.stopped);
    assert_eq!(checked.summary.traces, 3);
}

/// `traces` runs every case in case order, as `run` would see them.
#[test]
fn traces_are_in_case_order() {
    let prog = program();
    let g = graph(&prog, "IntLoops.countDown");
    let inputs = Inputs::Generated { first: 5, count: 4 };
    let s = Session::new(&prog, &g, vec![fixtures()], settings(1), inputs).unwrap();
    let traces = s.traces().expect("traces");
    assert_eq!(traces.len(), 4);
    let one = Inputs::Generated { first: 7, count: 1 };
    let s7 = Session::new(&prog, &g, vec![fixtures()], settings(1), one).unwrap();
    let t7 = s7.traces().expect("trace");
    assert_eq!(traces[2].step(0).frames, t7[0].step(0).frames);
    assert_eq!(traces[2].len(), t7[0].len());
}
