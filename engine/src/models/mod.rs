//! Models of the JDK classes and methods the engine does not execute (like Miri's shims): one
//! place for everything jtg assumes about library code. Anything not modelled here is an
//! "unsupported" error naming it, never a guessed model.
//!
//! - `java.lang.String` is an object with one field `count ≥ 0` (its length, spec §8);
//!   `length()` returns it.
//! - `java.lang.Object.<init>()` and the no-argument / message constructors of the built-in
//!   exception classes do nothing observable (exceptions carry no fields in the model).
//! - `Math.max/min/abs(int)` compute their results exactly on intervals.
//! - `Object.hashCode()` (identity hash) is any int; `Object.equals(Object)` is reference
//!   equality (an equality refinement decides `=?` pairs first). They apply where a virtual
//!   call reaches `java.lang.Object`'s own method: the receiver's class and its class-path
//!   ancestors do not override it and the first JDK ancestor is `Object` or an exception class.
//! - `clone()` of an array is a shallow copy.
//! - `java.util.Objects.requireNonNull(Object)` throws `NullPointerException` on `null` and
//!   returns its argument otherwise (javac 9+ emits it for `outer.new Inner()`).
//!
//! No method on longs, floats or doubles (`Float.isNaN`, `Math.sqrt`, `Long.compare`, …) is
//! modelled: the bytecode instructions on them are (`eval/arith.rs`, `eval/float.rs`).

use crate::class::{FieldType, Hierarchy};
use crate::error::EngineError;
use crate::state::{IntSemantics, Interval};

/// The instance fields of `class` as the engine models them: `(name, type, range)` sorted by
/// name; a `Some` range overrides the most general value of the type.
pub fn instance_fields(
    hierarchy: &Hierarchy,
    class: &str,
) -> Result<Vec<(String, FieldType, Option<Interval>)>, EngineError> {
    if class == "java/lang/String" {
        return Ok(vec![(
            "count".into(),
            FieldType::Int,
            Some(Interval::at_least(0)),
        )]);
    }
    if Hierarchy::is_builtin(class) {
        return Ok(vec![]);
    }
    Ok(hierarchy
        .instance_fields(class)?
        .into_iter()
        .map(|(_, name, t)| (name, t, None))
        .collect())
}

/// A library method with a model: what the evaluator does instead of executing code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LibraryCall {
    /// Pops the arguments (and receiver), pushes nothing.
    NoEffect,
    /// `String.length()`: the receiver's `count`.
    StringLength,
    /// `Math.max(II)I`, `Math.min(II)I`, `Math.abs(I)I`.
    MathMax,
    MathMin,
    MathAbs,
    /// `Object.hashCode()`: any int.
    ObjectHashCode,
    /// `Object.equals(Object)`: `this == o`.
    ObjectEquals,
    /// `clone()` of an array: a new array of the same type and length with the same
    /// elements (a shallow copy), for primitive arrays and arrays with known elements.
    ArrayClone,
    /// `Objects.requireNonNull(Object)`: NullPointerException on `null`, else the argument.
    RequireNonNull,
}

/// The model of `class.name desc`, if any.
pub fn library_call(class: &str, name: &str, desc: &str) -> Option<LibraryCall> {
    use LibraryCall::*;
    if Hierarchy::is_builtin(class) && name == "<init>" {
        let throwable = is_exception_class(class);
        let ok_desc = desc == "()V" || (throwable && desc == "(Ljava/lang/String;)V");
        if ok_desc && (class == "java/lang/Object" || throwable) {
            return Some(NoEffect);
        }
    }
    if class.starts_with('[') && name == "clone" && desc == "()Ljava/lang/Object;" {
        return Some(ArrayClone);
    }
    match (class, name, desc) {
        // `new String()`: the object `new` made already has `count` 0, the empty string
        ("java/lang/String", "<init>", "()V") => Some(NoEffect),
        ("java/lang/String", "length", "()I") => Some(StringLength),
        ("java/lang/Object", "hashCode", "()I") => Some(ObjectHashCode),
        ("java/lang/Object", "equals", "(Ljava/lang/Object;)Z") => Some(ObjectEquals),
        ("java/lang/Math", "max", "(II)I") => Some(MathMax),
        ("java/lang/Math", "min", "(II)I") => Some(MathMin),
        ("java/lang/Math", "abs", "(I)I") => Some(MathAbs),
        ("java/util/Objects", "requireNonNull", "(Ljava/lang/Object;)Ljava/lang/Object;") => {
            Some(RequireNonNull)
        }
        _ => None,
    }
}

/// The built-in Throwable classes (their constructors are modelled).
pub fn is_exception_class(class: &str) -> bool {
    class.ends_with("Exception") || class.ends_with("Error") || class == "java/lang/Throwable"
}

/// `Math.abs` on an interval (exact under unbounded ints; `abs(MIN) = MIN` under Java ints).
pub fn abs(v: &Interval, sem: IntSemantics) -> Interval {
    let neg = v.at_most_part(-1).map(|n| n.neg(sem));
    let pos = v.at_least_part(0);
    match (neg, pos) {
        (Some(a), Some(b)) => a.hull(&b),
        (Some(a), None) => a,
        (None, Some(b)) => b,
        (None, None) => *v,
    }
}
