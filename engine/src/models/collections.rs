//! Models of `java.util` collections: `ArrayList`, `LinkedList`, `ArrayDeque`, `HashSet`,
//! `HashMap`, `LinkedHashSet` and `LinkedHashMap` (as `HashSet` and `HashMap`: they differ
//! only in the order of iteration, which the model does not keep), `TreeMap`, `TreeSet`, `Stack`, `PriorityQueue`, the immutable lists of `List.of` and the fixed-size list of
//! `Arrays.asList`, the `keySet()`/`values()`/`entrySet()` views of the maps and their entries,
//! the iterators of the lists, of `HashSet` and of the views, and the `java.util.Collections`
//! helpers `sort`, `reverse`, `max`/`min`, `frequency`.
//!
//! What the model keeps: a collection is an object with one field `size` (its `size()`, ≥ 0);
//! a map's view one field `of` (its map, whose size it shares; see [`View`]); an iterator is an
//! object with two fields, `of` (the collection or view it iterates) and `remaining`
//! (how many elements `next()` still returns: ≥ 0; `-1` once the collection was structurally
//! modified other than through the iterator, when the JDK's "fail-fast" behaviour is only "on
//! a best-effort basis"). The checker compares both with what the JVM side records for the
//! same objects (`jvm/java/tracer/Library.java`). Elements are not kept: a collection holds
//! objects of the classes of `super::elements::ElementTypes` (`Integer` boxes, strings; or
//! `null` where the class permits it); storing any other object is unsupported, so that
//! `equals`, `hashCode` and `compareTo` of an element are always the JDK's own, never program
//! code. An element read back is any object of those classes the state may hold or a new one
//! (or `null`); where there are several, one of static type `Object`.
//!
//! The classes named here are the JDK 17 implementation classes (`ArrayList$Itr`,
//! `ImmutableCollections$ListN`, …): the Javadoc does not name them, the checker verifies them
//! on every run.

use super::classes::{OBJECT, STRING};
use super::text::INTEGER;

mod iterators;
mod views;
mod world;
pub use iterators::{
    fail_fast, iterated_type, ABSTRACT_LIST_ITR, ARRAYS_ITR, ARRAY_LIST_ITR, DEQUE_ITERATOR,
    IMMUTABLE_LIST_ITR, QUEUE_ITERATOR, VECTOR_ITERATOR,
};
pub use views::{MapClass, Part, View, ENTRY_CLASSES};
use views::{VIEW_CLASSES, VIEW_ITERATORS};
pub use world::{made_by_call, made_by_calls_only};

pub const ARRAY_LIST: &str = "java/util/ArrayList";
pub const LINKED_LIST: &str = "java/util/LinkedList";
pub const ARRAY_DEQUE: &str = "java/util/ArrayDeque";
pub const HASH_SET: &str = "java/util/HashSet";
pub const HASH_MAP: &str = "java/util/HashMap";
/// `java.util.LinkedHashSet`: "Hash table and linked list implementation of the Set interface,
/// with predictable iteration order".
pub const LINKED_HASH_SET: &str = "java/util/LinkedHashSet";
/// `java.util.LinkedHashMap` in insertion order (its access-order constructor has no model).
pub const LINKED_HASH_MAP: &str = "java/util/LinkedHashMap";
pub const TREE_MAP: &str = "java/util/TreeMap";
/// `java.util.TreeSet` in the natural ordering of its elements: "A NavigableSet implementation
/// based on a TreeMap".
pub const TREE_SET: &str = "java/util/TreeSet";
/// `java.util.Stack` (a `Vector`): "a last-in-first-out (LIFO) stack of objects".
pub const STACK: &str = "java/util/Stack";
/// `java.util.PriorityQueue` in its natural ordering: "An unbounded priority queue based on a
/// priority heap".
pub const PRIORITY_QUEUE: &str = "java/util/PriorityQueue";
/// `Stack`'s superclass, not modelled itself.
pub const VECTOR: &str = "java/util/Vector";
/// Thrown by `Stack.pop()`/`peek()`: "if this stack is empty".
pub const EMPTY_STACK: &str = "java/util/EmptyStackException";
/// `List.of(e1, e2, e3, …)` (three or more elements) and `List.of()` (the one empty list).
pub const LIST_N: &str = "java/util/ImmutableCollections$ListN";
/// `List.of(e1)`, `List.of(e1, e2)`.
pub const LIST_12: &str = "java/util/ImmutableCollections$List12";
/// `Arrays.asList(a)`: a fixed-size list backed by `a`.
pub const ARRAYS_LIST: &str = "java/util/Arrays$ArrayList";
/// The interface `List` (`List.of`, the type an immutable list's iterator iterates).
pub const LIST: &str = "java/util/List";
/// Thrown by `next()` past the end, `getFirst()`/`pop()`/`firstKey()` of an empty collection.
pub const NO_SUCH_ELEMENT: &str = "java/util/NoSuchElementException";
/// "fail-fast" iterators, "on a best-effort basis".
pub const CONCURRENT_MODIFICATION: &str = "java/util/ConcurrentModificationException";
pub const UNSUPPORTED_OPERATION: &str = "java/lang/UnsupportedOperationException";
pub const ILLEGAL_STATE: &str = "java/lang/IllegalStateException";
pub const INDEX_OUT_OF_BOUNDS: &str = "java/lang/IndexOutOfBoundsException";
/// The type of `toArray()`'s result: "The runtime component type of the returned array is
/// Object".
pub const OBJECT_ARRAY: &str = "[Ljava/lang/Object;";
/// The field of a collection that holds its size.
pub const SIZE: &str = "size";
/// The field of an iterator that holds the collection it iterates.
pub const OF: &str = "of";
/// The field of an iterator that holds the number of elements it still returns.
pub const REMAINING: &str = "remaining";

