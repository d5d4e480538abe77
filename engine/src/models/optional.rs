//! `java.util.Optional` (JDK 17): "A container object which may or may not contain a non-null
//! value". The model keeps its one field `value` (the contained reference, `null` for an empty
//! one), as the JDK class does; the JVM side records it (`Library.java`). The JDK has one
//! empty `Optional` (`Optional.EMPTY`, which `empty()` and `ofNullable(null)` return), so an
//! empty result may be every empty `Optional` the state holds. Methods taking a function
//! (`map`, `ifPresent`, `orElseGet`, …) may run program code: not modelled (unsupported, named).

/// `java.util.Optional`, a final class.
pub const OPTIONAL: &str = "java/util/Optional";
/// Its field: the value, or `null` where empty.
pub const VALUE: &str = "value";

/// A modelled `Optional` method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OptionalCall {
    /// `of(v)`: "NullPointerException - if value is null", else an `Optional` of `v`.
    Of,
    /// `ofNullable(v)`: "an Optional with a present value if the specified value is non-null,
    /// otherwise an empty Optional" (JDK 17: the one `EMPTY`).
    OfNullable,
    /// `empty()`: the one empty `Optional`.
    Empty,
    /// `isPresent()`: "true if a value is present"; `isEmpty()` the negation.
    IsPresent { negated: bool },
    /// `get()`, `orElseThrow()`: the value, or "NoSuchElementException - if no value is
    /// present".
    Get,
    /// `orElse(other)`: "the value, if present, otherwise other".
    OrElse,
}

/// The model of `class.name desc`, if it is a modelled `Optional` method.
pub fn optional_call(class: &str, name: &str, desc: &str) -> Option<OptionalCall> {
    if class != OPTIONAL {
        return None;
    }
    Some(match (name, desc) {
        ("of", "(Ljava/lang/Object;)Ljava/util/Optional;") => OptionalCall::Of,
        ("ofNullable", "(Ljava/lang/Object;)Ljava/util/Optional;") => OptionalCall::OfNullable,
        ("empty", "()Ljava/util/Optional;") => OptionalCall::Empty,
        ("isPresent", "()Z") => OptionalCall::IsPresent { negated: false },
        ("isEmpty", "()Z") => OptionalCall::IsPresent { negated: true },
        ("get" | "orElseThrow", "()Ljava/lang/Object;") => OptionalCall::Get,
        ("orElse", "(Ljava/lang/Object;)Ljava/lang/Object;") => OptionalCall::OrElse,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_modelled_methods_are_those_without_functions() {
        let get = "()Ljava/lang/Object;";
        assert_eq!(optional_call(OPTIONAL, "get", get), Some(OptionalCall::Get));
        assert_eq!(
            optional_call(OPTIONAL, "orElseThrow", get),
            Some(OptionalCall::Get)
        );
        // orElseThrow(Supplier) and orElseGet(Supplier) call a function
        let supplied = "(Ljava/util/function/Supplier;)Ljava/lang/Object;";
        assert_eq!(optional_call(OPTIONAL, "orElseThrow", supplied), None);
        assert_eq!(optional_call(OPTIONAL, "orElseGet", supplied), None);
        assert_eq!(
            optional_call("java/util/OptionalInt", "isPresent", "()Z"),
            None
        );
    }
}
