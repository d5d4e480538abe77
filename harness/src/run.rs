//! Running one method of the analysed program: a fresh `tracer.InstrumentingLoader` per run
//! (all classes of the given class path entries instrumented on load; `<clinit>` runs
//! uninstrumented, and the entry class is initialised before recording starts), inputs built
//! through JNI, the call made by `tracer.Runner` on its own Java thread, then the recorder's
//! buffers pulled and decoded. Runs are serialised process-wide (the recorder is global).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use jni::objects::{JClass, JIntArray, JObject, JValue};
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
    let jvm = jvm()?;
    let mut tables = jvm.lock();
    jvm.vm.attach_current_thread(|env| {
        env.with_local_frame(input.heap.len() + 128, |env| {
            let r = run_in(
                env,
                jvm,
                classpath_entries,
                class,
                method,
                desc,
                input,
                opts,
                true,
            )
            .and_then(|(end, run_nanos, m0)| {
                pull_and_decode(
                    env,
                    jvm,
                    &mut tables,
                    end,
                    run_nanos,
                    m0,
                    opts.verify_replay.is_some(),
                )
            });
            // Drop buffers and references kept on the Java side, whatever happened.
            let _ = call_void(env, &jvm.runner, "clear");
            r
        })
    })
}

/// Runs the method once, uninstrumented, through a fresh loader (same inputs as a trace).
pub fn run_plain(
    classpath_entries: &[PathBuf],
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
) -> Result<PlainRun, HarnessError> {
    let jvm = jvm()?;
    let _tables = jvm.lock();
    jvm.vm.attach_current_thread(|env| {
        env.with_local_frame(input.heap.len() + 128, |env| {
            let r = run_in(
                env,
                jvm,
                classpath_entries,
                class,
                method,
                desc,
                input,
                opts,
                false,
            );
            let _ = call_void(env, &jvm.runner, "clear");
            let (end, run_nanos, _) = r?;
            Ok(PlainRun { end, run_nanos })
        })
    })
}

fn call_void(
    env: &mut Env<'_>,
    class: &JClass<'static>,
    name: &'static str,
) -> Result<(), HarnessError> {
    let r = match name {
        "clear" => env.call_static_method(class, jni_str!("clear"), jni_sig!("()V"), &[]),
        _ => return Ok(()),
    };
    r.map(|_| ()).ctx(env, name)
}

fn static_int(
    env: &mut Env<'_>,
    class: &JClass<'static>,
    which: &str,
) -> Result<i32, HarnessError> {
    let r = match which {
        "methodCount" => {
            env.call_static_method(class, jni_str!("methodCount"), jni_sig!("()I"), &[])
        }
        "resultId" => env.call_static_method(class, jni_str!("resultId"), jni_sig!("()I"), &[]),
        "thrownId" => env.call_static_method(class, jni_str!("thrownId"), jni_sig!("()I"), &[]),
        _ => return Err(HarnessError::Decode(format!("no static int {which}"))),
    };
    r.and_then(|v| v.i()).ctx(env, which)
}

fn static_string(
    env: &mut Env<'_>,
    class: &JClass<'static>,
    which: &str,
) -> Result<Option<String>, HarnessError> {
    let r = match which {
        "thrownClass" => env.call_static_method(
            class,
            jni_str!("thrownClass"),
            jni_sig!("()Ljava/lang/String;"),
            &[],
        ),
        "thrownText" => env.call_static_method(
            class,
            jni_str!("thrownText"),
            jni_sig!("()Ljava/lang/String;"),
            &[],
        ),
        "takeFailures" => env.call_static_method(
            class,
            jni_str!("takeFailures"),
            jni_sig!("()Ljava/lang/String;"),
            &[],
        ),
        _ => return Err(HarnessError::Decode(format!("no static string {which}"))),
    };
    let o = r.and_then(|v| v.l()).ctx(env, which)?;
    if o.is_null() {
        return Ok(None);
    }
    let s = env.cast_local::<jni::objects::JString>(o).ctx(env, which)?;
    Ok(Some(s.try_to_string(env).ctx(env, which)?))
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
    match static_string(env, &jvm.instrumenter, "takeFailures")? {
        Some(f) => Err(HarnessError::Instrumentation(f)),
        None => Ok(()),
    }
}

