//! The one embedded JVM of the process (created on first use behind a `OnceLock`, shared by
//! all runs and tests; a JVM cannot be re-created). `libjvm.so` is found by
//! [`crate::locate`]. The tracer classes are embedded in the binary (see `build.rs`) and
//! defined through JNI into a dedicated class loader whose parent, the system loader, holds
//! Debian's ASM jars.
//!
//! The JVM's heap is bounded ([`DEFAULT_XMX`], `-Xmx`) so that a program cannot take the
//! machine: its allocations past the bound end its run with an `OutOfMemoryError`, a per-run
//! outcome. `JTG_JVM_OPTIONS` (whitespace-separated JVM options, read once when the JVM starts)
//! comes after jtg's own options and so overrides them, e.g. `JTG_JVM_OPTIONS=-Xmx4g`.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use jni::objects::{JClass, JClassLoader, JObject, JValue};
use jni::refs::Global;
use jni::strings::JNIString;
use jni::{jni_sig, jni_str, InitArgsBuilder, JNIVersion, JavaVM};

use crate::error::JvmError;
use crate::jni_ext::{jni_err, JniResultExt};
use crate::locate::locate_libjvm;
use crate::tables::Tables;

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

/// The embedded JVM's maximum heap (`-Xmx`) unless `JTG_JVM_OPTIONS` sets another.
pub const DEFAULT_XMX: &str = "512m";

/// The environment variable whose JVM options follow jtg's own.
pub const JVM_OPTIONS_VAR: &str = "JTG_JVM_OPTIONS";

/// `JTG_JVM_OPTIONS`, split at whitespace.
fn user_options() -> Vec<String> {
    std::env::var(JVM_OPTIONS_VAR)
        .map(|v| v.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// A JVM that cannot start with the user's options (`JTG_JVM_OPTIONS=-Xmx1m`) ends the whole
/// process from inside `JNI_CreateJavaVM` with its own exit code; so the options are first
/// tried on the `java` launcher beside `libjvm` (`java OPTIONS -version`), and a refusal is a
/// [`JvmError::JvmStart`] naming the option's problem. Without a launcher nothing is probed.
fn probe_user_options(libjvm: &Path) -> Result<(), JvmError> {
    let options = user_options();
    if options.is_empty() {
        return Ok(());
    }
    // JAVA_HOME/lib/server/libjvm.so → JAVA_HOME/bin/java
    let Some(java) = libjvm
        .ancestors()
        .nth(3)
        .map(|home| home.join("bin").join("java"))
        .filter(|j| j.is_file())
    else {
        return Ok(());
    };
    let Ok(out) = std::process::Command::new(&java)
        .args(&options)
        .arg("-version")
        .stdin(std::process::Stdio::null())
        .output()
    else {
        return Ok(());
    };
    if out.status.success() {
        return Ok(());
    }
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    let why: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Error: Could not create the Java Virtual Machine")
        })
        .filter(|l| !l.starts_with("Error occurred during initialization of VM"))
        .filter(|l| !l.starts_with("Error: A fatal exception has occurred"))
        .collect();
    Err(JvmError::JvmStart(format!(
        "{JVM_OPTIONS_VAR}={}: {}",
        options.join(" "),
        if why.is_empty() {
            "the JVM does not start with these options".to_string()
        } else {
            why.join("; ")
        }
    )))
}

static JVM: OnceLock<Result<Jvm, JvmError>> = OnceLock::new();

/// The process's JVM, started on first use.
pub(crate) fn jvm() -> Result<&'static Jvm, JvmError> {
    JVM.get_or_init(start).as_ref().map_err(Clone::clone)
}

impl Jvm {
    /// Serialises runs; a poisoned lock (a panicking caller) is recovered.
    pub(crate) fn lock(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn start() -> Result<Jvm, JvmError> {
    let libjvm = locate_libjvm()?;
    for jar in classes::ASM_JARS {
        if !Path::new(jar).is_file() {
            return Err(JvmError::AsmMissing(PathBuf::from(jar)));
        }
    }
    probe_user_options(&libjvm)?;
    let mut args = InitArgsBuilder::new()
        .version(JNIVersion::V1_8)
        .option(format!("-Djava.class.path={}", classes::ASM_JARS.join(":")))
        .option("-Xshare:auto")
        // reduced signal use: the JVM leaves SIGINT (Ctrl-C) to jtg, which stops a long run
        // after its current unit, with the summary so far and the --resume command
        .option("-Xrs")
        // assertions of program classes enabled: `assert` runs (and may throw AssertionError);
        // an input's `$assertionsDisabled` = 1 disables them for its class in its run's loader
        // (`Runner.loaderFor`), which the engine's `[0,1]` for `desiredAssertionStatus()` allows
        .option("-ea")
        // HotSpot prints its own warnings (tty, unified logging) to stdout by default, which
        // would corrupt jtg's JSON/text output: e.g. "Potentially dangerous stack overflow in
        // ReservedStackAccess annotated method" when a traced run overflows inside a lock.
        .option("-XX:+DisplayVMOutputToStderr")
        .option("-Xlog:all=warning:stderr")
        // no hsperfdata file: HotSpot makes it (and removes stale ones) after `fchdir` into
        // /tmp/hsperfdata_USER, changing the working directory of the whole process for a
        // moment; a corpus worker building a graph then read its relative class path in the
        // wrong folder and built another graph (one without the classes of the class path)
        .option("-XX:-UsePerfData")
        .option(format!("-Xmx{DEFAULT_XMX}"));
    if cfg!(debug_assertions) {
        args = args.option("-Xcheck:jni");
    }
    for o in user_options() {
        args = args.option(o);
    }
    let args = args
        .build()
        .map_err(|e| JvmError::JvmStart(e.to_string()))?;
    let vm = JavaVM::with_libjvm(args, || Ok(libjvm.clone()))
        .map_err(|e| JvmError::JvmStart(format!("{} ({})", e, libjvm.display())))?;
    let (runner, recorder, instrumenter) =
        vm.attach_current_thread(|env| -> Result<_, JvmError> {
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
                        JvmError::JvmStart("cannot define tracer classes".into())
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
                        JvmError::JvmStart(format!("tracer class {n} missing from the build"))
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
