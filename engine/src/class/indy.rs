//! `invokedynamic` call sites (JVMS §4.7.23, §5.4.3.6): the bootstrap method and its static
//! arguments, resolved from the `BootstrapMethods` attribute and the constant pool, and what
//! the engine reads of the two bootstrap methods javac emits for everyday code:
//! `StringConcatFactory.makeConcatWithConstants` (string concatenation since javac 9) and
//! `LambdaMetafactory.metafactory`/`altMetafactory` (lambdas and method references).

use super::descriptor::MethodDescriptor;
use super::error::ClassError;
use super::member::{InvokeKind, MethodRef};

/// A bootstrap method, by class and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BootstrapMethod {
    pub class: &'static str,
    pub name: &'static str,
}

/// The bootstrap methods whose call sites the class layer reads. They are JDK facts, so
/// `models` gives them (`models::BOOTSTRAPS`, set on the class path by `Program::new`), as it
/// gives the hierarchy its library classes; without them no call site is read as a
/// concatenation or a lambda.
#[derive(Debug)]
pub struct Bootstraps {
    /// `StringConcatFactory.makeConcatWithConstants`.
    pub concat_with_constants: BootstrapMethod,
    /// `LambdaMetafactory.metafactory`.
    pub metafactory: BootstrapMethod,
    /// `LambdaMetafactory.altMetafactory`.
    pub alt_metafactory: BootstrapMethod,
}
/// What separates a lambda call site's host class from the site's ordinal in the name of the
/// class the engine makes for it (`everyday/Lambdas$$Lambda$0`).
pub const LAMBDA_CLASS_INFIX: &str = "$$Lambda$";

/// The kind of a `CONSTANT_MethodHandle` (JVMS Table 5.4.3.5-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandleKind {
    GetField,
    GetStatic,
    PutField,
    PutStatic,
    InvokeVirtual,
    InvokeStatic,
    InvokeSpecial,
    NewInvokeSpecial,
    InvokeInterface,
}

impl HandleKind {
    /// The kind of reference kind `k` (1 to 9).
    pub fn from_reference_kind(k: u8) -> Result<HandleKind, ClassError> {
        use HandleKind::*;
        Ok(match k {
            1 => GetField,
            2 => GetStatic,
            3 => PutField,
            4 => PutStatic,
            5 => InvokeVirtual,
            6 => InvokeStatic,
            7 => InvokeSpecial,
            8 => NewInvokeSpecial,
            9 => InvokeInterface,
            _ => {
                return Err(ClassError::malformed(format!(
                    "method handle of reference kind {k}"
                )))
            }
        })
    }

    /// The invoke instruction a method handle of this kind behaves as (`newInvokeSpecial`
    /// calls its constructor with `invokespecial`); `None` for field handles.
    pub fn invoke_kind(self) -> Option<InvokeKind> {
        use HandleKind::*;
        Some(match self {
            InvokeVirtual => InvokeKind::Virtual,
            InvokeStatic => InvokeKind::Static,
            InvokeSpecial | NewInvokeSpecial => InvokeKind::Special,
            InvokeInterface => InvokeKind::Interface,
            GetField | GetStatic | PutField | PutStatic => return None,
        })
    }
}

/// A `CONSTANT_MethodHandle`: its kind and the member it refers to (for field handles, the
/// field's name and descriptor in `method.name`/`method.desc_str` are not used).
#[derive(Clone, Debug, PartialEq)]
pub struct Handle {
    pub kind: HandleKind,
    pub member: MethodRef,
}

/// A static argument of a bootstrap method.
#[derive(Clone, Debug, PartialEq)]
pub enum BootstrapArg {
    String(String),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Class(String),
    /// A `CONSTANT_MethodType`, its descriptor.
    MethodType(String),
    Handle(Handle),
    /// Anything else (a dynamic constant), described.
    Other(String),
}

/// An `invokedynamic` call site's bootstrap: the method and its static arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct DynamicSite {
    pub bootstrap: Handle,
    pub args: Vec<BootstrapArg>,
    /// For a lambda site ([`DynamicSite::lambda`]): its ordinal among the lambda sites of its
    /// class, methods in class-file order, instructions in pc order (the tracer counts the
    /// same way). It names the class the engine makes for the site.
    pub lambda_index: Option<u32>,
}

/// What a `LambdaMetafactory` call site makes (its Javadoc's `interfaceMethodName`,
/// `factoryType`, `interfaceMethodType`, `implementation`, `dynamicMethodType`, and for
/// `altMetafactory` the marker interfaces and bridge method types).
#[derive(Clone, Debug, PartialEq)]
pub struct LambdaSite {
    /// The functional interface's method the object implements.
    pub method_name: String,
    /// The erased type of that method (`samMethodType`).
    pub sam_desc: String,
    /// Further erased types of the same method the object implements (bridges).
    pub bridges: Vec<String>,
    /// The interface the call site's descriptor returns.
    pub interface: String,
    /// Extra interfaces (`altMetafactory` markers).
    pub markers: Vec<String>,
    /// The method the object's method calls.
    pub implementation: Handle,
    /// The type the method is instantiated at (`instantiatedMethodType`).
    pub instantiated: MethodDescriptor,
    /// Whether the object is serializable (`FLAG_SERIALIZABLE`): its class then has a
    /// `writeReplace` the engine does not make.
    pub serializable: bool,
}

impl DynamicSite {
    /// Whether the bootstrap method is `m`.
    pub fn is(&self, m: BootstrapMethod) -> bool {
        self.bootstrap.member.class == m.class && self.bootstrap.member.name == m.name
    }

