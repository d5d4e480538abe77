//! Engine errors. "Unsupported" (the engine does not model something) is a different kind from a
//! malformed program or input, and every error names where it happened.

use crate::class::ClassError;
use crate::state::MethodId;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Class(#[from] ClassError),
    /// An instruction, library method or feature the engine does not model.
    #[error("unsupported at {method} pc {pc}: {what}")]
    Unsupported {
        method: MethodId,
        pc: u32,
        what: String,
    },
    /// Bytecode the JVM verifier would reject, or a state the engine cannot interpret.
    #[error("invalid program at {method} pc {pc}: {what}")]
    Invalid {
        method: MethodId,
        pc: u32,
        what: String,
    },
    /// A start state that does not fit the method.
    #[error("start state: {0}")]
    StartState(String),
    /// The node budget was exhausted before the graph was complete.
    #[error("node budget exceeded: {max} nodes built and the graph is still incomplete (raise --max-nodes)")]
    Budget { max: usize },
    /// The work budget (a deterministic count of the construction's work, see
    /// [`crate::graph::BuildLimits::max_work`]) ran out before the graph was complete.
    #[error("work budget exceeded: {max} work units spent after {nodes} nodes and the graph is still incomplete (raise --max-work)")]
    WorkBudget { max: u64, nodes: usize },
    /// The wall-clock bound ran out before the graph was complete (a safety net: where it
    /// stops depends on the machine's speed and load).
    #[error("time budget exceeded after {nodes} nodes and the graph is still incomplete")]
    TimeBudget { nodes: usize },
    /// A broken engine invariant (a bug in jtg, never the user's fault).
    #[error("internal error: {0}")]
    Internal(String),
}

impl EngineError {
    /// A one-word category, used by reports (`unsupported`, `budget`, `error`).
    pub fn category(&self) -> &'static str {
        match self {
            EngineError::Unsupported { .. } => "unsupported",
            EngineError::Class(ClassError::Unsupported { .. }) => "unsupported",
            EngineError::Budget { .. }
            | EngineError::WorkBudget { .. }
            | EngineError::TimeBudget { .. } => "budget",
            _ => "error",
        }
    }
}
