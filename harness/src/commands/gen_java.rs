//! `jtg gen --format java`: the generated inputs as Java source, one static factory per
//! sample (`sample0()`, …) returning the method's arguments (receiver first), ready to paste
//! into a JUnit test.
//!
//! Objects are allocated without running a constructor (`sun.misc.Unsafe.allocateInstance`,
//! in the `jdk.unsupported` module of Java 9+ and in Java 8) and their fields, private and
//! inherited ones included, are set by reflection, so every heap the generator draws can be
//! built, cycles and sharing included: all objects are allocated first, then linked. Classes
//! are named by `Class.forName`, so the factory may live in any package. A sample's static
//! fields are set (by reflection) when its factory runs, except a class's final
//! `$assertionsDisabled`, its assertion status: a comment says to run with `-da:Class`. A box
//! (`Integer`) is `new Integer(value)`, a fresh box like the checker's; an object of an enum
//! class is its constant of the sample's ordinal (`getEnumConstants()`), whose fields stay.

use jtg_engine::models;
use jtg_jvm::{CObject, CValue, ConcreteInput, ObjId, ASSERTIONS_DISABLED};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The name of the generated class.
pub const CLASS: &str = "JtgSamples";

/// A Java literal for a class name (internal `a/b/C` → `"a.b.C"`).
fn class_literal(internal: &str) -> String {
    format!("\"{}\"", internal.replace('/', ".").replace('"', "\\\""))
}

fn var(o: ObjId) -> String {
    format!("o{}", o.0)
}

/// A Java expression for a value (boxed where it stands for an `Object`).
fn value(v: &CValue) -> String {
    match v {
        CValue::Int(i) => format!("{i}"),
        CValue::Long(l) => format!("{l}L"),
        CValue::Float(bits) => format!("Float.intBitsToFloat({})", *bits as i32),
        CValue::Double(bits) => format!("Double.longBitsToDouble({}L)", *bits as i64),
        CValue::Null | CValue::Top => "null".into(),
        CValue::Ref(o) => var(*o),
        CValue::Uninit(_) => "null".into(),
    }
}

/// A box (`java.lang.Integer`) as `new Integer(v)`: a fresh object like the JVM side's (never
/// a cached one), whose final, module-private `value` reflection could not set.
fn fresh_box(class: &str, fields: &BTreeMap<String, CValue>) -> Option<String> {
    (models::input_only_field(class).is_some()).then(|| {
        let v = fields.values().next().map_or("0".into(), value);
        format!("new Integer({v})")
    })
}

