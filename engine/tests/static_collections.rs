//! Statics of JDK types (`models/static_values.rs`) on `everyday.StaticCollections` (`make
//! fixtures`): a static's value is what the program stored, so it is read as an object of the
//! one class every store makes (a `HashMap`, not any modelled `Map`), and a static that may
//! hold an object of a JDK class the engine does not model (`Set.of`'s) is refused, naming the
//! store.

mod common;

use jtg_engine::state::{HeapValue, IntSemantics};
use jtg_engine::{build_graph, Options};

#[test]
fn a_static_every_store_makes_a_hash_map_is_a_hash_map() {
    let prog = common::program();
    let m = prog
        .find_method("everyday.StaticCollections.remember")
        .expect("method");
    let st = prog
        .default_start(&m, IntSemantics::Unbounded)
        .expect("start");
    let g = build_graph(&prog, &m, st, &Options::default()).expect("graph");
    let classes: std::collections::BTreeSet<&str> = g
        .nodes
        .iter()
        .flat_map(|n| n.state.heap.values())
        .filter_map(HeapValue::type_name)
        .filter(|c| c.contains("Map"))
        .collect();
    assert_eq!(
        classes,
        std::collections::BTreeSet::from(["java/util/HashMap"]),
        "{classes:?}"
    );
}

#[test]
fn a_static_set_of_set_is_refused_naming_the_store() {
    common::unsupported_naming(
        "everyday.Keywords.count",
        &[
            "static field everyday.Keywords.WORDS",
            "everyday.Keywords.<clinit>()V pc 9 stores the result of java.util.Set.of",
        ],
    );
}
