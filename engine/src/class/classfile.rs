//! Our model of one class file, built from `classfile-parser` output.
//!
//! [`parse_class`] turns class-file bytes into a [`Class`] with decoded method bodies
//! ([`Code`]), exception handlers and local-variable names. It never panics on bad input.

use classfile_parser::attribute_info::{
    bootstrap_methods_attribute_parser, code_attribute_parser, AttributeInfo,
};
use classfile_parser::field_info::FieldAccessFlags;
use classfile_parser::method_info::MethodAccessFlags;
use classfile_parser::ClassAccessFlags;

use super::decode::decode_code;
use super::descriptor::{FieldType, MethodDescriptor};
use super::error::ClassError;
use super::insn::{Constant, Insn};
use super::pool::ConstantPool;

/// A parsed class or interface.
#[derive(Clone, Debug)]
pub struct Class {
    /// Internal name, e.g. `java/lang/String`.
    pub name: String,
    /// Internal name of the direct superclass; `None` only for `java/lang/Object`.
    pub super_name: Option<String>,
    pub interfaces: Vec<String>,
    pub is_interface: bool,
    pub is_abstract: bool,
    pub is_final: bool,
    pub fields: Vec<Field>,
    pub methods: Vec<Method>,
    pub source_file: Option<String>,
}

/// A declared field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub desc: FieldType,
    pub is_static: bool,
    /// `ACC_ENUM`: the field holds an element of an enum (an enum class's constant).
    pub is_enum: bool,
    /// The `ConstantValue` attribute, if any.
    pub constant: Option<Constant>,
}

/// A declared method.
#[derive(Clone, Debug)]
pub struct Method {
    /// Internal name of the declaring class.
    pub class: String,
    pub name: String,
    pub desc: MethodDescriptor,
    pub desc_str: String,
    pub is_static: bool,
    pub is_abstract: bool,
    pub is_native: bool,
    pub is_synchronized: bool,
    /// Private methods are never selected by virtual dispatch from a subclass.
    pub is_private: bool,
    /// Present exactly when the method is neither abstract nor native.
    pub code: Option<Code>,
}

/// A decoded `Code` attribute.
#[derive(Clone, Debug)]
pub struct Code {
    pub max_stack: u16,
    pub max_locals: u16,
    /// Instructions in pc order.
    pub insns: Vec<(u32, Insn)>,
    pub handlers: Vec<Handler>,
    pub local_names: Vec<LocalName>,
    /// The `LineNumberTable` as `(start pc, source line)`, sorted by pc: the line of an
    /// instruction is that of the last entry at or before its pc (JVMS §4.7.12).
    pub line_numbers: Vec<(u32, u32)>,
}

/// An exception-table entry: `[start, end)` is protected, control goes to `handler`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    pub start: u32,
    pub end: u32,
    pub handler: u32,
    /// Internal name of the caught class; `None` catches everything (`finally`).
    pub catch_type: Option<String>,
}

/// A `LocalVariableTable` entry: `slot` is named `name` for pcs in `[start, start + len)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalName {
    pub slot: u16,
    pub start: u32,
    pub len: u32,
    pub name: String,
    pub desc: String,
}

impl Code {
    /// The loops of this code as `(head, back)`: a branch at `back` to `head ≤ back`. The
    /// instructions from `head` to `back` are (roughly) the loop's body.
    pub fn loop_ranges(&self) -> Vec<(u32, u32)> {
        self.insns
            .iter()
            .flat_map(|(pc, insn)| {
                insn.branch_targets()
                    .into_iter()
                    .filter(move |t| t <= pc)
                    .map(move |t| (t, *pc))
            })
            .collect()
    }

    /// Position in [`Code::insns`] of the instruction starting at `pc`.
    pub fn index_of(&self, pc: u32) -> Option<usize> {
        self.insns.binary_search_by_key(&pc, |&(p, _)| p).ok()
    }

    /// The instruction starting at `pc`.
    pub fn at(&self, pc: u32) -> Option<&Insn> {
        self.index_of(pc).map(|i| &self.insns[i].1)
    }

    /// The pc of the instruction after the one at `pc` (`None` for the last one or a non-boundary).
    pub fn next_pc(&self, pc: u32) -> Option<u32> {
        let i = self.index_of(pc)?;
        self.insns.get(i + 1).map(|&(p, _)| p)
    }

