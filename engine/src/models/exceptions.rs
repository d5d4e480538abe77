//! The exceptions the JVM throws from instructions (JVMS §6.5), by class name. They are
//! modelled classes ([`super::JDK_CLASSES`]) whose objects carry no fields.

/// `idiv`/`irem`/`ldiv`/`lrem` by zero.
pub(crate) const ARITHMETIC: &str = "java/lang/ArithmeticException";
/// An array index outside `[0, length)`.
pub(crate) const ARRAY_INDEX_OUT_OF_BOUNDS: &str = "java/lang/ArrayIndexOutOfBoundsException";
/// `aastore` of a value the array's runtime element type does not admit.
pub(crate) const ARRAY_STORE: &str = "java/lang/ArrayStoreException";
/// `checkcast` of an object of another type.
pub(crate) const CLASS_CAST: &str = "java/lang/ClassCastException";
/// `newarray`/`anewarray`/`multianewarray` with a negative count.
pub(crate) const NEGATIVE_ARRAY_SIZE: &str = "java/lang/NegativeArraySizeException";
/// A field access, call, array access, `athrow` or monitor on `null`.
pub(crate) const NULL_POINTER: &str = "java/lang/NullPointerException";

/// Thrown by modelled library methods on an argument they refuse (`Random.nextInt(0)`).
pub(crate) const ILLEGAL_ARGUMENT: &str = "java/lang/IllegalArgumentException";

/// Whether a handler catching `catch_type` (`None`: every exception) catches what a class
/// initializer that ends by an exception makes its class's first use throw: an
/// `ExceptionInInitializerError`, and a `NoClassDefFoundError` at every later use (JVMS
/// §5.5). Both are `LinkageError`s below `Error` below `Throwable`; no class-path class is
/// their supertype.
pub(crate) fn catches_initialization_error(catch_type: Option<&str>) -> bool {
    catch_type.is_none_or(|c| {
        matches!(
            c,
            "java/lang/Throwable"
                | "java/lang/Error"
                | "java/lang/LinkageError"
                | "java/lang/ExceptionInInitializerError"
                | "java/lang/NoClassDefFoundError"
        )
    })
}
