//! Models of the JDK classes and methods the engine does not execute (like Miri's shims): one
//! place for everything jtg assumes about library code. Anything not modelled here is an
//! "unsupported" error naming it, never a guessed model.
//!
//! - `java.lang.String` is an object with one field `count ≥ 0` (its length, spec §8);
//!   `length()` returns it.
//! - `java.lang.Object.<init>()` and the no-argument / message constructors of the modelled
//!   exception classes do nothing observable (exceptions carry no fields in the model).
//! - `Math.max/min/abs(int)` compute their results exactly on intervals.
//! - `Object.hashCode()` (identity hash) is any int; `Object.equals(Object)` is reference
//!   equality (an equality refinement decides `=?` pairs first). They apply where a virtual
//!   call reaches `java.lang.Object`'s own method: the receiver's class and its class-path
//!   ancestors do not override it and the first JDK ancestor is `Object` or an exception class.
//! - `clone()` of an array is a shallow copy.
//! - `java.util.Objects.requireNonNull(Object)` (and with a message) throws `NullPointerException` on `null` and
//!   returns its argument otherwise (javac 9+ emits it for `outer.new Inner()`).
//! - `java.util.Random`, `assert` (`Class.desiredAssertionStatus`, `AssertionError`),
//!   `PrintStream.print/println`, `StringBuilder`: see `calls` (each variant cites its Javadoc
//!   contract) and docs/engine.md, *JDK classes*; `String` queries, `Integer` parsing and
//!   boxing: see `text`.
//!
//! - `java.lang.Enum`: see `enums` (an enum object keeps `name` and `ordinal`; `ordinal()`,
//!   `name()`, `toString()`, `compareTo`).
//!
//! - `java.util` collections and their iterators: see `collections` (a collection keeps its
//!   size, an iterator its remaining count; elements are `Integer` boxes or strings, see
//!   `elements`).
//!
//! - `java.util.Optional`: see `optional` (it keeps its value; the JDK's one empty
//!   `Optional` may be every empty one the state holds).
//!
//! Files: `classes` (which classes are the JDK's, well-known names), `jdk_table` (the
//! modelled ones and their supertypes, the table the hierarchy reads),
//! `exceptions` (what the JVM throws from instructions), `fields` (the fields the engine
//! represents), `calls` (library methods), `indy` (the bootstrap methods of the `invokedynamic` sites the
//! engine reads), `concat` (string concatenation),
//! `collections` (`java.util` collections), `elements` (the classes they hold), `enums` (`java.lang.Enum`), `optional`, `numbers`, `arrays`,
//! `records` (the `equals`/`hashCode`/`toString` javac writes for a record), `orders` (the
//! JDK's comparators a sorted collection or a sort may take), `static_values` (what a
//! program's static of a JDK type may hold).
//!
//! - `Math` (ints, longs; double methods return any double), `Integer`/`Long` utilities,
//!   `Character` predicates and mappings: see `numbers`; `System.arraycopy`, `Arrays` on
//!   primitive arrays: see `arrays`.

mod arrays;
mod calls;
mod classes;
pub mod collections;
pub(crate) mod concat;
pub mod elements;
pub mod enums;
pub(crate) mod exceptions;
mod fields;
mod indy;
mod jdk_table;
pub(crate) mod numbers;
pub mod optional;
pub(crate) mod orders;
pub(crate) mod records;
pub(crate) mod static_values;
mod text;

pub(crate) use arrays::ArraysCall;
pub(crate) use calls::{abs, bounded_random, library_call, random_int, LibraryCall, RandomKind};
pub use calls::{deterministic_call, ends_without_program_code, invocation_may_write};
pub use classes::{
    is_always_jdk, is_final_value_class, is_jdk_class, is_tag_interface, jdk_fields_reach,
    may_hold_interned, CLASS, ENUM, MAIN_DESCRIPTOR, OBJECT, STRING, STRING_ARRAY, THROWABLE,
};
pub use fields::{input_only_field, instance_fields};
pub use indy::{lambda_box, BOOTSTRAPS, LAMBDA_METAFACTORY, STRING_CONCAT_FACTORY};
pub use jdk_table::{
    is_final_modelled_class, is_modelled_class, is_modelled_throwable, keeps_object_method,
    JDK_CLASSES,
};
pub use numbers::is_wrapping_call;
pub(crate) use text::{
    Appended, Boxed, BuilderCall, TextCall, NUMBER_FORMAT, PATTERN_SYNTAX, STRING_INDEX,
};
pub use text::{CHARACTER, INTEGER};
