//! Library methods with a model: what the evaluator does instead of executing code.

use super::classes::{
    is_jdk_class, CLASS, ENUM, OBJECT, PRINT_STREAM, RANDOM, STRING, STRING_BUILDER,
};
use super::jdk_table::{is_modelled_class, is_modelled_throwable};
use crate::state::{IntSemantics, Interval};

/// A library method with a model: what the evaluator does instead of executing code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LibraryCall {
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
    /// elements (a shallow copy); a reference array whose elements the state does not show
    /// gives an abstract copy that shares with everything the original may hold.
    ArrayClone,
    /// `Objects.requireNonNull(Object)`: NullPointerException on `null`, else the argument.
    RequireNonNull,
    /// `Objects.requireNonNull(Object, String)`: the same (the message is the exception's,
    /// which the model does not keep).
    RequireNonNullWithMessage,
    /// `Objects.equals(a, b)`: "true if the arguments are equal to each other and false
    /// otherwise ... if both arguments are null, true is returned. Otherwise, if the first
    /// argument is not null, equality is determined by calling the equals method of the first
    /// argument": `a == b` for `null` and for classes with `Object`'s `equals`, `[0,1]` for the
    /// JDK value classes (`0` against `null`); `equals` of any other class may be program code:
    /// unsupported, named.
    ObjectsEquals,
    /// `Objects.hashCode(o)`: "the hash code of a non-null argument and 0 for a null argument";
    /// `Objects.hash(Object...)`: `Arrays.hashCode` of the array ("as if all the input values
    /// were placed into an array"; `0` for a `null` array): any int, where every value's
    /// `hashCode` is the JDK's (the value classes, arrays, classes with `Object`'s).
    /// `hash`: the argument is the array.
    ObjectsHash {
        array: bool,
    },
    /// `Random.nextInt()`, `nextLong()`, `nextBoolean()`, `nextFloat()`, `nextDouble()`: any
    /// value of the result type. Javadoc: "all 2^32 possible int values are produced with
    /// (approximately) equal probability", "all 2^64 possible long values", "the values true
    /// and false"; a run's values depend on the seed, which the model does not know (a
    /// literal seed is treated as unknown too: the graph covers every seed's run).
    RandomNext(RandomKind),
    /// `Random.nextInt(int bound)`: Javadoc "a pseudorandom, uniformly distributed int value
    /// between zero (inclusive) and the specified value (exclusive)"; "Throws:
    /// IllegalArgumentException - if bound is not positive".
    RandomNextIntBounded,
    /// `Class.desiredAssertionStatus()`: `[0,1]`. The status is the JVM's configuration and
    /// the class loader's (Javadoc: "the desired assertion status of the specified class";
    /// `ClassLoader.setClassAssertionStatus` overrides `-ea`), and the checker runs a class
    /// with assertions enabled and disabled (its loader's status), so neither is claimed.
    DesiredAssertionStatus,
    /// `PrintStream.print`/`println` of a primitive or a `String` (or nothing): writes to the
    /// stream, changes no value the program can see. Of an `Object` it calls
    /// `String.valueOf(obj)`, i.e. `obj.toString()`, program code when `obj` is a program
    /// class: modelled only for `null` and strings ([`LibraryCall::PrintObject`]).
    Print,
    /// `print(Object)`/`println(Object)`/`StringBuilder.append(Object)`/`AssertionError(Object)`:
    /// the argument must be `null` or a `String` (whose
    /// `toString()` is itself); any other object is unsupported (its `toString()` may be
    /// program code). `returns_this`: the call returns its receiver (`append`).
    PrintObject {
        returns_this: bool,
    },
    /// `new StringBuilder()`, `StringBuilder(int capacity)`: an empty builder (its length, the
    /// field `count`, stays `new`'s 0; the model keeps no contents); Javadoc of the latter
    /// "NegativeArraySizeException - if the capacity argument is less than 0".
    /// `StringBuilder(String)` is [`LibraryCall::StringBuilderOfString`].
    StringBuilderNew,
    /// `new StringBuilder(String str)`: "initialized to the contents of the specified string":
    /// the string's length; "Throws: NullPointerException - if str is null".
    StringBuilderOfString,
    /// `StringBuilder.append(int|char|boolean|long|float|double|String)`: Javadoc "Returns: a
    /// reference to this object"; the length grows by what [`Appended`] says (the characters
    /// of `String.valueOf(x)`, "null" for a `null` string).
    StringBuilderAppend(super::text::Appended),
    /// `StringBuilder.toString()`: Javadoc "A new String object is allocated", but JDK 17
    /// returns the interned `""` for an empty builder: a string of the builder's length that
    /// may be one the state holds (see `text`).
    StringBuilderToString,
    /// A `String` query, `Integer` parsing or boxing: see [`super::text`].
    Text(super::text::TextCall),
    /// `StringBuilder.length/reverse/setLength/charAt/deleteCharAt/setCharAt/insert`: see
    /// [`super::text::BuilderCall`].
    Builder(super::text::BuilderCall),
    /// `Math`, `Integer`/`Long` utilities, `Character`: see [`super::numbers`].
    Number(super::numbers::NumberCall),
    /// `System.arraycopy` and `java.util.Arrays`: see [`super::arrays`].
    Arrays(super::arrays::ArraysCall),
    /// A `java.util` collection or iterator method: see [`super::collections`].
    Collection(super::collections::CollCall),
    /// `Enum.ordinal()`, `name()`, `toString()`, `compareTo`: see [`super::enums`].
    Enum(super::enums::EnumCall),
    /// `Optional.of`, `ofNullable`, `empty`, `isPresent`, `isEmpty`, `get`, `orElseThrow()`,
    /// `orElse`: see [`super::optional`].
    Optional(super::optional::OptionalCall),
}

