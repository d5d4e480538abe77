//! A call of a lambda object's method (the class `class/lambda.rs` makes for a lambda site):
//! the implementation method runs with the captured values first, then the call's arguments,
//! as the JDK's spun class does. The engine calls the implementation directly from the
//! caller's frame, because the JVM's recorder sees no frame of the hidden class either: the
//! caller stays at its `invokeinterface` with the arguments popped, the implementation's frame
//! on top (or a library model's result at once).
//!
//! Adaptations the spun class would make between the interface method's erased type and the
//! implementation's (unboxing, primitive widening, dropping a result) are unsupported, named; a
//! reference argument is passed as it is when its type fits, a cast the engine cannot decide is
//! unsupported too. A primitive result of a library method with a model is boxed as the spun
//! class does, by the wrapper's `valueOf` (`models::lambda_box`; `Function<String, Integer> f =
//! String::length`), where that has a model; a program method's result is not (its frame would
//! return to the hidden class's, which boxes, and the engine keeps no such frame).

use super::{Exec, Flow};
use crate::class::indy::{describe_handle, parse_lambda_class_name, HandleKind};
use crate::class::{lambda, FieldType, InvokeKind, MethodDescriptor, MethodRef};
use crate::error::EngineError;
use crate::models;
use crate::state::{HeapValue, Ref};

/// Whether `class` is a class the engine made for a lambda site.
pub(super) fn is_lambda_class(class: &str) -> bool {
    parse_lambda_class_name(class).is_some()
}

/// The method a lambda object of the lambda class `class` calls when it captures nothing and
/// its handle is a static or virtual method's (a method reference such as `Integer::sum`);
/// `None` for any other lambda.
pub(super) fn plain_reference(
    ex: &Exec<'_>,
    class: &str,
) -> Result<Option<MethodRef>, EngineError> {
    let Some((host, index)) = parse_lambda_class_name(class) else {
        return Ok(None);
    };
    let host = ex.cx.prog.hierarchy.classpath().load(host)?;
    let (factory_desc, site) = lambda::lambda_site(&host, index, &models::BOOTSTRAPS)?;
    let captured = MethodDescriptor::parse(&factory_desc)?.params;
    let imp = site.implementation;
    let plain = captured.is_empty()
        && matches!(
            imp.kind,
            HandleKind::InvokeStatic | HandleKind::InvokeVirtual
        );
    Ok(plain.then_some(imp.member))
}

/// What a call of a lambda object's method comes to.
pub(super) enum LambdaCall {
    /// A refinement decides first (a receiver or argument to realize).
    Refine(Flow),
    /// The receiver and the arguments are popped; the caller (`invoke.rs`) pushes a new
    /// object of `method`'s class twice when `new` (a constructor reference), then `operands`
    /// (the captured values, then the arguments), and invokes `method` by `kind`.
    Implementation {
        kind: InvokeKind,
        method: MethodRef,
        new: bool,
        operands: Vec<Ref>,
        /// The wrapper's `valueOf` that boxes the implementation's primitive result.
        boxing: Option<Box<MethodRef>>,
    },
}

