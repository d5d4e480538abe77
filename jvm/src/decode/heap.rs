//! Heap replay: the objects of the heap log with their first-sight values, and every later
//! write re-applied from the recorded pre-state operands of a completed `putfield` or
//! `xastore` into a per-slot history, so that an object as of any step is a binary search per
//! slot. The recorder logs no writes: a step records its operands anyway.

use std::collections::HashMap;
use std::sync::Arc;

use crate::decode::steps::StepIndex;
use crate::decode::wire::{bad, read_object, truncate, Base, Layout, Val, K_UPDATE, OP_PUTFIELD};
use crate::error::JvmError;
use crate::values::{CObject, CValue, ClassOf};

/// An object of the heap log.
#[derive(Clone, Debug)]
pub(crate) struct ObjRec {
    /// Step during which the object was first seen.
    pub first: u32,
    pub base: Base,
}

/// One replayed store: slot `slot` of object `id` holds `value` from step `step + 1` on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Write {
    pub id: u32,
    pub slot: u32,
    pub step: u32,
    pub value: CValue,
}

/// First-sight values plus the replayed writes: id -> slot -> [(step of the write, value)].
#[derive(Clone, Debug, Default)]
pub(crate) struct HeapHist {
    pub objs: HashMap<u32, ObjRec>,
    /// The new values of JDK collections' fields the recorder logged (update records, in
    /// step order): changes made by JDK code, which no replayed instruction shows.
    pub library_writes: Vec<Write>,
    writes: HashMap<u32, HashMap<u32, Vec<(u32, CValue)>>>,
}

impl HeapHist {
    /// The objects of heap log `log` (no writes yet).
    pub(crate) fn read_log(
        log: &[i32],
        strings: &[String],
        layouts: &mut HashMap<i32, Arc<Layout>>,
    ) -> Result<HeapHist, JvmError> {
        let mut hist = HeapHist::default();
        let mut p = 0usize;
        while p < log.len() {
            if log.get(p + 3) == Some(&K_UPDATE) {
                // step, id, classStr, K_UPDATE, slot, value
                let rec = log
                    .get(p..p + 6)
                    .ok_or_else(|| bad("truncated update record"))?;
                hist.library_writes.push(Write {
                    id: rec[1] as u32,
                    slot: rec[4] as u32,
                    step: rec[0] as u32,
                    value: CValue::Int(rec[5]),
                });
                p += 6;
                continue;
            }
            let (first, id, base) = read_object(log, &mut p, strings, layouts)?;
            hist.objs.insert(id, ObjRec { first, base });
        }
        Ok(hist)
    }

    /// One object with its values as a record shows them (a snapshot's).
    pub(crate) fn single(id: u32, base: Base) -> HeapHist {
        HeapHist {
            objs: HashMap::from([(id, ObjRec { first: 0, base })]),
            library_writes: Vec::new(),
            writes: HashMap::new(),
        }
    }

    /// The write of the `putfield` or `xastore` (`op`) of step `i`, if it completed (the next
    /// step is the instruction after it in the same frame; else it threw). `None` too for a
    /// constructor's write before `super()`, which the object's first sight shows.
    pub(crate) fn store(
        &self,
        steps: &StepIndex,
        i: usize,
        op: u8,
    ) -> Result<Option<Write>, JvmError> {
        let len = if op == OP_PUTFIELD { 3 } else { 1 };
        if i + 1 >= steps.len() {
            return Ok(None);
        }
        let (mid, pc, depth, _) = steps.header(i);
        let (mid2, pc2, depth2, _) = steps.header(i + 1);
        if mid2 != mid || depth2 != depth || pc2 != pc + len {
            return Ok(None); // the store threw
        }
        let (_, stack) = steps.values(i, |v| v, Val::C(CValue::Top));
        if op == OP_PUTFIELD {
            if matches!(stack.get(1), Some(Val::New(_))) {
                // a constructor's write before `super()` (javac's `this$0` of an inner
                // class): the object is not recorded yet, and its first sight after the
                // super constructor returns dumps it with this value
                return Ok(None);
            }
            let (Some(&Val::C(value)), Some(&Val::C(CValue::Ref(obj)))) =
                (stack.first(), stack.get(1))
            else {
                return Err(bad(format!(
                    "putfield at step {i} without object operand: {stack:?}"
                )));
            };
            let f = &steps.meta(mid).fields[&pc];
            let Some(rec) = self.objs.get(&obj.0) else {
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
            return Ok(Some(Write {
                id: obj.0,
                slot: slot as u32,
                step: i as u32,
                value: truncate(f.desc, value),
            }));
        }
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
        }) = self.objs.get(&arr.0)
        else {
            return Err(bad(format!(
                "array store at step {i} on unknown array {arr}"
            )));
        };
        let d = elem.bytes().next().unwrap_or(b'L');
        Ok(Some(Write {
            id: arr.0,
            slot: idx as u32,
            step: i as u32,
            value: truncate(d, value),
        }))
    }

    /// Adds `writes` (in step order) to the per-slot histories.
    pub(crate) fn add_writes(&mut self, writes: &[Write]) {
        for w in writes {
            self.writes
                .entry(w.id)
                .or_default()
                .entry(w.slot)
                .or_default()
                .push((w.step, w.value));
        }
    }

    /// Applies write `w` to `o`, a copy of its object before it.
    pub(crate) fn apply(&self, o: &mut CObject, w: &Write) {
        match o {
            CObject::Instance { fields, .. } => {
                let Some(ObjRec {
                    base: Base::Instance { layout, .. },
                    ..
                }) = self.objs.get(&w.id)
                else {
                    return;
                };
                if let Some(f) = layout
                    .keys
                    .get(w.slot as usize)
                    .and_then(|k| fields.get_mut(k))
                {
                    *f = w.value;
                }
            }
            CObject::Array { elems, .. } => {
                if let Some(e) = elems.get_mut(w.slot as usize) {
                    *e = w.value;
                }
            }
            CObject::Str { .. } => {}
        }
    }

    /// Number of objects with a write.
    pub(crate) fn written_objects(&self) -> usize {
        self.writes.len()
    }

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

    /// The class of object `id` (it never changes), without building its values.
    pub(crate) fn class_of(&self, id: u32) -> Option<ClassOf<'_>> {
        Some(match &self.objs.get(&id)?.base {
            Base::Instance { layout, .. } => ClassOf::Instance(&layout.class),
            Base::Array { elem, .. } => ClassOf::Array(elem),
            Base::Str(_) => ClassOf::Str,
        })
    }

    /// Object `id` with its values as of step `step`.
    pub(crate) fn object_at(&self, id: u32, step: u32) -> Option<CObject> {
        let rec = self.objs.get(&id)?;
        let w = self.writes.get(&id);
        let value = |(s, v): (usize, &CValue)| self.value_at(w, s as u32, *v, step);
        Some(match &rec.base {
            Base::Instance { layout, vals: v } => CObject::Instance {
                class: layout.class.clone(),
                fields: layout
                    .keys
                    .iter()
                    .cloned()
                    .zip(v.iter().enumerate().map(value))
                    .collect(),
            },
            Base::Array { elem, vals: v } => CObject::Array {
                elem: elem.to_string(),
                elems: v.iter().enumerate().map(value).collect(),
            },
            Base::Str(len) => CObject::Str { len: *len },
        })
    }
}
