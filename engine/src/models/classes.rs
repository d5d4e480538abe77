//! Which classes are the JDK's, and the well-known names the evaluator uses. Which of them the
//! engine models, with supers, interfaces and flags, is the library table of `jdk_table`.
//!
//! A class is the JDK's when it is in one of [`JDK_PACKAGES`]. The JVM defines `java/` classes
//! from the JDK alone (no other class loader may define them, JVMS §5.3), whatever a class path
//! holds; a class of the other JDK packages comes from the class path when the class path has
//! it, and the engine then analyses it like program code. A JDK class the engine does not
//! model is "unsupported", named, never guessed.

pub use crate::class::jvms::OBJECT;

/// `java.lang.String`: modelled as an object with its length (see [`super::instance_fields`]).
pub const STRING: &str = "java/lang/String";
/// `java.lang.Class`: the object `ldc` of a class constant pushes.
pub const CLASS: &str = "java/lang/Class";
/// `java.io.PrintStream`: the type of `System.out`.
pub(super) const PRINT_STREAM: &str = "java/io/PrintStream";
/// `java.util.Random`.
pub(super) const RANDOM: &str = "java/util/Random";
/// `java.lang.StringBuilder`.
pub(super) const STRING_BUILDER: &str = "java/lang/StringBuilder";
/// The type of `main`'s argument array.
pub const STRING_ARRAY: &str = "[Ljava/lang/String;";
/// The root of the exception classes.
pub const THROWABLE: &str = "java/lang/Throwable";
pub(super) const RUNTIME_EXCEPTION: &str = "java/lang/RuntimeException";
pub(super) const SERIALIZABLE: &str = "java/io/Serializable";
/// The descriptor of a program's entry point `public static void main(String[])` (JLS §12.1.4).
pub const MAIN_DESCRIPTOR: &str = "([Ljava/lang/String;)V";
/// `java.lang.Enum`, the superclass of every enum class (JLS §8.9).
pub const ENUM: &str = "java/lang/Enum";
/// `java.lang.constant.Constable`, an interface of `Enum` since Java 12.
pub(super) const CONSTABLE: &str = "java/lang/constant/Constable";

/// Final JDK classes whose `equals`, `hashCode` and `toString` are their own (JDK code only):
/// `String` and the boxes of the primitive types, whose one field is the primitive value.
pub(crate) const JDK_VALUE_CLASSES: &[&str] = &[
    STRING,
    "java/lang/Integer",
    "java/lang/Long",
    "java/lang/Short",
    "java/lang/Byte",
    "java/lang/Character",
    "java/lang/Boolean",
    "java/lang/Float",
    "java/lang/Double",
];

/// What the fields a JDK class declares (its own and its JDK superclasses') let an object of
/// it, or of a program class extending it, reach concretely, where the JDK fixes that to a few
/// classes (array types as descriptors): `Object` and `Record` declare no field, a box only its
/// value, `Enum` its `name` (a string), a string its private byte array (`String.value`, JDK 9+
/// compact strings, never handed out). `None`: any object (a collection reaches its elements,
/// which the engine's fields of it do not show; a `Throwable` its cause; an unmodelled class).
pub fn jdk_fields_reach(class: &str) -> Option<&'static [&'static str]> {
    match class {
        OBJECT | "java/lang/Record" => Some(&[]),
        STRING => Some(&["[B"]),
        ENUM => Some(&[STRING, "[B"]),
        _ if JDK_VALUE_CLASSES.contains(&class) => Some(&[]),
        _ => None,
    }
}

/// Whether a value of declared type `class` (a JDK class) is an object of exactly that class:
/// a string or a box (final classes).
pub fn is_final_value_class(class: &str) -> bool {
    JDK_VALUE_CLASSES.contains(&class)
}

/// The JDK's interfaces that tag a class without giving a program a method to call on an
/// object of unknown class (`Serializable`, `Cloneable`: no methods; `Constable`,
/// `ConstantDesc`: the constant API of `java.lang.invoke`). As the type of a merged object they
/// say less than any other common supertype ([`is_tag_interface`]).
const TAG_INTERFACES: [&str; 4] = [
    SERIALIZABLE,
    "java/lang/Cloneable",
    CONSTABLE,
    "java/lang/constant/ConstantDesc",
];

/// Whether `class` is one of [`TAG_INTERFACES`].
pub fn is_tag_interface(class: &str) -> bool {
    TAG_INTERFACES.contains(&class)
}

/// The JDK's packages (internal-name prefixes).
pub(super) const JDK_PACKAGES: [&str; 5] = ["java/", "javax/", "jdk/", "sun/", "com/sun/"];

/// Whether `class` (internal name) is in one of the JDK's packages.
pub fn is_jdk_class(class: &str) -> bool {
    JDK_PACKAGES.iter().any(|p| class.starts_with(p))
}

/// Whether the JVM takes `class` from the JDK whatever the class path holds: the `java/`
/// package, which only the JDK's class loader may define. The tracer records no field of such
/// an object, and the engine represents none but those of [`super::instance_fields`].
pub fn is_always_jdk(class: &str) -> bool {
    class.starts_with(JDK_PACKAGES[0])
}

/// Whether a static of type `ty` may hold an object of class `class` (a string's or a box's
/// class or static type) that existed before the run: an interned string (`ldc`, the `""` of
/// an empty `substring`) or a cached `Integer` box, which the models return as objects the run
/// may already hold.
pub fn may_hold_interned(ty: &str, class: &str) -> bool {
    const ABOVE: [&str; 6] = [
        OBJECT,
        "java/lang/CharSequence",
        "java/lang/Comparable",
        "java/io/Serializable",
        "java/lang/Number",
        "java/lang/constant/Constable",
    ];
    (class == STRING || class == "java/lang/Integer") && (ty == class || ABOVE.contains(&ty))
}
