//! The least common supertype the merge gives two objects of different classes
//! (`Subtyping::join` of `Program`): a class above both, else the one interface both implement
//! that says more than a tag, else `java.lang.Object`. And which types can share an object at
//! all (`Program::may_share`), which keeps a call's continuation from joining a tree with a
//! string array.

mod common;
use jtg_engine::state::Subtyping;

#[test]
fn classes_join_at_their_nearest_common_superclass() {
    let p = common::program();
    assert_eq!(
        p.join("everyday/Bird", "everyday/Animal"),
        "everyday/Animal"
    );
    assert_eq!(p.join("everyday/Op$1", "everyday/Op$2"), "everyday/Op");
    assert_eq!(p.join("everyday/Color", "everyday/Coin"), "java/lang/Enum");
}

#[test]
fn an_enum_constant_and_a_box_join_at_comparable_not_object() {
    // an `Object` could not be refined for `compareTo` ("it would need every class"), which made
    // a generic `countLess(T[] xs, T pivot)` fail once an enum with constant bodies was on the
    // class path
    let p = common::program();
    for (a, b) in [
        ("everyday/Coin", "java/lang/Integer"),
        ("everyday/Op$1", "java/lang/String"),
        ("java/lang/Enum", "java/lang/Integer"),
    ] {
        assert_eq!(p.join(a, b), "java/lang/Comparable", "{a} ⊔ {b}");
        assert_eq!(p.join(b, a), "java/lang/Comparable", "{b} ⊔ {a}");
    }
}

#[test]
fn tag_interfaces_alone_give_object() {
    // `Integer` and `ArrayList` share only `Serializable`: a tag, no method to refine for
    let p = common::program();
    assert_eq!(
        p.join("java/lang/Integer", "java/util/ArrayList"),
        "java/lang/Object"
    );
    assert_eq!(
        p.join("everyday/Animal", "java/lang/Integer"),
        "java/lang/Object"
    );
}

#[test]
fn types_whose_reachable_classes_are_disjoint_share_nothing() {
    let p = common::program();
    // a tree reaches trees and nothing else; a string array reaches strings and their bytes
    assert!(!p.may_share("Grow", "[Ljava/lang/String;"));
    assert!(!p.may_share("everyday/BTree", "java/lang/String"));
    assert!(!p.may_share("everyday/BTree", "java/lang/Integer"));
    assert!(!p.may_share("everyday/BTree", "[I"));
    assert!(!p.may_share("Grow", "everyday/BTree"));
    // one reaching the other, or a class both may reach
    assert!(p.may_share("Grow", "Grow"));
    assert!(p.may_share("Work", "Tree"));
    assert!(p.may_share("Tree", "Work"));
    assert!(p.may_share("[Ljava/lang/String;", "java/lang/String"));
    assert!(
        p.may_share("[LGrow;", "[Ljava/lang/String;"),
        "two reference arrays may be one"
    );
    // an enum constant holds its name; the constants with bodies are subclasses of `Op`
    assert!(p.may_share("everyday/Tile", "java/lang/String"));
    assert!(p.may_share("everyday/Op", "everyday/Op$1"));
    assert!(!p.may_share("everyday/Tile", "everyday/BTree"));
}

#[test]
fn open_types_may_share_with_everything() {
    let p = common::program();
    // `Object`, interfaces (a lambda may implement one) and the JDK's collections (whose
    // elements are no fields of the engine) may reach any object
    for open in [
        "java/lang/Object",
        "java/lang/Comparable",
        "java/util/ArrayList",
        "[Ljava/lang/Object;",
    ] {
        assert!(p.may_share(open, "everyday/BTree"), "{open}");
        assert!(p.may_share("everyday/BTree", open), "{open}");
    }
}
