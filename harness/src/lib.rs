//! jtg harness: real-JVM tracing and soundness checking of termination graphs.

pub mod check;
pub mod concrete;
pub mod corpus;
pub(crate) mod decode;
pub mod error;
pub mod gen;
pub mod input;
pub mod journal;
pub mod jvm;
pub mod run;
pub mod trace;

pub use error::HarnessError;
pub use input::ConcreteInput;
pub use run::{
    run_plain, trace_batch, trace_method, tracer_stats, PlainRun, TraceOptions, TracerStats,
};
pub use trace::{
    CFrame, CHeap, CObject, CValue, ObjId, Objects, Step, StepView, Trace, TraceEnd, UninitObj,
};
