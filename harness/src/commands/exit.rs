//! The exit code of every error: the one mapping of error kinds to the documented codes
//! (README, *Exit codes*).

use jtg_check::journal::JournalError;
use jtg_check::SessionError;
use jtg_engine::class::ClassError;
use jtg_engine::EngineError;
use jtg_mutate::MutateError;

/// Exit code for an error, by its kind (see the binary's documentation).
pub fn exit_code(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if cause.downcast_ref::<JournalError>().is_some() {
            return 2;
        }
        // A check session (or a mutation analysis) that could not start or stopped early:
        // bad input, whatever the cause below (a JVM that cannot trace included: issue #23
        // may give those 5).
        if cause.downcast_ref::<SessionError>().is_some()
            || cause.downcast_ref::<MutateError>().is_some()
        {
            return 2;
        }
        if let Some(ee) = cause.downcast_ref::<EngineError>() {
            return match ee {
                EngineError::Unsupported { .. } => 3,
                EngineError::Class(ClassError::Unsupported { .. }) => 3,
                EngineError::Budget { .. } => 4,
                EngineError::Internal(_) => 70,
                _ => 2,
            };
        }
        if cause.downcast_ref::<ClassError>().is_some() {
            return 2;
        }
        if let Some(g) = cause.downcast_ref::<jtg_check::gen::GenError>() {
            return match g {
                jtg_check::gen::GenError::Unsupported(_) => 3,
                jtg_check::gen::GenError::Unsatisfiable(_) => 2,
            };
        }
        if let Some(h) = cause.downcast_ref::<jtg_jvm::JvmError>() {
            return match h {
                jtg_jvm::JvmError::BadInput(_) => 2,
                _ => 5,
            };
        }
    }
    2
}
