//! JVM location rules. A separate test binary (own process): it changes `JAVA_HOME`, and the
//! process's one JVM must not have been started before.

use std::path::PathBuf;

use jtg_jvm::locate_libjvm;
use jtg_jvm::{trace_method, ConcreteInput, JvmError, TraceOptions};

#[test]
fn java_home_must_be_used_and_must_exist() {
    let real = locate_libjvm();
    let bogus = PathBuf::from("/nonexistent/jdk-for-jtg-test");
    std::env::set_var("JAVA_HOME", &bogus);
    match locate_libjvm() {
        Err(JvmError::JvmNotFound { path, .. }) => assert_eq!(path, bogus),
        other => panic!("expected JvmNotFound, got {other:?}"),
    }
    // trace_method reports it too (and does not panic)
    let e = trace_method(
        &[],
        "List",
        "contains",
        "(LList;I)Z",
        &ConcreteInput::default(),
        &TraceOptions::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("/nonexistent/jdk-for-jtg-test"),
        "{e}"
    );
    // a JAVA_HOME that exists but holds no libjvm.so is also JvmNotFound
    std::env::set_var("JAVA_HOME", env!("CARGO_MANIFEST_DIR"));
    assert!(matches!(locate_libjvm(), Err(JvmError::JvmNotFound { .. })));
    // without JAVA_HOME, `java` on PATH (symlinks followed) is used when there is one
    std::env::remove_var("JAVA_HOME");
    if let Ok(p) = real {
        assert_eq!(locate_libjvm().expect("java on PATH"), p);
    }
}
