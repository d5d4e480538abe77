//! Engine errors. "Unsupported" (the engine does not model something) is a different kind from a
//! malformed program or input, and every error names where it happened.

use crate::class::ClassError;
use crate::state::text::LocalNames;
use crate::state::{MethodId, SourceLine};

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
    /// [`EngineError::Unsupported`] with the source line of its pc
    /// ([`EngineError::with_source_line`]: the graph builder adds it where the class file has
    /// a line table). Boxed: errors travel in `Result`s everywhere.
    #[error("{0}")]
    UnsupportedAt(Box<UnsupportedAt>),
    /// Bytecode the JVM verifier would reject, or a state the engine cannot interpret.
    #[error("invalid program at {method} pc {pc}: {what}")]
    Invalid {
        method: MethodId,
        pc: u32,
        what: String,
    },
    /// A method argument that names no method (`sum` instead of `Lists.sum`).
    #[error("method `{0}` is not of the form Class.method or Class.method(descriptor)")]
    MethodSpec(String),
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
    /// A collection model stores an object of an admitted class outside the classes the
    /// construction assumed its collections hold (`models::elements::ElementTypes`): the graph
    /// builder builds the graph again with it, so this never leaves the builder.
    #[error("internal error: a collection element of class {0} outside the assumed ones")]
    ElementClass(String),
    /// A broken engine invariant (a bug in jtg, never the user's fault).
    #[error("internal error: {0}")]
    Internal(String),
}

impl EngineError {
    /// A one-word category, used by reports (`unsupported`, `budget`, `error`).
    pub fn category(&self) -> &'static str {
        match self {
            EngineError::Unsupported { .. } | EngineError::UnsupportedAt(_) => "unsupported",
            EngineError::Class(ClassError::Unsupported { .. }) => "unsupported",
            EngineError::Budget { .. }
            | EngineError::WorkBudget { .. }
            | EngineError::TimeBudget { .. } => "budget",
            _ => "error",
        }
    }
}

impl EngineError {
    /// Adds the source line of an "unsupported" error's pc, where `names` knows it (a class
    /// file with a line table); every other error is returned as it is.
    pub fn with_source_line(self, names: &dyn LocalNames) -> EngineError {
        match self {
            EngineError::Unsupported { method, pc, what } => match names.source_line(&method, pc) {
                Some(line) => EngineError::UnsupportedAt(Box::new(UnsupportedAt {
                    method,
                    pc,
                    line,
                    what,
                })),
                None => EngineError::Unsupported { method, pc, what },
            },
            other => other,
        }
    }
}

/// An unsupported feature at a pc with a known source line: `unsupported at C.m(…) pc 3
/// (Lists.java:12): what`.
#[derive(Debug)]
pub struct UnsupportedAt {
    pub method: MethodId,
    pub pc: u32,
    pub line: SourceLine,
    pub what: String,
}

impl std::fmt::Display for UnsupportedAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unsupported at {} pc {} ({}): {}",
            self.method, self.pc, self.line, self.what
        )
    }
}
