//! Errors of the JVM side (`JvmError`). Every JNI and Java-side failure maps into one of these
//! variants; nothing in this crate panics on a JVM failure.

use std::path::PathBuf;

/// Why a tracing operation failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum JvmError {
    /// No usable `libjvm.so` at the given place (`JAVA_HOME` or the `java` found on `PATH`).
    #[error("JVM not found at {}: {reason}", path.display())]
    JvmNotFound { path: PathBuf, reason: String },
    /// Neither `JAVA_HOME` is set nor is there a `java` on `PATH`.
    #[error("no JVM found: JAVA_HOME is not set and there is no `java` on PATH (install openjdk-17-jdk-headless or set JAVA_HOME)")]
    NoJava,
    /// An ASM jar the tracer runs against is missing.
    #[error("{} is missing: the tracer needs ASM 9.4 at run time; run `apt-get install libasm-java`", .0.display())]
    AsmMissing(PathBuf),
    /// `JNI_CreateJavaVM` failed (or failed earlier in this process; a JVM cannot be re-created).
    #[error("cannot start the embedded JVM: {0}")]
    JvmStart(String),
    /// A JNI call failed; `message` carries the Java exception text if there was one.
    #[error("JNI failure while {context}: {message}")]
    Jni { context: String, message: String },
    /// A class of the analysed program could not be instrumented.
    #[error("instrumentation failed: {0}")]
    Instrumentation(String),
    /// The JVM refuses to load a class of the program: a class file newer than it runs
    /// (`UnsupportedClassVersionError`). Not a fault of any input.
    #[error("the JVM cannot load {0}")]
    ClassVersion(String),
    /// The concrete input does not fit the method or is inconsistent.
    #[error("bad input: {0}")]
    BadInput(String),
    /// The recorded buffers are inconsistent (a tracer bug).
    #[error("cannot decode the trace: {0}")]
    Decode(String),
    /// `verify_replay`: the replayed heap differs from a full snapshot taken by the recorder.
    #[error("replayed heap differs from the recorder's snapshot at step {step}: {detail}")]
    ReplayMismatch { step: u64, detail: String },
}

impl JvmError {
    /// Whether the failure is the environment's (no JVM, no ASM, a JVM that does not start, a
    /// class it cannot instrument or load), whatever the input: no input is to blame.
    pub fn is_environment(&self) -> bool {
        matches!(
            self,
            JvmError::JvmNotFound { .. }
                | JvmError::NoJava
                | JvmError::AsmMissing(_)
                | JvmError::JvmStart(_)
                | JvmError::Instrumentation(_)
                | JvmError::ClassVersion(_)
        )
    }
}

impl From<jni::errors::Error> for JvmError {
    fn from(e: jni::errors::Error) -> Self {
        JvmError::Jni {
            context: "calling into the JVM".into(),
            message: e.to_string(),
        }
    }
}
