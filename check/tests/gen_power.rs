//! Generators that reach every instance of a start state (`make fixtures` first): every
//! subtype of a declared type, long arguments and fields, statics of the start state, sizes
//! past the small ones; each checked against the JVM through a session.

mod common;
use common::{fixture_sources, fixtures};

use jtg_check::gen::{size_bound, GenConfig, Generator, Stats, DEFAULT_MAX_SIZE, SMALL_SIZE};
use jtg_check::{Checked, Inputs, Session, Settings};
use jtg_engine::class::ClassPath;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{HeapValue, IntSemantics, MethodId, Ref, State};
use jtg_engine::{build_graph, Graph, Options, Program};
use std::collections::BTreeSet;

const SEM: IntSemantics = IntSemantics::Unbounded;

fn program() -> Program {
    Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"))
}

fn start(prog: &Program, m: &MethodId, file: Option<&str>) -> State {
    match file {
        None => prog.default_start(m, SEM).expect("default start"),
        Some(f) => {
            let text = std::fs::read_to_string(fixture_sources().join("start").join(f))
                .expect("start file");
            parse_state(&text, &TextContext::for_method(m.clone(), prog)).expect("parses")
        }
    }
}

fn graph(prog: &Program, m: &MethodId, s: State) -> Graph {
    build_graph(prog, m, s, &Options::default()).expect("graph")
}

fn generator<'a>(prog: &'a Program, m: &MethodId, s: &State) -> Generator<'a> {
    let cfg = GenConfig {
        seed: 1,
        ..GenConfig::default()
    };
    Generator::new(prog, m, s, cfg).expect("generator")
}

fn check(prog: &Program, g: &Graph, n: u64) -> Checked {
    let settings = Settings {
        ints: SEM,
        seed: 1,
        max_size: DEFAULT_MAX_SIZE,
        max_steps: 20_000,
        max_reports: 1,
        shrink_runs: 20,
        jobs: 2,
        replay: "jtg check FIXTURES M".into(),
    };
    let inputs = Inputs::Generated { first: 0, count: n };
    let session = Session::new(prog, g, vec![fixtures()], settings, inputs).expect("session");
    let checked = session.run(None, Default::default(), &mut |_| {});
    assert!(checked.stopped.is_none(), "{:?}", checked.stopped);
    let texts: Vec<String> = checked.reports.iter().map(|r| r.text()).collect();
    assert_eq!(checked.summary.violations, 0, "{}", texts.join("\n"));
    checked
}

/// The value of local `slot` of a sample.
fn local(st: &State, slot: usize) -> Ref {
    st.frames[0].locals[slot].expect("argument")
}

#[test]
fn size_schedule_is_small_with_every_eighth_case_large_and_capped() {
    let bounds: Vec<usize> = (0..16).map(|k| size_bound(k, DEFAULT_MAX_SIZE)).collect();
    assert_eq!(bounds.iter().filter(|b| **b == DEFAULT_MAX_SIZE).count(), 2);
    assert_eq!(bounds[7], DEFAULT_MAX_SIZE);
    assert_eq!(bounds[15], DEFAULT_MAX_SIZE);
    assert!(bounds
        .iter()
        .all(|b| *b == SMALL_SIZE || *b == DEFAULT_MAX_SIZE));
    assert_eq!(size_bound(7, 3), 3);
    assert_eq!(size_bound(0, 3), 3);
    assert_eq!(size_bound(7, 30), 30);
}

/// `Expr.evaluate(Expr)` names no subclass of the abstract `Expr`: every one of `Lit`, `Add`,
/// `Neg` is drawn, and the check of 2 000 inputs covers at least 90 % of the graph's nodes.
#[test]
fn every_subclass_of_an_abstract_parameter_is_drawn_and_covered() {
    let prog = program();
    let m = prog.find_method("Expr.evaluate").expect("method");
    let s = start(&prog, &m, None);
    let gen = generator(&prog, &m, &s);
    let mut stats = Stats::default();
    for k in 0..2000 {
        stats.add(&gen.case(k).expect("case"));
    }
    for c in ["Lit", "Add", "Neg"] {
        assert!(
            stats.class_count(c) >= 200,
            "{c} in {} of 2000 samples:\n{stats}",
            stats.class_count(c)
        );
    }
    assert_eq!(
        stats.class_count("Expr"),
        0,
        "an abstract class is never drawn"
    );
    let g = graph(&prog, &m, s);
    let checked = check(&prog, &g, 2000);
    let cov = checked.summary.node_coverage();
    assert!(cov >= 0.9, "node coverage {:.1} %", 100.0 * cov);
}

