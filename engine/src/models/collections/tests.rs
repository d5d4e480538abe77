//! Unit tests of the collection models' call table.

use super::*;

#[test]
fn list_of_counts_its_parameters() {
    assert_eq!(list_of_arity("()Ljava/util/List;"), Some(0));
    assert_eq!(
        list_of_arity("(Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;"),
        Some(2)
    );
    assert_eq!(list_of_arity("([Ljava/lang/Object;)Ljava/util/List;"), None);
    assert_eq!(list_of_class(2), LIST_12);
    assert_eq!(list_of_class(3), LIST_N);
    assert_eq!(list_of_class(0), LIST_N);
}

#[test]
fn the_table_names_the_modelled_methods_only() {
    assert_eq!(
        collection_call(ARRAY_LIST, "add", "(Ljava/lang/Object;)Z"),
        Some(CollCall::Add { returns_true: true })
    );
    assert_eq!(
        collection_call(LIST_N, "add", "(Ljava/lang/Object;)Z"),
        Some(CollCall::Immutable)
    );
    assert_eq!(
        collection_call(ARRAY_DEQUE, "pollFirst", "()Ljava/lang/Object;"),
        Some(CollCall::Head {
            end: End::First,
            remove: true,
            on_empty: OnEmpty::Null
        })
    );
    // a TreeMap's neighbours: a `HashMap` has none
    let nearest = "(Ljava/lang/Object;)Ljava/lang/Object;";
    assert_eq!(
        collection_call(TREE_MAP, "floorKey", nearest),
        Some(CollCall::Nearest)
    );
    assert_eq!(collection_call(HASH_MAP, "floorKey", nearest), None);
    // a Stack pushes and pops at its top, is never an input and iterates as a Vector
    assert_eq!(
        collection_call(STACK, "push", nearest),
        Some(CollCall::Push)
    );
    assert_eq!(Family::Stack.empty_exception(), EMPTY_STACK);
    assert_eq!(
        collection_call(STACK, "iterator", "()Ljava/util/Iterator;"),
        Some(CollCall::Iterator)
    );
    assert_eq!(Family::iterator_class_of(STACK), Some(VECTOR_ITERATOR));
    assert_eq!(iterated_type(VECTOR_ITERATOR), Some(STACK));
    assert!(made_by_calls_only(STACK) && made_by_calls_only(VECTOR));
    // a PriorityQueue: its head in priority order, never an input, iterated in heap order
    let getter = "()Ljava/lang/Object;";
    assert_eq!(
        collection_call(PRIORITY_QUEUE, "poll", getter),
        Some(CollCall::Head {
            end: End::First,
            remove: true,
            on_empty: OnEmpty::Null
        })
    );
    assert_eq!(
        collection_call(PRIORITY_QUEUE, "element", getter),
        Some(CollCall::Head {
            end: End::First,
            remove: false,
            on_empty: OnEmpty::Throw
        })
    );
    assert_eq!(
        collection_call(PRIORITY_QUEUE, "iterator", "()Ljava/util/Iterator;"),
        Some(CollCall::Iterator)
    );
    assert_eq!(iterated_type(QUEUE_ITERATOR), Some(PRIORITY_QUEUE));
    assert!(fail_fast(QUEUE_ITERATOR) && fail_fast(VECTOR_ITERATOR));
    assert!(made_by_calls_only(QUEUE_ITERATOR) && made_by_calls_only(VECTOR_ITERATOR));
    assert_eq!(collection_call(PRIORITY_QUEUE, "<init>", "(I)V"), None);
    assert!(made_by_calls_only(PRIORITY_QUEUE) && is_generated(PRIORITY_QUEUE));
    assert!(Family::PriorityQueue.null_throws() && !Family::PriorityQueue.may_hold_null());
    // a deque iterates with its own, not fail-fast iterator; a map only through its views
    assert_eq!(
        collection_call(ARRAY_DEQUE, "iterator", "()Ljava/util/Iterator;"),
        Some(CollCall::Iterator)
    );
    assert_eq!(Family::ArrayDeque.iterator_class(), Some(DEQUE_ITERATOR));
    assert_eq!(iterated_type(DEQUE_ITERATOR), Some(ARRAY_DEQUE));
    assert!(!fail_fast(DEQUE_ITERATOR) && fail_fast("java/util/ArrayList$Itr"));
    assert!(made_by_calls_only(DEQUE_ITERATOR));
    // listIterator(): each list's own class, never an input
    let li = "()Ljava/util/ListIterator;";
    assert_eq!(
        collection_call(ARRAY_LIST, "listIterator", li),
        Some(CollCall::ListIterator)
    );
    assert_eq!(collection_call(ARRAY_DEQUE, "listIterator", li), None);
    assert_eq!(
        Family::ArraysList.list_iterator_class(),
        Some(ABSTRACT_LIST_ITR)
    );
    assert_eq!(iterated_type(ARRAY_LIST_ITR), Some(ARRAY_LIST));
    assert!(made_by_calls_only(ARRAY_LIST_ITR) && made_by_calls_only(ABSTRACT_LIST_ITR));
    assert_eq!(
        collection_call(HASH_MAP, "iterator", "()Ljava/util/Iterator;"),
        None
    );
    assert_eq!(
        collection_call(HASH_MAP, "keySet", "()Ljava/util/Set;"),
        Some(CollCall::View(View {
            part: Part::Keys,
            map: MapClass::Hash
        }))
    );
    let values = View {
        part: Part::Values,
        map: MapClass::Tree,
    };
    assert_eq!(
        collection_call(TREE_MAP, "values", "()Ljava/util/Collection;"),
        Some(CollCall::View(values))
    );
    assert_eq!(View::of_class("java/util/TreeMap$Values"), Some(values));
    assert_eq!(
        View::of_iterator("java/util/TreeMap$ValueIterator"),
        Some(values)
    );
    assert_eq!(
        iterated_type("java/util/TreeMap$ValueIterator"),
        Some("java/util/TreeMap$Values")
    );
    assert_eq!(
        collection_call("java/util/ArrayList$Itr", "next", "()Ljava/lang/Object;"),
        Some(CollCall::Next)
    );
    for c in model_classes() {
        assert!(super::super::is_modelled_class(c), "{c}");
    }
}

