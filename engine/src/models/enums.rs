//! `java.lang.Enum` (JLS §8.9, Javadoc of `java.lang.Enum`): what an enum object is and what
//! `Enum`'s final methods return.
//!
//! What the model keeps: an object of an enum class has the JDK's two fields of `Enum`, `name`
//! (a `String`, "the name of this enum constant, exactly as declared in its enum declaration")
//! and `ordinal` ("its position in its enum declaration, where the initial constant is
//! assigned an ordinal of zero"): `ordinal ≥ 0`, and `< n` where the enum class declares `n`
//! constants (its static `ACC_ENUM` fields, JVMS §4.5). The checker compares both with what
//! the JVM side records for the same objects (`jvm/java/tracer/Recorder.java`). The model does
//! not claim `name` non-null: the field is the constructor's argument, which javac's code never
//! makes `null`, but nothing in the JDK checks it.
//!
//! An enum class's objects are exactly its constants: javac forbids `new` of an enum class,
//! and `Enum`'s constructor is only called by the enum's `<clinit>` (which the engine does not
//! execute: statics are inputs, read with their first-access value). So a static field that
//! holds a constant may be any enum object the state holds (an input parameter, an object an
//! input reaches): its first-access value is `=?` those objects ([`may_be_constant`]).
//!
//! Methods (all `final` in `Enum`, so no enum class overrides them, except `toString`):
//! `ordinal()` and `name()` return the fields; `toString()` returns `name` ("This method may
//! be overridden": dispatch finds the override first); `compareTo(E o)` throws
//! NullPointerException for `null` ("Throws: NullPointerException - if the specified object is
//! null" of `Comparable`; the JDK reads `o.getClass()`), ClassCastException when the two
//! objects' declaring classes differ (`getDeclaringClass()`: the enum class, also for a
//! constant with a class body), else `self.ordinal - other.ordinal` (JDK 17's code; the
//! Javadoc claims only the sign, which this difference has). `compareTo(Object)` is
//! `Comparable`'s bridge: the same after a `checkcast` to `Enum` (ClassCastException for an
//! object of another class). `equals` and `hashCode` are `Object`'s (see
//! `classes::keeps_object_method`). `Enum.valueOf(Class, String)` (javac's `E.valueOf(String)`
//! calls it) with a class literal `C.class` of a class-path enum: NullPointerException for a
//! `null` name ("Throws: NullPointerException - if enumClass or name is null"), else
//! IllegalArgumentException ("if the specified enum class has no constant with the specified
//! name") or a constant of `C`, which may be every object of the state that may be one. The
//! JDK builds its name directory from the constants it caches in the `Class` object, calling
//! `values()` (program code) through reflection the first time: the tracer makes that first
//! time a step before each call (`Inits.enumReady`, which also initialises the class), like a
//! `<clinit>` no step of the run; without it, runs of `Color.valueOf` showed `values()`'s
//! steps, a violation of a model that returned a constant or threw. Not modelled (unsupported, named): `valueOf` with
//! another `Class` argument (the engine's `Class` objects do not say which class they are);
//! `getDeclaringClass()` (a `Class` object), `describeConstable()`.

use super::classes::{ENUM, STRING};
use super::text::INTEGER;
use crate::class::{FieldType, Hierarchy};
use crate::state::{FieldKey, HeapValue, Interval, Ref, State};

/// `Enum.name`: the constant's name.
pub const NAME: &str = "name";
/// `Enum.ordinal`: the constant's position in its declaration.
pub const ORDINAL: &str = "ordinal";

/// A modelled method of `java.lang.Enum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EnumCall {
    /// `ordinal()`: the `ordinal` field.
    Ordinal,
    /// `name()`, and `toString()` where the class does not override it: the `name` field.
    Name,
    /// `compareTo(E)` and its bridge `compareTo(Object)`.
    CompareTo,
    /// `Enum.valueOf(Class, String)` (javac's `E.valueOf(String)` calls it): a constant of the
    /// literal class argument, or NullPointerException, IllegalArgumentException.
    ValueOf,
}