/// A modelled collection class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    ArrayList,
    LinkedList,
    ArrayDeque,
    HashSet,
    HashMap,
    TreeMap,
    /// `TreeSet` in the natural ordering of its elements.
    TreeSet,
    Stack,
    /// `PriorityQueue` in the natural ordering of its elements.
    PriorityQueue,
    /// `List.of`: `ImmutableCollections$ListN` and `$List12`.
    Immutable,
    /// `Arrays.asList`.
    ArraysList,
}

impl Family {
    /// The family of the exact class `class`.
    pub fn of(class: &str) -> Option<Family> {
        Some(match class {
            ARRAY_LIST => Family::ArrayList,
            LINKED_LIST => Family::LinkedList,
            ARRAY_DEQUE => Family::ArrayDeque,
            HASH_SET | LINKED_HASH_SET => Family::HashSet,
            HASH_MAP | LINKED_HASH_MAP => Family::HashMap,
            TREE_MAP => Family::TreeMap,
            TREE_SET => Family::TreeSet,
            STACK => Family::Stack,
            PRIORITY_QUEUE => Family::PriorityQueue,
            LIST_N | LIST_12 => Family::Immutable,
            ARRAYS_LIST => Family::ArraysList,
            _ => return None,
        })
    }

    /// Whether an element (a value of a map) read back may be `null`: the class permits
    /// `null` elements. `ArrayDeque`: "Null elements are prohibited"; `List.of`: "They disallow
    /// null elements"; `PriorityQueue`: "does not permit null elements"; a `TreeSet` in natural
    /// ordering compares every element it adds (`null` throws).
    pub fn may_hold_null(self) -> bool {
        !matches!(
            self,
            Family::ArrayDeque | Family::Immutable | Family::PriorityQueue | Family::TreeSet
        )
    }

    /// Whether storing `null` throws NullPointerException (`ArrayDeque.addLast`: "if the
    /// specified element is null"; `TreeMap.put`: "if the specified key is null and this map
    /// uses natural ordering"; `PriorityQueue.offer`: "if the specified element is null";
    /// `TreeSet.add`: "if the specified element is null and this set uses natural ordering").
    pub fn null_throws(self) -> bool {
        matches!(
            self,
            Family::ArrayDeque
                | Family::TreeMap
                | Family::TreeSet
                | Family::Immutable
                | Family::PriorityQueue
        )
    }

    /// Whether the family keeps its elements (a map its keys) sorted by `compareTo`, so that
    /// a query (`contains`, `remove`, `get`) compares its argument too: `null` throws
    /// NullPointerException, an object of another class ClassCastException. Their modelled
    /// elements (keys) are `Integer`s only.
    pub fn sorted(self) -> bool {
        matches!(self, Family::TreeMap | Family::TreeSet)
    }

    /// Whether storing an element compares it with the others by `compareTo` (a
    /// `PriorityQueue` in natural ordering: "ClassCastException - if the specified element
    /// cannot be compared with elements currently in this priority queue"), so that the
    /// elements must all be of one class.
    pub fn compares_elements(self) -> bool {
        self == Family::PriorityQueue
    }

    /// The exception of a head (`pop`, `peek`, `getFirst`, …) of an empty collection:
    /// `Stack`'s "EmptyStackException - if this stack is empty", the deques'
    /// NoSuchElementException.
    pub fn empty_exception(self) -> &'static str {
        match self {
            Family::Stack => EMPTY_STACK,
            _ => NO_SUCH_ELEMENT,
        }
    }

    /// The exception of an index outside the list (`get`, `set`, `remove(int)`): the Javadoc's
    /// `IndexOutOfBoundsException`; the JDK 17 classes backed by a plain array throw its
    /// subclass `ArrayIndexOutOfBoundsException` (`ListN.get`, `Arrays$ArrayList.get`).
    pub fn index_exception(self, class: &str) -> &'static str {
        match (self, class) {
            (Family::Immutable, LIST_N) | (Family::ArraysList, _) => {
                super::exceptions::ARRAY_INDEX_OUT_OF_BOUNDS
            }
            _ => INDEX_OUT_OF_BOUNDS,
        }
    }
}