    /// The debug name of local `slot` at `pc`, from the `LocalVariableTable` exactly as stored.
    pub fn local_name(&self, slot: u16, pc: u32) -> Option<&str> {
        self.local_names
            .iter()
            .find(|l| {
                l.slot == slot
                    && l.start <= pc
                    && u64::from(pc) < u64::from(l.start) + u64::from(l.len)
            })
            .map(|l| l.name.as_str())
    }

    /// The source line of the instruction at `pc`, from the `LineNumberTable` (`None`
    /// without one, or before its first entry).
    pub fn line_at(&self, pc: u32) -> Option<u32> {
        let i = self.line_numbers.partition_point(|&(start, _)| start <= pc);
        i.checked_sub(1).map(|i| self.line_numbers[i].1)
    }
}

impl Class {
    /// The method called `name`, with descriptor `desc` if given. Without a descriptor the
    /// name must be unique. Errors list the candidates.
    pub fn method(&self, name: &str, desc: Option<&str>) -> Result<&Method, ClassError> {
        Ok(&self.methods[self.method_index(name, desc)?])
    }

    /// The index in `methods` of what [`Class::method`] finds.
    pub fn method_index(&self, name: &str, desc: Option<&str>) -> Result<usize, ClassError> {
        let mut found = self
            .methods
            .iter()
            .enumerate()
            .filter(|(_, m)| m.name == name && desc.is_none_or(|d| m.desc_str == d));
        if let (Some((i, _)), None) = (found.next(), found.next()) {
            return Ok(i);
        }
        let same_name: Vec<String> = self
            .methods
            .iter()
            .filter(|m| m.name == name)
            .map(|m| format!("{}{}", m.name, m.desc_str))
            .collect();
        let candidates = if same_name.is_empty() {
            self.methods
                .iter()
                .map(|m| format!("{}{}", m.name, m.desc_str))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            same_name.join(", ")
        };
        Err(ClassError::MethodNotFound {
            class: self.name.clone(),
            method: format!("{name}{}", desc.unwrap_or("")),
            candidates: if candidates.is_empty() {
                "none".to_string()
            } else {
                candidates
            },
        })
    }

