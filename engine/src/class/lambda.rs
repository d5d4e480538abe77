//! The class the engine makes for a `LambdaMetafactory` call site, as the JDK's
//! `InnerClassLambdaMetafactory` spins one: a final class below `Object` that implements the
//! functional interface (and the markers), holds the captured values in the fields `arg$1`,
//! `arg$2`, … (the JDK's names), and implements the interface's method by calling the
//! implementation method with the captured values first.
//!
//! Its name is `Host$$Lambda$N` for the `N`-th lambda site of `Host` (class-file order, see
//! [`number_lambda_sites`]): stable, and derived from the call site, never from the name the
//! JVM gives its hidden class. The class path makes it on demand ([`lambda_class`]), so the
//! hierarchy, dispatch and the type analyses see it like any class. Its method's code is what
//! the spun class does (load the captured values and the arguments, cast, call, return); the
//! analyses read it, the evaluator calls the implementation directly (`eval/lambda.rs`), as
//! the JVM's recorder sees no frame of a hidden class.

use super::classfile::{Class, Code, Field, Method};
use super::descriptor::{FieldType, MethodDescriptor};
use super::error::ClassError;
use super::indy::{lambda_class_name, Bootstraps, HandleKind, LambdaSite};
use super::insn::{Insn, Kind};
use super::jvms::OBJECT;
use super::member::FieldRef;

/// The name of the field that holds the `k`-th captured value (0-based).
pub fn captured_field(k: usize) -> String {
    format!("arg${}", k + 1)
}

/// Numbers the lambda sites of a class's methods, in order (the class path does, when it
/// loads a class).
pub(super) fn number_lambda_sites(methods: &mut [Method], bs: &Bootstraps) {
    let mut next = 0u32;
    for m in methods {
        let Some(code) = &mut m.code else { continue };
        for (_, insn) in &mut code.insns {
            if let Insn::InvokeDynamic { site, .. } = insn {
                if site.is_lambda(bs) {
                    site.lambda_index = Some(next);
                    next += 1;
                }
            }
        }
    }
}

/// The lambda site number `index` of `host`: the instruction's name, descriptor and what the
/// site makes.
pub fn lambda_site(
    host: &Class,
    index: u32,
    bs: &Bootstraps,
) -> Result<(String, LambdaSite), ClassError> {
    for m in &host.methods {
        for (_, insn) in m.code.iter().flat_map(|c| c.insns.iter()) {
            if let Insn::InvokeDynamic {
                name,
                descriptor,
                site,
            } = insn
            {
                if site.lambda_index == Some(index) {
                    let lambda = site.lambda(name, descriptor, bs)?.ok_or_else(|| {
                        ClassError::malformed("numbered lambda site without a lambda")
                    })?;
                    return Ok((descriptor.clone(), lambda));
                }
            }
        }
    }
    Err(ClassError::not_found(lambda_class_name(&host.name, index)))
}

fn kind_of(t: &FieldType) -> Kind {
    match t {
        FieldType::Long => Kind::Long,
        FieldType::Float => Kind::Float,
        FieldType::Double => Kind::Double,
        FieldType::Object(_) | FieldType::Array(_) => Kind::Ref,
        _ => Kind::Int,
    }
}

/// The class for lambda site `index` of `host`.
pub fn lambda_class(host: &Class, index: u32, bs: &Bootstraps) -> Result<Class, ClassError> {
    let (factory_desc, site) = lambda_site(host, index, bs)?;
    let name = lambda_class_name(&host.name, index);
    let captured = MethodDescriptor::parse(&factory_desc)?.params;
    let fields = captured
        .iter()
        .enumerate()
        .map(|(k, t)| Field {
            name: captured_field(k),
            desc: t.clone(),
            is_static: false,
            is_enum: false,
            constant: None,
        })
        .collect();
    let mut descs = vec![site.sam_desc.clone()];
    descs.extend(site.bridges.iter().cloned());
    let methods = descs
        .iter()
        .map(|d| implementing_method(&name, &captured, &site, d))
        .collect::<Result<_, _>>()?;
    let mut interfaces = vec![site.interface.clone()];
    interfaces.extend(site.markers.iter().cloned());
    Ok(Class {
        name,
        super_name: Some(OBJECT.to_string()),
        interfaces,
        is_interface: false,
        is_abstract: false,
        is_final: true,
        fields,
        methods,
        source_file: host.source_file.clone(),
    })
}

/// The interface method of type `desc`: captured values, then the arguments (cast to the
/// implementation's parameter types where they differ), the call, the return.
fn implementing_method(
    class: &str,
    captured: &[FieldType],
    site: &LambdaSite,
    desc: &str,
) -> Result<Method, ClassError> {
    let parsed = MethodDescriptor::parse(desc)?;
    let implementation = &site.implementation;
    let invoke = implementation.kind.invoke_kind().ok_or_else(|| {
        ClassError::unsupported(format!(
            "lambda of a field method handle {}",
            super::indy::describe_handle(implementation)
        ))
    })?;
    let mut insns = vec![];
    if implementation.kind == HandleKind::NewInvokeSpecial {
        insns.push(Insn::New(implementation.member.class.clone()));
        insns.push(Insn::Dup);
    }
    for (k, t) in captured.iter().enumerate() {
        insns.push(Insn::Load(Kind::Ref, 0));
        insns.push(Insn::GetField(FieldRef {
            class: class.to_string(),
            name: captured_field(k),
            desc: t.clone(),
        }));
    }
    // the implementation's parameters after the captured ones (a receiver counts as one)
    let receiver = matches!(
        implementation.kind,
        HandleKind::InvokeVirtual | HandleKind::InvokeInterface | HandleKind::InvokeSpecial
    );
    let mut impl_params: Vec<FieldType> = vec![];
    if receiver {
        impl_params.push(FieldType::Object(implementation.member.class.clone()));
    }
    impl_params.extend(implementation.member.desc.params.iter().cloned());
    let mut slot = 1u16;
    for (k, p) in parsed.params.iter().enumerate() {
        insns.push(Insn::Load(kind_of(p), slot));
        slot += p.slots();
        if let (FieldType::Object(_) | FieldType::Array(_), Some(want)) =
            (p, impl_params.get(captured.len() + k))
        {
            if want.is_reference() && want != p && *want != FieldType::Object(OBJECT.into()) {
                insns.push(Insn::CheckCast(match want {
                    FieldType::Object(c) => c.clone(),
                    other => other.to_string(),
                }));
            }
        }
    }
    insns.push(Insn::Invoke {
        kind: invoke,
        method: implementation.member.clone(),
    });
    insns.push(Insn::Return(parsed.ret.as_ref().map(kind_of)));
    let insns: Vec<(u32, Insn)> = insns
        .into_iter()
        .enumerate()
        .map(|(pc, i)| (pc as u32, i))
        .collect();
    Ok(Method {
        class: class.to_string(),
        name: site.method_name.clone(),
        desc_str: desc.to_string(),
        desc: parsed,
        is_static: false,
        is_abstract: false,
        is_native: false,
        is_synchronized: false,
        is_private: false,
        code: Some(Code {
            max_stack: u16::MAX,
            max_locals: slot,
            insns,
            handlers: vec![],
            local_names: vec![],
            // synthetic: no source; the call it makes is in the host's code, which has lines
            line_numbers: vec![],
        }),
    })
}