/// Where a list operation's element comes from or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum End {
    First,
    Last,
}

/// What a deque operation does on an empty collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OnEmpty {
    /// `getFirst`, `element`, `pop`, `removeFirst`, `remove()`: "NoSuchElementException - if
    /// this deque is empty".
    Throw,
    /// `peek`, `poll`, …: "or returns null if this deque is empty".
    Null,
}

/// A collection method with a model. Every variant's receiver is a realized collection of a
/// [`Family`] (or an iterator); arguments stored as elements must be `null` or of a
/// [`super::elements::storable`] class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CollCall {
    /// `<init>()`: the object `new` made, `size` 0.
    New,
    /// `ArrayList(int)`, `HashMap(int)`, `HashSet(int)`: "IllegalArgumentException - if the
    /// specified initial capacity is negative" (`throws`); `ArrayDeque(int)` declares none.
    NewCapacity { throws: bool },
    /// `PriorityQueue(Comparator)` and `PriorityQueue(int, Comparator)` (IllegalArgumentException
    /// "if initialCapacity is less than 1") with `null` or a JDK order (`orders`): the natural
    /// ordering's queue as far as the model keeps it.
    NewOrdered { capacity: bool },
    /// `Collections.reverseOrder()`, `Comparator.reverseOrder()`, `Comparator.naturalOrder()`:
    /// the JDK's one comparator of that order, of the class given (`orders`).
    JdkOrder(&'static str),
    /// `ArrayList(Collection)`, `LinkedList(Collection)`, `ArrayDeque(Collection)`,
    /// `HashSet(Collection)`: "NullPointerException - if the specified collection is null";
    /// the size of the argument (a set: at most that, duplicates collapse). `HashMap(Map)`
    /// (and `LinkedHashMap(Map)`): the same for a map, whose copy has its size.
    NewCopy,
    /// `size()`.
    Size,
    /// `isEmpty()`: "true if this collection contains no elements".
    IsEmpty,
    /// Adds one element at an end: `add(E)` ("Returns: true", `returns_true`), `addLast`,
    /// `addFirst`, `push`, `offer…` (`returns_true`).
    Add { returns_true: bool },
    /// `Stack.push(E)`: "Pushes an item onto the top of this stack"; "Returns: the item
    /// argument".
    Push,
    /// `add(int index, E)`: "IndexOutOfBoundsException - if the index is out of range (index <
    /// 0 || index > size())".
    AddAt,
    /// `get(int)`: "IndexOutOfBoundsException - if the index is out of range (index < 0 ||
    /// index >= size())".
    Get,
    /// `set(int, E)`: as `get`; returns the element it replaced; not a structural change.
    Set,
    /// `remove(int)`: as `get`; the size falls by one.
    RemoveAt,
    /// A deque head or tail: returns it (`remove`: and removes it), or `onEmpty`.
    Head {
        end: End,
        remove: bool,
        on_empty: OnEmpty,
    },
    /// `contains(Object)`/`containsKey(Object)` (`index: false`, `[0,1]`, `0` when empty) and
    /// `indexOf(Object)` (`[-1, size-1]`): they call `o.equals(e)`, JDK code for the `Integer`
    /// and `String` arguments the model admits (a `TreeMap` calls `compareTo`: its keys are
    /// `Integer`s, so a `String` throws ClassCastException on a non-empty one).
    Query { index: bool },
    /// `remove(Object)` of a list or set: `[0,1]`; the size falls by one or stays.
    RemoveObject,
    /// `HashSet.add(E)`: "true if this set did not already contain the specified element";
    /// the size grows by one or stays.
    SetAdd,
    /// `put(K, V)`: "the previous value associated with key, or null"; the size grows by one
    /// or stays.
    Put,
    /// `Map.merge(key, value, f)`: "If the specified key is not already associated with a
    /// value or is associated with null, associates it with the given non-null value.
    /// Otherwise, replaces the associated value with the results of the given remapping
    /// function"; "NullPointerException - if the specified key is null and this map does not
    /// support null keys or the value or remappingFunction is null". Modelled where `f` is a
    /// method reference to a JDK method [`combiner_result`] names (`Integer::sum`), which
    /// never returns `null` nor runs program code: the size grows by one (a new key, the
    /// result is `value`) or stays (the result is `f`'s, of the class it names).
    Merge,
    /// `get(Object)` ("or null if this map contains no mapping for the key"), `getOrDefault`
    /// (`default`: the value, or the given default).
    MapGet { default: bool },
    /// `Map.remove(Object)`: the previous value or null; the size falls by one or stays.
    MapRemove,
    /// `TreeMap.firstKey()`/`lastKey()`: "NoSuchElementException - if this map is empty".
    FirstKey,
    /// `TreeMap.floorKey`/`ceilingKey`/`higherKey`/`lowerKey(K)`: "the greatest key less than
    /// or equal to key, or null if there is no such key" (and the like): a key or `null`, no
    /// order claimed. JDK 17 compares the argument with keys only while walking down from the
    /// root (`getFloorEntry`: `compare(key, p.key)` while `p != null`): an empty map returns
    /// `null` for any argument; else `null` throws NullPointerException and a non-`Integer`
    /// ClassCastException (natural ordering; the keys are `Integer`s).
    Nearest,
    /// `clear()`: size 0.
    Clear,
    /// `iterator()`: a new iterator with `remaining` = size.
    Iterator,
    /// `listIterator()` of a list: [`CollCall::Iterator`] with the list's `ListIterator` class
    /// ([`Family::list_iterator_class`]; its `hasNext`/`next`/`remove`, the other
    /// `ListIterator` methods have no model).
    ListIterator,
    /// `Iterator.hasNext()`: `remaining > 0` (either after a concurrent modification).
    HasNext,
    /// `Iterator.next()`: "NoSuchElementException - if the iteration has no more elements".
    Next,
    /// `Iterator.remove()`: "IllegalStateException - if the next method has not yet been
    /// called, or the remove method has already been called after the last call to the next
    /// method"; `UnsupportedOperationException` of the immutable and fixed-size lists.
    IterRemove,
    /// A mutator of `List.of`'s lists ("Calls to mutator methods will always cause
    /// UnsupportedOperationException to be thrown") or of `Arrays.asList`'s fixed-size list
    /// (`add`, `remove`, `clear`: `AbstractList`'s "Throws: UnsupportedOperationException").
    Immutable,
    /// `remove(Object)` (`clear: false`) and `clear()` of `Arrays.asList`'s fixed-size list:
    /// `AbstractCollection.remove` and `AbstractList.clear` remove through the list's
    /// iterator, whose `remove()` throws UnsupportedOperationException, so they throw only
    /// when there is an element to remove: an empty list returns `false` (does nothing), a
    /// `clear()` of a non-empty one throws, a `remove(o)` of one returns `false` (no element
    /// equal to `o`) or throws.
    FixedSizeRemoval { clear: bool },
    /// `Collections.sort(List)`, `List.sort(null)`, and both with a JDK order (`orders`:
    /// `Collections.sort(List, Comparator)`, `List.sort(Comparator)`): the natural order of
    /// `Integer`s or of `String`s; a `null` element throws NullPointerException (`compareTo`); unsupported
    /// where the collections may hold both (ClassCastException across them).
    Sort,
    /// `Collections.reverse(List)`: swaps elements by `set` (no structural change, so every
    /// iterator stays valid); "UnsupportedOperationException - if the specified list or its
    /// list-iterator does not support the set operation" (`List.of` with two or more elements);
    /// NPE for `null`.
    Reverse,
    /// `Collections.swap(List, int, int)`: JDK 17's `l.set(i, l.set(j, l.get(i)))`:
    /// "IndexOutOfBoundsException - if either i or j is out of range (i < 0 || i >=
    /// list.size() || j < 0 || j >= list.size())" (of the class `get` and `set` throw:
    /// `ArrayIndexOutOfBoundsException` for `Arrays.asList`'s array), else
    /// UnsupportedOperationException for `List.of`'s lists (their `set` always throws), else no
    /// structural change; NPE for `null`.
    Swap,
    /// `Collections.max`/`min(Collection)` in the natural order: "NoSuchElementException - if
    /// the collection is empty"; one element is returned as is (`null` included), among two or
    /// more a `null` throws NullPointerException (`Integer.compareTo`); else one of the
    /// elements. NPE for a `null` collection.
    Extreme,
    /// `Collections.frequency(c, o)`: "the number of elements in c equal to o": `[0, size]`
    /// (`o.equals(e)`: JDK code for the `Integer` and `String` arguments the model admits);
    /// NPE for a `null` collection.
    Frequency,
    /// `List.of(e1, …, en)`, 0 ≤ n ≤ 10: "NullPointerException - if an element is null";
    /// `List.of()` is JDK 17's one empty `ListN` (`=?` every such list the state holds).
    ListOf,
    /// `List.copyOf(Collection)` (JDK 17 `ImmutableCollections.listCopy`): a `List.of` list
    /// itself; NPE for `null`; `List.of()` when empty; NPE when an element is `null`
    /// ("NullPointerException - if coll is null, or if it contains any nulls"); else a new
    /// `List12` (one or two elements) or `ListN` of the same size.
    CopyOf,
    /// `Arrays.asList(T...)` of an `Integer[]` or `String[]`: a list of the array's length.
    AsList,
    /// `keySet()`/`values()`/`entrySet()` of a `HashMap` or `TreeMap`: the map's view (see
    /// [`View`]), the one the map already has if the state holds it.
    View(View),
    /// `Map.Entry.getKey()`/`getValue()` of a map's entry: an element.
    EntryPart,
    /// `ArrayList.addAll(Collection)`/`LinkedList.addAll(Collection)` of a collection (or a
    /// map's key or value view): "Appends all of the elements in the specified collection to
    /// the end of this list"; "true if this list changed as a result of the call" (the
    /// argument was not empty); "NullPointerException - if the specified collection is null".
    /// Its elements are already of the element types. JDK 17 `ArrayList` counts a structural
    /// change even for an empty argument, `LinkedList` does not. `HashSet.addAll`
    /// (`AbstractCollection`'s loop of `add`): the size grows by at most the argument's size
    /// (`size' ≥ size`; duplicates are not added), the result is whether it grew.
    AddAll,
    /// `toArray()` (`typed: false`): "an array containing all of the elements", whose "runtime
    /// component type ... is Object"; `toArray(T[] a)`: `a` itself when the elements fit
    /// (supported for `a.length == 0` only, where nothing is written into `a`), else "a new
    /// array ... allocated with the runtime type of the specified array and the size of this
    /// collection"; "ArrayStoreException - if the runtime type of the specified array is not a
    /// supertype of the runtime type of every element", NPE for `null`.
    ToArray { typed: bool },
    /// `String.join(CharSequence delimiter, Iterable elements)` (`iterable`) or
    /// `join(CharSequence, CharSequence...)`: a string ("a new String", of unknown contents:
    /// length ≥ 0); "NullPointerException - If delimiter or elements is null"; a `null` element
    /// is added as `"null"`. JDK 17 iterates `for (CharSequence cs : elements)`, so an element
    /// that is no `CharSequence` (an `Integer`) throws ClassCastException; each element and
    /// the delimiter are turned into strings by `toString()`, JDK code only for `String`s.
    Join { iterable: bool },
}

