//! jtg's JVM side: runs methods of a Java program in a real JVM and records what they do.
//!
//! One JVM is embedded per process (JNI). The classes of the analysed program are
//! instrumented with ASM as they load, so that before every executed bytecode instruction the
//! tracer records the full concrete state: every frame of the program's methods (locals and
//! operand stack) and every object and static field the run has seen. A [`Trace`] hands out
//! these states step by step; [`ConcreteInput`]s (argument values and the objects they reach)
//! are built through JNI exactly as described, cycles and sharing included. The crate knows
//! nothing of termination graphs: values, objects and traces are plain JVM-level data, and
//! whoever checks them converts.
//!
//! ```no_run
//! use jtg_jvm::{trace_method, CValue, ConcreteInput, TraceEnd, TraceOptions};
//!
//! // IntLoops.countDown(5) from the compiled fixtures
//! let input = ConcreteInput {
//!     args: vec![CValue::Int(5)],
//!     ..Default::default()
//! };
//! let cp = [std::path::PathBuf::from("build/fixtures")];
//! let trace = trace_method(&cp, "IntLoops", "countDown", "(I)I", &input, &TraceOptions::default())?;
//! for i in 0..trace.len() {
//!     let (class, method, pc) = trace.position(i);
//!     println!("{class}.{method} pc {pc}: {:?}", trace.top_frame(i).locals);
//! }
//! assert!(matches!(trace.end, TraceEnd::Returned(_)));
//! # Ok::<(), jtg_jvm::JvmError>(())
//! ```
//!
//! Runs are bounded: by a step budget and a recording budget ([`TraceOptions`]; a run past
//! either is cut and keeps its prefix, [`Budget`]) and by the JVM's heap (`-Xmx`, see
//! [`DEFAULT_XMX`]; a program's `OutOfMemoryError` ends its run like a `StackOverflowError`,
//! [`TraceEnd::hit_jvm_limit`]). The recorder keeps every object a run showed, so the heap may
//! also run out in its own bookkeeping (a loop that builds ever longer strings); that run then
//! ends with the same error and no step recorded — a per-run outcome whose point depends on the
//! collector, never a failure of the batch. The recorder's wire format is documented in
//! `docs/trace-wire.md`.

#![deny(unreachable_pub)]

mod build_input;
mod decode;
mod error;
mod input;
mod jni_ext;
mod locate;
mod options;
mod run;
mod session;
mod step;
mod tables;
mod trace;
mod values;
mod vm;

pub use error::JvmError;
pub use input::ConcreteInput;
pub use locate::locate_libjvm;
pub use options::{TraceOptions, DEFAULT_MAX_HEAP};
pub use run::{
    classpath_entries, run_plain, trace_batch, trace_method, tracer_stats, PlainRun, TracerStats,
};
pub use session::ASSERTIONS_DISABLED;
pub use step::{CFrame, Objects, Step, StepView, UninitObj};
pub use trace::{Budget, Trace, TraceEnd};
pub use values::{static_value, CHeap, CObject, CStatics, CValue, ClassOf, ObjId, StaticKey};
pub use vm::{DEFAULT_XMX, JVM_OPTIONS_VAR};
