//! The views of a `HashMap` or a `TreeMap` (`keySet()`, `values()`, `entrySet()`), their
//! iterators and entries: which JDK 17 class each is, and which calls make them.

use super::{Family, HASH_MAP, TREE_MAP};

/// A view of a `HashMap` or a `TreeMap` (`keySet()`, `values()`, `entrySet()`): an object with
/// one field [`OF`](super::OF), the map; its size is the map's ("The set is backed by the map, so changes
/// to the map are reflected in the set"). JDK 17 caches each view in the map (one object per
/// map and kind). Its iterator's [`OF`](super::OF) is the view; an entry is a `HashMap$Node` or a
/// `TreeMap$Entry`, of which the model keeps no field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct View {
    pub part: Part,
    /// Of a `TreeMap` (else of a `HashMap`).
    pub tree: bool,
}

/// What a map's view holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Keys,
    Values,
    Entries,
}

/// The view classes, iterator classes and entry class of `HashMap` (`[0]`) and `TreeMap`
/// (`[1]`), by [`Part`] (JDK 17; the key iterator of a `HashMap` is also `HashSet`'s).
pub(super) const VIEW_CLASSES: [[&str; 3]; 2] = [
    [
        "java/util/HashMap$KeySet",
        "java/util/HashMap$Values",
        "java/util/HashMap$EntrySet",
    ],
    [
        "java/util/TreeMap$KeySet",
        "java/util/TreeMap$Values",
        "java/util/TreeMap$EntrySet",
    ],
];
pub(super) const VIEW_ITERATORS: [[&str; 3]; 2] = [
    [
        HASH_KEY_ITERATOR,
        "java/util/HashMap$ValueIterator",
        "java/util/HashMap$EntryIterator",
    ],
    [
        "java/util/TreeMap$KeyIterator",
        "java/util/TreeMap$ValueIterator",
        "java/util/TreeMap$EntryIterator",
    ],
];
/// A map entry (`HashMap$TreeNode`, the subclass of `HashMap$Node` in a bin of eight or more
/// colliding keys in a table of 64 or more, is not modelled: the checker would see its class).
pub const ENTRY_CLASSES: [&str; 2] = ["java/util/HashMap$Node", "java/util/TreeMap$Entry"];
/// The iterator of a `HashSet` and of a `HashMap`'s key set.
pub(super) const HASH_KEY_ITERATOR: &str = "java/util/HashMap$KeyIterator";
const PARTS: [Part; 3] = [Part::Keys, Part::Values, Part::Entries];

impl View {
    /// The view `map.name desc` returns, for a map of family `family`.
    pub(super) fn of_call(family: Family, name: &str, desc: &str) -> Option<View> {
        let part = match (name, desc) {
            ("keySet", "()Ljava/util/Set;") => Part::Keys,
            ("values", "()Ljava/util/Collection;") => Part::Values,
            ("entrySet", "()Ljava/util/Set;") => Part::Entries,
            _ => return None,
        };
        let tree = match family {
            Family::HashMap => false,
            Family::TreeMap => true,
            _ => return None,
        };
        Some(View { part, tree })
    }

    fn at(self) -> (usize, usize) {
        (usize::from(self.tree), self.part as usize)
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
        if self.tree {
            TREE_MAP
        } else {
            HASH_MAP
        }
    }

    /// The view class `class`, if it is one.
    pub fn of_class(class: &str) -> Option<View> {
        Self::find(&VIEW_CLASSES, class)
    }

    /// The view whose iterator class is `class` (the keys' of a `HashMap` is `HashSet`'s too).
    pub fn of_iterator(class: &str) -> Option<View> {
        Self::find(&VIEW_ITERATORS, class)
    }

    fn find(table: &[[&str; 3]; 2], class: &str) -> Option<View> {
        (0..2).find_map(|m| {
            let p = table[m].iter().position(|c| *c == class)?;
            Some(View {
                part: PARTS[p],
                tree: m == 1,
            })
        })
    }
}

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
/// own `new` makes: its iteration (`Vector$Itr`) is not modelled, so an input `List` that may
/// be a `Stack` would make every loop over a list unsupported; the checker draws none. Its
/// superclass `Vector` has no model of its own. A `PriorityQueue` and a `TreeSet` likewise
/// (their iterators are not modelled).
pub fn made_by_calls_only(class: &str) -> bool {
    class == super::STACK
        || class == super::PRIORITY_QUEUE
        || class == super::TREE_SET
        || class == super::VECTOR
        || View::of_class(class).is_some()
        || View::of_iterator(class).is_some() && class != HASH_KEY_ITERATOR
        || ENTRY_CLASSES.contains(&class)
}
