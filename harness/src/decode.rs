//! Decoding of the recorder's int buffers into a [`TraceData`]: step index, call-stack
//! reconstruction (depth counter + caller links), the first-sight heap log, and heap replay
//! (putfield / xastore re-applied from the recorded pre-state operands into a per-slot write
//! history, so the heap as of any step is a binary search per slot). Also checks the replayed
//! heap against the recorder's full snapshots in `verify_replay` mode.
//!
//! Static fields: the recorder does not log them; the decoder learns a static's value from the
//! accesses that complete (the next step of the accessing frame is the instruction after it):
//! a `getstatic` shows it on that step's operand stack, a `putstatic` sets it to the recorded
//! pre-state operand. From that step on the field is known and the accesses are replayed like
//! writes to objects ([`StaticHist`]). Code the tracer does not see can write statics too: a
//! class initialiser (`<clinit>` is not traced; it runs inside the access, `new` or call that
//! initialises its class, and methods it calls are traced as frames above that step), or the
//! JDK through reflection. A later `getstatic` that reads another value than the replayed one
//! reveals such a write; the field is then unknown from the step after the last observation up
//! to the read, as the write could lie anywhere in between. A field is known by the key the
//! instruction names (`class.name`) until [`TraceData::resolve_statics`] maps the names to the
//! declaring classes (one field named through a subclass and its own class is one key).
//!
//! A step is its header (`mid << 16 | pc, depth`, or `-1, mid, pc, depth` for a method id that
//! does not fit in 16 bits) and its values untagged (locals by slot, then the stack top
//! first): their kinds are static per pc and come from the method table's layouts
//! ([`StepLayout`]); a `Top` or an object under construction takes no ints. Heap records keep
//! tagged values. Objects under construction are known by their site (the pc of their `new`, -1
//! for `this` before `super()`, in the layout); materialising the frames of a step numbers them
//! ([`CValue::Uninit`]) and finds their classes ([`UninitObj`]).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;

use rustc_hash::FxHashSet;

use jtg_engine::state::StaticField;

use crate::error::HarnessError;
use crate::trace::{CFrame, CHeap, CObject, CStatics, CValue, ObjId, Objects, UninitObj};

const T_INT: i32 = 0;
const T_FLOAT: i32 = 1;
const T_LONG: i32 = 2;
const T_DOUBLE: i32 = 3;
const T_REF: i32 = 4;

/// Layout codes (the low 3 bits; an object under construction has its site + 1 above them).
const K_INT: i32 = 0;
const K_FLOAT: i32 = 1;
const K_LONG: i32 = 2;
const K_DOUBLE: i32 = 3;
const K_REF: i32 = 4;
const K_TOP: i32 = 5;
const K_UNINIT: i32 = 6;

const K_INSTANCE: i32 = 0;
const K_ARRAY: i32 = 1;
const K_STRING: i32 = 2;

const OP_ISTORE: u8 = 0x36;
const OP_ASTORE: u8 = 0x3a;
const OP_IASTORE: u8 = 0x4f;
const OP_SASTORE: u8 = 0x56;
const OP_GETSTATIC: u8 = 0xb2;
const OP_PUTSTATIC: u8 = 0xb3;
const OP_PUTFIELD: u8 = 0xb5;
const OP_INVOKEVIRTUAL: u8 = 0xb6;
const OP_INVOKESPECIAL: u8 = 0xb7;
const OP_INVOKEDYNAMIC: u8 = 0xba;
const OP_NEW: u8 = 0xbb;

/// A snapshot's reference to an object the recorder never saw (recorded id -1) decodes to
/// `CValue::Uninit(UNSEEN)`. No replayed heap value is ever uninitialized, so such a field
/// always fails the comparison with the replay, as it must: code the tracer does not see
/// created the object and stored it.
const UNSEEN: u32 = u32::MAX;

const NONE: u32 = u32::MAX;
/// First int of a step header whose method id does not fit in 16 bits (no pc is 0xffff).
const WIDE: i32 = -1;

/// A `putfield`, `getstatic` or `putstatic` field as written in the instruction.
#[derive(Clone, Debug)]
pub(crate) struct FieldRef {
    /// `owner.name`, the key of a shadowed field declared in `owner`.
    qualified: String,
    name: String,
    /// First character of the field descriptor.
    desc: u8,
}

impl FieldRef {
    /// The class the instruction names.
    fn owner(&self) -> &str {
        &self.qualified[..self.qualified.len() - self.name.len() - 1]
    }
}

/// The instrumenter's method table as pulled so far: method id -> its facts (ids are dense and
/// never reused; instrumented classes are cached, so a run may use methods of earlier runs).
pub(crate) type MethodTable = Arc<Vec<Arc<MethodMeta>>>;

/// What a step at one pc records: the kinds of its locals and stack entries.
#[derive(Clone, Debug)]
struct StepLayout {
    /// Number of locals recorded (a prefix of the slots).
    nl: usize,
    /// Locals by slot, then the stack top first.
    kinds: Box<[Kind]>,
    /// Ints the values take in the trace buffer.
    ints: usize,
}

/// The static kind of a recorded value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Long,
    Double,
    Ref,
    Top,
    /// An object under construction from its site.
    New(i32),
}

