//! Where a run leaves the model of unbounded integers: its first overflowing instruction.

use crate::run::ConcreteRun;
use jtg_engine::class::indy::parse_lambda_class_name;
use jtg_engine::class::{ArithOp as Op, Insn, InvokeKind, Kind, MethodRef};
use jtg_engine::models::is_wrapping_call;
use jtg_engine::state::{wrap32, wrap64, MethodId};
use jtg_engine::Program;
use jtg_jvm::{CFrame, CValue};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// The first step whose instruction overflows 32 bits (`iadd`, `isub`, `imul`, `idiv`, `ineg`,
/// `iinc` whose mathematical result differs from the JVM's) or 64 bits (the same `l…`
/// instructions). Under unbounded integers the run
/// leaves the model there: the engine's labels and intervals denote mathematical integers.
pub fn first_overflow(run: &dyn ConcreteRun, prog: &Program) -> Option<usize> {
    // A step's instruction, by the run's own method number and the pc, or, for runs without
    // method numbers, by its method (compared by name: runs share the names of one method,
    // so mostly by pointer) and the pc. No allocation or hashing of names per step.
    let mut by_site: FxHashMap<(u32, u32), Option<Insn>> = FxHashMap::default();
    type ByName = (Arc<str>, Arc<str>, Arc<str>, FxHashMap<u32, Option<Insn>>);
    let mut by_name: Vec<ByName> = Vec::new();
    let mut last_method = 0usize;
    let same = |a: &Arc<str>, b: &Arc<str>| Arc::ptr_eq(a, b) || **a == **b;
    let mut scratch: Vec<CFrame> = Vec::new();
    let mut lambdas: Lambdas = FxHashMap::default();
    for i in 0..run.len() {
        let insn = match run.site(i) {
            Some(site) => by_site.entry(site).or_insert_with(|| {
                let f = run.top_frame_in(i, &mut scratch);
                arith_insn(prog, &f.class, &f.method, &f.desc, f.pc)
            }),
            None => {
                let f = run.top_frame_in(i, &mut scratch);
                let is = |m: &ByName| {
                    same(&m.0, &f.class) && same(&m.1, &f.method) && same(&m.2, &f.desc)
                };
                if !by_name.get(last_method).is_some_and(is) {
                    last_method = match by_name.iter().position(is) {
                        Some(k) => k,
                        None => {
                            let (c, m, d) = (f.class.clone(), f.method.clone(), f.desc.clone());
                            by_name.push((c, m, d, FxHashMap::default()));
                            by_name.len() - 1
                        }
                    };
                }
                by_name[last_method]
                    .3
                    .entry(f.pc)
                    .or_insert_with(|| arith_insn(prog, &f.class, &f.method, &f.desc, f.pc))
            }
        };
        // borrowed, not cloned: a call's instruction holds its method's names
        let Some(insn) = insn else { continue };
        let f = run.top_frame_in(i, &mut scratch);
        let int = |k: usize| match f.stack.get(k) {
            Some(CValue::Int(v)) => Some(i128::from(*v)),
            Some(CValue::Long(v)) => Some(i128::from(*v)),
            _ => None,
        };
        let mut return_wrap: Option<fn(i128) -> i128> = None;
        let wrap = match insn {
            Insn::Arith(Kind::Long, _) => wrap64,
            // a call's result type is its descriptor's last character
            Insn::Invoke { method, .. } if method.desc_str.ends_with('J') => wrap64,
            _ => wrap32,
        };
        let res = match insn {
            Insn::IInc { index, delta } => match f.locals.get(usize::from(*index)) {
                Some(CValue::Int(v)) => Some(i128::from(*v) + i128::from(*delta)),
                _ => None,
            },
            Insn::Arith(Kind::Int | Kind::Long, Op::Neg) => int(0).map(|a| -a),
            Insn::Arith(kind @ (Kind::Int | Kind::Long), op) => match (int(1), int(0)) {
                (Some(a), Some(b)) => match op {
                    Op::Add => Some(a + b),
                    Op::Sub => Some(a - b),
                    Op::Mul => Some(a * b),
                    // `a << k` is `a · 2ᵏ` in the unbounded model (the JVM uses k's low bits)
                    Op::Shl => {
                        let mask = if *kind == Kind::Long { 63 } else { 31 };
                        Some(a * (1i128 << (b & mask)))
                    }
                    Op::Div if b != 0 => Some(a / b),
                    _ => None,
                },
                _ => None,
            },
            Insn::Invoke {
                kind: InvokeKind::Static,
                method,
            } => {
                let args: Option<Vec<i128>> =
                    (0..method.desc.params.len()).rev().map(int).collect();
                args.and_then(|a| {
                    wrapping_call_result(&method.class, &method.name, &method.desc_str, &a)
                })
            }
            // a functional interface's method on a lambda object: the JVM runs the hidden
            // class's code, which the recorder does not see, so the implementation it calls is
            // read from the lambda's call site
            Insn::Invoke { method, .. } => {
                lambda_call_result(run, i, f, method, prog, &mut lambdas).map(|(r, long)| {
                    // the implementation's result type decides the width
                    return_wrap = Some(if long { wrap64 } else { wrap32 });
                    r
                })
            }
            _ => None,
        };
        let wrap = return_wrap.take().unwrap_or(wrap);
        if res.is_some_and(|v| v != wrap(v)) {
            return Some(i);
        }
    }
    None
}

