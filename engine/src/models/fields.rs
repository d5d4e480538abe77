//! The instance fields the engine represents for a class: the class path's declarations, or
//! the modelled fields of a JDK class.

use super::classes::{is_modelled_class, STRING};
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
    if class == STRING {
        return Ok(vec![(
            FieldKey::plain("count"),
            FieldType::Int,
            Some(Interval::at_least(0)),
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
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}
