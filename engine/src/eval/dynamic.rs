//! `invokedynamic`: string concatenation (`StringConcatFactory`, the model in
//! `models/concat.rs`) and lambda sites (`LambdaMetafactory`: an object of the class
//! `class/lambda.rs` makes for the site, its captured values in its fields) and a record's
//! `equals`/`hashCode`/`toString` (`ObjectMethods`, `models/records.rs`). Any other bootstrap
//! method is unsupported, named.

use super::library::shared;
use super::{Exec, Flow};
use crate::class::indy::{describe_handle, lambda_class_name, BootstrapArg, DynamicSite};
use crate::class::{lambda, MethodDescriptor};
use crate::error::EngineError;
use crate::models::records::{self, RecordMethod};
use crate::models::{self, concat};
use crate::state::{FieldKey, HeapValue, Interval};
use std::collections::BTreeMap;

pub(super) fn eval(
    ex: &mut Exec<'_>,
    name: &str,
    descriptor: &str,
    site: &DynamicSite,
) -> Result<Flow, EngineError> {
    let desc = MethodDescriptor::parse(descriptor)?;
    if let Some((recipe, constants)) = site.concat_recipe(&models::BOOTSTRAPS) {
        return concatenate(ex, &desc, recipe, constants);
    }
    if let Some(index) = site.lambda_index {
        return make_lambda(ex, &desc, index);
    }
    if let Some(method) =
        records::object_method(site, name, descriptor).map_err(|w| ex.unsupported(w))?
    {
        return record_method(ex, &desc, method);
    }
    Err(ex.unsupported(format!(
        "bootstrap method {} of call site {name}{descriptor} is not modelled",
        describe_handle(&site.bootstrap)
    )))
}

/// `makeConcatWithConstants`: a string whose length is the recipe's constant part plus each
/// argument's string form (reference arguments are realized first: `null`, a `String`'s
/// length, an `Integer`, an object whose `toString()` is `Object`'s).
fn concatenate(
    ex: &mut Exec<'_>,
    desc: &MethodDescriptor,
    recipe: &str,
    constants: &[BootstrapArg],
) -> Result<Flow, EngineError> {
    let (constant_len, holes) =
        concat::recipe_length(recipe, constants).map_err(|w| ex.unsupported(w))?;
    let n = desc.params.len();
    if holes != n {
        return Err(ex.invalid("concatenation recipe and call site disagree on the arguments"));
    }
    let mut total = Interval::literal(constant_len);
    for (k, p) in desc.params.iter().enumerate() {
        let r = ex.peek(n - 1 - k)?;
        let len = if p.is_reference() {
            if r.is_null() {
                Interval::literal(concat::NULL_LENGTH)
            } else {
                if let Some(flow) = ex.need_realized(r)? {
                    return Ok(flow);
                }
                string_form_length(ex, r)?
            }
        } else {
            concat::primitive_length(p, ex.st.integral(r))
        };
        total = Interval {
            lo: total.lo.zip(len.lo).map(|(a, b)| a + b),
            hi: total.hi.zip(len.hi).map(|(a, b)| a + b),
        };
    }
    // a string's length is an int: a longer result is an OutOfMemoryError ("Overflow: String
    // length out of range"), which no model of an allocation covers
    let max = crate::state::JAVA_MAX;
    let total = Interval {
        lo: total.lo.map(|l| l.min(max)),
        hi: Some(total.hi.map_or(max, |h| h.min(max))),
    };
    for _ in 0..n {
        ex.pop()?;
    }
    let s = if n == 1 && constant_len == 0 {
        // `"" + s`: JLS §15.18.1 asks for a new string, but a one-argument recipe is the
        // JDK's `String.valueOf` fast path, which may return the argument itself
        shared::string(ex, total)
    } else {
        // "The String object is newly created (§12.5) unless the expression is a constant
        // expression" (JLS §15.18.1), and the JDK's strategies allocate it
        let count = ex.st.new_int(total);
        ex.st.new_obj(HeapValue::Object {
            class: models::STRING.into(),
            fields: BTreeMap::from([(FieldKey::plain("count"), count)]),
        })
    };
    ex.push(s)?;
    Ok(Flow::Next)
}