const OBJ: &str = "Ljava/lang/Object;";
const SORT_WITH: &str = "(Ljava/util/List;Ljava/util/Comparator;)V";
const JOIN_ITERABLE: &str = "(Ljava/lang/CharSequence;Ljava/lang/Iterable;)Ljava/lang/String;";
const JOIN_ARRAY: &str = "(Ljava/lang/CharSequence;[Ljava/lang/CharSequence;)Ljava/lang/String;";

/// The model of `class.name desc` where `class` is a modelled collection or iterator class
/// (the exact class of the receiver), or the static methods `List.of`, `Arrays.asList`,
/// `Collections.sort`.
pub fn collection_call(class: &str, name: &str, desc: &str) -> Option<CollCall> {
    use CollCall::*;
    if let Some(order) = super::orders::jdk_order(class, name, desc) {
        return Some(JdkOrder(order));
    }
    match (class, name, desc) {
        (LIST, "of", d) if list_of_arity(d).is_some() => return Some(ListOf),
        (LIST, "copyOf", "(Ljava/util/Collection;)Ljava/util/List;") => return Some(CopyOf),
        ("java/util/Arrays", "asList", "([Ljava/lang/Object;)Ljava/util/List;") => {
            return Some(AsList)
        }
        ("java/util/Collections", "sort", "(Ljava/util/List;)V" | SORT_WITH) => return Some(Sort),
        ("java/util/Collections", "reverse", "(Ljava/util/List;)V") => return Some(Reverse),
        ("java/util/Collections", "swap", "(Ljava/util/List;II)V") => return Some(Swap),
        ("java/util/Collections", "max" | "min", "(Ljava/util/Collection;)Ljava/lang/Object;") => {
            return Some(Extreme)
        }
        ("java/util/Collections", "frequency", "(Ljava/util/Collection;Ljava/lang/Object;)I") => {
            return Some(Frequency)
        }
        (STRING, "join", JOIN_ITERABLE) => return Some(Join { iterable: true }),
        (STRING, "join", JOIN_ARRAY) => return Some(Join { iterable: false }),
        _ => {}
    }
    if ENTRY_CLASSES.contains(&class) {
        return match (name, desc) {
            ("getKey" | "getValue", d) if d == format!("(){OBJ}") => Some(EntryPart),
            _ => None,
        };
    }
    if self::View::of_class(class).is_some() {
        // a view's own queries; mutators through the view are not modelled
        return match (name, desc) {
            ("size", "()I") => Some(Size),
            ("isEmpty", "()Z") => Some(IsEmpty),
            ("iterator", "()Ljava/util/Iterator;") => Some(Iterator),
            _ => None,
        };
    }
    if iterated_type(class).is_some() {
        return match (name, desc) {
            ("hasNext", "()Z") => Some(HasNext),
            ("next", d) if d == format!("(){OBJ}") => Some(Next),
            ("remove", "()V") => Some(IterRemove),
            _ => None,
        };
    }
    let family = Family::of(class)?;
    let obj1 = format!("({OBJ})Z");
    let getter = format!("(){OBJ}");
    let map = matches!(family, Family::HashMap | Family::TreeMap);
    let common = match (name, desc) {
        ("size", "()I") => Some(Size),
        ("toArray", "()[Ljava/lang/Object;") if !map => Some(ToArray { typed: false }),
        ("toArray", "([Ljava/lang/Object;)[Ljava/lang/Object;") if !map => {
            Some(ToArray { typed: true })
        }
        ("isEmpty", "()Z") => Some(IsEmpty),
        ("iterator", "()Ljava/util/Iterator;") if family.iterator_class().is_some() => {
            Some(Iterator)
        }
        ("listIterator", "()Ljava/util/ListIterator;")
            if family.list_iterator_class().is_some() =>
        {
            Some(ListIterator)
        }
        ("<init>", "()V") if family != Family::Immutable && family != Family::ArraysList => {
            Some(New)
        }
        _ => None,
    };
    if common.is_some() {
        return common;
    }
    let is_list = matches!(
        family,
        Family::ArrayList | Family::LinkedList | Family::Immutable | Family::ArraysList
    );
    let mutable_list = matches!(family, Family::ArrayList | Family::LinkedList);
    if is_list {
        let r = match (name, desc) {
            ("get", d) if d == format!("(I){OBJ}") => Get,
            ("contains", d) if d == obj1 => Query { index: false },
            ("indexOf", d) if d == format!("({OBJ})I") => Query { index: true },
            ("set", d) if d == format!("(I{OBJ}){OBJ}") => {
                if family == Family::Immutable {
                    Immutable
                } else {
                    Set
                }
            }
            ("sort", "(Ljava/util/Comparator;)V") => Sort,
            ("add", d) if d == obj1 => match mutable_list {
                true => Add { returns_true: true },
                false => Immutable,
            },
            ("add", d) if d == format!("(I{OBJ})V") => match mutable_list {
                true => AddAt,
                false => Immutable,
            },
            ("remove", d) if d == format!("(I){OBJ}") => match mutable_list {
                true => RemoveAt,
                false => Immutable,
            },
            ("remove", d) if d == obj1 && family == Family::ArraysList => {
                FixedSizeRemoval { clear: false }
            }
            ("clear", "()V") if family == Family::ArraysList => FixedSizeRemoval { clear: true },
            ("remove", d) if d == obj1 => match mutable_list {
                true => RemoveObject,
                false => Immutable,
            },
            ("clear", "()V") => match mutable_list {
                true => Clear,
                false => Immutable,
            },
            ("<init>", "(Ljava/util/Collection;)V") if mutable_list => NewCopy,
            ("addAll", "(Ljava/util/Collection;)Z") if family != Family::ArraysList => {
                match mutable_list {
                    true => AddAll,
                    false => Immutable,
                }
            }
            ("<init>", "(I)V") if family == Family::ArrayList => NewCapacity { throws: true },
            _ if family == Family::LinkedList => return deque_call(name, desc),
            _ => return None,
        };
        return Some(r);
    }
    match family {
        Family::ArrayDeque => match (name, desc) {
            ("<init>", "(I)V") => Some(NewCapacity { throws: false }),
            ("<init>", "(Ljava/util/Collection;)V") => Some(NewCopy),
            ("contains", d) if d == obj1 => Some(Query { index: false }),
            ("add", d) if d == obj1 => Some(Add { returns_true: true }),
            ("clear", "()V") => Some(Clear),
            _ => deque_call(name, desc),
        },
        // `Stack`'s own methods and `Vector`'s `add`/`clear` (the top is the last element)
        Family::Stack => match (name, desc) {
            ("push", d) if d == format!("({OBJ}){OBJ}") => Some(Push),
            ("pop", d) if d == getter => Some(Head {
                end: End::Last,
                remove: true,
                on_empty: OnEmpty::Throw,
            }),
            ("peek", d) if d == getter => Some(Head {
                end: End::Last,
                remove: false,
                on_empty: OnEmpty::Throw,
            }),
            ("empty", "()Z") => Some(IsEmpty),
            ("add", d) if d == obj1 => Some(Add { returns_true: true }),
            ("clear", "()V") => Some(Clear),
            _ => None,
        },
        // `add`/`offer` ("Returns: true"), the head in priority order (`poll`/`peek`: "or
        // returns null if this queue is empty"; `AbstractQueue.remove()`/`element()`:
        // "NoSuchElementException - if this queue is empty"), `contains` (`o.equals(e)`)
        Family::PriorityQueue => match (name, desc) {
            ("<init>", "(Ljava/util/Comparator;)V") => Some(NewOrdered { capacity: false }),
            ("<init>", "(ILjava/util/Comparator;)V") => Some(NewOrdered { capacity: true }),
            ("add" | "offer", d) if d == obj1 => Some(Add { returns_true: true }),
            ("poll" | "peek" | "remove" | "element", d) if d == getter => Some(Head {
                end: End::First,
                remove: matches!(name, "poll" | "remove"),
                on_empty: match name {
                    "poll" | "peek" => OnEmpty::Null,
                    _ => OnEmpty::Throw,
                },
            }),
            ("contains", d) if d == obj1 => Some(Query { index: false }),
            ("clear", "()V") => Some(Clear),
            _ => None,
        },
        // a `HashSet`'s calls, the ends in element order (`first`/`last`: "NoSuchElementException
        // - if this set is empty"; `pollFirst`/`pollLast`: "or null if this set is empty") and
        // the neighbours (`floor`, `ceiling`, `higher`, `lower`: "or null if there is no such
        // element")
        Family::TreeSet => match (name, desc) {
            // `TreeSet(Collection)`: "ClassCastException - if the elements in c are not
            // Comparable, or are not mutually comparable; NullPointerException - if the
            // specified collection is null" (or holds `null`: its `compareTo`); a set: at most
            // the argument's size
            ("<init>", "(Ljava/util/Collection;)V") => Some(NewCopy),
            ("add", d) if d == obj1 => Some(SetAdd),
            ("contains", d) if d == obj1 => Some(Query { index: false }),
            ("remove", d) if d == obj1 => Some(RemoveObject),
            ("clear", "()V") => Some(Clear),
            ("first" | "last" | "pollFirst" | "pollLast", d) if d == getter => Some(Head {
                end: match name {
                    "first" | "pollFirst" => End::First,
                    _ => End::Last,
                },
                remove: name.starts_with("poll"),
                on_empty: match name {
                    "first" | "last" => OnEmpty::Throw,
                    _ => OnEmpty::Null,
                },
            }),
            ("floor" | "ceiling" | "higher" | "lower", d) if d == format!("({OBJ}){OBJ}") => {
                Some(Nearest)
            }
            _ => None,
        },
        Family::HashSet => match (name, desc) {
            ("<init>", "(I)V") => Some(NewCapacity { throws: true }),
            ("<init>", "(Ljava/util/Collection;)V") => Some(NewCopy),
            ("add", d) if d == obj1 => Some(SetAdd),
            ("contains", d) if d == obj1 => Some(Query { index: false }),
            ("remove", d) if d == obj1 => Some(RemoveObject),
            ("clear", "()V") => Some(Clear),
            ("addAll", "(Ljava/util/Collection;)Z") => Some(AddAll),
            _ => None,
        },
        Family::HashMap | Family::TreeMap => match (name, desc) {
            ("<init>", "(I)V") if family == Family::HashMap => Some(NewCapacity { throws: true }),
            // `HashMap(Map)`: "NullPointerException - if the specified map is null"; the
            // copy has the same keys, so the same size
            ("<init>", "(Ljava/util/Map;)V") if family == Family::HashMap => Some(NewCopy),
            // `putIfAbsent` (JDK 17's `putVal(…, onlyIfAbsent)`, `TreeMap.put(…, false)`): a
            // new key grows the map and gives `null`, an old one keeps the size and gives its
            // value, as `put`'s model
            ("put" | "putIfAbsent", d) if d == format!("({OBJ}{OBJ}){OBJ}") => Some(Put),
            ("merge", d) if d == format!("({OBJ}{OBJ}Ljava/util/function/BiFunction;){OBJ}") => {
                Some(Merge)
            }
            ("get", d) if d == format!("({OBJ}){OBJ}") => Some(MapGet { default: false }),
            ("getOrDefault", d) if d == format!("({OBJ}{OBJ}){OBJ}") => {
                Some(MapGet { default: true })
            }
            ("containsKey", d) if d == obj1 => Some(Query { index: false }),
            ("remove", d) if d == format!("({OBJ}){OBJ}") => Some(MapRemove),
            ("clear", "()V") => Some(Clear),
            ("firstKey" | "lastKey", d) if d == getter && family == Family::TreeMap => {
                Some(FirstKey)
            }
            ("floorKey" | "ceilingKey" | "higherKey" | "lowerKey", d)
                if d == format!("({OBJ}){OBJ}") && family == Family::TreeMap =>
            {
                Some(Nearest)
            }
            (n, d) => self::View::of_call(class, n, d).map(CollCall::View),
        },
        _ => None,
    }
}

