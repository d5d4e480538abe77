//! The classes the JVM specification itself names: the root of the class hierarchy, the
//! interfaces every array type implements (JVMS §4.10.1.2, JLS §10.8), and the classes of the
//! objects `ldc` pushes (JVMS §6.5 `ldc`). Every other fact about
//! JDK classes lives in `models`.

/// The root of the class hierarchy; the superclass of every class but itself.
pub const OBJECT: &str = "java/lang/Object";

/// The interfaces every array type implements.
pub(crate) const ARRAY_INTERFACES: [&str; 2] = ["java/lang/Cloneable", "java/io/Serializable"];

/// The class of the object `ldc` pushes for a string constant.
pub(crate) const STRING: &str = "java/lang/String";

/// The class of the object `ldc` pushes for a class constant.
pub(crate) const CLASS: &str = "java/lang/Class";

/// The package whose classes only the bootstrap class loader defines (JVMS §5.3: a class
/// loader other than the bootstrap one may not define a class of `java/`, JLS §13.1). The
/// bootstrap loader does not see the class path, so no class of this package has a supertype
/// from the class path: a `java/` class is never below a class of the analysed program.
pub(crate) const BOOTSTRAP_ONLY_PACKAGE: &str = "java/";
