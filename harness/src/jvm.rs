//! The one embedded JVM of the process (created on first use behind a `OnceLock`, shared by
//! all runs and tests; a JVM cannot be re-created). `libjvm.so` comes from `JAVA_HOME` if it
//! is set (and must be found there), else from the `java` on `PATH` (symlinks followed).
//! The tracer classes are embedded in the binary (see `build.rs`) and defined through JNI into
//! a dedicated class loader whose parent, the system loader, holds Debian's ASM jars.

use std::env;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use jni::objects::{JClass, JClassLoader, JObject, JObjectArray, JString, JValue};
use jni::refs::Global;
use jni::strings::JNIString;
use jni::{jni_sig, jni_str, Env, InitArgsBuilder, JNIVersion, JavaVM};

use crate::error::HarnessError;

mod classes {
    include!(concat!(env!("OUT_DIR"), "/tracer_classes.rs"));
}

/// The embedded JVM with the tracer runtime loaded.
pub(crate) struct Jvm {
    pub vm: JavaVM,
    pub runner: Global<JClass<'static>>,
    pub recorder: Global<JClass<'static>>,
    pub instrumenter: Global<JClass<'static>>,
    /// Held for the whole of a run: the recorder is process-global, so runs are serialised.
    tables: Mutex<Tables>,
}

/// Process-wide tables mirrored from the Java side.
#[derive(Default)]
pub(crate) struct Tables {
    /// `Recorder.strings`, pulled incrementally.
    pub strings: Vec<String>,
    /// The instrumenter's method table, pulled incrementally.
    pub methods: crate::decode::MethodTable,
}

static JVM: OnceLock<Result<Jvm, HarnessError>> = OnceLock::new();

/// The process's JVM, started on first use.
pub(crate) fn jvm() -> Result<&'static Jvm, HarnessError> {
    JVM.get_or_init(start).as_ref().map_err(Clone::clone)
}

impl Jvm {
    /// Serialises runs; a poisoned lock (a panicking caller) is recovered.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

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
pub fn locate_libjvm() -> Result<PathBuf, HarnessError> {
    if let Some(home) = env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let home = PathBuf::from(home);
        if !home.is_dir() {
            return Err(HarnessError::JvmNotFound {
                path: home,
                reason: "JAVA_HOME is not a directory".into(),
            });
        }
        return libjvm_under(&home).ok_or_else(|| HarnessError::JvmNotFound {
            path: home,
            reason: format!("JAVA_HOME has no {}", LIBJVM_CANDIDATES.join(" / ")),
        });
    }
    let path = env::var_os("PATH").unwrap_or_default();
    let java = env::split_paths(&path)
        .map(|d| d.join("java"))
        .find(|p| p.is_file())
        .ok_or(HarnessError::NoJava)?;
    let real = java.canonicalize().map_err(|e| HarnessError::JvmNotFound {
        path: java.clone(),
        reason: e.to_string(),
    })?;
    // .../bin/java -> ...
    let home = real
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    libjvm_under(&home).ok_or_else(|| HarnessError::JvmNotFound {
        path: real.clone(),
        reason: format!("no libjvm.so under {}", home.display()),
    })
}

/// Maps a JNI failure to a [`HarnessError`], taking (and clearing) a pending Java exception.
pub(crate) fn jni_err(env: &mut Env<'_>, context: &str, e: jni::errors::Error) -> HarnessError {
    let mut message = e.to_string();
    if let Some(t) = env.exception_occurred() {
        env.exception_clear();
        if let Ok(s) = env
            .call_method(
                &t,
                jni_str!("toString"),
                jni_sig!("()Ljava/lang/String;"),
                &[],
            )
            .and_then(|v| v.l())
            .and_then(|o| env.cast_local::<JString>(o))
            .and_then(|s| s.try_to_string(env))
        {
            message = s;
        }
        env.exception_clear();
    }
    HarnessError::Jni {
        context: context.to_string(),
        message,
    }
}