impl Kind {
    fn width(self) -> usize {
        match self {
            Kind::Long | Kind::Double => 2,
            Kind::Top | Kind::New(_) => 0,
            _ => 1,
        }
    }
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
    fields: HashMap<u32, FieldRef>,
    /// pc of a `new` -> the class it instantiates.
    news: HashMap<u32, String>,
    /// Whether some instruction stores into local slot 0 (else slot 0 of a constructor is
    /// `this` throughout).
    stores_slot0: bool,
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
    ) -> Result<MethodMeta, HarnessError> {
        let mut parts = name.splitn(3, ' ');
        let (Some(class), Some(mname), Some(desc)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(HarnessError::Decode(format!("bad method name {name:?}")));
        };
        let [max_locals, n_insns, rest @ ..] = info else {
            return Err(HarnessError::Decode(format!(
                "empty method info for {name}"
            )));
        };
        let max_locals = *max_locals;
        let Some((insns, mut lays)) = usize::try_from(*n_insns)
            .ok()
            .and_then(|n| n.checked_mul(3))
            .filter(|&n| n <= rest.len())
            .map(|n| rest.split_at(n))
        else {
            return Err(HarnessError::Decode(format!("bad method info for {name}")));
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
                    .ok_or_else(|| {
                        HarnessError::Decode(format!("bad {what} string {aux} in {name}"))
                    })
            };
            if op == OP_NEW {
                news.insert(pc, string("new")?.clone());
            }
            if matches!(op, OP_PUTFIELD | OP_GETSTATIC | OP_PUTSTATIC) {
                let s = string("field")?;
                let (q, d) = s
                    .rsplit_once(':')
                    .ok_or_else(|| HarnessError::Decode(format!("bad field ref {s}")))?;
                let (_, n) = q
                    .rsplit_once('.')
                    .ok_or_else(|| HarnessError::Decode(format!("bad field ref {s}")))?;
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
            let bad_layout = || HarnessError::Decode(format!("bad layout at pc {pc} in {name}"));
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
                    Ok(match c & 7 {
                        K_INT => Kind::Int,
                        K_FLOAT => Kind::Float,
                        K_LONG => Kind::Long,
                        K_DOUBLE => Kind::Double,
                        K_REF => Kind::Ref,
                        K_TOP => Kind::Top,
                        K_UNINIT => {
                            let site = (c >> 3) - 1;
                            let known = match u32::try_from(site) {
                                Ok(site) => news.contains_key(&site),
                                Err(_) => site == -1,
                            };
                            if !known {
                                return Err(HarnessError::Decode(format!(
                                    "object under construction from pc {site} at pc {pc} in \
                                     {name}, not a `new`"
                                )));
                            }
                            Kind::New(site)
                        }
                        _ => return Err(bad_layout()),
                    })
                })
                .collect::<Result<Box<[Kind]>, HarnessError>>()?;
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
            return Err(HarnessError::Decode(format!("bad layouts in {name}")));
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
    fn layout(&self, pc: u32) -> Option<&StepLayout> {
        let i = *self.layout_at.get(pc as usize)?;
        self.layouts.get(i as usize)
    }

    fn op(&self, pc: u32) -> Option<(u8, i32)> {
        self.ops.get(&pc).copied()
    }
}

/// Field keys of one instance class, in heap-log order.
#[derive(Debug)]
struct Layout {
    class: String,
    keys: Vec<String>,
}

#[derive(Clone, Debug)]
enum Base {
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

#[derive(Clone, Debug)]
struct ObjRec {
    /// Step during which the object was first seen.
    first: u32,
    base: Base,
}

/// First-sight values plus the replayed writes: id -> slot -> [(step of the write, value)].
#[derive(Clone, Debug, Default)]
struct HeapHist {
    objs: HashMap<u32, ObjRec>,
    writes: HashMap<u32, HashMap<u32, Vec<(u32, CValue)>>>,
}

impl HeapHist {
    fn value_at(
        &self,
        w: Option<&HashMap<u32, Vec<(u32, CValue)>>>,
        slot: u32,
        base: CValue,
        step: u32,
    ) -> CValue {
        let Some(hist) = w.and_then(|w| w.get(&slot)) else {
            return base;
        };
        // A write recorded at step k is visible from step k + 1 on.
        let n = hist.partition_point(|(k, _)| *k < step);
        if n == 0 {
            base
        } else {
            hist[n - 1].1
        }
    }

    fn object_at(&self, id: u32, step: u32) -> Option<CObject> {
        let rec = self.objs.get(&id)?;
        let w = self.writes.get(&id);
        let vals = |vals: &[CValue]| -> Vec<CValue> {
            vals.iter()
                .enumerate()
                .map(|(s, v)| self.value_at(w, s as u32, *v, step))
                .collect()
        };
        Some(match &rec.base {
            Base::Instance { layout, vals: v } => CObject::Instance {
                class: layout.class.clone(),
                fields: layout.keys.iter().cloned().zip(vals(v)).collect(),
            },
            Base::Array { elem, vals: v } => CObject::Array {
                elem: elem.to_string(),
                elems: vals(v),
            },
            Base::Str(len) => CObject::Str { len: *len },
        })
    }
}

/// One completed access to a static field: the field holds `value` at step `from`, the step
/// after the access in the accessing frame.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StaticAccess {
    from: u32,
    /// Index into [`StaticHist::named`].
    field: u32,
    value: CValue,
    /// A `getstatic` (it observes the value) rather than a `putstatic` (it sets it).
    read: bool,
}

/// What the run knows of static fields, step by step (see the module docs).
#[derive(Clone, Debug, Default)]
struct StaticHist {
    /// The fields as instructions name them: (class, name).
    named: Vec<StaticField>,
    /// Every completed access, ordered by `from`.
    accesses: Vec<StaticAccess>,
    /// The distinct keys the named fields resolve to.
    keys: Vec<StaticField>,
    /// Per key: from which step on it holds which value (`None`: not known), by step.
    hist: Vec<Vec<(u32, Option<CValue>)>>,
}

impl StaticHist {
    /// Groups the accesses by the key `key` gives each named field and replays them per key.
    fn group(&mut self, key: &dyn Fn(&str, &str) -> StaticField) {
        let mut index: BTreeMap<StaticField, usize> = BTreeMap::new();
        self.keys.clear();
        let of_named: Vec<usize> = self
            .named
            .iter()
            .map(|(class, name)| {
                let k = key(class, name);
                *index.entry(k.clone()).or_insert_with(|| {
                    self.keys.push(k);
                    self.keys.len() - 1
                })
            })
            .collect();
        self.hist = vec![Vec::new(); self.keys.len()];
        // per key: the last step at which an access showed its value
        let mut seen = vec![0u32; self.keys.len()];
        for a in &self.accesses {
            let k = of_named[a.field as usize];
            let h = &mut self.hist[k];
            let last = std::mem::replace(&mut seen[k], a.from);
            let known = h.last().and_then(|e| e.1);
            if known == Some(a.value) {
                continue;
            }
            if a.read && known.is_some() && last + 1 < a.from {
                // a write the tracer did not see (a class initialiser): somewhere after the
                // last observation, up to this read
                h.push((last + 1, None));
            }
            match h.last_mut() {
                Some(e) if e.0 == a.from => e.1 = Some(a.value),
                _ => h.push((a.from, Some(a.value))),
            }
        }
    }

    /// The steps at which the known statics change (with repetitions), sorted.
    fn changes(&self) -> Vec<u32> {
        let mut c: Vec<u32> = self.hist.iter().flatten().map(|(from, _)| *from).collect();
        c.sort_unstable();
        c
    }

