//! The JDK classes the engine models ([`JDK_CLASSES`]): the library table the class hierarchy
//! reads instead of class files (superclass, interfaces, flags as the JDK declares them), and
//! what the engine asks of it (is a class modelled, a throwable, final, does it keep one of
//! `java.lang.Object`'s methods). The table is sorted by name: it is binary-searched.

use crate::class::LibraryClass;

mod entries;
use entries::*;

use super::classes::{
    CLASS, CONSTABLE, ENUM, OBJECT, PRINT_STREAM, RANDOM, RUNTIME_EXCEPTION, SERIALIZABLE, STRING,
    STRING_BUILDER, THROWABLE,
};
use super::exceptions::{
    ARITHMETIC, ARRAY_INDEX_OUT_OF_BOUNDS, ARRAY_STORE, CLASS_CAST, ILLEGAL_ARGUMENT,
    NEGATIVE_ARRAY_SIZE, NULL_POINTER,
};

/// Whether the engine models `class` (it is in [`JDK_CLASSES`]).
pub fn is_modelled_class(class: &str) -> bool {
    modelled(class).is_some()
}

/// Whether `class` is a modelled JDK class below `java.lang.Throwable` (or that class itself).
pub fn is_modelled_throwable(class: &str) -> bool {
    let mut cur = modelled(class);
    while let Some(c) = cur {
        if c.name == THROWABLE {
            return true;
        }
        cur = c.super_name.and_then(modelled);
    }
    false
}

/// Whether the modelled JDK class `class` inherits `java.lang.Object`'s method `name` (does
/// not override it, nor has a superclass below `Object` that does): `String` and `Integer`
/// override `equals`, `hashCode` and `toString`; `Throwable`, `Class` and the string builders
/// override `toString`.
pub fn keeps_object_method(class: &str, name: &str) -> bool {
    match class {
        STRING | "java/lang/Integer" | "java/lang/Character" => false,
        STRING_BUILDER | "java/lang/AbstractStringBuilder" | CLASS => name != "toString",
        // `Enum.equals` and `Enum.hashCode` are final and are `Object`'s: "Because there is
        // only one instance of each enum constant, it is permissible to use the == operator in
        // place of the equals method" (JLS §8.9.1); `hashCode` is `super.hashCode()`
        ENUM => name == "equals" || name == "hashCode",
        // abstract in `Record`: a record class declares its own
        "java/lang/Record" => !matches!(name, "equals" | "hashCode" | "toString"),
        _ if is_modelled_throwable(class) => name != "toString",
        _ => is_modelled_class(class),
    }
}

/// Whether `class` is a modelled JDK class that is final.
pub fn is_final_modelled_class(class: &str) -> bool {
    modelled(class).is_some_and(|c| c.is_final)
}

fn modelled(class: &str) -> Option<&'static LibraryClass> {
    JDK_CLASSES
        .binary_search_by(|c| c.name.cmp(class))
        .ok()
        .map(|i| &JDK_CLASSES[i])
}

