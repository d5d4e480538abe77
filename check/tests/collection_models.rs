//! The models of `java.util` collections (`engine/src/models/collections.rs`) are checked like
//! the engine (`make fixtures`): every run of an `everyday.CollectionLoops` method is a path of
//! its graph, and, per family, a model that claims more than the JDK does (a size that grows
//! by two on `add`, a map that never grows on `put`, an immutable list one longer) is caught
//! by the checker: the recorder records each collection's size and each iterator's remaining
//! count, and the checker's own `c ⊑ s` and label evaluation compare them.

mod common;
use common::models::{graph, int_verdicts as verdicts, program, violations};

use jtg_check::Verdict;
use jtg_engine::edge::{EdgeKind, Label, Operand};
use jtg_engine::state::{HeapValue, Interval};
use jtg_engine::Graph;

/// The graph with every `res = x ± 1` label that computes a field (`size`, `remaining`, a
/// builder's `count`) of an
/// object of `class` turned into `res = x ± 2`: a model that claims the size grows (or the
/// remaining count falls) by two.
fn by_two(g: &Graph, class: &str) -> (Graph, usize) {
    let mut wrong = g.clone();
    let mut changed = 0;
    for e in &mut wrong.edges {
        let target = &g.nodes[e.to].state;
        for l in &mut e.labels {
            let Label::Arith { res, b, .. } = l else {
                continue;
            };
            let of_class = target.heap.values().any(|v| match v {
                HeapValue::Object { class: c, fields } => {
                    c == class && fields.values().any(|f| f == res)
                }
                _ => false,
            });
            if of_class && *b == Some(Operand::Lit(1)) {
                *b = Some(Operand::Lit(2));
                changed += 1;
            }
        }
    }
    (wrong, changed)
}

/// The graph with the size of every object of `class` narrowed: a range to its lower bound (a
/// model that claims `put`/`add` of a new key never grows the collection), a literal `n` to
/// `n + 1` (a model that claims one element more).
fn narrowed_sizes(g: &Graph, class: &str) -> (Graph, usize) {
    narrowed(g, class, true)
}

/// [`narrowed_sizes`], literals too (`literals`) or ranges only.
fn narrowed(g: &Graph, class: &str, literals: bool) -> (Graph, usize) {
    resized(g, class, |iv| match (iv.lo, iv.as_literal()) {
        (_, Some(_)) if !literals => None,
        (_, Some(v)) => Some(Interval::literal(v + 1)),
        (Some(lo), None) => Some(Interval::literal(lo)),
        _ => None,
    })
}

/// The graph with every size `n ≥ 1` of an object of `class` that is a literal one smaller: a
/// model that claims one element was not added.
fn one_fewer(g: &Graph, class: &str) -> (Graph, usize) {
    resized(g, class, |iv| {
        iv.as_literal()
            .filter(|v| *v >= 1)
            .map(|v| Interval::literal(v - 1))
    })
}

/// The graph with the size of every object of `class` changed by `change` (where it gives a
/// new interval).
fn resized(
    g: &Graph,
    class: &str,
    change: impl Fn(&Interval) -> Option<Interval>,
) -> (Graph, usize) {
    let mut wrong = g.clone();
    let mut changed = 0;
    for n in &mut wrong.nodes {
        let sizes: Vec<_> = n
            .state
            .heap
            .values()
            .filter_map(|v| match v {
                HeapValue::Object { class: c, fields } if c == class => fields.get("size").copied(),
                _ => None,
            })
            .collect();
        for r in sizes {
            if let Some(HeapValue::Int(iv)) = n.state.heap.get_mut(&r) {
                let Some(new) = change(iv) else { continue };
                *iv = new;
                changed += 1;
            }
        }
    }
    (wrong, changed)
}

/// Every run of `method` on `args` is a path of its graph, and the graph `wrong` makes of it
/// (it must change something) has a violation among them.
fn caught(
    method: &str,
    params: &[&str],
    args: &[Vec<i64>],
    wrong: impl Fn(&Graph) -> (Graph, usize),
) {
    let prog = program();
    let g = graph(&prog, method);
    let right = verdicts(&prog, &g, params, args);
    assert!(
        right.iter().all(|v| *v == Verdict::Pass),
        "{method}: {right:?}"
    );
    let (bad, changed) = wrong(&g);
    assert!(changed > 0, "{method}: the wrong model changed nothing");
    let n = violations(&verdicts(&prog, &bad, params, args));
    assert!(n > 0, "{method}: the wrong model was not caught");
}

const SMALL: [i64; 4] = [0, 1, 2, 5];

