//! What instructions and method handles name: resolved field and method references (JVMS
//! §5.4.3) and the ways a method is invoked. Shared by the instruction set ([`super::insn`])
//! and the `invokedynamic` call sites ([`super::indy`]).

use super::descriptor::{FieldType, MethodDescriptor};

/// A resolved field reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldRef {
    pub class: String,
    pub name: String,
    pub desc: FieldType,
}

/// A resolved method reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MethodRef {
    pub class: String,
    pub name: String,
    pub desc: MethodDescriptor,
    pub desc_str: String,
    /// True when the constant was a `CONSTANT_InterfaceMethodref`.
    pub interface: bool,
}

/// How a method is invoked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    Virtual,
    Special,
    Static,
    Interface,
}