/// The `Deque` methods of `LinkedList` and `ArrayDeque`.
fn deque_call(name: &str, desc: &str) -> Option<CollCall> {
    use CollCall::*;
    use End::*;
    let add = format!("({OBJ})V");
    let offer = format!("({OBJ})Z");
    let getter = format!("(){OBJ}");
    let head = |end, remove, on_empty| {
        Some(Head {
            end,
            remove,
            on_empty,
        })
    };
    match name {
        "addLast" if desc == add => Some(Add {
            returns_true: false,
        }),
        "addFirst" | "push" if desc == add => Some(Add {
            returns_true: false,
        }),
        "offer" | "offerLast" | "offerFirst" if desc == offer => Some(Add { returns_true: true }),
        _ if desc != getter => None,
        "getFirst" | "element" => head(First, false, OnEmpty::Throw),
        "getLast" => head(Last, false, OnEmpty::Throw),
        "peek" | "peekFirst" => head(First, false, OnEmpty::Null),
        "peekLast" => head(Last, false, OnEmpty::Null),
        "pop" | "remove" | "removeFirst" => head(First, true, OnEmpty::Throw),
        "removeLast" => head(Last, true, OnEmpty::Throw),
        "poll" | "pollFirst" => head(First, true, OnEmpty::Null),
        "pollLast" => head(Last, true, OnEmpty::Null),
        _ => None,
    }
}

