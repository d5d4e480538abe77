//! The `invokedynamic` models are checked like the engine (`make fixtures`): every run of a
//! string concatenation or a lambda of `everyday.Indy` is a path of its graph, and a graph that
//! claims a wrong length of a concatenation, a wrong captured value of a lambda object, or the
//! class of another lambda site is caught by the runs; so is a record's `equals` claimed false
//! (`everyday.Records`).

mod common;
use common::models::{complete_graph, int_verdicts as verdicts, program, violations};

use jtg_check::Verdict;
use jtg_engine::state::{FieldKey, HeapValue, Interval, Ref};
use jtg_engine::Graph;

/// The classes of the lambda objects of a graph's states.
fn lambda_classes(g: &mut Graph) -> Vec<&mut String> {
    g.nodes
        .iter_mut()
        .flat_map(|n| n.state.heap.values_mut())
        .filter_map(|v| match v {
            HeapValue::Object { class, .. } if class.contains("$$Lambda$") => Some(class),
            _ => None,
        })
        .collect()
}

/// `"c=" + c` is 3 characters for every char; a graph that claims 4 is caught on every run.
#[test]
fn a_concatenation_of_a_wrong_length_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Indy.ofChar");
    let chars: Vec<Vec<i64>> = [0, 65, 0x263a, 0xffff].iter().map(|c| vec![*c]).collect();
    let right = verdicts(&prog, &g, &["c"], &chars);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut wrong = g.clone();
    let mut changed = 0;
    for n in &mut wrong.nodes {
        for v in n.state.heap.values_mut() {
            if *v == HeapValue::Int(Interval::literal(3)) {
                *v = HeapValue::Int(Interval::literal(4));
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no state holds the length 3");
    let caught = verdicts(&prog, &wrong, &["c"], &chars);
    assert_eq!(violations(&caught), chars.len(), "{caught:?}");
}

/// `"n=" + n` is 3 to 13 characters; a graph that claims at most 3 is caught exactly on the
/// runs whose `n` has more than one character.
#[test]
fn a_concatenation_claiming_too_short_a_number_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Strings.describe");
    let ns: Vec<Vec<i64>> = [0, 7, -1, 10, i64::from(i32::MIN)]
        .iter()
        .map(|n| vec![*n])
        .collect();
    let right = verdicts(&prog, &g, &["n"], &ns);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut wrong = g.clone();
    let mut changed = 0;
    for n in &mut wrong.nodes {
        for v in n.state.heap.values_mut() {
            if *v == HeapValue::Int(Interval::new(Some(3), Some(13)).unwrap()) {
                *v = HeapValue::Int(Interval::literal(3));
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no state holds describe's length [3, 13]");
    let caught = verdicts(&prog, &wrong, &["n"], &ns);
    assert_eq!(violations(&caught), 3, "{caught:?}");
}

/// `() -> a - b` captures `a` then `b`; a graph whose lambda object claims `a` is 0 is caught
/// on the runs with `a ≠ 0`.
#[test]
fn a_lambda_with_a_wrong_captured_value_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Indy.captureLocals");
    let rows = vec![vec![5, 3], vec![-2, 9], vec![0, 4]];
    let right = verdicts(&prog, &g, &["a", "b"], &rows);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut wrong = g.clone();
    let mut changed = 0;
    for n in &mut wrong.nodes {
        let lambdas: Vec<Ref> = n
            .state
            .heap
            .iter()
            .filter(|(_, v)| matches!(v, HeapValue::Object { class, .. } if class.contains("$$Lambda$")))
            .map(|(r, _)| *r)
            .collect();
        for r in lambdas {
            let zero = n.state.new_int(Interval::literal(0));
            if let Some(HeapValue::Object { fields, .. }) = n.state.heap.get_mut(&r) {
                fields.insert(FieldKey::plain("arg$1"), zero);
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no lambda object in the graph");
    let caught = verdicts(&prog, &wrong, &["a", "b"], &rows);
    assert_eq!(violations(&caught), 2, "{caught:?}");
}

/// The run's lambda object is matched by the call site that made it: a graph that claims the
/// object of another lambda site of the class is caught on every run.
#[test]
fn a_lambda_object_of_another_call_site_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Indy.staticRef");
    let rows = vec![vec![1], vec![-7]];
    let right = verdicts(&prog, &g, &["x"], &rows);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut wrong = g.clone();
    let classes = lambda_classes(&mut wrong);
    assert!(!classes.is_empty(), "no lambda object in the graph");
    for class in classes {
        let (host, index) = class.rsplit_once("$$Lambda$").expect("lambda class");
        let other: u32 = index.parse::<u32>().expect("site number") + 1;
        *class = format!("{host}$$Lambda${other}");
    }
    let caught = verdicts(&prog, &wrong, &["x"], &rows);
    assert_eq!(violations(&caught), rows.len(), "{caught:?}");
}

/// A record's `equals` (an `ObjectMethods` call site) is `[0,1]`: `new Point(a, b).equals(new
/// Point(a, b))` is true on every run that builds the points, so a graph that claims it false
/// is caught on exactly those runs (a negative coordinate throws in the compact constructor).
#[test]
fn a_record_equals_claimed_false_is_caught() {
    let prog = program();
    let g = complete_graph(&prog, "everyday.Records.samePoint");
    let rows = vec![vec![0, 0], vec![3, 4], vec![7, 1], vec![-1, 2]];
    let right = verdicts(&prog, &g, &["a", "b"], &rows);
    assert!(right.iter().all(|v| *v == Verdict::Pass), "{right:?}");
    let mut wrong = g.clone();
    let mut changed = 0;
    let boolean = Interval::new(Some(0), Some(1)).unwrap();
    for n in &mut wrong.nodes {
        for v in n.state.heap.values_mut() {
            if *v == HeapValue::Int(boolean) {
                *v = HeapValue::Int(Interval::literal(0));
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no state holds equals' [0,1]");
    let caught = verdicts(&prog, &wrong, &["a", "b"], &rows);
    assert_eq!(violations(&caught), 3, "{caught:?}");
}
