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
//! the state holds. Any other comparator (a lambda, a method reference, `comparing…`,
//! `reversed()`) may run program code: unsupported, named.

const COLLECTIONS: &str = "java/util/Collections";

/// `java.util.Collections$ReverseComparator`, the class of `Collections.reverseOrder()`.
pub(crate) const REVERSE_COMPARATOR: &str = "java/util/Collections$ReverseComparator";

/// Whether `class.name desc` is `Collections.reverseOrder()` or `Comparator.reverseOrder()`.
pub(crate) fn is_reverse_order(class: &str, name: &str, desc: &str) -> bool {
    matches!(class, COLLECTIONS | "java/util/Comparator")
        && name == "reverseOrder"
        && desc == "()Ljava/util/Comparator;"
}

/// Whether an object of class `class` is a JDK comparator whose order the models may treat
/// as the natural one (see the module comment).
pub(crate) fn is_natural_like(class: &str) -> bool {
    class == REVERSE_COMPARATOR
}
