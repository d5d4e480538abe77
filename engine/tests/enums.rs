//! The model of `java.lang.Enum` (`models/enums.rs`) on `everyday.Enums` (`make fixtures`):
//! an enum object's fields, the start state of enum parameters, what a constant read from its
//! static field may be, and `valueOf`.

mod common;

use jtg_engine::edge::Label;
use jtg_engine::state::{FieldKey, HeapValue, IntOp, IntSemantics, Interval};
use jtg_engine::{build_graph, Options};

#[test]
fn an_enum_object_has_name_and_an_ordinal_below_the_number_of_constants() {
    let prog = common::program();
    let color = prog.instance_fields("everyday/Color").expect("fields");
    let keys: Vec<_> = color.iter().map(|f| (f.0.as_str(), f.2)).collect();
    assert_eq!(
        keys,
        [
            ("name", None),
            ("ordinal", Some(Interval::new(Some(0), Some(2)).unwrap()))
        ]
    );
    let coin = prog.instance_fields("everyday/Coin").expect("fields");
    assert_eq!(coin.len(), 3, "{coin:?}");
    assert!(coin.iter().any(|f| f.0 == FieldKey::plain("cents")));
    assert!(coin.iter().any(|f| f.0 == FieldKey::plain("ordinal")
        && f.2 == Some(Interval::new(Some(0), Some(3)).unwrap())));
    // not an enum: no Enum fields
    let enums = prog.instance_fields("everyday/Enums").expect("fields");
    assert!(enums.is_empty(), "{enums:?}");
}

/// Two enum parameters may be one constant.
#[test]
fn enum_parameters_may_be_equal() {
    let prog = common::program();
    let m = prog.find_method("everyday.Enums.order").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let locals: Vec<_> = st.frames[0].locals.iter().flatten().copied().collect();
    assert_eq!(locals.len(), 2);
    assert!(st.preds.may_equal(locals[0], locals[1]), "{}", st.preds);
    // an int parameter beside an enum one: nothing to relate
    let m = prog.find_method("everyday.Enums.total").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    assert!(st.preds.is_empty(), "{}", st.preds);
}

/// `Color.RED`, read from its static field, may be the parameter; `compareTo` is the difference
/// of the ordinals.
#[test]
fn a_constant_may_be_the_parameter_and_compare_to_subtracts_ordinals() {
    let prog = common::program();
    let m = prog.find_method("everyday.Enums.isRed").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    assert!(g.is_complete());
    let aliased = g.nodes.iter().any(|n| {
        let Some(red) = n.state.statics.values().next() else {
            return false;
        };
        n.state.frames[0]
            .stack
            .iter()
            .any(|&r| r != *red && n.state.preds.may_equal(r, *red))
    });
    assert!(aliased, "Color.RED is never =? the parameter");

    let m = prog.find_method("everyday.Enums.order").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    assert!(g.is_complete());
    let subs = g
        .edges
        .iter()
        .flat_map(|e| &e.labels)
        .filter(|l| matches!(l, Label::Arith { op: IntOp::Sub, .. }))
        .count();
    assert_eq!(subs, 1);
    let results: Vec<_> = g
        .nodes
        .iter()
        .flat_map(|n| n.state.heap.values())
        .filter(|v| **v == HeapValue::Int(Interval::new(Some(-2), Some(2)).unwrap()))
        .collect();
    assert!(!results.is_empty(), "no compareTo result in [-2, 2]");
}

/// `Color.valueOf(s)`: NullPointerException for `null`, else IllegalArgumentException or a
/// constant (an existing `Color`, not realized: it may be any constant the state holds).
#[test]
fn value_of_returns_a_constant_or_throws() {
    let prog = common::program();
    let m = prog.find_method("everyday.Color.valueOf").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    let thrown: Vec<&str> = g
        .nodes
        .iter()
        .flat_map(|n| n.state.heap.values())
        .filter_map(|v| match v {
            HeapValue::Object { class, .. } if class.ends_with("Exception") => Some(class.as_str()),
            _ => None,
        })
        .collect();
    for e in [
        "java/lang/NullPointerException",
        "java/lang/IllegalArgumentException",
    ] {
        assert!(thrown.contains(&e), "no {e} in {thrown:?}");
    }
    let constants = g
        .nodes
        .iter()
        .flat_map(|n| n.state.heap.values())
        .filter(|v| matches!(v, HeapValue::Abstract { ty } if ty == "everyday/Color"))
        .count();
    assert!(constants > 0, "no constant returned");
}

/// `Enum.valueOf(c, s)` with a `Class` parameter: unsupported, named (the engine's `Class`
/// objects do not say which class they are).
#[test]
fn value_of_with_a_class_parameter_is_unsupported_and_named() {
    common::unsupported_naming("everyday.Enums.byClass", &["not a class literal"]);
}

/// Two tiles may have one colour: the default start state lets parameters that reach constants
/// of one enum share them (`%$`), and a `Color[]` hold one constant twice (`♦`). Without it the
/// graph of `sameColor` claims `false` whenever both colours are non-null.
#[test]
fn parameters_reaching_one_enum_may_share_its_constants() {
    let prog = common::program();
    let m = prog
        .find_method("everyday.Enums.sameColor")
        .expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let locals: Vec<_> = st.frames[0].locals.iter().flatten().copied().collect();
    assert!(st.preds.joins(locals[0], locals[1]), "{}", st.preds);
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    assert!(g.is_complete());
    let equal_colours = g.nodes.iter().any(|n| {
        let stack = &n
            .state
            .frames
            .first()
            .map(|f| f.stack.clone())
            .unwrap_or_default();
        stack.len() == 2 && stack[0] == stack[1] && stack[0].is_obj()
    });
    assert!(equal_colours, "no state with a.color == b.color");

    let m = prog
        .find_method("everyday.Enums.firstTwoSame")
        .expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let cs = st.frames[0].locals[0].expect("cs");
    assert!(st.preds.is_non_tree(cs), "{}", st.preds);
    // Tree-shaped parameters that reach no enum keep their start state
    let m = prog.find_method("everyday.Trees.size").expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    assert!(st.preds.is_empty(), "{}", st.preds);
}