/// The result type of [`LibraryCall::RandomNext`].
impl LibraryCall {
    /// Whether the modelled method may change a value the program can see in an object that
    /// existed before the call (its fields, elements, a library object's hidden state). Those
    /// that cannot: constructors without effect (`Object()`), pure functions of their
    /// arguments, `clone()` (a new array), `requireNonNull`, the assertion status, printing
    /// (to the stream only), every `String`/`Integer` method (immutable: they make new objects
    /// at most), a builder's `length()`/`charAt`.
    pub(crate) fn may_write(&self) -> bool {
        !matches!(
            self,
            LibraryCall::NoEffect
                | LibraryCall::Text(_)
                | LibraryCall::Builder(
                    super::text::BuilderCall::Length | super::text::BuilderCall::CharAt
                )
                | LibraryCall::StringLength
                | LibraryCall::MathMax
                | LibraryCall::MathMin
                | LibraryCall::MathAbs
                | LibraryCall::ObjectHashCode
                | LibraryCall::ObjectEquals
                | LibraryCall::ValueEquals
                | LibraryCall::ArrayClone
                | LibraryCall::RequireNonNull
                | LibraryCall::RequireNonNullWithMessage
                | LibraryCall::ObjectsEquals
                | LibraryCall::ObjectsHash { .. }
                | LibraryCall::DesiredAssertionStatus
                | LibraryCall::Print
                | LibraryCall::Number(_)
                | LibraryCall::Enum(_)
                | LibraryCall::Optional(_)
                | LibraryCall::Collection(
                    super::collections::CollCall::Size
                        | super::collections::CollCall::IsEmpty
                        | super::collections::CollCall::Query { .. }
                        | super::collections::CollCall::Get
                        | super::collections::CollCall::MapGet { .. }
                        | super::collections::CollCall::FirstKey
                        | super::collections::CollCall::Nearest
                        | super::collections::CollCall::HasNext
                        | super::collections::CollCall::Iterator
                        | super::collections::CollCall::ListIterator
                        | super::collections::CollCall::Extreme
                        | super::collections::CollCall::Frequency
                        | super::collections::CollCall::View(_)
                        | super::collections::CollCall::EntryPart
                        | super::collections::CollCall::ListOf
                        | super::collections::CollCall::AsList
                        | super::collections::CollCall::Join { .. }
                        | super::collections::CollCall::ToArray { .. }
                )
        ) && !matches!(self, LibraryCall::Arrays(a) if !a.may_write())
    }
}

