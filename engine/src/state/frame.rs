//! Frames of the call stack: program position, local variables, operand stack, and an optional
//! pending exception (spec §2.1).

use super::Ref;
use std::fmt;
use std::sync::Arc;

/// A method, identified by class (internal name), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MethodId {
    pub class: Arc<str>,
    pub name: Arc<str>,
    pub desc: Arc<str>,
}

impl MethodId {
    pub fn new(class: &str, name: &str, desc: &str) -> MethodId {
        MethodId {
            class: class.into(),
            name: name.into(),
            desc: desc.into(),
        }
    }

    /// The method as the class-level analyses name it (`class::MethodKey`).
    pub fn key(&self) -> crate::class::MethodKey {
        (
            self.class.to_string(),
            self.name.to_string(),
            self.desc.to_string(),
        )
    }

    /// The method an analysis of the class path names by `key`.
    pub fn of_key(key: &crate::class::MethodKey) -> MethodId {
        MethodId::new(&key.0, &key.1, &key.2)
    }

    /// Parses `Class.method(desc)` (class dotted or slashed, as printed by `Display`).
    pub fn parse(s: &str) -> Option<MethodId> {
        let open = s.find('(')?;
        let (head, desc) = s.split_at(open);
        let dot = head.rfind('.')?;
        let (class, name) = (&head[..dot], &head[dot + 1..]);
        if class.is_empty() || name.is_empty() || !desc.contains(')') {
            return None;
        }
        Some(MethodId::new(&class.replace('.', "/"), name, desc))
    }
}

impl fmt::Display for MethodId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}{}",
            self.class.replace('/', "."),
            self.name,
            self.desc
        )
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub method: MethodId,
    pub pc: u32,
    /// Local variable slots; `None` is an unset slot (or the second half of a long/double).
    pub locals: Vec<Option<Ref>>,
    /// Operand stack, bottom first (the printer shows it top first, like the thesis figures).
    pub stack: Vec<Ref>,
    /// A pending exception: the next step handles it instead of executing `pc`.
    pub exception: Option<Ref>,
}

impl Frame {
    pub fn new(method: MethodId, max_locals: usize) -> Frame {
        Frame {
            method,
            pc: 0,
            locals: vec![None; max_locals],
            stack: vec![],
            exception: None,
        }
    }

    /// All references held by the frame (locals, then stack bottom-up, then the exception).
    pub fn refs(&self) -> impl Iterator<Item = Ref> + '_ {
        self.locals
            .iter()
            .flatten()
            .copied()
            .chain(self.stack.iter().copied())
            .chain(self.exception)
    }

    pub fn rename(&mut self, from: Ref, to: Ref) {
        for slot in self.locals.iter_mut().flatten() {
            if *slot == from {
                *slot = to;
            }
        }
        for s in self.stack.iter_mut() {
            if *s == from {
                *s = to;
            }
        }
        if self.exception == Some(from) {
            self.exception = Some(to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_id_roundtrip() {
        let m = MethodId::new("a/b/List", "contains", "(La/b/List;I)Z");
        assert_eq!(m.to_string(), "a.b.List.contains(La/b/List;I)Z");
        assert_eq!(MethodId::parse(&m.to_string()), Some(m));
        assert_eq!(MethodId::parse("nodot(I)V"), None);
    }
}
