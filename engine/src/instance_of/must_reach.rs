//! Condition (n) of the instance check: every must-reach fact of `s` holds in `s'`.

use super::{Explain, Mismatch};
use crate::state::access::provably_reaches;
use crate::state::{Ref, State};
use std::collections::BTreeMap;

/// (n): every `a →!F b` of `s` holds in `s'` for the references at the same positions.
///
/// The F-path from `m(a)` is followed through realized fields of `s'` (an object with exactly
/// one field in F; none ends the path; several make the path non-unique and are not followed)
/// and through `→!F'` predicates of `s'` with `F' = F` exactly. `F' ⊆ F` would also be sound
/// when F is deterministic, but determinism is a property of the class hierarchy that is not
/// checked here, so only equal field sets compose. Every reference collected this way lies on
/// the unique F-path from `m(a)`, so reaching `m(b)` proves the predicate.
pub(super) fn check_must_reach(
    sp: &State,
    g: &State,
    map: &BTreeMap<Ref, Ref>,
    explain: Explain,
) -> Result<(), Mismatch> {
    for mr in &g.preds.must_reach {
        let Some(&a2) = map.get(&mr.from) else {
            continue; // not at any position of s (not reachable): constrains nothing
        };
        let b2 = if mr.to.is_null() {
            Ref::Null
        } else {
            match map.get(&mr.to) {
                Some(&b2) => b2,
                None => {
                    return Err(explain.no('n', || {
                        format!(
                            "s has {}→!{}{} but {} is at no position of s",
                            mr.from,
                            crate::state::fmt_fields(&mr.fields),
                            mr.to,
                            mr.to
                        )
                    }))
                }
            }
        };
        if !provably_reaches(&sp.heap, &sp.preds.must_reach, None, a2, &mr.fields, b2) {
            return Err(explain.no('n', || {
                format!(
                    "s has {}→!{}{}, but in s' the {} path from {a2} is not known to reach {b2}",
                    mr.from,
                    crate::state::fmt_fields(&mr.fields),
                    mr.to,
                    crate::state::fmt_fields(&mr.fields)
                )
            }));
        }
    }
    Ok(())
}
