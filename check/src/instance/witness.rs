//! The vocabulary of `c ⊑ s`: the condition a state failed and why, the witness (references
//! of `s` to concrete values, dense by reference number), and a state's heap values by
//! reference number.

use jtg_engine::state::{HeapValue, Ref, State};
use jtg_jvm::CValue;
use std::fmt;
use std::sync::Arc;

/// The spec §4.2 condition a concrete state failed (letters as in the spec and the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// (a) frames, methods, pcs, stack heights, program-end kind.
    Control,
    /// (b) an integer outside its interval, or one integer reference with two values.
    Integer,
    /// (c) `null` expected.
    Null,
    /// (d) class, existence, fields, array shape.
    Object,
    /// (e) one object reference met two different concrete values.
    SameReference,
    /// (f) two references are one object without `=?`.
    Distinct,
    /// (h) hidden heaps share without `%$`.
    Disjoint,
    /// (j) DAG sharing below a reference without `♦`.
    Tree,
    /// (k) a cycle below a reference not allowed by `⟲F`.
    Cycle,
    /// (n) a `→!F` that does not hold.
    MustReach,
}

impl Condition {
    pub fn letter(self) -> char {
        match self {
            Condition::Control => 'a',
            Condition::Integer => 'b',
            Condition::Null => 'c',
            Condition::Object => 'd',
            Condition::SameReference => 'e',
            Condition::Distinct => 'f',
            Condition::Disjoint => 'h',
            Condition::Tree => 'j',
            Condition::Cycle => 'k',
            Condition::MustReach => 'n',
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Condition::Control => "control",
            Condition::Integer => "integer",
            Condition::Null => "null",
            Condition::Object => "object",
            Condition::SameReference => "same reference",
            Condition::Distinct => "distinct objects",
            Condition::Disjoint => "disjoint heaps",
            Condition::Tree => "tree",
            Condition::Cycle => "cycle",
            Condition::MustReach => "must-reach",
        }
    }
}

/// The first condition `c ⊑ s` failed, with a one-line reason naming positions and references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub condition: Condition,
    pub reason: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}) {}: {}",
            self.condition.letter(),
            self.condition.name(),
            self.reason
        )
    }
}

impl std::error::Error for Failure {}

/// The witness of `c ⊑ s`: the concrete value of every reference of `s` the walk reached
/// ([`CValue::Int`], [`CValue::Null`], [`CValue::Ref`], or [`CValue::Uninit`] for an object
/// whose constructor has not returned; its number is not compared).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Witness {
    pub map: RefMap,
}

impl Clone for Witness {
    fn clone(&self) -> Witness {
        Witness {
            map: self.map.clone(),
        }
    }

    /// Reuses the room of `self`.
    fn clone_from(&mut self, o: &Witness) {
        self.map.clone_from(&o.map);
    }
}

/// References of `s` to concrete values: O(1) lookups and inserts on the walk's hot path. A
/// map made for a state ([`StateIndex::ref_map`]) has one slot per reference of the state, in
/// reference order, through the state's [`SlotLayout`]: states number their references
/// sparsely (a few dozen in use out of hundreds), and every walk zeroes and every witness copy
/// moves the slots. Without a layout (or once a reference outside it is inserted) the slots are
/// dense by reference number: the integer references `0..ints`, then the object references.
#[derive(Debug, Default)]
pub struct RefMap {
    slots: Vec<Option<CValue>>,
    ints: usize,
    layout: Option<Arc<SlotLayout>>,
}

/// The slots of a state's references: by reference number, its slot (`NO_SLOT`: none), and by
/// slot its reference, integers first, each kind in ascending order (so slot order is
/// reference order).
#[derive(Debug)]
pub(crate) struct SlotLayout {
    int_slot: Vec<u32>,
    obj_slot: Vec<u32>,
    refs: Vec<Ref>,
    ints: usize,
}

const NO_SLOT: u32 = u32::MAX;

impl Clone for RefMap {
    fn clone(&self) -> RefMap {
        RefMap {
            slots: self.slots.clone(),
            ints: self.ints,
            layout: self.layout.clone(),
        }
    }

    /// Reuses the room of `self`.
    fn clone_from(&mut self, o: &RefMap) {
        self.slots.clone_from(&o.slots);
        self.ints = o.ints;
        let same = match (&self.layout, &o.layout) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.layout.clone_from(&o.layout);
        }
    }
}