/// The factory of one sample: `public static Object[] sample{k}()`.
pub fn factory(out: &mut String, k: u64, method: &str, input: &ConcreteInput) {
    let _ = writeln!(
        out,
        "    /** Sample {k}: the arguments of {method}, receiver first. */"
    );
    let _ = writeln!(
        out,
        "    public static Object[] sample{k}() throws Exception {{"
    );
    // allocate every object first, so that links (cycles included) can name any of them
    for (id, obj) in &input.heap {
        let init = match obj {
            CObject::Instance { class, fields } => match fresh_box(class, fields) {
                Some(init) => init,
                None => match enum_ordinal(fields) {
                    Some(k) => format!("constantOr({}, {k})", class_literal(class)),
                    None => format!("alloc({})", class_literal(class)),
                },
            },
            CObject::Array { elem, elems } => {
                format!("newArray(\"{}\", {})", elem.replace('"', ""), elems.len())
            }
            CObject::Str { len } => format!("new String(new char[{len}])"),
        };
        let _ = writeln!(out, "        Object {} = {init};", var(*id));
    }
    for (id, obj) in &input.heap {
        match obj {
            CObject::Instance { class, fields } if fresh_box(class, fields).is_none() => {
                // an enum constant keeps its own fields
                let (open, close, pad) = match enum_ordinal(fields) {
                    Some(_) => (
                        format!("        if (!({} instanceof Enum)) {{\n", var(*id)),
                        "        }\n",
                        "    ",
                    ),
                    None => (String::new(), "", ""),
                };
                out.push_str(&open);
                for (name, v) in fields {
                    let _ = writeln!(
                        out,
                        "        {pad}set({}, \"{name}\", {});",
                        var(*id),
                        value(v)
                    );
                }
                out.push_str(close);
            }
            CObject::Array { elems, .. } => {
                for (i, v) in elems.iter().enumerate() {
                    let _ = writeln!(out, "        at({}, {i}, {});", var(*id), value(v));
                }
            }
            CObject::Instance { .. } | CObject::Str { .. } => {}
        }
    }
    for (key, v) in &input.statics {
        if key.name == ASSERTIONS_DISABLED {
            // final: the class's assertion status, which the JVM's configuration gives
            let status = if *v == CValue::Int(0) { "-ea" } else { "-da" };
            let _ = writeln!(
                out,
                "        // run with {status}:{} ({} = {})",
                key.class.replace('/', "."),
                key.name,
                value(v)
            );
            continue;
        }
        let _ = writeln!(
            out,
            "        setStatic({}, \"{}\", {});",
            class_literal(&key.class),
            key.name,
            value(v)
        );
    }
    let args: Vec<String> = input.args.iter().map(value).collect();
    let _ = writeln!(out, "        return new Object[] {{{}}};", args.join(", "));
    out.push_str("    }\n\n");
}

/// The ordinal an object lists as `java.lang.Enum`'s field, if any: an object of an enum class
/// is the constant of that ordinal (as the checker's JVM side builds it), never a new object.
fn enum_ordinal(fields: &BTreeMap<String, CValue>) -> Option<i32> {
    match fields
        .get(&format!("{}.{}", models::ENUM, models::enums::ORDINAL))
        .or_else(|| fields.get("ordinal"))
    {
        Some(CValue::Int(k)) => Some(*k),
        _ => None,
    }
}

/// The helpers every factory uses (allocation, reflective field and element writes).
const HELPERS: &str = r#"    private static Object constantOr(String cls, int ordinal) throws Exception {
        Class<?> c = Class.forName(cls);
        if (!Enum.class.isAssignableFrom(c)) {
            return alloc(cls);
        }
        while (c.getSuperclass() != Enum.class) {
            c = c.getSuperclass();
        }
        return c.getEnumConstants()[ordinal];
    }

    private static Object alloc(String cls) throws Exception {
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Object unsafe = f.get(null);
        return unsafe.getClass().getMethod("allocateInstance", Class.class)
                .invoke(unsafe, Class.forName(cls));
    }

    private static Class<?> type(String desc) throws Exception {
        switch (desc.charAt(0)) {
            case 'I': return int.class;
            case 'J': return long.class;
            case 'Z': return boolean.class;
            case 'B': return byte.class;
            case 'C': return char.class;
            case 'S': return short.class;
            case 'F': return float.class;
            case 'D': return double.class;
            case 'L': return Class.forName(desc.substring(1, desc.length() - 1).replace('/', '.'));
            default: return Class.forName(desc.replace('/', '.'));
        }
    }

    private static Object newArray(String elemDesc, int n) throws Exception {
        return Array.newInstance(type(elemDesc), n);
    }

    /** An int as the primitive type t holds it (booleans, chars, bytes, shorts are ints). */
    private static Object coerce(Class<?> t, Object v) {
        if (!(v instanceof Integer)) {
            return v;
        }
        int i = (Integer) v;
        if (t == boolean.class) return i != 0;
        if (t == char.class) return (char) i;
        if (t == byte.class) return (byte) i;
        if (t == short.class) return (short) i;
        return v;
    }

    private static void at(Object array, int i, Object v) {
        Array.set(array, i, coerce(array.getClass().getComponentType(), v));
    }

    /** Field `name` (or `Declaring.name` for a shadowed one) of o's class or a superclass. */
    private static void set(Object o, String name, Object v) throws Exception {
        String declaring = null;
        int dot = name.lastIndexOf('.');
        if (dot >= 0) {
            declaring = name.substring(0, dot).replace('/', '.');
            name = name.substring(dot + 1);
        }
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            if (declaring != null && !c.getName().equals(declaring)) {
                continue;
            }
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(name) && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    f.set(o, coerce(f.getType(), v));
                    return;
                }
            }
        }
        throw new NoSuchFieldException(o.getClass().getName() + "." + name);
    }

    private static void setStatic(String cls, String name, Object v) throws Exception {
        Field f = Class.forName(cls).getDeclaredField(name);
        f.setAccessible(true);
        f.set(null, coerce(f.getType(), v));
    }
