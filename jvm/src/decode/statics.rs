//! What a run knows of static fields, step by step.
//!
//! The recorder does not log static fields; the decoder learns a static's value from the
//! accesses that complete (the next step of the accessing frame is the instruction after it):
//! a `getstatic` shows it on that step's operand stack, a `putstatic` sets it to the recorded
//! pre-state operand. From that step on the field is known and the accesses are replayed like
//! writes to objects. A static field the run's input set is known from step 0 with the value
//! set. Code the tracer does not see can write statics too: a class initialiser (`<clinit>` is
//! not traced; it runs inside the access, `new` or call that initialises its class, and
//! methods it calls are traced as frames above that step), or the JDK through reflection. A
//! later `getstatic` that reads another value than the replayed one reveals such a write; the
//! field is then unknown from the step after the last observation up to the read, as the write
//! could lie anywhere in between. A field is known by the key the instruction names
//! (`class.name`) until [`StaticHist::group`] maps the names to the declaring classes (one field
//! named through a subclass and its own class is one key).

use std::collections::BTreeMap;

use crate::decode::steps::StepIndex;
use crate::decode::wire::{bad, truncate, Val, OP_GETSTATIC};
use crate::error::JvmError;
use crate::values::{CStatics, CValue, StaticKey};

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
pub(crate) struct StaticHist {
    /// The fields as instructions (or the input) name them.
    named: Vec<StaticKey>,
    /// Index of each named field in `named`.
    named_ids: BTreeMap<StaticKey, u32>,
    /// Every completed access, ordered by `from` once grouped.
    accesses: Vec<StaticAccess>,
    /// The distinct keys the named fields resolve to.
    keys: Vec<StaticKey>,
    /// Per key: from which step on it holds which value (`None`: not known), by step.
    hist: Vec<Vec<(u32, Option<CValue>)>>,
}

impl StaticHist {
    fn field_id(&mut self, key: StaticKey) -> u32 {
        if let Some(&id) = self.named_ids.get(&key) {
            return id;
        }
        let id = self.named.len() as u32;
        self.named.push(key.clone());
        self.named_ids.insert(key, id);
        id
    }

    /// The input set `key` to `value` before the run: known from step 0.
    pub(crate) fn set_at_start(&mut self, key: StaticKey, value: CValue) {
        let field = self.field_id(key);
        self.accesses.push(StaticAccess {
            from: 0,
            field,
            value,
            read: false,
        });
    }

    /// Records the `getstatic` / `putstatic` (`op`) of step `i` if it completed.
    pub(crate) fn access(&mut self, steps: &StepIndex, i: usize, op: u8) -> Result<(), JvmError> {
        let Some(j) = steps.continuation(i, 3) else {
            return Ok(()); // it threw (or the run was cut)
        };
        let (mid, pc, ..) = steps.header(i);
        let f = &steps.meta(mid).fields[&pc];
        let (read, value) = if op == OP_GETSTATIC {
            let (_, stack) = steps.values(j, |v| v, Val::C(CValue::Top));
            (true, stack.first().copied())
        } else {
            let (_, stack) = steps.values(i, |v| v, Val::C(CValue::Top));
            (false, stack.first().copied())
        };
        let Some(Val::C(value)) = value else {
            return Err(bad(format!(
                "static field {} at step {i} without a value: {value:?}",
                f.qualified
            )));
        };
        let field = self.field_id(StaticKey::new(f.owner(), f.name.as_str()));
        self.accesses.push(StaticAccess {
            from: j as u32,
            field,
            value: truncate(f.desc, value),
            read,
        });
        Ok(())
    }

    /// Orders the accesses by the step they complete at (accesses at deeper steps, inside a
    /// class initialiser's calls, complete earlier; the input's come first) and groups them
    /// by the field names themselves.
    pub(crate) fn finish(&mut self) {
        self.accesses.sort_by_key(|a| a.from);
        self.group(&|class, name| StaticKey::new(class, name));
    }

    /// Groups the accesses by the key `key` gives each named field and replays them per key.
    pub(crate) fn group(&mut self, key: &dyn Fn(&str, &str) -> StaticKey) {
        let mut index: BTreeMap<StaticKey, usize> = BTreeMap::new();
        self.keys.clear();
        let of_named: Vec<usize> = self
            .named
            .iter()
            .map(|n| {
                let k = key(&n.class, &n.name);
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
    pub(crate) fn changes(&self) -> Vec<u32> {
        let mut c: Vec<u32> = self.hist.iter().flatten().map(|(from, _)| *from).collect();
        c.sort_unstable();
        c
    }

    /// The known static fields at step `step`, by key.
    pub(crate) fn at(&self, step: u32) -> CStatics {
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
