//! The model of `java.lang.Enum` (`engine/src/models/enums.rs`) checked against the JVM (`make
//! fixtures` first): every generated run of the enum methods of `everyday.Enums` is a path of
//! its graph (inputs of enum type are the real constants or `null`), and graphs that claim
//! something wrong of enums are caught: an ordinal that is always 0, `compareTo` with its sign
//! flipped, a constant read from its static field that cannot be the parameter, a constant
//! `valueOf` returns that cannot be the one whose name it was given.

mod common;
use common::models::{check_generated, complete_graph, program};

use jtg_check::Summary;
use jtg_engine::edge::Label;
use jtg_engine::state::{HeapValue, IntSemantics, Interval, Ref};
use jtg_engine::{Graph, Program};

/// The totals of `n` generated runs of `g`'s method checked against `g`.
fn check(prog: &Program, g: &Graph, n: u64) -> Summary {
    check_generated(prog, g, IntSemantics::Unbounded, 5, n)
}

#[test]
fn everyday_enum_methods_have_no_violation() {
    let prog = program();
    for method in [
        "everyday.Enums.code",
        "everyday.Enums.countColors",
        "everyday.Enums.ordinalSum",
        "everyday.Enums.isRed",
        "everyday.Enums.order",
        "everyday.Enums.same",
        "everyday.Enums.nameLength",
        "everyday.Enums.next",
        "everyday.Enums.stepsToRed",
        "everyday.Enums.allCents",
        "everyday.Coin.times",
        "everyday.Enums.sameColor",
        "everyday.Enums.countSameAsFirst",
        "everyday.Enums.firstTwoSame",
        "everyday.Enums.parse",
        "everyday.Enums.roundTrip",
        "everyday.Enums.countColorWords",
        "everyday.Color.valueOf",
    ] {
        let g = complete_graph(&prog, method);
        let s = check(&prog, &g, 60);
        assert_eq!(s.violations, 0, "{method}");
        assert_eq!(s.traces, 60, "{method}");
    }
}

/// An ordinal claimed 0 (instead of `[0, 2]` for `Color`'s three constants) is caught: the
/// recorder records the constants' `ordinal` field.
#[test]
fn an_ordinal_claimed_zero_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Enums.ordinalSum");
    let mut wrong = g.clone();
    let mut n = 0;
    for node in &mut wrong.nodes {
        for v in node.state.heap.values_mut() {
            if *v == HeapValue::Int(Interval::new(Some(0), Some(2)).unwrap()) {
                *v = HeapValue::Int(Interval::literal(0));
                n += 1;
            }
        }
    }
    assert!(n > 0, "no ordinal [0, 2] in the graph");
    assert!(check(&prog, &wrong, 30).violations > 0);
}

/// `compareTo` with its sign flipped (`res = b - a` instead of `a - b`) is caught on the runs
/// with two different constants.
#[test]
fn compare_to_with_its_sign_flipped_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Enums.order");
    let mut wrong = g.clone();
    let mut n = 0;
    for e in &mut wrong.edges {
        for l in &mut e.labels {
            if let Label::Arith { a, b: Some(b), .. } = l {
                std::mem::swap(a, b);
                n += 1;
            }
        }
    }
    assert!(n > 0, "no difference label in the graph");
    assert!(check(&prog, &wrong, 60).violations > 0);
}

/// `Color.RED`, read from its static field, may be the parameter (`=?`): in a real run an enum
/// value is one of the constants. A graph without that predicate is caught on the runs with
/// `c == RED`.
#[test]
fn a_constant_that_cannot_be_the_parameter_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Enums.isRed");
    let mut wrong = g.clone();
    let mut n = 0;
    for node in &mut wrong.nodes {
        let refs: Vec<Ref> = node.state.heap.keys().copied().collect();
        for &a in &refs {
            for b in node.state.preds.may_equal_partners(a) {
                node.state.preds.remove_may_equal(a, b);
                n += 1;
            }
        }
    }
    assert!(n > 0, "no =? in the graph");
    assert!(check(&prog, &wrong, 60).violations > 0);
}

/// `Enum.valueOf` returns the constant itself (`Color.valueOf(c.name()) == c`): a graph
/// without the `=?` between its result and the parameter claims another object, which every
/// run with a constant contradicts. The runs also show that the JDK's first lookup, which
/// calls the enum's `values()`, leaves no step in the run (the tracer's `Inits.enumReady`).
#[test]
fn a_value_of_claimed_fresh_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Enums.roundTrip");
    assert_eq!(check(&prog, &g, 30).violations, 0);
    let mut wrong = g.clone();
    let mut dropped = 0;
    for node in &mut wrong.nodes {
        dropped += node.state.preds.may_equal.len();
        node.state.preds.may_equal.clear();
    }
    assert!(dropped > 0, "no =? after valueOf");
    assert!(check(&prog, &wrong, 30).violations > 0);
}
