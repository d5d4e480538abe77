//! Concrete inputs built through JNI: every object of a [`ConcreteInput`]'s heap is created
//! with `AllocObject` (no constructor runs) and its fields are set by JNI field ids, so cycles
//! and sharing come out exactly as described. Strings are built as `"aaa…"` of the given
//! length; arrays (primitive, object, `String[]`, nested) with `New*Array`; an
//! `java.lang.Integer` may be given its `value` (a fresh box, never a cached one); an object of
//! an enum class is the JVM's constant of its `ordinal`, read from the class's static field.

use std::collections::HashMap;

use jni::objects::{JClass, JObject, JObjectArray, JString, JValue};
use jni::signature::RuntimeFieldSignature;
use jni::strings::JNIString;
use jni::sys::jsize;
use jni::{jni_sig, jni_str, Env};

use crate::error::JvmError;
use crate::input::ConcreteInput;
use crate::jni_ext::{jni_err, nullable_string, string_array, JniResultExt};
use crate::values::{CObject, CValue, Elems, ObjId};

fn bad(msg: impl Into<String>) -> JvmError {
    JvmError::BadInput(msg.into())
}

/// One instance field as the JVM knows it.
struct FieldDesc {
    key: String,
    declaring: String,
    name: String,
    desc: String,
}

/// `java.lang.Integer` and `java.util.Optional`: the JDK classes whose field an input may set
/// (the recorder lists no field of a JDK class but through `Library.java`,
/// `Recorder.instanceFields`).
const BOX_CLASS: &str = "java/lang/Integer";
const OPTIONAL_CLASS: &str = "java/util/Optional";
/// `java.util.Random`: built by its constructor (the model keeps no field of it).
const RANDOM_CLASS: &str = "java/util/Random";

/// The field an input sets of the JDK class `class`, a box's `value` or an `Optional`'s:
/// private and final, which JNI's `Set…Field` writes all the same (on an object `AllocObject`
/// made, before any code sees it). An `Optional` made so without a value is empty but not the
/// JDK's one `EMPTY` object, as the engine's model allows (every empty `Optional` the state
/// holds may be it, `=?`).
fn jdk_field(class: &str) -> Option<FieldDesc> {
    let desc = match class {
        BOX_CLASS => "I",
        OPTIONAL_CLASS => "Ljava/lang/Object;",
        _ => return None,
    };
    Some(FieldDesc {
        key: "value".into(),
        declaring: class.into(),
        name: "value".into(),
        desc: desc.into(),
    })
}

/// The JDK collections an input may hold (`Runner.collection` builds them): an instance of one
/// lists its `size` and its elements `e0`, `e1`, … (ints, boxed as `Integer`s), none of which
/// is a field of the JDK's class.
const COLLECTIONS: [&str; 11] = [
    "java/util/ArrayList",
    "java/util/LinkedList",
    "java/util/ArrayDeque",
    "java/util/HashSet",
    "java/util/HashMap",
    "java/util/TreeMap",
    "java/util/LinkedHashSet",
    "java/util/LinkedHashMap",
    "java/util/TreeSet",
    "java/util/Stack",
    "java/util/PriorityQueue",
];

/// `java.lang.StringBuilder`: an input lists its length as `count` (the recorder's field,
/// `Library.java`), which is no field of the JDK's class; it is built by its constructor.
const BUILDER_CLASS: &str = "java/lang/StringBuilder";

/// A new `StringBuilder` of `count` characters (`a`s: the model keeps no contents).
fn builder_of_length<'l>(
    env: &mut Env<'l>,
    class: &str,
    fields: &std::collections::BTreeMap<String, CValue>,
    ctx: &str,
) -> Result<JObject<'l>, JvmError> {
    let len = match fields.get("count") {
        Some(CValue::Int(n)) if *n >= 0 => *n as usize,
        other => return Err(bad(format!("{class} with count {other:?}"))),
    };
    let text: JObject<'l> = env.new_string("a".repeat(len)).ctx(env, ctx)?.into();
    env.new_object(
        jni_str!("java/lang/StringBuilder"),
        jni_sig!("(Ljava/lang/String;)V"),
        &[JValue::Object(&text)],
    )
    .ctx(env, ctx)
}

