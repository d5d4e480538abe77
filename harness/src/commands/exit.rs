//! The exit code of every error: the one mapping of error kinds to the documented codes
//! (README, *Exit codes*).

use jtg_check::journal::JournalError;
use jtg_check::{CheckError, SessionError};
use jtg_engine::class::ClassError;
use jtg_engine::EngineError;
use jtg_jvm::JvmError;
use jtg_mutate::MutateError;

/// Exit code for an error, by its kind (see the binary's documentation).
pub fn exit_code(e: &anyhow::Error) -> u8 {
    for cause in e.chain() {
        if cause
            .downcast_ref::<super::interrupt::Interrupted>()
            .is_some()
        {
            return super::interrupt::EXIT_INTERRUPTED;
        }
        if cause.downcast_ref::<JournalError>().is_some() {
            return 2;
        }
        // A check session that could not start or stopped early: a JVM that cannot trace
        // (or a run it cannot record) is a JVM failure, anything else bad input.
        if let Some(s) = cause.downcast_ref::<SessionError>() {
            return match s {
                SessionError::Environment(_) => 5,
                SessionError::Trace {
                    source: CheckError::Jvm(JvmError::BadInput(_)),
                    ..
                } => 2,
                SessionError::Trace {
                    source: CheckError::Jvm(_),
                    ..
                } => 5,
                _ => 2,
            };
        }
        if cause.downcast_ref::<MutateError>().is_some() {
            return 2;
        }
        if let Some(ee) = cause.downcast_ref::<EngineError>() {
            return match ee {
                EngineError::Unsupported { .. } | EngineError::UnsupportedAt(_) => 3,
                EngineError::Class(ClassError::Unsupported { .. }) => 3,
                EngineError::Budget { .. }
                | EngineError::WorkBudget { .. }
                | EngineError::TimeBudget { .. } => 4,
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
        if let Some(CheckError::Jvm(h)) = cause.downcast_ref::<CheckError>() {
            return if matches!(h, JvmError::BadInput(_)) {
                2
            } else {
                5
            };
        }
        if let Some(h) = cause.downcast_ref::<JvmError>() {
            return match h {
                JvmError::BadInput(_) => 2,
                _ => 5,
            };
        }
    }
    2
}

/// Whether `e` is a write to a pipe whose reader has gone (`jtg … | head`): not an error,
/// the output was not wanted any more.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
