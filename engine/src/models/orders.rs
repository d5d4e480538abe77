//! The JDK's own comparators: the orders a sorted collection or a sort may take without
//! running program code.
//!
//! `Collections.reverseOrder()` ("Returns a comparator that imposes the reverse of the natural
//! ordering on a collection of objects that implement the Comparable interface") and
//! `Comparator.reverseOrder()` (which returns it) give the one object
//! `Collections.ReverseComparator.REVERSE_ORDER` (JDK 17), whose `compare(c1, c2)` is
//! `c2.compareTo(c1)`: JDK code for the elements the collection models admit (`Integer`,
//! `String`, `Character`: `elements::storable`), which throws exactly where the natural order
//! throws (a `null` element: NullPointerException; elements of two classes:
//! ClassCastException). So a `PriorityQueue` or a sort in that order is, for what the models
//! keep (sizes, which calls throw), the same as in the natural order; the elements' order is
//! not kept either way. The object is a singleton: the result may be (`=?`) every such object
//! the state holds. `Comparator.naturalOrder()` gives the one object
//! `Comparators.NaturalOrderComparator.INSTANCE` (JDK 17: an enum constant), whose
//! `compare(c1, c2)` is `c1.compareTo(c2)`: the natural order itself. Any other comparator (a
//! lambda, a method reference, `comparing…`, `reversed()`) may run program code: unsupported,
//! named.

const COLLECTIONS: &str = "java/util/Collections";

/// `java.util.Collections$ReverseComparator`, the class of `Collections.reverseOrder()`.
pub(crate) const REVERSE_COMPARATOR: &str = "java/util/Collections$ReverseComparator";

/// `java.util.Comparators$NaturalOrderComparator`, the class of `Comparator.naturalOrder()`.
pub(crate) const NATURAL_COMPARATOR: &str = "java/util/Comparators$NaturalOrderComparator";

/// The class of the one comparator `class.name desc` returns, if it is a JDK order the models
/// keep: `Collections.reverseOrder()`, `Comparator.reverseOrder()`,
/// `Comparator.naturalOrder()`.
pub(crate) fn jdk_order(class: &str, name: &str, desc: &str) -> Option<&'static str> {
    if desc != "()Ljava/util/Comparator;" {
        return None;
    }
    match (class, name) {
        (COLLECTIONS | "java/util/Comparator", "reverseOrder") => Some(REVERSE_COMPARATOR),
        ("java/util/Comparator", "naturalOrder") => Some(NATURAL_COMPARATOR),
        _ => None,
    }
}

/// Whether an object of class `class` is a JDK comparator whose order the models may treat
/// as the natural one (see the module comment).
pub(crate) fn is_natural_like(class: &str) -> bool {
    class == REVERSE_COMPARATOR || class == NATURAL_COMPARATOR
}
