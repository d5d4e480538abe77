//! The process-wide tables mirrored from the Java side, pulled incrementally after each batch:
//! the recorder's string table and the instrumenter's method table.

use std::sync::Arc;

use jni::objects::{JClass, JValue};
use jni::{jni_sig, jni_str, Env};

use crate::decode::{MethodMeta, MethodTable};
use crate::error::JvmError;
use crate::jni_ext::{int_array, string_array, JniResultExt};

/// Process-wide tables mirrored from the Java side.
#[derive(Default)]
pub(crate) struct Tables {
    /// `Recorder.strings`, pulled incrementally.
    pub strings: Vec<String>,
    /// The instrumenter's method table, pulled incrementally.
    pub methods: MethodTable,
}

fn method_count(env: &mut Env<'_>, instrumenter: &JClass<'static>) -> Result<i32, JvmError> {
    env.call_static_method(instrumenter, jni_str!("methodCount"), jni_sig!("()I"), &[])
        .and_then(|v| v.i())
        .ctx(env, "methodCount")
}

/// Pulls the string table entries added since the last pull.
pub(crate) fn pull_strings(
    env: &mut Env<'_>,
    recorder: &JClass<'static>,
    tables: &mut Tables,
) -> Result<(), JvmError> {
    let start = tables.strings.len() as i32;
    let o = env
        .call_static_method(
            recorder,
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
pub(crate) fn pull_methods(
    env: &mut Env<'_>,
    instrumenter: &JClass<'static>,
    tables: &mut Tables,
) -> Result<(), JvmError> {
    let known = tables.methods.len() as i32;
    let count = method_count(env, instrumenter)?;
    if count <= known {
        return Ok(());
    }
    let mut new = Vec::with_capacity((count - known) as usize);
    for mid in known..count {
        let name = env
            .call_static_method(
                instrumenter,
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
                instrumenter,
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
