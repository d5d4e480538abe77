//! Sizes without one field of every cycle (fixture `Doubly`, docs/proving.md *Sizes without a
//! field*): a doubly linked list built in a loop is `⟲{next,prev}` — every cycle runs through
//! both fields — so a walk along `prev` alone (or `next` alone) shrinks the number of objects
//! reachable without the other field, and ends; a ring closed both ways does not, and gets no
//! YES. The cross-check reads each such size on the JVM runs like any other quantity.

mod common;

/// `jtg prove Doubly.<method> --check 20 [extra]`: the verdict line, after asserting
/// 0 violations.
fn verdict(method: &str, extra: &[&str]) -> String {
    common::checked_verdict(&format!("Doubly.{method}"), extra)
}

#[test]
fn walks_along_one_field_of_a_doubly_linked_list_terminate() {
    // first() recurses along prev, countForward() loops along next
    for ints in ["unbounded", "java"] {
        let v = verdict("buildFirstCount", &["--ints", ints]);
        assert!(v.ends_with(": YES"), "{ints}: {v}");
    }
}

#[test]
fn a_ring_closed_both_ways_is_never_yes() {
    // head.prev = last, last.next = head: a cycle along prev alone
    let v = verdict("ringBack", &[]);
    assert!(!v.ends_with(": YES"), "{v}");
}
