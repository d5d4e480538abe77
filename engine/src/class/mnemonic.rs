//! Mnemonics and opcodes of decoded instructions (JVMS §6.5), and their text form.

use std::fmt;

use super::insn::{ArithOp, Constant, Insn, Kind};
use super::member::InvokeKind;

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
pub(super) const INVALID: (&str, u8) = ("<invalid>", 0xff);

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
            InvokeDynamic {
                name, descriptor, ..
            } => write!(f, "{m} {name}{descriptor}"),
            New(c) | ANewArray(c) | CheckCast(c) | InstanceOf(c) => write!(f, "{m} {c}"),
            NewArray(a) => write!(f, "{m} {}", a.java_name()),
            MultiANewArray { class, dims } => write!(f, "{m} {class}, {dims}"),
            _ => f.write_str(m),
        }
    }
}