/// The longest string, builder or array an input may hold: 2²⁴ characters or elements (an
/// input is built in the JVM, and its string first in jtg: a length of 2·10⁹ took 4 GB before
/// the JVM refused it).
const MAX_INPUT_LENGTH: usize = 1 << 24;

/// Refuses an input whose strings, builders or arrays are longer than [`MAX_INPUT_LENGTH`],
/// before anything is allocated.
fn check_lengths(input: &ConcreteInput) -> Result<(), JvmError> {
    for (id, o) in &input.heap {
        let (what, len) = match o {
            CObject::Str { len } => ("string", i64::from(*len)),
            CObject::Instance { class, fields } if class == BUILDER_CLASS => {
                match fields.get("count") {
                    Some(CValue::Int(n)) => ("StringBuilder", i64::from(*n)),
                    _ => continue,
                }
            }
            CObject::Array { elems, .. } => ("array", elems.len() as i64),
            CObject::Instance { .. } => continue,
        };
        if len > MAX_INPUT_LENGTH as i64 {
            return Err(bad(format!(
                "input object {id}: a {what} of length {len}, longer than an input may be ({MAX_INPUT_LENGTH})"
            )));
        }
    }
    Ok(())
}

/// The elements of an input collection's fields: `e0 … e{size-1}`.
fn collection_elements(
    class: &str,
    fields: &std::collections::BTreeMap<String, CValue>,
) -> Result<Vec<i32>, JvmError> {
    let size = match fields.get("size") {
        Some(CValue::Int(n)) if *n >= 0 => *n as usize,
        other => return Err(bad(format!("collection {class} with size {other:?}"))),
    };
    (0..size)
        .map(|k| match fields.get(&format!("e{k}")) {
            Some(CValue::Int(v)) => Ok(*v),
            other => Err(bad(format!(
                "collection {class}: element e{k} is {other:?}"
            ))),
        })
        .collect()
}

/// The ordinal an input object lists as `java.lang.Enum`'s field (`ordinal`, or
/// `java/lang/Enum.ordinal` where its class declares a field `ordinal` too).
fn enum_ordinal(fields: &std::collections::BTreeMap<String, CValue>) -> Option<i32> {
    match fields
        .get("java/lang/Enum.ordinal")
        .or_else(|| fields.get("ordinal"))
    {
        Some(CValue::Int(k)) => Some(*k),
        _ => None,
    }
}

/// An input object of an enum class is one of its constants, never a new object (javac makes
/// none, and the engine's model of `java.lang.Enum` relies on it): the constant of ordinal `k`,
/// read from the enum's static field by `Runner.enumConstant` (which initialises the class).
/// `None` when `class` is not below `java.lang.Enum`.
fn enum_constant<'l>(
    env: &mut Env<'l>,
    runner: &JClass<'static>,
    c: &JClass<'l>,
    k: i32,
    class: &str,
) -> Result<Option<JObject<'l>>, JvmError> {
    let got = env.call_static_method(
        runner,
        jni_str!("enumConstant"),
        jni_sig!("(Ljava/lang/Class;I)Ljava/lang/Object;"),
        &[JValue::Object(c), JValue::Int(k)],
    );
    match got.and_then(|v| v.l()) {
        Ok(o) if o.is_null() => Ok(None),
        Ok(o) => Ok(Some(o)),
        Err(e) => Err(match jni_err(env, "", e) {
            JvmError::Jni { message, .. } => {
                JvmError::BadInput(format!("enum constant {k} of {class}: {message}"))
            }
            other => other,
        }),
    }
}

/// Arguments ready for `Runner.runBatch`: raw bits of primitives, the reference arguments and
/// the static fields to set (`Field, value, Field, value, …`).
pub(crate) struct BuiltArgs<'l> {
    pub prims: jni::objects::JLongArray<'l>,
    pub refs: JObjectArray<'l>,
    pub statics: JObjectArray<'l>,
}