impl RefMap {
    fn index(&self, r: Ref) -> Option<usize> {
        if let Some(l) = &self.layout {
            let k = match r {
                Ref::Null => return None,
                Ref::Int(n) => l.int_slot.get(n as usize),
                Ref::Obj(n) => l.obj_slot.get(n as usize),
            };
            return k.copied().filter(|&k| k != NO_SLOT).map(|k| k as usize);
        }
        match r {
            Ref::Null => None,
            Ref::Int(n) => Some(n as usize).filter(|&n| n < self.ints),
            Ref::Obj(n) => Some(self.ints + n as usize),
        }
    }

    /// The reference of slot `k`.
    fn ref_at(&self, k: usize) -> Ref {
        match &self.layout {
            Some(l) => l.refs[k],
            None if k < self.ints => Ref::Int(k as u32),
            None => Ref::Obj((k - self.ints) as u32),
        }
    }

    pub fn get(&self, r: &Ref) -> Option<&CValue> {
        self.slots.get(self.index(*r)?)?.as_ref()
    }

    pub(crate) fn insert(&mut self, r: Ref, v: CValue) {
        if r.is_null() {
            return;
        }
        if self.layout.is_some() && self.index(r).is_none() {
            // a reference outside the state's layout (never for the walk of that state):
            // the same contents, dense by number
            let pairs: Vec<(Ref, CValue)> = self.iter().map(|(r, v)| (r, *v)).collect();
            *self = RefMap::default();
            for (r, v) in pairs {
                self.insert(r, v);
            }
        }
        if let (None, Ref::Int(n)) = (&self.layout, r) {
            if n as usize >= self.ints {
                // room for more integers: the objects move up
                let more = n as usize + 1 - self.ints;
                self.slots
                    .splice(self.ints..self.ints, std::iter::repeat_n(None, more));
                self.ints += more;
            }
        }
        let Some(k) = self.index(r) else { return };
        if self.slots.len() <= k {
            self.slots.resize(k + 1, None);
        }
        self.slots[k] = Some(v);
    }

    /// In reference order.
    pub fn iter(&self) -> impl Iterator<Item = (Ref, &CValue)> + '_ {
        let ints = self.slots[..self.ints.min(self.slots.len())]
            .iter()
            .enumerate();
        let ints = ints.filter_map(|(k, v)| Some((self.ref_at(k), v.as_ref()?)));
        ints.chain(self.objects())
    }

    /// The object references, in reference order.
    pub fn objects(&self) -> impl Iterator<Item = (Ref, &CValue)> + '_ {
        let from = self.ints.min(self.slots.len());
        let objs = self.slots[from..].iter().enumerate();
        objs.filter_map(move |(k, v)| Some((self.ref_at(from + k), v.as_ref()?)))
    }
}

/// Equal when they map the same references to the same values, whatever room they have.
impl PartialEq for RefMap {
    fn eq(&self, o: &RefMap) -> bool {
        self.iter().eq(o.iter())
    }
}

impl Eq for RefMap {}

/// The heap values of a state, dense by reference number: what the walk looks up for every
/// reference it meets, without a search of the state's ordered heap. A matcher builds one
/// per node, once.
#[derive(Clone, Debug, Default)]
pub struct StateIndex<'a> {
    ints: Vec<Option<&'a HeapValue>>,
    objs: Vec<Option<&'a HeapValue>>,
    /// The slots of the state's references in its witnesses ([`RefMap`]).
    layout: Option<Arc<SlotLayout>>,
}

impl<'a> StateIndex<'a> {
    pub fn of(s: &'a State) -> StateIndex<'a> {
        let mut idx = StateIndex::default();
        for (r, v) in &s.heap {
            let (vec, n) = match *r {
                Ref::Null => continue,
                Ref::Int(n) => (&mut idx.ints, n as usize),
                Ref::Obj(n) => (&mut idx.objs, n as usize),
            };
            if vec.len() <= n {
                vec.resize(n + 1, None);
            }
            vec[n] = Some(v);
        }
        idx.layout = Some(Arc::new(SlotLayout::of(&idx.ints, &idx.objs)));
        idx
    }

    pub fn value(&self, r: Ref) -> Option<&'a HeapValue> {
        match r {
            Ref::Null => None,
            Ref::Int(n) => self.ints.get(n as usize).copied().flatten(),
            Ref::Obj(n) => self.objs.get(n as usize).copied().flatten(),
        }
    }

    /// An empty [`RefMap`] with room for every reference of the state.
    pub(crate) fn ref_map(&self) -> RefMap {
        match &self.layout {
            Some(l) => RefMap {
                slots: vec![None; l.refs.len()],
                ints: l.ints,
                layout: Some(Arc::clone(l)),
            },
            None => RefMap {
                slots: vec![None; self.ints.len() + self.objs.len()],
                ints: self.ints.len(),
                layout: None,
            },
        }
    }
}

