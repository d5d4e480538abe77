//! The models of `Math`/`Integer`/`Long`/`Character`, `System.arraycopy`/`Arrays`/`clone()`
//! and the `String`/`StringBuilder` methods, checked against the JVM (`make fixtures` first):
//! every run of their everyday fixtures is a path (or leaves the model of unbounded integers
//! where a library result wraps), and a deliberately wrong model of each family is caught.

mod common;
use common::fixtures;
use common::models::{check_generated, graph_with, program};

use jtg_check::{check_run, Matcher, Summary, Target, Verdict};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{HeapValue, IntSemantics, Interval, JAVA_MAX};
use jtg_engine::{Graph, Program};

/// The totals of `n` generated runs of `g`'s method checked against `g`.
fn check(prog: &Program, g: &Graph, ints: IntSemantics, n: u64) -> Summary {
    check_generated(prog, g, ints, 3, n)
}

/// The verdict of one run of `g`'s method on the input state text `input`.
fn verdict(prog: &Program, g: &Graph, ints: IntSemantics, input: &str) -> Verdict {
    let target = Target::new(prog, g.method.clone(), vec![fixtures()]).expect("target");
    let matcher = Matcher::new(g, prog, ints);
    let st = parse_state(input, &TextContext::for_method(g.method.clone(), prog)).expect("input");
    let trace = target.trace(&st, 100_000).expect("trace");
    check_run(&matcher, prog, &trace, ints).verdict
}

const BOTH: [IntSemantics; 2] = [IntSemantics::Unbounded, IntSemantics::Java];

/// `Math.abs(Integer.MIN_VALUE)` is `MIN_VALUE` (and `Long`'s, and `floorDiv(MIN, -1)`,
/// `Integer.sum` past MAX): under unbounded ints the run leaves the model at the call, as at an
/// overflowing `iadd`; under Java ints the model wraps and the run is a path. On the models
/// before (abs claimed `≥ 0` whatever the semantics) the unbounded check was a violation.
#[test]
fn wrapping_library_results_leave_unbounded_ints_and_wrap_under_java_ints() {
    let prog = program();
    let min = i32::MIN;
    let cases: [(&str, String, String); 4] = [
        (
            "everyday.Numbers.abs",
            format!("00 | x: i1 | ε\ni1: {min}"),
            "x: i1 | ε\ni1: -5".into(),
        ),
        (
            "everyday.JdkLibs.absLong",
            format!("00 | x: i1 | ε\ni1: {}L", i64::MIN),
            "x: i1 | ε\ni1: -5L".into(),
        ),
        (
            "everyday.JdkLibs.floorDivide",
            format!("00 | a: i1, b: i2 | ε\ni1: {min}  i2: -1"),
            "a: i1, b: i2 | ε\ni1: -7  i2: 2".into(),
        ),
        (
            "everyday.JdkLibs.sums",
            format!("00 | a: i1, b: i2 | ε\ni1: {}  i2: 1", i32::MAX),
            "a: i1, b: i2 | ε\ni1: 3  i2: 4".into(),
        ),
    ];
    for (method, wraps, plain) in &cases {
        for ints in BOTH {
            let g = graph_with(&prog, method, ints);
            let v = verdict(&prog, &g, ints, wraps);
            match ints {
                IntSemantics::Unbounded => {
                    assert!(matches!(v, Verdict::OutsideModel { .. }), "{method}: {v:?}")
                }
                IntSemantics::Java => assert_eq!(v, Verdict::Pass, "{method}"),
            }
            assert_eq!(
                verdict(&prog, &g, ints, &format!("00 | {plain}")),
                Verdict::Pass,
                "{method}"
            );
        }
    }
}

/// Every generated run of the fixtures of each family is a path of its graph, under both int
/// models.
#[test]
fn everyday_library_fixtures_have_no_violation() {
    let prog = program();
    for method in [
        "everyday.Numbers.abs",
        "everyday.ArrayUtils.append",
        "everyday.ArrayUtils.sortedMedian",
        "everyday.ArrayUtils.boxedCopy",
        "everyday.JdkLibs.smallCopy",
        "everyday.JdkLibs.concat",
        "everyday.JdkLibs.wrapIndex",
        "everyday.JdkLibs.checkedAdd",
        "everyday.JdkLibs.classify",
        "everyday.JdkLibs.dropFirstUntilEmpty",
        "everyday.JdkLibs.builderOps",
        "everyday.Strings.isBlank",
        "everyday.Strings.indexOfChar",
        "everyday.Strings.peelBothEnds",
        "everyday.Strings.substringIdentity",
        // an interned "" the run holds may be what a static read later holds
        "Text.internedLater",
    ] {
        for ints in BOTH {
            let g = graph_with(&prog, method, ints);
            let s = check(&prog, &g, ints, 60);
            assert_eq!(s.violations, 0, "{method} under {ints:?}");
        }
    }
}