/// The number of elements of `List.of`'s descriptor `d` (`(Object × n)List`), `None` for the
/// varargs form (its result for 0 elements is a shared empty list) and other descriptors.
pub fn list_of_arity(d: &str) -> Option<usize> {
    let params = d.strip_prefix('(')?.strip_suffix(")Ljava/util/List;")?;
    let n = params.len() / OBJ.len();
    (params == OBJ.repeat(n) && n <= 10).then_some(n)
}

/// The class of `List.of`'s result for `n` elements (JDK 17: `List12` for one or two).
pub fn list_of_class(n: usize) -> &'static str {
    if (1..=2).contains(&n) {
        LIST_12
    } else {
        LIST_N
    }
}

/// The class of the inputs' elements and keys: where a construction's collections hold no
/// other class, a sorted collection's keys are of this class, so a key of another class throws
/// ClassCastException (`compareTo` across classes), one of this class does not.
pub const ELEMENT: &str = INTEGER;

/// Whether `class` is a modelled collection, view or iterator class whose objects carry the
/// model's fields ([`SIZE`]; [`OF`]; [`OF`] and [`REMAINING`]).
pub fn is_collection_object(class: &str) -> bool {
    Family::of(class).is_some() || View::of_class(class).is_some() || iterated_type(class).is_some()
}

