//! Our own decoded JVM instruction set (JVMS §6.5) and a bounds-checked bytecode decoder.
//!
//! Every opcode is covered. `wide` is folded into the widened instruction, short forms
//! (`iload_0`, `iconst_1`, `bipush`, ...) are folded into their general form, `goto_w`/`jsr_w`
//! into `Goto`/`Jsr`, branch offsets are turned into absolute pcs, and constant-pool operands
//! are resolved to strings. Decoding never panics: truncated code, bad constant-pool indices,
//! reserved opcodes and branches outside the code all yield [`ClassError::Malformed`].

use std::collections::HashSet;
use std::fmt;

use super::descriptor::{FieldType, MethodDescriptor};
use super::error::ClassError;
use super::pool::ConstantPool;

/// Computational kind of a typed instruction (`i`, `l`, `f`, `d`, `a` prefixes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Int,
    Long,
    Float,
    Double,
    Ref,
}

impl Kind {
    /// The mnemonic prefix letter.
    pub fn prefix(self) -> char {
        match self {
            Kind::Int => 'i',
            Kind::Long => 'l',
            Kind::Float => 'f',
            Kind::Double => 'd',
            Kind::Ref => 'a',
        }
    }

    /// Slots a value of this kind occupies.
    pub fn slots(self) -> u16 {
        match self {
            Kind::Long | Kind::Double => 2,
            _ => 1,
        }
    }

    fn index(self) -> u8 {
        match self {
            Kind::Int => 0,
            Kind::Long => 1,
            Kind::Float => 2,
            Kind::Double => 3,
            Kind::Ref => 4,
        }
    }

    const ALL: [Kind; 5] = [Kind::Int, Kind::Long, Kind::Float, Kind::Double, Kind::Ref];
}

/// Element kind of array loads, stores and `newarray`. `baload`/`bastore` serve byte and boolean
/// arrays alike (`Byte`); `Boolean` is only the `newarray` of a `boolean[]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArrayKind {
    Int,
    Long,
    Float,
    Double,
    Ref,
    Byte,
    Char,
    Short,
    Boolean,
}

impl ArrayKind {
    const ALL: [ArrayKind; 8] = [
        ArrayKind::Int,
        ArrayKind::Long,
        ArrayKind::Float,
        ArrayKind::Double,
        ArrayKind::Ref,
        ArrayKind::Byte,
        ArrayKind::Char,
        ArrayKind::Short,
    ];

    fn index(self) -> u8 {
        match self {
            ArrayKind::Int => 0,
            ArrayKind::Long => 1,
            ArrayKind::Float => 2,
            ArrayKind::Double => 3,
            ArrayKind::Ref => 4,
            ArrayKind::Byte | ArrayKind::Boolean => 5,
            ArrayKind::Char => 6,
            ArrayKind::Short => 7,
        }
    }

    /// The `newarray` atype code (JVMS §6.5.newarray); `Ref` has none.
    pub fn atype(self) -> Option<u8> {
        Some(match self {
            ArrayKind::Char => 5,
            ArrayKind::Float => 6,
            ArrayKind::Double => 7,
            ArrayKind::Boolean => 4,
            ArrayKind::Byte => 8,
            ArrayKind::Short => 9,
            ArrayKind::Int => 10,
            ArrayKind::Long => 11,
            ArrayKind::Ref => return None,
        })
    }

    /// The Java keyword of the element type (`int`, `byte`, ...; `Ref` prints as `reference`).
    pub fn java_name(self) -> &'static str {
        match self {
            ArrayKind::Int => "int",
            ArrayKind::Long => "long",
            ArrayKind::Float => "float",
            ArrayKind::Double => "double",
            ArrayKind::Ref => "reference",
            ArrayKind::Byte => "byte",
            ArrayKind::Boolean => "boolean",
            ArrayKind::Char => "char",
            ArrayKind::Short => "short",
        }
    }
}

/// Arithmetic and bitwise operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Neg,
    Shl,
    Shr,
    Ushr,
    And,
    Or,
    Xor,
}

/// Comparison of a conditional branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cond {
    Eq,
    Ne,
    Lt,
    Ge,
    Gt,
    Le,
}

impl Cond {
    const ALL: [Cond; 6] = [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le];

    /// The logical negation (`Lt` ↔ `Ge`, ...).
    pub fn negate(self) -> Cond {
        match self {
            Cond::Eq => Cond::Ne,
            Cond::Ne => Cond::Eq,
            Cond::Lt => Cond::Ge,
            Cond::Ge => Cond::Lt,
            Cond::Gt => Cond::Le,
            Cond::Le => Cond::Gt,
        }
    }

    /// Mathematical symbol: "=", "≠", "<", "≥", ">", "≤".
    pub fn symbol(self) -> &'static str {
        match self {
            Cond::Eq => "=",
            Cond::Ne => "≠",
            Cond::Lt => "<",
            Cond::Ge => "≥",
            Cond::Gt => ">",
            Cond::Le => "≤",
        }
    }

    /// Mnemonic suffix: "eq", "ne", ...
    pub fn suffix(self) -> &'static str {
        match self {
            Cond::Eq => "eq",
            Cond::Ne => "ne",
            Cond::Lt => "lt",
            Cond::Ge => "ge",
            Cond::Gt => "gt",
            Cond::Le => "le",
        }
    }

    fn index(self) -> u8 {
        match self {
            Cond::Eq => 0,
            Cond::Ne => 1,
            Cond::Lt => 2,
            Cond::Ge => 3,
            Cond::Gt => 4,
            Cond::Le => 5,
        }
    }
}

