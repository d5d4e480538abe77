//! The instance fields the engine represents for a class: the class path's declarations, or
//! the modelled fields of a JDK class (and `java.lang.Enum`'s, of an enum object).

use super::classes::{STRING, STRING_BUILDER};
use super::collections::{self, Family, OF, REMAINING, SIZE};
use super::jdk_table::is_modelled_class;
use super::text::INTEGER;
use crate::class::{FieldType, Hierarchy};
use crate::error::EngineError;
use crate::state::{FieldKey, Interval};

/// The instance fields of `class` as the engine models them: `(key, type, range)` sorted by
/// key; a `Some` range overrides the most general value of the type. A field shadowed by a
/// more derived declaration of its name is keyed by its declaring class too.
pub fn instance_fields(
    hierarchy: &Hierarchy,
    class: &str,
) -> Result<Vec<(FieldKey, FieldType, Option<Interval>)>, EngineError> {
    if class == STRING || class == STRING_BUILDER {
        // a string's length; a builder's current length (`length()`), which its models change
        return Ok(vec![(
            FieldKey::plain("count"),
            FieldType::Int,
            Some(Interval::at_least(0)),
        )]);
    }
    if Family::of(class).is_some() {
        // a collection's size (`models/collections.rs`)
        return Ok(vec![(
            FieldKey::plain(SIZE),
            FieldType::Int,
            Some(Interval::at_least(0)),
        )]);
    }
    if let Some(view) = collections::View::of_class(class) {
        // a map's view: the map
        return Ok(vec![(
            FieldKey::plain(OF),
            FieldType::Object(view.map_class().into()),
            None,
        )]);
    }
    if let Some(of) = collections::iterated_type(class) {
        // an iterator's collection and its remaining count, -1 once stale
        return Ok(vec![
            (FieldKey::plain(OF), FieldType::Object(of.into()), None),
            (
                FieldKey::plain(REMAINING),
                FieldType::Int,
                Some(Interval::at_least(-1)),
            ),
        ]);
    }
    if class == super::optional::OPTIONAL {
        // the contained value, `null` where empty
        return Ok(vec![(
            FieldKey::plain(super::optional::VALUE),
            FieldType::Object(super::classes::OBJECT.into()),
            None,
        )]);
    }
    if is_modelled_class(class) {
        return Ok(vec![]);
    }
    let mut out: Vec<_> = hierarchy
        .instance_fields(class)?
        .into_iter()
        .map(|f| {
            let key = if f.shadowed {
                FieldKey::shadowed(&f.declared_in, &f.name)
            } else {
                FieldKey::plain(&f.name)
            };
            (key, f.ty, None)
        })
        .collect();
    // an enum object's `name` and `ordinal` (`models/enums.rs`)
    let declared: Vec<FieldKey> = out.iter().map(|f| f.0.clone()).collect();
    if let Some(e) = super::enums::enum_fields(hierarchy, class, &declared) {
        out.extend(e);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The field a concrete *input* may give an object of the JDK class `class` although the model
/// keeps none: `Integer.value` (the box's `int`; the model keeps no value, so no state the
/// engine builds lists it and the checker never compares it). Inputs set it so that runs reach
/// the paths of boxes other than 0 (`hashCode`, `equals`, unboxing); the JVM side writes the
/// final field through JNI. A start state may not list it (the engine would carry a field it
/// never reads or writes).
pub fn input_only_field(class: &str) -> Option<(FieldKey, FieldType)> {
    (class == INTEGER).then(|| (FieldKey::plain("value"), FieldType::Int))
}
