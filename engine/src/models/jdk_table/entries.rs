//! How [`super::JDK_CLASSES`] is written: one-line constructors of its entries and the names
//! several entries share.

use super::super::classes::SERIALIZABLE;
use crate::class::LibraryClass;

/// How a class of [`super::JDK_CLASSES`] written with [`class`] may be instantiated.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Plain,
    Abstract,
    Final,
}
pub(super) const HITR: &str = "java/util/HashMap$HashIterator";
pub(super) const LHITR: &str = "java/util/LinkedHashMap$LinkedHashIterator";
pub(super) const ITR: &str = "java/util/Iterator";
pub(super) const TITR: &str = "java/util/TreeMap$PrivateEntryIterator";
pub(super) const ASET: &str = "java/util/AbstractSet";
pub(super) const ACOLL: &str = "java/util/AbstractCollection";
pub(super) const MAP_ENTRY: &str = "java/util/Map$Entry";
/// The interfaces of `ArrayList` and `Vector`.
pub(super) const LIST_IMPL: &[&str] = &[
    "java/util/List",
    "java/util/RandomAccess",
    "java/lang/Cloneable",
    SERIALIZABLE,
];
pub(super) const PLAIN: Kind = Kind::Plain;
pub(super) const ABSTRACT: Kind = Kind::Abstract;
pub(super) const FINAL: Kind = Kind::Final;

/// A class entry of [`super::JDK_CLASSES`] on one line.
pub(super) const fn class(
    name: &'static str,
    super_name: &'static str,
    interfaces: &'static [&'static str],
    kind: Kind,
) -> LibraryClass {
    LibraryClass {
        name,
        super_name: Some(super_name),
        interfaces,
        is_interface: false,
        is_abstract: matches!(kind, Kind::Abstract),
        is_final: matches!(kind, Kind::Final),
    }
}

/// A functional interface of the JDK (JLS §9.8): its objects in a run are those of the program's
/// classes and of the classes lambda sites make; its `default` methods have no model.
pub(super) const fn functional_interface(
    name: &'static str,
    interfaces: &'static [&'static str],
) -> LibraryClass {
    iface(name, interfaces)
}

/// An interface entry of [`super::JDK_CLASSES`] on one line.
pub(super) const fn iface(name: &'static str, interfaces: &'static [&'static str]) -> LibraryClass {
    LibraryClass {
        name,
        super_name: None,
        interfaces,
        is_interface: true,
        is_abstract: true,
        is_final: false,
    }
}