    /// The known static fields at step `step`, by key.
    fn at(&self, step: u32) -> CStatics {
        self.keys
            .iter()
            .zip(&self.hist)
            .filter_map(|(k, h)| {
                let n = h.partition_point(|(from, _)| *from <= step);
                let v = h.get(n.checked_sub(1)?)?.1?;
                Some((k.clone(), v))
            })
            .collect()
    }
}

/// The decoded, compact form of a trace (see [`crate::trace::Trace`]).
#[derive(Clone)]
pub(crate) struct TraceData {
    methods: MethodTable,
    buf: Vec<i32>,
    /// Offset of each step's header in `buf`.
    off: Vec<u32>,
    /// Step that holds the caller frame of each step (`NONE` for the entry frame).
    caller: Vec<u32>,
    /// Number of frames of each step (the length of its caller chain, itself included).
    depth: Vec<u32>,
    heap: HeapHist,
    /// Every replayed object write: (first step that sees it, object), in step order.
    obj_writes: Vec<(u32, u32)>,
    statics: StaticHist,
    /// Heap version of each step: the number of replayed object writes and changes of known
    /// static fields visible at it. Two steps of one version see every object with the same
    /// values and the same static fields.
    version: Vec<u32>,
    /// The object of every change, in step order (`NONE` for a static field): the changes
    /// visible at step `i` are the first `version[i]`.
    written: Vec<u32>,
}

impl std::fmt::Debug for TraceData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TraceData")
            .field("steps", &self.off.len())
            .field("buffer_ints", &self.buf.len())
            .field("methods", &self.methods.len())
            .field("objects", &self.heap.objs.len())
            .field("written_objects", &self.heap.writes.len())
            .finish()
    }
}

fn bad(msg: impl Into<String>) -> HarnessError {
    HarnessError::Decode(msg.into())
}

/// A recorded value: a concrete value, or an object under construction by its site (the pc of
/// its `new`, -1 for `this` before `super()`), numbered when frames are materialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    C(CValue),
    New(i32),
}

/// The step header at `p`: (mid, pc, depth, offset of the values), None if truncated.
fn header_at(buf: &[i32], p: usize) -> Option<(u32, u32, usize, usize)> {
    let w = *buf.get(p)?;
    if w == WIDE {
        let h = buf.get(p + 1..p + 4)?;
        Some((h[0] as u32, h[1] as u32, h[2] as usize, p + 4))
    } else {
        let depth = *buf.get(p + 1)?;
        Some(((w as u32) >> 16, w as u32 & 0xffff, depth as usize, p + 2))
    }
}

