//! Edge kinds (spec §7.1).

use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// One instruction evaluated.
    Eval,
    /// Case analysis on a reference (instance, integer or equality refinement).
    Refine,
    /// Case analysis on an integer relation that no interval partition decides.
    Split,
    /// The source state is an instance of the target (`s ⊑ t`).
    Instance,
    /// An invocation pushed a frame (inlining), or an abstracted call entered the callee's
    /// method graph.
    Call,
    /// A return popped a frame into its caller, or an abstracted call's continuation.
    Return,
}

impl EdgeKind {
    pub const ALL: [EdgeKind; 6] = [
        EdgeKind::Eval,
        EdgeKind::Refine,
        EdgeKind::Split,
        EdgeKind::Instance,
        EdgeKind::Call,
        EdgeKind::Return,
    ];

    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::Eval => "eval",
            EdgeKind::Refine => "refine",
            EdgeKind::Split => "split",
            EdgeKind::Instance => "instance",
            EdgeKind::Call => "call",
            EdgeKind::Return => "return",
        }
    }
    pub fn parse(s: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|k| k.name() == s)
    }
    /// Edges that correspond to one executed instruction.
    pub fn is_step(self) -> bool {
        matches!(self, EdgeKind::Eval | EdgeKind::Call | EdgeKind::Return)
    }
}

impl fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
