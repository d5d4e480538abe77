//! Which modelled collection classes an input may have, and which library calls make the
//! others (for the world's rapid type analysis).

use super::views::{View, ENTRY_CLASSES, HASH_KEY_ITERATOR, VIEW_CLASSES, VIEW_ITERATORS};
use super::{LINKED_HASH_MAP, LINKED_HASH_SET};

/// The classes whose objects only the library call `name desc` makes (for the world's rapid
/// type analysis): a map's `keySet()`, `values()`, `entrySet()` make views, their iterators
/// and entries.
pub fn made_by_call(name: &str, desc: &str) -> Vec<&'static str> {
    match (name, desc) {
        ("keySet" | "entrySet", "()Ljava/util/Set;") | ("values", "()Ljava/util/Collection;") => {
            (VIEW_CLASSES.into_iter().flatten())
                .chain(VIEW_ITERATORS.into_iter().flatten())
                .chain(ENTRY_CLASSES)
                .filter(|c| made_by_calls_only(c))
                .collect()
        }
        _ => vec![],
    }
}

/// Whether objects of `class` exist only where a library call made them ([`made_by_call`]):
/// no input is one, and a run whose code never calls one has none. (The key iterator of a
/// `HashMap` is also `HashSet`'s, made without a view.) So is a `Stack`, which only the run's
/// own `new` makes: an input `List` that may be a `Stack` would give every loop over a list
/// one more case (and before its iterator `Vector$Itr` was modelled, made it unsupported); the
/// checker draws none. Its superclass `Vector` has no model of its own. A `PriorityQueue` and
/// a `TreeSet` likewise (an input `Collection`, `Queue` or `Set` is drawn from the other
/// families, whose graphs stay as they were; a value declared of such a class is one). `LinkedHashMap` and `LinkedHashSet` (and so their
/// iterators) are the run's own too: an input `Map` or `Set` is not one of them (the closed
/// world of the modelled classes leaves them out as it leaves out every other JDK map), so
/// the graphs of methods over maps stay as they were; the checker draws none. So is
/// `Comparator.naturalOrder()`'s enum constant: an `Enum`, so `Comparable`, it would make every
/// input `Comparable` one whose `compareTo` reads an ordinal the state does not show.
pub fn made_by_calls_only(class: &str) -> bool {
    class == crate::models::orders::NATURAL_COMPARATOR
        || class == super::STACK
        || class == super::PRIORITY_QUEUE
        || class == super::TREE_SET
        || class == super::VECTOR
        || class == LINKED_HASH_MAP
        || class == LINKED_HASH_SET
        || class == super::DEQUE_ITERATOR
        || class == super::VECTOR_ITERATOR
        || class == super::QUEUE_ITERATOR
        || class == super::ARRAY_LIST_ITR
        || class == super::ABSTRACT_LIST_ITR
        || class == "java/util/AbstractList$Itr"
        || View::of_class(class).is_some()
        || View::of_iterator(class).is_some() && class != HASH_KEY_ITERATOR
        || ENTRY_CLASSES.contains(&class)
}
