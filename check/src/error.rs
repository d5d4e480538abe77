//! The errors of a check that are not verdicts: the JVM could not run an input, the engine
//! could not answer a question about the program, or the input is not usable.

use jtg_engine::EngineError;
use jtg_jvm::JvmError;

/// Why a run could not be checked (a verdict is never an error).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Jvm(#[from] JvmError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("{0}")]
    BadInput(String),
}
