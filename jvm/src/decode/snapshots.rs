//! `verify_replay` mode: the recorder's full heap snapshots, taken at pseudo-random steps,
//! compared with the replayed heap as of the same step.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::decode::data::TraceData;
use crate::decode::heap::HeapHist;
use crate::decode::wire::{bad, read_object, Layout};
use crate::error::JvmError;
use crate::values::{CObject, ObjId};

/// Compares every snapshot of `snaps` with `data`'s replayed heap; returns how many there were
/// (`ReplayMismatch` at the first that differs).
pub(crate) fn check(
    data: &TraceData,
    snaps: &[i32],
    strings: &[String],
    layouts: &mut HashMap<i32, Arc<Layout>>,
) -> Result<usize, JvmError> {
    let mut p = 0usize;
    let mut count = 0;
    while p < snaps.len() {
        let step = *snaps.get(p).ok_or_else(|| bad("truncated snapshot"))? as u32;
        let n = *snaps.get(p + 2).ok_or_else(|| bad("truncated snapshot"))?;
        p += 3;
        let mut snap: BTreeMap<ObjId, CObject> = BTreeMap::new();
        for _ in 0..n {
            let (_, id, base) = read_object(snaps, &mut p, strings, layouts)?;
            if let Some(o) = HeapHist::single(id, base).object_at(id, 0) {
                snap.insert(ObjId(id), o);
            }
        }
        let replayed = data.known_heap(step as usize);
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
            return Err(JvmError::ReplayMismatch {
                step: step as u64,
                detail,
            });
        }
        count += 1;
    }
    Ok(count)
}