/// The length of `String.valueOf(o)` for the realized object `o`.
fn string_form_length(ex: &Exec<'_>, o: crate::state::Ref) -> Result<Interval, EngineError> {
    let prog = ex.cx.prog;
    match ex.st.value(o) {
        Some(HeapValue::Object { class, fields }) if class == models::STRING => Ok(fields
            .get("count")
            .and_then(|c| ex.st.int(*c))
            .copied()
            .unwrap_or(Interval::at_least(0))),
        Some(HeapValue::Object { class, .. }) if class == models::INTEGER => {
            Ok(concat::boxed_int_length())
        }
        // `[I@1b6d3586`: the array's `Object.toString()`, which no program code overrides
        Some(HeapValue::Array { .. }) => Ok(Interval::at_least(3)),
        Some(HeapValue::Object { class, .. }) => {
            if models::is_jdk_class(class) {
                return Err(ex.unsupported(format!(
                    "string concatenation of a {}: its toString() is not modelled",
                    class.replace('/', ".")
                )));
            }
            // `Object.toString()` calls `hashCode()`: both must be `Object`'s own
            for (m, d) in concat::OBJECT_TO_STRING_CALLS {
                if let Some(found) = prog.hierarchy.dispatch_virtual(class, m, d)? {
                    let owner = &found.method().class;
                    return Err(ex.unsupported(format!(
                        "string concatenation calls {}.{m}() of the program (a callback into program code from the JDK is not modelled)",
                        owner.replace('/', ".")
                    )));
                }
                if !super::dispatch::reaches_object_methods(prog, class, m)? {
                    return Err(ex.unsupported(format!(
                        "string concatenation of a {}: the {m}() it inherits from the JDK is not modelled",
                        class.replace('/', ".")
                    )));
                }
            }
            if crate::class::indy::parse_lambda_class_name(class).is_some() {
                // the JVM names the hidden class itself (`Host$$Lambda$14/0x…`)
                return Ok(Interval::at_least(3));
            }
            Ok(concat::object_to_string_length(class.len()))
        }
        _ => Err(ex.invalid("string concatenation of an unrealized object")),
    }
}

/// A lambda site: an object of the site's class holding the captured values. A site without
/// captured values may give the same object each time (the JDK links it to one instance; JLS
/// §15.27.4 "a new instance ... is allocated ..., or an existing instance ... is referenced"),
/// so that object may be one the state holds; with captured values the JDK allocates one per
/// evaluation (`InnerClassLambdaMetafactory`), which the checker verifies on every run.
fn make_lambda(
    ex: &mut Exec<'_>,
    desc: &MethodDescriptor,
    index: u32,
) -> Result<Flow, EngineError> {
    let class = lambda_class_name(&ex.method.class, index);
    // the class must exist (its implementation method handle is one the engine calls)
    ex.cx.prog.hierarchy.classpath().load(&class)?;
    let n = desc.params.len();
    if n == 0 {
        let r = shared::possibly_shared(ex, &class, None);
        ex.push(r)?;
        return Ok(Flow::Next);
    }
    let mut fields = BTreeMap::new();
    for k in (0..n).rev() {
        let v = ex.pop()?;
        fields.insert(FieldKey::plain(&lambda::captured_field(k)), v);
    }
    let r = ex.st.new_obj(HeapValue::Object { class, fields });
    ex.push(r)?;
    Ok(Flow::Next)
}

/// A record's `equals`, `hashCode` or `toString` (`models/records.rs`): `[0,1]` (`0` for a
/// `null` argument: it is no instance of the record class), any int, a string of length ≥ 2
/// that may be one the state holds. The receiver, the record itself, is `this` in the methods
/// javac writes; one that may be `null` is decided first, and a `null` one is unsupported
/// (the JDK's code then depends on the number of components).
fn record_method(
    ex: &mut Exec<'_>,
    desc: &MethodDescriptor,
    method: RecordMethod,
) -> Result<Flow, EngineError> {
    let n = desc.params.len();
    if n == 0 {
        return Err(ex.invalid("a record method's call site without the record"));
    }
    let r = ex.peek(n - 1)?;
    if let Some(flow) = ex.need_null_or_existing(r)? {
        return Ok(flow);
    }
    if r.is_null() {
        return Err(ex.unsupported("a record method on a null record".into()));
    }
    let other_null = n == 2 && ex.peek(0)?.is_null();
    for _ in 0..n {
        ex.pop()?;
    }
    let v = match method {
        RecordMethod::Equals if other_null => ex.st.new_int(Interval::literal(0)),
        RecordMethod::Equals => ex
            .st
            .new_int(Interval::literal(0).hull(&Interval::literal(1))),
        RecordMethod::HashCode => {
            let sem = ex.sem();
            ex.st.new_int(Interval::most_general(sem))
        }
        RecordMethod::ToString => shared::string(ex, Interval::at_least(2)),
    };
    ex.push(v)?;
    Ok(Flow::Next)
}