/// The model of `class.name desc` when `class` is `java.lang.Enum` (a virtual call on an enum
/// object whose class-path classes do not declare the method dispatches here).
pub fn enum_call(class: &str, name: &str, desc: &str) -> Option<EnumCall> {
    if class != ENUM {
        return None;
    }
    match (name, desc) {
        ("ordinal", "()I") => Some(EnumCall::Ordinal),
        ("name" | "toString", "()Ljava/lang/String;") => Some(EnumCall::Name),
        ("compareTo", "(Ljava/lang/Enum;)I" | "(Ljava/lang/Object;)I") => Some(EnumCall::CompareTo),
        ("valueOf", "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;") => {
            Some(EnumCall::ValueOf)
        }
        _ => None,
    }
}

/// The enum class of `class`: the class directly below `java.lang.Enum` on its superclass
/// chain (`class` itself, or the enum whose constant's class body `class` is), which
/// `getDeclaringClass()` returns. `None` for a class not below `Enum` (and for `Enum`).
pub fn enum_class(h: &Hierarchy, class: &str) -> Option<String> {
    let mut c = class.to_string();
    // a superclass chain is short; a cyclic one is refused by the hierarchy elsewhere
    for _ in 0..256 {
        let sup = h.super_of(&c).ok()??;
        if sup == ENUM {
            return Some(c);
        }
        c = sup;
    }
    None
}

/// Whether `ty` (an internal class name, or an array descriptor) is an enum class or an array
/// whose elements (at any depth) are of one: a static of such a type holds constants.
pub fn holds_constants(h: &Hierarchy, ty: &str) -> Option<String> {
    let elem = ty.trim_start_matches('[');
    let class = if elem.len() < ty.len() {
        elem.strip_prefix('L')?.strip_suffix(';')?
    } else {
        elem
    };
    enum_class(h, class).map(|_| class.to_string())
}

/// The fields of `Enum` an object of the enum class `class` has: `name` and `ordinal` (range
/// `[0, n-1]` for the `n` constants of its enum class, `≥ 0` when it shows none), keyed by
/// `java/lang/Enum` when the class path declares an instance field of the same name (a shadowed
/// field, as the recorder keys it). `None` when `class` is not below `Enum`.
pub fn enum_fields(
    h: &Hierarchy,
    class: &str,
    declared: &[FieldKey],
) -> Option<Vec<(FieldKey, FieldType, Option<Interval>)>> {
    let e = enum_class(h, class)?;
    let n = h.enum_constants(&e).map(|v| v.len()).unwrap_or(0);
    // the constants whose object is of `class` itself: one for a constant's class body
    let own: Vec<i128> = clinit_constants(h, &e)
        .into_iter()
        .filter(|(c, _, _)| c == class)
        .map(|(_, _, k)| k)
        .collect();
    let ordinal = match (own.iter().min(), own.iter().max(), n) {
        (Some(&lo), Some(&hi), _) => Interval::new(Some(lo), Some(hi)),
        (_, _, 0) => None,
        (_, _, n) => Interval::new(Some(0), Some(n as i128 - 1)),
    }
    .unwrap_or(Interval::at_least(0));
    let key = |name: &str| {
        if declared.iter().any(|k| k.name() == name) {
            FieldKey::shadowed(ENUM, name)
        } else {
            FieldKey::plain(name)
        }
    };
    Some(vec![
        (key(NAME), FieldType::Object(STRING.into()), None),
        (key(ORDINAL), FieldType::Int, Some(ordinal)),
    ])
}

/// The key of `Enum`'s field `name` in an object whose field keys are `keys`: the shadowed
/// key when the object has one, else the plain one.
pub fn field_key<'a>(keys: impl Iterator<Item = &'a FieldKey>, name: &str) -> FieldKey {
    let shadowed = FieldKey::shadowed(ENUM, name);
    if keys.into_iter().any(|k| *k == shadowed) {
        shadowed
    } else {
        FieldKey::plain(name)
    }
}

/// Whether an object of type `ty` (a class, an interface or an array descriptor) may be the
/// same object as a constant of the enum class `e` (of a subclass of it: a constant with a
/// class body): `ty` is a supertype of `e`, or a subtype of `e`.
pub fn may_be_constant(h: &Hierarchy, ty: &str, e: &str) -> bool {
    h.is_subtype(e, ty).unwrap_or(false) || h.is_subtype(ty, e).unwrap_or(false)
}

