//! The recorder's wire format on the Rust side (docs/trace-wire.md): the constants it shares
//! with `Recorder.java`, `Instrumenter.java` and `Runner.java`, and the readers of its pieces,
//! a step header, an untagged step value, a tagged heap value, one heap-log record.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::JvmError;
use crate::values::{CValue, ObjId, StaticKey};

/// Tags of heap-record values (`Recorder.T_*`).
pub(crate) const T_INT: i32 = 0;
pub(crate) const T_FLOAT: i32 = 1;
pub(crate) const T_LONG: i32 = 2;
pub(crate) const T_DOUBLE: i32 = 3;
pub(crate) const T_REF: i32 = 4;

/// Layout codes of step values (`Instrumenter.K_*`: the low 3 bits; an object under
/// construction has its site + 1 above them).
pub(crate) const K_INT: i32 = 0;
pub(crate) const K_FLOAT: i32 = 1;
pub(crate) const K_LONG: i32 = 2;
pub(crate) const K_DOUBLE: i32 = 3;
pub(crate) const K_REF: i32 = 4;
pub(crate) const K_TOP: i32 = 5;
pub(crate) const K_UNINIT: i32 = 6;

/// Object kinds of heap records (`Recorder.K_*`).
pub(crate) const K_INSTANCE: i32 = 0;
pub(crate) const K_ARRAY: i32 = 1;
pub(crate) const K_STRING: i32 = 2;
/// A heap-log record of a new value of a JDK collection's field (`Library.K_UPDATE`).
pub(crate) const K_UPDATE: i32 = 3;

/// The opcodes the decoder looks at (JVMS §6.5).
pub(crate) const OP_ISTORE: u8 = 0x36;
pub(crate) const OP_ASTORE: u8 = 0x3a;
pub(crate) const OP_IASTORE: u8 = 0x4f;
pub(crate) const OP_SASTORE: u8 = 0x56;
pub(crate) const OP_GETSTATIC: u8 = 0xb2;
pub(crate) const OP_PUTSTATIC: u8 = 0xb3;
pub(crate) const OP_PUTFIELD: u8 = 0xb5;
pub(crate) const OP_INVOKEVIRTUAL: u8 = 0xb6;
pub(crate) const OP_INVOKESPECIAL: u8 = 0xb7;
pub(crate) const OP_INVOKESTATIC: u8 = 0xb8;
pub(crate) const OP_INVOKEDYNAMIC: u8 = 0xba;
pub(crate) const OP_NEW: u8 = 0xbb;

/// A snapshot's reference to an object the recorder never saw (recorded id -1) decodes to
/// `CValue::Uninit(UNSEEN)`. No replayed heap value is ever uninitialized, so such a field
/// always fails the comparison with the replay, as it must: code the tracer does not see
/// created the object and stored it.
pub(crate) const UNSEEN: u32 = u32::MAX;

/// No step, no layout, or a change of a static field (in index vectors).
pub(crate) const NONE: u32 = u32::MAX;

/// First int of a step header whose method id does not fit in 16 bits (no pc is 0xffff).
pub(crate) const WIDE: i32 = -1;

pub(crate) fn bad(msg: impl Into<String>) -> JvmError {
    JvmError::Decode(msg.into())
}

/// The static kind of a recorded step value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    Float,
    Long,
    Double,
    Ref,
    Top,
    /// An object under construction from its site (the pc of its `new`, -1 for `this` before
    /// `super()`).
    New(i32),
}

impl Kind {
    /// The kind of layout code `c`, `None` for a code the wire does not have.
    pub(crate) fn of_code(c: i32) -> Option<Kind> {
        Some(match c & 7 {
            K_INT => Kind::Int,
            K_FLOAT => Kind::Float,
            K_LONG => Kind::Long,
            K_DOUBLE => Kind::Double,
            K_REF => Kind::Ref,
            K_TOP => Kind::Top,
            K_UNINIT => Kind::New((c >> 3) - 1),
            _ => return None,
        })
    }

    /// Ints a value of this kind takes in a step.
    pub(crate) fn width(self) -> usize {
        match self {
            Kind::Long | Kind::Double => 2,
            Kind::Top | Kind::New(_) => 0,
            _ => 1,
        }
    }
}

/// A recorded value: a concrete value, or an object under construction by its site (the pc of
/// its `new`, -1 for `this` before `super()`), numbered when frames are materialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    C(CValue),
    New(i32),
}

/// The step header at `p`: (mid, pc, depth, offset of the values), None if truncated.
pub(crate) fn header_at(buf: &[i32], p: usize) -> Option<(u32, u32, usize, usize)> {
    let w = *buf.get(p)?;
    if w == WIDE {
        let h = buf.get(p + 1..p + 4)?;
        Some((h[0] as u32, h[1] as u32, h[2] as usize, p + 4))
    } else {
        let depth = *buf.get(p + 1)?;
        Some(((w as u32) >> 16, w as u32 & 0xffff, depth as usize, p + 2))
    }
}

/// Reads one untagged step value of kind `k` at `*p` (the step index checked the step's
/// length).
pub(crate) fn read_val(k: Kind, buf: &[i32], p: &mut usize) -> Val {
    let at = *p;
    *p += k.width();
    let long = || ((buf[at] as u32 as u64) << 32) | buf[at + 1] as u32 as u64;
    Val::C(match k {
        Kind::Int => CValue::Int(buf[at]),
        Kind::Float => CValue::Float(buf[at] as u32),
        Kind::Long => CValue::Long(long() as i64),
        Kind::Double => CValue::Double(long()),
        Kind::Ref => match buf[at] {
            0 => CValue::Null,
            id => CValue::Ref(ObjId(id as u32)),
        },
        Kind::Top => CValue::Top,
        Kind::New(site) => return Val::New(site),
    })
}