/// Extension: `.ctx(env, "what")` on JNI results.
pub(crate) trait JniResultExt<T> {
    fn ctx(self, env: &mut Env<'_>, context: &str) -> Result<T, HarnessError>;
}

impl<T> JniResultExt<T> for jni::errors::Result<T> {
    fn ctx(self, env: &mut Env<'_>, context: &str) -> Result<T, HarnessError> {
        self.map_err(|e| jni_err(env, context, e))
    }
}

/// Reads a Java `String[]` (null elements become empty strings).
pub(crate) fn string_array(
    env: &mut Env<'_>,
    arr: JObject<'_>,
    context: &str,
) -> Result<Vec<String>, HarnessError> {
    if arr.is_null() {
        return Ok(Vec::new());
    }
    let arr = env
        .cast_local::<JObjectArray<JString>>(arr)
        .ctx(env, context)?;
    let n = arr.len(env).ctx(env, context)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let s: JString = arr.get_element(env, i).ctx(env, context)?;
        let v = if s.is_null() {
            String::new()
        } else {
            s.try_to_string(env).ctx(env, context)?
        };
        env.delete_local_ref(s);
        out.push(v);
    }
    Ok(out)
}

fn start() -> Result<Jvm, HarnessError> {
    let libjvm = locate_libjvm()?;
    for jar in classes::ASM_JARS {
        if !Path::new(jar).is_file() {
            return Err(HarnessError::AsmMissing(PathBuf::from(jar)));
        }
    }
    let mut args = InitArgsBuilder::new()
        .version(JNIVersion::V1_8)
        .option(format!("-Djava.class.path={}", classes::ASM_JARS.join(":")))
        .option("-Xshare:auto")
        // HotSpot prints its own warnings (tty, unified logging) to stdout by default, which
        // would corrupt jtg's JSON/text output: e.g. "Potentially dangerous stack overflow in
        // ReservedStackAccess annotated method" when a traced run overflows inside a lock.
        .option("-XX:+DisplayVMOutputToStderr")
        .option("-Xlog:all=warning:stderr");
    if cfg!(debug_assertions) {
        args = args.option("-Xcheck:jni");
    }
    let args = args
        .build()
        .map_err(|e| HarnessError::JvmStart(e.to_string()))?;
    let vm = JavaVM::with_libjvm(args, || Ok(libjvm.clone()))
        .map_err(|e| HarnessError::JvmStart(format!("{} ({})", e, libjvm.display())))?;
    let (runner, recorder, instrumenter) =
        vm.attach_current_thread(|env| -> Result<_, HarnessError> {
            let sys = JClassLoader::get_system_class_loader(env)
                .ctx(env, "getting the system class loader")?;
            let urls = env
                .new_object_array(0, jni_str!("java/net/URL"), JObject::null())
                .ctx(env, "new URL[0]")?;
            let loader = env
                .new_object(
                    jni_str!("java/net/URLClassLoader"),
                    jni_sig!("([Ljava/net/URL;Ljava/lang/ClassLoader;)V"),
                    &[JValue::Object(&urls), JValue::Object(&sys)],
                )
                .ctx(env, "creating the tracer class loader")?;
            let loader = env
                .cast_local::<JClassLoader>(loader)
                .ctx(env, "casting the tracer loader")?;
            // Define in dependency order: retry classes whose supertypes are not defined yet.
            let mut pending: Vec<(&str, &[u8])> = classes::TRACER_CLASSES.to_vec();
            let mut defined: Vec<(&str, Global<JClass<'static>>)> = Vec::new();
            while !pending.is_empty() {
                let before = pending.len();
                let mut last_err = None;
                let mut rest = Vec::new();
                for (name, bytes) in pending {
                    match env.define_class(Some(JNIString::new(name)), &loader, bytes) {
                        Ok(c) => {
                            let g = env
                                .new_global_ref(&c)
                                .ctx(env, "global ref to a tracer class")?;
                            defined.push((name, g));
                        }
                        Err(e) => {
                            last_err = Some(jni_err(env, &format!("defining {name}"), e));
                            rest.push((name, bytes));
                        }
                    }
                }
                if rest.len() == before {
                    return Err(last_err.unwrap_or_else(|| {
                        HarnessError::JvmStart("cannot define tracer classes".into())
                    }));
                }
                pending = rest;
            }
            let mut take = |n: &str| {
                defined
                    .iter()
                    .position(|(d, _)| *d == n)
                    .map(|i| defined.swap_remove(i).1)
                    .ok_or_else(|| {
                        HarnessError::JvmStart(format!("tracer class {n} missing from the build"))
                    })
            };
            Ok((
                take("tracer/Runner")?,
                take("tracer/Recorder")?,
                take("tracer/Instrumenter")?,
            ))
        })?;
    Ok(Jvm {
        vm,
        runner,
        recorder,
        instrumenter,
        tables: Mutex::new(Tables::default()),
    })
}
