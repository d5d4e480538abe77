//! Refinements (spec §5): case analyses whose successors together represent every concrete
//! instance of the refined state, each successor being an instance of it (Def. 2.14).
//!
//! - [`instance`]: instance refinement of an unknown object (Def. 2.17), with predicate
//!   inheritance and the must-reach rule that removes an impossible null case;
//! - [`integer`]: integer refinement against a literal (Def. 2.18);
//! - [`equality`]: equality refinement of a `=?` pair (Def. 2.20);
//! - [`split`]: state split on an undecidable relation between two integers (§5.6).

pub(crate) mod equality;
pub(crate) mod instance;
pub(crate) mod integer;
pub(crate) mod split;

use crate::edge::Label;
use crate::state::State;

/// One successor of a refinement or evaluation step.
#[derive(Clone, Debug)]
pub(crate) struct Succ {
    pub state: State,
    pub labels: Vec<Label>,
}

impl Succ {
    pub(crate) fn new(state: State) -> Succ {
        Succ {
            state,
            labels: vec![],
        }
    }
    pub(crate) fn labelled(state: State, labels: Vec<Label>) -> Succ {
        Succ { state, labels }
    }
}
