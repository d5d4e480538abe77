//! Is a concrete input an instance of the start state? Decided with the checker's own `c ⊑ s`
//! ([`crate::instance`]) on the heap the JVM will be given, never with the engine's `⊑`: the
//! generator validates every sample with it (a relation too strict would make whole shapes
//! vanish from the inputs silently), and `jtg check --input` refuses an input that fails it
//! before any run (the graph is not wrong when its start state does not describe the input).
//!
//! Besides `c ⊑ s`, an input's static fields that the start state does not list must not share
//! an object with what the arguments reach: the engine gives such a static its most general
//! value at the run's first access to it, and that value may alias only other statics' objects
//! (spec §5.7 and §8: sharing between statics and arguments is a start predicate, `sSA`, so a
//! start state that allows it lists the static with `=?`/`%$` to the argument).

use crate::concrete::state_to_input;
use crate::instance::{concrete_instance, Concrete};
use jtg_engine::state::{State, Subtyping};
use jtg_jvm::{CFrame, CHeap, CObject, CValue, ConcreteInput, ObjId, Objects};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The concrete input of `input` (a state with literal values, as [`state_to_input`] reads
/// it) if it is an instance of `start`; otherwise why not, one line.
pub fn input_of_start(
    input: &State,
    start: &State,
    arg_slots: &[usize],
    types: &dyn Subtyping,
) -> Result<ConcreteInput, String> {
    // the JVM side's "bad input: …" says what the session's error says already
    let ci = state_to_input(input, arg_slots).map_err(|e| match e {
        jtg_jvm::JvmError::BadInput(why) => why,
        other => other.to_string(),
    })?;
    check_input(&ci, start, arg_slots, types)?;
    Ok(ci)
}

/// Whether the concrete input `ci` is an instance of `start` (single frame): `c ⊑ s` on the
/// frame the run starts with, then the rule of the module docs for statics `start` omits.
pub fn check_input(
    ci: &ConcreteInput,
    start: &State,
    arg_slots: &[usize],
    types: &dyn Subtyping,
) -> Result<(), String> {
    let [sf] = start.frames.as_slice() else {
        return Err(format!(
            "a start state has one frame; this one has {}",
            start.frames.len()
        ));
    };
    let n_locals = sf
        .locals
        .len()
        .max(arg_slots.iter().map(|s| s + 1).max().unwrap_or(0));
    let mut locals = vec![CValue::Top; n_locals];
    for (slot, v) in arg_slots.iter().zip(&ci.args) {
        locals[*slot] = *v;
    }
    let frame = CFrame {
        class: Arc::clone(&sf.method.class),
        method: Arc::clone(&sf.method.name),
        desc: Arc::clone(&sf.method.desc),
        pc: sf.pc,
        locals,
        stack: Vec::new(),
    };
    let heap = Objects::from(Arc::new(ci.heap.clone()));
    let c = Concrete {
        frames: std::slice::from_ref(&frame),
        heap: &heap,
        statics: &ci.statics,
        end: None,
    };
    concrete_instance(&c, start, types).map_err(|f| f.to_string())?;
    let from_args = reachable(&ci.heap, ci.args.iter());
    for (key, v) in &ci.statics {
        let listed = start
            .statics
            .keys()
            .any(|(class, name)| **class == *key.class && **name == *key.name);
        if listed {
            continue;
        }
        let shared = reachable(&ci.heap, std::iter::once(v))
            .intersection(&from_args)
            .next()
            .copied();
        if let Some(ObjId(o)) = shared {
            return Err(format!(
                "static {}.{} reaches o{o}, which the arguments reach too, but the start state \
                 lists no such static (the engine's value of an unlisted static may alias only \
                 other statics' objects; list it with a `static:` line and `=?`/`%$` to allow \
                 sharing)",
                key.class.replace('/', "."),
                key.name
            ));
        }
    }
    Ok(())
}

/// The objects `roots` reach in `heap`.
fn reachable<'v>(heap: &CHeap, roots: impl Iterator<Item = &'v CValue>) -> BTreeSet<ObjId> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<ObjId> = roots
        .filter_map(|v| match v {
            CValue::Ref(id) => Some(*id),
            _ => None,
        })
        .collect();
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        let kids: Vec<&CValue> = match heap.get(&id) {
            Some(CObject::Instance { fields, .. }) => fields.values().collect(),
            Some(CObject::Array { elems, .. }) => elems.iter().collect(),
            _ => Vec::new(),
        };
        todo.extend(kids.into_iter().filter_map(|v| match v {
            CValue::Ref(k) => Some(*k),
            _ => None,
        }));
    }
    seen
}
