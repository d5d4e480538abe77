//! The shapes a value of a declared type can take by the types of its fields (cycles, sharing):
//! what a static's first-access value may claim (`Program::fill_static`); and the classes it
//! may reach, which tell when two objects can share nothing (`Program::may_share`).

use crate::class::FieldType;
use crate::models;
use crate::program::{Program, Reach};
use crate::state::{FieldKey, HeapValue};
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// The one name every array of references has in a [`Reach`]: an array typed `A[]` may be a
/// `B[]` for any subclass `B`.
const REFERENCE_ARRAY: &str = "[L";

impl Program {
    /// Which shapes the objects a value of declared type `t` reaches can take, by the types
    /// of the fields they have (every non-abstract subtype's, as the instance refinement
    /// draws them): a cycle needs a cycle of field types, two paths that meet need a class
    /// with two reference fields or an array of references. `Object`, interfaces and a type
    /// whose fields are unknown may take every shape.
    pub(crate) fn field_shapes(&self, t: &FieldType) -> crate::state::types::Shapes {
        let mut out = crate::state::types::Shapes::default();
        let mut done = std::collections::BTreeSet::new();
        self.visit_shapes(t, &mut Vec::new(), &mut done, &mut out);
        out
    }

    /// Depth-first over field types: `path` the declared types being explored (a field type
    /// on it closes a cycle), `done` those explored completely.
    fn visit_shapes(
        &self,
        t: &FieldType,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
        out: &mut crate::state::types::Shapes,
    ) {
        let class = match t {
            FieldType::Object(c) => c,
            FieldType::Array(elem) => {
                // two elements may be one object
                if elem.is_reference() {
                    out.sharing = true;
                    self.visit_shapes(elem, path, done, out);
                }
                return;
            }
            _ => return,
        };
        if out.cycles || done.contains(class) {
            return;
        }
        if path.contains(class) {
            *out = crate::state::types::Shapes::ANY;
            return;
        }
        let open = class == crate::models::OBJECT
            || !matches!(self.hierarchy.is_interface(class), Ok(false));
        let Some(subs) = (!open)
            .then(|| self.hierarchy.non_abstract_subtypes(class).ok())
            .flatten()
        else {
            *out = crate::state::types::Shapes::ANY;
            return;
        };
        path.push(class.clone());
        for sub in subs {
            let Ok(fields) = self.instance_fields(&sub) else {
                *out = crate::state::types::Shapes::ANY;
                break;
            };
            let refs: Vec<&FieldType> = fields
                .iter()
                .map(|(_, t, _)| t)
                .filter(|t| t.is_reference())
                .collect();
            out.sharing |= refs.len() > 1;
            for f in refs {
                self.visit_shapes(f, path, done, out);
            }
        }
        path.pop();
        done.insert(class.clone());
    }
}

/// The type a heap value's type name stands for: an array descriptor, or an internal class name.
fn type_of_name(name: &str) -> Option<FieldType> {
    if name.starts_with('[') {
        FieldType::parse(name).ok()
    } else {
        Some(FieldType::Object(name.into()))
    }
}

/// The value of `key` in `memo`, computed by `compute` on first request. The lock is not held
/// while computing, so a computation may ask other memos (two threads may compute one key
/// twice; both get the same value).
fn memoised<K: Eq + Hash, V: Clone>(
    memo: &Mutex<HashMap<K, V>>,
    key: K,
    compute: impl FnOnce() -> V,
) -> V {
    if let Some(known) = memo.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return known.clone();
    }
    let value = compute();
    memo.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, value.clone());
    value
}

impl Program {
    /// Whether an object of type `a` and one of type `b` (type names as the heap has them:
    /// internal class names, array descriptors) may share an object, one reaching the other
    /// included: false only when the classes they may reach ([`Self::reachable_classes`]) are
    /// known and disjoint. A `%$` between two such objects says nothing.
    pub fn may_share(&self, a: &str, b: &str) -> bool {
        if a == b {
            return true;
        }
        match (self.reachable_classes(a), self.reachable_classes(b)) {
            (Some(x), Some(y)) => x.iter().any(|c| y.contains(c)),
            _ => true,
        }
    }

    /// Whether an object of static type `from` may reach one of static type `to` through
    /// fields and array elements (a path of length 0 included): false only when no class an
    /// object of type `to` may be ([`Self::possible_classes`]) is among the classes `from`
    /// reaches ([`Self::reachable_classes`]). A `%$` between two objects says `from` reaches
    /// `to` only where this holds: a string array shares a string with a list cell, but never
    /// reaches the cell.
    pub(crate) fn may_reach_type(&self, from: &str, to: &str) -> bool {
        if from == to {
            return true;
        }
        memoised(
            &self.type_reach,
            (from.to_string(), to.to_string()),
            || match (self.reachable_classes(from), self.possible_classes(to)) {
                (Some(reach), Some(classes)) => classes.iter().any(|c| reach.contains(c)),
                _ => true,
            },
        )
    }