/// A loadable constant (operand of `ldc*`, or a field's `ConstantValue`).
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    String(String),
    /// A class literal, by internal name (array classes in descriptor form).
    Class(String),
    /// Method types and handles, described as text; the engine does not model them.
    Other(String),
}

impl fmt::Display for Constant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Constant::Int(v) => write!(f, "{v}"),
            Constant::Long(v) => write!(f, "{v}l"),
            Constant::Float(v) => write!(f, "{v:?}f"),
            Constant::Double(v) => write!(f, "{v:?}d"),
            Constant::String(s) => write!(f, "{s:?}"),
            Constant::Class(c) => write!(f, "class {c}"),
            Constant::Other(o) => f.write_str(o),
        }
    }
}

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

/// One decoded instruction. Branch targets are absolute pcs within the same method.
#[derive(Clone, Debug, PartialEq)]
pub enum Insn {
    Nop,
    AConstNull,
    /// `iconst_m1`..`iconst_5`, `bipush`, `sipush`.
    IConst(i32),
    /// `lconst_0`, `lconst_1`.
    LConst(i64),
    /// `fconst_0`..`fconst_2`.
    FConst(f32),
    /// `dconst_0`, `dconst_1`.
    DConst(f64),
    /// `ldc`, `ldc_w`, `ldc2_w`.
    Ldc(Constant),
    Load(Kind, u16),
    Store(Kind, u16),
    ArrayLoad(ArrayKind),
    ArrayStore(ArrayKind),
    Pop,
    Pop2,
    Dup,
    DupX1,
    DupX2,
    Dup2,
    Dup2X1,
    Dup2X2,
    Swap,
    Arith(Kind, ArithOp),
    IInc {
        index: u16,
        delta: i32,
    },
    /// `i2l`, `f2d`, ... (the narrowing `i2b`, `i2c`, `i2s` have their own variants).
    Convert {
        from: Kind,
        to: Kind,
    },
    I2B,
    I2C,
    I2S,
    LCmp,
    FCmpL,
    FCmpG,
    DCmpL,
    DCmpG,
    /// `ifeq`..`ifle`: compares the int on top of the stack with zero.
    If {
        cond: Cond,
        target: u32,
    },
    IfICmp {
        cond: Cond,
        target: u32,
    },
    IfACmp {
        eq: bool,
        target: u32,
    },
    IfNull {
        target: u32,
    },
    IfNonNull {
        target: u32,
    },
    Goto(u32),
    Jsr(u32),
    Ret(u16),
    TableSwitch {
        default: u32,
        low: i32,
        targets: Vec<u32>,
    },
    LookupSwitch {
        default: u32,
        pairs: Vec<(i32, u32)>,
    },
    /// `return` (`None`) or `ireturn`, `lreturn`, `freturn`, `dreturn`, `areturn`.
    Return(Option<Kind>),
    GetStatic(FieldRef),
    PutStatic(FieldRef),
    GetField(FieldRef),
    PutField(FieldRef),
    Invoke {
        kind: InvokeKind,
        method: MethodRef,
    },
    InvokeDynamic {
        name: String,
        descriptor: String,
    },
    New(String),
    NewArray(ArrayKind),
    /// Component type: an internal class name or an array descriptor.
    ANewArray(String),
    ArrayLength,
    AThrow,
    CheckCast(String),
    InstanceOf(String),
    MonitorEnter,
    MonitorExit,
    MultiANewArray {
        class: String,
        dims: u8,
    },
}

const LOAD_NAMES: [[&str; 5]; 5] = [
    ["iload", "iload_0", "iload_1", "iload_2", "iload_3"],
    ["lload", "lload_0", "lload_1", "lload_2", "lload_3"],
    ["fload", "fload_0", "fload_1", "fload_2", "fload_3"],
    ["dload", "dload_0", "dload_1", "dload_2", "dload_3"],
    ["aload", "aload_0", "aload_1", "aload_2", "aload_3"],
];
const STORE_NAMES: [[&str; 5]; 5] = [
    ["istore", "istore_0", "istore_1", "istore_2", "istore_3"],
    ["lstore", "lstore_0", "lstore_1", "lstore_2", "lstore_3"],
    ["fstore", "fstore_0", "fstore_1", "fstore_2", "fstore_3"],
    ["dstore", "dstore_0", "dstore_1", "dstore_2", "dstore_3"],
    ["astore", "astore_0", "astore_1", "astore_2", "astore_3"],
];
const ALOAD_NAMES: [&str; 8] = [
    "iaload", "laload", "faload", "daload", "aaload", "baload", "caload", "saload",
];
const ASTORE_NAMES: [&str; 8] = [
    "iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore",
];
const RETURN_NAMES: [&str; 5] = ["ireturn", "lreturn", "freturn", "dreturn", "areturn"];
const IF_NAMES: [&str; 6] = ["ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle"];
const IF_ICMP_NAMES: [&str; 6] = [
    "if_icmpeq",
    "if_icmpne",
    "if_icmplt",
    "if_icmpge",
    "if_icmpgt",
    "if_icmple",
];
const ICONST_NAMES: [&str; 7] = [
    "iconst_m1",
    "iconst_0",
    "iconst_1",
    "iconst_2",
    "iconst_3",
    "iconst_4",
    "iconst_5",
];
/// Pseudo mnemonic/opcode of a hand-built instruction no JVM opcode expresses
/// (e.g. `Arith(Ref, Add)` or `LConst(7)`); the decoder never produces one.
const INVALID: (&str, u8) = ("<invalid>", 0xff);