/// Whether an invocation of `class.name desc` may change a value the program can see in an
/// object that existed before it: `false` only for a modelled library method that cannot
/// ([`LibraryCall::may_write`]).
pub fn invocation_may_write(class: &str, name: &str, desc: &str) -> bool {
    library_call(class, name, desc).is_none_or(|c| c.may_write())
}

/// JDK classes whose methods are deterministic functions of their arguments and of what a
/// recorded JVM run holds (`Math`, the boxes, `String`).
const DETERMINISTIC_CLASSES: &[&str] = &[
    "java/lang/Math",
    "java/lang/StrictMath",
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    STRING,
];

/// Whether a call of `class.name` is a deterministic function of what a recorded JVM run holds
/// (its arguments and the objects the record shows), so that a run whose full state repeats
/// repeats the call's result too: every method of a class outside the JDK's packages,
/// `Object.<init>`, and the methods of [`DETERMINISTIC_CLASSES`] but `random`, identity
/// `hashCode` (a string's is its contents') and `intern`.
pub fn deterministic_call(class: &str, name: &str) -> bool {
    if !is_jdk_class(class) {
        return true;
    }
    if class == OBJECT {
        return name == "<init>";
    }
    if name == "random" || name == "hashCode" && class != STRING || name == "intern" {
        return false;
    }
    DETERMINISTIC_CLASSES.contains(&class)
}