/// Reads one untagged step value of kind `k` at `*p` (decode() checked the step's length).
fn read_val(k: Kind, buf: &[i32], p: &mut usize) -> Val {
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
fn read_field(buf: &[i32], p: &mut usize) -> Result<CValue, HarnessError> {
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

/// One heap-log / snapshot record: (step, id, object).
fn read_object(
    buf: &[i32],
    p: &mut usize,
    strings: &[String],
    layouts: &mut HashMap<i32, Arc<Layout>>,
) -> Result<(u32, u32, Base), HarnessError> {
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
            let mut vals = Vec::with_capacity(n.max(0) as usize);
            for _ in 0..n {
                vals.push(read_field(buf, p)?);
            }
            Base::Array { elem, vals }
        }
        K_INSTANCE => {
            let n = get(*p)?;
            *p += 1;
            let mut keys = Vec::with_capacity(n.max(0) as usize);
            let mut vals = Vec::with_capacity(n.max(0) as usize);
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

/// Everything the recorder produced for one run.
pub(crate) struct Raw<'a> {
    pub trace: Vec<i32>,
    pub heap: Vec<i32>,
    pub snapshots: Vec<i32>,
    pub strings: &'a [String],
    pub methods: MethodTable,
}

impl TraceData {
    /// Decodes the buffers. Returns the data and the number of snapshots checked.
    pub(crate) fn decode(raw: Raw<'_>) -> Result<(TraceData, usize), HarnessError> {
        let Raw {
            trace: buf,
            heap,
            snapshots,
            strings,
            methods,
        } = raw;
        // 1. step index + caller links, in vectors of the exact size (a first pass counts the
        // steps: a long trace's index is then not grown by doubling)
        let mut steps = 0usize;
        let mut q = 0usize;
        while let Some((mid, pc, _, values)) = header_at(&buf, q) {
            let Some(layout) = methods.get(mid as usize).and_then(|m| m.layout(pc)) else {
                break; // the second pass reports it
            };
            steps += 1;
            q = values + layout.ints;
        }
        let mut off = Vec::with_capacity(steps);
        let mut caller = Vec::with_capacity(steps);
        let mut depths = Vec::with_capacity(steps);
        let mut active: Vec<u32> = Vec::new();
        let mut p = 0usize;
        while p < buf.len() {
            let Some((mid, pc, depth, values)) = header_at(&buf, p) else {
                return Err(bad("truncated step header"));
            };
            if mid as usize >= methods.len() {
                return Err(bad(format!(
                    "unknown method id {mid} at step {}",
                    off.len()
                )));
            }
            let depth = depth.max(1);
            let i = off.len() as u32;
            let Some(layout) = methods[mid as usize].layout(pc) else {
                return Err(bad(format!(
                    "no layout for pc {pc} of method {mid} at step {i}"
                )));
            };
            off.push(p as u32);
            p = values + layout.ints;
            if p > buf.len() {
                return Err(bad("truncated step values"));
            }
            active.truncate(depth - 1);
            caller.push(active.last().copied().unwrap_or(NONE));
            active.push(i);
            depths.push(active.len() as u32);
        }
        // 2. heap log
        let mut layouts = HashMap::new();
        let mut hist = HeapHist::default();
        let mut p = 0usize;
        while p < heap.len() {
            let (first, id, base) = read_object(&heap, &mut p, strings, &mut layouts)?;
            hist.objs.insert(id, ObjRec { first, base });
        }
        let mut data = TraceData {
            methods,
            buf,
            off,
            caller,
            depth: depths,
            heap: hist,
            obj_writes: Vec::new(),
            statics: StaticHist::default(),
            version: Vec::new(),
            written: Vec::new(),
        };
        // 3. replay writes
        data.replay()?;
        // 4. snapshots
        let checked = data.check_snapshots(&snapshots, strings, &mut layouts)?;
        Ok((data, checked))
    }

    pub(crate) fn len(&self) -> usize {
        self.off.len()
    }

    /// (mid, pc, depth, offset of the values) of step `i`.
    fn header(&self, i: usize) -> (u32, u32, usize, usize) {
        // decode() read every step's header
        header_at(&self.buf, self.off[i] as usize).unwrap_or((0, 0, 0, 0))
    }

    fn meta(&self, mid: u32) -> &Arc<MethodMeta> {
        // decode() checked every step's method id
        &self.methods[mid as usize]
    }

    pub(crate) fn depth(&self, i: usize) -> usize {
        self.depth[i] as usize
    }

    pub(crate) fn site(&self, i: usize) -> (u32, u32) {
        let (mid, pc, ..) = self.header(i);
        (mid, pc)
    }

    pub(crate) fn position(&self, i: usize) -> (&str, &str, u32) {
        let (mid, pc, ..) = self.header(i);
        let m = self.meta(mid);
        (&m.class, &m.name, pc)
    }

    /// Locals (padded to max_locals with `top`) and stack (top first) of step `i`, each value
    /// passed through `number` (which numbers objects under construction).
    fn values<T: Clone>(&self, i: usize, number: impl FnMut(Val) -> T, top: T) -> (Vec<T>, Vec<T>) {
        let (mut locals, mut stack) = (Vec::new(), Vec::new());
        self.values_into(i, number, top, &mut locals, &mut stack);
        (locals, stack)
    }

    /// [`TraceData::values`] into `locals` and `stack` (cleared first), reusing their room.
    fn values_into<T: Clone>(
        &self,
        i: usize,
        mut number: impl FnMut(Val) -> T,
        top: T,
        locals: &mut Vec<T>,
        stack: &mut Vec<T>,
    ) {
        let (mid, pc, _, mut p) = self.header(i);
        let m = self.meta(mid);
        locals.clear();
        stack.clear();
        // decode() checked that the step has a layout and its values are in the buffer
        let Some(layout) = m.layout(pc) else {
            locals.resize(m.max_locals, top);
            return;
        };
        let (lk, sk) = layout.kinds.split_at(layout.nl);
        locals.reserve(m.max_locals.max(layout.nl));
        locals.extend(lk.iter().map(|&k| number(read_val(k, &self.buf, &mut p))));
        stack.extend(sk.iter().map(|&k| number(read_val(k, &self.buf, &mut p))));
        locals.resize(m.max_locals.max(layout.nl), top);
    }

    /// The frame recorded at step `i`; as a caller frame, the pending call's arguments are
    /// popped. Objects under construction get numbers from `objs` (one per site); `this` before
    /// `super()` gets the number of `passed` if the frame below passed that object as the
    /// receiver of its constructor call and this frame is that constructor. Writes the frame
    /// into `out` (reusing its vectors) and returns, if its pending instruction is a constructor call on an object under construction,
    /// that object's number and whether the frame has it from a `new` of its own (then the
    /// constructor is one of exactly the `new`'s class, JVMS invokespecial; otherwise the
    /// object is its `this` and the callee is its own class's or the superclass's).
    fn frame_of(
        &self,
        i: usize,
        as_caller: bool,
        passed: Option<(u32, bool)>,
        objs: &mut Vec<UninitObj>,
        out: &mut CFrame,
    ) -> Option<(u32, bool)> {
        let (mid, pc, ..) = self.header(i);
        let m = self.meta(mid);
        // An uninstrumented frame in between (a JDK constructor calling back into the program)
        // is not visible in the depth counter: only a constructor of the right class takes
        // the object.
        let this = passed
            .filter(|&(n, new)| {
                &*m.name == "<init>" && (!new || *objs[n as usize].class == *m.class)
            })
            .map(|(n, _)| n);
        let mut sites: smallvec::SmallVec<[(i32, u32); 4]> =
            this.map(|n| (-1, n)).into_iter().collect();
        let CFrame { locals, stack, .. } = &mut *out;
        {
            let mut number = |v: Val| match v {
                Val::C(c) => c,
                Val::New(site) => {
                    if let Some(&(_, n)) = sites.iter().find(|(s, _)| *s == site) {
                        return CValue::Uninit(n);
                    }
                    let n = objs.len() as u32;
                    let class = match u32::try_from(site) {
                        // decode() checked that the site is a `new` of this method
                        Ok(site) => m.news.get(&site).cloned().unwrap_or_default(),
                        Err(_) => m.class.to_string(),
                    };
                    objs.push(UninitObj { class, init: None });
                    sites.push((site, n));
                    CValue::Uninit(n)
                }
            };
            self.values_into(i, &mut number, CValue::Top, locals, stack);
        }
        if let (Some(n), false, Some(&CValue::Ref(id))) = (this, m.stores_slot0, locals.first()) {
            // past `super()`: slot 0 of the constructor is still `this`
            objs[n as usize].init = Some(id);
        }
        let mut receiver = None;
        if as_caller {
            if let Some((op, pops)) = m.op(pc) {
                if (OP_INVOKEVIRTUAL..=OP_INVOKEDYNAMIC).contains(&op) {
                    let pops = (pops.max(0) as usize).min(stack.len());
                    if let (OP_INVOKESPECIAL, Some(&CValue::Uninit(n))) =
                        (op, pops.checked_sub(1).and_then(|r| stack.get(r)))
                    {
                        let new = sites.iter().any(|&(s, k)| k == n && s >= 0);
                        receiver = Some((n, new));
                    }
                    stack.drain(..pops);
                }
            }
        }
        // the frame's names are shared by all frames of the method: kept where they are
        if !Arc::ptr_eq(&out.class, &m.class) {
            out.class = m.class.clone();
        }
        if !Arc::ptr_eq(&out.method, &m.name) {
            out.method = m.name.clone();
        }
        if !Arc::ptr_eq(&out.desc, &m.desc) {
            out.desc = m.desc.clone();
        }
        out.pc = pc;
        receiver
    }

    pub(crate) fn frames(&self, i: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        self.top_frames(i, usize::MAX)
    }

    /// The `k` top frames of step `i` (all of them if it has fewer), top first, and the
    /// objects under construction they hold, by number. Numbers are assigned from the lowest
    /// frame up, so that a constructor's `this` before `super()` can take the number of the
    /// object the frame below is constructing.
    pub(crate) fn top_frames(&self, i: usize, k: usize) -> (Vec<CFrame>, BTreeMap<u32, UninitObj>) {
        let mut frames = Vec::new();
        let objs = self.top_frames_into(i, k, &mut frames);
        (frames, (0u32..).zip(objs).collect())
    }

    /// [`TraceData::top_frames`] into `frames`, reusing its frames' room (a frame's vectors
    /// are refilled in place). Returns the objects under construction, numbered by position
    /// (no allocation when there are none).
    pub(crate) fn top_frames_into(
        &self,
        i: usize,
        k: usize,
        frames: &mut Vec<CFrame>,
    ) -> Vec<UninitObj> {
        let mut chain: smallvec::SmallVec<[usize; 8]> = smallvec::SmallVec::new();
        let mut j = i as u32;
        while j != NONE && chain.len() < k {
            chain.push(j as usize);
            j = self.caller[j as usize];
        }
        frames.truncate(chain.len());
        while frames.len() < chain.len() {
            frames.push(CFrame::empty());
        }
        let mut objs = Vec::new();
        let mut passed = None;
        for (n, &j) in chain.iter().enumerate().rev() {
            passed = self.frame_of(j, n > 0, passed, &mut objs, &mut frames[n]);
        }
        objs
    }

    /// The objects reachable from `frames` (of step `i`) and the static fields known at step
    /// `i`, as of step `i`.
    pub(crate) fn reachable_heap(&self, i: usize, frames: &[CFrame]) -> CHeap {
        let mut heap = CHeap::new();
        let mut queue: VecDeque<ObjId> = VecDeque::new();
        let push = |v: &CValue, queue: &mut VecDeque<ObjId>| {
            if let CValue::Ref(id) = v {
                queue.push_back(*id);
            }
        };
        for f in frames {
            f.locals
                .iter()
                .chain(&f.stack)
                .for_each(|v| push(v, &mut queue));
        }
        self.statics_at(i)
            .values()
            .for_each(|v| push(v, &mut queue));
        while let Some(id) = queue.pop_front() {
            if heap.contains_key(&id) {
                continue;
            }
            let Some(obj) = self.heap.object_at(id.0, i as u32) else {
                continue;
            };
            match &obj {
                CObject::Instance { fields, .. } => {
                    fields.values().for_each(|v| push(v, &mut queue))
                }
                CObject::Array { elems, .. } => elems.iter().for_each(|v| push(v, &mut queue)),
                CObject::Str { .. } => {}
            }
            heap.insert(id, obj);
        }
        heap
    }

    /// The heap reachable from `frames` (of step `i`) and the known static fields as a part of
    /// `prev`'s, the heap of step `j`: `None` unless the two steps see the same heap version
    /// (so the same static fields) and `prev` holds everything reachable; `prev` itself if
    /// that is all of it.
    pub(crate) fn reachable_in(
        &self,
        i: usize,
        frames: &[CFrame],
        (j, prev): (usize, &Arc<CHeap>),
    ) -> Option<Arc<CHeap>> {
        if self.version.get(i)? != self.version.get(j)? {
            return None;
        }
        let mut seen: FxHashSet<ObjId> = FxHashSet::default();
        let statics = self.statics_at(i);
        let mut todo: Vec<ObjId> = frames
            .iter()
            .flat_map(|f| f.locals.iter().chain(&f.stack))
            .chain(statics.values())
            .filter_map(|v| match v {
                CValue::Ref(id) => Some(*id),
                _ => None,
            })
            .collect();
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            let refs = |v: &CValue| match v {
                CValue::Ref(id) => Some(*id),
                _ => None,
            };
            match prev.get(&id)? {
                CObject::Instance { fields, .. } => todo.extend(fields.values().filter_map(refs)),
                CObject::Array { elems, .. } => todo.extend(elems.iter().filter_map(refs)),
                CObject::Str { .. } => {}
            }
        }
        if seen.len() == prev.len() {
            return Some(Arc::clone(prev));
        }
        Some(Arc::new(
            prev.iter()
                .filter(|(id, _)| seen.contains(id))
                .map(|(id, o)| (*id, o.clone()))
                .collect(),
        ))
    }

    pub(crate) fn heap_version(&self, i: usize) -> u32 {
        self.version[i]
    }

    /// Every object of the trace, with its values as of step `i` ([`Objects`]), from `prev`
    /// (the objects of step `j`) where that is cheaper: the same objects if no write lies
    /// between, else `prev`'s with the written objects laid over them while the overlay stays
    /// small (about the square root of the heap: a full copy then pays for that many steps).
    pub(crate) fn objects_after(&self, i: usize, prev: Option<(usize, &Objects)>) -> Objects {
        let v = self.version[i] as usize;
        if let Some((j, p)) = prev {
            let vj = self.version[j] as usize;
            if vj == v {
                return p.clone();
            }
            let limit = 16 + p.base.len().isqrt();
            if vj < v && p.over.len() + (v - vj) <= limit {
                let mut over = (*p.over).clone();
                for &id in &self.written[vj..v] {
                    if let Some(o) = self.heap.object_at(id, i as u32) {
                        over.insert(ObjId(id), o);
                    }
                }
                return Objects {
                    base: Arc::clone(&p.base),
                    over: Arc::new(over),
                };
            }
        }
        let all = self
            .heap
            .objs
            .keys()
            .filter_map(|&id| Some((ObjId(id), self.heap.object_at(id, i as u32)?)))
            .collect::<CHeap>();
        Objects::from(Arc::new(all))
    }

    pub(crate) fn known_heap(&self, i: usize) -> CHeap {
        self.heap
            .objs
            .iter()
            .filter(|(_, r)| r.first as usize <= i)
            .filter_map(|(id, _)| Some((ObjId(*id), self.heap.object_at(*id, i as u32)?)))
            .collect()
    }

    /// The step at which the instruction of step `i` (`len` bytes long) has completed
    /// normally: the next step of its frame, if that is the instruction after it. Steps in
    /// between are frames above (methods a class initialiser that the instruction ran calls).
    fn continuation(&self, i: usize, len: u32) -> Option<usize> {
        let (mid, pc, ..) = self.header(i);
        let d = self.depth[i];
        let j = (i + 1..self.len()).find(|&j| self.depth[j] <= d)?;
        let (mid2, pc2, ..) = self.header(j);
        (self.depth[j] == d && self.caller[j] == self.caller[i] && mid2 == mid && pc2 == pc + len)
            .then_some(j)
    }

    /// Records a completed `getstatic` / `putstatic` at step `i` (see [`StaticHist`]).
    fn static_access(
        &self,
        i: usize,
        op: u8,
        named: &mut BTreeMap<StaticField, u32>,
        out: &mut StaticHist,
    ) -> Result<(), HarnessError> {
        let Some(j) = self.continuation(i, 3) else {
            return Ok(()); // it threw (or the run was cut)
        };
        let (mid, pc, ..) = self.header(i);
        let f = &self.meta(mid).fields[&pc];
        let (read, value) = if op == OP_GETSTATIC {
            let (_, stack) = self.values(j, |v| v, Val::C(CValue::Top));
            (true, stack.first().copied())
        } else {
            let (_, stack) = self.values(i, |v| v, Val::C(CValue::Top));
            (false, stack.first().copied())
        };
        let Some(Val::C(value)) = value else {
            return Err(bad(format!(
                "static field {} at step {i} without a value: {value:?}",
                f.qualified
            )));
        };
        let key = (f.owner().to_string(), f.name.clone());
        let field = *named.entry(key.clone()).or_insert_with(|| {
            out.named.push(key);
            out.named.len() as u32 - 1
        });
        out.accesses.push(StaticAccess {
            from: j as u32,
            field,
            value: truncate(f.desc, value),
            read,
        });
        Ok(())
    }

    /// Maps every static field as instructions name it, `(class, name)`, to the key `key`
    /// gives it (the declaring class and the name: two names of one field are one key), and
    /// replays the accesses per key again.
    pub(crate) fn resolve_statics(&mut self, key: &dyn Fn(&str, &str) -> StaticField) {
        self.statics.group(key);
        self.index_versions();
    }

    /// The known static fields at step `i`.
    pub(crate) fn statics_at(&self, i: usize) -> CStatics {
        self.statics.at(i as u32)
    }

    /// [`TraceData::version`] and [`TraceData::written`] from the object writes and the
    /// changes of the static fields.
    fn index_versions(&mut self) {
        let n = self.len();
        let statics = self.statics.changes();
        let mut all: Vec<(u32, u32)> = self.obj_writes.clone();
        all.extend(statics.iter().map(|&from| (from, NONE)));
        // stable: within a step, the order does not matter (all are visible from it)
        all.sort_by_key(|&(from, _)| from);
        self.version = vec![0; n];
        for &(from, _) in &all {
            if let Some(v) = self.version.get_mut(from as usize) {
                *v += 1;
            }
        }
        for i in 1..n {
            self.version[i] += self.version[i - 1];
        }
        self.written = all.iter().map(|&(_, id)| id).collect();
    }

    /// Re-applies every putfield / xastore whose instruction completed (the next step is the
    /// fall-through in the same frame) to the write history, and every completed static field
    /// access to the static history.
    fn replay(&mut self) -> Result<(), HarnessError> {
        let n = self.len();
        let mut writes: Vec<(u32, u32, u32, CValue)> = Vec::new(); // (id, slot, step, value)
        let mut statics = StaticHist::default();
        let mut named = BTreeMap::new();
        for i in 0..n {
            let (mid, pc, depth, _) = self.header(i);
            let m = self.meta(mid);
            let Some((op, _)) = m.op(pc) else { continue };
            let len = match op {
                OP_PUTFIELD => 3,
                OP_IASTORE..=OP_SASTORE => 1,
                OP_GETSTATIC | OP_PUTSTATIC => {
                    self.static_access(i, op, &mut named, &mut statics)?;
                    continue;
                }
                _ => continue,
            };
            if i + 1 >= n {
                continue;
            }
            let (mid2, pc2, depth2, _) = self.header(i + 1);
            if mid2 != mid || depth2 != depth || pc2 != pc + len {
                continue; // the store threw
            }
            let (_, stack) = self.values(i, |v| v, Val::C(CValue::Top));
            if op == OP_PUTFIELD {
                if matches!(stack.get(1), Some(Val::New(_))) {
                    // a constructor's write before `super()` (javac's `this$0` of an inner
                    // class): the object is not recorded yet, and its first sight after the
                    // super constructor returns dumps it with this value
                    continue;
                }
                let (Some(&Val::C(value)), Some(&Val::C(CValue::Ref(obj)))) =
                    (stack.first(), stack.get(1))
                else {
                    return Err(bad(format!(
                        "putfield at step {i} without object operand: {stack:?}"
                    )));
                };
                let f = &m.fields[&pc];
                let Some(rec) = self.heap.objs.get(&obj.0) else {
                    return Err(bad(format!("putfield at step {i} on unknown object {obj}")));
                };
                let Base::Instance { layout, .. } = &rec.base else {
                    return Err(bad(format!("putfield at step {i} on non-instance {obj}")));
                };
                let slot = layout
                    .keys
                    .iter()
                    .position(|k| *k == f.qualified)
                    .or_else(|| layout.keys.iter().position(|k| *k == f.name))
                    .ok_or_else(|| {
                        bad(format!(
                            "field {} not in layout of {}",
                            f.qualified, layout.class
                        ))
                    })?;
                writes.push((obj.0, slot as u32, i as u32, truncate(f.desc, value)));
            } else {
                let (
                    Some(&Val::C(value)),
                    Some(&Val::C(CValue::Int(idx))),
                    Some(&Val::C(CValue::Ref(arr))),
                ) = (stack.first(), stack.get(1), stack.get(2))
                else {
                    return Err(bad(format!(
                        "array store at step {i} with operands {stack:?}"
                    )));
                };
                let Some(ObjRec {
                    base: Base::Array { elem, .. },
                    ..
                }) = self.heap.objs.get(&arr.0)
                else {
                    return Err(bad(format!(
                        "array store at step {i} on unknown array {arr}"
                    )));
                };
                let d = elem.bytes().next().unwrap_or(b'L');
                writes.push((arr.0, idx as u32, i as u32, truncate(d, value)));
            }
        }
        // a write recorded at step k is visible from step k + 1 on
        self.obj_writes = writes.iter().map(|&(id, _, k, _)| (k + 1, id)).collect();
        // accesses at deeper steps (inside a class initialiser's calls) complete earlier
        statics.accesses.sort_by_key(|a| a.from);
        self.statics = statics;
        self.statics
            .group(&|class, name| (class.to_string(), name.to_string()));
        self.index_versions();
        for (id, slot, step, v) in writes {
            self.heap
                .writes
                .entry(id)
                .or_default()
                .entry(slot)
                .or_default()
                .push((step, v));
        }
        Ok(())
    }

    fn check_snapshots(
        &self,
        snaps: &[i32],
        strings: &[String],
        layouts: &mut HashMap<i32, Arc<Layout>>,
    ) -> Result<usize, HarnessError> {
        let mut p = 0usize;
        let mut count = 0;
        while p < snaps.len() {
            let step = *snaps.get(p).ok_or_else(|| bad("truncated snapshot"))? as u32;
            let n = *snaps.get(p + 2).ok_or_else(|| bad("truncated snapshot"))?;
            p += 3;
            let mut snap: BTreeMap<ObjId, CObject> = BTreeMap::new();
            for _ in 0..n {
                let (_, id, base) = read_object(snaps, &mut p, strings, layouts)?;
                let rec = HeapHist {
                    objs: HashMap::from([(id, ObjRec { first: 0, base })]),
                    writes: HashMap::new(),
                };
                if let Some(o) = rec.object_at(id, 0) {
                    snap.insert(ObjId(id), o);
                }
            }
            let replayed = self.known_heap(step as usize);
            if replayed != snap {
                let detail = snap
                    .iter()
                    .find(|(id, o)| replayed.get(id) != Some(o))
                    .map(|(id, o)| {
                        format!(
                            "object {id}: snapshot {o:?}, replayed {:?}",
                            replayed.get(id)
                        )
                    })
                    .or_else(|| {
                        replayed
                            .keys()
                            .find(|id| !snap.contains_key(id))
                            .map(|id| format!("object {id} not in snapshot"))
                    })
                    .unwrap_or_default();
                return Err(HarnessError::ReplayMismatch {
                    step: step as u64,
                    detail,
                });
            }
            count += 1;
        }
        Ok(count)
    }
}

/// The value a store of `v` leaves in a slot of type `desc` (the JVM narrows ints).
fn truncate(desc: u8, v: CValue) -> CValue {
    match (desc, v) {
        (b'Z', CValue::Int(x)) => CValue::Int(x & 1),
        (b'B', CValue::Int(x)) => CValue::Int(x as i8 as i32),
        (b'C', CValue::Int(x)) => CValue::Int(x as u16 as i32),
        (b'S', CValue::Int(x)) => CValue::Int(x as i16 as i32),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_headers_pack_method_and_pc_or_escape_wide_method_ids() {
        // mid 3, pc 17, depth 2, then one value; mid 0x8001 packs into a negative int
        let buf = [3 << 16 | 17, 2, 42, (0x8001u32 << 16 | 5) as i32, 1];
        assert_eq!(header_at(&buf, 0), Some((3, 17, 2, 2)));
        assert_eq!(header_at(&buf, 3), Some((0x8001, 5, 1, 5)));
        // a method id above 16 bits: -1, mid, pc, depth
        let wide = [WIDE, 70_000, 65_534, 4, 7];
        assert_eq!(header_at(&wide, 0), Some((70_000, 65_534, 4, 4)));
        assert_eq!(header_at(&wide[..3], 0), None);
        assert_eq!(header_at(&buf[..1], 0), None);
    }

    const OP_POP: i32 = 0x57;
    const OP_RETURN: i32 = 0xb1;
    const OP_INVOKESTATIC: i32 = 0xb8;
    const OP_ICONST_0: i32 = 0x03;

    /// One method from `(pc, opcode, aux, stack kinds top first)` rows (no locals).
    fn method(name: &str, rows: &[(i32, i32, i32, &[i32])], strings: &[String]) -> MethodMeta {
        let mut info = vec![0, rows.len() as i32];
        for &(pc, op, aux, _) in rows {
            info.extend([pc, op, aux]);
        }
        for &(pc, _, _, stack) in rows {
            info.extend([pc, 0, stack.len() as i32]);
            info.extend(stack);
        }
        MethodMeta::parse(name, &info, strings).expect("method info")
    }

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// Decodes `steps` (method id, pc, depth, values) over `methods`, with heap log `heap`.
    fn decode(
        methods: Vec<MethodMeta>,
        steps: &[(i32, i32, i32, &[i32])],
        heap: &[i32],
        strings: &[String],
    ) -> TraceData {
        let mut trace = Vec::new();
        for &(mid, pc, depth, vals) in steps {
            trace.extend([mid << 16 | pc, depth]);
            trace.extend(vals);
        }
        let (data, _) = TraceData::decode(Raw {
            trace,
            heap: heap.to_vec(),
            snapshots: vec![],
            strings,
            methods: Arc::new(methods.into_iter().map(Arc::new).collect()),
        })
        .expect("decode");
        data
    }

    fn key(c: &str, n: &str) -> StaticField {
        (c.to_string(), n.to_string())
    }

    /// `getstatic` makes a field known from the next step on with the value on that step's
    /// stack (a long as one value); `putstatic` sets it to its recorded operand (a boolean
    /// narrowed as the JVM does); a reference static's objects are reachable at a step whose
    /// frames do not hold them; only changes of the known statics change the heap version.
    #[test]
    fn statics_are_known_from_their_first_access() {
        let st = strings(&["T.x:I", "T.big:J", "T.flag:Z", "T.o:LT;", "T", "next"]);
        let m = method(
            "T m ()V",
            &[
                (0, OP_GETSTATIC as i32, 0, &[]),
                (3, OP_GETSTATIC as i32, 0, &[K_INT]),
                (6, OP_PUTSTATIC as i32, 2, &[K_INT, K_INT]),
                (9, OP_GETSTATIC as i32, 1, &[K_INT]),
                (12, OP_PUTSTATIC as i32, 1, &[K_LONG, K_INT]),
                (15, OP_GETSTATIC as i32, 3, &[K_INT]),
                (18, OP_POP, -1, &[K_REF, K_INT]),
                (19, OP_RETURN, -1, &[K_INT]),
            ],
            &st,
        );
        let big = -5_000_000_000i64;
        let steps: [(i32, i32, i32, &[i32]); 8] = [
            (0, 0, 1, &[]),
            (0, 3, 1, &[6]),
            (0, 6, 1, &[6, 6]),
            (0, 9, 1, &[7]),
            (0, 12, 1, &[(big >> 32) as i32, big as i32, 7]),
            (0, 15, 1, &[7]),
            (0, 18, 1, &[1, 7]),
            (0, 19, 1, &[7]),
        ];
        // objects 1 and 2 (1.next = 2), first seen at step 6
        let heap = [
            6, 1, 4, K_INSTANCE, 1, 5, T_REF, 2, //
            6, 2, 4, K_INSTANCE, 1, 5, T_REF, 0,
        ];
        let d = decode(vec![m], &steps, &heap, &st);
        assert!(d.statics_at(0).is_empty());
        // the read of step 0 and the repeated read of step 1 (no change)
        assert_eq!(
            d.statics_at(1),
            CStatics::from([(key("T", "x"), CValue::Int(6))])
        );
        assert_eq!(d.heap_version(1), 1);
        assert_eq!(d.heap_version(2), 1);
        // 6 into a boolean is 0
        assert_eq!(
            d.statics_at(3).get(&key("T", "flag")),
            Some(&CValue::Int(0))
        );
        assert_eq!(
            d.statics_at(4).get(&key("T", "big")),
            Some(&CValue::Long(big))
        );
        assert_eq!(
            d.statics_at(5).get(&key("T", "big")),
            Some(&CValue::Long(big))
        );
        assert_eq!(
            d.heap_version(5),
            3,
            "the put of the value read changes nothing"
        );
        let at7 = d.statics_at(7);
        assert_eq!(at7.get(&key("T", "o")), Some(&CValue::Ref(ObjId(1))));
        assert_eq!(at7.len(), 4);
        // step 7's frame holds no reference: the objects are the static's
        let (frames, _) = d.frames(7);
        let h = d.reachable_heap(7, &frames);
        assert_eq!(h.keys().copied().collect::<Vec<_>>(), [ObjId(1), ObjId(2)]);
        assert_eq!(d.heap_version(7), 4);
    }

    /// One field named through two classes is two keys until resolved, then one; a read that
    /// disagrees with the replayed value (a write the tracer did not see) makes the field
    /// unknown from the step after the last access that showed the old value up to the read.
    #[test]
    fn statics_resolve_to_one_key_and_unseen_writes_forget() {
        let st = strings(&["Sub.x:I", "T.x:I"]);
        let m = method(
            "T m ()V",
            &[
                (0, OP_GETSTATIC as i32, 0, &[]),
                (3, OP_POP, -1, &[K_INT]),
                (4, OP_ICONST_0, -1, &[]),
                (5, OP_PUTSTATIC as i32, 1, &[K_INT]),
                (8, OP_GETSTATIC as i32, 1, &[]),
                (11, OP_POP, -1, &[K_INT]),
                (12, OP_ICONST_0, -1, &[]),
                (13, OP_POP, -1, &[K_INT]),
                (14, OP_GETSTATIC as i32, 0, &[]),
                (17, OP_RETURN, -1, &[K_INT]),
            ],
            &st,
        );
        let steps: [(i32, i32, i32, &[i32]); 10] = [
            (0, 0, 1, &[]),
            (0, 3, 1, &[4]),
            (0, 4, 1, &[]),
            (0, 5, 1, &[8]),
            (0, 8, 1, &[]),
            (0, 11, 1, &[8]),
            (0, 12, 1, &[]),
            (0, 13, 1, &[0]),
            (0, 14, 1, &[]),
            (0, 17, 1, &[3]),
        ];
        let mut d = decode(vec![m], &steps, &[], &st);
        // unresolved, two fields: `Sub.x` read 4 then 3 (unknown in between)
        assert_eq!(d.statics_at(1).get(&key("Sub", "x")), Some(&CValue::Int(4)));
        assert_eq!(
            d.statics_at(5),
            CStatics::from([(key("T", "x"), CValue::Int(8))])
        );
        assert_eq!(d.statics_at(9).get(&key("Sub", "x")), Some(&CValue::Int(3)));
        d.resolve_statics(&|_, name| key("T", name));
        let x = |d: &TraceData, i| d.statics_at(i).get(&key("T", "x")).copied();
        assert_eq!(d.statics_at(2).len(), 1);
        assert_eq!(x(&d, 1), Some(CValue::Int(4)));
        assert_eq!(x(&d, 4), Some(CValue::Int(8)));
        // 8 last shown at step 5, 3 read at step 9: unknown in between
        assert_eq!(x(&d, 5), Some(CValue::Int(8)));
        for i in 6..9 {
            assert_eq!(x(&d, i), None, "step {i}");
        }
        assert_eq!(x(&d, 9), Some(CValue::Int(3)));
        let versions: Vec<u32> = (0..10).map(|i| d.heap_version(i)).collect();
        assert_eq!(versions, [0, 1, 1, 1, 2, 2, 3, 3, 3, 4]);
    }

    /// An access completes at the next step of its frame: steps of frames above in between
    /// (a class initialiser's calls) do not see it; an access whose frame continues elsewhere
    /// (a handler: it threw) is no access.
    #[test]
    fn static_accesses_complete_in_their_frame() {
        let st = strings(&["T.x:I", "T.y:I"]);
        let m = method(
            "T m ()V",
            &[
                (0, OP_GETSTATIC as i32, 0, &[]),
                (3, OP_GETSTATIC as i32, 1, &[K_INT]),
                (6, OP_POP, -1, &[K_INT, K_INT]),
                (20, OP_RETURN, -1, &[K_REF]),
            ],
            &st,
        );
        let init = method("T helper ()V", &[(0, OP_INVOKESTATIC, 0, &[])], &st);
        let steps: [(i32, i32, i32, &[i32]); 5] = [
            (0, 0, 1, &[]),
            // a method the initialiser calls, above the getstatic
            (1, 0, 2, &[]),
            (0, 3, 1, &[5]),
            // getstatic T.y threw: the handler at pc 20
            (0, 20, 1, &[0]),
            (0, 20, 1, &[0]),
        ];
        let d = decode(vec![m, init], &steps, &[], &st);
        assert!(d.statics_at(1).is_empty());
        assert_eq!(
            d.statics_at(2),
            CStatics::from([(key("T", "x"), CValue::Int(5))])
        );
        assert_eq!(d.statics_at(4).len(), 1);
    }
}
