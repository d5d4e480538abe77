//! Concrete states in the engine's notation: conversions between the harness's JVM-level
//! values ([`Step`], [`ConcreteInput`]) and the engine's [`State`], so that users read and
//! write one text form (docs/state-text.md) for abstract and concrete states alike.
//!
//! A concrete state has literal integers, realized objects (`C(f=…)`, strings as
//! `java.lang.String(count=n)`, arrays with their elements) and no predicates. Object `#n` of a
//! trace is reference `o<n>`; every integer value gets its own reference. An object under
//! construction ([`CValue::Uninit`]) is one fresh reference, numbered after the trace's objects,
//! to `C(…)` with its known class `C` (or, once a constructor frame above has run `super()` on
//! it, the reference of that object).

use jtg_engine::class::FieldType;
use jtg_engine::models;
use jtg_engine::state::{End, FieldKey, Frame, HeapValue, Interval, MethodId, Ref, State};
use jtg_jvm::{
    CFrame, CHeap, CObject, CValue, ConcreteInput, JvmError, ObjId, StaticKey, Step, TraceEnd,
};
use std::collections::BTreeMap;

fn bad(msg: impl Into<String>) -> JvmError {
    JvmError::BadInput(msg.into())
}

/// The local slots of a method's arguments (`this` first), in order: a `long` or `double`
/// argument takes two slots, and its value is in the first.
pub fn arg_slots(is_static: bool, params: &[FieldType]) -> Vec<usize> {
    let mut slot = 0;
    let mut out = Vec::with_capacity(params.len() + 1);
    if !is_static {
        out.push(0);
        slot = 1;
    }
    for p in params {
        out.push(slot);
        slot += if matches!(p, FieldType::Long | FieldType::Double) {
            2
        } else {
            1
        };
    }
    out
}

/// The concrete input described by a concrete start state: the values of the argument slots
/// `arg_slots` ([`arg_slots`]) of its single frame, its static fields (`static:` lines) and
/// the objects they reach. A long is a literal (`5L`), a float or double a literal (`1.5f`,
/// `NaNd`); a `float` or `double` of unknown value (an `--input` that leaves it open) runs as
/// `0.0`.
pub fn state_to_input(st: &State, arg_slots: &[usize]) -> Result<ConcreteInput, JvmError> {
    let [frame] = st.frames.as_slice() else {
        return Err(bad("a concrete input has exactly one frame"));
    };
    if !st.preds.is_empty() {
        return Err(bad(format!(
            "a concrete input has no predicates, found: {}",
            st.preds
        )));
    }
    let value = |r: Ref| -> Result<CValue, JvmError> {
        match r {
            Ref::Null => Ok(CValue::Null),
            Ref::Obj(n) => Ok(CValue::Ref(ObjId(n))),
            Ref::Int(_) => match st.value(r) {
                Some(HeapValue::Int(iv)) => {
                    let v = iv
                        .as_literal()
                        .ok_or_else(|| bad(format!("{r} is {iv}, not a literal")))?;
                    i32::try_from(v)
                        .map(CValue::Int)
                        .map_err(|_| bad(format!("{r} = {v} is outside the Java int range")))
                }
                Some(HeapValue::Long(iv)) => {
                    let v = iv
                        .as_literal()
                        .ok_or_else(|| bad(format!("{r} is {iv}L, not a literal")))?;
                    i64::try_from(v)
                        .map(CValue::Long)
                        .map_err(|_| bad(format!("{r} = {v}L is outside the Java long range")))
                }
                Some(HeapValue::Float(b)) => Ok(CValue::Float(b.unwrap_or(0))),
                Some(HeapValue::Double(b)) => Ok(CValue::Double(b.unwrap_or(0))),
                _ => Err(bad(format!("{r} has no primitive value"))),
            },
        }
    };
    let mut args = Vec::with_capacity(arg_slots.len());
    for &slot in arg_slots {
        let r = frame
            .locals
            .get(slot)
            .copied()
            .flatten()
            .ok_or_else(|| bad(format!("argument slot {slot} has no value")))?;
        args.push(value(r)?);
    }
    let mut heap = CHeap::new();
    for (r, v) in &st.heap {
        let Ref::Obj(n) = *r else { continue };
        let obj = match v {
            HeapValue::Object { class, fields } if class == models::STRING => {
                let count = fields
                    .get("count")
                    .ok_or_else(|| bad(format!("string {r} has no count")))?;
                let CValue::Int(len) = value(*count)? else {
                    return Err(bad(format!("string {r}: count is not an int")));
                };
                if len < 0 {
                    return Err(bad(format!("string {r} has negative length {len}")));
                }
                CObject::Str { len }
            }
            HeapValue::Object { class, fields } => CObject::Instance {
                class: class.clone(),
                fields: fields
                    .iter()
                    .map(|(k, f)| Ok((k.as_str().to_string(), value(*f)?)))
                    .collect::<Result<_, JvmError>>()?,
            },
            HeapValue::Array {
                ty,
                elems: Some(elems),
                len,
                ..
            } => {
                let elem = ty
                    .strip_prefix('[')
                    .ok_or_else(|| bad(format!("{r}: bad array type {ty}")))?
                    .to_string();
                if value(*len)? != CValue::Int(elems.len() as i32) {
                    return Err(bad(format!("{r}: length differs from its elements")));
                }
                CObject::Array {
                    elem,
                    elems: elems.iter().map(|e| value(*e)).collect::<Result<_, _>>()?,
                }
            }
            other => {
                return Err(bad(format!(
                    "{r} is {other}: a concrete input realizes every object"
                )))
            }
        };
        heap.insert(ObjId(n), obj);
    }
    let statics = st
        .statics
        .iter()
        .map(|((class, name), r)| Ok((StaticKey::new(class.as_str(), name.as_str()), value(*r)?)))
        .collect::<Result<_, JvmError>>()?;
    Ok(ConcreteInput {
        args,
        heap,
        statics,
    })
}