fn arith_insn(prog: &Program, class: &str, method: &str, desc: &str, pc: u32) -> Option<Insn> {
    let m = MethodId::new(class, method, desc);
    let c = prog.hierarchy.classpath().load(&m.class).ok()?;
    let meth = c.method(&m.name, Some(&m.desc)).ok()?;
    let insn = meth.code.as_ref()?.at(pc)?;
    match insn {
        Insn::IInc { .. }
        | Insn::Arith(
            Kind::Int | Kind::Long,
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Neg | Op::Shl,
        ) => Some(insn.clone()),
        Insn::Invoke {
            kind: InvokeKind::Static,
            method,
        } if is_wrapping_call(&method.class, &method.name, &method.desc_str) => Some(insn.clone()),
        // the receiver may be a lambda whose implementation wraps (decided per step)
        Insn::Invoke {
            kind: InvokeKind::Interface | InvokeKind::Virtual,
            ..
        } => Some(insn.clone()),
        _ => None,
    }
}

/// Per lambda class (internal name) and method: the wrapping implementation it calls, if any.
type Lambdas = FxHashMap<(String, String, String), Option<MethodRef>>;

/// The mathematical result of the call `method` at step `i` (executing frame `f`) when its
/// receiver is a lambda object whose implementation is a wrapping call (a method reference
/// such as `Integer::sum`), and whether that call returns a `long`.
fn lambda_call_result(
    run: &dyn ConcreteRun,
    i: usize,
    f: &CFrame,
    method: &MethodRef,
    prog: &Program,
    lambdas: &mut Lambdas,
) -> Option<(i128, bool)> {
    let n = method.desc.params.len();
    let CValue::Ref(receiver) = f.stack.get(n)? else {
        return None;
    };
    let class = run.runtime_type(i, *receiver)?;
    parse_lambda_class_name(&class)?;
    let key = (class, method.name.clone(), method.desc_str.clone());
    let implementation = lambdas
        .entry(key)
        .or_insert_with_key(|(class, name, desc)| wrapping_implementation(prog, class, name, desc))
        .as_ref()?;
    let args = (0..n)
        .rev()
        .map(|k| match f.stack.get(k)? {
            CValue::Int(v) => Some(i128::from(*v)),
            CValue::Long(v) => Some(i128::from(*v)),
            _ => None,
        })
        .collect::<Option<Vec<i128>>>()?;
    let r = wrapping_call_result(
        &implementation.class,
        &implementation.name,
        &implementation.desc_str,
        &args,
    )?;
    Some((r, implementation.desc_str.ends_with('J')))
}

/// The wrapping call ([`is_wrapping_call`]) the lambda class `class` (`class/lambda.rs`, the
/// class the JVM spins for the site) makes in its method `name desc`, when it passes that
/// method's arguments through unchanged: it captures nothing (a static method reference
/// never does) and takes as many arguments as the call (primitives, so nothing is unboxed).
fn wrapping_implementation(
    prog: &Program,
    class: &str,
    name: &str,
    desc: &str,
) -> Option<MethodRef> {
    let c = prog.hierarchy.classpath().load(class).ok()?;
    if c.fields.iter().any(|f| !f.is_static) {
        return None;
    }
    let own = c.method(name, Some(desc)).ok()?;
    let code = own.code.as_ref()?;
    code.insns.iter().find_map(|(_, insn)| match insn {
        Insn::Invoke {
            kind: InvokeKind::Static,
            method,
        } if is_wrapping_call(&method.class, &method.name, &method.desc_str)
            && method.desc == own.desc =>
        {
            Some(method.clone())
        }
        _ => None,
    })
}

/// The mathematical result of a wrapping call ([`is_wrapping_call`](jtg_engine::models::is_wrapping_call)) on `args` (in parameter
/// order), `None` for other calls or missing arguments.
fn wrapping_call_result(class: &str, name: &str, desc: &str, args: &[i128]) -> Option<i128> {
    if !is_wrapping_call(class, name, desc) {
        return None;
    }
    match (name, args) {
        ("abs", [x]) => Some(x.abs()),
        ("floorDiv", [x, y]) if *y != 0 => {
            let q = x / y;
            Some(if x % y != 0 && ((*x < 0) != (*y < 0)) {
                q - 1
            } else {
                q
            })
        }
        ("sum", [x, y]) => Some(x + y),
        _ => None,
    }
}
