//! The views of a `HashMap`, a `LinkedHashMap` or a `TreeMap` (`keySet()`, `values()`,
//! `entrySet()`), their iterators and entries: which JDK 17 class each is, and which calls make
//! them.

use super::{Family, HASH_MAP, LINKED_HASH_MAP, TREE_MAP};

/// A view of a map (`keySet()`, `values()`, `entrySet()`): an object with one field
/// [`OF`](super::OF), the map; its size is the map's ("The set is backed by the map, so changes
/// to the map are reflected in the set"). JDK 17 caches each view in the map (one object per
/// map and kind). Its iterator's [`OF`](super::OF) is the view; an entry is a `HashMap$Node`, a
/// `LinkedHashMap$Entry` or a `TreeMap$Entry`, of which the model keeps no field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct View {
    pub part: Part,
    pub map: MapClass,
}

/// What a map's view holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Keys,
    Values,
    Entries,
}

/// The map class a view belongs to: its view, iterator and entry classes are its own (JDK 17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MapClass {
    Hash,
    /// `LinkedHashMap` (a `HashMap` whose iterators follow the insertion order).
    Linked,
    Tree,
}

impl MapClass {
    const ALL: [MapClass; 3] = [MapClass::Hash, MapClass::Linked, MapClass::Tree];

    /// The class of a map of this kind.
    pub fn class(self) -> &'static str {
        match self {
            MapClass::Hash => HASH_MAP,
            MapClass::Linked => LINKED_HASH_MAP,
            MapClass::Tree => TREE_MAP,
        }
    }

    /// The class of an entry of a map of this kind.
    pub fn entry_class(self) -> &'static str {
        ENTRY_CLASSES[self as usize]
    }
}

/// The view classes, iterator classes and entry class of `HashMap` (`[0]`), `LinkedHashMap`
/// (`[1]`) and `TreeMap` (`[2]`), by [`Part`] (JDK 17; the key iterator of a `HashMap` is also
/// `HashSet`'s, that of a `LinkedHashMap` `LinkedHashSet`'s).
pub(super) const VIEW_CLASSES: [[&str; 3]; 3] = [
    [
        "java/util/HashMap$KeySet",
        "java/util/HashMap$Values",
        "java/util/HashMap$EntrySet",
    ],
    [
        "java/util/LinkedHashMap$LinkedKeySet",
        "java/util/LinkedHashMap$LinkedValues",
        "java/util/LinkedHashMap$LinkedEntrySet",
    ],
    [
        "java/util/TreeMap$KeySet",
        "java/util/TreeMap$Values",
        "java/util/TreeMap$EntrySet",
    ],
];
pub(super) const VIEW_ITERATORS: [[&str; 3]; 3] = [
    [
        HASH_KEY_ITERATOR,
        "java/util/HashMap$ValueIterator",
        "java/util/HashMap$EntryIterator",
    ],
    [
        LINKED_KEY_ITERATOR,
        "java/util/LinkedHashMap$LinkedValueIterator",
        "java/util/LinkedHashMap$LinkedEntryIterator",
    ],
    [
        TREE_KEY_ITERATOR,
        "java/util/TreeMap$ValueIterator",
        "java/util/TreeMap$EntryIterator",
    ],
];
/// A map entry (`HashMap$TreeNode`, the subclass of `LinkedHashMap$Entry` in a bin of eight or
/// more colliding keys in a table of 64 or more, is not modelled: the checker would see its
/// class).
pub const ENTRY_CLASSES: [&str; 3] = [
    "java/util/HashMap$Node",
    "java/util/LinkedHashMap$Entry",
    "java/util/TreeMap$Entry",
];
/// The iterator of a `HashSet` and of a `HashMap`'s key set.
pub(super) const HASH_KEY_ITERATOR: &str = "java/util/HashMap$KeyIterator";
/// The iterator of a `TreeSet` and of a `TreeMap`'s key set.
pub(super) const TREE_KEY_ITERATOR: &str = "java/util/TreeMap$KeyIterator";
/// The iterator of a `LinkedHashSet` and of a `LinkedHashMap`'s key set.
pub(super) const LINKED_KEY_ITERATOR: &str = "java/util/LinkedHashMap$LinkedKeyIterator";
const PARTS: [Part; 3] = [Part::Keys, Part::Values, Part::Entries];

impl View {
    /// The view `map.name desc` returns, for a map of class `class`.
    pub(super) fn of_call(class: &str, name: &str, desc: &str) -> Option<View> {
        let part = match (name, desc) {
            ("keySet", "()Ljava/util/Set;") => Part::Keys,
            ("values", "()Ljava/util/Collection;") => Part::Values,
            ("entrySet", "()Ljava/util/Set;") => Part::Entries,
            _ => return None,
        };
        let map = match Family::of(class)? {
            Family::HashMap if class == LINKED_HASH_MAP => MapClass::Linked,
            Family::HashMap => MapClass::Hash,
            Family::TreeMap => MapClass::Tree,
            _ => return None,
        };
        Some(View { part, map })
    }

    fn at(self) -> (usize, usize) {
        (self.map as usize, self.part as usize)
    }

    /// Whether the view is a `TreeMap`'s.
    pub fn tree(self) -> bool {
        self.map == MapClass::Tree
    }

    /// The class of the view.
    pub fn class(self) -> &'static str {
        let (m, p) = self.at();
        VIEW_CLASSES[m][p]
    }

    /// The class of the view's iterator.
    pub fn iterator_class(self) -> &'static str {
        let (m, p) = self.at();
        VIEW_ITERATORS[m][p]
    }

    /// The class of the map.
    pub fn map_class(self) -> &'static str {
        self.map.class()
    }

    /// The view class `class`, if it is one.
    pub fn of_class(class: &str) -> Option<View> {
        Self::find(&VIEW_CLASSES, class)
    }

    /// The view whose iterator class is `class` (the keys' of a `HashMap` is `HashSet`'s too,
    /// those of a `LinkedHashMap` `LinkedHashSet`'s, those of a `TreeMap` `TreeSet`'s).
    pub fn of_iterator(class: &str) -> Option<View> {
        Self::find(&VIEW_ITERATORS, class)
    }

    fn find(table: &[[&str; 3]; 3], class: &str) -> Option<View> {
        (0..3).find_map(|m| {
            let p = table[m].iter().position(|c| *c == class)?;
            Some(View {
                part: PARTS[p],
                map: MapClass::ALL[m],
            })
        })
    }
}
