//! The instrumenter's method table on the Rust side: per instrumented method its names,
//! `max_locals`, the opcode and auxiliary value of every instruction, the fields its
//! `putfield` / `getstatic` / `putstatic` name, the classes of its `new`s, and the layout of the
//! values each step at a pc records (docs/trace-wire.md, "Method table").

use std::collections::HashMap;
use std::sync::Arc;

use crate::decode::wire::{
    Kind, NONE, OP_ASTORE, OP_GETSTATIC, OP_ISTORE, OP_NEW, OP_PUTFIELD, OP_PUTSTATIC,
};
use crate::error::JvmError;

/// A `putfield`, `getstatic` or `putstatic` field as written in the instruction.
#[derive(Clone, Debug)]
pub(crate) struct FieldRef {
    /// `owner.name`, the key of a shadowed field declared in `owner`.
    pub qualified: String,
    pub name: String,
    /// First character of the field descriptor.
    pub desc: u8,
}

impl FieldRef {
    /// The class the instruction names.
    pub(crate) fn owner(&self) -> &str {
        &self.qualified[..self.qualified.len() - self.name.len() - 1]
    }
}

/// The instrumenter's method table as pulled so far: method id -> its facts (ids are dense and
/// never reused; instrumented classes are cached, so a run may use methods of earlier runs).
pub(crate) type MethodTable = Arc<Vec<Arc<MethodMeta>>>;

/// What a step at one pc records: the kinds of its locals and stack entries.
#[derive(Clone, Debug)]
pub(crate) struct StepLayout {
    /// Number of locals recorded (a prefix of the slots).
    pub nl: usize,
    /// Locals by slot, then the stack top first.
    pub kinds: Box<[Kind]>,
    /// Ints the values take in the trace buffer.
    pub ints: usize,
}

/// Static facts about one instrumented method, from the instrumenter's table.
#[derive(Clone, Debug)]
pub(crate) struct MethodMeta {
    pub class: Arc<str>,
    pub name: Arc<str>,
    pub desc: Arc<str>,
    pub max_locals: usize,
    /// pc -> (opcode, aux): aux = popped entries for invokes, the local slot for loads and
    /// stores, a string index for `putfield`, `getstatic`, `putstatic` and `new`.
    ops: HashMap<u32, (u8, i32)>,
    pub fields: HashMap<u32, FieldRef>,
    /// pc of a `new` -> the class it instantiates.
    pub news: HashMap<u32, String>,
    /// Whether some instruction stores into local slot 0 (else slot 0 of a constructor is
    /// `this` throughout).
    pub stores_slot0: bool,
    /// pc -> index into `layouts` (`NONE`: no probe there).
    layout_at: Vec<u32>,
    layouts: Vec<StepLayout>,
}

impl MethodMeta {
    /// Builds the metadata from `"class name desc"` and
    /// `[maxLocals, nInsns, (pc, opcode, aux)*nInsns, (pc, nl, ns, code*(nl + ns))*]`.
    pub(crate) fn parse(
        name: &str,
        info: &[i32],
        strings: &[String],
    ) -> Result<MethodMeta, JvmError> {
        let mut parts = name.splitn(3, ' ');
        let (Some(class), Some(mname), Some(desc)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(JvmError::Decode(format!("bad method name {name:?}")));
        };
        let [max_locals, n_insns, rest @ ..] = info else {
            return Err(JvmError::Decode(format!("empty method info for {name}")));
        };
        let max_locals = *max_locals;
        let Some((insns, mut lays)) = usize::try_from(*n_insns)
            .ok()
            .and_then(|n| n.checked_mul(3))
            .filter(|&n| n <= rest.len())
            .map(|n| rest.split_at(n))
        else {
            return Err(JvmError::Decode(format!("bad method info for {name}")));
        };
        let mut ops = HashMap::new();
        let mut fields = HashMap::new();
        let mut news = HashMap::new();
        let mut stores_slot0 = false;
        for t in insns.chunks_exact(3) {
            let (pc, op, aux) = (t[0] as u32, t[1] as u8, t[2]);
            ops.insert(pc, (op, aux));
            stores_slot0 |= (OP_ISTORE..=OP_ASTORE).contains(&op) && aux == 0;
            // the aux of `new` and of field instructions but `getfield` is an index into the
            // string table
            let string = |what: &str| {
                usize::try_from(aux)
                    .ok()
                    .and_then(|a| strings.get(a))
                    .ok_or_else(|| JvmError::Decode(format!("bad {what} string {aux} in {name}")))
            };
            if op == OP_NEW {
                news.insert(pc, string("new")?.clone());
            }
            if matches!(op, OP_PUTFIELD | OP_GETSTATIC | OP_PUTSTATIC) {
                let s = string("field")?;
                let (q, d) = s
                    .rsplit_once(':')
                    .ok_or_else(|| JvmError::Decode(format!("bad field ref {s}")))?;
                let (_, n) = q
                    .rsplit_once('.')
                    .ok_or_else(|| JvmError::Decode(format!("bad field ref {s}")))?;
                fields.insert(
                    pc,
                    FieldRef {
                        qualified: q.to_string(),
                        name: n.to_string(),
                        desc: d.bytes().next().unwrap_or(b'L'),
                    },
                );
            }
        }
        let mut layout_at = Vec::new();
        let mut layouts = Vec::new();
        while let [pc, nl, ns, more @ ..] = lays {
            let bad_layout = || JvmError::Decode(format!("bad layout at pc {pc} in {name}"));
            let (Ok(pc), Ok(nl), Ok(ns)) = (
                u16::try_from(*pc),
                usize::try_from(*nl),
                usize::try_from(*ns),
            ) else {
                return Err(bad_layout());
            };
            if more.len() < nl + ns || !ops.contains_key(&(pc as u32)) {
                return Err(bad_layout());
            }
            let (codes, next) = more.split_at(nl + ns);
            lays = next;
            let kinds = codes
                .iter()
                .map(|&c| {
                    let kind = Kind::of_code(c).ok_or_else(bad_layout)?;
                    if let Kind::New(site) = kind {
                        let known = match u32::try_from(site) {
                            Ok(site) => news.contains_key(&site),
                            Err(_) => site == -1,
                        };
                        if !known {
                            return Err(JvmError::Decode(format!(
                                "object under construction from pc {site} at pc {pc} in \
                                 {name}, not a `new`"
                            )));
                        }
                    }
                    Ok(kind)
                })
                .collect::<Result<Box<[Kind]>, JvmError>>()?;
            let ints = kinds.iter().map(|k| k.width()).sum();
            let pc = pc as usize;
            if layout_at.len() <= pc {
                layout_at.resize(pc + 1, NONE);
            }
            if layout_at[pc] != NONE {
                return Err(bad_layout());
            }
            layout_at[pc] = layouts.len() as u32;
            layouts.push(StepLayout { nl, kinds, ints });
        }
        if !lays.is_empty() {
            return Err(JvmError::Decode(format!("bad layouts in {name}")));
        }
        Ok(MethodMeta {
            class: class.into(),
            name: mname.into(),
            desc: desc.into(),
            max_locals: max_locals.max(0) as usize,
            ops,
            fields,
            news,
            stores_slot0,
            layout_at,
            layouts,
        })
    }

    /// The layout of a step at `pc`, if the method has a probe there.
    pub(crate) fn layout(&self, pc: u32) -> Option<&StepLayout> {
        let i = *self.layout_at.get(pc as usize)?;
        self.layouts.get(i as usize)
    }

    pub(crate) fn op(&self, pc: u32) -> Option<(u8, i32)> {
        self.ops.get(&pc).copied()
    }
}