#[test]
fn linked_hash_sets_and_maps_are_hash_ones_with_their_own_iterators_and_views() {
    assert_eq!(Family::of(LINKED_HASH_SET), Some(Family::HashSet));
    assert_eq!(Family::of(LINKED_HASH_MAP), Some(Family::HashMap));
    assert_eq!(
        Family::iterator_class_of(LINKED_HASH_SET),
        Some("java/util/LinkedHashMap$LinkedKeyIterator")
    );
    assert_eq!(
        Family::iterator_class_of(HASH_SET),
        Some("java/util/HashMap$KeyIterator")
    );
    let keys = View {
        part: Part::Keys,
        map: MapClass::Linked,
    };
    assert_eq!(
        collection_call(LINKED_HASH_MAP, "keySet", "()Ljava/util/Set;"),
        Some(CollCall::View(keys))
    );
    assert_eq!(keys.class(), "java/util/LinkedHashMap$LinkedKeySet");
    assert_eq!(keys.map_class(), LINKED_HASH_MAP);
    assert_eq!(
        MapClass::Linked.entry_class(),
        "java/util/LinkedHashMap$Entry"
    );
    assert_eq!(
        iterated_type("java/util/LinkedHashMap$LinkedKeyIterator"),
        Some("java/util/AbstractSet")
    );
    // no input of a wider type (a `Map` parameter's graph is what it was), drawn where declared
    for c in [LINKED_HASH_SET, LINKED_HASH_MAP] {
        assert!(made_by_calls_only(c) && is_generated(c), "{c}");
    }
    assert!(!is_generated(LIST_N) && !is_generated(ARRAYS_LIST));
}

#[test]
fn a_tree_set_is_a_sorted_set_of_integers_made_by_calls_only() {
    let getter = "()Ljava/lang/Object;";
    assert_eq!(
        collection_call(TREE_SET, "add", "(Ljava/lang/Object;)Z"),
        Some(CollCall::SetAdd)
    );
    assert_eq!(
        collection_call(TREE_SET, "first", getter),
        Some(CollCall::Head {
            end: End::First,
            remove: false,
            on_empty: OnEmpty::Throw
        })
    );
    assert_eq!(
        collection_call(TREE_SET, "pollLast", getter),
        Some(CollCall::Head {
            end: End::Last,
            remove: true,
            on_empty: OnEmpty::Null
        })
    );
    assert_eq!(
        collection_call(TREE_SET, "higher", "(Ljava/lang/Object;)Ljava/lang/Object;"),
        Some(CollCall::Nearest)
    );
    // its iterator is its map's key iterator; its copy constructor compares the elements
    assert_eq!(
        collection_call(TREE_SET, "iterator", "()Ljava/util/Iterator;"),
        Some(CollCall::Iterator)
    );
    assert_eq!(
        Family::iterator_class_of(TREE_SET),
        Some("java/util/TreeMap$KeyIterator")
    );
    assert_eq!(
        collection_call(TREE_SET, "<init>", "(Ljava/util/Collection;)V"),
        Some(CollCall::NewCopy)
    );
    // drawn only where a value is declared a TreeSet
    assert!(made_by_calls_only(TREE_SET));
    let f = Family::TreeSet;
    assert!(f.sorted() && f.null_throws() && !f.may_hold_null());
    assert!(!Family::HashSet.sorted() && Family::TreeMap.sorted());
}