/// The call `m` on a receiver of the lambda class `class` (top of the stack: the arguments,
/// below them the receiver): the implementation to invoke in its place.
pub(super) fn call(
    ex: &mut Exec<'_>,
    class: &str,
    m: &MethodRef,
) -> Result<LambdaCall, EngineError> {
    let (host, index) = parse_lambda_class_name(class)
        .ok_or_else(|| ex.invalid("lambda call on a class no lambda site made"))?;
    let host = ex.cx.prog.hierarchy.classpath().load(host)?;
    let (factory_desc, site) = lambda::lambda_site(&host, index, &models::BOOTSTRAPS)?;
    let captured = MethodDescriptor::parse(&factory_desc)?.params;
    let imp = &site.implementation;
    let unsupported = |ex: &Exec<'_>, what: String| {
        ex.unsupported(format!(
            "lambda {} calling {}: {what}",
            class.replace('/', "."),
            describe_handle(imp)
        ))
    };
    let Some(kind) = imp.kind.invoke_kind() else {
        return Err(unsupported(
            ex,
            "a field method handle is not modelled".into(),
        ));
    };
    let n_args = m.desc.params.len();
    let receiver = ex.peek(n_args)?;
    if !captured.is_empty() {
        if let Some(flow) = ex.need_realized(receiver)? {
            return Ok(LambdaCall::Refine(flow));
        }
    }
    // the implementation's parameters: a receiver first for an instance method
    let mut want: Vec<FieldType> = vec![];
    if matches!(
        imp.kind,
        HandleKind::InvokeVirtual | HandleKind::InvokeInterface | HandleKind::InvokeSpecial
    ) {
        want.push(FieldType::Object(imp.member.class.clone()));
    }
    want.extend(imp.member.desc.params.iter().cloned());
    let given: Vec<FieldType> = captured.iter().chain(&m.desc.params).cloned().collect();
    if want.len() != given.len() {
        return Err(unsupported(
            ex,
            format!("{} values for {} parameters", given.len(), want.len()),
        ));
    }
    for (k, (t, w)) in given.iter().zip(&want).enumerate() {
        if t == w {
            continue;
        }
        if !t.is_reference() && !w.is_reference() {
            return Err(unsupported(
                ex,
                format!("adapting {t} to {w} (primitive widening) is not modelled"),
            ));
        }
        if t.is_reference() != w.is_reference() {
            return Err(unsupported(
                ex,
                format!("adapting {t} to {w} (boxing or unboxing) is not modelled"),
            ));
        }
        // a reference passed where a narrower type is wanted: the spun class casts it
        if k >= captured.len() {
            let v = ex.peek(n_args - 1 - (k - captured.len()))?;
            if let Some(flow) = fits(ex, v, w)? {
                return match flow {
                    Fit::Refine(flow) => Ok(LambdaCall::Refine(flow)),
                    Fit::No => Err(unsupported(
                        ex,
                        format!("its cast of an argument to {w} may fail (not modelled)"),
                    )),
                };
            }
        }
    }
    let result = if imp.kind == HandleKind::NewInvokeSpecial {
        Some(FieldType::Object(imp.member.class.clone()))
    } else {
        imp.member.desc.ret.clone()
    };
    let mut boxing = None;
    match (&m.desc.ret, &result) {
        (None, None) => {}
        (Some(a), Some(b)) if a == b => {}
        (Some(FieldType::Object(a)), Some(p)) if !p.is_reference() => {
            boxing = Some(Box::new(
                box_result(ex, imp, a, p).map_err(|what| unsupported(ex, what))?,
            ));
        }
        (Some(FieldType::Object(a)), Some(b @ (FieldType::Object(_) | FieldType::Array(_))))
            if ex
                .cx
                .prog
                .hierarchy
                .is_subtype(&b.to_string_internal(), a)? => {}
        (a, b) => {
            return Err(unsupported(
                ex,
                format!(
                    "adapting its result {} to {} is not modelled",
                    b.as_ref().map_or("V".into(), ToString::to_string),
                    a.as_ref().map_or("V".into(), ToString::to_string)
                ),
            ))
        }
    }
    if imp.kind == HandleKind::NewInvokeSpecial
        && models::library_call(&imp.member.class, "<init>", &imp.member.desc_str).is_none()
    {
        // a program constructor's frame would run with the new object on the caller's
        // stack, which the JVM keeps in the hidden class's frame
        return Err(unsupported(
            ex,
            "a constructor reference of a class without a library model is not modelled".into(),
        ));
    }
    let caps: Vec<Ref> = (0..captured.len())
        .map(|k| match ex.st.value(receiver) {
            Some(HeapValue::Object { fields, .. }) => {
                fields.get(lambda::captured_field(k).as_str()).copied()
            }
            _ => None,
        })
        .collect::<Option<_>>()
        .ok_or_else(|| ex.invalid("lambda object without its captured values"))?;
    let mut args = Vec::with_capacity(n_args);
    for _ in 0..n_args {
        args.push(ex.pop()?);
    }
    args.reverse();
    ex.pop()?;
    Ok(LambdaCall::Implementation {
        kind,
        method: imp.member.clone(),
        new: imp.kind == HandleKind::NewInvokeSpecial,
        operands: caps.into_iter().chain(args).collect(),
        boxing,
    })
}

/// The `valueOf` call that boxes the implementation `imp`'s primitive result `prim` where the
/// interface method returns `want` (`Object`, `Integer`, `Comparable`, …), or why not.
fn box_result(
    ex: &Exec<'_>,
    imp: &crate::class::indy::Handle,
    want: &str,
    prim: &FieldType,
) -> Result<MethodRef, String> {
    let not = |why: &str| format!("adapting its result {prim} to L{want}; {why}");
    let (wrapper, desc) =
        models::lambda_box(&prim.to_string()).ok_or_else(|| not("(no boxing) is not modelled"))?;
    let fits = ex
        .cx
        .prog
        .hierarchy
        .is_subtype(wrapper, want)
        .map_err(|e| not(&e.to_string()))?;
    if !fits {
        return Err(not("(boxing to another type) is not modelled"));
    }
    if models::library_call(wrapper, "valueOf", desc).is_none() {
        return Err(not(&format!(
            "(boxing by {}.valueOf, which has no model) is not modelled",
            wrapper.replace('/', ".")
        )));
    }
    if models::library_call(&imp.member.class, &imp.member.name, &imp.member.desc_str).is_none() {
        // a program method's frame would return into the hidden class's, which boxes
        return Err(not(
            "(boxing the result of a method without a library model) is not modelled",
        ));
    }
    let desc_parsed = MethodDescriptor::parse(desc).map_err(|e| not(&e.to_string()))?;
    Ok(MethodRef {
        class: wrapper.to_string(),
        name: "valueOf".into(),
        desc: desc_parsed,
        desc_str: desc.into(),
        interface: false,
    })
}

enum Fit {
    Refine(Flow),
    No,
}

/// `None` when `v` is null or of a type below `want`; else the refinement that tells, or
/// [`Fit::No`].
fn fits(ex: &Exec<'_>, v: Ref, want: &FieldType) -> Result<Option<Fit>, EngineError> {
    if v.is_null() {
        return Ok(None);
    }
    let want = want.to_string_internal();
    let h = &ex.cx.prog.hierarchy;
    let ty = ex
        .st
        .value(v)
        .and_then(HeapValue::type_name)
        .map(str::to_string);
    if let Some(ty) = &ty {
        if h.is_subtype(ty, &want)? {
            return Ok(None);
        }
    }
    match ex.st.value(v) {
        Some(HeapValue::Object { .. } | HeapValue::Array { .. }) => Ok(Some(Fit::No)),
        _ => Ok(Some(match ex.need_realized(v)? {
            Some(flow) => Fit::Refine(flow),
            None => Fit::No,
        })),
    }
}

/// The internal name of a reference type as the hierarchy takes it.
trait InternalName {
    fn to_string_internal(&self) -> String;
}

impl InternalName for FieldType {
    fn to_string_internal(&self) -> String {
        match self {
            FieldType::Object(c) => c.clone(),
            other => other.to_string(),
        }
    }
}
