//! The library models are checked like the engine (`make fixtures`): every run of the `Lib`
//! fixture is a path of its graph (values the JDK returned, exceptions it threw), and a model
//! that claims more than the JDK does (`Random.nextInt(n)` in `[0, n-2]` instead of
//! `[0, n-1]`) is a violation.

mod common;
use common::fixtures;
use common::models::{graph, int_verdicts, program};

use jtg_check::Matcher;
use jtg_check::{check_run, Target, Verdict};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{HeapValue, IntSemantics, Interval};
use jtg_engine::{Graph, Program};

/// The verdicts of runs of `g`'s method on one int argument each.
fn verdicts(prog: &Program, g: &Graph, param: &str, args: &[i64]) -> Vec<Verdict> {
    let rows: Vec<Vec<i64>> = args.iter().map(|a| vec![*a]).collect();
    int_verdicts(prog, g, &[param], &rows)
}

/// Every seed's die roll is a path of the die's graph; with `nextInt(6)` claimed to return
/// `[0, 4]` (the model's successor narrowed), the seeds that roll a 6 are violations.
#[test]
fn a_random_model_claiming_too_little_range_is_caught() {
    let prog = program();
    let seeds: Vec<i64> = (0..40).collect();
    let g = graph(&prog, "Lib.die");
    let right = verdicts(&prog, &g, "seed", &seeds);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");

    let mut wrong = g.clone();
    let mut narrowed = 0;
    for n in &mut wrong.nodes {
        for v in n.state.heap.values_mut() {
            if *v == HeapValue::Int(Interval::new(Some(0), Some(5)).unwrap()) {
                *v = HeapValue::Int(Interval::new(Some(0), Some(4)).unwrap());
                narrowed += 1;
            }
        }
    }
    assert!(narrowed > 0, "no state holds nextInt(6)'s [0, 5]");
    let caught = verdicts(&prog, &wrong, "seed", &seeds)
        .iter()
        .filter(|v| matches!(v, Verdict::Violation(_)))
        .count();
    // new Random(seed).nextInt(6) is 5 for some of 40 seeds (the algorithm is specified)
    assert!(caught > 0 && caught < seeds.len(), "{caught} violations");
}

/// `nextInt(n)` throws IllegalArgumentException for `n ≤ 0` and returns `[0, n-1]`
/// otherwise; both kinds of run are paths, and the throwing ones end in the graph's
/// exceptional end.
#[test]
fn bounded_random_runs_are_paths_throwing_or_not() {
    let prog = program();
    let g = graph(&prog, "Lib.randomBelow");
    let v = verdicts(&prog, &g, "n", &[-3, 0, 1, 2, 1000]);
    assert!(v.iter().all(|v| *v == Verdict::Pass), "{v:?}");
    let throws = g.nodes.iter().any(|n| {
        n.state.end.is_some()
            && n.state
                .heap
                .values()
                .any(|h| h.type_name() == Some("java/lang/IllegalArgumentException"))
    });
    assert!(throws, "no IllegalArgumentException end");
}

/// A failing `assert` (the tracer's JVM runs with `-ea`) throws AssertionError; println and
/// string concatenation leave the analysed state alone.
#[test]
fn assert_and_println_runs_are_paths() {
    let prog = program();
    let g = graph(&prog, "Lib.checked");
    let v = verdicts(&prog, &g, "x", &[-1, 0, 1, 7]);
    assert!(v.iter().all(|v| *v == Verdict::Pass), "{v:?}");
    let g = graph(&prog, "Lib.report");
    let v = verdicts(&prog, &g, "x", &[-5, 0, 3, 123456]);
    assert!(v.iter().all(|v| *v == Verdict::Pass), "{v:?}");
}

/// `Integer.parseInt` returns or throws NumberFormatException, `Integer.valueOf` may return a
/// cached box, equal literals are one interned object, `charAt`/`substring` throw out of
/// range, `split` and the queries return in their ranges: every run of the `Text` fixture is a
/// path, throwing or not.
#[test]
fn string_and_integer_runs_are_paths_throwing_or_not() {
    let prog = program();
    let xs = [-200, -129, -128, -1, 0, 1, 2, 3, 7, 8, 127, 128, 5000];
    for m in [
        "Text.parse",
        "Text.box",
        "Text.literals",
        "Text.queries",
        "Text.copies",
        "Text.emptyBuilder",
        "Text.interned",
        "Text.charBox",
    ] {
        let g = graph(&prog, m);
        let v = verdicts(&prog, &g, "x", &xs);
        assert!(v.iter().all(|v| *v == Verdict::Pass), "{m}: {v:?}");
    }
    let ends_with = |g: &Graph, class: &str| {
        g.nodes.iter().any(|n| {
            n.state.end.is_some() && n.state.heap.values().any(|h| h.type_name() == Some(class))
        })
    };
    let g = graph(&prog, "Text.parse");
    assert!(ends_with(&g, "java/lang/NumberFormatException"));
    let g = graph(&prog, "Text.literals");
    assert!(ends_with(&g, "java/lang/StringIndexOutOfBoundsException"));
}

