//! Our own decoded JVM instruction set (JVMS §6.5): the instruction type and its operands.
//!
//! Every opcode is covered. `wide` is folded into the widened instruction, short forms
//! (`iload_0`, `iconst_1`, `bipush`, ...) are folded into their general form, `goto_w`/`jsr_w`
//! into `Goto`/`Jsr`, branch offsets are absolute pcs, and constant-pool operands are resolved
//! to strings. The decoder is [`super::decode`]; mnemonics and opcodes are
//! [`super::mnemonic`].

use std::fmt;

use super::member::{FieldRef, InvokeKind, MethodRef};

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

    pub(super) fn index(self) -> u8 {
        match self {
            Kind::Int => 0,
            Kind::Long => 1,
            Kind::Float => 2,
            Kind::Double => 3,
            Kind::Ref => 4,
        }
    }

    pub(super) const ALL: [Kind; 5] = [Kind::Int, Kind::Long, Kind::Float, Kind::Double, Kind::Ref];
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
    pub(super) const ALL: [ArrayKind; 8] = [
        ArrayKind::Int,
        ArrayKind::Long,
        ArrayKind::Float,
        ArrayKind::Double,
        ArrayKind::Ref,
        ArrayKind::Byte,
        ArrayKind::Char,
        ArrayKind::Short,
    ];

    pub(super) fn index(self) -> u8 {
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
    pub(super) const ALL: [Cond; 6] = [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le];

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

    pub(super) fn index(self) -> u8 {
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
        /// The bootstrap method and its static arguments.
        site: Box<super::indy::DynamicSite>,
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

impl Insn {
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
