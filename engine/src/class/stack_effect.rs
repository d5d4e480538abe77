//! What each instruction does to the operand stack, in JVM words (a `long` or `double` is two):
//! how many it pops and how many it pushes. The one table of stack effects; the frame
//! interpreter ([`super::frames`]) moves the words, its value lattice says what they hold.

use super::{ArithOp, ArrayKind, Constant, Insn, InvokeKind, MethodDescriptor};

/// Words popped and pushed by one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StackEffect {
    pub(crate) pops: usize,
    pub(crate) pushes: usize,
}

fn effect(pops: u16, pushes: u16) -> Option<StackEffect> {
    Some(StackEffect {
        pops: usize::from(pops),
        pushes: usize::from(pushes),
    })
}

/// Words of an array element of kind `k`.
pub(crate) fn array_kind_words(k: ArrayKind) -> u16 {
    match k {
        ArrayKind::Long | ArrayKind::Double => 2,
        _ => 1,
    }
}

/// The stack effect of `insn`; `None` when its descriptor does not parse (`invokedynamic`).
pub(crate) fn stack_effect(insn: &Insn) -> Option<StackEffect> {
    use Insn::*;
    match insn {
        Nop | IInc { .. } | Goto(_) | Ret(_) => effect(0, 0),
        AConstNull | IConst(_) | FConst(_) | New(_) | Jsr(_) => effect(0, 1),
        LConst(_) | DConst(_) => effect(0, 2),
        Ldc(c) => match c {
            Constant::Long(_) | Constant::Double(_) => effect(0, 2),
            _ => effect(0, 1),
        },
        Load(k, _) => effect(0, k.slots()),
        Store(k, _) => effect(k.slots(), 0),
        ArrayLoad(k) => effect(2, array_kind_words(*k)),
        ArrayStore(k) => effect(2 + array_kind_words(*k), 0),
        MonitorEnter | MonitorExit | If { .. } | IfNull { .. } | IfNonNull { .. } => effect(1, 0),
        TableSwitch { .. } | LookupSwitch { .. } | AThrow => effect(1, 0),
        IfICmp { .. } | IfACmp { .. } => effect(2, 0),
        Pop | Pop2 | Dup | DupX1 | DupX2 | Dup2 | Dup2X1 | Dup2X2 | Swap => {
            let (pops, order) = shuffle(insn)?;
            effect(pops, order.len() as u16)
        }
        Arith(k, op) => {
            let pops = match op {
                ArithOp::Neg => k.slots(),
                ArithOp::Shl | ArithOp::Shr | ArithOp::Ushr => k.slots() + 1,
                _ => 2 * k.slots(),
            };
            effect(pops, k.slots())
        }
        Convert { from, to } => effect(from.slots(), to.slots()),
        I2B | I2C | I2S | NewArray(_) | ANewArray(_) | ArrayLength | InstanceOf(_)
        | CheckCast(_) => effect(1, 1),
        LCmp | DCmpL | DCmpG => effect(4, 1),
        FCmpL | FCmpG => effect(2, 1),
        Return(k) => effect(k.map_or(0, |k| k.slots()), 0),
        GetStatic(f) => effect(0, f.desc.slots()),
        GetField(f) => effect(1, f.desc.slots()),
        PutStatic(f) => effect(f.desc.slots(), 0),
        PutField(f) => effect(1 + f.desc.slots(), 0),
        Invoke { kind, method } => effect(
            method.desc.param_slots() + u16::from(*kind != InvokeKind::Static),
            method.desc.ret.as_ref().map_or(0, |t| t.slots()),
        ),
        InvokeDynamic { descriptor, .. } => {
            let d = MethodDescriptor::parse(descriptor).ok()?;
            effect(d.param_slots(), d.ret.as_ref().map_or(0, |t| t.slots()))
        }
        MultiANewArray { dims, .. } => effect(u16::from(*dims), 1),
    }
}

/// The words a stack shuffle (`pop`, `pop2`, `dup*`, `swap`) pops, and the order it pushes them
/// back in, by index into the popped words (deepest first): `dup_x1` turns `b a` into `a b a`.
pub(crate) fn shuffle(insn: &Insn) -> Option<(u16, &'static [usize])> {
    use Insn::*;
    Some(match insn {
        Pop => (1, &[]),
        Pop2 => (2, &[]),
        Dup => (1, &[0, 0]),
        DupX1 => (2, &[1, 0, 1]),
        DupX2 => (3, &[2, 0, 1, 2]),
        Dup2 => (2, &[0, 1, 0, 1]),
        Dup2X1 => (3, &[1, 2, 0, 1, 2]),
        Dup2X2 => (4, &[2, 3, 0, 1, 2, 3]),
        Swap => (2, &[1, 0]),
        _ => return None,
    })
}