/// Creates the loader, builds the input, runs. Returns (end, run nanos, first method id of this run).
#[allow(clippy::too_many_arguments)]
fn run_in<'l>(
    env: &mut Env<'l>,
    jvm: &Jvm,
    classpath_entries: &[PathBuf],
    class: &str,
    method: &str,
    desc: &str,
    input: &ConcreteInput,
    opts: &TraceOptions,
    record: bool,
) -> Result<(TraceEnd, u64, i32), HarnessError> {
    let runner = &jvm.runner;
    let _ = static_string(env, &jvm.instrumenter, "takeFailures")?; // stale failures of an earlier run
    let m0 = static_int(env, &jvm.instrumenter, "methodCount")?;
    // loader
    let entries = env
        .new_object_array(
            classpath_entries.len() as i32,
            jni_str!("java/lang/String"),
            JObject::null(),
        )
        .ctx(env, "class path array")?;
    for (i, e) in classpath_entries.iter().enumerate() {
        let s = env
            .new_string(e.to_string_lossy())
            .ctx(env, "class path entry")?;
        entries
            .set_element(env, i, &s)
            .ctx(env, "class path array")?;
    }
    let loader = env
        .call_static_method(
            runner,
            jni_str!("newLoader"),
            jni_sig!("([Ljava/lang/String;Z)Ljava/lang/ClassLoader;"),
            &[JValue::Object(&entries), JValue::Bool(record)],
        )
        .and_then(|v| v.l())
        .ctx(env, "creating the run's class loader")?;
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
                "class {class} not found in {classpath_entries:?}: {message}"
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
    if arity as usize != input.args.len() {
        return Err(HarnessError::BadInput(format!(
            "{class}.{method}{desc} takes {arity} argument values (incl. `this` for instance methods), got {}",
            input.args.len()
        )));
    }
    let args = input::build(env, runner, &loader, input)?;
    let kind = env
        .call_static_method(
            runner,
            jni_str!("run"),
            jni_sig!("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;[J[Ljava/lang/Object;JZJJZ)I"),
            &[
                JValue::Object(&cls),
                JValue::Object(&mname),
                JValue::Object(&mdesc),
                JValue::Object(&args.prims),
                JValue::Object(&args.refs),
                JValue::Long(opts.max_steps.min(i64::MAX as u64) as i64),
                JValue::Bool(opts.verify_replay.is_some()),
                JValue::Long(opts.verify_replay.unwrap_or(0) as i64),
                JValue::Long(opts.thread_stack_bytes.min(i64::MAX as u64) as i64),
                JValue::Bool(record),
            ],
        )
        .and_then(|v| v.i())
        .ctx(env, "running the method")?;
    instrumentation_failures(env, jvm)?;
    let run_nanos = env
        .call_static_method(runner, jni_str!("runNanos"), jni_sig!("()J"), &[])
        .and_then(|v| v.j())
        .ctx(env, "run time")? as u64;
    let end = match kind {
        RETURNED => {
            let ret = desc.rsplit_once(')').map(|(_, r)| r).unwrap_or("V");
            let bits = env
                .call_static_method(runner, jni_str!("resultBits"), jni_sig!("()J"), &[])
                .and_then(|v| v.j())
                .ctx(env, "result")?;
            TraceEnd::Returned(match ret.as_bytes().first() {
                Some(b'V') | None => None,
                Some(b'Z' | b'B' | b'C' | b'S' | b'I') => Some(CValue::Int(bits as i32)),
                Some(b'J') => Some(CValue::Long(bits)),
                Some(b'F') => Some(CValue::Float(bits as u32)),
                Some(b'D') => Some(CValue::Double(bits as u64)),
                Some(_) => match static_int(env, runner, "resultId")? {
                    0 => Some(CValue::Null),
                    id => Some(CValue::Ref(ObjId(id as u32))),
                },
            })
        }
        THREW => {
            let class = static_string(env, runner, "thrownClass")?.unwrap_or_default();
            if record && class == "java/lang/VerifyError" {
                let text = static_string(env, runner, "thrownText")?.unwrap_or_default();
                return Err(HarnessError::Instrumentation(format!(
                    "instrumented code failed verification: {text}"
                )));
            }
            let id = static_int(env, runner, "thrownId")?;
            TraceEnd::Threw {
                class,
                obj: (id > 0).then_some(ObjId(id as u32)),
            }
        }
        CUT => TraceEnd::Cut {
            max_steps: opts.max_steps,
        },
        k => return Err(HarnessError::Decode(format!("unknown run end kind {k}"))),
    };
    Ok((end, run_nanos, m0))
}

fn pull_and_decode(
    env: &mut Env<'_>,
    jvm: &Jvm,
    tables: &mut Tables,
    end: TraceEnd,
    run_nanos: u64,
    m0: i32,
    verify: bool,
) -> Result<Trace, HarnessError> {
    let rec = &jvm.recorder;
    let t0 = Instant::now();
    let o = env
        .call_static_method(rec, jni_str!("takeTrace"), jni_sig!("()[I"), &[])
        .and_then(|v| v.l());
    let o = o.ctx(env, "takeTrace")?;
    let trace = int_array(env, o, "trace buffer")?;
    let o = env
        .call_static_method(rec, jni_str!("takeHeap"), jni_sig!("()[I"), &[])
        .and_then(|v| v.l());
    let o = o.ctx(env, "takeHeap")?;
    let heap = int_array(env, o, "heap log")?;
    let o = env
        .call_static_method(rec, jni_str!("takeSnapshots"), jni_sig!("()[I"), &[])
        .and_then(|v| v.l());
    let o = o.ctx(env, "takeSnapshots")?;
    let snapshots = int_array(env, o, "snapshots")?;
    let start = tables.strings.len() as i32;
    let o = env
        .call_static_method(
            rec,
            jni_str!("stringsFrom"),
            jni_sig!("(I)[Ljava/lang/String;"),
            &[JValue::Int(start)],
        )
        .and_then(|v| v.l())
        .ctx(env, "stringsFrom")?;
    let new = string_array(env, o, "string table")?;
    tables.strings.extend(new);
    let m1 = static_int(env, &jvm.instrumenter, "methodCount")?;
    let mut methods = HashMap::new();
    for mid in m0..m1 {
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
        let name = name_s;
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
        methods.insert(
            mid as u32,
            Arc::new(MethodMeta::parse(&name, &info, &tables.strings)?),
        );
    }
    let pulled = t0.elapsed();
    let (data, verified_snapshots) = TraceData::decode(Raw {
        trace,
        heap,
        snapshots,
        strings: &tables.strings,
        methods,
    })?;
    if verify && verified_snapshots == 0 && data.len() > 8 {
        return Err(HarnessError::Decode(
            "verify_replay: the recorder took no snapshot".into(),
        ));
    }
    tracing::debug!(steps = data.len(), ?pulled, decoded = ?t0.elapsed(), "trace pulled");
    Ok(Trace {
        end,
        data,
        verified_snapshots,
        run_nanos,
    })
}