/// `g` with every integer interval `from` in its states replaced by `to` (a model claiming
/// `to` where it returns `from`); the number of values replaced.
fn narrowed(g: &Graph, from: Interval, to: Interval) -> (Graph, usize) {
    let mut wrong = g.clone();
    let mut n = 0;
    for node in &mut wrong.nodes {
        for v in node.state.heap.values_mut() {
            if *v == HeapValue::Int(from) {
                *v = HeapValue::Int(to);
                n += 1;
            }
        }
    }
    (wrong, n)
}

fn caught(prog: &Program, wrong: &Graph) -> usize {
    check(prog, wrong, IntSemantics::Unbounded, 60).violations
}

/// Numbers: `Math.floorMod(i, n)` for `n ≥ 1` claimed `0` instead of `[0, ∞)`.
#[test]
fn a_wrong_number_model_is_caught() {
    let prog = program();
    let g = graph_with(&prog, "everyday.JdkLibs.wrapIndex", IntSemantics::Unbounded);
    let (wrong, n) = narrowed(&g, Interval::at_least(0), Interval::literal(0));
    assert!(n > 0);
    assert!(caught(&prog, &wrong) > 0);
}

/// Characters: `Character.getNumericValue(c)` claimed `≥ 0` instead of `[-2, MAX]` (most
/// chars have no numeric value: -1).
#[test]
fn a_wrong_character_model_is_caught() {
    let prog = program();
    let g = graph_with(
        &prog,
        "everyday.JdkLibs.caseAndValue",
        IntSemantics::Unbounded,
    );
    let from = Interval::new(Some(-2), Some(JAVA_MAX)).unwrap();
    let (wrong, n) = narrowed(&g, from, Interval::new(Some(0), Some(JAVA_MAX)).unwrap());
    assert!(n > 0);
    assert!(caught(&prog, &wrong) > 0);
}

/// Strings: a `StringBuilder`'s length claimed `0` after `insert(0, 'x')` and `insert(0, i)`
/// (it is at least 2: the recorder reads it as the builder's field `count`).
#[test]
fn a_wrong_string_model_is_caught() {
    let prog = program();
    let g = graph_with(
        &prog,
        "everyday.JdkLibs.builderOps",
        IntSemantics::Unbounded,
    );
    let from = Interval::new(Some(2), Some(JAVA_MAX)).unwrap();
    let (wrong, n) = narrowed(&g, from, Interval::literal(0));
    assert!(n > 0);
    assert!(caught(&prog, &wrong) > 0);
}

/// Arrays: `System.arraycopy` claimed to leave its destination alone (the JDK writes it where
/// the tracer does not see it; the decoder replays the copy): `smallCopy` copies `{3, 1, 2}`
/// into `new int[4]` at 1, and the wrong graph keeps `b` all zeros after the call.
#[test]
fn a_wrong_array_model_is_caught() {
    let prog = program();
    let g = graph_with(&prog, "everyday.JdkLibs.smallCopy", IntSemantics::Unbounded);
    assert_eq!(check(&prog, &g, IntSemantics::Unbounded, 3).violations, 0);
    let mut wrong = g.clone();
    let mut n = 0;
    for node in &mut wrong.nodes {
        let st = &mut node.state;
        let zero = st
            .heap
            .iter()
            .find(|(_, v)| **v == HeapValue::Int(Interval::literal(0)))
            .map(|(r, _)| *r);
        let four: Vec<_> = st
            .heap
            .iter()
            .filter_map(|(r, v)| match v {
                HeapValue::Array { elems: Some(e), .. } if e.len() == 4 => Some(*r),
                _ => None,
            })
            .collect();
        for a in four {
            if let (Some(z), Some(HeapValue::Array { elems: Some(e), .. })) =
                (zero, st.heap.get_mut(&a))
            {
                if e.iter().any(|x| *x != z) {
                    e.iter_mut().for_each(|x| *x = z);
                    n += 1;
                }
            }
        }
    }
    assert!(n > 0, "no node shows the copied elements");
    assert!(check(&prog, &wrong, IntSemantics::Unbounded, 3).violations > 0);
}