/// Whether inputs of `class` can be drawn by the checker: the mutable collections, which the
/// JVM side builds with their constructor and `add`/`put` (`Runner.collection`). The immutable
/// lists and the iterators are not drawn (the graph covers them all the same). A class no
/// input of a wider type has ([`made_by_calls_only`]: a `Stack`, a `LinkedHashMap`, …) is
/// drawn only for a value declared of that class, as the engine realizes it.
pub fn is_generated(class: &str) -> bool {
    Family::of(class).is_some_and(|f| !matches!(f, Family::Immutable | Family::ArraysList))
}

/// The input-only field that gives a drawn collection its `k`-th element (a map its `k`-th
/// key; its value is the next key, cyclically): the model keeps no element, so no state the
/// engine builds lists these, and the checker never compares them.
pub fn element_field(k: usize) -> String {
    format!("e{k}")
}

/// Whether the drawn elements of `class` must be distinct for the collection to have the
/// drawn size (a set's elements, a map's keys).
pub fn distinct_elements(class: &str) -> bool {
    matches!(
        Family::of(class),
        Some(Family::HashSet | Family::HashMap | Family::TreeMap | Family::TreeSet)
    )
}

/// Every class name used above is in the modelled table, below `Object`.
pub fn model_classes() -> Vec<&'static str> {
    vec![
        ARRAY_LIST,
        LINKED_LIST,
        ARRAY_DEQUE,
        HASH_SET,
        HASH_MAP,
        LINKED_HASH_SET,
        LINKED_HASH_MAP,
        TREE_MAP,
        TREE_SET,
        STACK,
        EMPTY_STACK,
        PRIORITY_QUEUE,
        LIST_N,
        LIST_12,
        ARRAYS_LIST,
        "java/util/ArrayList$Itr",
        "java/util/LinkedList$ListItr",
        "java/util/AbstractSet",
        IMMUTABLE_LIST_ITR,
        ARRAYS_ITR,
        DEQUE_ITERATOR,
        VECTOR_ITERATOR,
        QUEUE_ITERATOR,
        ARRAY_LIST_ITR,
        ABSTRACT_LIST_ITR,
        NO_SUCH_ELEMENT,
        CONCURRENT_MODIFICATION,
        OBJECT,
    ]
    .into_iter()
    .chain(VIEW_CLASSES.into_iter().flatten())
    .chain(VIEW_ITERATORS.into_iter().flatten())
    .chain(ENTRY_CLASSES)
    .collect()
}

#[cfg(test)]
mod tests;

/// The class of the result of the JDK method `class.name desc` used as a `Map.merge`
/// remapping function (a method reference, unboxed arguments and a boxed result as the
/// spun lambda class adapts them), where the method is total on non-null arguments, writes
/// nothing and never returns `null`: `Integer::sum`, `Integer::max`, `Integer::min`,
/// `Math::max`, `Math::min` of ints, `String::concat`.
pub(crate) fn combiner_result(class: &str, name: &str, desc: &str) -> Option<&'static str> {
    match (class, name, desc) {
        ("java/lang/Integer", "sum" | "max" | "min", "(II)I")
        | ("java/lang/Math", "max" | "min", "(II)I") => Some(INTEGER),
        ("java/lang/String", "concat", "(Ljava/lang/String;)Ljava/lang/String;") => Some(STRING),
        _ => None,
    }
}
