//! The iterators of the collections: which JDK 17 class `iterator()` and `listIterator()`
//! return for each family, what each iterates (the type of its `of` field), and which are
//! fail-fast.

use super::views::{View, HASH_KEY_ITERATOR, LINKED_KEY_ITERATOR, TREE_KEY_ITERATOR};
use super::{
    Family, ARRAYS_LIST, ARRAY_DEQUE, ARRAY_LIST, LINKED_HASH_SET, LINKED_LIST, LIST,
    PRIORITY_QUEUE, STACK,
};

/// The iterator of an immutable list (`List.of`): `remove()` is unsupported.
pub const IMMUTABLE_LIST_ITR: &str = "java/util/ImmutableCollections$ListItr";
/// `ArrayList.listIterator()`'s class, a subclass of `ArrayList$Itr`
/// (`LinkedList.listIterator()` returns the `LinkedList$ListItr` its `iterator()` does).
pub const ARRAY_LIST_ITR: &str = "java/util/ArrayList$ListItr";
/// `listIterator()` of an `Arrays.asList` list (`AbstractList`'s): `remove()` throws
/// IllegalStateException before a `next()`, else UnsupportedOperationException.
pub const ABSTRACT_LIST_ITR: &str = "java/util/AbstractList$ListItr";
/// The iterator of an `Arrays.asList` list: `remove()` is unsupported.
pub const ARRAYS_ITR: &str = "java/util/Arrays$ArrayItr";
/// The iterator of an `ArrayDeque` (JDK 17 `ArrayDeque$DeqIterator`): its own `remaining`
/// count, which only its `next()` lowers; not fail-fast ([`fail_fast`]).
pub const DEQUE_ITERATOR: &str = "java/util/ArrayDeque$DeqIterator";
/// The iterator of a `Stack` (a `Vector`'s, JDK 17 `Vector$Itr`): in index order, fail-fast.
pub const VECTOR_ITERATOR: &str = "java/util/Vector$Itr";
/// The iterator of a `PriorityQueue` (JDK 17 `PriorityQueue$Itr`): in heap order, which the
/// model does not keep; fail-fast. Its `remaining` counts the heap's slots from its cursor on
/// and the elements a `remove()` moved behind the cursor (its `forgetMeNot`), which it still
/// returns.
pub const QUEUE_ITERATOR: &str = "java/util/PriorityQueue$Itr";
impl Family {
    /// The class of the object `iterator()` of a collection of class `class` returns (JDK 17);
    /// `None`: iteration of its family is not modelled.
    pub fn iterator_class_of(class: &str) -> Option<&'static str> {
        if class == LINKED_HASH_SET {
            return Some(LINKED_KEY_ITERATOR);
        }
        Family::of(class)?.iterator_class()
    }

    /// The class of the object `iterator()` returns (JDK 17) for the family's first class;
    /// `None`: iteration of this family is not modelled.
    pub fn iterator_class(self) -> Option<&'static str> {
        Some(match self {
            Family::ArrayList => "java/util/ArrayList$Itr",
            Family::LinkedList => "java/util/LinkedList$ListItr",
            Family::ArrayDeque => DEQUE_ITERATOR,
            Family::HashSet => HASH_KEY_ITERATOR,
            // `m.navigableKeySet().iterator()` of its `TreeMap` `m`
            Family::TreeSet => TREE_KEY_ITERATOR,
            Family::Stack => VECTOR_ITERATOR,
            Family::PriorityQueue => QUEUE_ITERATOR,
            Family::Immutable => IMMUTABLE_LIST_ITR,
            Family::ArraysList => ARRAYS_ITR,
            Family::HashMap | Family::TreeMap => return None,
        })
    }

    /// The class of the object `listIterator()` returns (JDK 17), for the lists.
    pub fn list_iterator_class(self) -> Option<&'static str> {
        Some(match self {
            Family::ArrayList => ARRAY_LIST_ITR,
            Family::LinkedList => "java/util/LinkedList$ListItr",
            Family::Immutable => IMMUTABLE_LIST_ITR,
            Family::ArraysList => ABSTRACT_LIST_ITR,
            _ => return None,
        })
    }
}

/// The iterator class `class` iterates: the type of its `of` field.
pub fn iterated_type(iterator_class: &str) -> Option<&'static str> {
    Some(match iterator_class {
        "java/util/ArrayList$Itr" | ARRAY_LIST_ITR => ARRAY_LIST,
        "java/util/LinkedList$ListItr" => LINKED_LIST,
        // a `HashSet` or a map's key set (a `LinkedHashSet` or a `LinkedHashMap`'s, a `TreeSet`
        // or a `TreeMap`'s)
        HASH_KEY_ITERATOR | LINKED_KEY_ITERATOR | TREE_KEY_ITERATOR => "java/util/AbstractSet",
        c if View::of_iterator(c).is_some() => return View::of_iterator(c).map(View::class),
        IMMUTABLE_LIST_ITR => LIST,
        ARRAYS_ITR | ABSTRACT_LIST_ITR => ARRAYS_LIST,
        DEQUE_ITERATOR => ARRAY_DEQUE,
        VECTOR_ITERATOR => STACK,
        QUEUE_ITERATOR => PRIORITY_QUEUE,
        _ => return None,
    })
}

/// Whether the iterator class `class` is fail-fast: a structural modification of its
/// collection other than through it makes it throw ConcurrentModificationException ("on a
/// best-effort basis"; the model's `remaining` becomes `-1`, as the JVM side records it). An
/// `ArrayDeque`'s is not: it counts down its own `remaining` whatever happens to the deque,
/// and its `next()` throws ConcurrentModificationException only where it meets an empty slot
/// (JDK 17 `nonNullElementAt`), which the model does not know: every `next()` of one may
/// throw it.
pub fn fail_fast(class: &str) -> bool {
    class != DEQUE_ITERATOR
}