"#;

/// The whole compilation unit: the factories of `samples` (case number, input) for `method`.
pub fn render(method: &str, seed: u64, samples: &[(u64, ConcreteInput)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// jtg gen --format java --seed {seed}: {} inputs of {method}.",
        samples.len()
    );
    out.push_str(
        "// Objects are allocated without a constructor call and their fields set by reflection\n\
         // (private ones too), so any heap, cycles included, can be built. Rename the class or\n\
         // paste the factories into a test; sampleK() returns the arguments, receiver first.\n",
    );
    out.push_str("import java.lang.reflect.Array;\nimport java.lang.reflect.Field;\nimport java.lang.reflect.Modifier;\n\n");
    let _ = writeln!(out, "public final class {CLASS} {{");
    let _ = writeln!(out, "    private {CLASS}() {{}}\n");
    for (k, input) in samples {
        factory(&mut out, *k, method, input);
    }
    let calls: Vec<String> = samples
        .iter()
        .map(|(k, _)| format!("sample{k}()"))
        .collect();
    out.push_str("    /** Every sample's arguments, in case order. */\n");
    out.push_str("    public static Object[][] all() throws Exception {\n");
    let _ = writeln!(
        out,
        "        return new Object[][] {{{}}};",
        calls.join(", ")
    );
    out.push_str("    }\n\n");
    out.push_str(HELPERS);
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_is_allocated_before_it_is_linked() {
        let mut heap = BTreeMap::new();
        let node = |next: u32| CObject::Instance {
            class: "a/List".into(),
            fields: BTreeMap::from([
                ("next".to_string(), CValue::Ref(ObjId(next))),
                ("val".to_string(), CValue::Int(-3)),
            ]),
        };
        heap.insert(ObjId(1), node(2));
        heap.insert(ObjId(2), node(1));
        let input = ConcreteInput {
            args: vec![CValue::Ref(ObjId(1)), CValue::Long(5)],
            heap,
            statics: Default::default(),
        };
        let java = render("a.List.m", 7, &[(0, input)]);
        let alloc2 = java.find("Object o2 = alloc(\"a.List\");").expect("o2");
        let link = java.find("set(o1, \"next\", o2);").expect("link");
        assert!(alloc2 < link, "{java}");
        assert!(java.contains("set(o2, \"next\", o1);"), "{java}");
        assert!(java.contains("return new Object[] {o1, 5L};"), "{java}");
        assert!(
            java.contains("return new Object[][] {sample0()};"),
            "{java}"
        );
    }

    #[test]
    fn a_box_is_a_fresh_integer_of_its_value() {
        let mut heap = BTreeMap::new();
        heap.insert(
            ObjId(1),
            CObject::Instance {
                class: "java/lang/Integer".into(),
                fields: BTreeMap::from([("value".to_string(), CValue::Int(-300))]),
            },
        );
        let input = ConcreteInput {
            args: vec![CValue::Ref(ObjId(1))],
            heap,
            statics: Default::default(),
        };
        let java = render("Keys.find", 1, &[(0, input)]);
        assert!(java.contains("Object o1 = new Integer(-300);"), "{java}");
        assert!(!java.contains("set(o1"), "{java}");
    }
}
