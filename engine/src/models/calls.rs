//! Library methods with a model: what the evaluator does instead of executing code.

use super::classes::{is_modelled_class, is_modelled_throwable, OBJECT};
use crate::state::{IntSemantics, Interval};

/// A library method with a model: what the evaluator does instead of executing code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LibraryCall {
    /// Pops the arguments (and receiver), pushes nothing.
    NoEffect,
    /// `String.length()`: the receiver's `count`.
    StringLength,
    /// `Math.max(II)I`, `Math.min(II)I`, `Math.abs(I)I`.
    MathMax,
    MathMin,
    MathAbs,
    /// `Object.hashCode()`, and `String`'s and `Integer`'s: any int.
    ObjectHashCode,
    /// `Object.equals(Object)`: `this == o`.
    ObjectEquals,
    /// `String.equals(Object)`, `Integer.equals(Object)`: some boolean (the engine does not
    /// model their values; neither throws nor writes).
    ValueEquals,
    /// `clone()` of an array: a new array of the same type and length with the same
    /// elements (a shallow copy), for primitive arrays and arrays with known elements.
    ArrayClone,
    /// `Objects.requireNonNull(Object)`: NullPointerException on `null`, else the argument.
    RequireNonNull,
}

/// The model of `class.name desc`, if any.
pub fn library_call(class: &str, name: &str, desc: &str) -> Option<LibraryCall> {
    use LibraryCall::*;
    if is_modelled_class(class) && name == "<init>" {
        let throwable = is_modelled_throwable(class);
        let ok_desc = desc == "()V" || (throwable && desc == "(Ljava/lang/String;)V");
        if ok_desc && (class == OBJECT || throwable) {
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
        ("java/lang/String" | "java/lang/Integer", "hashCode", "()I") => Some(ObjectHashCode),
        ("java/lang/String" | "java/lang/Integer", "equals", "(Ljava/lang/Object;)Z") => {
            Some(ValueEquals)
        }
        ("java/lang/Math", "max", "(II)I") => Some(MathMax),
        ("java/lang/Math", "min", "(II)I") => Some(MathMin),
        ("java/lang/Math", "abs", "(I)I") => Some(MathAbs),
        ("java/util/Objects", "requireNonNull", "(Ljava/lang/Object;)Ljava/lang/Object;") => {
            Some(RequireNonNull)
        }
        _ => None,
    }
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
