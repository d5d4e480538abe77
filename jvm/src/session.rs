//! One JNI session of a batch of runs: the run's class loader, the entry class and method,
//! the inputs built through JNI, one `Runner.runBatch`, and the run records pulled from the
//! batch buffer (docs/trace-wire.md, "Run records").

use std::path::PathBuf;

use jni::objects::{JIntArray, JObject, JValue};
use jni::{jni_sig, jni_str, Env};

use crate::build_input;
use crate::decode::read_statics;
use crate::error::JvmError;
use crate::input::ConcreteInput;
use crate::jni_ext::{jni_err, nullable_string, JniResultExt};
use crate::options::TraceOptions;
use crate::tables::{pull_methods, pull_strings, Tables};
use crate::trace::{Budget, TraceEnd};
use crate::values::{CValue, ObjId, StaticKey};
use crate::vm::Jvm;

/// Run end kinds of a record (`Runner.RETURNED`, …).
const RETURNED: i32 = 0;
const THREW: i32 = 1;
const CUT: i32 = 2;
const CUT_HEAP: i32 = 3;

/// What every run of a batch shares.
pub(crate) struct RunTarget<'a> {
    pub classpath_entries: &'a [PathBuf],
    pub class: &'a str,
    pub method: &'a str,
    pub desc: &'a str,
    pub opts: &'a TraceOptions,
    pub record: bool,
}

/// One run's record from `Runner.batchBuffer`.
pub(crate) struct RawRun {
    pub end: TraceEnd,
    pub run_nanos: u64,
    pub trace: Vec<i32>,
    pub heap: Vec<i32>,
    pub snapshots: Vec<i32>,
    /// The static fields the input set before the run, as the input names them.
    pub statics: Vec<(StaticKey, CValue)>,
}

/// Ints of the per-run record header (see `Runner.java`).
const RECORD_HEADER: usize = 13;

/// One JNI session: the loader, the entry class, as many inputs as can be built (up to the
/// first that cannot), one `Runner.runBatch`, one pull. Returns one result per input run
/// (at least one); `Err` is an error common to all inputs (class, method, JVM).
pub(crate) fn session<'l>(
    env: &mut Env<'l>,
    jvm: &Jvm,
    tables: &mut Tables,
    t: &RunTarget<'_>,
    inputs: &[ConcreteInput],
) -> Result<Vec<Result<RawRun, JvmError>>, JvmError> {
    let runner = &jvm.runner;
    // one loader serves one assertion status per class: the inputs up to the first that asks
    // for another
    let assertions = assertion_status(&inputs[0]);
    let same = inputs
        .iter()
        .take_while(|i| assertion_status(i) == assertions)
        .count();
    let inputs = &inputs[..same];
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
    let status = env
        .new_object_array(
            assertions.len() as i32,
            jni_str!("java/lang/String"),
            JObject::null(),
        )
        .ctx(env, "assertion status array")?;
    for (i, a) in assertions.iter().enumerate() {
        let s = env.new_string(a).ctx(env, "assertion status")?;
        status
            .set_element(env, i, &s)
            .ctx(env, "assertion status array")?;
        env.delete_local_ref(s);
    }
    let loader = env
        .call_static_method(
            runner,
            jni_str!("loaderFor"),
            jni_sig!("([Ljava/lang/String;Z[Ljava/lang/String;)Ljava/lang/ClassLoader;"),
            &[
                JValue::Object(&entries),
                JValue::Bool(t.record),
                JValue::Object(&status),
            ],
        )
        .and_then(|v| v.l())
        .ctx(env, "getting the run's class loader")?;
    let out = with_loader(env, jvm, tables, t, inputs, &loader);
    // the loader's session ends whatever happened in it (`Runner.release`: a loader out of
    // the cache closes its jars)
    let released = env
        .call_static_method(
            runner,
            jni_str!("release"),
            jni_sig!("(Ljava/lang/ClassLoader;)V"),
            &[JValue::Object(&loader)],
        )
        .ctx(env, "releasing the run's class loader");
    released?;
    match out? {
        Batch::Ran(runs) => Ok(runs),
        // the inputs before input k were built in a loader whose class initialiser was cut
        // since: they run in a fresh one (the loader is single-use now), k in the next session
        Batch::CutAt(k) => session(env, jvm, tables, t, &inputs[..k]),
    }
}

/// What a session's loader did: the runs of its batch, or nothing since building input k
/// (k > 0) started a class initialiser that the step budget cut, which leaves the class failed
/// in the loader where inputs 0..k would run.
enum Batch {
    Ran(Vec<Result<RawRun, JvmError>>),
    CutAt(usize),
}

