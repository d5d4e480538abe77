//! jtg harness: real-JVM tracing and soundness checking of termination graphs.
