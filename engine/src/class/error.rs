//! Errors of the class-loading room: reading, parsing, decoding and looking up classes.
//!
//! Every message is one line and names the class, method or file concerned.

use std::path::PathBuf;

/// Everything that can go wrong while finding, parsing or querying classes.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// A file or jar could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not a well-formed class file (or jar, manifest, descriptor, bytecode).
    #[error("malformed input: {what}")]
    Malformed { what: String },
    /// No entry of the class path (and no built-in model) provides the class.
    #[error("class {class} not found")]
    NotFound { class: String },
    /// No method, or no unique method, of that name (and descriptor) exists in the class.
    #[error("no unique method {class}.{method} (candidates: {candidates})")]
    MethodNotFound {
        class: String,
        method: String,
        candidates: String,
    },
    /// Well-formed input that the engine deliberately does not handle (e.g. field shadowing).
    #[error("unsupported: {what}")]
    Unsupported { what: String },
}

impl ClassError {
    /// Shorthand for [`ClassError::Malformed`].
    pub fn malformed(what: impl Into<String>) -> Self {
        ClassError::Malformed { what: what.into() }
    }

    /// Shorthand for [`ClassError::Unsupported`].
    pub fn unsupported(what: impl Into<String>) -> Self {
        ClassError::Unsupported { what: what.into() }
    }

    /// Shorthand for [`ClassError::NotFound`].
    pub fn not_found(class: impl Into<String>) -> Self {
        ClassError::NotFound {
            class: class.into(),
        }
    }
}