/// The JDK classes the engine models, sorted by name: superclass, interfaces and flags as the
/// JDK declares them. The class hierarchy takes them from here instead of reading class files.
pub static JDK_CLASSES: &[LibraryClass] = &[
    iface("java/io/Closeable", &["java/lang/AutoCloseable"]),
    class(
        "java/io/FilterOutputStream",
        "java/io/OutputStream",
        &[],
        PLAIN,
    ),
    iface("java/io/Flushable", &[]),
    class(
        "java/io/OutputStream",
        OBJECT,
        &["java/io/Closeable", "java/io/Flushable"],
        ABSTRACT,
    ),
    class(
        PRINT_STREAM,
        "java/io/FilterOutputStream",
        &["java/lang/Appendable", "java/io/Closeable"],
        PLAIN,
    ),
    iface(SERIALIZABLE, &[]),
    class(
        "java/lang/AbstractStringBuilder",
        OBJECT,
        &["java/lang/Appendable", "java/lang/CharSequence"],
        ABSTRACT,
    ),
    iface("java/lang/Appendable", &[]),
    class(ARITHMETIC, RUNTIME_EXCEPTION, &[], PLAIN),
    class(
        ARRAY_INDEX_OUT_OF_BOUNDS,
        "java/lang/IndexOutOfBoundsException",
        &[],
        PLAIN,
    ),
    class(ARRAY_STORE, RUNTIME_EXCEPTION, &[], PLAIN),
    class("java/lang/AssertionError", "java/lang/Error", &[], PLAIN),
    iface("java/lang/AutoCloseable", &[]),
    iface("java/lang/CharSequence", &[]),
    class(
        "java/lang/Character",
        OBJECT,
        &[SERIALIZABLE, "java/lang/Comparable", CONSTABLE],
        FINAL,
    ),
    class(
        CLASS,
        OBJECT,
        &[
            SERIALIZABLE,
            "java/lang/reflect/AnnotatedElement",
            "java/lang/reflect/GenericDeclaration",
            "java/lang/reflect/Type",
        ],
        FINAL,
    ),
    class(CLASS_CAST, RUNTIME_EXCEPTION, &[], PLAIN),
    iface("java/lang/Cloneable", &[]),
    iface("java/lang/Comparable", &[]),
    // enums (JLS §8.9): the supertypes; `Enum`'s fields and methods are in `enums.rs`
    class(
        ENUM,
        OBJECT,
        &[CONSTABLE, "java/lang/Comparable", SERIALIZABLE],
        ABSTRACT,
    ),
    class("java/lang/Error", THROWABLE, &[], PLAIN),
    class("java/lang/Exception", THROWABLE, &[], PLAIN),
    class(ILLEGAL_ARGUMENT, RUNTIME_EXCEPTION, &[], PLAIN),
    class(
        "java/lang/IllegalStateException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    class(
        "java/lang/IncompatibleClassChangeError",
        "java/lang/LinkageError",
        &[],
        PLAIN,
    ),
    class(
        "java/lang/IndexOutOfBoundsException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    class(
        "java/lang/Integer",
        "java/lang/Number",
        &["java/lang/Comparable"],
        FINAL,
    ),
    iface("java/lang/Iterable", &[]),
    class("java/lang/LinkageError", "java/lang/Error", &[], PLAIN),
    class("java/lang/Math", OBJECT, &[], FINAL),
    class(NEGATIVE_ARRAY_SIZE, RUNTIME_EXCEPTION, &[], PLAIN),
    class(NULL_POINTER, RUNTIME_EXCEPTION, &[], PLAIN),
    class("java/lang/Number", OBJECT, &[SERIALIZABLE], ABSTRACT),
    class(
        "java/lang/NumberFormatException",
        ILLEGAL_ARGUMENT,
        &[],
        PLAIN,
    ),
    LibraryClass {
        name: OBJECT,
        super_name: None,
        interfaces: &[],
        is_interface: false,
        is_abstract: false,
        is_final: false,
    },
    class(
        "java/lang/OutOfMemoryError",
        "java/lang/VirtualMachineError",
        &[],
        PLAIN,
    ),
    // records (JLS §8.10): every record class extends `Record`, which declares no field and
    // only abstract `equals`, `hashCode` and `toString` (javac writes them in each record)
    class("java/lang/Record", OBJECT, &[], ABSTRACT),
    functional_interface("java/lang/Runnable", &[]),
    class(RUNTIME_EXCEPTION, "java/lang/Exception", &[], PLAIN),
    class(
        "java/lang/StackOverflowError",
        "java/lang/VirtualMachineError",
        &[],
        PLAIN,
    ),
    class(
        STRING,
        OBJECT,
        &[
            SERIALIZABLE,
            "java/lang/Comparable",
            "java/lang/CharSequence",
        ],
        FINAL,
    ),
    class(
        STRING_BUILDER,
        "java/lang/AbstractStringBuilder",
        &[SERIALIZABLE, "java/lang/CharSequence"],
        PLAIN,
    ),
    class(
        "java/lang/StringIndexOutOfBoundsException",
        "java/lang/IndexOutOfBoundsException",
        &[],
        PLAIN,
    ),
    class("java/lang/System", OBJECT, &[], FINAL),
    class(THROWABLE, OBJECT, &[SERIALIZABLE], PLAIN),
    class(
        "java/lang/UnsupportedOperationException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    class(
        "java/lang/VirtualMachineError",
        "java/lang/Error",
        &[],
        ABSTRACT,
    ),
    iface(CONSTABLE, &[]),
    iface("java/lang/reflect/AnnotatedElement", &[]),
    iface(
        "java/lang/reflect/GenericDeclaration",
        &["java/lang/reflect/AnnotatedElement"],
    ),
    iface("java/lang/reflect/Type", &[]),
    class(
        "java/util/AbstractCollection",
        OBJECT,
        &["java/util/Collection"],
        ABSTRACT,
    ),
    class(
        "java/util/AbstractList",
        "java/util/AbstractCollection",
        &["java/util/List"],
        ABSTRACT,
    ),
    class("java/util/AbstractList$Itr", OBJECT, &[ITR], PLAIN),
    class(
        super::collections::ABSTRACT_LIST_ITR,
        "java/util/AbstractList$Itr",
        &["java/util/ListIterator"],
        PLAIN,
    ),
    class(
        "java/util/AbstractMap",
        OBJECT,
        &["java/util/Map"],
        ABSTRACT,
    ),
    class(
        "java/util/AbstractQueue",
        "java/util/AbstractCollection",
        &["java/util/Queue"],
        ABSTRACT,
    ),
    class(
        "java/util/AbstractSequentialList",
        "java/util/AbstractList",
        &[],
        ABSTRACT,
    ),
    class(
        "java/util/AbstractSet",
        "java/util/AbstractCollection",
        &["java/util/Set"],
        ABSTRACT,
    ),
    class(
        "java/util/ArrayDeque",
        "java/util/AbstractCollection",
        &["java/util/Deque", "java/lang/Cloneable", SERIALIZABLE],
        PLAIN,
    ),
    class(super::collections::DEQUE_ITERATOR, OBJECT, &[ITR], PLAIN),
    class(
        "java/util/ArrayList",
        "java/util/AbstractList",
        LIST_IMPL,
        PLAIN,
    ),
    class(
        "java/util/ArrayList$Itr",
        OBJECT,
        &["java/util/Iterator"],
        PLAIN,
    ),
    class(
        super::collections::ARRAY_LIST_ITR,
        "java/util/ArrayList$Itr",
        &["java/util/ListIterator"],
        PLAIN,
    ),
    class(
        "java/util/Arrays$ArrayItr",
        OBJECT,
        &["java/util/Iterator"],
        FINAL,
    ),
    class(
        "java/util/Arrays$ArrayList",
        "java/util/AbstractList",
        &["java/util/RandomAccess", SERIALIZABLE],
        PLAIN,
    ),
    iface("java/util/Collection", &["java/lang/Iterable"]),
    class(
        super::orders::REVERSE_COMPARATOR,
        OBJECT,
        &["java/util/Comparator", SERIALIZABLE],
        PLAIN,
    ),
    functional_interface("java/util/Comparator", &[]),
    // `Comparator.naturalOrder()`'s one object: `enum NaturalOrderComparator implements
    // Comparator` (JDK 17), no constant with a body
    class(
        super::orders::NATURAL_COMPARATOR,
        ENUM,
        &["java/util/Comparator"],
        FINAL,
    ),
    class(
        "java/util/ConcurrentModificationException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    iface("java/util/Deque", &["java/util/Queue"]),
    class(
        "java/util/EmptyStackException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    class(
        "java/util/HashMap",
        "java/util/AbstractMap",
        &["java/util/Map", "java/lang/Cloneable", SERIALIZABLE],
        PLAIN,
    ),
    class("java/util/HashMap$EntryIterator", HITR, &[ITR], FINAL),
    class("java/util/HashMap$EntrySet", ASET, &[], FINAL),
    class(HITR, OBJECT, &[], ABSTRACT),
    class("java/util/HashMap$KeyIterator", HITR, &[ITR], FINAL),
    class("java/util/HashMap$KeySet", ASET, &[], FINAL),
    class("java/util/HashMap$Node", OBJECT, &[MAP_ENTRY], PLAIN),
    class("java/util/HashMap$ValueIterator", HITR, &[ITR], FINAL),
    class("java/util/HashMap$Values", ACOLL, &[], FINAL),
    class(
        "java/util/HashSet",
        "java/util/AbstractSet",
        &["java/util/Set", "java/lang/Cloneable", SERIALIZABLE],
        PLAIN,
    ),
    class(
        "java/util/ImmutableCollections$AbstractImmutableCollection",
        "java/util/AbstractCollection",
        &[],
        ABSTRACT,
    ),
    class(
        "java/util/ImmutableCollections$AbstractImmutableList",
        "java/util/ImmutableCollections$AbstractImmutableCollection",
        &["java/util/List", "java/util/RandomAccess"],
        ABSTRACT,
    ),
    class(
        "java/util/ImmutableCollections$List12",
        "java/util/ImmutableCollections$AbstractImmutableList",
        &[SERIALIZABLE],
        FINAL,
    ),
    class(
        "java/util/ImmutableCollections$ListItr",
        OBJECT,
        &["java/util/ListIterator"],
        FINAL,
    ),
    class(
        "java/util/ImmutableCollections$ListN",
        "java/util/ImmutableCollections$AbstractImmutableList",
        &[SERIALIZABLE],
        FINAL,
    ),
    iface("java/util/Iterator", &[]),
    class(
        "java/util/LinkedHashMap",
        "java/util/HashMap",
        &["java/util/Map"],
        PLAIN,
    ),
    class(
        "java/util/LinkedHashMap$Entry",
        "java/util/HashMap$Node",
        &[],
        PLAIN,
    ),
    class(
        "java/util/LinkedHashMap$LinkedEntryIterator",
        LHITR,
        &[ITR],
        FINAL,
    ),
    class("java/util/LinkedHashMap$LinkedEntrySet", ASET, &[], FINAL),
    class(LHITR, OBJECT, &[], ABSTRACT),
    class(
        "java/util/LinkedHashMap$LinkedKeyIterator",
        LHITR,
        &[ITR],
        FINAL,
    ),
    class("java/util/LinkedHashMap$LinkedKeySet", ASET, &[], FINAL),
    class(
        "java/util/LinkedHashMap$LinkedValueIterator",
        LHITR,
        &[ITR],
        FINAL,
    ),
    class("java/util/LinkedHashMap$LinkedValues", ACOLL, &[], FINAL),
    class(
        "java/util/LinkedHashSet",
        "java/util/HashSet",
        &["java/util/Set", "java/lang/Cloneable", SERIALIZABLE],
        PLAIN,
    ),
    class(
        "java/util/LinkedList",
        "java/util/AbstractSequentialList",
        &[
            "java/util/List",
            "java/util/Deque",
            "java/lang/Cloneable",
            SERIALIZABLE,
        ],
        PLAIN,
    ),
    class(
        "java/util/LinkedList$ListItr",
        OBJECT,
        &["java/util/ListIterator"],
        PLAIN,
    ),
    iface("java/util/List", &["java/util/Collection"]),
    iface("java/util/ListIterator", &["java/util/Iterator"]),
    iface("java/util/Map", &[]),
    iface("java/util/Map$Entry", &[]),
    iface("java/util/NavigableMap", &["java/util/SortedMap"]),
    iface("java/util/NavigableSet", &["java/util/SortedSet"]),
    class(
        "java/util/NoSuchElementException",
        RUNTIME_EXCEPTION,
        &[],
        PLAIN,
    ),
    class(super::optional::OPTIONAL, OBJECT, &[], FINAL),
    class(
        "java/util/PriorityQueue",
        "java/util/AbstractQueue",
        &[SERIALIZABLE],
        PLAIN,
    ),
    class(super::collections::QUEUE_ITERATOR, OBJECT, &[ITR], FINAL),
    iface("java/util/Queue", &["java/util/Collection"]),
    class(
        RANDOM,
        OBJECT,
        &[SERIALIZABLE, "java/util/random/RandomGenerator"],
        PLAIN,
    ),
    iface("java/util/RandomAccess", &[]),
    iface("java/util/Set", &["java/util/Collection"]),
    iface("java/util/SortedMap", &["java/util/Map"]),
    iface("java/util/SortedSet", &["java/util/Set"]),
    class("java/util/Stack", "java/util/Vector", &[], PLAIN),
    class(
        "java/util/TreeMap",
        "java/util/AbstractMap",
        &[
            "java/util/NavigableMap",
            "java/lang/Cloneable",
            SERIALIZABLE,
        ],
        PLAIN,
    ),
    class("java/util/TreeMap$Entry", OBJECT, &[MAP_ENTRY], FINAL),
    class("java/util/TreeMap$EntryIterator", TITR, &[], FINAL),
    class("java/util/TreeMap$EntrySet", ASET, &[], PLAIN),
    class("java/util/TreeMap$KeyIterator", TITR, &[], FINAL),
    class("java/util/TreeMap$KeySet", ASET, &[], FINAL),
    class(TITR, OBJECT, &[ITR], ABSTRACT),
    class("java/util/TreeMap$ValueIterator", TITR, &[], FINAL),
    class("java/util/TreeMap$Values", ACOLL, &[], PLAIN),
    class(
        "java/util/TreeSet",
        "java/util/AbstractSet",
        &[
            "java/util/NavigableSet",
            "java/lang/Cloneable",
            SERIALIZABLE,
        ],
        PLAIN,
    ),
    class(
        "java/util/Vector",
        "java/util/AbstractList",
        LIST_IMPL,
        PLAIN,
    ),
    class(super::collections::VECTOR_ITERATOR, OBJECT, &[ITR], PLAIN),
    // java.util.function: every functional interface of the package (lambda sites make
    // objects of classes that implement them, `class/lambda.rs`)
    functional_interface("java/util/function/BiConsumer", &[]),
    functional_interface("java/util/function/BiFunction", &[]),
    functional_interface("java/util/function/BiPredicate", &[]),
    functional_interface(
        "java/util/function/BinaryOperator",
        &["java/util/function/BiFunction"],
    ),
    functional_interface("java/util/function/BooleanSupplier", &[]),
    functional_interface("java/util/function/Consumer", &[]),
    functional_interface("java/util/function/DoubleBinaryOperator", &[]),
    functional_interface("java/util/function/DoubleConsumer", &[]),
    functional_interface("java/util/function/DoubleFunction", &[]),
    functional_interface("java/util/function/DoublePredicate", &[]),
    functional_interface("java/util/function/DoubleSupplier", &[]),
    functional_interface("java/util/function/DoubleToIntFunction", &[]),
    functional_interface("java/util/function/DoubleToLongFunction", &[]),
    functional_interface("java/util/function/DoubleUnaryOperator", &[]),
    functional_interface("java/util/function/Function", &[]),
    functional_interface("java/util/function/IntBinaryOperator", &[]),
    functional_interface("java/util/function/IntConsumer", &[]),
    functional_interface("java/util/function/IntFunction", &[]),
    functional_interface("java/util/function/IntPredicate", &[]),
    functional_interface("java/util/function/IntSupplier", &[]),
    functional_interface("java/util/function/IntToDoubleFunction", &[]),
    functional_interface("java/util/function/IntToLongFunction", &[]),
    functional_interface("java/util/function/IntUnaryOperator", &[]),
    functional_interface("java/util/function/LongBinaryOperator", &[]),
    functional_interface("java/util/function/LongConsumer", &[]),
    functional_interface("java/util/function/LongFunction", &[]),
    functional_interface("java/util/function/LongPredicate", &[]),
    functional_interface("java/util/function/LongSupplier", &[]),
    functional_interface("java/util/function/LongToDoubleFunction", &[]),
    functional_interface("java/util/function/LongToIntFunction", &[]),
    functional_interface("java/util/function/LongUnaryOperator", &[]),
    functional_interface("java/util/function/ObjDoubleConsumer", &[]),
    functional_interface("java/util/function/ObjIntConsumer", &[]),
    functional_interface("java/util/function/ObjLongConsumer", &[]),
    functional_interface("java/util/function/Predicate", &[]),
    functional_interface("java/util/function/Supplier", &[]),
    functional_interface("java/util/function/ToDoubleBiFunction", &[]),
    functional_interface("java/util/function/ToDoubleFunction", &[]),
    functional_interface("java/util/function/ToIntBiFunction", &[]),
    functional_interface("java/util/function/ToIntFunction", &[]),
    functional_interface("java/util/function/ToLongBiFunction", &[]),
    functional_interface("java/util/function/ToLongFunction", &[]),
    functional_interface(
        "java/util/function/UnaryOperator",
        &["java/util/function/Function"],
    ),
    iface("java/util/random/RandomGenerator", &[]),
    class(
        "java/util/regex/PatternSyntaxException",
        ILLEGAL_ARGUMENT,
        &[],
        PLAIN,
    ),
];

#[cfg(test)]
mod tests {
    use super::super::classes::{is_always_jdk, is_jdk_class};
    use super::*;

    #[test]
    fn the_table_is_sorted_and_closed() {
        assert!(JDK_CLASSES.windows(2).all(|w| w[0].name < w[1].name));
        for c in JDK_CLASSES {
            assert!(is_always_jdk(c.name), "{}", c.name);
            for s in c.super_name.iter().chain(c.interfaces) {
                assert!(is_modelled_class(s), "{} names {s}", c.name);
            }
        }
    }

    #[test]
    fn throwables_are_found_through_their_superclasses() {
        assert!(is_modelled_throwable(NULL_POINTER));
        assert!(is_modelled_throwable("java/lang/StackOverflowError"));
        assert!(is_modelled_throwable(THROWABLE));
        assert!(!is_modelled_throwable(OBJECT));
        assert!(!is_modelled_throwable("MyException"));
        assert!(is_jdk_class("javax/swing/JFrame") && !is_always_jdk("javax/swing/JFrame"));
        assert!(!is_jdk_class("javafoo/Bar"));
    }
}