/// Raw bits of a primitive value as `Runner.run` expects them.
fn bits(v: &CValue) -> i64 {
    match *v {
        CValue::Int(x) => x as i64,
        CValue::Long(x) => x,
        CValue::Float(b) => b as i64,
        CValue::Double(b) => b as i64,
        _ => 0,
    }
}

struct Builder<'a, 'l> {
    runner: &'a JClass<'static>,
    /// The run's loader (a reference of an enclosing local frame).
    loader: &'a JObject<'a>,
    classes: HashMap<String, JClass<'l>>,
    layouts: HashMap<String, Vec<FieldDesc>>,
}

impl<'l> Builder<'_, 'l> {
    /// Class by internal name or array descriptor, through the run's loader.
    fn class(&mut self, env: &mut Env<'l>, internal: &str) -> Result<JClass<'l>, JvmError> {
        if let Some(c) = self.classes.get(internal) {
            return env.new_local_ref(c).ctx(env, "local class ref");
        }
        let name = env.new_string(internal).ctx(env, "class name")?;
        let ctx = format!("loading class {internal}");
        let c = env
            .call_static_method(
                self.runner,
                jni_str!("classFor"),
                jni_sig!("(Ljava/lang/ClassLoader;Ljava/lang/String;)Ljava/lang/Class;"),
                &[JValue::Object(self.loader), JValue::Object(&name)],
            )
            .and_then(|v| v.l())
            .ctx(env, &ctx)?;
        let c = env.cast_local::<JClass>(c).ctx(env, &ctx)?;
        let keep = env.new_local_ref(&c).ctx(env, &ctx)?;
        self.classes.insert(internal.to_string(), keep);
        Ok(c)
    }

    fn class_for_desc(&mut self, env: &mut Env<'l>, desc: &str) -> Result<JClass<'l>, JvmError> {
        match desc.as_bytes().first() {
            Some(b'L') if desc.ends_with(';') => self.class(env, &desc[1..desc.len() - 1]),
            Some(b'[') => self.class(env, desc),
            _ => Err(bad(format!(
                "element descriptor {desc:?} is not a reference type"
            ))),
        }
    }

    fn layout(&mut self, env: &mut Env<'l>, class: &str) -> Result<&[FieldDesc], JvmError> {
        if let Some(f) = jdk_field(class).filter(|_| !self.layouts.contains_key(class)) {
            self.layouts.insert(class.to_string(), vec![f]);
        }
        if !self.layouts.contains_key(class) {
            let c = self.class(env, class)?;
            let arr = env
                .call_static_method(
                    self.runner,
                    jni_str!("fieldsOf"),
                    jni_sig!("(Ljava/lang/Class;)[Ljava/lang/String;"),
                    &[JValue::Object(&c)],
                )
                .and_then(|v| v.l())
                .ctx(env, &format!("listing fields of {class}"))?;
            let s = string_array(env, arr, "reading field names")?;
            let fields = s
                .chunks_exact(4)
                .map(|c| FieldDesc {
                    key: c[0].clone(),
                    declaring: c[1].clone(),
                    name: c[2].clone(),
                    desc: c[3].clone(),
                })
                .collect();
            self.layouts.insert(class.to_string(), fields);
        }
        Ok(&self.layouts[class])
    }
}

/// A JNI value for field descriptor `desc` from `v` (objects looked up in `objs`).
fn jvalue<'o>(
    desc: &str,
    v: &CValue,
    objs: &'o HashMap<ObjId, JObject<'_>>,
    null: &'o JObject<'_>,
) -> Option<JValue<'o>> {
    Some(match (desc.as_bytes().first()?, v) {
        (b'Z', CValue::Int(x)) => JValue::Bool(*x != 0),
        (b'B', CValue::Int(x)) => JValue::Byte(*x as i8),
        (b'C', CValue::Int(x)) => JValue::Char(*x as u16),
        (b'S', CValue::Int(x)) => JValue::Short(*x as i16),
        (b'I', CValue::Int(x)) => JValue::Int(*x),
        (b'J', CValue::Long(x)) => JValue::Long(*x),
        (b'F', CValue::Float(b)) => JValue::Float(f32::from_bits(*b)),
        (b'D', CValue::Double(b)) => JValue::Double(f64::from_bits(*b)),
        (b'L' | b'[', CValue::Null) => JValue::Object(null),
        (b'L' | b'[', CValue::Ref(id)) => JValue::Object(objs.get(id)?),
        _ => return None,
    })
}