/// The run of an input whose building started a class initialiser that did not end within
/// the step budget: like a run cut in its entry class's initialiser, no step.
fn cut_in_initializer(t: &RunTarget<'_>) -> RawRun {
    RawRun {
        end: TraceEnd::Cut {
            budget: Budget::Steps(t.opts.max_steps),
        },
        run_nanos: 0,
        trace: Vec::new(),
        heap: Vec::new(),
        snapshots: Vec::new(),
        statics: Vec::new(),
    }
}

/// The part of a [`session`] that runs on its loader: the entry class, the inputs, the batch
/// and the pull.
fn with_loader<'l>(
    env: &mut Env<'l>,
    jvm: &Jvm,
    tables: &mut Tables,
    t: &RunTarget<'_>,
    inputs: &[ConcreteInput],
    loader: &JObject<'l>,
) -> Result<Batch, JvmError> {
    let runner = &jvm.runner;
    let (class, method, desc) = (t.class, t.method, t.desc);
    // entry class + arity
    let cname = env.new_string(class).ctx(env, "class name")?;
    let cls = env
        .call_static_method(
            runner,
            jni_str!("classFor"),
            jni_sig!("(Ljava/lang/ClassLoader;Ljava/lang/String;)Ljava/lang/Class;"),
            &[JValue::Object(loader), JValue::Object(&cname)],
        )
        .and_then(|v| v.l())
        .map_err(|e| match jni_err(env, "", e) {
            JvmError::Jni { message, .. } if message.contains("UnsupportedClassVersionError") => {
                let why = message
                    .split_once("UnsupportedClassVersionError: ")
                    .map_or(message.as_str(), |(_, why)| why);
                JvmError::ClassVersion(format!(
                    "class {class}: {why} (compile it with an older --release, or run jtg with \
                     a newer JDK as JAVA_HOME)"
                ))
            }
            JvmError::Jni { message, .. } => JvmError::BadInput(format!(
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
        .map_err(|e| match jni_err(env, "", e) {
            JvmError::Jni { message, .. } => {
                JvmError::BadInput(format!("no method {class}.{method}{desc}: {message}"))
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
    let all_statics = env
        .new_object_array(n as i32, jni_str!("[Ljava/lang/Object;"), JObject::null())
        .ctx(env, "argument arrays")?;
    let mut built = 0;
    let mut failed = None;
    if t.record {
        env.call_static_method(
            runner,
            jni_str!("beginInputs"),
            jni_sig!("(J)V"),
            &[JValue::Long(t.opts.max_steps.min(i64::MAX as u64) as i64)],
        )
        .ctx(env, "beginInputs")?;
    }
    for input in inputs {
        if arity as usize != input.args.len() {
            failed = Some(JvmError::BadInput(format!(
                "{class}.{method}{desc} takes {arity} argument values (incl. `this` for instance methods), got {}",
                input.args.len()
            )));
            break;
        }
        let r = env.with_local_frame(input.heap.len() + 64, |env| {
            let args = build_input::build(env, runner, loader, input)?;
            all_prims
                .set_element(env, built, &args.prims)
                .ctx(env, "argument arrays")?;
            all_refs
                .set_element(env, built, &args.refs)
                .ctx(env, "argument arrays")?;
            all_statics
                .set_element(env, built, &args.statics)
                .ctx(env, "argument arrays")?;
            Ok::<_, JvmError>(())
        });
        if let Err(e) = r {
            let cut = env
                .call_static_method(
                    runner,
                    jni_str!("inputsCut"),
                    jni_sig!("(Ljava/lang/ClassLoader;)Z"),
                    &[JValue::Object(loader)],
                )
                .and_then(|v| v.z())
                .ctx(env, "inputsCut")?;
            if cut {
                return Ok(match built {
                    0 => Batch::Ran(vec![Ok(cut_in_initializer(t))]),
                    k => Batch::CutAt(k),
                });
            }
            failed = Some(match instrumentation_failures(env, jvm) {
                Err(f) => f,
                Ok(()) => e,
            });
            break;
        }
        built += 1;
    }
    if built == 0 {
        return Ok(Batch::Ran(vec![Err(
            failed.unwrap_or_else(|| JvmError::Decode("no input to run".into()))
        )]));
    }
    let opts = t.opts;
    let done = env
        .call_static_method(
            runner,
            jni_str!("runBatch"),
            jni_sig!("(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/String;[[J[[Ljava/lang/Object;[[Ljava/lang/Object;IJJZJJZ)I"),
            &[
                JValue::Object(&cls),
                JValue::Object(&mname),
                JValue::Object(&mdesc),
                JValue::Object(&all_prims),
                JValue::Object(&all_refs),
                JValue::Object(&all_statics),
                JValue::Int(built as i32),
                JValue::Long(opts.max_steps.min(i64::MAX as u64) as i64),
                JValue::Long(opts.max_heap.min(i64::MAX as u64) as i64),
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
        .ok_or_else(|| JvmError::Decode(format!("runBatch ran {done} of {built} inputs")))?;
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
        .ok_or_else(|| JvmError::Decode(format!("run records: bad length {n}")))?;
    pull_strings(env, &jvm.recorder, tables)?;
    pull_methods(env, &jvm.instrumenter, tables)?;
    let mut fetch = |start: usize, n: usize| -> Result<Option<Vec<i32>>, JvmError> {
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
        return Err(JvmError::Decode(format!(
            "run records: {} ints left over after {done} runs",
            len.saturating_sub(p)
        )));
    }
    // a class the last run loaded could not be instrumented (that run ended the batch)
    if let (Some(f), Some(last)) = (late_failure, out.last_mut()) {
        *last = Err(f);
    }
    Ok(Batch::Ran(out))
}

/// The name javac gives a class's assertion status field (`!desiredAssertionStatus()`).
pub const ASSERTIONS_DISABLED: &str = "$assertionsDisabled";

/// The assertion status the input asks of each class by its `$assertionsDisabled` static, as
/// `Runner.loaderFor` takes it: `+a/B` (0: enabled) or `-a/B` (1: disabled), sorted. The field
/// is final and never set: the run's loader gives the class that status, and `Runner.runOne`
/// checks that the class got the input's value (any other value fails the batch there).
fn assertion_status(input: &ConcreteInput) -> Vec<String> {
    input
        .statics
        .iter()
        .filter(|(k, _)| k.name == ASSERTIONS_DISABLED)
        .filter_map(|(k, v)| match v {
            CValue::Int(0) => Some(format!("+{}", k.class)),
            CValue::Int(1) => Some(format!("-{}", k.class)),
            _ => None,
        })
        .collect()
}

/// Reads one run record at `*p` (see `Runner.java` for the layout).
fn read_record(
    recs: &mut dyn FnMut(usize, usize) -> Result<Option<Vec<i32>>, JvmError>,
    p: &mut usize,
    tables: &Tables,
    t: &RunTarget<'_>,
) -> Result<RawRun, JvmError> {
    let bad = |what: &str| JvmError::Decode(format!("run record: {what}"));
    let h = recs(*p, RECORD_HEADER)?.ok_or_else(|| bad("truncated header"))?;
    let long = |hi: i32, lo: i32| ((hi as u32 as u64) << 32) | lo as u32 as u64;
    let (kind, bits, result_id, thrown_id) = (h[0], long(h[1], h[2]), h[3], h[4]);
    let string = |i: i32| -> Result<Option<String>, JvmError> {
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
    let lens = [h[9], h[10], h[11], h[12]].map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    *p += RECORD_HEADER;
    let mut take = |n: usize| -> Result<Vec<i32>, JvmError> {
        let s = recs(*p, n)?.ok_or_else(|| bad("truncated buffers"))?;
        *p += n;
        Ok(s)
    };
    let (trace, heap, snapshots) = (take(lens[0])?, take(lens[1])?, take(lens[2])?);
    let statics = read_statics(&take(lens[3])?, &tables.strings)?;
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
                return Err(JvmError::Instrumentation(format!(
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
            budget: Budget::Steps(t.opts.max_steps),
        },
        CUT_HEAP => TraceEnd::Cut {
            budget: Budget::Heap(t.opts.max_heap),
        },
        k => return Err(JvmError::Decode(format!("unknown run end kind {k}"))),
    };
    Ok(RawRun {
        end,
        run_nanos,
        trace,
        heap,
        snapshots,
        statics,
    })
}

/// `Runner.clear()`: drops the buffers and references of the last batch.
pub(crate) fn clear(env: &mut Env<'_>, jvm: &Jvm) -> Result<(), JvmError> {
    env.call_static_method(&jvm.runner, jni_str!("clear"), jni_sig!("()V"), &[])
        .map(|_| ())
        .ctx(env, "clear")
}

/// Instrumentation failures since the last call (`Instrumenter.takeFailures`).
fn take_failures(env: &mut Env<'_>, jvm: &Jvm) -> Result<Option<String>, JvmError> {
    let o = env
        .call_static_method(
            &jvm.instrumenter,
            jni_str!("takeFailures"),
            jni_sig!("()Ljava/lang/String;"),
            &[],
        )
        .and_then(|v| v.l())
        .ctx(env, "takeFailures")?;
    nullable_string(env, o, "takeFailures")
}

fn instrumentation_failures(env: &mut Env<'_>, jvm: &Jvm) -> Result<(), JvmError> {
    match take_failures(env, jvm)? {
        Some(f) => Err(JvmError::Instrumentation(f)),
        None => Ok(()),
    }
}