/// The references of the objects under construction of one step, by [`CValue::Uninit`] number.
type UninitRefs = BTreeMap<u32, Ref>;

/// A concrete value as a reference of `st` (integers get fresh literal references; an object
/// under construction not in `uninit` has none).
fn to_ref(st: &mut State, v: &CValue, uninit: &UninitRefs) -> Result<Option<Ref>, JvmError> {
    Ok(match v {
        CValue::Null => Some(Ref::Null),
        CValue::Ref(ObjId(n)) => Some(Ref::Obj(*n)),
        CValue::Int(x) => Some(st.new_int(Interval::literal(i128::from(*x)))),
        CValue::Uninit(k) => uninit.get(k).copied(),
        CValue::Top => None,
        CValue::Long(x) => Some(st.new_prim(HeapValue::Long(Interval::literal(i128::from(*x))))),
        CValue::Float(b) => Some(st.new_prim(HeapValue::Float(Some(*b)))),
        CValue::Double(b) => Some(st.new_prim(HeapValue::Double(Some(*b)))),
    })
}

fn heap_value(st: &mut State, obj: &CObject) -> Result<HeapValue, JvmError> {
    Ok(match obj {
        CObject::Instance { class, fields } => {
            let mut out = BTreeMap::new();
            for (k, v) in fields {
                let r = to_ref(st, v, &UninitRefs::new())?
                    .ok_or_else(|| bad(format!("field {k} has no value")))?;
                // the tracer keys fields as the engine does (docs/trace-wire.md)
                let key = FieldKey::parse(k).ok_or_else(|| bad(format!("bad field key {k}")))?;
                out.insert(key, r);
            }
            HeapValue::Object {
                class: class.clone(),
                fields: out,
            }
        }
        CObject::Str { len } => {
            let count = st.new_int(Interval::literal(i128::from(*len)));
            HeapValue::Object {
                class: models::STRING.into(),
                fields: BTreeMap::from([(FieldKey::plain("count"), count)]),
            }
        }
        CObject::Array { elem, elems } => {
            let len = st.new_int(Interval::literal(elems.len() as i128));
            let mut refs = Vec::with_capacity(elems.len());
            for e in elems {
                refs.push(
                    to_ref(st, e, &UninitRefs::new())?
                        .ok_or_else(|| bad("array element without value"))?,
                );
            }
            // a run's array has its runtime type
            HeapValue::array(format!("[{elem}"), len, Some(refs), true)
        }
    })
}

