//! Instance field keys: a Java field is its declaring class plus its name; an object's fields
//! are keyed by the name alone unless a more derived class of the object declares a field of
//! the same name, which shadows it: then the key carries the declaring class too.
//!
//! This is the tracer's layout key (docs/trace-wire.md: `name`, or `Decl.name` for a shadowed
//! field), so concrete and abstract objects key the same field the same way.

use std::borrow::Borrow;
use std::fmt;

/// The key of an instance field in an object: `name`, or `(declaring class, name)` for a field
/// shadowed in the object's class. Ordered by its wire form, so unshadowed fields sort by name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FieldKey(String);

impl FieldKey {
    const ARRAY_ELEMENTS: &'static str = "[]";

    /// The pseudo-field of array elements (a cycle through an array's elements is `⟲{[]}`).
    pub fn array_elements() -> FieldKey {
        FieldKey(Self::ARRAY_ELEMENTS.to_string())
    }

    /// The key of a field no more derived class of the object shadows.
    pub fn plain(name: &str) -> FieldKey {
        FieldKey(name.to_string())
    }

    /// The key of a field declared in `class` (internal name) that a field of the same name in
    /// a more derived class of the object shadows.
    pub fn shadowed(class: &str, name: &str) -> FieldKey {
        FieldKey(format!("{class}.{name}"))
    }

    /// The field's name.
    pub fn name(&self) -> &str {
        self.0.rsplit_once('.').map_or(&self.0, |(_, n)| n)
    }

    /// The declaring class (internal name) of a shadowed field; `None` for a plain key.
    pub fn declared_in(&self) -> Option<&str> {
        self.0.rsplit_once('.').map(|(c, _)| c)
    }

    /// The tracer's layout key (`name` or `pkg/Decl.name`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Reads a key in its wire form (`pkg/Decl.name`) or its printed form
    /// (`pkg.Decl.name`: the last dot separates the name); `None` for anything that is not a
    /// Java identifier optionally qualified by a class name.
    pub fn parse(text: &str) -> Option<FieldKey> {
        if text == Self::ARRAY_ELEMENTS {
            return Some(FieldKey::array_elements());
        }
        let ident = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        };
        match text.rsplit_once('.') {
            None => ident(text).then(|| FieldKey::plain(text)),
            Some((class, name)) => {
                let class = class.replace('.', "/");
                (ident(name) && class.split('/').all(ident))
                    .then(|| FieldKey::shadowed(&class, name))
            }
        }
    }
}

impl Borrow<str> for FieldKey {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// The printed form: the name, or the declaring class the Java way and the name
/// (`javaUtilEx.HashMap$HashIterator.this$0`).
impl fmt::Display for FieldKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.rsplit_once('.') {
            None => f.write_str(&self.0),
            Some((class, name)) => write!(f, "{}.{name}", class.replace('/', ".")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_shadowed_keys() {
        let p = FieldKey::plain("next");
        assert_eq!((p.name(), p.declared_in()), ("next", None));
        assert_eq!(p.to_string(), "next");
        let s = FieldKey::shadowed("javaUtilEx/HashMap$HashIterator", "this$0");
        assert_eq!(s.name(), "this$0");
        assert_eq!(s.declared_in(), Some("javaUtilEx/HashMap$HashIterator"));
        assert_eq!(s.as_str(), "javaUtilEx/HashMap$HashIterator.this$0");
        assert_eq!(s.to_string(), "javaUtilEx.HashMap$HashIterator.this$0");
        assert_ne!(p, FieldKey::plain("this$0"));
        assert_ne!(s, FieldKey::plain("this$0"));
    }

    #[test]
    fn parse_reads_both_forms() {
        let s = FieldKey::shadowed("a/B$C", "x");
        assert_eq!(FieldKey::parse("a.B$C.x"), Some(s.clone()));
        assert_eq!(FieldKey::parse("a/B$C.x"), Some(s.clone()));
        assert_eq!(FieldKey::parse(&s.to_string()), Some(s));
        assert_eq!(FieldKey::parse("next"), Some(FieldKey::plain("next")));
        for bad in ["", "a b", ".x", "A.", "A..x", "x=1"] {
            assert_eq!(FieldKey::parse(bad), None, "{bad}");
        }
    }
}
