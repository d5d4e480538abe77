//! Where `libjvm.so` is: under `$JAVA_HOME` if it is set (and it must be found there), else
//! under the JDK of the `java` on `PATH` (symlinks followed).

use std::env;
use std::path::{Path, PathBuf};

use crate::error::JvmError;

const LIBJVM_CANDIDATES: [&str; 4] = [
    "lib/server/libjvm.so",
    "jre/lib/server/libjvm.so",
    "jre/lib/amd64/server/libjvm.so",
    "lib/client/libjvm.so",
];

fn libjvm_under(home: &Path) -> Option<PathBuf> {
    LIBJVM_CANDIDATES
        .iter()
        .map(|c| home.join(c))
        .find(|p| p.is_file())
}

/// Finds `libjvm.so`: under `$JAVA_HOME` if set (an error if it is not there), else under the
/// JDK of the `java` on `PATH`.
pub fn locate_libjvm() -> Result<PathBuf, JvmError> {
    if let Some(home) = env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let home = PathBuf::from(home);
        if !home.is_dir() {
            return Err(JvmError::JvmNotFound {
                path: home,
                reason: "JAVA_HOME is not a directory".into(),
            });
        }
        return libjvm_under(&home).ok_or_else(|| JvmError::JvmNotFound {
            path: home,
            reason: format!("JAVA_HOME has no {}", LIBJVM_CANDIDATES.join(" / ")),
        });
    }
    let path = env::var_os("PATH").unwrap_or_default();
    let java = env::split_paths(&path)
        .map(|d| d.join("java"))
        .find(|p| p.is_file())
        .ok_or(JvmError::NoJava)?;
    let real = java.canonicalize().map_err(|e| JvmError::JvmNotFound {
        path: java.clone(),
        reason: e.to_string(),
    })?;
    // .../bin/java -> ...
    let home = real
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    libjvm_under(&home).ok_or_else(|| JvmError::JvmNotFound {
        path: real.clone(),
        reason: format!("no libjvm.so under {}", home.display()),
    })
}