    /// The field declared in this class (not inherited) with that name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// The newest class file version jtg reads: Java 20's, the newest ASM 9.4 (the tracer's
/// instrumenter) handles. A graph of a class the JVM side cannot run would be unchecked.
pub(super) const MAX_MAJOR_VERSION: u16 = 64;

/// Parses the bytes of one class file.
pub fn parse_class(bytes: &[u8]) -> Result<Class, ClassError> {
    // What a user can act on, not the parser's internals: the magic number, or where the
    // bytes end or stop making sense.
    match bytes.get(..4) {
        Some([0xca, 0xfe, 0xba, 0xbe]) => {}
        Some(m) => {
            return Err(ClassError::malformed(format!(
                "not a class file (magic 0x{:02x}{:02x}{:02x}{:02x}, not 0xcafebabe)",
                m[0], m[1], m[2], m[3]
            )))
        }
        None => return Err(ClassError::malformed(truncated(bytes))),
    }
    // classfile-parser computes `constant_pool_count - 1` unchecked: reject 0 up front.
    match bytes.get(8..10) {
        Some([0, 0]) => return Err(ClassError::malformed("constant_pool_count is 0")),
        Some(_) => {}
        None => return Err(ClassError::malformed(truncated(bytes))),
    }
    let (_, cf) = classfile_parser::class_parser(bytes)
        .map_err(|e| ClassError::malformed(parse_failure(bytes, &e)))?;
    let cp = ConstantPool::new(&cf.const_pool);
    let name = cp.class_name(cf.this_class)?.to_string();
    if cf.major_version > MAX_MAJOR_VERSION {
        return Err(ClassError::unsupported(format!(
            "class {name}: class file version {} (Java {}) is newer than jtg handles (up to {MAX_MAJOR_VERSION}, Java {}: the newest the tracer's ASM 9.4 instruments)",
            cf.major_version,
            cf.major_version.saturating_sub(44),
            MAX_MAJOR_VERSION - 44
        )));
    }
    let ctx = |e: ClassError| match e {
        ClassError::Malformed { what } => ClassError::malformed(format!("class {name}: {what}")),
        other => other,
    };
    build(&cf, &cp, name.clone()).map_err(ctx)
}

/// Where the parse of `bytes` failed, for people: `truncated at byte N` when the bytes end too
/// early (the parse fails at their end, or gets past it once zeros are appended), `does not
/// parse at byte N` otherwise.
fn parse_failure(bytes: &[u8], e: &nom::Err<nom::error::Error<&[u8]>>) -> String {
    let at = |e: &nom::Err<nom::error::Error<&[u8]>>, len: usize| match e {
        nom::Err::Incomplete(_) => len,
        nom::Err::Error(e) | nom::Err::Failure(e) => len - e.input.len(),
    };
    let mut padded = bytes.to_vec();
    padded.resize(bytes.len() + (1 << 16), 0);
    let further = match classfile_parser::class_parser(&padded) {
        Ok(_) => true,
        Err(e2) => at(&e2, padded.len()) > bytes.len(),
    };
    if further || at(e, bytes.len()) >= bytes.len() {
        truncated(bytes)
    } else {
        format!("class file does not parse at byte {}", at(e, bytes.len()))
    }
}

/// The message of a class file that ends too early.
fn truncated(bytes: &[u8]) -> String {
    format!(
        "class file truncated at byte {} (shorter than its header or its declared contents)",
        bytes.len()
    )
}

fn build(
    cf: &classfile_parser::ClassFile,
    cp: &ConstantPool<'_>,
    name: String,
) -> Result<Class, ClassError> {
    let super_name = if cf.super_class == 0 {
        None
    } else {
        Some(cp.class_name(cf.super_class)?.to_string())
    };
    if super_name.is_none() && name != super::jvms::OBJECT {
        return Err(ClassError::malformed("no superclass"));
    }
    let interfaces = cf
        .interfaces
        .iter()
        .map(|&i| cp.class_name(i).map(str::to_string))
        .collect::<Result<Vec<_>, _>>()?;
    let mut source_file = None;
    let mut bootstrap = None;
    for a in &cf.attributes {
        match cp.utf8(a.attribute_name_index)? {
            "SourceFile" => {
                source_file = Some(cp.utf8(be_u16(&a.info, 0, "SourceFile")?)?.to_string());
            }
            "BootstrapMethods" => {
                let (_, table) = bootstrap_methods_attribute_parser(&a.info).map_err(|_| {
                    ClassError::malformed("BootstrapMethods attribute does not parse")
                })?;
                bootstrap = Some(table.bootstrap_methods);
            }
            _ => {}
        }
    }
    let with_bootstrap = cp.with_bootstrap(bootstrap.as_deref().unwrap_or(&[]));
    let cp = &with_bootstrap;
    let fields = cf
        .fields
        .iter()
        .map(|f| {
            let fname = cp.utf8(f.name_index)?.to_string();
            let desc = FieldType::parse(cp.utf8(f.descriptor_index)?)?;
            let mut constant = None;
            for a in &f.attributes {
                if cp.utf8(a.attribute_name_index)? == "ConstantValue" {
                    constant = Some(cp.constant(be_u16(&a.info, 0, "ConstantValue")?)?);
                }
            }
            Ok(Field {
                name: fname,
                desc,
                is_static: f.access_flags.contains(FieldAccessFlags::STATIC),
                is_enum: f.access_flags.contains(FieldAccessFlags::ENUM),
                constant,
            })
        })
        .collect::<Result<Vec<_>, ClassError>>()?;
    let methods = cf
        .methods
        .iter()
        .map(|m| {
            let mname = cp.utf8(m.name_index)?.to_string();
            let desc_str = cp.utf8(m.descriptor_index)?.to_string();
            let desc = MethodDescriptor::parse(&desc_str)?;
            let flags = m.access_flags;
            let mut code = None;
            for a in &m.attributes {
                if cp.utf8(a.attribute_name_index)? == "Code" {
                    let c = parse_code(a, cp)
                        .map_err(|e| in_method(e, &mname, &desc_str))?;
                    code = Some(c);
                }
            }
            let is_abstract = flags.contains(MethodAccessFlags::ABSTRACT);
            let is_native = flags.contains(MethodAccessFlags::NATIVE);
            if code.is_some() == (is_abstract || is_native) {
                return Err(ClassError::malformed(format!(
                    "method {mname}{desc_str}: Code attribute {} but method is{} abstract or native",
                    if code.is_some() { "present" } else { "missing" },
                    if is_abstract || is_native { "" } else { " not" },
                )));
            }
            Ok(Method {
                class: name.clone(),
                name: mname,
                desc,
                desc_str,
                is_static: flags.contains(MethodAccessFlags::STATIC),
                is_abstract,
                is_native,
                is_synchronized: flags.contains(MethodAccessFlags::SYNCHRONIZED),
                is_private: flags.contains(MethodAccessFlags::PRIVATE),
                code,
            })
        })
        .collect::<Result<Vec<_>, ClassError>>()?;
    let flags = cf.access_flags;
    Ok(Class {
        name,
        super_name,
        interfaces,
        is_interface: flags.contains(ClassAccessFlags::INTERFACE),
        is_abstract: flags.contains(ClassAccessFlags::ABSTRACT),
        is_final: flags.contains(ClassAccessFlags::FINAL),
        fields,
        methods,
        source_file,
    })
}

fn in_method(e: ClassError, name: &str, desc: &str) -> ClassError {
    match e {
        ClassError::Malformed { what } => {
            ClassError::malformed(format!("method {name}{desc}: {what}"))
        }
        other => other,
    }
}

fn be_u16(bytes: &[u8], at: usize, what: &str) -> Result<u16, ClassError> {
    match bytes.get(at..at + 2) {
        Some(&[a, b]) => Ok(u16::from_be_bytes([a, b])),
        _ => Err(ClassError::malformed(format!("{what} attribute truncated"))),
    }
}

fn parse_code(attr: &AttributeInfo, cp: &ConstantPool<'_>) -> Result<Code, ClassError> {
    let (_, ca) = code_attribute_parser(&attr.info)
        .map_err(|_| ClassError::malformed("Code attribute does not parse"))?;
    let insns = decode_code(&ca.code, cp)?;
    let len = ca.code.len() as u64;
    let is_start = |pc: u16| {
        insns
            .binary_search_by_key(&u32::from(pc), |&(p, _)| p)
            .is_ok()
    };
    let handlers = ca
        .exception_table
        .iter()
        .map(|e| {
            let end_ok = is_start(e.end_pc) || u64::from(e.end_pc) == len;
            if !is_start(e.start_pc) || !end_ok || e.start_pc >= e.end_pc || !is_start(e.handler_pc)
            {
                return Err(ClassError::malformed(format!(
                    "bad exception handler [{}, {}) -> {}",
                    e.start_pc, e.end_pc, e.handler_pc
                )));
            }
            let catch_type = if e.catch_type == 0 {
                None
            } else {
                Some(cp.class_name(e.catch_type)?.to_string())
            };
            Ok(Handler {
                start: u32::from(e.start_pc),
                end: u32::from(e.end_pc),
                handler: u32::from(e.handler_pc),
                catch_type,
            })
        })
        .collect::<Result<Vec<_>, ClassError>>()?;
    let mut local_names = Vec::new();
    let mut line_numbers = Vec::new();
    for a in &ca.attributes {
        if cp.utf8(a.attribute_name_index)? == "LineNumberTable" {
            let info = &a.info;
            let n = usize::from(be_u16(info, 0, "LineNumberTable")?);
            for i in 0..n {
                let field = |k: usize| be_u16(info, 2 + 4 * i + 2 * k, "LineNumberTable");
                line_numbers.push((u32::from(field(0)?), u32::from(field(1)?)));
            }
        }
        if cp.utf8(a.attribute_name_index)? == "LocalVariableTable" {
            let info = &a.info;
            let n = usize::from(be_u16(info, 0, "LocalVariableTable")?);
            for i in 0..n {
                let at = 2 + 10 * i;
                let field = |k: usize| be_u16(info, at + 2 * k, "LocalVariableTable");
                local_names.push(LocalName {
                    start: u32::from(field(0)?),
                    len: u32::from(field(1)?),
                    name: cp.utf8(field(2)?)?.to_string(),
                    desc: cp.utf8(field(3)?)?.to_string(),
                    slot: field(4)?,
                });
            }
        }
    }
    Ok(Code {
        max_stack: ca.max_stack,
        max_locals: ca.max_locals,
        insns,
        handlers,
        local_names,
        line_numbers: {
            // a method may have several tables (JVMS §4.7.12); javac writes one, in pc order
            line_numbers.sort_unstable();
            line_numbers
        },
    })
}

#[cfg(test)]
mod line_tests {
    use super::Code;

    #[test]
    fn the_line_of_a_pc_is_that_of_the_last_entry_at_or_before_it() {
        let code = Code {
            max_stack: 0,
            max_locals: 0,
            insns: vec![],
            handlers: vec![],
            local_names: vec![],
            line_numbers: vec![(0, 10), (4, 11), (9, 10)],
        };
        let lines: Vec<Option<u32>> = [0, 3, 4, 8, 9, 50].map(|pc| code.line_at(pc)).to_vec();
        assert_eq!(lines, [10, 10, 11, 11, 10, 10].map(Some).to_vec());
        let none = Code {
            line_numbers: vec![(2, 7)],
            ..code
        };
        assert_eq!(none.line_at(1), None);
    }
}