/// The first-access value of the static field `class.name` when it is one of the enum class
/// `class`'s constants (a static `ACC_ENUM` field of its own type): that constant, never null
/// (javac makes the field `static final` and sets it in `<clinit>`, before any other code of
/// the class runs), with `ordinal` the one `<clinit>` passes `Enum`'s constructor for it
/// ([`clinit_ordinal`]; JLS §8.9.1: its position in the declaration, which the order of the
/// class file's fields need not show) and any `name`. Only for an enum without constant
/// class bodies, whose constants are all of `class` itself, and only when the state holds no
/// realized object of `class` (which the constant might be): `None` otherwise. `all` are the
/// instance fields of `class` as the model keeps them (`super::instance_fields`).
pub fn constant_value(
    h: &Hierarchy,
    st: &mut State,
    class: &str,
    name: &str,
    all: Vec<(FieldKey, FieldType, Option<Interval>)>,
    sem: crate::state::IntSemantics,
) -> Option<Ref> {
    if enum_class(h, class).as_deref() != Some(class) {
        return None;
    }
    if !h.enum_constants(class).ok()?.iter().any(|c| c == name) {
        return None;
    }
    let k = clinit_ordinal(h, class, name)?;
    let subs = h.non_abstract_subtypes(class).ok()?;
    let holds_one = st
        .heap
        .values()
        .any(|v| matches!(v, HeapValue::Object { class: c, .. } if c == class));
    if subs != [class] || holds_one {
        return None;
    }
    let ordinal = field_key(all.iter().map(|f| &f.0), ORDINAL);
    let mut fields = std::collections::BTreeMap::new();
    for (key, ty, range) in all {
        let r = if key == ordinal {
            st.new_int(Interval::literal(k))
        } else {
            // `name`, and the class's own fields: whatever the constructor stored
            let r = crate::state::types::most_general(st, &ty, sem).ok()?;
            if let (Some(range), Some(HeapValue::Int(iv))) = (range, st.value(r).cloned()) {
                st.heap.insert(r, HeapValue::Int(iv.intersect(&range)?));
            }
            r
        };
        fields.insert(key, r);
    }
    Some(st.new_obj(HeapValue::Object {
        class: class.to_string(),
        fields,
    }))
}

/// The ordinal the enum's `<clinit>` gives the constant `name` ([`clinit_constants`]).
fn clinit_ordinal(h: &Hierarchy, class: &str, name: &str) -> Option<i128> {
    clinit_constants(h, class)
        .into_iter()
        .find(|(c, n, _)| c == class && n == name)
        .map(|(_, _, k)| k)
}

/// The constants the enum `e`'s `<clinit>` builds, as `(class of the object, name, ordinal)`:
/// javac builds each as `new C; dup; ldc "NAME"; <push ordinal>; …; invokespecial <init>` (the
/// name and ordinal are `Enum`'s constructor arguments), `C` being `e` or the constant's class
/// body. Constants built by other code are not listed.
fn clinit_constants(h: &Hierarchy, e: &str) -> Vec<(String, String, i128)> {
    use crate::class::{Constant, Insn};
    let Ok(c) = h.classpath().load(e) else {
        return Vec::new();
    };
    let Some(code) = c
        .method("<clinit>", Some("()V"))
        .ok()
        .and_then(|m| m.code.as_ref())
    else {
        return Vec::new();
    };
    let insns: Vec<&Insn> = code.insns.iter().map(|(_, i)| i).collect();
    insns
        .windows(4)
        .filter_map(|w| match w {
            [Insn::New(n), Insn::Dup, Insn::Ldc(Constant::String(s)), Insn::IConst(k)] => {
                Some((n.clone(), s.clone(), i128::from(*k)))
            }
            _ => None,
        })
        .collect()
}

/// After the first access of a static field of type `ty` gave it the value `r`: when `ty` is an
/// enum class or an array of one (a constant, `$VALUES`), `r` may be every object of the state
/// that may be a constant of that enum (`=?`; for an array, its elements may: `%$`), and may lie
/// in the hidden part of every object that can hide one (`%$`). The objects are those the state
/// holds at the access (inputs and what they reach: an enum object is always a constant).
pub fn relate_constants(h: &Hierarchy, st: &mut State, r: Ref, ty: &str) {
    if let Some(e) = holds_constants(h, ty) {
        relate_to_constants_of(h, st, r, &e, ty.starts_with('['));
    }
}

