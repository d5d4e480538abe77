//! Bounds-checked access to a parsed constant pool (JVMS §4.4), resolving indices to strings.
//!
//! `classfile-parser` hands us the raw `ConstantInfo` vector; every lookup here checks the
//! index and the entry kind and reports [`ClassError::Malformed`] instead of panicking.

use classfile_parser::attribute_info::BootstrapMethod;
use classfile_parser::constant_info::ConstantInfo;

use super::descriptor::{FieldType, MethodDescriptor};
use super::error::ClassError;
use super::indy::{BootstrapArg, DynamicSite, Handle, HandleKind};
use super::insn::Constant;
use super::member::{FieldRef, MethodRef};

/// A view of a class file's constant pool, indexed 1-based as in the class file.
#[derive(Clone, Copy, Debug)]
pub struct ConstantPool<'a> {
    entries: &'a [ConstantInfo],
    /// The class's `BootstrapMethods` attribute (empty without one).
    bootstrap: &'a [BootstrapMethod],
}

impl<'a> ConstantPool<'a> {
    /// Wraps the `const_pool` vector of a `classfile_parser::ClassFile`.
    pub fn new(entries: &'a [ConstantInfo]) -> Self {
        ConstantPool {
            entries,
            bootstrap: &[],
        }
    }

    /// The same pool with the class's `BootstrapMethods` table, which `invokedynamic`
    /// operands index.
    pub fn with_bootstrap(self, bootstrap: &'a [BootstrapMethod]) -> Self {
        ConstantPool { bootstrap, ..self }
    }