/// Whether a call of the JDK method `class.name desc` ends on every argument without running
/// program code (a class initializer's calls, `class/loop_free.rs`): the constructors of
/// `Object` and `Enum` and the methods of [`DETERMINISTIC_CLASSES`] and `StringBuilder`,
/// when every parameter is a primitive, a string or a primitive array — an `Object` argument
/// could be a program object whose `toString`, `equals` or `hashCode` the method calls.
pub fn ends_without_program_code(class: &str, name: &str, desc: &str) -> bool {
    let known = match class {
        OBJECT | ENUM => name == "<init>",
        STRING_BUILDER => true,
        _ => DETERMINISTIC_CLASSES.contains(&class),
    };
    let Ok(d) = crate::class::MethodDescriptor::parse(desc) else {
        return false;
    };
    known
        && d.params.iter().all(|p| {
            let t = p.to_string();
            !p.is_reference() || t == format!("L{STRING};") || t.len() == 2 && t.starts_with('[')
        })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RandomKind {
    Int,
    Long,
    Boolean,
    Float,
    Double,
}

/// The model of `class.name desc`, if any.
pub(crate) fn library_call(class: &str, name: &str, desc: &str) -> Option<LibraryCall> {
    use LibraryCall::*;
    if is_modelled_class(class) && name == "<init>" {
        let throwable = is_modelled_throwable(class);
        let ok_desc = desc == "()V" || (throwable && desc == "(Ljava/lang/String;)V");
        if ok_desc && (class == OBJECT || throwable) {
            return Some(NoEffect);
        }
    }
    if let Some(t) = super::text::text_call(class, name, desc) {
        return Some(Text(t));
    }
    if let Some(c) = super::collections::collection_call(class, name, desc) {
        return Some(Collection(c));
    }
    if let Some(e) = super::enums::enum_call(class, name, desc) {
        return Some(Enum(e));
    }
    if let Some(o) = super::optional::optional_call(class, name, desc) {
        return Some(Optional(o));
    }
    if class.starts_with('[') && name == "clone" && desc == "()Ljava/lang/Object;" {
        return Some(ArrayClone);
    }
    if class == "java/lang/AssertionError" && name == "<init>" {
        // the detail message is `String.valueOf` of the argument: free of effects for
        // primitives, `toString()` for objects
        return match desc {
            "(Z)V" | "(C)V" | "(I)V" | "(J)V" | "(F)V" | "(D)V" => Some(NoEffect),
            "(Ljava/lang/Object;)V" => Some(PrintObject {
                returns_this: false,
            }),
            _ => None,
        };
    }
    if class == PRINT_STREAM && (name == "print" || name == "println") {
        return match desc {
            "()V"
            | "(Z)V"
            | "(C)V"
            | "(I)V"
            | "(J)V"
            | "(F)V"
            | "(D)V"
            | "(Ljava/lang/String;)V" => Some(Print),
            "(Ljava/lang/Object;)V" => Some(PrintObject {
                returns_this: false,
            }),
            _ => None,
        };
    }
    if class == STRING_BUILDER {
        return match (name, desc) {
            ("<init>", "()V" | "(I)V") => Some(StringBuilderNew),
            ("<init>", "(Ljava/lang/String;)V") => Some(StringBuilderOfString),
            ("append", d) if d.ends_with(")Ljava/lang/StringBuilder;") => {
                let param = &d[1..d.len() - ")Ljava/lang/StringBuilder;".len()];
                match super::text::Appended::of_param(param) {
                    // `append(String)` of `null` appends "null": no call on the argument
                    Some(a) => Some(StringBuilderAppend(a)),
                    None if param == "Ljava/lang/Object;" => {
                        Some(PrintObject { returns_this: true })
                    }
                    None => super::text::builder_call(name, desc).map(Builder),
                }
            }
            ("toString", "()Ljava/lang/String;") => Some(StringBuilderToString),
            _ => super::text::builder_call(name, desc).map(Builder),
        };
    }
    if let Some(n) = super::numbers::number_call(class, name, desc) {
        return Some(Number(n));
    }
    if let Some(a) = super::arrays::arrays_call(class, name, desc) {
        return Some(Arrays(a));
    }
    if class == RANDOM {
        return match (name, desc) {
            // the seed is not modelled: every seed's run is covered
            ("<init>", "()V" | "(J)V") => Some(NoEffect),
            ("nextInt", "()I") => Some(RandomNext(RandomKind::Int)),
            ("nextInt", "(I)I") => Some(RandomNextIntBounded),
            ("nextLong", "()J") => Some(RandomNext(RandomKind::Long)),
            ("nextBoolean", "()Z") => Some(RandomNext(RandomKind::Boolean)),
            ("nextFloat", "()F") => Some(RandomNext(RandomKind::Float)),
            ("nextDouble", "()D") => Some(RandomNext(RandomKind::Double)),
            _ => None,
        };
    }
    if class == CLASS && name == "desiredAssertionStatus" && desc == "()Z" {
        return Some(DesiredAssertionStatus);
    }
    match (class, name, desc) {
        // `new String()`: the object `new` made already has `count` 0, the empty string
        ("java/lang/String", "<init>", "()V") => Some(NoEffect),
        ("java/lang/String", "length", "()I") => Some(StringLength),
        ("java/lang/Object", "hashCode", "()I") => Some(ObjectHashCode),
        ("java/lang/Object", "equals", "(Ljava/lang/Object;)Z") => Some(ObjectEquals),
        ("java/lang/String" | "java/lang/Integer" | "java/lang/Character", "hashCode", "()I") => {
            Some(ObjectHashCode)
        }
        (
            "java/lang/String" | "java/lang/Integer" | "java/lang/Character",
            "equals",
            "(Ljava/lang/Object;)Z",
        ) => Some(ValueEquals),
        ("java/lang/Math", "max", "(II)I") => Some(MathMax),
        ("java/lang/Math", "min", "(II)I") => Some(MathMin),
        ("java/lang/Math", "abs", "(I)I") => Some(MathAbs),
        ("java/util/Objects", "requireNonNull", "(Ljava/lang/Object;)Ljava/lang/Object;") => {
            Some(RequireNonNull)
        }
        (
            "java/util/Objects",
            "requireNonNull",
            "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/Object;",
        ) => Some(RequireNonNullWithMessage),
        ("java/util/Objects", "equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z") => {
            Some(ObjectsEquals)
        }
        ("java/util/Objects", "hashCode", "(Ljava/lang/Object;)I") => {
            Some(ObjectsHash { array: false })
        }
        ("java/util/Objects", "hash", "([Ljava/lang/Object;)I") => {
            Some(ObjectsHash { array: true })
        }
        _ => None,
    }
}

/// `Math.abs(I)I` on an interval (exact under unbounded ints; `abs(MIN) = MIN` under Java
/// ints: "if the argument is equal to the value of Integer.MIN_VALUE ... the result is that
/// same value, which is negative").
pub(crate) fn abs(v: &Interval, sem: IntSemantics) -> Interval {
    super::numbers::abs(v, sem, crate::state::Width::Int)
}

/// The values `Random.nextInt(bound)` returns for a positive `bound` in `b` (`b.lo ≥ 1`):
/// `[0, bound - 1]`, so `[0, max(b) - 1]`.
pub(crate) fn bounded_random(b: &Interval) -> Interval {
    Interval {
        lo: Some(0),
        hi: b.hi.map(|h| h - 1),
    }
}

/// The range of [`LibraryCall::RandomNext`]'s int result (`nextInt()`; a Java `int` whatever
/// the integer semantics of the analysis: the method's return type bounds it).
pub(crate) fn random_int() -> Interval {
    Interval {
        lo: Some(crate::state::JAVA_MIN),
        hi: Some(crate::state::JAVA_MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bounds_follow_the_javadoc() {
        // nextInt(n) for n in [1, 10]: [0, 9]; for n ≥ 5 unbounded above
        assert_eq!(
            bounded_random(&Interval::new(Some(1), Some(10)).unwrap()),
            Interval::new(Some(0), Some(9)).unwrap()
        );
        assert_eq!(
            bounded_random(&Interval::at_least(5)),
            Interval::at_least(0)
        );
        assert_eq!(
            library_call(RANDOM, "nextInt", "(I)I"),
            Some(LibraryCall::RandomNextIntBounded)
        );
        assert_eq!(library_call(RANDOM, "nextGaussian", "()D"), None);
        assert_eq!(
            library_call(PRINT_STREAM, "println", "(Ljava/lang/Object;)V"),
            Some(LibraryCall::PrintObject {
                returns_this: false
            })
        );
        assert_eq!(library_call(PRINT_STREAM, "println", "([C)V"), None);
    }

    #[test]
    fn strings_are_immutable_builders_are_not() {
        for (name, desc) in [
            ("charAt", "(I)C"),
            ("length", "()I"),
            ("substring", "(I)Ljava/lang/String;"),
            ("indexOf", "(II)I"),
            ("equals", "(Ljava/lang/Object;)Z"),
        ] {
            assert!(!invocation_may_write(STRING, name, desc), "{name}");
        }
        assert!(!invocation_may_write(STRING_BUILDER, "charAt", "(I)C"));
        assert!(!invocation_may_write(STRING_BUILDER, "length", "()I"));
        assert!(invocation_may_write(
            STRING_BUILDER,
            "append",
            "(I)Ljava/lang/StringBuilder;"
        ));
        assert!(invocation_may_write(STRING_BUILDER, "setLength", "(I)V"));
        assert!(invocation_may_write(
            STRING_BUILDER,
            "reverse",
            "()Ljava/lang/StringBuilder;"
        ));
    }
}