impl SlotLayout {
    /// A slot for every reference with a value, integers first, in reference order.
    fn of(ints: &[Option<&HeapValue>], objs: &[Option<&HeapValue>]) -> SlotLayout {
        let mut refs = Vec::new();
        let mut slots = |vals: &[Option<&HeapValue>], mk: fn(u32) -> Ref| -> Vec<u32> {
            vals.iter()
                .enumerate()
                .map(|(n, v)| match v {
                    Some(_) => {
                        refs.push(mk(n as u32));
                        (refs.len() - 1) as u32
                    }
                    None => NO_SLOT,
                })
                .collect()
        };
        let int_slot = slots(ints, Ref::Int);
        let obj_slot = slots(objs, Ref::Obj);
        let ints = int_slot.iter().filter(|&&k| k != NO_SLOT).count();
        SlotLayout {
            int_slot,
            obj_slot,
            refs,
            ints,
        }
    }
}

impl Witness {
    /// The witness binding exactly `pairs` (hand-written runs in tests).
    pub fn of_pairs(pairs: impl IntoIterator<Item = (Ref, CValue)>) -> Witness {
        let mut w = Witness::default();
        for (r, v) in pairs {
            w.map.insert(r, v);
        }
        w
    }

    pub fn get(&self, r: Ref) -> Option<CValue> {
        if r.is_null() {
            return Some(CValue::Null);
        }
        self.map.get(&r).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;
    use std::collections::BTreeMap;

    fn refs(ops: &[(bool, u8, i32)]) -> Vec<(Ref, CValue)> {
        ops.iter()
            .map(|&(obj, n, v)| {
                let r = if obj {
                    Ref::Obj(u32::from(n % 40))
                } else {
                    Ref::Int(u32::from(n % 40))
                };
                (r, CValue::Int(v))
            })
            .collect()
    }

    quickcheck! {
        /// The dense map behaves like an ordered map, whatever room it starts with.
        fn ref_map_is_an_ordered_map(ops: Vec<(bool, u8, i32)>, ints: u8, objs: u8) -> bool {
            let mut dense = RefMap {
                slots: vec![None; usize::from(ints % 8) + usize::from(objs % 8)],
                ints: usize::from(ints % 8),
                layout: None,
            };
            let mut plain = BTreeMap::new();
            for (r, v) in refs(&ops) {
                dense.insert(r, v);
                plain.insert(r, v);
            }
            let mut fresh = RefMap::default();
            for (r, v) in plain.iter().rev() {
                fresh.insert(*r, *v);
            }
            dense.iter().map(|(r, v)| (r, *v)).eq(plain.iter().map(|(r, v)| (*r, *v)))
                && plain.iter().all(|(r, v)| dense.get(r) == Some(v))
                && dense.get(&Ref::Null).is_none()
                && dense.get(&Ref::Int(1000)).is_none()
                && dense.get(&Ref::Obj(1000)).is_none()
                && dense == fresh
                && dense
                    .objects()
                    .map(|(r, v)| (r, *v))
                    .eq(plain.iter().filter(|(r, _)| r.is_obj()).map(|(r, v)| (*r, *v)))
        }

        /// A map through a state's slot layout (some references in it, some not) behaves like
        /// an ordered map too, and equals the plain one.
        fn layout_map_is_an_ordered_map(ops: Vec<(bool, u8, i32)>, mask: u64) -> bool {
            let hv = HeapValue::Float(None);
            let ints: Vec<Option<&HeapValue>> =
                (0..40).map(|n| (mask >> n & 1 == 1).then_some(&hv)).collect();
            let objs: Vec<Option<&HeapValue>> =
                (0..20).map(|n| (mask >> (40 + n) & 1 == 1).then_some(&hv)).collect();
            let l = Arc::new(SlotLayout::of(&ints, &objs));
            let mut laid = RefMap {
                slots: vec![None; l.refs.len()],
                ints: l.ints,
                layout: Some(l),
            };
            let mut plain = BTreeMap::new();
            for (r, v) in refs(&ops) {
                laid.insert(r, v);
                plain.insert(r, v);
            }
            let mut copy = RefMap::default();
            copy.clone_from(&laid);
            laid.iter().map(|(r, v)| (r, *v)).eq(plain.iter().map(|(r, v)| (*r, *v)))
                && plain.iter().all(|(r, v)| laid.get(r) == Some(v))
                && laid.get(&Ref::Int(1000)).is_none()
                && copy == laid
                && laid
                    .objects()
                    .map(|(r, v)| (r, *v))
                    .eq(plain.iter().filter(|(r, _)| r.is_obj()).map(|(r, v)| (*r, *v)))
        }
    }
}
