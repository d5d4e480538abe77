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
use std::sync::Arc;

use jni::objects::{JIntArray, JObject, JValue};
use jni::{jni_sig, jni_str, Env};

use crate::decode::{MethodMeta, Raw, TraceData};
use crate::error::HarnessError;
use crate::input::{self, ConcreteInput};
use crate::jvm::{jvm, string_array, JniResultExt, Jvm, Tables};
use crate::trace::{CValue, ObjId, Trace, TraceEnd};

const RETURNED: i32 = 0;
const THREW: i32 = 1;
const CUT: i32 = 2;

/// Options of a traced run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Step budget; the run is cut (and the prefix kept) when it is exhausted.
    pub max_steps: u64,
    /// Test mode: with `Some(seed)` the recorder takes full heap snapshots at pseudo-random
    /// steps and the decoder checks the replayed heap against each (`ReplayMismatch` if not).
    pub verify_replay: Option<u64>,
    /// Stack size of the Java thread the method runs on (0 = the JVM default, 1 MiB on
    /// x86-64 Linux). Deep recursion ends as `Threw java/lang/StackOverflowError`.
    pub thread_stack_bytes: u64,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_steps: 100_000,
            verify_replay: None,
            thread_stack_bytes: 0,
        }
    }
}

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
) -> Result<Trace, HarnessError> {
    let mut r = trace_batch(
        classpath_entries,
        class,
        method,
        desc,
        std::slice::from_ref(input),
        opts,
    );
    r.pop()
        .unwrap_or_else(|| Err(HarnessError::Decode("a batch of one gave no run".into())))
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
) -> Vec<Result<Trace, HarnessError>> {
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
        let (data, verified_snapshots) = TraceData::decode(Raw {
            trace: run.trace,
            heap: run.heap,
            snapshots: run.snapshots,
            strings: &tables.strings,
            methods: tables.methods.clone(),
        })?;
        if verify && verified_snapshots == 0 && data.len() > 8 {
            return Err(HarnessError::Decode(
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
) -> Result<PlainRun, HarnessError> {
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
        .unwrap_or_else(|| Err(HarnessError::Decode("a batch of one gave no run".into())))
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
pub fn tracer_stats() -> Result<TracerStats, HarnessError> {
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

/// What every run of a batch shares.
struct RunTarget<'a> {
    classpath_entries: &'a [PathBuf],
    class: &'a str,
    method: &'a str,
    desc: &'a str,
    opts: &'a TraceOptions,
    record: bool,
}

/// One run's record from `Runner.batchBuffer`.
struct RawRun {
    end: TraceEnd,
    run_nanos: u64,
    trace: Vec<i32>,
    heap: Vec<i32>,
    snapshots: Vec<i32>,
}

/// Inputs built per JNI session at most (each session is one Java thread and one pull).
const MAX_BATCH: usize = 256;
/// Ints of the per-run record header (see `Runner.java`).
const RECORD_HEADER: usize = 12;

/// Runs every input in as few sessions as the loader rules allow; `finish` turns each raw run
/// into the caller's result (with the string and method tables pulled for it).
fn runs<T>(
    target: &RunTarget<'_>,
    inputs: &[ConcreteInput],
    mut finish: impl FnMut(&Tables, RawRun) -> Result<T, HarnessError>,
) -> Vec<Result<T, HarnessError>> {
    let jvm = match jvm() {
        Ok(j) => j,
        Err(e) => return inputs.iter().map(|_| Err(e.clone())).collect(),
    };
    let mut tables = jvm.lock();
    let mut out: Vec<Result<T, HarnessError>> = Vec::with_capacity(inputs.len());
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

/// One JNI session: the loader, the entry class, as many inputs as can be built (up to the
/// first that cannot), one `Runner.runBatch`, one pull. Returns one result per input run
/// (at least one); `Err` is an error common to all inputs (class, method, JVM).
fn session<'l>(
    env: &mut Env<'l>,
    jvm: &Jvm,
    tables: &mut Tables,
    t: &RunTarget<'_>,
    inputs: &[ConcreteInput],
) -> Result<Vec<Result<RawRun, HarnessError>>, HarnessError> {
    let runner = &jvm.runner;
    let (class, method, desc) = (t.class, t.method, t.desc);
    let _ = take_failures(env, jvm)?; // stale failures of an earlier run
                                      // loader
    let entries = env
        .new_object_array(
            t.classpath_entries.len() as i32,
            jni_str!("java/lang/String"),
            JObject::null(),
        )
        .ctx(env, "class path array")?;
    for (i, e) in t.classpath_entries.iter().enumerate() {
        let s = env
            .new_string(e.to_string_lossy())
            .ctx(env, "class path entry")?;
        entries
            .set_element(env, i, &s)
            .ctx(env, "class path array")?;
        env.delete_local_ref(s);
    }
    let loader = env
        .call_static_method(
            runner,
            jni_str!("loaderFor"),
            jni_sig!("([Ljava/lang/String;Z)Ljava/lang/ClassLoader;"),
            &[JValue::Object(&entries), JValue::Bool(t.record)],
        )
        .and_then(|v| v.l())
        .ctx(env, "getting the run's class loader")?;
    // entry class + arity
    let cname = env.new_string(class).ctx(env, "class name")?;
    let cls = env
        .call_static_method(
            runner,
            jni_str!("classFor"),
            jni_sig!("(Ljava/lang/ClassLoader;Ljava/lang/String;)Ljava/lang/Class;"),
            &[JValue::Object(&loader), JValue::Object(&cname)],
        )
        .and_then(|v| v.l())
        .map_err(|e| match crate::jvm::jni_err(env, "", e) {
            HarnessError::Jni { message, .. } => HarnessError::BadInput(format!(
                "class {class} not found in {:?}: {message}",
                t.classpath_entries
            )),
            other => other,
        });
    instrumentation_failures(env, jvm)?;
    let cls = cls?;
    let mname = env.new_string(method).ctx(env, "method name")?;
    let mdesc = env.new_string(desc).ctx(env, "method descriptor")?;
    let arity = env
        .call_static_method(
            runner,
            jni_str!("arity"),
            jni_sig!("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;)I"),
            &[
                JValue::Object(&cls),
                JValue::Object(&mname),
                JValue::Object(&mdesc),
            ],
        )
        .and_then(|v| v.i())
        .map_err(|e| match crate::jvm::jni_err(env, "", e) {
            HarnessError::Jni { message, .. } => {
                HarnessError::BadInput(format!("no method {class}.{method}{desc}: {message}"))
            }
            other => other,
        })?;
    // inputs, up to the first that cannot be built
    let n = inputs.len();
    let all_prims = env
        .new_object_array(n as i32, jni_str!("[J"), JObject::null())
        .ctx(env, "argument arrays")?;
    let all_refs = env
        .new_object_array(n as i32, jni_str!("[Ljava/lang/Object;"), JObject::null())
        .ctx(env, "argument arrays")?;
    let mut built = 0;
    let mut failed = None;
    for input in inputs {
        if arity as usize != input.args.len() {
            failed = Some(HarnessError::BadInput(format!(
                "{class}.{method}{desc} takes {arity} argument values (incl. `this` for instance methods), got {}",
                input.args.len()
            )));
            break;
        }
        let r = env.with_local_frame(input.heap.len() + 64, |env| {
            let args = input::build(env, runner, &loader, input)?;
            all_prims
                .set_element(env, built, &args.prims)
                .ctx(env, "argument arrays")?;
            all_refs
                .set_element(env, built, &args.refs)
                .ctx(env, "argument arrays")?;
            Ok::<_, HarnessError>(())
        });
        if let Err(e) = r {
            failed = Some(match instrumentation_failures(env, jvm) {
                Err(f) => f,
                Ok(()) => e,
            });
            break;
        }
        built += 1;
    }
    if built == 0 {
        return Ok(vec![Err(failed.unwrap_or_else(|| {
            HarnessError::Decode("no input to run".into())
        }))]);
    }
    let opts = t.opts;
    let done = env
        .call_static_method(
            runner,
            jni_str!("runBatch"),
            jni_sig!("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;[[J[[Ljava/lang/Object;IJZJJZ)I"),
            &[
                JValue::Object(&cls),
                JValue::Object(&mname),
                JValue::Object(&mdesc),
                JValue::Object(&all_prims),
                JValue::Object(&all_refs),
                JValue::Int(built as i32),
                JValue::Long(opts.max_steps.min(i64::MAX as u64) as i64),
                JValue::Bool(opts.verify_replay.is_some()),
                JValue::Long(opts.verify_replay.unwrap_or(0) as i64),
                JValue::Long(opts.thread_stack_bytes.min(i64::MAX as u64) as i64),
                JValue::Bool(t.record),
            ],
        )
        .and_then(|v| v.i())
        .ctx(env, "running the method")?;
    let done = usize::try_from(done)
        .ok()
        .filter(|d| (1..=built).contains(d))
        .ok_or_else(|| HarnessError::Decode(format!("runBatch ran {done} of {built} inputs")))?;
    let late_failure = instrumentation_failures(env, jvm).err();
    // pull: the records, then the string and method tables they refer to
    // in place, each run's buffers copied once into a vector of their own
    let o = env
        .call_static_method(runner, jni_str!("batchBuffer"), jni_sig!("()[I"), &[])
        .and_then(|v| v.l())
        .ctx(env, "batchBuffer")?;
    let n = env
        .call_static_method(runner, jni_str!("batchLength"), jni_sig!("()I"), &[])
        .and_then(|v| v.i())
        .ctx(env, "batchLength")?;
    let recs = env.cast_local::<JIntArray>(o).ctx(env, "run records")?;
    let len = usize::try_from(n)
        .ok()
        .filter(|&n| recs.len(env).is_ok_and(|l| n <= l))
        .ok_or_else(|| HarnessError::Decode(format!("run records: bad length {n}")))?;
    pull_strings(env, jvm, tables)?;
    pull_methods(env, jvm, tables)?;
    let mut fetch = |start: usize, n: usize| -> Result<Option<Vec<i32>>, HarnessError> {
        if start.checked_add(n).is_none_or(|end| end > len) {
            return Ok(None);
        }
        let mut buf = vec![0i32; n];
        if n > 0 {
            recs.get_region(env, start as i32, &mut buf)
                .ctx(env, "run records")?;
        }
        Ok(Some(buf))
    };
    let mut out = Vec::with_capacity(done);
    let mut p = 0usize;
    for _ in 0..done {
        out.push(read_record(&mut fetch, &mut p, tables, t));
    }
    if p != len {
        return Err(HarnessError::Decode(format!(
            "run records: {} ints left over after {done} runs",
            len.saturating_sub(p)
        )));
    }
    // a class the last run loaded could not be instrumented (that run ended the batch)
    if let (Some(f), Some(last)) = (late_failure, out.last_mut()) {
        *last = Err(f);
    }
    Ok(out)
}

/// Reads one run record at `*p` (see `Runner.java` for the layout).
fn read_record(
    recs: &mut dyn FnMut(usize, usize) -> Result<Option<Vec<i32>>, HarnessError>,
    p: &mut usize,
    tables: &Tables,
    t: &RunTarget<'_>,
) -> Result<RawRun, HarnessError> {
    let bad = |what: &str| HarnessError::Decode(format!("run record: {what}"));
    let h = recs(*p, RECORD_HEADER)?.ok_or_else(|| bad("truncated header"))?;
    let long = |hi: i32, lo: i32| ((hi as u32 as u64) << 32) | lo as u32 as u64;
    let (kind, bits, result_id, thrown_id) = (h[0], long(h[1], h[2]), h[3], h[4]);
    let string = |i: i32| -> Result<Option<String>, HarnessError> {
        if i < 0 {
            return Ok(None);
        }
        tables
            .strings
            .get(i as usize)
            .cloned()
            .map(Some)
            .ok_or_else(|| bad("bad string index"))
    };
    let (thrown_class, thrown_text) = (string(h[5])?, string(h[6])?);
    let run_nanos = long(h[7], h[8]);
    let lens = [h[9], h[10], h[11]].map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    *p += RECORD_HEADER;
    let mut take = |n: usize| -> Result<Vec<i32>, HarnessError> {
        let s = recs(*p, n)?.ok_or_else(|| bad("truncated buffers"))?;
        *p += n;
        Ok(s)
    };
    let (trace, heap, snapshots) = (take(lens[0])?, take(lens[1])?, take(lens[2])?);
    let end = match kind {
        RETURNED => {
            let ret = t.desc.rsplit_once(')').map(|(_, r)| r).unwrap_or("V");
            TraceEnd::Returned(match ret.as_bytes().first() {
                Some(b'V') | None => None,
                Some(b'Z' | b'B' | b'C' | b'S' | b'I') => Some(CValue::Int(bits as i32)),
                Some(b'J') => Some(CValue::Long(bits as i64)),
                Some(b'F') => Some(CValue::Float(bits as u32)),
                Some(b'D') => Some(CValue::Double(bits)),
                Some(_) => match result_id {
                    0 => Some(CValue::Null),
                    id => Some(CValue::Ref(ObjId(id as u32))),
                },
            })
        }
        THREW => {
            let class = thrown_class.unwrap_or_default();
            if t.record && class == "java/lang/VerifyError" {
                return Err(HarnessError::Instrumentation(format!(
                    "instrumented code failed verification: {}",
                    thrown_text.unwrap_or_default()
                )));
            }
            TraceEnd::Threw {
                class,
                obj: (thrown_id > 0).then_some(ObjId(thrown_id as u32)),
            }
        }
        CUT => TraceEnd::Cut {
            max_steps: t.opts.max_steps,
        },
        k => return Err(HarnessError::Decode(format!("unknown run end kind {k}"))),
    };
    Ok(RawRun {
        end,
        run_nanos,
        trace,
        heap,
        snapshots,
    })
}

/// `Runner.clear()`: drops the buffers and references of the last batch.
fn clear(env: &mut Env<'_>, jvm: &Jvm) -> Result<(), HarnessError> {
    env.call_static_method(&jvm.runner, jni_str!("clear"), jni_sig!("()V"), &[])
        .map(|_| ())
        .ctx(env, "clear")
}

fn method_count(env: &mut Env<'_>, jvm: &Jvm) -> Result<i32, HarnessError> {
    env.call_static_method(
        &jvm.instrumenter,
        jni_str!("methodCount"),
        jni_sig!("()I"),
        &[],
    )
    .and_then(|v| v.i())
    .ctx(env, "methodCount")
}

/// Instrumentation failures since the last call (`Instrumenter.takeFailures`).
fn take_failures(env: &mut Env<'_>, jvm: &Jvm) -> Result<Option<String>, HarnessError> {
    let o = env
        .call_static_method(
            &jvm.instrumenter,
            jni_str!("takeFailures"),
            jni_sig!("()Ljava/lang/String;"),
            &[],
        )
        .and_then(|v| v.l())
        .ctx(env, "takeFailures")?;
    if o.is_null() {
        return Ok(None);
    }
    let s = env
        .cast_local::<jni::objects::JString>(o)
        .ctx(env, "takeFailures")?;
    Ok(Some(s.try_to_string(env).ctx(env, "takeFailures")?))
}

fn int_array(env: &mut Env<'_>, o: JObject<'_>, what: &str) -> Result<Vec<i32>, HarnessError> {
    let a = env.cast_local::<JIntArray>(o).ctx(env, what)?;
    let n = a.len(env).ctx(env, what)?;
    let mut buf = vec![0i32; n];
    a.get_region(env, 0, &mut buf).ctx(env, what)?;
    env.delete_local_ref(a);
    Ok(buf)
}

fn instrumentation_failures(env: &mut Env<'_>, jvm: &Jvm) -> Result<(), HarnessError> {
    match take_failures(env, jvm)? {
        Some(f) => Err(HarnessError::Instrumentation(f)),
        None => Ok(()),
    }
}

/// Pulls the string table entries added since the last pull.
fn pull_strings(env: &mut Env<'_>, jvm: &Jvm, tables: &mut Tables) -> Result<(), HarnessError> {
    let start = tables.strings.len() as i32;
    let o = env
        .call_static_method(
            &jvm.recorder,
            jni_str!("stringsFrom"),
            jni_sig!("(I)[Ljava/lang/String;"),
            &[JValue::Int(start)],
        )
        .and_then(|v| v.l())
        .ctx(env, "stringsFrom")?;
    let new = string_array(env, o, "string table")?;
    tables.strings.extend(new);
    Ok(())
}

/// Pulls the method table entries registered since the last pull (after the strings: a
/// method's facts refer to them).
fn pull_methods(env: &mut Env<'_>, jvm: &Jvm, tables: &mut Tables) -> Result<(), HarnessError> {
    let known = tables.methods.len() as i32;
    let count = method_count(env, jvm)?;
    if count <= known {
        return Ok(());
    }
    let mut new = Vec::with_capacity((count - known) as usize);
    for mid in known..count {
        let name = env
            .call_static_method(
                &jvm.instrumenter,
                jni_str!("methodName"),
                jni_sig!("(I)Ljava/lang/String;"),
                &[JValue::Int(mid)],
            )
            .and_then(|v| v.l())
            .ctx(env, "methodName")?;
        let name = env
            .cast_local::<jni::objects::JString>(name)
            .ctx(env, "methodName")?;
        let name_s = name.try_to_string(env).ctx(env, "methodName")?;
        env.delete_local_ref(name);
        let info = env
            .call_static_method(
                &jvm.instrumenter,
                jni_str!("methodInfo"),
                jni_sig!("(I)[I"),
                &[JValue::Int(mid)],
            )
            .and_then(|v| v.l())
            .ctx(env, "methodInfo")?;
        let info = int_array(env, info, "method info")?;
        new.push(Arc::new(MethodMeta::parse(
            &name_s,
            &info,
            &tables.strings,
        )?));
    }
    Arc::make_mut(&mut tables.methods).extend(new);
    Ok(())
}
