//! Heap values (spec §2.1): integer intervals, realized instances `C(f=r,…)`, unknown objects
//! `C(?)`, existing objects with unknown fields `C(…)`, and arrays.

use super::{FieldKey, Interval, Ref};
use std::collections::BTreeMap;
use std::fmt;

/// A heap value. `null` is not a heap value: it is the reference [`Ref::Null`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeapValue {
    /// An integer interval (a literal when both bounds agree): an `int` (or byte, short, char,
    /// boolean) value.
    Int(Interval),
    /// A `long` value: an integer interval like [`HeapValue::Int`], kept apart because a long is
    /// one category-2 value on the stack and wraps at 64 bits under `--ints java`. Printed
    /// with a suffix `L` (`5L`, `[≥0]L`, `ZL`).
    Long(Interval),
    /// A `float` value: `None` is any float, NaN included (the engine's states keep floats
    /// coarse, spec §1); `Some(bits)` is exactly the float with these bits (`1.5f`, `NaNf`),
    /// as in the concrete states the checker draws and the JVM records.
    Float(Option<u32>),
    /// A `double` value like [`HeapValue::Float`]: `None` any double, `Some(bits)` one (`-0.0d`).
    Double(Option<u64>),
    /// `C(?)`: null, or an object of type `C` or any subtype; nothing else known.
    Unknown { ty: String },
    /// `C(…)`: an existing object of type `C` or a subtype whose fields are not realized.
    Abstract { ty: String },
    /// `C(f=r,…)`: an object of exactly class `C` with all its instance fields realized, keyed
    /// by [`FieldKey`] (the name, qualified by the declaring class where it is shadowed).
    Object {
        class: String,
        fields: BTreeMap<FieldKey, Ref>,
    },
    /// An existing array of type `ty` (a descriptor such as `[I`) with length `len`; `elems` is
    /// `Some` for a concrete array (one reference per element) and `None` when unknown.
    /// `exact`: the array's runtime type is `ty` itself (the program allocated it), not a
    /// narrower one (`B[]` below `A[]`); always true for arrays of primitives, whose type has
    /// no subtype (see [`HeapValue::array`]). Printed `A[]!(…)` for other arrays.
    Array {
        ty: String,
        len: Ref,
        elems: Option<Vec<Ref>>,
        exact: bool,
    },
}

impl HeapValue {
    /// An array value; `exact` is forced for arrays of primitives (their runtime type cannot
    /// be narrower), so that one array has one form.
    pub fn array(ty: String, len: Ref, elems: Option<Vec<Ref>>, exact: bool) -> HeapValue {
        let exact = exact || !array_type_can_narrow(&ty);
        HeapValue::Array {
            ty,
            len,
            elems,
            exact,
        }
    }