/// A `long` parameter: values past the int range and the long boundaries are drawn, and 2 000
/// inputs pass the check.
#[test]
fn long_parameters_are_drawn_past_the_int_range_and_checked() {
    let prog = program();
    let m = prog.find_method("GenInputs.bits").expect("method");
    let s = start(&prog, &m, None);
    let gen = generator(&prog, &m, &s);
    let mut values = BTreeSet::new();
    for k in 0..500 {
        let c = gen.case(k).expect("case").state;
        match c.value(local(&c, 0)) {
            Some(HeapValue::Long(iv)) => {
                values.insert(iv.as_literal().expect("literal long"));
            }
            other => panic!("case {k}: argument is {other:?}"),
        }
    }
    for want in [i128::from(i64::MIN), i128::from(i64::MAX), 0] {
        assert!(values.contains(&want), "{want} never drawn");
    }
    assert!(values.iter().any(|v| *v > i128::from(i32::MAX)));
    let g = graph(&prog, &m, s);
    let checked = check(&prog, &g, 2000);
    assert_eq!(checked.summary.traces, 2000);
}

/// Objects with `long` and `double` fields are built (the longs drawn, the doubles run as 0.0).
#[test]
fn classes_with_long_and_double_fields_are_built() {
    let prog = program();
    let m = prog.find_method("GenInputs.stamped").expect("method");
    let s = start(&prog, &m, None);
    let gen = generator(&prog, &m, &s);
    let mut nonnull = 0;
    let mut stamps = BTreeSet::new();
    for k in 0..300 {
        let c = gen.case(k).expect("case").state;
        if let Some(HeapValue::Object { fields, .. }) = c.value(local(&c, 0)) {
            nonnull += 1;
            if let Some(HeapValue::Long(iv)) = c.value(fields["stamp"]) {
                stamps.insert(iv.as_literal().expect("literal"));
            }
            assert!(matches!(
                c.value(fields["weight"]),
                Some(HeapValue::Double(Some(_)))
            ));
        }
    }
    assert!(nonnull > 100, "{nonnull} non-null lists of 300");
    assert!(stamps.len() > 20, "{} distinct stamps", stamps.len());
    let g = graph(&prog, &m, s);
    check(&prog, &g, 500);
}

/// A `static:` line of the start state drives the inputs: its value varies over the samples
/// within its interval, and the check passes.
#[test]
fn a_static_of_the_start_state_is_drawn_like_an_argument() {
    let prog = program();
    let m = prog.find_method("GenInputs.upTo").expect("method");
    let s = start(&prog, &m, Some("GenInputs.upTo.static.state"));
    let gen = generator(&prog, &m, &s);
    let mut limits = BTreeSet::new();
    for k in 0..300 {
        let c = gen.case(k).expect("case").state;
        let r = c
            .statics
            .iter()
            .find(|((class, name), _)| &**class == "GenInputs" && &**name == "limit")
            .map(|(_, r)| *r)
            .expect("the static is in every sample");
        let v = c.int(r).and_then(|iv| iv.as_literal()).expect("literal");
        assert!((0..=20).contains(&v), "limit {v} outside [0,20]");
        limits.insert(v);
    }
    assert!(limits.len() >= 10, "limits drawn: {limits:?}");
    let g = graph(&prog, &m, s);
    check(&prog, &g, 500);
}

/// `=?` between a static and a parameter gives aliased and separate samples, and the graph
/// of that start state holds for both.
#[test]
fn a_static_that_may_alias_a_parameter_is_drawn_both_ways() {
    let prog = program();
    let m = prog.find_method("GenInputs.clear").expect("method");
    let s = start(&prog, &m, Some("GenInputs.clear.shared.state"));
    let gen = generator(&prog, &m, &s);
    let (mut same, mut apart) = (0, 0);
    for k in 0..300 {
        let c = gen.case(k).expect("case").state;
        let p = local(&c, 0);
        let shared = *c.statics.values().next().expect("the static");
        if p.is_obj() && p == shared {
            same += 1;
        } else if p.is_obj() && shared.is_obj() {
            apart += 1;
        }
    }
    assert!(same >= 10 && apart >= 10, "aliased {same}, apart {apart}");
    let g = graph(&prog, &m, s);
    check(&prog, &g, 500);
}

