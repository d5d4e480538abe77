//! Running one method of the analysed program in a `tracer.InstrumentingLoader` (all classes
//! of the given class path entries instrumented on load; `<clinit>` runs uninstrumented, and
//! the entry class is initialised before recording starts), inputs built through JNI, the calls
//! made by `tracer.Runner` on its own Java thread, then the recorder's buffers pulled and
//! decoded. Runs are serialised process-wide (the recorder is global).
//!
//! Runs come in batches ([`trace_batch`]): one JNI session builds many inputs, `Runner.runBatch`
//! runs them one after the other on one Java thread and leaves one record per run in a single
//! `int[]`, read in place (each run's buffers copied once). Loaders and instrumented classes
//! are cached: each distinct class file is instrumented once per process, and the loader of a
//! class path serves the next run as long as every class it has defined is stateless (no
//! static initializer, no `putstatic`), so that every run starts from the initial static state
//! as a fresh loader would give it; otherwise the batch ends after that run and the next one
//! gets a fresh loader (see `InstrumentingLoader.java`).

use std::path::PathBuf;

use jni::{jni_sig, jni_str};

use crate::decode::{decode, Raw};
use crate::error::JvmError;
use crate::input::ConcreteInput;
use crate::jni_ext::JniResultExt;
use crate::options::TraceOptions;
use crate::session::{clear, session, RawRun, RunTarget};
use crate::tables::Tables;
use crate::trace::{Trace, TraceEnd};
use crate::vm::jvm;

/// Inputs built per JNI session at most (each session is one Java thread and one pull).
const MAX_BATCH: usize = 256;

/// An uninstrumented run (for overhead measurements).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainRun {
    /// How it ended (reference results carry an id that is only meaningful as "not null").
    pub end: TraceEnd,
    /// Wall time of the Java call itself.
    pub run_nanos: u64,
}

/// Traces `class.method desc` (internal names) on `input`, with every class found in
/// `classpath_entries` (directories and jars) instrumented.
pub fn trace_method(
    classpath_entries: &[PathBuf],
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
) -> Result<Trace, JvmError> {
    let mut r = trace_batch(
        classpath_entries,
        class,
        method,
        desc,
        std::slice::from_ref(input),
        opts,
    );
    r.pop()
        .unwrap_or_else(|| Err(JvmError::Decode("a batch of one gave no run".into())))
}

/// The class path entries of a `:`-separated class path (directories and jars), as the
/// tracer instruments them.
pub fn classpath_entries(classpath: &str) -> Vec<PathBuf> {
    classpath
        .split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Traces `class.method desc` on every input, in order: the result for input `k` is what
/// [`trace_method`] would give for it (each run starts from the classes' initial static state),
/// but many runs share one JNI session and one Java thread.
pub fn trace_batch(
    classpath_entries: &[PathBuf],
    class: &str,
    method: &str,
    desc: &str,
    inputs: &[ConcreteInput],
    opts: &TraceOptions,
) -> Vec<Result<Trace, JvmError>> {
    let verify = opts.verify_replay.is_some();
    let target = RunTarget {
        classpath_entries,
        class,
        method,
        desc,
        opts,
        record: true,
    };
    runs(&target, inputs, |tables, run| {
        let (data, verified_snapshots) = decode(Raw {
            trace: run.trace,
            heap: run.heap,
            snapshots: run.snapshots,
            statics: run.statics,
            strings: &tables.strings,
            methods: tables.methods.clone(),
        })?;
        if verify && verified_snapshots == 0 && data.len() > 8 {
            return Err(JvmError::Decode(
                "verify_replay: the recorder took no snapshot".into(),
            ));
        }
        Ok(Trace {
            end: run.end,
            data,
            verified_snapshots,
            run_nanos: run.run_nanos,
        })
    })
}

/// Runs the method once, uninstrumented (same inputs as a trace; the loader is cached under
/// the same rules as for traced runs).
pub fn run_plain(
    classpath_entries: &[PathBuf],
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
) -> Result<PlainRun, JvmError> {
    let target = RunTarget {
        classpath_entries,
        class,
        method,
        desc,
        opts,
        record: false,
    };
    let mut r = runs(&target, std::slice::from_ref(input), |_, run| {
        Ok(PlainRun {
            end: run.end,
            run_nanos: run.run_nanos,
        })
    });
    r.pop()
        .unwrap_or_else(|| Err(JvmError::Decode("a batch of one gave no run".into())))
}

/// Counters of the tracer's caches, process-wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TracerStats {
    /// Class loaders created for runs (a stateless program reuses one per class path).
    pub loaders_created: u32,
    /// Class files instrumented (each distinct content once per process).
    pub classes_instrumented: u32,
}

/// The current [`TracerStats`] (starts the JVM if needed).
pub fn tracer_stats() -> Result<TracerStats, JvmError> {
    let jvm = jvm()?;
    let _tables = jvm.lock();
    jvm.vm.attach_current_thread(|env| {
        let loaders = env
            .call_static_method(
                &jvm.runner,
                jni_str!("loadersCreated"),
                jni_sig!("()I"),
                &[],
            )
            .and_then(|v| v.i())
            .ctx(env, "loadersCreated")?;
        let classes = env
            .call_static_method(
                &jvm.instrumenter,
                jni_str!("instrumentedCount"),
                jni_sig!("()I"),
                &[],
            )
            .and_then(|v| v.i())
            .ctx(env, "instrumentedCount")?;
        Ok(TracerStats {
            loaders_created: loaders as u32,
            classes_instrumented: classes as u32,
        })
    })
}

/// Runs every input in as few sessions as the loader rules allow; `finish` turns each raw run
/// into the caller's result (with the string and method tables pulled for it).
fn runs<T>(
    target: &RunTarget<'_>,
    inputs: &[ConcreteInput],
    mut finish: impl FnMut(&Tables, RawRun) -> Result<T, JvmError>,
) -> Vec<Result<T, JvmError>> {
    let jvm = match jvm() {
        Ok(j) => j,
        Err(e) => return inputs.iter().map(|_| Err(e.clone())).collect(),
    };
    let mut tables = jvm.lock();
    let mut out: Vec<Result<T, JvmError>> = Vec::with_capacity(inputs.len());
    while out.len() < inputs.len() {
        let rest = &inputs[out.len()..inputs.len().min(out.len() + MAX_BATCH)];
        let r = jvm.vm.attach_current_thread(|env| {
            env.with_local_frame(64, |env| {
                let r = session(env, jvm, &mut tables, target, rest);
                // Drop buffers and references kept on the Java side, whatever happened.
                let _ = clear(env, jvm);
                r
            })
        });
        match r {
            Ok(done) => {
                debug_assert!(!done.is_empty());
                for d in done {
                    out.push(d.and_then(|raw| finish(&tables, raw)));
                }
            }
            Err(e) => {
                // an error of the method or the JVM: the same for every remaining input
                while out.len() < inputs.len() {
                    out.push(Err(e.clone()));
                }
            }
        }
    }
    out
}