/// Initialises `c` (`Runner.initialise`) before an object of it is allocated: a class whose
/// static initializer throws has no objects, and that input none of its runs.
fn initialise(
    env: &mut Env<'_>,
    runner: &JClass<'static>,
    c: &JClass<'_>,
    class: &str,
) -> Result<(), JvmError> {
    let ctx = format!("initializing class {class}");
    let why = env
        .call_static_method(
            runner,
            jni_str!("initialise"),
            jni_sig!("(Ljava/lang/Class;)Ljava/lang/String;"),
            &[JValue::Object(c)],
        )
        .and_then(|v| v.l())
        .ctx(env, &ctx)?;
    match nullable_string(env, why, &ctx)? {
        None => Ok(()),
        Some(why) => Err(bad(format!(
            "no object of class {class} can be an input: {why}"
        ))),
    }
}

/// Builds the heap and the argument arrays in the current local frame (which must have room
/// for about `heap.len() + 64` local references).
pub(crate) fn build<'l>(
    env: &mut Env<'l>,
    runner: &JClass<'static>,
    loader: &JObject<'_>,
    input: &ConcreteInput,
) -> Result<BuiltArgs<'l>, JvmError> {
    input.validate()?;
    env.ensure_local_capacity(input.heap.len() + 64)
        .ctx(env, "reserving local references")?;
    let mut b = Builder {
        runner,
        loader,
        classes: HashMap::new(),
        layouts: HashMap::new(),
    };
    let mut objs: HashMap<ObjId, JObject<'l>> = HashMap::new();
    // enum constants: the JVM's own objects, whose fields are not set
    let mut constants = std::collections::HashSet::new();
    check_lengths(input)?;
    // Pass 1: allocate everything (primitive arrays are filled right away).
    for (id, o) in &input.heap {
        let ctx = format!("allocating {id}");
        let obj: JObject<'l> = match o {
            CObject::Instance { class, fields } if COLLECTIONS.contains(&class.as_str()) => {
                let elems = collection_elements(class, fields)?;
                let values = env.new_int_array(elems.len()).ctx(env, &ctx)?;
                values.set_region(env, 0, &elems).ctx(env, &ctx)?;
                let name = env.new_string(class).ctx(env, &ctx)?;
                let built = env.call_static_method(
                    runner,
                    jni_str!("collection"),
                    jni_sig!("(Ljava/lang/String;[I)Ljava/lang/Object;"),
                    &[JValue::Object(&name), JValue::Object(&values)],
                );
                match built.and_then(|v| v.l()) {
                    Ok(o) => o,
                    Err(e) => {
                        return Err(match jni_err(env, "", e) {
                            JvmError::Jni { message, .. } => JvmError::BadInput(message),
                            other => other,
                        })
                    }
                }
            }
            CObject::Instance { class, fields } if class == BUILDER_CLASS => {
                builder_of_length(env, class, fields, &ctx)?
            }
            CObject::Instance { class, .. } if class == RANDOM_CLASS => {
                // a generator made by its constructor (AllocObject leaves its `seed` null,
                // and `nextInt` then throws NullPointerException inside the JDK); its seed is
                // the object's id, so a replay draws the same numbers
                env.new_object(
                    jni_str!("java/util/Random"),
                    jni_sig!("(J)V"),
                    &[JValue::Long(i64::from(id.0))],
                )
                .ctx(env, &ctx)?
            }
            CObject::Instance { class, fields } => {
                let c = b.class(env, class)?;
                let constant = match enum_ordinal(fields) {
                    Some(k) => enum_constant(env, runner, &c, k, class)?,
                    None => None,
                };
                let obj = match constant {
                    Some(o) => {
                        constants.insert(*id);
                        o
                    }
                    None => {
                        initialise(env, runner, &c, class)?;
                        env.alloc_object(&c)
                            .ctx(env, &format!("allocating {id} of class {class}"))?
                    }
                };
                env.delete_local_ref(c);
                obj
            }
            CObject::Str { len } => {
                let s: JString = env.new_string("a".repeat(*len as usize)).ctx(env, &ctx)?;
                s.into()
            }
            CObject::Array { elem, elems } => new_array(env, &mut b, elem, elems, &ctx)?,
        };
        objs.insert(*id, obj);
    }
    // Pass 2: references (fields and object-array elements).
    let null = JObject::null();
    for (id, o) in &input.heap {
        match o {
            // built with its elements in pass 1
            CObject::Instance { class, .. }
                if COLLECTIONS.contains(&class.as_str()) || class == BUILDER_CLASS => {}
            CObject::Instance { .. } if constants.contains(id) => {}
            CObject::Instance { class, fields } => {
                for (key, v) in fields {
                    let (declaring, name, desc) = {
                        let layout = b.layout(env, class)?;
                        let f = layout.iter().find(|f| f.key == *key).ok_or_else(|| {
                            bad(format!("class {class} has no instance field {key:?}"))
                        })?;
                        (f.declaring.clone(), f.name.clone(), f.desc.clone())
                    };
                    let ctx = format!("setting {class}.{key} of {id}");
                    let jv = jvalue(&desc, v, &objs, &null).ok_or_else(|| {
                        bad(format!(
                            "value {v:?} does not fit field {class}.{key} of type {desc}"
                        ))
                    })?;
                    let dc = b.class(env, &declaring)?;
                    let sig = RuntimeFieldSignature::from_str(&desc).ctx(env, &ctx)?;
                    let fid = env
                        .get_field_id(&dc, JNIString::new(&name), sig.field_signature())
                        .ctx(env, &ctx)?;
                    env.delete_local_ref(dc);
                    // SAFETY: the field id was looked up with the field's own descriptor and the
                    // value kind was checked against that descriptor by `jvalue`.
                    unsafe { env.set_field_unchecked(&objs[id], fid, jv) }.ctx(env, &ctx)?;
                }
            }
            CObject::Array { elem, elems }
                if matches!(elem.as_bytes().first(), Some(b'L' | b'[')) =>
            {
                let local = env.new_local_ref(&objs[id]).ctx(env, "array ref")?;
                let arr = env
                    .cast_local::<JObjectArray>(local)
                    .ctx(env, "casting an object array")?;
                for (k, v) in elems.iter().enumerate() {
                    if let CValue::Ref(r) = v {
                        arr.set_element(env, k, &objs[r])
                            .ctx(env, &format!("storing element {k} of {id}"))?;
                    }
                }
                env.delete_local_ref(arr);
            }
            _ => {}
        }
    }
    // Arguments.
    let n = input.args.len();
    let prims = env.new_long_array(n).ctx(env, "argument array")?;
    let raw: Vec<i64> = input.args.iter().map(bits).collect();
    prims.set_region(env, 0, &raw).ctx(env, "argument array")?;
    let refs = env
        .new_object_array(n as jsize, jni_str!("java/lang/Object"), JObject::null())
        .ctx(env, "argument array")?;
    for (i, a) in input.args.iter().enumerate() {
        if let CValue::Ref(id) = a {
            refs.set_element(env, i, &objs[id])
                .ctx(env, "argument array")?;
        }
    }
    let statics = static_fields(env, &mut b, input, &objs)?;
    Ok(BuiltArgs {
        prims,
        refs,
        statics,
    })
}

