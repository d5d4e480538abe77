//! Records (JLS §8.10): `java.lang.Record` is in the class table (`jdk_table`); javac writes a
//! record's `equals`, `hashCode` and `toString` as `invokedynamic` sites of
//! `java.lang.runtime.ObjectMethods.bootstrap`, whose static arguments are the record class,
//! the component names and a getter handle per component. This module reads such a site.
//!
//! The Javadoc of `ObjectMethods.bootstrap` (JDK 17): `equals` is true when the argument is an
//! instance of the record class and every component is equal (`==` for integral components,
//! the `compare` of the box for floating ones, `Objects.equals` for references); `hashCode`
//! "combines the hash code of each component"; `toString` is the class's simple name and each
//! component's name and string form. The model claims only `[0,1]`, any int and a string of at
//! least the two brackets: so it needs no component's value. It needs that the JDK calls no
//! program code: a reference component's `equals`/`hashCode`/`toString` are run, so every
//! component must be a primitive, an array (whose methods are `Object`'s) or a final JDK class
//! that overrides them itself ([`JDK_VALUE_CLASSES`]); any other is unsupported, named. The
//! same classes decide `java.util.Objects.equals/hashCode/hash` (`calls.rs`).

use crate::class::indy::{BootstrapArg, DynamicSite};
use crate::class::FieldType;

/// `java/lang/runtime/ObjectMethods`, the bootstrap class of records' methods.
const OBJECT_METHODS: &str = "java/lang/runtime/ObjectMethods";

pub(crate) use super::classes::JDK_VALUE_CLASSES;

/// The descriptor of `java.lang.Object`'s `equals` (for `"equals"`) or `hashCode` (else).
pub(crate) fn object_method_descriptor(name: &str) -> &'static str {
    if name == "equals" {
        "(Ljava/lang/Object;)Z"
    } else {
        "()I"
    }
}

/// A record method an `ObjectMethods.bootstrap` site implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecordMethod {
    /// `equals(R, Object)`: `[0,1]`.
    Equals,
    /// `hashCode(R)`: any int.
    HashCode,
    /// `toString(R)`: a string of length ≥ 2.
    ToString,
}

/// The record method of an `ObjectMethods.bootstrap` site named `name` with the call site
/// descriptor `descriptor`: `Ok(None)` for another bootstrap method, an error (what is not
/// modelled) for a site whose components may run program code or an unknown method name.
pub(crate) fn object_method(
    site: &DynamicSite,
    name: &str,
    descriptor: &str,
) -> Result<Option<RecordMethod>, String> {
    let b = &site.bootstrap.member;
    if b.class != OBJECT_METHODS || b.name != "bootstrap" {
        return Ok(None);
    }
    let method = match (name, descriptor.rsplit_once(')').map(|(_, r)| r)) {
        ("equals", Some("Z")) => RecordMethod::Equals,
        ("hashCode", Some("I")) => RecordMethod::HashCode,
        ("toString", Some("Ljava/lang/String;")) => RecordMethod::ToString,
        _ => return Err(format!("record method {name}{descriptor} is not modelled")),
    };
    // arguments: the record class, the names ("a;b"), then one getter handle per component
    for arg in site.args.iter().skip(2) {
        let BootstrapArg::Handle(h) = arg else {
            return Err("ObjectMethods.bootstrap with an argument that is no getter".into());
        };
        let ok = match h.member.desc.ret.as_ref() {
            Some(FieldType::Object(c)) => JDK_VALUE_CLASSES.contains(&c.as_str()),
            Some(_) => true,
            None => false,
        };
        if !ok {
            return Err(format!(
                "record {name}() of the component {} of type {}: its {name}() may be program code, which the JDK calls (not modelled)",
                h.member.name,
                h.member.desc_str
            ));
        }
    }
    Ok(Some(method))
}
