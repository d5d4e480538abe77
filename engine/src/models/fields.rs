//! The instance fields the engine represents for a class: the class path's declarations, or
//! the modelled fields of a JDK class.

use super::classes::{is_modelled_class, STRING};
use crate::class::{FieldType, Hierarchy};
use crate::error::EngineError;
use crate::state::Interval;

/// The instance fields of `class` as the engine models them: `(name, type, range)` sorted by
/// name; a `Some` range overrides the most general value of the type.
pub fn instance_fields(
    hierarchy: &Hierarchy,
    class: &str,
) -> Result<Vec<(String, FieldType, Option<Interval>)>, EngineError> {
    if class == STRING {
        return Ok(vec![(
            "count".into(),
            FieldType::Int,
            Some(Interval::at_least(0)),
        )]);
    }
    if is_modelled_class(class) {
        return Ok(vec![]);
    }
    Ok(hierarchy
        .instance_fields(class)?
        .into_iter()
        .map(|(_, name, t)| (name, t, None))
        .collect())
}
