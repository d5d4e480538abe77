//! The classes of the objects the collection models store (elements, a map's keys and values).
//!
//! A collection keeps no element (see `collections`), so what it returns is "one of the
//! objects it may hold": of a class the model admits, whose `equals`, `hashCode` and
//! `compareTo` are JDK code (the final classes `Integer`, `Character` and `String`), never
//! program code.
//! Which of them a construction's collections may hold is [`ElementTypes`]: the class of the
//! inputs' elements (the checker draws `Integer` elements) and every admitted class the run
//! stores. The graph builder starts with the inputs' and builds the graph again when a store
//! shows one more (a read before that store must cover it too), so every read covers every
//! store of the run.

use super::classes::{OBJECT, STRING};
use super::text::{CHARACTER, INTEGER};
use std::collections::BTreeSet;

/// The class of the elements of the collections the checker draws as inputs (the JVM side
/// fills them with `Integer` boxes), so every construction's [`ElementTypes`] has it.
pub const INPUT_ELEMENT: &str = INTEGER;

/// Whether objects of class `ty` may be stored in a modelled collection: final JDK classes
/// whose `equals`, `hashCode` and `compareTo` are JDK code, so a query's result depends on
/// the objects' contents only (which the model does not track: it over-approximates).
pub fn storable(ty: &str) -> bool {
    ty == INTEGER || ty == STRING || ty == CHARACTER
}

/// The classes a construction's collections may hold (besides `null`), a set of
/// [`storable`] classes that always has [`INPUT_ELEMENT`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementTypes(BTreeSet<String>);

impl Default for ElementTypes {
    fn default() -> Self {
        ElementTypes(BTreeSet::from([INPUT_ELEMENT.to_string()]))
    }
}

impl ElementTypes {
    pub fn contains(&self, ty: &str) -> bool {
        self.0.contains(ty)
    }

    /// These and `ty`.
    pub fn with(&self, ty: &str) -> ElementTypes {
        let mut s = self.0.clone();
        s.insert(ty.to_string());
        ElementTypes(s)
    }

    pub fn classes(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }

    /// Whether there is more than one class: elements of different classes are not mutually
    /// comparable (`compareTo` throws ClassCastException across them).
    pub fn several(&self) -> bool {
        self.0.len() > 1
    }

    /// The static type of an element read back: the one class, or `Object`.
    pub fn read_type(&self) -> &str {
        match self.0.iter().next() {
            Some(c) if !self.several() => c,
            _ => OBJECT,
        }
    }

    /// The text of the set for messages (`java.lang.Integer, java.lang.String`).
    pub fn display(&self) -> String {
        self.classes()
            .map(crate::state::display_type)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inputs_elements_are_always_there() {
        let e = ElementTypes::default();
        assert!(e.contains(INTEGER) && !e.several());
        assert_eq!(e.read_type(), INTEGER);
        let both = e.with(STRING);
        assert!(both.several());
        assert_eq!(both.read_type(), OBJECT);
        assert!(storable(STRING) && storable(INTEGER) && !storable(OBJECT));
    }
}
