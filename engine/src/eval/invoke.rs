//! Objects and calls: `new`, invocations (library models, or inlining of analysed methods with
//! dispatch by instance refinement), returns, type tests, monitors.

use super::lambda::LambdaCall;
use super::summary::EntryKind;
use super::{dispatch, exception, Exec, Flow};
use crate::class::{Insn, InvokeKind, MethodRef};
use crate::edge::EdgeKind;
use crate::error::EngineError;
use crate::models::{self, exceptions};
use crate::refine;
use crate::state::{End, Frame, HeapValue, Interval, MethodId};
use std::collections::BTreeMap;

pub(super) fn eval(ex: &mut Exec<'_>, insn: &Insn) -> Result<Flow, EngineError> {
    match insn {
        Insn::New(class) => {
            let fields = models::instance_fields(&ex.cx.prog.hierarchy, class)?;
            let mut values = BTreeMap::new();
            for (name, t, range) in fields {
                let r = match range {
                    // a string's length is fixed for its life (the ITS keeps one `len` per
                    // string): before its constructor sets it, it is unknown, not `0`
                    Some(range) if class == models::STRING => ex.st.new_int(range),
                    _ => crate::state::types::default_value(&mut ex.st, &t),
                };
                values.insert(name, r);
            }
            let r = ex.st.new_obj(HeapValue::Object {
                class: class.clone(),
                fields: values,
            });
            ex.push(r)?;
            Ok(Flow::Next)
        }
        Insn::Invoke { kind, method } => invoke(ex, *kind, method),
        Insn::Return(kind) => {
            let value = if kind.is_some() {
                Some(ex.pop()?)
            } else {
                None
            };
            ex.st.frames.pop();
            match ex.st.frames.last_mut() {
                None => ex.st.end = Some(End::Return(value)),
                Some(caller) => {
                    if let Some(v) = value {
                        caller.stack.push(v);
                    }
                    let caller_method = caller.method.clone();
                    let call_pc = caller.pc;
                    let next = next_pc_of(ex, &caller_method, call_pc)?;
                    if let Some(c) = ex.st.frames.last_mut() {
                        c.pc = next;
                    }
                    ex.kind = EdgeKind::Return;
                }
            }
            Ok(Flow::Done)
        }
        Insn::CheckCast(t) | Insn::InstanceOf(t) => {
            let r = ex.pop()?;
            let is_cast = matches!(insn, Insn::CheckCast(_));
            if r.is_null() {
                let v = if is_cast {
                    r
                } else {
                    ex.st.new_int(Interval::literal(0))
                };
                ex.push(v)?;
                return Ok(Flow::Next);
            }
            let ok = match ex.st.value(r) {
                Some(v @ (HeapValue::Unknown { ty } | HeapValue::Abstract { ty })) => {
                    let exists = v.exists();
                    let below = ex.cx.prog.hierarchy.is_subtype(ty, t)?;
                    if below && exists {
                        // an existing object whose static type is below `t`
                        true
                    } else if !below && ty == models::OBJECT {
                        // too wide to enumerate: decided by the outcome of a type
                        // refinement (`T:`/`F:`), else that refinement happens now
                        if let (true, Some(holds)) = (exists, ex.before.decided()) {
                            holds
                        } else {
                            let succs = refine::instance::refine_type(&ex.before, r, t, ex.sem());
                            return Ok(Flow::Refine(EdgeKind::Refine, succs));
                        }
                    } else {
                        return ex.need_realized(r)?.ok_or_else(|| {
                            EngineError::Internal(format!("{r} needs no realization"))
                        });
                    }
                }
                other => {
                    let ty = other
                        .and_then(|v| v.type_name())
                        .unwrap_or(models::OBJECT)
                        .to_string();
                    ex.cx.prog.hierarchy.is_subtype(&ty, t)?
                }
            };
            if is_cast {
                if !ok {
                    return exception::throw_builtin(ex, exceptions::CLASS_CAST);
                }
                ex.push(r)?;
            } else {
                let v = ex.st.new_int(Interval::literal(i128::from(ok)));
                ex.push(v)?;
            }
            Ok(Flow::Next)
        }
        Insn::MonitorEnter | Insn::MonitorExit => {
            // both throw NullPointerException for null (JVMS §6.5): a reference that may be
            // null is split first, else `synchronized (a)` on a null `a` would enter the block
            let r = ex.peek(0)?;
            if let Some(flow) = ex.need_null_or_existing(r)? {
                return Ok(flow);
            }
            ex.pop()?;
            if r.is_null() {
                return exception::throw_builtin(ex, exceptions::NULL_POINTER);
            }
            Ok(Flow::Next)
        }
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
}

fn next_pc_of(ex: &Exec<'_>, m: &MethodId, pc: u32) -> Result<u32, EngineError> {
    let method = ex.cx.prog.method(m)?;
    method
        .code
        .as_ref()
        .and_then(|c| c.next_pc(pc))
        .ok_or_else(|| ex.invalid("return to a call site without a next instruction"))
}

pub(super) fn invoke(
    ex: &mut Exec<'_>,
    kind: InvokeKind,
    m: &MethodRef,
) -> Result<Flow, EngineError> {
    // one operand-stack entry per argument, whatever its category
    let n_args = m.desc.params.len();
    let has_receiver = kind != InvokeKind::Static;
    let receiver = if has_receiver {
        Some(ex.peek(n_args)?)
    } else {
        None
    };
    if let Some(r) = receiver {
        if r.is_null() {
            return exception::throw_builtin(ex, exceptions::NULL_POINTER);
        }
    }
    // the class whose method runs
    let target_class = match (kind, receiver) {
        (InvokeKind::Virtual | InvokeKind::Interface, Some(r)) => {
            let exact = match ex.st.value(r) {
                Some(HeapValue::Object { class, .. }) => Some(class.clone()),
                _ => None,
            };
            match exact {
                Some(c) => c,
                None => {
                    if models::library_call(&m.class, &m.name, &m.desc_str).is_some()
                        && models::is_final_modelled_class(&m.class)
                    {
                        m.class.clone()
                    } else {
                        match dispatch::receiver(ex, r, m)? {
                            dispatch::Receiver::Class(c) => c,
                            dispatch::Receiver::Narrowed(c) => {
                                ex.st.heap.insert(r, HeapValue::Abstract { ty: c.clone() });
                                c
                            }
                            dispatch::Receiver::Refine(flow) => return Ok(flow),
                        }
                    }
                }
            }
        }
        _ => m.class.clone(),
    };
    if let Some(model) = models::library_call(&target_class, &m.name, &m.desc_str) {
        return super::library::eval(ex, model, n_args, has_receiver);
    }
    let resolved = match kind {
        InvokeKind::Virtual | InvokeKind::Interface => {
            ex.cx
                .prog
                .hierarchy
                .dispatch_virtual(&target_class, &m.name, &m.desc_str)?
        }
        _ => ex
            .cx
            .prog
            .hierarchy
            .resolve_method(&target_class, &m.name, &m.desc_str)?,
    };
    if resolved.is_none() {
        // the class-path classes do not declare it: `java.lang.Enum`'s or `java.lang.Object`'s
        // own method runs
        if let Some(model) = dispatch::inherited_model(ex.cx.prog, &target_class, m)? {
            return super::library::eval(ex, model, n_args, has_receiver);
        }
    }
    let Some(resolved) = resolved else {
        return Err(ex.unsupported(format!(
            "library method {}.{}{} (no model)",
            target_class.replace('/', "."),
            m.name,
            m.desc_str
        )));
    };
    let callee = resolved.method();
    if super::lambda::is_lambda_class(&callee.class) {
        let class = callee.class.clone();
        return match super::lambda::call(ex, &class, m)? {
            LambdaCall::Refine(flow) => Ok(flow),
            LambdaCall::Implementation {
                kind,
                method,
                new,
                operands,
                boxing,
            } => {
                if new {
                    eval(ex, &Insn::New(method.class.clone()))?;
                    let o = ex.peek(0)?;
                    ex.push(o)?;
                }
                for v in operands {
                    ex.push(v)?;
                }
                let depth = ex.st.frames.len();
                let flow = invoke(ex, kind, &method)?;
                match (boxing, flow) {
                    // the library model's result is on the stack: the spun class boxes it
                    (Some(b), Flow::Next) => invoke(ex, InvokeKind::Static, &b),
                    // a program method runs (an override; a summary of recursion)
                    (Some(_), flow @ (Flow::Done | Flow::Abstract(_)))
                        if matches!(flow, Flow::Abstract(_)) || ex.st.frames.len() > depth =>
                    {
                        Err(ex.unsupported(format!(
                            "lambda calling {}.{}: boxing a program method's result is not modelled",
                            method.class.replace('/', "."),
                            method.name
                        )))
                    }
                    (_, flow) => Ok(flow),
                }
            }
        };
    }
    let Some(code) = &callee.code else {
        return Err(ex.unsupported(format!(
            "call of {} {}.{}{}",
            if callee.is_native {
                "native method"
            } else {
                "abstract method"
            },
            callee.class,
            callee.name,
            callee.desc_str
        )));
    };
    let id = MethodId::new(&callee.class, &callee.name, &callee.desc_str);
    let static_primitive = callee.is_static && callee.desc.params.iter().all(|p| !p.is_reference());
    let recursive = ex.st.frames.iter().any(|f| f.method == id);
    if recursive || own_graph_for_loop(ex, &id, static_primitive) {
        // recursion, or a static loop on primitives: a method graph of its own (call
        // abstraction, see `summary`)
        let n_pop = n_args + usize::from(has_receiver);
        let ret = callee.desc.ret.clone();
        let kind = if recursive {
            EntryKind::CallSite
        } else {
            EntryKind::MostGeneral
        };
        return super::summary::abstract_call(ex, id, n_pop, ret, kind);
    }
    let mut args = Vec::with_capacity(n_args + 1);
    for _ in 0..n_args + usize::from(has_receiver) {
        args.push(ex.pop()?);
    }
    args.reverse();
    let mut frame = Frame::new(id, code.max_locals as usize);
    // a long or double argument takes two local slots, the value in the first
    let widths = std::iter::repeat_n(1, usize::from(has_receiver))
        .chain(m.desc.params.iter().map(|p| p.slots() as usize));
    let mut slot = 0usize;
    for (a, w) in args.into_iter().zip(widths) {
        let e = ex.invalid("arguments exceed the callee's max_locals");
        *frame.locals.get_mut(slot).ok_or(e)? = Some(a);
        slot += w;
    }
    ex.st.frames.push(frame);
    ex.kind = EdgeKind::Call;
    Ok(Flow::Done)
}

/// Whether a call of `callee` gets a method graph of its own although it is not recursive: a
/// static method with only primitive parameters whose code has a loop. Inlined, its loop's
/// states carry the caller's (a loop around the call runs it again for each generalization of
/// the caller's state, and each call site with its constants unrolls it again); its own graph
/// is built once, from the most general entry, and its effects are only its result and the
/// statics it reads, which the continuation havocs (AProVE splits such calls too, spec 6.5).
fn own_graph_for_loop(ex: &Exec<'_>, callee: &MethodId, static_primitive: bool) -> bool {
    static_primitive && !ex.cx.prog.loops(callee).is_empty()
}
