//! The instance relation `s' ⊑ s` (spec §4): every concrete state represented by the specific
//! state `s'` is represented by the general state `s`.
//!
//! The check is position-wise and never guesses a bijection (spec §4.3):
//!
//! 1. (a) control: frames, methods, pcs, stack heights, exception presence, statics, end kind.
//! 2. A lock-step walk from every root over the positions `SPos(s)` of the general state builds
//!    the witness `s-ref ↦ s'-ref` and checks (b) integers, (c) null, (d) object values and
//!    (e) "shared stays shared". It descends only below values that `s` realizes.
//! 3. The positions of `s'` are enumerated along paths that are simple in the lock-step sense
//!    (a pair `(s-side tag, s'-ref)` never repeats on a path; below what `s` realizes this is
//!    "simple in `s'`"). Every position is tagged with its *maximal realized prefix* (MRP) in `s`
//!    and the remaining suffix. The predicate conditions (f)–(m) are checked on these tags.
//! 4. (n): every `→!F` of `s` holds in `s'`.
//!
//! Positions are printed as access paths. Frames are numbered as in the thesis and spec §2.3:
//! frame 0 is the top (executing) frame and stack slot 0 is the top of the stack:
//! `lv0.1` (frame 0, local 1), `os0.0`, `exc0`, `sf.List.count`, `result`, `thrown`, then
//! `.field`, `.len`, `[k]`.
//!
//! Soundness beats precision throughout: whenever a case is not clearly covered by a predicate
//! of `s`, the answer is "not an instance". The reading of the predicates (spec §3) that this
//! module commits to:
//!
//! * `t %$ u` (t ≠ u) is the only permission for hidden sharing between the structures at two
//!   different references of `s`.
//! * The *self-sharing* permission of `t` (two different hidden paths below `t` meet) is
//!   `t %$ t` or `t♦`; \[I\] always adds the two together and both say "the structure below `t`
//!   need not be a tree".
//! * A *cycle* below `t` (one position a prefix of another, same object) needs `t⟲F` with `F`
//!   contained in the fields of the cycle; `⟲` is the cycle permission on its own (thesis
//!   Fig. 2.13 draws `⟲{n}` without `♦`, and its state A must admit the one-element cyclic list).
//!   A self-join alone does not admit cycles here.
//! * An explicit DAG (two positions sharing a proper common prefix, neither a prefix of the
//!   other) needs `♦` at the MRP of the common prefix (l); `⟲` does not admit DAGs.

use crate::state::{Ref, State, Subtyping};
use std::collections::BTreeMap;
use std::fmt;

mod control;
mod lockstep;
mod must_reach;
mod positions;
mod predicates;
mod signature;
#[cfg(test)]
mod tests;

use control::control;
use lockstep::LockStep;
use must_reach::check_must_reach;
use positions::Positions;

pub(crate) use signature::{width_for as signature_width, Signature};

/// Witness of `s' ⊑ s`: maps every reference of the general state `s` reached by the walk to
/// the reference of `s'` at the same positions. When an integer reference of `s` sits at two
/// positions that hold two different but equal literals in `s'` (allowed by (e)), the reference
/// at the first position in walk order is recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub map: BTreeMap<Ref, Ref>,
}

/// Why `s'` is not an instance of `s`: the condition letter of spec §4.2 (`'a'..='n'`) and a
/// one-line reason naming the position and references.
///
/// Letters beyond the spec's own wording: `'h'` is a missing `%$` between two *different*
/// references of `s`, `'i'` a missing self-sharing permission of one reference (the spec lumps
/// both as (h)/(i)). `'l'` is also reported when a state has more positions than
/// [`MAX_POSITIONS`] (undecided, so "no").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub condition: char,
    pub reason: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}) {}", self.condition, self.reason)
    }
}

impl std::error::Error for Mismatch {}

/// Bound on the number of enumerated positions of `s'`. Simple paths can be exponential in a
/// realized DAG; states are small, so reaching this bound means something is off, and the check
/// answers "not an instance" rather than running away.
pub const MAX_POSITIONS: usize = 4_096;

/// Whether a failed check builds its reason or only answers "no": the graph builder asks "is
/// it an instance?" hundreds of thousands of times and reads no reason ([`instance_holds`]);
/// the tests, the mutation analysis and messages want the reason ([`is_instance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Explain {
    Reasons,
    VerdictOnly,
}

impl Explain {
    /// A failure of `condition`, with its reason built only when reasons are wanted.
    fn no(self, condition: char, reason: impl FnOnce() -> String) -> Mismatch {
        Mismatch {
            condition,
            reason: match self {
                Explain::Reasons => reason(),
                Explain::VerdictOnly => String::new(),
            },
        }
    }
}

/// `specific ⊑ general` as [`is_instance`] decides it, without the witness and without
/// formatting the reason of a failure.
pub fn instance_holds(specific: &State, general: &State, types: &dyn Subtyping) -> bool {
    decide(specific, general, types, Explain::VerdictOnly).is_ok()
}

/// Decides `specific ⊑ general` (spec §4.2 (a)–(n)); see the module docs for the algorithm and
/// the reading of the predicates.
pub fn is_instance(
    specific: &State,
    general: &State,
    types: &dyn Subtyping,
) -> Result<Witness, Mismatch> {
    decide(specific, general, types, Explain::Reasons)
}

fn decide(
    specific: &State,
    general: &State,
    types: &dyn Subtyping,
    explain: Explain,
) -> Result<Witness, Mismatch> {
    let roots = control(specific, general, explain)?;
    let map = LockStep::new(general, specific, types, explain).run(&roots)?;
    let pos = Positions::enumerate(specific, general, &roots, explain)?;
    pos.check_realized_equalities()?;
    pos.check_hidden_equalities()?;
    pos.check_joins()?;
    pos.check_shape_predicates()?;
    pos.check_dags()?;
    pos.check_cycles()?;
    check_must_reach(specific, general, &map, explain)?;
    Ok(Witness { map })
}