fn arith(kind: Kind, op: ArithOp) -> (&'static str, u8) {
    use ArithOp::*;
    // Add..Neg exist for i, l, f, d at base + kind; shifts and logic only for i and l.
    let k = kind.index();
    if kind == Kind::Ref {
        return INVALID;
    }
    let four = |names: [&'static str; 4], base: u8| (names[usize::from(k)], base + k);
    let two = |names: [&'static str; 2], base: u8| {
        if k < 2 {
            (names[usize::from(k)], base + k)
        } else {
            INVALID
        }
    };
    match op {
        Add => four(["iadd", "ladd", "fadd", "dadd"], 0x60),
        Sub => four(["isub", "lsub", "fsub", "dsub"], 0x64),
        Mul => four(["imul", "lmul", "fmul", "dmul"], 0x68),
        Div => four(["idiv", "ldiv", "fdiv", "ddiv"], 0x6c),
        Rem => four(["irem", "lrem", "frem", "drem"], 0x70),
        Neg => four(["ineg", "lneg", "fneg", "dneg"], 0x74),
        Shl => two(["ishl", "lshl"], 0x78),
        Shr => two(["ishr", "lshr"], 0x7a),
        Ushr => two(["iushr", "lushr"], 0x7c),
        And => two(["iand", "land"], 0x7e),
        Or => two(["ior", "lor"], 0x80),
        Xor => two(["ixor", "lxor"], 0x82),
    }
}

fn convert(from: Kind, to: Kind) -> (&'static str, u8) {
    use Kind::*;
    match (from, to) {
        (Int, Long) => ("i2l", 0x85),
        (Int, Float) => ("i2f", 0x86),
        (Int, Double) => ("i2d", 0x87),
        (Long, Int) => ("l2i", 0x88),
        (Long, Float) => ("l2f", 0x89),
        (Long, Double) => ("l2d", 0x8a),
        (Float, Int) => ("f2i", 0x8b),
        (Float, Long) => ("f2l", 0x8c),
        (Float, Double) => ("f2d", 0x8d),
        (Double, Int) => ("d2i", 0x8e),
        (Double, Long) => ("d2l", 0x8f),
        (Double, Float) => ("d2f", 0x90),
        _ => INVALID,
    }
}

fn local_form(
    names: &[[&'static str; 5]; 5],
    base: u8,
    short: u8,
    kind: Kind,
    index: u16,
) -> (&'static str, u8) {
    let k = kind.index();
    let row = &names[usize::from(k)];
    if index < 4 {
        // index < 4 so the cast is lossless.
        let i = index as u8;
        (row[usize::from(i) + 1], short + 4 * k + i)
    } else {
        (row[0], base + k)
    }
}

impl Insn {
    fn name_and_opcode(&self) -> (&'static str, u8) {
        use Insn::*;
        match self {
            Nop => ("nop", 0x00),
            AConstNull => ("aconst_null", 0x01),
            IConst(v) => match *v {
                // -1..=5 so the casts are lossless.
                -1..=5 => (ICONST_NAMES[(*v + 1) as usize], (0x03 + *v) as u8),
                -128..=127 => ("bipush", 0x10),
                -32768..=32767 => ("sipush", 0x11),
                _ => INVALID,
            },
            LConst(v) => match *v {
                0 => ("lconst_0", 0x09),
                1 => ("lconst_1", 0x0a),
                _ => INVALID,
            },
            FConst(v) => {
                if *v == 0.0 && v.is_sign_positive() {
                    ("fconst_0", 0x0b)
                } else if *v == 1.0 {
                    ("fconst_1", 0x0c)
                } else if *v == 2.0 {
                    ("fconst_2", 0x0d)
                } else {
                    INVALID
                }
            }
            DConst(v) => {
                if *v == 0.0 && v.is_sign_positive() {
                    ("dconst_0", 0x0e)
                } else if *v == 1.0 {
                    ("dconst_1", 0x0f)
                } else {
                    INVALID
                }
            }
            Ldc(c) => match c {
                Constant::Long(_) | Constant::Double(_) => ("ldc2_w", 0x14),
                _ => ("ldc", 0x12),
            },
            Load(k, i) => local_form(&LOAD_NAMES, 0x15, 0x1a, *k, *i),
            Store(k, i) => local_form(&STORE_NAMES, 0x36, 0x3b, *k, *i),
            ArrayLoad(a) => (ALOAD_NAMES[usize::from(a.index())], 0x2e + a.index()),
            ArrayStore(a) => (ASTORE_NAMES[usize::from(a.index())], 0x4f + a.index()),
            Pop => ("pop", 0x57),
            Pop2 => ("pop2", 0x58),
            Dup => ("dup", 0x59),
            DupX1 => ("dup_x1", 0x5a),
            DupX2 => ("dup_x2", 0x5b),
            Dup2 => ("dup2", 0x5c),
            Dup2X1 => ("dup2_x1", 0x5d),
            Dup2X2 => ("dup2_x2", 0x5e),
            Swap => ("swap", 0x5f),
            Arith(k, op) => arith(*k, *op),
            IInc { .. } => ("iinc", 0x84),
            Convert { from, to } => convert(*from, *to),
            I2B => ("i2b", 0x91),
            I2C => ("i2c", 0x92),
            I2S => ("i2s", 0x93),
            LCmp => ("lcmp", 0x94),
            FCmpL => ("fcmpl", 0x95),
            FCmpG => ("fcmpg", 0x96),
            DCmpL => ("dcmpl", 0x97),
            DCmpG => ("dcmpg", 0x98),
            If { cond, .. } => (IF_NAMES[usize::from(cond.index())], 0x99 + cond.index()),
            IfICmp { cond, .. } => (
                IF_ICMP_NAMES[usize::from(cond.index())],
                0x9f + cond.index(),
            ),
            IfACmp { eq: true, .. } => ("if_acmpeq", 0xa5),
            IfACmp { eq: false, .. } => ("if_acmpne", 0xa6),
            Goto(_) => ("goto", 0xa7),
            Jsr(_) => ("jsr", 0xa8),
            Ret(_) => ("ret", 0xa9),
            TableSwitch { .. } => ("tableswitch", 0xaa),
            LookupSwitch { .. } => ("lookupswitch", 0xab),
            Return(Some(k)) => (RETURN_NAMES[usize::from(k.index())], 0xac + k.index()),
            Return(None) => ("return", 0xb1),
            GetStatic(_) => ("getstatic", 0xb2),
            PutStatic(_) => ("putstatic", 0xb3),
            GetField(_) => ("getfield", 0xb4),
            PutField(_) => ("putfield", 0xb5),
            Invoke { kind, .. } => match kind {
                InvokeKind::Virtual => ("invokevirtual", 0xb6),
                InvokeKind::Special => ("invokespecial", 0xb7),
                InvokeKind::Static => ("invokestatic", 0xb8),
                InvokeKind::Interface => ("invokeinterface", 0xb9),
            },
            InvokeDynamic { .. } => ("invokedynamic", 0xba),
            New(_) => ("new", 0xbb),
            NewArray(_) => ("newarray", 0xbc),
            ANewArray(_) => ("anewarray", 0xbd),
            ArrayLength => ("arraylength", 0xbe),
            AThrow => ("athrow", 0xbf),
            CheckCast(_) => ("checkcast", 0xc0),
            InstanceOf(_) => ("instanceof", 0xc1),
            MonitorEnter => ("monitorenter", 0xc2),
            MonitorExit => ("monitorexit", 0xc3),
            MultiANewArray { .. } => ("multianewarray", 0xc5),
            IfNull { .. } => ("ifnull", 0xc6),
            IfNonNull { .. } => ("ifnonnull", 0xc7),
        }
    }

    /// The JVM mnemonic, in the short form where one exists (`aload_0`, `iconst_1`).
    /// Widened loads/stores print as their plain form (`iload`), `goto_w` as `goto`.
    pub fn mnemonic(&self) -> &'static str {
        self.name_and_opcode().0
    }

    /// The opcode matching [`Insn::mnemonic`] (`0xff` for hand-built invalid combinations).
    pub fn opcode(&self) -> u8 {
        self.name_and_opcode().1
    }

    /// Branch targets of this instruction (not the fall-through successor).
    pub fn branch_targets(&self) -> Vec<u32> {
        use Insn::*;
        match self {
            If { target, .. }
            | IfICmp { target, .. }
            | IfACmp { target, .. }
            | IfNull { target }
            | IfNonNull { target }
            | Goto(target)
            | Jsr(target) => vec![*target],
            TableSwitch {
                default, targets, ..
            } => std::iter::once(*default)
                .chain(targets.iter().copied())
                .collect(),
            LookupSwitch { default, pairs } => std::iter::once(*default)
                .chain(pairs.iter().map(|&(_, t)| t))
                .collect(),
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Insn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Insn::*;
        let m = self.mnemonic();
        match self {
            IConst(v) if !(-1..=5).contains(v) => write!(f, "{m} {v}"),
            LConst(v) if m == INVALID.0 => write!(f, "lconst {v}"),
            FConst(v) if m == INVALID.0 => write!(f, "fconst {v:?}"),
            DConst(v) if m == INVALID.0 => write!(f, "dconst {v:?}"),
            Ldc(c) => write!(f, "{m} {c}"),
            Load(_, i) | Store(_, i) if *i >= 4 => write!(f, "{m} {i}"),
            Arith(k, op) if m == INVALID.0 => write!(f, "{m} {k:?} {op:?}"),
            Convert { from, to } if m == INVALID.0 => write!(f, "{m} {from:?}2{to:?}"),
            IInc { index, delta } => write!(f, "{m} {index}, {delta}"),
            If { target, .. }
            | IfICmp { target, .. }
            | IfACmp { target, .. }
            | IfNull { target }
            | IfNonNull { target }
            | Goto(target)
            | Jsr(target) => write!(f, "{m} {target}"),
            Ret(i) => write!(f, "{m} {i}"),
            TableSwitch {
                default,
                low,
                targets,
            } => {
                write!(f, "{m} {{")?;
                for (key, t) in (i64::from(*low)..).zip(targets) {
                    write!(f, " {key}: {t};")?;
                }
                write!(f, " default: {default} }}")
            }
            LookupSwitch { default, pairs } => {
                write!(f, "{m} {{")?;
                for (k, t) in pairs {
                    write!(f, " {k}: {t};")?;
                }
                write!(f, " default: {default} }}")
            }
            GetStatic(r) | PutStatic(r) | GetField(r) | PutField(r) => {
                write!(f, "{m} {}.{}:{}", r.class, r.name, r.desc)
            }
            Invoke { method, .. } => {
                write!(f, "{m} {}.{}{}", method.class, method.name, method.desc_str)
            }
            InvokeDynamic { name, descriptor } => write!(f, "{m} {name}{descriptor}"),
            New(c) | ANewArray(c) | CheckCast(c) | InstanceOf(c) => write!(f, "{m} {c}"),
            NewArray(a) => write!(f, "{m} {}", a.java_name()),
            MultiANewArray { class, dims } => write!(f, "{m} {class}, {dims}"),
            _ => f.write_str(m),
        }
    }
}

/// Bounds-checked big-endian reader over a method's code array.
struct Reader<'a> {
    code: &'a [u8],
    pos: usize,
    insn_pc: usize,
}

impl Reader<'_> {
    fn truncated(&self) -> ClassError {
        ClassError::malformed(format!(
            "bytecode truncated in instruction at pc {}",
            self.insn_pc
        ))
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], ClassError> {
        let end = self.pos.checked_add(N).ok_or_else(|| self.truncated())?;
        let bytes = self
            .code
            .get(self.pos..end)
            .ok_or_else(|| self.truncated())?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        self.pos = end;
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, ClassError> {
        Ok(self.take::<1>()?[0])
    }
    fn i8(&mut self) -> Result<i8, ClassError> {
        Ok(i8::from_be_bytes(self.take()?))
    }
    fn u16(&mut self) -> Result<u16, ClassError> {
        Ok(u16::from_be_bytes(self.take()?))
    }
    fn i16(&mut self) -> Result<i16, ClassError> {
        Ok(i16::from_be_bytes(self.take()?))
    }
    fn i32(&mut self) -> Result<i32, ClassError> {
        Ok(i32::from_be_bytes(self.take()?))
    }

    /// Absolute target of a branch with relative `offset`, checked to lie inside the code.
    fn target(&self, offset: i64) -> Result<u32, ClassError> {
        let pc = self.insn_pc as i64;
        let t = pc + offset;
        if t < 0 || t >= self.code.len() as i64 {
            return Err(ClassError::malformed(format!(
                "branch at pc {pc} to {t} leaves the code (length {})",
                self.code.len()
            )));
        }
        u32::try_from(t).map_err(|_| ClassError::malformed(format!("branch target {t} too large")))
    }
}

/// Decodes a method's code array into `(pc, instruction)` pairs in pc order.
///
/// Checks that every branch target and the whole code array are covered by instruction
/// boundaries; any violation is [`ClassError::Malformed`].
pub fn decode_code(bytes: &[u8], cp: &ConstantPool<'_>) -> Result<Vec<(u32, Insn)>, ClassError> {
    if bytes.is_empty() {
        return Err(ClassError::malformed("empty code array"));
    }
    if u32::try_from(bytes.len()).is_err() {
        return Err(ClassError::malformed("code array longer than 2^32 bytes"));
    }
    let mut r = Reader {
        code: bytes,
        pos: 0,
        insn_pc: 0,
    };
    let mut out = Vec::new();
    while r.pos < bytes.len() {
        r.insn_pc = r.pos;
        let pc = r.pos as u32;
        let insn = decode_one(&mut r, cp)?;
        out.push((pc, insn));
    }
    let starts: HashSet<u32> = out.iter().map(|&(pc, _)| pc).collect();
    for (pc, insn) in &out {
        for t in insn.branch_targets() {
            if !starts.contains(&t) {
                return Err(ClassError::malformed(format!(
                    "branch at pc {pc} targets {t}, which is not an instruction boundary"
                )));
            }
        }
    }
    Ok(out)
}

fn decode_one(r: &mut Reader<'_>, cp: &ConstantPool<'_>) -> Result<Insn, ClassError> {
    use Insn::*;
    let op = r.u8()?;
    let insn = match op {
        0x00 => Nop,
        0x01 => AConstNull,
        0x02..=0x08 => IConst(i32::from(op) - 3),
        0x09 | 0x0a => LConst(i64::from(op - 0x09)),
        0x0b..=0x0d => FConst(f32::from(op - 0x0b)),
        0x0e | 0x0f => DConst(f64::from(op - 0x0e)),
        0x10 => IConst(i32::from(r.i8()?)),
        0x11 => IConst(i32::from(r.i16()?)),
        0x12 => {
            let index = u16::from(r.u8()?);
            ldc(cp, index, false)?
        }
        0x13 => {
            let index = r.u16()?;
            ldc(cp, index, false)?
        }
        0x14 => {
            let index = r.u16()?;
            ldc(cp, index, true)?
        }
        0x15..=0x19 => Load(Kind::ALL[usize::from(op - 0x15)], u16::from(r.u8()?)),
        0x1a..=0x2d => {
            let i = op - 0x1a;
            Load(Kind::ALL[usize::from(i / 4)], u16::from(i % 4))
        }
        0x2e..=0x35 => ArrayLoad(ArrayKind::ALL[usize::from(op - 0x2e)]),
        0x36..=0x3a => Store(Kind::ALL[usize::from(op - 0x36)], u16::from(r.u8()?)),
        0x3b..=0x4e => {
            let i = op - 0x3b;
            Store(Kind::ALL[usize::from(i / 4)], u16::from(i % 4))
        }
        0x4f..=0x56 => ArrayStore(ArrayKind::ALL[usize::from(op - 0x4f)]),
        0x57 => Pop,
        0x58 => Pop2,
        0x59 => Dup,
        0x5a => DupX1,
        0x5b => DupX2,
        0x5c => Dup2,
        0x5d => Dup2X1,
        0x5e => Dup2X2,
        0x5f => Swap,
        0x60..=0x77 => {
            let i = op - 0x60;
            let ops = [
                ArithOp::Add,
                ArithOp::Sub,
                ArithOp::Mul,
                ArithOp::Div,
                ArithOp::Rem,
                ArithOp::Neg,
            ];
            Arith(Kind::ALL[usize::from(i % 4)], ops[usize::from(i / 4)])
        }
        0x78..=0x83 => {
            let i = op - 0x78;
            let ops = [
                ArithOp::Shl,
                ArithOp::Shr,
                ArithOp::Ushr,
                ArithOp::And,
                ArithOp::Or,
                ArithOp::Xor,
            ];
            Arith(Kind::ALL[usize::from(i % 2)], ops[usize::from(i / 2)])
        }
        0x84 => IInc {
            index: u16::from(r.u8()?),
            delta: i32::from(r.i8()?),
        },
        0x85..=0x90 => {
            const PAIRS: [(Kind, Kind); 12] = [
                (Kind::Int, Kind::Long),
                (Kind::Int, Kind::Float),
                (Kind::Int, Kind::Double),
                (Kind::Long, Kind::Int),
                (Kind::Long, Kind::Float),
                (Kind::Long, Kind::Double),
                (Kind::Float, Kind::Int),
                (Kind::Float, Kind::Long),
                (Kind::Float, Kind::Double),
                (Kind::Double, Kind::Int),
                (Kind::Double, Kind::Long),
                (Kind::Double, Kind::Float),
            ];
            let (from, to) = PAIRS[usize::from(op - 0x85)];
            Convert { from, to }
        }
        0x91 => I2B,
        0x92 => I2C,
        0x93 => I2S,
        0x94 => LCmp,
        0x95 => FCmpL,
        0x96 => FCmpG,
        0x97 => DCmpL,
        0x98 => DCmpG,
        0x99..=0x9e => If {
            cond: Cond::ALL[usize::from(op - 0x99)],
            target: r.branch16()?,
        },
        0x9f..=0xa4 => IfICmp {
            cond: Cond::ALL[usize::from(op - 0x9f)],
            target: r.branch16()?,
        },
        0xa5 | 0xa6 => IfACmp {
            eq: op == 0xa5,
            target: r.branch16()?,
        },
        0xa7 => Goto(r.branch16()?),
        0xa8 => Jsr(r.branch16()?),
        0xa9 => Ret(u16::from(r.u8()?)),
        0xaa => {
            skip_padding(r)?;
            let default = r.branch32()?;
            let low = r.i32()?;
            let high = r.i32()?;
            if high < low {
                return Err(ClassError::malformed(format!(
                    "tableswitch at pc {} has high {high} < low {low}",
                    r.insn_pc
                )));
            }
            let n = (i64::from(high) - i64::from(low) + 1) as usize;
            check_room(r, n, 4)?;
            let mut targets = Vec::with_capacity(n);
            for _ in 0..n {
                targets.push(r.branch32()?);
            }
            TableSwitch {
                default,
                low,
                targets,
            }
        }
        0xab => {
            skip_padding(r)?;
            let default = r.branch32()?;
            let npairs = r.i32()?;
            let n = usize::try_from(npairs).map_err(|_| {
                ClassError::malformed(format!(
                    "lookupswitch at pc {} has negative npairs {npairs}",
                    r.insn_pc
                ))
            })?;
            check_room(r, n, 8)?;
            let mut pairs = Vec::with_capacity(n);
            for _ in 0..n {
                let key = r.i32()?;
                let t = r.branch32()?;
                pairs.push((key, t));
            }
            LookupSwitch { default, pairs }
        }
        0xac..=0xb0 => Return(Some(Kind::ALL[usize::from(op - 0xac)])),
        0xb1 => Return(None),
        0xb2 => GetStatic(cp.field_ref(r.u16()?)?),
        0xb3 => PutStatic(cp.field_ref(r.u16()?)?),
        0xb4 => GetField(cp.field_ref(r.u16()?)?),
        0xb5 => PutField(cp.field_ref(r.u16()?)?),
        0xb6 => Invoke {
            kind: InvokeKind::Virtual,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb7 => Invoke {
            kind: InvokeKind::Special,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb8 => Invoke {
            kind: InvokeKind::Static,
            method: cp.method_ref(r.u16()?)?,
        },
        0xb9 => {
            let method = cp.method_ref(r.u16()?)?;
            let _count = r.u8()?;
            let _zero = r.u8()?;
            Invoke {
                kind: InvokeKind::Interface,
                method,
            }
        }
        0xba => {
            let (name, descriptor) = cp.invoke_dynamic(r.u16()?)?;
            let _zeros = r.u16()?;
            InvokeDynamic { name, descriptor }
        }
        0xbb => New(cp.class_name(r.u16()?)?.to_string()),
        0xbc => {
            let atype = r.u8()?;
            NewArray(match atype {
                4 => ArrayKind::Boolean,
                8 => ArrayKind::Byte,
                5 => ArrayKind::Char,
                6 => ArrayKind::Float,
                7 => ArrayKind::Double,
                9 => ArrayKind::Short,
                10 => ArrayKind::Int,
                11 => ArrayKind::Long,
                _ => {
                    return Err(ClassError::malformed(format!(
                        "newarray at pc {} has bad atype {atype}",
                        r.insn_pc
                    )))
                }
            })
        }
        0xbd => ANewArray(cp.class_name(r.u16()?)?.to_string()),
        0xbe => ArrayLength,
        0xbf => AThrow,
        0xc0 => CheckCast(cp.class_name(r.u16()?)?.to_string()),
        0xc1 => InstanceOf(cp.class_name(r.u16()?)?.to_string()),
        0xc2 => MonitorEnter,
        0xc3 => MonitorExit,
        0xc4 => {
            let op2 = r.u8()?;
            match op2 {
                0x15..=0x19 => Load(Kind::ALL[usize::from(op2 - 0x15)], r.u16()?),
                0x36..=0x3a => Store(Kind::ALL[usize::from(op2 - 0x36)], r.u16()?),
                0xa9 => Ret(r.u16()?),
                0x84 => IInc {
                    index: r.u16()?,
                    delta: i32::from(r.i16()?),
                },
                _ => {
                    return Err(ClassError::malformed(format!(
                        "wide at pc {} modifies opcode 0x{op2:02x}",
                        r.insn_pc
                    )))
                }
            }
        }
        0xc5 => {
            let class = cp.class_name(r.u16()?)?.to_string();
            let dims = r.u8()?;
            if dims == 0 {
                return Err(ClassError::malformed(format!(
                    "multianewarray at pc {} has zero dimensions",
                    r.insn_pc
                )));
            }
            MultiANewArray { class, dims }
        }
        0xc6 => IfNull {
            target: r.branch16()?,
        },
        0xc7 => IfNonNull {
            target: r.branch16()?,
        },
        0xc8 => Goto(r.branch32()?),
        0xc9 => Jsr(r.branch32()?),
        _ => {
            return Err(ClassError::malformed(format!(
                "reserved or unknown opcode 0x{op:02x} at pc {}",
                r.insn_pc
            )))
        }
    };
    Ok(insn)
}

impl Reader<'_> {
    /// Reads a 16-bit branch offset and returns the absolute target.
    fn branch16(&mut self) -> Result<u32, ClassError> {
        let offset = self.i16()?;
        self.target(i64::from(offset))
    }

    /// Reads a 32-bit branch offset and returns the absolute target.
    fn branch32(&mut self) -> Result<u32, ClassError> {
        let offset = self.i32()?;
        self.target(i64::from(offset))
    }
}

fn ldc(cp: &ConstantPool<'_>, index: u16, wide: bool) -> Result<Insn, ClassError> {
    let c = cp.constant(index)?;
    let two_slots = matches!(c, Constant::Long(_) | Constant::Double(_));
    if two_slots != wide {
        return Err(ClassError::malformed(format!(
            "{} of constant #{index} ({c})",
            if wide { "ldc2_w" } else { "ldc" }
        )));
    }
    Ok(Insn::Ldc(c))
}

/// Skips the 0–3 padding bytes after a switch opcode (aligned to the code start).
fn skip_padding(r: &mut Reader<'_>) -> Result<(), ClassError> {
    while r.pos % 4 != 0 {
        r.u8()?;
    }
    Ok(())
}

/// Fails unless `n` entries of `size` bytes remain, before anything is allocated.
fn check_room(r: &Reader<'_>, n: usize, size: usize) -> Result<(), ClassError> {
    let need = n.checked_mul(size);
    let have = r.code.len().saturating_sub(r.pos);
    match need {
        Some(need) if need <= have => Ok(()),
        _ => Err(r.truncated()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use classfile_parser::constant_info::*;

    fn utf8(s: &str) -> ConstantInfo {
        ConstantInfo::Utf8(Utf8Constant {
            utf8_string: s.to_string(),
            bytes: s.as_bytes().to_vec(),
        })
    }

    /// A small pool with one entry of each kind the decoder resolves.
    fn pool() -> Vec<ConstantInfo> {
        vec![
            utf8("A"),                                            // 1
            ConstantInfo::Class(ClassConstant { name_index: 1 }), // 2
            utf8("f"),                                            // 3
            utf8("I"),                                            // 4
            ConstantInfo::NameAndType(NameAndTypeConstant {
                name_index: 3,
                descriptor_index: 4,
            }), // 5
            ConstantInfo::FieldRef(FieldRefConstant {
                class_index: 2,
                name_and_type_index: 5,
            }), // 6
            utf8("()V"),                                          // 7
            ConstantInfo::NameAndType(NameAndTypeConstant {
                name_index: 3,
                descriptor_index: 7,
            }), // 8
            ConstantInfo::MethodRef(MethodRefConstant {
                class_index: 2,
                name_and_type_index: 8,
            }), // 9
            ConstantInfo::InterfaceMethodRef(InterfaceMethodRefConstant {
                class_index: 2,
                name_and_type_index: 8,
            }), // 10
            ConstantInfo::Integer(IntegerConstant { value: 5 }),  // 11
            ConstantInfo::Long(LongConstant { value: 7 }),        // 12
            ConstantInfo::Unusable,                               // 13
            ConstantInfo::InvokeDynamic(InvokeDynamicConstant {
                bootstrap_method_attr_index: 0,
                name_and_type_index: 8,
            }), // 14
            ConstantInfo::String(StringConstant { string_index: 1 }), // 15
        ]
    }

    fn patterns(op: u8) -> Vec<Vec<u8>> {
        let mut out = vec![[op].iter().chain(&[0u8; 23]).copied().collect::<Vec<u8>>()];
        for k in 0..16u8 {
            out.push([op, 0, k, 1].iter().chain(&[0u8; 20]).copied().collect());
            out.push([op, k].iter().chain(&[0u8; 22]).copied().collect());
        }
        out
    }

    #[test]
    fn every_opcode_decodes_and_reports_its_opcode() {
        let entries = pool();
        let cp = ConstantPool::new(&entries);
        for op in 0..=0xc9u8 {
            if op == 0xc4 {
                continue; // wide: tested below
            }
            let expected = match op {
                0x13 => 0x12,
                0xc8 => 0xa7,
                0xc9 => 0xa8,
                _ => op,
            };
            let mut decoded = Vec::new();
            for p in patterns(op) {
                if let Ok(insns) = decode_code(&p, &cp) {
                    decoded.push(insns[0].1.clone());
                }
            }
            assert!(!decoded.is_empty(), "opcode 0x{op:02x} never decodes");
            if op == 0x10 || op == 0x11 {
                assert!(decoded.iter().all(|i| matches!(i, Insn::IConst(_))));
                continue;
            }
            assert!(
                decoded.iter().any(|i| i.opcode() == expected),
                "opcode 0x{op:02x} decodes to {decoded:?}"
            );
            for i in &decoded {
                assert_ne!(i.mnemonic(), INVALID.0, "{i:?}");
                assert!(!i.to_string().is_empty());
            }
        }
        for op in 0xca..=0xffu8 {
            assert!(
                decode_code(&[op], &cp).is_err(),
                "reserved 0x{op:02x} accepted"
            );
        }
    }

    #[test]
    fn wide_forms() {
        let entries = pool();
        let cp = ConstantPool::new(&entries);
        let d =
            |b: &[u8]| decode_code(b, &cp).map(|v| v.into_iter().map(|p| p.1).collect::<Vec<_>>());
        assert_eq!(
            d(&[0xc4, 0x15, 1, 0]).ok(),
            Some(vec![Insn::Load(Kind::Int, 256)])
        );
        assert_eq!(
            d(&[0xc4, 0x3a, 0, 9]).ok(),
            Some(vec![Insn::Store(Kind::Ref, 9)])
        );
        assert_eq!(d(&[0xc4, 0xa9, 1, 1]).ok(), Some(vec![Insn::Ret(257)]));
        assert_eq!(
            d(&[0xc4, 0x84, 1, 0, 0xff, 0xfe]).ok(),
            Some(vec![Insn::IInc {
                index: 256,
                delta: -2
            }])
        );
        assert!(d(&[0xc4, 0x60, 0, 0]).is_err());
        assert!(d(&[0xc4, 0x15, 1]).is_err());
    }

    #[test]
    fn branch_checks() {
        let cp = ConstantPool::new(&[]);
        // goto +1 lands inside the goto itself.
        assert!(decode_code(&[0xa7, 0, 1, 0], &cp).is_err());
        // goto -1 leaves the code.
        assert!(decode_code(&[0xa7, 0xff, 0xff], &cp).is_err());
        // goto +3 past the end.
        assert!(decode_code(&[0xa7, 0, 3], &cp).is_err());
        assert_eq!(
            decode_code(&[0x00, 0xa7, 0xff, 0xff], &cp).ok(),
            Some(vec![(0, Insn::Nop), (1, Insn::Goto(0))])
        );
        assert!(decode_code(&[], &cp).is_err());
        // Unresolvable constant pool index.
        assert!(decode_code(&[0xb4, 0, 1], &cp).is_err());
        // tableswitch with high < low and with an absurd range.
        assert!(decode_code(&[0xaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], &cp).is_err());
        assert!(decode_code(
            &[0xaa, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff],
            &cp
        )
        .is_err());
    }

    #[test]
    fn random_code_never_panics() {
        let entries = pool();
        let cp = ConstantPool::new(&entries);
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let len = (state % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|i| (state.rotate_left(i as u32 * 5) & 0xff) as u8 % 0xcc)
                .collect();
            if let Ok(insns) = decode_code(&bytes, &cp) {
                for (_, i) in insns {
                    let _ = (i.to_string(), i.opcode(), i.mnemonic());
                }
            }
        }
    }

    #[test]
    fn cond_helpers() {
        for c in Cond::ALL {
            assert_eq!(c.negate().negate(), c);
            assert_ne!(c.negate(), c);
        }
        assert_eq!(Cond::Ge.symbol(), "≥");
        assert_eq!(Cond::Lt.negate(), Cond::Ge);
    }
}
