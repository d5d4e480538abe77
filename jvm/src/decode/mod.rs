//! Decoding of the recorder's int buffers (docs/trace-wire.md) into a [`TraceData`]:
//!
//! * [`wire`]: the constants shared with the Java side and the readers of headers, values and
//!   heap records;
//! * [`methods`]: the instrumenter's method table (per pc: opcode, fields, value layout);
//! * [`steps`]: the step index and the call stack of every step (depth counter + caller
//!   links), frames materialised from there;
//! * [`heap`]: the first-sight heap log and the replay of `putfield` / `xastore` into a
//!   per-slot write history;
//! * [`library`]: the writes of `System.arraycopy`, `Arrays.fill` and `Arrays.sort` into
//!   array arguments, replayed from the call's operands;
//! * [`statics`]: the static fields a run knows, from its completed accesses;
//! * [`data`]: all of it for one run, with heap versions and the heap as of any step;
//! * [`snapshots`]: `verify_replay`, the replayed heap against the recorder's snapshots.
//!
//! A step is its header (`mid << 16 | pc, depth`, or `-1, mid, pc, depth` for a method id that
//! does not fit in 16 bits) and its values untagged (locals by slot, then the stack top
//! first): their kinds are static per pc and come from the method table's layouts; a `Top` or
//! an object under construction takes no ints. Heap records keep tagged values. Objects under
//! construction are known by their site (the pc of their `new`, -1 for `this` before
//! `super()`, in the layout); materialising the frames of a step numbers them
//! ([`crate::CValue::Uninit`]) and finds their classes ([`crate::UninitObj`]).

mod data;
mod heap;
mod library;
mod methods;
mod snapshots;
mod statics;
mod steps;
mod wire;

use std::collections::HashMap;

use crate::error::JvmError;
use crate::values::{CValue, StaticKey};

pub(crate) use data::TraceData;
pub(crate) use methods::{MethodMeta, MethodTable};
pub(crate) use wire::read_statics;

/// Everything the recorder produced for one run.
pub(crate) struct Raw<'a> {
    pub trace: Vec<i32>,
    pub heap: Vec<i32>,
    pub snapshots: Vec<i32>,
    /// The static fields the input set before the first step, as the input names them.
    pub statics: Vec<(StaticKey, CValue)>,
    pub strings: &'a [String],
    pub methods: MethodTable,
}

/// Decodes the buffers of one run. Returns the data and the number of snapshots checked.
pub(crate) fn decode(raw: Raw<'_>) -> Result<(TraceData, usize), JvmError> {
    let mut layouts = HashMap::new();
    let data = TraceData::build(
        raw.trace,
        &raw.heap,
        &raw.statics,
        raw.strings,
        raw.methods,
        &mut layouts,
    )?;
    let checked = snapshots::check(&data, &raw.snapshots, raw.strings, &mut layouts)?;
    Ok((data, checked))
}

#[cfg(test)]
mod tests;