fn rows(vs: &[i64]) -> Vec<Vec<i64>> {
    vs.iter().map(|v| vec![*v]).collect()
}

#[test]
fn an_array_list_growing_by_two_is_caught() {
    caught(
        "everyday.CollectionLoops.buildList",
        &["n"],
        &rows(&SMALL),
        |g| by_two(g, "java/util/ArrayList"),
    );
}

#[test]
fn a_linked_list_growing_by_two_is_caught() {
    caught(
        "everyday.CollectionLoops.linkedQueue",
        &["n"],
        &rows(&SMALL),
        |g| by_two(g, "java/util/LinkedList"),
    );
}

#[test]
fn an_array_deque_growing_by_two_is_caught() {
    caught(
        "everyday.CollectionLoops.drain",
        &["n"],
        &rows(&SMALL),
        |g| by_two(g, "java/util/ArrayDeque"),
    );
}

#[test]
fn an_iterator_skipping_two_is_caught() {
    caught(
        "everyday.CollectionLoops.buildAndIterate",
        &["n"],
        &rows(&SMALL),
        |g| by_two(g, "java/util/ArrayList$Itr"),
    );
}

/// Sets and maps: the size after adding distinct values is claimed not to grow.
const DISTINCT: [[i64; 3]; 3] = [[1, 2, 3], [0, 0, 0], [-5, 7, -5]];

#[test]
fn a_hash_set_that_never_grows_is_caught() {
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.CollectionLoops.distinctOf",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/HashSet"),
    );
}

#[test]
fn a_hash_map_that_never_grows_is_caught() {
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.CollectionLoops.countKeys",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/HashMap"),
    );
}

#[test]
fn a_tree_map_that_never_grows_is_caught() {
    let args = vec![vec![1, 2], vec![3, 3], vec![-1, 4]];
    caught(
        "everyday.CollectionLoops.smallest",
        &["a", "b"],
        &args,
        |g| narrowed_sizes(g, "java/util/TreeMap"),
    );
}

#[test]
fn a_tree_set_that_never_grows_is_caught() {
    let args = vec![vec![1, 2, 3], vec![3, 3, 3], vec![-1, 4, -1]];
    caught(
        "everyday.CollectionLoops.distinctSorted",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/TreeSet"),
    );
}

#[test]
fn an_immutable_list_one_longer_is_caught() {
    let args = vec![vec![1, 2], vec![0, -3]];
    caught(
        "everyday.CollectionLoops.pairSum",
        &["a", "b"],
        &args,
        |g| narrowed_sizes(g, "java/util/ImmutableCollections$List12"),
    );
}

#[test]
fn a_fixed_size_list_one_longer_is_caught() {
    let args = vec![vec![1, 2, 3]];
    caught(
        "everyday.CollectionLoops.asListSize",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/Arrays$ArrayList"),
    );
}

#[test]
fn a_builder_growing_by_two_per_char_is_caught() {
    // the recorder reads a StringBuilder's length as its field `count` (`Library.java`)
    caught("everyday.Strings.dots", &["n"], &rows(&SMALL), |g| {
        by_two(g, "java/lang/StringBuilder")
    });
}

#[test]
fn a_map_that_merge_never_grows_is_caught() {
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.CollectionLoops.mergeKeys",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/HashMap"),
    );
}

/// The graph without the successors of its `returns or throws` splits that throw: a model
/// that claims the library call never throws.
fn never_throwing(g: &Graph) -> (Graph, usize) {
    let mut wrong = g.clone();
    let before = wrong.edges.len();
    wrong
        .edges
        .retain(|e| !(e.kind == EdgeKind::Split && g.nodes[e.to].state.decided() == Some(false)));
    let removed = before - wrong.edges.len();
    (wrong, removed)
}

#[test]
fn a_swap_claimed_never_to_throw_is_caught() {
    // `Collections.swap(xs, 0, k)` on `n` numbers throws for `k < 0` and `k ≥ n`
    let args = vec![vec![3, 1], vec![3, 3], vec![0, 0], vec![4, -1], vec![2, 0]];
    caught(
        "everyday.CollectionLoops.swapPairs",
        &["n", "k"],
        &args,
        never_throwing,
    );
}

#[test]
fn a_reverse_order_queue_one_longer_is_caught() {
    // `new PriorityQueue<>(Comparator.reverseOrder())`: the natural order's model
    let args = vec![vec![3, 1, 2], vec![0, 0, 0], vec![-5, 7, 1]];
    caught(
        "everyday.CollectionLoops.reverseQueue",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/PriorityQueue"),
    );
}

