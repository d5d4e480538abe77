//! References: every value of a state lives behind one (spec §2.1).
//!
//! Integer references print as `i<n>`, object and array references as `o<n>`, and the special
//! reference `null` as `null`. Two positions holding the same reference hold the same value in
//! every represented concrete state; that is how the state records equalities.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ref {
    /// The null reference; it has no heap entry.
    Null,
    /// An integer reference (heap value: an interval).
    Int(u32),
    /// An object or array reference (heap value: instance, unknown object or array).
    Obj(u32),
}

impl Ref {
    pub fn is_null(self) -> bool {
        matches!(self, Ref::Null)
    }
    pub fn is_int(self) -> bool {
        matches!(self, Ref::Int(_))
    }
    pub fn is_obj(self) -> bool {
        matches!(self, Ref::Obj(_))
    }

    /// Parses `null`, `i<n>` or `o<n>`.
    pub fn parse(s: &str) -> Option<Ref> {
        if s == "null" {
            return Some(Ref::Null);
        }
        let (kind, digits) = s.split_at(s.find(|c: char| c.is_ascii_digit())?);
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let n: u32 = digits.parse().ok()?;
        match kind {
            "i" => Some(Ref::Int(n)),
            "o" => Some(Ref::Obj(n)),
            _ => None,
        }
    }
}

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ref::Null => f.write_str("null"),
            Ref::Int(n) => write!(f, "i{n}"),
            Ref::Obj(n) => write!(f, "o{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_roundtrip() {
        for r in [Ref::Null, Ref::Int(0), Ref::Int(17), Ref::Obj(3)] {
            assert_eq!(Ref::parse(&r.to_string()), Some(r));
        }
        assert_eq!(Ref::parse("x3"), None);
        assert_eq!(Ref::parse("i"), None);
        assert_eq!(Ref::parse("i3a"), None);
        assert_eq!(Ref::parse("o99999999999"), None);
    }
}