/// A `parseInt` model that claims never to throw (the graph without its throwing outcome) is
/// caught by the runs on `"x"`; the others stay paths.
#[test]
fn a_parse_model_claiming_no_exception_is_caught() {
    let prog = program();
    let mut g = graph(&prog, "Text.parse");
    let before = g.edges.len();
    // the outcome split: unlabelled split edges, `F:` the throwing one
    g.edges.retain(|e| {
        !(e.kind == jtg_engine::graph::EdgeKind::Split
            && e.labels.is_empty()
            && g.nodes[e.to].state.decided() == Some(false))
    });
    // one per call site (the two branches of `x > 0` reach their own call)
    assert!(g.edges.len() < before, "no throwing outcome");
    let v = verdicts(&prog, &g, "x", &[-1, 0, 1, 5]);
    assert!(matches!(v[0], Verdict::Violation(_)), "{v:?}");
    assert!(matches!(v[1], Verdict::Violation(_)), "{v:?}");
    assert_eq!(&v[2..], &[Verdict::Pass, Verdict::Pass]);
}

/// `ldc` of a literal equal to one the state holds may push that object (the JVM interns
/// literals): without the `=?` the model adds, every run of `Text.literals` is a violation.
#[test]
fn literals_without_interning_are_caught() {
    let prog = program();
    let mut g = graph(&prog, "Text.literals");
    let mut dropped = 0;
    for n in &mut g.nodes {
        dropped += n.state.preds.may_equal.len();
        n.state.preds.may_equal.clear();
    }
    assert!(dropped > 0, "no =? between the literals");
    let v = verdicts(&prog, &g, "x", &[0, 1]);
    assert!(
        v.iter().all(|v| matches!(v, Verdict::Violation(_))),
        "{v:?}"
    );
}

/// With assertions disabled (an input's `$assertionsDisabled` = 1: the run's class loader gives
/// `Lib` that status) the `assert` is skipped, `x - 1` for every `x`: a path of the graph too.
#[test]
fn a_run_with_assertions_disabled_skips_the_assert_and_is_a_path() {
    let prog = program();
    let g = graph(&prog, "Lib.checked");
    let target = Target::new(&prog, g.method.clone(), vec![fixtures()]).expect("target");
    let matcher = Matcher::new(&g, &prog, IntSemantics::Unbounded);
    for a in [-1, 0, 1, 7] {
        let text = format!("00 | x: i1 | ε\nstatic: Lib.$assertionsDisabled=i2\ni1: {a}  i2: 1");
        let st = parse_state(&text, &TextContext::for_method(g.method.clone(), &prog))
            .expect("state text");
        let trace = target.trace(&st, 100_000).expect("trace");
        assert_eq!(
            trace.end,
            jtg_jvm::TraceEnd::Returned(Some(jtg_jvm::CValue::Int(a - 1)))
        );
        let v = check_run(&matcher, &prog, &trace, IntSemantics::Unbounded).verdict;
        assert_eq!(v, Verdict::Pass, "x = {a}");
    }
}

/// `Character.valueOf` "will always cache values in the range '\u0000' to '\u007F'": a model
/// claiming two boxes of one char are never one object (the graph without the `=?` between
/// them) is caught on every such char.
#[test]
fn character_boxes_claimed_never_cached_are_caught() {
    let prog = program();
    let mut g = graph(&prog, "Text.charBox");
    let mut dropped = 0;
    for n in &mut g.nodes {
        dropped += n.state.preds.may_equal.len();
        n.state.preds.may_equal.clear();
    }
    assert!(dropped > 0, "no =? between the boxes");
    let v = verdicts(&prog, &g, "x", &[0, 65, 127]);
    assert!(
        v.iter().all(|v| matches!(v, Verdict::Violation(_))),
        "{v:?}"
    );
}

/// `s.replace("7", "77")` of a string without a `7` is `s` itself (JDK 17): a graph without
/// the `=?` between the result and the receiver is caught on those runs.
#[test]
fn a_replace_claimed_new_is_caught() {
    let prog = program();
    let mut g = graph(&prog, "Text.replaced");
    let args = [5, 17, 123, -8];
    let right = verdicts(&prog, &g, "x", &args);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut dropped = 0;
    for n in &mut g.nodes {
        dropped += n.state.preds.may_equal.len();
        n.state.preds.may_equal.clear();
    }
    assert!(dropped > 0, "no =? after replace");
    let v = verdicts(&prog, &g, "x", &args);
    assert!(
        v.iter().any(|v| matches!(v, Verdict::Violation(_))),
        "{v:?}"
    );
}

/// A `Random` parameter is drawn by its constructor: built with `AllocObject`, its `seed` was
/// `null` and `nextInt` threw NullPointerException inside the JDK, a run no graph has (74
/// violations in 100 runs of a method calling `r.nextInt(5)`).
#[test]
fn drawn_random_parameters_follow_their_graph() {
    let prog = program();
    let g = graph(&prog, "everyday.Utilities.rolls");
    let s = common::models::check_generated(&prog, &g, IntSemantics::Unbounded, 1, 100);
    assert_eq!(s.violations, 0, "{s:?}");
    assert!(
        s.covered.iter().filter(|c| **c).count() > s.covered.len() / 2,
        "{s:?}"
    );
}
