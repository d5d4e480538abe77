//! Float and double constants are literals on the operand stack (`eval/float.rs`): a comparison
//! with an infinity loses the outcome beyond it, and a store keeps no constant.

mod common;

use jtg_engine::state::{HeapValue, IntSemantics, Interval};
use jtg_engine::{build_graph, Graph, Options};

fn graph(spec: &str) -> Graph {
    let prog = common::program();
    let m = prog.find_method(spec).expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("default start state");
    build_graph(&prog, &m, st, &Options::default()).expect("graph")
}

#[test]
fn a_comparison_with_positive_infinity_is_never_greater() {
    // `d == Double.POSITIVE_INFINITY` (pc 15..19 of Floats.classify): `ldc2_w` pushes the
    // literal, and `dcmpl d +∞` is -1 or 0, never 1
    let g = graph("Floats.classify");
    let at_pc = |pc: u32| {
        g.nodes.iter().filter(move |n| {
            n.state
                .top()
                .is_some_and(|f| f.pc == pc && &*f.method.name == "classify")
        })
    };
    let before = at_pc(18).next().expect("the node before dcmpl");
    let top = before.state.top().unwrap();
    let inf = top.stack[top.stack.len() - 1];
    assert_eq!(
        before.state.value(inf),
        Some(&HeapValue::Double(Some(f64::INFINITY.to_bits())))
    );
    let cmp = at_pc(19).next().expect("the comparison's result");
    let r = *cmp.state.top().unwrap().stack.last().unwrap();
    assert_eq!(
        cmp.state.int(r),
        Some(&Interval::new(Some(-1), Some(0)).unwrap())
    );
    // `d == Double.NEGATIVE_INFINITY` (pc 41): `dcmpl d -∞` is -1 for a NaN d, so nothing is
    // ruled out there
    let cmp = at_pc(41).next().expect("the second comparison's result");
    let r = *cmp.state.top().unwrap().stack.last().unwrap();
    assert_eq!(
        cmp.state.int(r),
        Some(&Interval::new(Some(-1), Some(1)).unwrap())
    );
}

#[test]
fn a_stored_constant_is_an_unknown_float() {
    // `float f = 0.0f` before the loop of Wide.floats: the local holds an unknown float, so
    // the loop head takes the later iterations' values as instances (132 nodes, not 150)
    let g = graph("Wide.floats");
    for n in &g.nodes {
        for f in &n.state.frames {
            for r in f.locals.iter().flatten() {
                assert!(
                    !matches!(
                        n.state.value(*r),
                        Some(HeapValue::Float(Some(_)) | HeapValue::Double(Some(_)))
                    ),
                    "a local holds a float literal at pc {:?}",
                    n.state.top().map(|f| f.pc)
                );
            }
        }
    }
    assert_eq!(g.nodes.len(), 132);
}