/// [`relate_constants`] for a value `r` that is a constant of the enum class `e` (or any enum
/// for `java/lang/Enum`), or an array of such constants (`is_array`).
pub fn relate_to_constants_of(h: &Hierarchy, st: &mut State, r: Ref, e: &str, is_array: bool) {
    let e = e.to_string();
    let mut equal = vec![];
    let mut hide = vec![];
    for (&q, v) in &st.heap {
        if !q.is_obj() || q == r {
            continue;
        }
        match v {
            HeapValue::Object { class, .. }
                if enum_class(h, class).is_some() && may_be_constant(h, class, &e) =>
            {
                equal.push(q);
            }
            HeapValue::Unknown { ty: t } | HeapValue::Abstract { ty: t } => {
                if t.starts_with('[') {
                    if t.len() > 2 {
                        hide.push(q);
                    }
                    continue;
                }
                if may_be_constant(h, t, &e) {
                    equal.push(q);
                }
                if t != STRING && t != INTEGER {
                    // a field somewhere below may hold it
                    hide.push(q);
                }
            }
            HeapValue::Array {
                ty: t, elems: None, ..
            } if t.len() > 2 => hide.push(q),
            _ => {}
        }
    }
    // what a realized constant reaches (its name, its program fields) another constant, or an
    // array of constants, may reach too
    let mut seen: std::collections::BTreeSet<Ref> = equal.iter().copied().collect();
    let mut work: Vec<Ref> = equal.clone();
    while let Some(q) = work.pop() {
        let children: Vec<Ref> = match st.value(q) {
            Some(HeapValue::Object { fields, .. }) => fields.values().copied().collect(),
            Some(HeapValue::Array { elems: Some(e), .. }) => e.clone(),
            _ => vec![],
        };
        for c in children {
            if c.is_obj() && seen.insert(c) {
                hide.push(c);
                work.push(c);
            }
        }
    }
    for q in equal {
        if is_array {
            st.preds.add_join(r, q);
        } else {
            st.preds.add_may_equal(r, q);
            st.preds.add_join(r, q);
        }
    }
    for q in hide {
        st.preds.add_join(r, q);
    }
}

/// The enum classes whose constants an object of declared type `ty` may reach through the
/// declared types of fields and array elements (`ty` itself included): a `Tile` with a field
/// `Color color`, a `Color[]`, a list of such tiles. Fields of a wider type (`Object`, an
/// interface) and fields of subclasses are not followed (docs/engine.md: not related yet).
pub fn reachable_enums(h: &Hierarchy, ty: &str) -> std::collections::BTreeSet<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = std::collections::BTreeSet::new();
    let mut work = vec![ty.to_string()];
    while let Some(t) = work.pop() {
        if !seen.insert(t.clone()) {
            continue;
        }
        let elem = t.trim_start_matches('[');
        let class = if elem.len() < t.len() {
            match elem.strip_prefix('L').and_then(|c| c.strip_suffix(';')) {
                Some(c) => c.to_string(),
                None => continue,
            }
        } else {
            t.clone()
        };
        if let Some(e) = enum_class(h, &class) {
            out.insert(e);
        }
        for f in h.instance_fields(&class).unwrap_or_default() {
            match &f.ty {
                FieldType::Object(c) => work.push(c.to_string()),
                FieldType::Array(_) => work.push(f.ty.to_string()),
                _ => {}
            }
        }
        if elem.len() < t.len() {
            work.push(class);
        }
    }
    out
}

/// The default start state's parameters (`refs`, with their declared types) that may reach
/// enum constants: one constant may be reached twice, within one parameter (`♦`, `%$` itself:
/// two tiles of one list with the colour `RED`, two elements of a `Color[]`) and from two
/// parameters (`%$`) that may reach constants of one enum class.
pub fn share_reachable_constants(h: &Hierarchy, st: &mut State, refs: &[(Ref, String)]) {
    let reach: Vec<_> = refs
        .iter()
        .map(|(r, t)| (*r, t.clone(), reachable_enums(h, t)))
        .collect();
    for (k, (p, pt, pe)) in reach.iter().enumerate() {
        if pe.is_empty() {
            continue;
        }
        // an enum object alone reaches no other constant through `name`
        if enum_class(h, pt).is_none() || pe.len() > 1 || pt.starts_with('[') {
            st.preds.add_join(*p, *p);
            st.preds.add_non_tree(*p);
        }
        for (q, _, qe) in &reach[k + 1..] {
            if !pe.is_disjoint(qe) {
                st.preds.add_join(*p, *q);
            }
        }
    }
}