    /// Whether the site is a `LambdaMetafactory` site (`metafactory` or `altMetafactory`).
    pub fn is_lambda(&self, bs: &Bootstraps) -> bool {
        self.is(bs.metafactory) || self.is(bs.alt_metafactory)
    }

    /// The recipe and constants of a `StringConcatFactory.makeConcatWithConstants` site
    /// (`\u{1}` an argument, `\u{2}` the next constant), `None` for another bootstrap.
    pub fn concat_recipe(&self, bs: &Bootstraps) -> Option<(&str, &[BootstrapArg])> {
        if !self.is(bs.concat_with_constants) {
            return None;
        }
        match self.args.split_first() {
            Some((BootstrapArg::String(recipe), constants)) => Some((recipe, constants)),
            _ => None,
        }
    }

    /// What a `LambdaMetafactory.metafactory`/`altMetafactory` site makes, `None` for
    /// another bootstrap; an error when its arguments are not as the Javadoc describes.
    pub fn lambda(
        &self,
        name: &str,
        desc: &str,
        bs: &Bootstraps,
    ) -> Result<Option<LambdaSite>, ClassError> {
        let alt = self.is(bs.alt_metafactory);
        if !alt && !self.is(bs.metafactory) {
            return Ok(None);
        }
        let bad = |what: &str| ClassError::malformed(format!("LambdaMetafactory site: {what}"));
        let (sam_desc, implementation, instantiated) = match self.args.get(..3) {
            Some(
                [BootstrapArg::MethodType(s), BootstrapArg::Handle(h), BootstrapArg::MethodType(i)],
            ) => (s.clone(), h.clone(), MethodDescriptor::parse(i)?),
            _ => {
                return Err(bad(
                    "arguments are not (MethodType, MethodHandle, MethodType)",
                ))
            }
        };
        let interface = match MethodDescriptor::parse(desc)?.ret {
            Some(super::FieldType::Object(c)) => c,
            _ => return Err(bad("the call site does not return an interface")),
        };
        let (mut markers, mut bridges, mut serializable) = (vec![], vec![], false);
        if alt {
            // FLAG_SERIALIZABLE 1, FLAG_MARKERS 2, FLAG_BRIDGES 4, then the counted lists
            let int = |i: usize| match self.args.get(i) {
                Some(BootstrapArg::Int(v)) => Ok(*v),
                _ => Err(bad("altMetafactory flags or count missing")),
            };
            let flags = int(3)?;
            serializable = flags & 1 != 0;
            let mut at = 4;
            if flags & 2 != 0 {
                let n = usize::try_from(int(at)?).map_err(|_| bad("negative count"))?;
                for k in 0..n {
                    match self.args.get(at + 1 + k) {
                        Some(BootstrapArg::Class(c)) => markers.push(c.clone()),
                        _ => return Err(bad("marker interface is not a class")),
                    }
                }
                at += n + 1;
            }
            if flags & 4 != 0 {
                let n = usize::try_from(int(at)?).map_err(|_| bad("negative count"))?;
                for k in 0..n {
                    match self.args.get(at + 1 + k) {
                        Some(BootstrapArg::MethodType(t)) => bridges.push(t.clone()),
                        _ => return Err(bad("bridge is not a method type")),
                    }
                }
            }
        }
        Ok(Some(LambdaSite {
            method_name: name.to_string(),
            sam_desc,
            bridges,
            interface,
            markers,
            implementation,
            instantiated,
            serializable,
        }))
    }
}

/// The name of the class the engine makes for the lambda site number `index` of `host`.
pub fn lambda_class_name(host: &str, index: u32) -> String {
    format!("{host}{LAMBDA_CLASS_INFIX}{index}")
}

/// The host class and site number of a name [`lambda_class_name`] made.
pub fn parse_lambda_class_name(name: &str) -> Option<(&str, u32)> {
    let (host, index) = name.rsplit_once(LAMBDA_CLASS_INFIX)?;
    if host.is_empty() || index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((host, index.parse().ok()?))
}

/// A method handle for messages: its kind and member.
pub fn describe_handle(h: &Handle) -> String {
    format!(
        "{:?} {}.{}{}",
        h.kind,
        h.member.class.replace('/', "."),
        h.member.name,
        h.member.desc_str
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_class_names_round_trip() {
        let n = lambda_class_name("everyday/Lambdas", 3);
        assert_eq!(n, "everyday/Lambdas$$Lambda$3");
        assert_eq!(parse_lambda_class_name(&n), Some(("everyday/Lambdas", 3)));
        assert_eq!(parse_lambda_class_name("everyday/Lambdas"), None);
        assert_eq!(parse_lambda_class_name("A$$Lambda$x"), None);
        assert_eq!(parse_lambda_class_name("$$Lambda$1"), None);
    }

    #[test]
    fn handle_kinds_follow_the_jvms_table() {
        assert_eq!(
            HandleKind::from_reference_kind(6)
                .ok()
                .map(HandleKind::invoke_kind),
            Some(Some(InvokeKind::Static))
        );
        assert_eq!(
            HandleKind::from_reference_kind(8)
                .ok()
                .map(HandleKind::invoke_kind),
            Some(Some(InvokeKind::Special))
        );
        assert_eq!(
            HandleKind::from_reference_kind(1)
                .ok()
                .map(HandleKind::invoke_kind),
            Some(None)
        );
        assert!(HandleKind::from_reference_kind(0).is_err());
    }
}
