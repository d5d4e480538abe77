//! Small JNI helpers: failures mapped to [`JvmError`] with the pending Java exception's text,
//! and reading Java arrays.

use jni::objects::{JIntArray, JObject, JObjectArray, JString};
use jni::{jni_sig, jni_str, Env};

use crate::error::JvmError;

/// Maps a JNI failure to a [`JvmError`], taking (and clearing) a pending Java exception.
pub(crate) fn jni_err(env: &mut Env<'_>, context: &str, e: jni::errors::Error) -> JvmError {
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
    JvmError::Jni {
        context: context.to_string(),
        message,
    }
}

/// Extension: `.ctx(env, "what")` on JNI results.
pub(crate) trait JniResultExt<T> {
    fn ctx(self, env: &mut Env<'_>, context: &str) -> Result<T, JvmError>;
}

impl<T> JniResultExt<T> for jni::errors::Result<T> {
    fn ctx(self, env: &mut Env<'_>, context: &str) -> Result<T, JvmError> {
        self.map_err(|e| jni_err(env, context, e))
    }
}

/// Reads a Java `String` that may be `null`.
pub(crate) fn nullable_string(
    env: &mut Env<'_>,
    o: JObject<'_>,
    context: &str,
) -> Result<Option<String>, JvmError> {
    if o.is_null() {
        return Ok(None);
    }
    let s = env.cast_local::<JString>(o).ctx(env, context)?;
    Ok(Some(s.try_to_string(env).ctx(env, context)?))
}

/// Reads a Java `String[]` (null elements become empty strings).
pub(crate) fn string_array(
    env: &mut Env<'_>,
    arr: JObject<'_>,
    context: &str,
) -> Result<Vec<String>, JvmError> {
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

/// Reads a Java `int[]`.
pub(crate) fn int_array(
    env: &mut Env<'_>,
    o: JObject<'_>,
    what: &str,
) -> Result<Vec<i32>, JvmError> {
    let a = env.cast_local::<JIntArray>(o).ctx(env, what)?;
    let n = a.len(env).ctx(env, what)?;
    let mut buf = vec![0i32; n];
    a.get_region(env, 0, &mut buf).ctx(env, what)?;
    env.delete_local_ref(a);
    Ok(buf)
}
