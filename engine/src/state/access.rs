//! Access paths into a state's heap (spec §2.3): the steps below an object — a field or an
//! array element — and what the instance check and merging both read along them.

use super::{FieldKey, FieldSet, HeapValue, MustReach, Ref};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One step of an access path below an object, borrowing the field name from the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AccessStep<'a> {
    Field(&'a FieldKey),
    Elem(usize),
}

impl AccessStep<'_> {
    /// The key a field set (`⟲F`, `→!F`) names this step by: the field, or `[]` for an array
    /// element.
    pub fn field_key(self) -> FieldKey {
        match self {
            AccessStep::Field(f) => f.clone(),
            AccessStep::Elem(_) => FieldKey::array_elements(),
        }
    }
}

/// Prints as in access paths: `.next`, `[2]`.
impl fmt::Display for AccessStep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessStep::Field(n) => write!(f, ".{n}"),
            AccessStep::Elem(k) => write!(f, "[{k}]"),
        }
    }
}

/// The object-valued children of a heap value with their steps: the realized fields in name
/// order, then the known array elements in index order (null and integers carry no sharing).
pub fn object_children(v: &HeapValue) -> impl Iterator<Item = (AccessStep<'_>, Ref)> {
    let fields = match v {
        HeapValue::Object { fields, .. } => Some(fields),
        _ => None,
    };
    let elems = match v {
        HeapValue::Array { elems: Some(e), .. } => Some(e),
        _ => None,
    };
    let fields = fields
        .into_iter()
        .flatten()
        .map(|(f, r)| (AccessStep::Field(f), *r));
    let elems = elems
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(k, r)| (AccessStep::Elem(k), *r));
    fields.chain(elems).filter(|(_, r)| r.is_obj())
}

/// The child of a heap value at a step, if the value realizes it.
pub fn child_at(v: &HeapValue, step: AccessStep<'_>) -> Option<Ref> {
    match (v, step) {
        (HeapValue::Object { fields, .. }, AccessStep::Field(f)) => fields.get(f).copied(),
        (HeapValue::Array { elems: Some(e), .. }, AccessStep::Elem(k)) => e.get(k).copied(),
        _ => None,
    }
}

/// The field names on a path (array steps have none).
pub fn field_names(steps: &[AccessStep<'_>]) -> FieldSet {
    steps
        .iter()
        .filter_map(|s| match s {
            AccessStep::Field(f) => Some((*f).clone()),
            AccessStep::Elem(_) => None,
        })
        .collect()
}

/// The next reference on the unique F-path through the realized object `v`: the value of its
/// one field in `F` (F holds one field per class). None where `v` is no object, has no field
/// in `F` (the path ends) or several (the path is not unique).
pub fn f_successor(v: &HeapValue, fields: &FieldSet) -> Option<Ref> {
    let HeapValue::Object { fields: fs, .. } = v else {
        return None;
    };
    let mut on_path = fs.iter().filter(|(f, _)| fields.contains(*f));
    match (on_path.next(), on_path.next()) {
        (Some((_, &y)), None) => Some(y),
        _ => None,
    }
}

/// Whether, in `heap` with the must-reach facts `facts` (minus `skip`), the F-path from `from`
/// provably reaches `to`: through realized F-fields — an object with exactly one field in `F`;
/// none ends the path, several make it non-unique and are not followed — and through facts
/// `x →!F y` with exactly this `F`. Every reference collected this way lies on the unique
/// F-path from `from`, so reaching `to` proves `from →!F to`.
pub fn provably_reaches(
    heap: &BTreeMap<Ref, HeapValue>,
    facts: &BTreeSet<MustReach>,
    skip: Option<&MustReach>,
    from: Ref,
    fields: &FieldSet,
    to: Ref,
) -> bool {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from];
    while let Some(x) = todo.pop() {
        if x == to {
            return true;
        }
        if x.is_null() || !seen.insert(x) {
            continue;
        }
        if let Some(y) = heap.get(&x).and_then(|v| f_successor(v, fields)) {
            todo.push(y);
        }
        for m in facts {
            if m.from == x && &m.fields == fields && Some(m) != skip {
                todo.push(m.to);
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(fields: &[(&str, Ref)]) -> HeapValue {
        HeapValue::Object {
            class: "L".into(),
            fields: fields
                .iter()
                .map(|(f, r)| (FieldKey::plain(f), *r))
                .collect(),
        }
    }

    #[test]
    fn children_are_the_object_valued_fields_and_elements() {
        let v = obj(&[("b", Ref::Obj(2)), ("a", Ref::Int(1)), ("c", Ref::Null)]);
        let kids: Vec<_> = object_children(&v).collect();
        assert_eq!(
            kids,
            vec![(AccessStep::Field(&FieldKey::plain("b")), Ref::Obj(2))]
        );
        assert_eq!(
            child_at(&v, AccessStep::Field(&FieldKey::plain("a"))),
            Some(Ref::Int(1))
        );
        assert_eq!(child_at(&v, AccessStep::Elem(0)), None);
        assert_eq!(AccessStep::Elem(3).to_string(), "[3]");
        let steps = [
            AccessStep::Field(&FieldKey::plain("n")),
            AccessStep::Elem(1),
            AccessStep::Field(&FieldKey::plain("m")),
        ];
        assert_eq!(
            field_names(&steps),
            FieldSet::from([FieldKey::plain("m"), FieldKey::plain("n")])
        );
    }

    #[test]
    fn reaching_follows_unique_fields_and_facts() {
        let n: FieldSet = [FieldKey::plain("n")].into();
        let mut heap = BTreeMap::new();
        heap.insert(Ref::Obj(1), obj(&[("n", Ref::Obj(2))]));
        heap.insert(Ref::Obj(3), obj(&[("n", Ref::Obj(4)), ("m", Ref::Obj(4))]));
        let fact = MustReach {
            from: Ref::Obj(2),
            fields: n.clone(),
            to: Ref::Obj(3),
        };
        let facts = BTreeSet::from([fact.clone()]);
        assert!(provably_reaches(
            &heap,
            &facts,
            None,
            Ref::Obj(1),
            &n,
            Ref::Obj(4)
        ));
        assert!(!provably_reaches(
            &heap,
            &facts,
            Some(&fact),
            Ref::Obj(1),
            &n,
            Ref::Obj(4)
        ));
        // two fields in F: the path is not unique and is not followed
        let nm: FieldSet = [FieldKey::plain("n"), FieldKey::plain("m")].into();
        assert!(!provably_reaches(
            &heap,
            &BTreeSet::new(),
            None,
            Ref::Obj(3),
            &nm,
            Ref::Obj(4)
        ));
    }
}