/// `Floats.classify` in Rust (IEEE comparisons are Java's): which of its eight returns `d` takes.
fn classify(d: f64) -> i32 {
    if d.is_nan() {
        0
    } else if d > 1.0 {
        if d == f64::INFINITY {
            1
        } else {
            2
        }
    } else if d < -1.0 {
        if d == f64::NEG_INFINITY {
            3
        } else {
            4
        }
    } else if d == 0.0 {
        if 1.0 / d > 0.0 {
            5
        } else {
            6
        }
    } else {
        7
    }
}

/// `Floats.compare` in Rust: -1, 1, 0, or 2 when `a` or `b` is NaN.
fn compare(a: f32, b: f32) -> i32 {
    match a.partial_cmp(&b) {
        Some(std::cmp::Ordering::Less) => -1,
        Some(std::cmp::Ordering::Greater) => 1,
        Some(std::cmp::Ordering::Equal) => 0,
        None => 2,
    }
}

/// The float (or double) argument `k` of a sample, as `f64`.
fn float_arg(st: &State, slot: usize) -> f64 {
    match st.value(local(st, slot)) {
        Some(HeapValue::Double(Some(b))) => f64::from_bits(*b),
        Some(HeapValue::Float(Some(b))) => f64::from(f32::from_bits(*b)),
        v => panic!("argument {slot} is {v:?}, no float literal"),
    }
}

/// Floats and doubles are drawn boundary-biased (NaN, ±∞, ±0.0, ±1, MIN_VALUE, MAX_VALUE):
/// 2 000 inputs of `Floats.classify(double)` take all eight of its returns, those of
/// `Floats.compare(float, float)` all four (the unordered one is NaN's, through fcmpl/fcmpg);
/// each set passes the check and executes every instruction of its graph.
#[test]
fn float_inputs_take_every_branch_and_pass_the_check() {
    let prog = program();
    for (name, outcomes) in [("Floats.classify", 8), ("Floats.compare", 4)] {
        let m = prog.find_method(name).expect("method");
        let s = start(&prog, &m, None);
        let gen = generator(&prog, &m, &s);
        let taken: BTreeSet<i32> = (0..2000)
            .map(|k| {
                let c = gen.case(k).expect("case").state;
                if name == "Floats.classify" {
                    classify(float_arg(&c, 0))
                } else {
                    compare(float_arg(&c, 0) as f32, float_arg(&c, 1) as f32)
                }
            })
            .collect();
        assert_eq!(taken.len(), outcomes, "{name}: returns taken {taken:?}");
        let g = graph(&prog, &m, s);
        let checked = check(&prog, &g, 2000);
        let pcs = |covered_only: bool| -> BTreeSet<u32> {
            g.nodes
                .iter()
                .filter(|n| !covered_only || checked.summary.covered[n.id])
                .filter_map(|n| n.state.frames.last())
                .filter(|f| f.method == m)
                .map(|f| f.pc)
                .collect()
        };
        assert_eq!(pcs(true), pcs(false), "{name}: instructions never executed");
    }
}

/// `Integer` keys are boxes of drawn values (the model keeps none, the input sets it): the
/// samples hold several values, not 0 only, outside the cache's -128..127 too, and the check
/// passes on them (that the JVM gets the value: harness/tests/trace_cli.rs).
#[test]
fn integer_boxes_get_drawn_values_that_reach_the_run() {
    let prog = program();
    let m = prog.find_method("Keys.hashAll").expect("method");
    let s = start(&prog, &m, None);
    let gen = generator(&prog, &m, &s);
    let mut values = BTreeSet::new();
    for k in 0..300 {
        let c = gen.case(k).expect("case").state;
        for v in c.heap.values() {
            if let HeapValue::Object { class, fields } = v {
                if class == "java/lang/Integer" {
                    let value = c.int(fields["value"]).and_then(|iv| iv.as_literal());
                    values.insert(value.expect("a box's value is a literal"));
                }
            }
        }
    }
    assert!(values.len() >= 10, "box values drawn: {values:?}");
    assert!(values.iter().any(|v| *v > 127 || *v < -128), "{values:?}");
    let g = graph(&prog, &m, s);
    let checked = check(&prog, &g, 400);
    assert_eq!(checked.summary.traces, 400);
}
