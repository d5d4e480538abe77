//! Field and method descriptors (JVMS §4.3): parsing and printing in descriptor syntax.

use std::fmt;

use super::error::ClassError;

/// A field type as written in a descriptor (JVMS §4.3.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FieldType {
    Byte,
    Char,
    Double,
    Float,
    Int,
    Long,
    Short,
    Boolean,
    /// A class or interface type, by internal name (e.g. `java/lang/String`).
    Object(String),
    /// An array type with the given component type.
    Array(Box<FieldType>),
}

impl FieldType {
    /// Parses a complete field descriptor such as `I`, `LList;` or `[[J`.
    pub fn parse(s: &str) -> Result<FieldType, ClassError> {
        match parse_prefix(s) {
            Some((t, "")) => Ok(t),
            _ => Err(ClassError::malformed(format!("bad field descriptor {s:?}"))),
        }
    }

    /// True for class, interface and array types.
    pub fn is_reference(&self) -> bool {
        matches!(self, FieldType::Object(_) | FieldType::Array(_))
    }

    /// True for the integral types byte, char, short, int, boolean and long.
    pub fn is_integral(&self) -> bool {
        matches!(
            self,
            FieldType::Byte
                | FieldType::Char
                | FieldType::Short
                | FieldType::Int
                | FieldType::Boolean
                | FieldType::Long
        )
    }

    /// Number of local-variable / operand-stack slots a value of this type occupies.
    pub fn slots(&self) -> u16 {
        match self {
            FieldType::Long | FieldType::Double => 2,
            _ => 1,
        }
    }
}

/// Parses one field type at the start of `s`, returning it and the rest of the input.
fn parse_prefix(s: &str) -> Option<(FieldType, &str)> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let t = match first {
        'B' => FieldType::Byte,
        'C' => FieldType::Char,
        'D' => FieldType::Double,
        'F' => FieldType::Float,
        'I' => FieldType::Int,
        'J' => FieldType::Long,
        'S' => FieldType::Short,
        'Z' => FieldType::Boolean,
        'L' => {
            let end = rest.find(';')?;
            let name = &rest[..end];
            if name.is_empty() || name.contains(['.', '[']) {
                return None;
            }
            return Some((FieldType::Object(name.to_string()), &rest[end + 1..]));
        }
        '[' => {
            let (component, rest) = parse_prefix(rest)?;
            return Some((FieldType::Array(Box::new(component)), rest));
        }
        _ => return None,
    };
    Some((t, rest))
}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldType::Byte => f.write_str("B"),
            FieldType::Char => f.write_str("C"),
            FieldType::Double => f.write_str("D"),
            FieldType::Float => f.write_str("F"),
            FieldType::Int => f.write_str("I"),
            FieldType::Long => f.write_str("J"),
            FieldType::Short => f.write_str("S"),
            FieldType::Boolean => f.write_str("Z"),
            FieldType::Object(name) => write!(f, "L{name};"),
            FieldType::Array(component) => write!(f, "[{component}"),
        }
    }
}

/// A method descriptor (JVMS §4.3.3): parameter types and return type (`None` for void).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodDescriptor {
    pub params: Vec<FieldType>,
    pub ret: Option<FieldType>,
}

impl MethodDescriptor {
    /// Parses a complete method descriptor such as `(LList;I)Z` or `()V`.
    pub fn parse(s: &str) -> Result<MethodDescriptor, ClassError> {
        let bad = || ClassError::malformed(format!("bad method descriptor {s:?}"));
        let mut rest = s.strip_prefix('(').ok_or_else(bad)?;
        let mut params = Vec::new();
        loop {
            if let Some(r) = rest.strip_prefix(')') {
                rest = r;
                break;
            }
            let (t, r) = parse_prefix(rest).ok_or_else(bad)?;
            params.push(t);
            rest = r;
        }
        let ret = if rest == "V" {
            None
        } else {
            match parse_prefix(rest) {
                Some((t, "")) => Some(t),
                _ => return Err(bad()),
            }
        };
        Ok(MethodDescriptor { params, ret })
    }

    /// Total argument slots, not counting a receiver.
    pub fn param_slots(&self) -> u16 {
        self.params.iter().map(FieldType::slots).sum()
    }
}

impl fmt::Display for MethodDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for p in &self.params {
            write!(f, "{p}")?;
        }
        f.write_str(")")?;
        match &self.ret {
            Some(t) => write!(f, "{t}"),
            None => f.write_str("V"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_types_round_trip() {
        for s in [
            "B",
            "C",
            "D",
            "F",
            "I",
            "J",
            "S",
            "Z",
            "LList;",
            "[[J",
            "[Ljava/lang/String;",
        ] {
            assert_eq!(FieldType::parse(s).expect(s).to_string(), s);
        }
        assert_eq!(
            FieldType::parse("[LA;").expect("array"),
            FieldType::Array(Box::new(FieldType::Object("A".into())))
        );
    }

    #[test]
    fn field_type_rejects_garbage() {
        for s in ["", "V", "L;", "LA", "II", "[", "Q", "La.b;", "L[I;"] {
            assert!(FieldType::parse(s).is_err(), "{s:?} accepted");
        }
    }

    #[test]
    fn field_type_predicates() {
        assert_eq!(FieldType::Long.slots(), 2);
        assert_eq!(FieldType::Double.slots(), 2);
        assert_eq!(FieldType::Int.slots(), 1);
        assert!(FieldType::Boolean.is_integral());
        assert!(FieldType::Long.is_integral());
        assert!(!FieldType::Float.is_integral());
        assert!(FieldType::Object("A".into()).is_reference());
        assert!(FieldType::Array(Box::new(FieldType::Int)).is_reference());
        assert!(!FieldType::Int.is_reference());
    }

    #[test]
    fn method_descriptors() {
        let d = MethodDescriptor::parse("(LList;I[JD)Z").expect("parse");
        assert_eq!(d.params.len(), 4);
        assert_eq!(d.ret, Some(FieldType::Boolean));
        assert_eq!(d.param_slots(), 5);
        assert_eq!(d.to_string(), "(LList;I[JD)Z");
        let v = MethodDescriptor::parse("()V").expect("void");
        assert_eq!(v.ret, None);
        assert_eq!(v.to_string(), "()V");
        for s in ["", "()", "(V)V", "I", "(I", "()VV", "()II"] {
            assert!(MethodDescriptor::parse(s).is_err(), "{s:?} accepted");
        }
    }
}