/// The input's static fields as `Field, value, …` for `Runner.runOne` to set: each field
/// resolved and made settable by `Runner.staticField` (a final one refused), each value checked
/// against its type by `Runner.staticValue`.
fn static_fields<'l>(
    env: &mut Env<'l>,
    b: &mut Builder<'_, 'l>,
    input: &ConcreteInput,
    objs: &HashMap<ObjId, JObject<'l>>,
) -> Result<JObjectArray<'l>, JvmError> {
    let out = env
        .new_object_array(
            2 * input.statics.len() as jsize,
            jni_str!("java/lang/Object"),
            JObject::null(),
        )
        .ctx(env, "static field array")?;
    for (k, (key, v)) in input.statics.iter().enumerate() {
        // a static the JVM refuses is a bad input, named with the Java side's reason
        let refused = |env: &mut Env<'l>, e| match jni_err(env, "", e) {
            JvmError::Jni { message, .. } => {
                JvmError::BadInput(format!("cannot set static field {key}: {message}"))
            }
            other => other,
        };
        let class = b.class(env, &key.class)?;
        let name = env.new_string(&key.name).ctx(env, "field name")?;
        let field = match env
            .call_static_method(
                b.runner,
                jni_str!("staticField"),
                jni_sig!("(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/reflect/Field;"),
                &[JValue::Object(&class), JValue::Object(&name)],
            )
            .and_then(|v| v.l())
        {
            Ok(f) => f,
            Err(e) => return Err(refused(env, e)),
        };
        let (kind, reference) = match v {
            CValue::Int(_) => ('I', None),
            CValue::Long(_) => ('J', None),
            CValue::Float(_) => ('F', None),
            CValue::Double(_) => ('D', None),
            CValue::Null => ('L', None),
            CValue::Ref(id) => ('L', Some(&objs[id])),
            CValue::Top | CValue::Uninit(_) => {
                return Err(bad(format!("static field {key} is {v:?}, not a value")))
            }
        };
        let null = JObject::null();
        let value = match env
            .call_static_method(
                b.runner,
                jni_str!("staticValue"),
                jni_sig!("(Ljava/lang/reflect/Field;IJLjava/lang/Object;)Ljava/lang/Object;"),
                &[
                    JValue::Object(&field),
                    JValue::Int(kind as i32),
                    JValue::Long(bits(v)),
                    JValue::Object(reference.unwrap_or(&null)),
                ],
            )
            .and_then(|v| v.l())
        {
            Ok(v) => v,
            Err(e) => return Err(refused(env, e)),
        };
        out.set_element(env, 2 * k, &field)
            .ctx(env, "static field array")?;
        out.set_element(env, 2 * k + 1, &value)
            .ctx(env, "static field array")?;
        for o in [JObject::from(class), name.into(), field, value] {
            env.delete_local_ref(o);
        }
    }
    Ok(out)
}

