//! `java.util.Optional` (`engine/src/models/optional.rs`) is checked like the engine (`make
//! fixtures`): every run of an `everyday.Optionals` method is a path of its graph, and a model
//! that claims more than the JDK does is caught: the recorder records each `Optional`'s
//! `value`, and the checker's own `c ⊑ s` compares it.

mod common;
use common::models::{check_generated, graph, int_verdicts, program, violations};

use jtg_check::Verdict;
use jtg_engine::state::{HeapValue, IntSemantics, Ref};
use jtg_engine::Graph;

/// The graph with every `Optional` that holds a value claimed empty (`value` `null`): a model
/// of `Optional.of` that drops its argument.
fn present_claimed_empty(g: &Graph) -> (Graph, usize) {
    let mut wrong = g.clone();
    let mut changed = 0;
    for n in &mut wrong.nodes {
        for v in n.state.heap.values_mut() {
            if let HeapValue::Object { class, fields } = v {
                if class == "java/util/Optional" {
                    if let Some(r) = fields.get_mut("value").filter(|r| !r.is_null()) {
                        *r = Ref::Null;
                        changed += 1;
                    }
                }
            }
        }
    }
    (wrong, changed)
}

#[test]
fn a_present_optional_claimed_empty_is_caught() {
    let prog = program();
    let g = graph(&prog, "everyday.Optionals.unwrap");
    let rows: Vec<Vec<i64>> = [3, 1, 0, -4].iter().map(|k| vec![*k]).collect();
    let right = int_verdicts(&prog, &g, &["k"], &rows);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let (bad, changed) = present_claimed_empty(&g);
    assert!(changed > 0, "the wrong model changed nothing");
    assert!(violations(&int_verdicts(&prog, &bad, &["k"], &rows)) > 0);
}

#[test]
fn drawn_optional_parameters_follow_their_graph() {
    // an Optional parameter is drawn empty (AllocObject, not the JDK's EMPTY) or with a box
    let prog = program();
    let g = graph(&prog, "everyday.Optionals.valueOr");
    let s = check_generated(&prog, &g, IntSemantics::Unbounded, 1, 100);
    assert_eq!(s.violations, 0, "{s:?}");
    // both branches: an empty one and one holding a value were drawn
    assert!(s.covered.iter().all(|c| *c), "{s:?}");
}
