//! The closed world of a run: the classes its objects can have (rapid type analysis,
//! [`super::rapid_type_analysis`]) and the classes each field can hold (variable type analysis,
//! [`super::field_types`]), with the narrowest declared type that covers a field's classes.

use super::{FieldType, FieldTypes, Hierarchy};
use std::collections::{BTreeMap, BTreeSet};

/// What objects a run from one start state can make and store.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct World {
    /// The classes an object of the run can have.
    pub classes: BTreeSet<String>,
    /// Per instance field (declaring class, name) whose declared type is wider than the classes
    /// stored into it: the class the field's values are known to be below.
    narrowed: BTreeMap<(String, String), String>,
    /// The static fields (declaring class, name) that the code a run may execute reads; `None`
    /// when not computed (every static of the class path then counts).
    read_statics: Option<BTreeSet<(String, String)>>,
}

impl World {
    /// The world of `classes` with the field narrowings that `fields` allow.
    pub fn new(h: &Hierarchy, classes: BTreeSet<String>, fields: &FieldTypes) -> World {
        let mut narrowed = BTreeMap::new();
        for (id, declared) in fields.instance_fields(h) {
            let FieldType::Object(declared) = declared else {
                continue;
            };
            let Some(set) = fields.of(&id) else { continue };
            if let Some(c) = least_class_above(h, set, &declared) {
                if c != declared {
                    narrowed.insert(id, c);
                }
            }
        }
        World {
            classes,
            narrowed,
            read_statics: None,
        }
    }

    /// The world whose run reads only the static fields `read` (declaring class, name).
    pub fn with_read_statics(mut self, read: BTreeSet<(String, String)>) -> World {
        self.read_statics = Some(read);
        self
    }

    /// Whether the code of a run may read the static field `key` (declaring class, name).
    pub fn may_read_static(&self, key: &(String, String)) -> bool {
        self.read_statics.as_ref().is_none_or(|r| r.contains(key))
    }

    /// Whether an object of the run can have class `c`.
    pub fn contains(&self, c: &str) -> bool {
        self.classes.contains(c)
    }

    /// The type of the values of field `name` declared in `declared_in`, whose declaration says
    /// `declared`: narrower when the run stores only objects of a subclass there.
    pub fn field_type(&self, declared_in: &str, name: &str, declared: &FieldType) -> FieldType {
        match self
            .narrowed
            .get(&(declared_in.to_string(), name.to_string()))
        {
            Some(c) => FieldType::Object(c.clone()),
            None => declared.clone(),
        }
    }

    /// The narrowed fields, for reports and tests: ((declaring class, name), class).
    pub fn narrowed_fields(&self) -> impl Iterator<Item = (&(String, String), &String)> {
        self.narrowed.iter()
    }
}

/// The most derived class on the superclass chain of `set`'s first class that every class of
/// `set` is below and that is below `declared`; `None` when `set` is empty, holds an array or
/// a class the class path does not know.
fn least_class_above(h: &Hierarchy, set: &BTreeSet<String>, declared: &str) -> Option<String> {
    let first = set.iter().next()?;
    if set.iter().any(|c| c.starts_with('[')) {
        return None;
    }
    let mut c = Some(first.clone());
    while let Some(cand) = c {
        let covers = set
            .iter()
            .map(|s| h.is_subtype(s, &cand))
            .collect::<Result<Vec<bool>, _>>()
            .ok()?
            .into_iter()
            .all(|b| b);
        if covers && h.is_subtype(&cand, declared).ok()? {
            return Some(cand);
        }
        c = h.super_of(&cand).ok()?;
    }
    None
}