/// Statics of collection types hold what the program stored (`List.of`'s list, a
/// `HashMap`): every generated run of a method that reads them is a path of its graph.
#[test]
fn static_collections_are_what_their_stores_make() {
    let prog = program();
    for method in [
        "everyday.StaticCollections.smallFactors",
        "everyday.StaticCollections.remember",
    ] {
        let g = common::models::complete_graph(&prog, method);
        let s = common::models::check_generated(
            &prog,
            &g,
            jtg_engine::state::IntSemantics::Unbounded,
            3,
            60,
        );
        assert_eq!((s.violations, s.traces), (0, 60), "{method}");
    }
}

/// The graph without the `=?` pairs of its `List.of` lists (`ListN`): a model that claims
/// `List.of()` is a new list.
fn empty_lists_fresh(g: &Graph) -> (Graph, usize) {
    let mut wrong = g.clone();
    let mut dropped = 0;
    for n in &mut wrong.nodes {
        let heap = &n.state.heap;
        let is_list_n = |r| matches!(heap.get(r), Some(v) if v.type_name() == Some("java/util/ImmutableCollections$ListN"));
        let before = n.state.preds.may_equal.len();
        let keep: std::collections::BTreeSet<_> = n
            .state
            .preds
            .may_equal
            .iter()
            .filter(|(a, b)| !is_list_n(a) && !is_list_n(b))
            .copied()
            .collect();
        dropped += before - keep.len();
        n.state.preds.may_equal = keep;
    }
    (wrong, dropped)
}

#[test]
fn an_empty_list_of_claimed_new_is_caught() {
    // `List.copyOf` of an empty list and `List.of()` are JDK 17's one empty list
    caught(
        "everyday.CollectionLoops.copies",
        &["n"],
        &rows(&SMALL),
        empty_lists_fresh,
    );
}

#[test]
fn a_set_that_add_all_never_grows_is_caught() {
    // only ranges are narrowed: `new HashSet<>()`'s literal 0 stays, `addAll`'s range falls
    // to its lower bound
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.CollectionLoops.growBoth",
        &["a", "b", "c"],
        &args,
        |g| narrowed(g, "java/util/HashSet", false),
    );
}

#[test]
fn a_map_that_put_if_absent_never_grows_is_caught() {
    // the map's sizes above 0 are `putIfAbsent`'s new keys
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.CollectionLoops.growBoth",
        &["a", "b", "c"],
        &args,
        |g| one_fewer(g, "java/util/HashMap"),
    );
}

/// `LinkedHashSet` and `LinkedHashMap`: their sizes as `HashSet`'s and `HashMap`'s, their
/// iterators the recorder counts along the `after` links.
#[test]
fn linked_sets_and_maps_that_never_grow_are_caught() {
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.LinkedCollections.distinctSum",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/LinkedHashSet"),
    );
    caught(
        "everyday.LinkedCollections.countKeys",
        &["a", "b", "c"],
        &args,
        |g| narrowed_sizes(g, "java/util/LinkedHashMap"),
    );
}

#[test]
fn linked_iterators_skipping_two_are_caught() {
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.LinkedCollections.distinctSum",
        &["a", "b", "c"],
        &args,
        |g| by_two(g, "java/util/LinkedHashMap$LinkedKeyIterator"),
    );
    caught(
        "everyday.LinkedCollections.countKeys",
        &["a", "b", "c"],
        &args,
        |g| by_two(g, "java/util/LinkedHashMap$LinkedEntryIterator"),
    );
}

#[test]
fn a_deque_iterator_skipping_two_is_caught() {
    // an `ArrayDeque`'s iterator counts down its own `remaining`, which the recorder reads
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.DequeLoops.threeSum",
        &["a", "b", "c"],
        &args,
        |g| by_two(g, "java/util/ArrayDeque$DeqIterator"),
    );
}

#[test]
fn list_iterators_follow_their_graphs_and_one_skipping_two_is_caught() {
    // `Arrays.asList`'s (AbstractList's): IllegalStateException before a next(),
    // UnsupportedOperationException after one, a plain walk
    let rows = vec![vec![-1, 2], vec![0, 5], vec![3, 4]];
    caught("everyday.Lists.fixedWalk", &["a", "b"], &rows, |g| {
        by_two(g, "java/util/AbstractList$ListItr")
    });
    let args: Vec<Vec<i64>> = DISTINCT.iter().map(|r| r.to_vec()).collect();
    caught(
        "everyday.Lists.immutableWalk",
        &["a", "b", "c"],
        &args,
        |g| by_two(g, "java/util/ImmutableCollections$ListItr"),
    );
}