/// Reads one tagged value of a heap record at `*p`.
pub(crate) fn read_field(buf: &[i32], p: &mut usize) -> Result<CValue, JvmError> {
    let get = |i: usize| buf.get(i).copied().ok_or_else(|| bad("truncated value"));
    let tag = get(*p)?;
    let v = match tag {
        T_INT => {
            *p += 2;
            CValue::Int(get(*p - 1)?)
        }
        T_FLOAT => {
            *p += 2;
            CValue::Float(get(*p - 1)? as u32)
        }
        T_LONG | T_DOUBLE => {
            *p += 3;
            let bits = ((get(*p - 2)? as u32 as u64) << 32) | get(*p - 1)? as u32 as u64;
            if tag == T_LONG {
                CValue::Long(bits as i64)
            } else {
                CValue::Double(bits)
            }
        }
        T_REF => {
            *p += 2;
            match get(*p - 1)? {
                0 => CValue::Null,
                id if id > 0 => CValue::Ref(ObjId(id as u32)),
                // -1 in snapshots: an object the recorder never saw.
                _ => CValue::Uninit(UNSEEN),
            }
        }
        t => return Err(bad(format!("bad value tag {t} at {}", *p))),
    };
    Ok(v)
}

/// Field keys of one instance class, in heap-log order.
#[derive(Debug)]
pub(crate) struct Layout {
    pub class: String,
    pub keys: Vec<String>,
}

/// An object as a heap record shows it (its values at first sight, or in a snapshot).
#[derive(Clone, Debug)]
pub(crate) enum Base {
    Instance {
        layout: Arc<Layout>,
        vals: Vec<CValue>,
    },
    Array {
        elem: Arc<str>,
        vals: Vec<CValue>,
    },
    Str(i32),
}

/// One heap-log / snapshot record at `*p`: (step, id, object). `layouts` caches the field
/// keys of each class (by its string index).
pub(crate) fn read_object(
    buf: &[i32],
    p: &mut usize,
    strings: &[String],
    layouts: &mut HashMap<i32, Arc<Layout>>,
) -> Result<(u32, u32, Base), JvmError> {
    let get = |i: usize| {
        buf.get(i)
            .copied()
            .ok_or_else(|| bad("truncated heap record"))
    };
    let string = |i: i32| {
        usize::try_from(i)
            .ok()
            .and_then(|i| strings.get(i))
            .ok_or_else(|| bad(format!("bad string index {i}")))
    };
    let step = get(*p)? as u32;
    let id = get(*p + 1)? as u32;
    let class = get(*p + 2)?;
    let kind = get(*p + 3)?;
    *p += 4;
    let base = match kind {
        K_STRING => {
            *p += 1;
            Base::Str(get(*p - 1)?)
        }
        K_ARRAY => {
            let elem: Arc<str> = string(get(*p)?)?.as_str().into();
            let n = get(*p + 1)?;
            *p += 2;
            // each value takes at least two ints: a length past the buffer is corrupt
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= buf.len().saturating_sub(*p) / 2)
                .ok_or_else(|| bad(format!("bad array length {n}")))?;
            let mut vals = Vec::with_capacity(n);
            for _ in 0..n {
                vals.push(read_field(buf, p)?);
            }
            Base::Array { elem, vals }
        }
        K_INSTANCE => {
            let n = get(*p)?;
            *p += 1;
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= buf.len().saturating_sub(*p) / 3)
                .ok_or_else(|| bad(format!("bad field count {n}")))?;
            let mut keys = Vec::with_capacity(n);
            let mut vals = Vec::with_capacity(n);
            for _ in 0..n {
                keys.push(get(*p)?);
                *p += 1;
                vals.push(read_field(buf, p)?);
            }
            let layout = match layouts.get(&class) {
                Some(l) if l.keys.len() == keys.len() => l.clone(),
                _ => {
                    let l = Arc::new(Layout {
                        class: string(class)?.clone(),
                        keys: keys
                            .iter()
                            .map(|k| string(*k).cloned())
                            .collect::<Result<_, _>>()?,
                    });
                    layouts.insert(class, l.clone());
                    l
                }
            };
            Base::Instance { layout, vals }
        }
        k => return Err(bad(format!("bad object kind {k}"))),
    };
    Ok((step, id, base))
}

/// The static fields of a run record's statics section: `(classStr, nameStr, tagged value)*`.
pub(crate) fn read_statics(
    buf: &[i32],
    strings: &[String],
) -> Result<Vec<(StaticKey, CValue)>, JvmError> {
    let string = |i: Option<&i32>| {
        i.and_then(|&i| usize::try_from(i).ok())
            .and_then(|i| strings.get(i))
            .ok_or_else(|| bad("bad string index in the statics of a run record"))
    };
    let mut out = Vec::new();
    let mut p = 0usize;
    while p < buf.len() {
        let key = StaticKey::new(
            string(buf.get(p))?.as_str(),
            string(buf.get(p + 1))?.as_str(),
        );
        p += 2;
        out.push((key, read_field(buf, &mut p)?));
    }
    Ok(out)
}

/// The value a store of `v` leaves in a slot of type `desc` (the JVM narrows ints).
pub(crate) fn truncate(desc: u8, v: CValue) -> CValue {
    match (desc, v) {
        (b'Z', CValue::Int(x)) => CValue::Int(x & 1),
        (b'B', CValue::Int(x)) => CValue::Int(x as i8 as i32),
        (b'C', CValue::Int(x)) => CValue::Int(x as u16 as i32),
        (b'S', CValue::Int(x)) => CValue::Int(x as i16 as i32),
        _ => v,
    }
}
