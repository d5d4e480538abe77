//! Shape families of samples and how often they occur (`jtg gen --stats`).

use super::{Family, Sample};
use jtg_engine::state::{HeapValue, Ref, State};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The object references `r` points to (fields and array elements; no integers, no null).
fn succ(st: &State, r: Ref) -> Vec<Ref> {
    st.value(r)
        .map(|v| match v {
            HeapValue::Object { fields, .. } => fields.values().copied().collect(),
            HeapValue::Array { elems: Some(e), .. } => e.clone(),
            _ => vec![],
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.is_obj())
        .collect()
}

/// Whether some cycle is reachable from `root`, and whether `root` lies on one.
fn cycles(st: &State, root: Ref) -> (bool, bool) {
    let reach = st.reachable_from([root]);
    let on_cycle = succ(st, root)
        .into_iter()
        .any(|c| st.reachable_from([c]).contains(&root));
    if on_cycle {
        return (true, true);
    }
    // Some node reaches itself through one of its successors.
    let any = reach.iter().filter(|r| r.is_obj()).any(|&r| {
        succ(st, r)
            .into_iter()
            .any(|c| st.reachable_from([c]).contains(&r))
    });
    (any, false)
}

/// The families of one structure below an object root.
fn structure(st: &State, root: Ref) -> Family {
    if matches!(st.value(root), Some(HeapValue::Array { .. })) {
        return Family::Array;
    }
    let (any_cycle, root_on_cycle) = cycles(st, root);
    if root_on_cycle {
        return Family::Cyclic;
    }
    if any_cycle {
        return Family::Panhandle;
    }
    let reach: Vec<Ref> = st
        .reachable_from([root])
        .into_iter()
        .filter(|r| r.is_obj())
        .collect();
    let mut incoming: BTreeMap<Ref, usize> = BTreeMap::new();
    let mut branching = false;
    for &r in &reach {
        let s = succ(st, r);
        branching |= s.len() >= 2;
        for c in s {
            *incoming.entry(c).or_default() += 1;
        }
    }
    if incoming.values().any(|&n| n >= 2) {
        Family::Dag
    } else if branching {
        Family::Tree
    } else {
        Family::Acyclic
    }
}

/// The families a concrete state shows, sorted and without repeats. For every reference root
/// of the top frame (locals in slot order, then the stack): `Null`, `Array`, or the shape of
/// its structure, checked in this order: `Cyclic` (the root is on a cycle), `Panhandle` (a
/// cycle is reachable), `Dag` (an object has two incoming edges), `Tree` (an object has two
/// object children), else `Acyclic`. Across roots: `Aliased` (two roots hold one object) and
/// `SharedTail` (two roots reach a common object).
pub fn classify(st: &State) -> Vec<Family> {
    let mut out = BTreeSet::new();
    let Some(frame) = st.top() else {
        return vec![];
    };
    let roots: Vec<Ref> = frame.refs().filter(|r| !r.is_int()).collect();
    for &r in &roots {
        out.insert(if r.is_null() {
            Family::Null
        } else {
            structure(st, r)
        });
    }
    let objs: Vec<Ref> = roots.iter().copied().filter(|r| r.is_obj()).collect();
    for (i, &a) in objs.iter().enumerate() {
        for &b in &objs[i + 1..] {
            if a == b {
                out.insert(Family::Aliased);
            } else {
                let ra = st.reachable_from([a]);
                if st
                    .reachable_from([b])
                    .iter()
                    .any(|x| x.is_obj() && ra.contains(x))
                {
                    out.insert(Family::SharedTail);
                }
            }
        }
    }
    out.into_iter().collect()
}

/// How often each family occurred over a number of samples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub samples: usize,
    /// Samples showing each family (a sample can show several).
    pub counts: BTreeMap<Family, usize>,
    /// Samples holding an object of each class (arrays by their type), so that a tester sees
    /// every subtype of a declared type drawn.
    pub classes: BTreeMap<String, usize>,
}

impl Stats {
    pub fn add(&mut self, s: &Sample) {
        self.samples += 1;
        for f in &s.families {
            *self.counts.entry(*f).or_default() += 1;
        }
        let held: std::collections::BTreeSet<&str> = s
            .state
            .heap
            .iter()
            .filter(|(r, _)| r.is_obj())
            .filter_map(|(_, v)| v.type_name())
            .collect();
        for c in held {
            *self.classes.entry(c.to_string()).or_default() += 1;
        }
    }
    /// Samples holding an object of `class` (internal name).
    pub fn class_count(&self, class: &str) -> usize {
        self.classes.get(class).copied().unwrap_or(0)
    }
    pub fn count(&self, f: Family) -> usize {
        self.counts.get(&f).copied().unwrap_or(0)
    }
    /// Share of samples showing `f`, in percent.
    pub fn percent(&self, f: Family) -> f64 {
        if self.samples == 0 {
            0.0
        } else {
            100.0 * self.count(f) as f64 / self.samples as f64
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} samples", self.samples)?;
        for fam in Family::ALL {
            let n = self.count(fam);
            if n > 0 {
                writeln!(
                    f,
                    "  {:<12} {n:>7}  {:>5.1} %",
                    fam.name(),
                    self.percent(fam)
                )?;
            }
        }
        if !self.classes.is_empty() {
            writeln!(f, "classes (samples holding one)")?;
            for (c, n) in &self.classes {
                let pct = 100.0 * *n as f64 / self.samples.max(1) as f64;
                writeln!(f, "  {:<24} {n:>7}  {pct:>5.1} %", c.replace('/', "."))?;
            }
        }
        Ok(())
    }
}