    /// Whether everything the object of value `v` reaches runs through the children the value
    /// shows: an array with its elements, or an object of a program class (no JDK superclass
    /// with references of its own) with every reference field present. What such an object
    /// reaches is itself and what its children reach; a `%$` of it says no more.
    pub(crate) fn fully_shown(&self, v: &HeapValue) -> bool {
        match v {
            HeapValue::Array { elems, .. } => elems.is_some(),
            HeapValue::Object { class, fields } => self
                .reference_fields(class)
                .is_some_and(|keys| keys.iter().all(|k| fields.contains_key(k))),
            _ => false,
        }
    }

    /// The reference fields of an object of program class `class`; `None` for a JDK class,
    /// one with a JDK superclass that holds references, or an unknown one (memoised).
    fn reference_fields(&self, class: &str) -> Option<Arc<Vec<FieldKey>>> {
        memoised(&self.reference_fields, class.to_string(), || {
            (!models::is_always_jdk(class) && !self.hierarchy.is_library(class))
                .then(|| self.jdk_part_reach(class).filter(|r| r.is_empty()))
                .flatten()
                .and_then(|_| self.instance_fields(class).ok())
                .map(|all| {
                    Arc::new(
                        all.into_iter()
                            .filter(|(_, t, _)| t.is_reference())
                            .map(|(k, _, _)| k)
                            .collect(),
                    )
                })
        })
    }

    /// The classes (in the terms of [`Self::reachable_classes`]) an object of static type
    /// `name` may be; `None` where any class may be (`Object`, interfaces, JDK classes other
    /// than strings and boxes, types the class path does not describe).
    fn possible_classes(&self, name: &str) -> Option<BTreeSet<String>> {
        match type_of_name(name)? {
            FieldType::Array(elem) if elem.is_reference() => {
                Some(BTreeSet::from([REFERENCE_ARRAY.to_string()]))
            }
            FieldType::Array(elem) => Some(BTreeSet::from([FieldType::Array(elem).to_string()])),
            FieldType::Object(class) => {
                if models::is_always_jdk(&class) || self.hierarchy.is_library(&class) {
                    return models::is_final_value_class(&class).then(|| BTreeSet::from([class]));
                }
                if self.hierarchy.is_interface(&class).ok()? {
                    return None;
                }
                Some(
                    self.hierarchy
                        .non_abstract_subtypes(&class)
                        .ok()?
                        .into_iter()
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// The classes of the objects a value of type `name` may reach through fields and array
    /// elements, itself included (memoised): every non-abstract subtype of a class and what
    /// its fields' declared types reach, the JDK's part by [`models::jdk_fields_reach`].
    /// `None` (any class) for `Object`, interfaces (a lambda may implement one and capture
    /// anything), JDK classes other than strings and boxes, and types the class path does not
    /// describe.
    pub(crate) fn reachable_classes(&self, name: &str) -> Reach {
        memoised(&self.reach, name.to_string(), || {
            type_of_name(name)
                .and_then(|t| self.compute_reach(&t))
                .map(Arc::new)
        })
    }

    fn compute_reach(&self, t: &FieldType) -> Option<BTreeSet<String>> {
        let mut out = BTreeSet::new();
        let mut seen = BTreeSet::new();
        let mut todo = vec![t.clone()];
        while let Some(t) = todo.pop() {
            let class = match t {
                FieldType::Object(c) => c,
                FieldType::Array(elem) => {
                    if elem.is_reference() {
                        out.insert(REFERENCE_ARRAY.to_string());
                        todo.push(*elem);
                    } else {
                        out.insert(FieldType::Array(elem).to_string());
                    }
                    continue;
                }
                _ => continue,
            };
            if !seen.insert(class.clone()) {
                continue;
            }
            if models::is_always_jdk(&class) || self.hierarchy.is_library(&class) {
                // a declared JDK type: only a final one is known to be that class alone
                if !models::is_final_value_class(&class) {
                    return None;
                }
                out.insert(class.clone());
                out.extend(
                    models::jdk_fields_reach(&class)?
                        .iter()
                        .map(|c| c.to_string()),
                );
                continue;
            }
            if self.hierarchy.is_interface(&class).ok()? {
                return None;
            }
            for sub in self.hierarchy.non_abstract_subtypes(&class).ok()? {
                out.insert(sub.clone());
                out.extend(self.jdk_part_reach(&sub)?);
                for (_, f, _) in self.instance_fields(&sub).ok()? {
                    if f.is_reference() {
                        todo.push(f);
                    }
                }
            }
        }
        Some(out)
    }

    /// What the fields of the first JDK superclass of the program class `class` reach.
    fn jdk_part_reach(&self, class: &str) -> Option<Vec<String>> {
        let mut cur = self.hierarchy.super_of(class).ok()?;
        while let Some(c) = cur {
            if models::is_always_jdk(&c) || self.hierarchy.is_library(&c) {
                let reach = models::jdk_fields_reach(&c)?;
                return Some(reach.iter().map(|s| s.to_string()).collect());
            }
            cur = self.hierarchy.super_of(&c).ok()?;
        }
        Some(Vec::new())
    }
}
