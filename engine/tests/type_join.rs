//! The least common supertype the merge gives two objects of different classes
//! (`Subtyping::join` of `Program`): a class above both, else the one interface both implement
//! that says more than a tag, else `java.lang.Object`.

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