    /// The entry at 1-based `index`.
    pub fn get(&self, index: u16) -> Result<&'a ConstantInfo, ClassError> {
        usize::from(index)
            .checked_sub(1)
            .and_then(|i| self.entries.get(i))
            .ok_or_else(|| {
                ClassError::malformed(format!("constant pool index {index} out of range"))
            })
    }

    fn bad(index: u16, want: &str) -> ClassError {
        ClassError::malformed(format!("constant pool entry {index} is not a {want}"))
    }

    /// A `CONSTANT_Utf8` string.
    pub fn utf8(&self, index: u16) -> Result<&'a str, ClassError> {
        match self.get(index)? {
            ConstantInfo::Utf8(u) => Ok(&u.utf8_string),
            _ => Err(Self::bad(index, "Utf8")),
        }
    }

    /// The internal name of a `CONSTANT_Class` (an array descriptor for array classes).
    pub fn class_name(&self, index: u16) -> Result<&'a str, ClassError> {
        match self.get(index)? {
            ConstantInfo::Class(c) => self.utf8(c.name_index),
            _ => Err(Self::bad(index, "Class")),
        }
    }

    /// Name and descriptor of a `CONSTANT_NameAndType`.
    pub fn name_and_type(&self, index: u16) -> Result<(&'a str, &'a str), ClassError> {
        match self.get(index)? {
            ConstantInfo::NameAndType(nt) => {
                Ok((self.utf8(nt.name_index)?, self.utf8(nt.descriptor_index)?))
            }
            _ => Err(Self::bad(index, "NameAndType")),
        }
    }

    /// A `CONSTANT_Fieldref`, resolved to strings and a parsed type.
    pub fn field_ref(&self, index: u16) -> Result<FieldRef, ClassError> {
        match self.get(index)? {
            ConstantInfo::FieldRef(r) => {
                let class = self.class_name(r.class_index)?.to_string();
                let (name, desc) = self.name_and_type(r.name_and_type_index)?;
                Ok(FieldRef {
                    class,
                    name: name.to_string(),
                    desc: FieldType::parse(desc)?,
                })
            }
            _ => Err(Self::bad(index, "Fieldref")),
        }
    }

    /// A `CONSTANT_Methodref` or `CONSTANT_InterfaceMethodref`.
    pub fn method_ref(&self, index: u16) -> Result<MethodRef, ClassError> {
        let (class_index, nat, interface) = match self.get(index)? {
            ConstantInfo::MethodRef(r) => (r.class_index, r.name_and_type_index, false),
            ConstantInfo::InterfaceMethodRef(r) => (r.class_index, r.name_and_type_index, true),
            _ => return Err(Self::bad(index, "Methodref or InterfaceMethodref")),
        };
        let class = self.class_name(class_index)?.to_string();
        let (name, desc) = self.name_and_type(nat)?;
        Ok(MethodRef {
            class,
            name: name.to_string(),
            desc: MethodDescriptor::parse(desc)?,
            desc_str: desc.to_string(),
            interface,
        })
    }

    /// Name, descriptor and bootstrap of a `CONSTANT_InvokeDynamic`.
    pub fn invoke_dynamic(&self, index: u16) -> Result<(String, String, DynamicSite), ClassError> {
        match self.get(index)? {
            ConstantInfo::InvokeDynamic(d) => {
                let (name, desc) = self.name_and_type(d.name_and_type_index)?;
                let bsm = self
                    .bootstrap
                    .get(usize::from(d.bootstrap_method_attr_index))
                    .ok_or_else(|| {
                        ClassError::malformed(format!(
                            "invokedynamic #{index}: bootstrap method {} out of range",
                            d.bootstrap_method_attr_index
                        ))
                    })?;
                let site = DynamicSite {
                    bootstrap: self.method_handle(bsm.bootstrap_method_ref)?,
                    args: bsm
                        .bootstrap_arguments
                        .iter()
                        .map(|&a| self.bootstrap_arg(a))
                        .collect::<Result<_, _>>()?,
                    lambda_index: None,
                };
                Ok((name.to_string(), desc.to_string(), site))
            }
            _ => Err(Self::bad(index, "InvokeDynamic")),
        }
    }

    /// A `CONSTANT_MethodHandle`.
    pub fn method_handle(&self, index: u16) -> Result<Handle, ClassError> {
        match self.get(index)? {
            ConstantInfo::MethodHandle(h) => {
                let kind = HandleKind::from_reference_kind(h.reference_kind)?;
                let member = match kind.invoke_kind() {
                    Some(_) => self.method_ref(h.reference_index)?,
                    None => {
                        let f = self.field_ref(h.reference_index)?;
                        MethodRef {
                            class: f.class,
                            name: f.name,
                            desc: super::MethodDescriptor {
                                params: vec![],
                                ret: Some(f.desc.clone()),
                            },
                            desc_str: f.desc.to_string(),
                            interface: false,
                        }
                    }
                };
                Ok(Handle { kind, member })
            }
            _ => Err(Self::bad(index, "MethodHandle")),
        }
    }

    /// A static argument of a bootstrap method.
    fn bootstrap_arg(&self, index: u16) -> Result<BootstrapArg, ClassError> {
        Ok(match self.get(index)? {
            ConstantInfo::String(s) => BootstrapArg::String(self.utf8(s.string_index)?.to_string()),
            ConstantInfo::Integer(c) => BootstrapArg::Int(c.value),
            ConstantInfo::Long(c) => BootstrapArg::Long(c.value),
            ConstantInfo::Float(c) => BootstrapArg::Float(c.value),
            ConstantInfo::Double(c) => BootstrapArg::Double(c.value),
            ConstantInfo::Class(_) => BootstrapArg::Class(self.class_name(index)?.to_string()),
            ConstantInfo::MethodType(t) => {
                BootstrapArg::MethodType(self.utf8(t.descriptor_index)?.to_string())
            }
            ConstantInfo::MethodHandle(_) => BootstrapArg::Handle(self.method_handle(index)?),
            _ => BootstrapArg::Other(format!("constant #{index}")),
        })
    }

    /// A loadable constant (operand of `ldc`, `ldc_w`, `ldc2_w`, or a `ConstantValue`).
    pub fn constant(&self, index: u16) -> Result<Constant, ClassError> {
        Ok(match self.get(index)? {
            ConstantInfo::Integer(c) => Constant::Int(c.value),
            ConstantInfo::Long(c) => Constant::Long(c.value),
            ConstantInfo::Float(c) => Constant::Float(c.value),
            ConstantInfo::Double(c) => Constant::Double(c.value),
            ConstantInfo::String(s) => Constant::String(self.utf8(s.string_index)?.to_string()),
            ConstantInfo::Class(_) => Constant::Class(self.class_name(index)?.to_string()),
            ConstantInfo::MethodType(t) => {
                Constant::Other(format!("MethodType {}", self.utf8(t.descriptor_index)?))
            }
            ConstantInfo::MethodHandle(h) => Constant::Other(format!(
                "MethodHandle kind {} #{}",
                h.reference_kind, h.reference_index
            )),
            _ => return Err(Self::bad(index, "loadable constant")),
        })
    }
}