    /// The references this value points to, in a fixed order.
    pub fn children(&self) -> impl Iterator<Item = Ref> + '_ {
        // no vector: the collector and the validity check walk every value of every new state
        let (fields, len, elems) = match self {
            HeapValue::Object { fields, .. } => (Some(fields), None, None),
            HeapValue::Array { len, elems, .. } => (None, Some(*len), elems.as_ref()),
            _ => (None, None, None),
        };
        fields
            .into_iter()
            .flat_map(|f| f.values().copied())
            .chain(len)
            .chain(elems.into_iter().flatten().copied())
    }

    /// Replaces every child reference `from` by `to`.
    pub fn rename_children(&mut self, from: Ref, to: Ref) {
        let swap = |r: &mut Ref| {
            if *r == from {
                *r = to
            }
        };
        match self {
            HeapValue::Object { fields, .. } => fields.values_mut().for_each(swap),
            HeapValue::Array { len, elems, .. } => {
                swap(len);
                if let Some(e) = elems {
                    e.iter_mut().for_each(swap);
                }
            }
            _ => {}
        }
    }

    pub fn as_int(&self) -> Option<&Interval> {
        match self {
            HeapValue::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The interval of an `int`-like or `long` value.
    pub fn as_integral(&self) -> Option<&Interval> {
        match self {
            HeapValue::Int(i) | HeapValue::Long(i) => Some(i),
            _ => None,
        }
    }

    /// Whether the value is a primitive (held by an `i<n>` reference).
    pub fn is_primitive(&self) -> bool {
        matches!(
            self,
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float(_) | HeapValue::Double(_)
        )
    }

    /// Whether the value is a category-2 value (long or double: one stack entry, two local
    /// slots, and one unit for `pop2`/`dup2`).
    pub fn is_wide(&self) -> bool {
        matches!(self, HeapValue::Long(_) | HeapValue::Double(_))
    }

    /// The static type bound (class or array descriptor) of an object value.
    pub fn type_name(&self) -> Option<&str> {
        match self {
            HeapValue::Unknown { ty } | HeapValue::Abstract { ty } => Some(ty),
            HeapValue::Object { class, .. } => Some(class),
            HeapValue::Array { ty, .. } => Some(ty),
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float(_) | HeapValue::Double(_) => {
                None
            }
        }
    }

    /// Whether the value is known to be a non-null object.
    pub fn exists(&self) -> bool {
        !matches!(self, HeapValue::Unknown { .. }) && !self.is_primitive()
    }
}

/// Whether an array of descriptor `ty` may have a narrower runtime type: its element type
/// (below all dimensions) is a class, so `B[]` below `A[]` exists. Arrays of primitives and
/// their arrays have no subtypes.
pub fn array_type_can_narrow(ty: &str) -> bool {
    ty.trim_start_matches('[').starts_with('L')
}

/// Prints an internal class name or array descriptor the Java way: `java/lang/String` →
/// `java.lang.String`, `[I` → `int[]`, `[LList;` → `List[]`.
pub fn display_type(internal: &str) -> String {
    if let Some(rest) = internal.strip_prefix('[') {
        let inner = match rest.as_bytes().first() {
            Some(b'L') => display_type(
                rest.strip_prefix('L')
                    .and_then(|r| r.strip_suffix(';'))
                    .unwrap_or(rest),
            ),
            Some(b'[') => display_type(rest),
            Some(c) => match c {
                b'I' => "int",
                b'J' => "long",
                b'Z' => "boolean",
                b'B' => "byte",
                b'C' => "char",
                b'S' => "short",
                b'F' => "float",
                b'D' => "double",
                _ => "?",
            }
            .to_string(),
            None => "?".to_string(),
        };
        return format!("{inner}[]");
    }
    internal.replace('/', ".")
}

/// Inverse of [`display_type`].
pub fn parse_type(shown: &str) -> Option<String> {
    let shown = shown.trim();
    if let Some(elem) = shown.strip_suffix("[]") {
        let inner = match elem {
            "int" => "I".to_string(),
            "long" => "J".to_string(),
            "boolean" => "Z".to_string(),
            "byte" => "B".to_string(),
            "char" => "C".to_string(),
            "short" => "S".to_string(),
            "float" => "F".to_string(),
            "double" => "D".to_string(),
            e if e.ends_with("[]") => parse_type(e)?,
            e => format!("L{};", parse_type(e)?),
        };
        return Some(format!("[{inner}"));
    }
    let ok = !shown.is_empty()
        && shown
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '_' || c == '$');
    ok.then(|| shown.replace('.', "/"))
}

impl fmt::Display for HeapValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapValue::Int(i) => write!(f, "{i}"),
            HeapValue::Long(i) => write!(f, "{i}L"),
            HeapValue::Float(None) => f.write_str("float"),
            HeapValue::Double(None) => f.write_str("double"),
            HeapValue::Float(Some(b)) => write!(f, "{}f", super::floats::format_f32(*b)),
            HeapValue::Double(Some(b)) => write!(f, "{}d", super::floats::format_f64(*b)),
            HeapValue::Unknown { ty } => write!(f, "{}(?)", display_type(ty)),
            HeapValue::Abstract { ty } => write!(f, "{}(…)", display_type(ty)),
            HeapValue::Object { class, fields } => {
                write!(f, "{}(", display_type(class))?;
                for (k, (name, r)) in fields.iter().enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{name}={r}")?;
                }
                f.write_str(")")
            }
            HeapValue::Array {
                ty,
                len,
                elems,
                exact,
            } => {
                let mark = if *exact && array_type_can_narrow(ty) {
                    "!"
                } else {
                    ""
                };
                write!(f, "{}{mark}(len={len})", display_type(ty))?;
                if let Some(e) = elems {
                    f.write_str("[")?;
                    for (k, r) in e.iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{r}")?;
                    }
                    f.write_str("]")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_roundtrip() {
        for t in [
            "List",
            "java/lang/String",
            "[I",
            "[LList;",
            "[[Ljava/lang/String;",
            "[[J",
        ] {
            assert_eq!(parse_type(&display_type(t)).as_deref(), Some(t), "{t}");
        }
        assert_eq!(display_type("[Ljava/lang/String;"), "java.lang.String[]");
    }
}
