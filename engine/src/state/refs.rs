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

/// A set of references as two bit vectors (integer and object numbers): the membership tests
/// of garbage collection run for every predicate of every new state, where a tree set's
/// lookups and allocations dominated.
#[derive(Clone, Debug, Default)]
pub struct RefSet {
    ints: Vec<u64>,
    objs: Vec<u64>,
    /// References numbered from [`RefSet::DENSE`] on (only hand-written states have them):
    /// bits for them would cost memory in proportion to the number.
    sparse: std::collections::BTreeSet<Ref>,
    len: usize,
}

impl RefSet {
    /// Numbers below this are kept as bits.
    pub const DENSE: u32 = 1 << 16;

    pub fn new() -> RefSet {
        RefSet::default()
    }

    /// Adds `r`; false when it was already there. `null` is never a member.
    pub fn insert(&mut self, r: Ref) -> bool {
        let (bits, n) = match r {
            Ref::Null => return false,
            Ref::Int(n) if n < Self::DENSE => (&mut self.ints, n as usize),
            Ref::Obj(n) if n < Self::DENSE => (&mut self.objs, n as usize),
            _ => {
                let fresh = self.sparse.insert(r);
                self.len += usize::from(fresh);
                return fresh;
            }
        };
        let (w, b) = (n / 64, 1u64 << (n % 64));
        if w >= bits.len() {
            bits.resize(w + 1, 0);
        }
        let fresh = bits[w] & b == 0;
        bits[w] |= b;
        self.len += usize::from(fresh);
        fresh
    }

    pub fn contains(&self, r: Ref) -> bool {
        let (bits, n) = match r {
            Ref::Null => return false,
            Ref::Int(n) if n < Self::DENSE => (&self.ints, n as usize),
            Ref::Obj(n) if n < Self::DENSE => (&self.objs, n as usize),
            _ => return self.sparse.contains(&r),
        };
        bits.get(n / 64)
            .is_some_and(|w| w & (1u64 << (n % 64)) != 0)
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    quickcheck! {
    /// The bit set agrees with a tree set on membership, insertion results and size.
    fn ref_set_is_a_set(ops: Vec<(u8, u16)>) -> bool {
        let mut set = RefSet::new();
        let mut model = std::collections::BTreeSet::new();
        for (kind, n) in ops {
            // numbers on both sides of the dense bound, up to u32::MAX
            let n = if kind & 4 == 0 { u32::from(n) } else { u32::MAX - u32::from(n) };
            let r = match kind % 3 {
                0 => Ref::Null,
                1 => Ref::Int(n),
                _ => Ref::Obj(n),
            };
            let fresh = !r.is_null() && model.insert(r);
            if set.insert(r) != fresh || !set.contains(r) && !r.is_null() {
                return false;
            }
        }
        set.len() == model.len()
            && !set.contains(Ref::Null)
            && (0..300).chain(u32::MAX - 300..=u32::MAX).all(|n| {
                set.contains(Ref::Int(n)) == model.contains(&Ref::Int(n))
                    && set.contains(Ref::Obj(n)) == model.contains(&Ref::Obj(n))
            })
    }
    }

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