fn new_array<'l>(
    env: &mut Env<'l>,
    b: &mut Builder<'_, 'l>,
    elem: &str,
    elems: &Elems,
    ctx: &str,
) -> Result<JObject<'l>, JvmError> {
    let n = elems.len();
    let kind_err = |v: &CValue| {
        bad(format!(
            "{ctx}: element {v:?} does not fit element type {elem}"
        ))
    };
    macro_rules! prim {
        ($new:ident, $pat:pat => $conv:expr) => {{
            let vals = elems
                .iter()
                .map(|v| match *v {
                    $pat => Ok($conv),
                    _ => Err(kind_err(v)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let a = env.$new(n).ctx(env, ctx)?;
            a.set_region(env, 0, &vals).ctx(env, ctx)?;
            a.into()
        }};
    }
    Ok(match elem {
        "Z" => prim!(new_boolean_array, CValue::Int(x) => x != 0),
        "B" => prim!(new_byte_array, CValue::Int(x) => x as i8),
        "C" => prim!(new_char_array, CValue::Int(x) => x as u16),
        "S" => prim!(new_short_array, CValue::Int(x) => x as i16),
        "I" => prim!(new_int_array, CValue::Int(x) => x),
        "J" => prim!(new_long_array, CValue::Long(x) => x),
        "F" => prim!(new_float_array, CValue::Float(x) => f32::from_bits(x)),
        "D" => prim!(new_double_array, CValue::Double(x) => f64::from_bits(x)),
        _ => {
            for v in elems {
                if !matches!(v, CValue::Null | CValue::Ref(_)) {
                    return Err(kind_err(v));
                }
            }
            let c = b.class_for_desc(env, elem)?;
            let a = env
                .new_object_array(n as jsize, &c, JObject::null())
                .ctx(env, ctx)?;
            env.delete_local_ref(c);
            a.into()
        }
    })
}
