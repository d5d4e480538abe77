//! What a program's static field of a JDK type may hold, from the instructions that store it.
//!
//! The engine reads a static's first-access value as an input (`Program::fill_static`) and
//! realizes an object of a JDK type among the classes the models know (`jdk_table`). The
//! checker draws inputs of those classes; a static's value is what the program stored (in its
//! `<clinit>` mostly), which may be of any JDK class: `Set.of(…)`'s `ImmutableCollections$SetN`,
//! the wrapper `Collections.unmodifiableList` returns. Realized among the modelled classes,
//! such a value is a wrong graph (`jtg check` of a loop over `static final Set<String> KW =
//! Set.of(…)` had 80 violations in 100 runs). So a static of a JDK type other than a final
//! value class is read only where every store into it stores an object of a class the engine
//! knows, as the instruction before the `putstatic` shows in javac's shapes ([`stored`]);
//! else unsupported, named (the store and what it stores). Where all stores make objects of
//! one class (`static final Map<String, Integer> SEEN = new HashMap<>()`), the static is read
//! as of that class ([`Stores::only_class`]), not as any modelled `Map`.

use super::classes::{is_jdk_class, CLASS, STRING};
use super::collections::{collection_call, CollCall};
use super::indy::LAMBDA_METAFACTORY;
use super::jdk_table::is_modelled_class;
use crate::class::{Constant, Insn, InvokeKind};

/// What a `putstatic` stores, as far as the models know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stored {
    /// `null`.
    Null,
    /// An object of exactly this class.
    Class(String),
    /// An object of one of several classes the engine knows (`List.of`'s two, a lambda's).
    Known,
}

/// What the `putstatic` after `before` stores: `aconst_null`; `invokespecial C.<init>`
/// (javac's `new C(…)` leaves that object on the stack) of a modelled JDK class or a program
/// class; a string or class constant; a lambda (`LambdaMetafactory`: the engine's lambda
/// class); `List.of(…)`, `Arrays.asList(…)` (modelled lists). `Err` says what it stores
/// otherwise.
pub(crate) fn stored(before: Option<&Insn>) -> Result<Stored, String> {
    let known_class = |c: &str| !is_jdk_class(c) || is_modelled_class(c);
    match before {
        Some(Insn::AConstNull) => Ok(Stored::Null),
        Some(Insn::Ldc(Constant::String(_))) => Ok(Stored::Class(STRING.into())),
        Some(Insn::Ldc(Constant::Class(_))) => Ok(Stored::Class(CLASS.into())),
        Some(Insn::Invoke {
            kind: InvokeKind::Special,
            method,
        }) if method.name == "<init>" && known_class(&method.class) => {
            Ok(Stored::Class(method.class.clone()))
        }
        Some(Insn::Invoke {
            kind: InvokeKind::Static,
            method,
        }) if matches!(
            collection_call(&method.class, &method.name, &method.desc_str),
            Some(CollCall::ListOf | CollCall::AsList)
        ) =>
        {
            Ok(Stored::Known)
        }
        Some(Insn::InvokeDynamic { site, .. })
            if site.bootstrap.member.class == LAMBDA_METAFACTORY =>
        {
            Ok(Stored::Known)
        }
        Some(Insn::Invoke { method, .. }) if method.name == "<init>" => Err(format!(
            "a new {} (a class the engine does not model)",
            method.class.replace('/', ".")
        )),
        Some(Insn::Invoke { method, .. }) => Err(format!(
            "the result of {}.{}",
            method.class.replace('/', "."),
            method.name
        )),
        Some(other) => Err(format!("a value made by {}", other.mnemonic())),
        None => Err("a value of unknown origin".into()),
    }
}

/// What the stores into one static field store, over all of them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stores {
    /// The first store of an object the engine may not know, as "where stores what".
    pub(crate) unknown: Option<String>,
    /// The one class every non-null store stores, if there is one.
    pub(crate) class: Option<String>,
    /// Whether stores store objects of more than one class (or of one of several).
    pub(crate) several: bool,
}

impl Stores {
    /// One more store, at `at`.
    pub(crate) fn add(&mut self, stored: Result<Stored, String>, at: impl FnOnce() -> String) {
        match stored {
            Err(what) => {
                if self.unknown.is_none() {
                    self.unknown = Some(format!("{} stores {what}", at()));
                }
            }
            Ok(Stored::Null) => {}
            Ok(Stored::Known) => self.several = true,
            Ok(Stored::Class(c)) => match &self.class {
                Some(d) if *d != c => self.several = true,
                _ => self.class = Some(c),
            },
        }
    }

    /// The class every value the static may hold (besides `null`) is of, when it is one.
    pub(crate) fn only_class(&self) -> Option<&str> {
        (!self.several && self.unknown.is_none())
            .then_some(self.class.as_deref())
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class::{MethodDescriptor, MethodRef};

    fn invoke(kind: InvokeKind, class: &str, name: &str, desc: &str) -> Insn {
        Insn::Invoke {
            kind,
            method: MethodRef {
                class: class.into(),
                name: name.into(),
                desc: MethodDescriptor::parse(desc).expect("descriptor"),
                desc_str: desc.into(),
                interface: false,
            },
        }
    }

    #[test]
    fn stores_of_known_objects_are_told_apart_from_others() {
        let new_map = invoke(InvokeKind::Special, "java/util/HashMap", "<init>", "()V");
        let new_node = invoke(InvokeKind::Special, "app/Node", "<init>", "()V");
        let list_of = invoke(
            InvokeKind::Static,
            "java/util/List",
            "of",
            "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/util/List;",
        );
        let set_of = invoke(
            InvokeKind::Static,
            "java/util/Set",
            "of",
            "(Ljava/lang/Object;)Ljava/util/Set;",
        );
        let new_scanner = invoke(InvokeKind::Special, "java/util/Scanner", "<init>", "()V");
        assert_eq!(stored(Some(&Insn::AConstNull)), Ok(Stored::Null));
        assert_eq!(
            stored(Some(&new_map)),
            Ok(Stored::Class("java/util/HashMap".into()))
        );
        assert_eq!(
            stored(Some(&new_node)),
            Ok(Stored::Class("app/Node".into()))
        );
        assert_eq!(stored(Some(&list_of)), Ok(Stored::Known));
        assert_eq!(
            stored(Some(&set_of)),
            Err("the result of java.util.Set.of".into())
        );
        assert_eq!(
            stored(Some(&new_scanner)),
            Err("a new java.util.Scanner (a class the engine does not model)".into())
        );
        assert!(stored(Some(&Insn::Dup)).is_err());
        assert!(stored(None).is_err());
    }

    #[test]
    fn one_class_only_when_every_store_makes_it() {
        let at = || "C.<clinit>()V pc 3".to_string();
        let mut s = Stores::default();
        s.add(Ok(Stored::Null), at);
        s.add(Ok(Stored::Class("java/util/HashMap".into())), at);
        assert_eq!(s.only_class(), Some("java/util/HashMap"));
        s.add(Ok(Stored::Class("java/util/TreeMap".into())), at);
        assert_eq!(s.only_class(), None);
        let mut t = Stores::default();
        t.add(Ok(Stored::Class("java/util/HashMap".into())), at);
        t.add(Err("the result of app.F.make".into()), at);
        assert_eq!(t.only_class(), None);
        assert_eq!(
            t.unknown.as_deref(),
            Some("C.<clinit>()V pc 3 stores the result of app.F.make")
        );
    }
}