fn frame(st: &mut State, f: &CFrame, uninit: &UninitRefs) -> Result<Frame, JvmError> {
    let mut out = Frame::new(MethodId::new(&f.class, &f.method, &f.desc), f.locals.len());
    out.pc = f.pc;
    for (slot, v) in f.locals.iter().enumerate() {
        out.locals[slot] = to_ref(st, v, uninit)?;
    }
    // the harness lists the stack top first; the engine keeps it bottom first
    for v in f.stack.iter().rev() {
        let r =
            to_ref(st, v, uninit)?.ok_or_else(|| bad(format!("no value on the stack: {v:?}")))?;
        out.stack.push(r);
    }
    Ok(out)
}

/// One reference per object under construction in the frames of `step`: its object once a
/// constructor has run `super()` on it, else a fresh `o<n>` (after every object id of the
/// step) to `C(…)`, added to `st`'s heap.
fn uninit_refs(st: &mut State, step: &Step) -> Result<UninitRefs, JvmError> {
    let values = || {
        step.frames
            .iter()
            .flat_map(|f| f.locals.iter().chain(&f.stack))
    };
    let mut next = step.heap.keys().map(|id| id.0).max().unwrap_or(0);
    for v in values().chain(step.heap.values().flat_map(|o| match o {
        CObject::Instance { fields, .. } => fields.values().collect::<Vec<_>>(),
        CObject::Array { elems, .. } => elems.iter().collect(),
        CObject::Str { .. } => vec![],
    })) {
        if let CValue::Ref(ObjId(n)) = v {
            next = next.max(*n);
        }
    }
    let mut out = UninitRefs::new();
    for v in values() {
        let CValue::Uninit(k) = v else { continue };
        if out.contains_key(k) {
            continue;
        }
        let obj = step
            .uninit
            .get(k)
            .ok_or_else(|| bad(format!("object under construction {k} has no class")))?;
        let r = match obj.init {
            Some(ObjId(n)) => Ref::Obj(n),
            None => {
                next += 1;
                let r = Ref::Obj(next);
                st.heap.insert(
                    r,
                    HeapValue::Abstract {
                        ty: obj.class.clone(),
                    },
                );
                r
            }
        };
        out.insert(*k, r);
    }
    Ok(out)
}

/// The concrete state of one trace step, with the static fields the run knows there.
pub fn step_to_state(step: &Step) -> Result<State, JvmError> {
    let mut st = State::default();
    let uninit = uninit_refs(&mut st, step)?;
    for f in step.frames.iter().rev() {
        let fr = frame(&mut st, f, &uninit)?;
        st.frames.push(fr);
    }
    for (key, v) in &step.statics {
        let r = to_ref(&mut st, v, &uninit)?
            .ok_or_else(|| bad(format!("static field {key} without value")))?;
        st.statics.insert((key.class.clone(), key.name.clone()), r);
    }
    add_heap(&mut st, &step.heap)?;
    Ok(st)
}

fn add_heap(st: &mut State, heap: &CHeap) -> Result<(), JvmError> {
    for (ObjId(n), obj) in heap {
        let v = heap_value(st, obj)?;
        st.heap.insert(Ref::Obj(*n), v);
    }
    st.sync_counters();
    Ok(())
}

/// The program end of a trace as a concrete state (`None` for a cut trace). `heap` is the heap
/// at the last step, for the objects a returned reference reaches.
pub fn end_to_state(end: &TraceEnd, heap: &CHeap) -> Result<Option<State>, JvmError> {
    let mut st = State::default();
    add_heap(&mut st, heap)?;
    let e = match end {
        TraceEnd::Cut { .. } => return Ok(None),
        TraceEnd::Returned(None) => End::Return(None),
        TraceEnd::Returned(Some(v)) => End::Return(to_ref(&mut st, v, &UninitRefs::new())?),
        TraceEnd::Threw {
            obj: Some(ObjId(n)),
            ..
        } if st.heap.contains_key(&Ref::Obj(*n)) => End::Throw(Ref::Obj(*n)),
        TraceEnd::Threw { class, .. } => {
            let r = st.new_obj(HeapValue::Object {
                class: class.clone(),
                fields: BTreeMap::new(),
            });
            End::Throw(r)
        }
    };
    st.end = Some(e);
    st.gc();
    Ok(Some(st))
}
