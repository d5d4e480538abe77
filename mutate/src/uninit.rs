//! Locals that may hold an *uninitialized* object: the result of a `new` before its
//! `invokespecial <init>`, or a constructor's `this` before it calls `super()`/`this()`.
//!
//! The check walks every object it reaches except one the recorder shows uninitialized (its
//! fields are not walked, module docs of `jtg_check::instance`). The verifier's rules decide
//! where such a value can be (JVMS §4.10.1.9): only on the operand stack and in locals (a
//! field, a static or an array element never holds one), each copy tagged with the `new` that
//! made it, and `invokespecial <init>` on one copy initializes every copy with that tag. This
//! module follows the tags the same way, per pc; a local whose tag is "initialized" on every
//! path holds `null` or an initialized object, whose fields and elements the check walks
//! wherever it walks the local. The analysis is conservative: a join of two different tags, an
//! exception handler (its locals are the join over the protected range) or an instruction it
//! does not follow (`jsr`, `ret`) only makes fewer locals initialized; a method with `jsr`
//! has none.

use jtg_engine::class::{ArrayKind, Code, Constant, Insn, InvokeKind, Kind, MethodDescriptor};
use std::collections::{BTreeSet, HashMap};

/// What one stack word or local slot holds, as far as initialization goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tag {
    /// A primitive, `null`, or an initialized object.
    Init,
    /// The object of the `new` at this pc, before its `<init>`.
    New(u32),
    /// A constructor's `this` before `super()`.
    This,
    /// Any of the above (a join of different tags).
    Maybe,
}

fn join(a: Tag, b: Tag) -> Tag {
    if a == b {
        a
    } else {
        Tag::Maybe
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Frame {
    stack: Vec<Tag>,
    locals: Vec<Tag>,
}

impl Frame {
    /// Joins `o` into `self`; `None` when the stack heights differ (unverifiable code).
    fn join(&mut self, o: &Frame) -> Option<bool> {
        if self.stack.len() != o.stack.len() {
            return None;
        }
        let before = self.clone();
        for (a, b) in self.stack.iter_mut().zip(&o.stack) {
            *a = join(*a, *b);
        }
        for (a, b) in self.locals.iter_mut().zip(&o.locals) {
            *a = join(*a, *b);
        }
        Some(*self != before)
    }

    fn pop(&mut self, n: usize) -> Option<Vec<Tag>> {
        let at = self.stack.len().checked_sub(n)?;
        Some(self.stack.split_off(at))
    }

    fn push(&mut self, n: usize) {
        self.stack.extend(std::iter::repeat_n(Tag::Init, n));
    }

    /// `invokespecial <init>` on a receiver tagged `t`: every copy of it is initialized.
    fn initialize(&mut self, t: Tag) {
        if matches!(t, Tag::New(_) | Tag::This) {
            for w in self.stack.iter_mut().chain(self.locals.iter_mut()) {
                if *w == t {
                    *w = Tag::Init;
                }
            }
        }
    }
}

fn array_words(k: ArrayKind) -> usize {
    match k {
        ArrayKind::Long | ArrayKind::Double => 2,
        _ => 1,
    }
}

fn desc_words(d: &MethodDescriptor) -> (usize, usize) {
    (
        usize::from(d.param_slots()),
        d.ret.as_ref().map_or(0, |r| usize::from(r.slots())),
    )
}

/// The frame after `insn` completes normally (`None`: not followed).
fn step(pc: u32, insn: &Insn, mut f: Frame) -> Option<Frame> {
    let slots = |k: &Kind| usize::from(k.slots());
    match insn {
        Insn::Nop
        | Insn::IInc { .. }
        | Insn::I2B
        | Insn::I2C
        | Insn::I2S
        | Insn::Goto(_)
        | Insn::CheckCast(_) => {}
        Insn::AConstNull | Insn::IConst(_) | Insn::FConst(_) => f.push(1),
        Insn::LConst(_) | Insn::DConst(_) => f.push(2),
        Insn::Ldc(c) => f.push(match c {
            Constant::Long(_) | Constant::Double(_) => 2,
            _ => 1,
        }),
        Insn::Load(k, i) => {
            if *k == Kind::Ref {
                let t = *f.locals.get(usize::from(*i))?;
                f.stack.push(t);
            } else {
                f.push(slots(k));
            }
        }
        Insn::Store(k, i) => {
            let v = f.pop(slots(k))?;
            for (j, w) in v.into_iter().enumerate() {
                *f.locals.get_mut(usize::from(*i) + j)? = w;
            }
        }
        Insn::ArrayLoad(k) => {
            f.pop(2)?;
            f.push(array_words(*k));
        }
        Insn::ArrayStore(k) => {
            f.pop(array_words(*k) + 2)?;
        }
        Insn::Pop | Insn::MonitorEnter | Insn::MonitorExit => {
            f.pop(1)?;
        }
        Insn::Pop2 => {
            f.pop(2)?;
        }
        Insn::Dup => {
            let v = *f.stack.last()?;
            f.stack.push(v);
        }
        Insn::DupX1 | Insn::DupX2 => {
            let under = if matches!(insn, Insn::DupX1) { 1 } else { 2 };
            let v = *f.stack.last()?;
            let at = f.stack.len().checked_sub(under + 1)?;
            f.stack.insert(at, v);
        }
        Insn::Dup2 | Insn::Dup2X1 | Insn::Dup2X2 => {
            let under = match insn {
                Insn::Dup2 => 0,
                Insn::Dup2X1 => 1,
                _ => 2,
            };
            let n = f.stack.len();
            let top: Vec<Tag> = f.stack.get(n.checked_sub(2)?..)?.to_vec();
            let at = n.checked_sub(under + 2)?;
            f.stack.splice(at..at, top);
        }
        Insn::Swap => {
            let n = f.stack.len();
            f.stack.swap(n.checked_sub(1)?, n.checked_sub(2)?);
        }
        Insn::Arith(k, op) => {
            use jtg_engine::class::ArithOp::*;
            let operands = match op {
                Neg => slots(k),
                Shl | Shr | Ushr => slots(k) + 1,
                _ => 2 * slots(k),
            };
            f.pop(operands)?;
            f.push(slots(k));
        }
        Insn::Convert { from, to } => {
            f.pop(slots(from))?;
            f.push(slots(to));
        }
        Insn::LCmp | Insn::DCmpL | Insn::DCmpG => {
            f.pop(4)?;
            f.push(1);
        }
        Insn::FCmpL | Insn::FCmpG => {
            f.pop(2)?;
            f.push(1);
        }
        Insn::If { .. }
        | Insn::IfNull { .. }
        | Insn::IfNonNull { .. }
        | Insn::TableSwitch { .. }
        | Insn::LookupSwitch { .. }
        | Insn::AThrow => {
            f.pop(1)?;
        }
        Insn::IfICmp { .. } | Insn::IfACmp { .. } => {
            f.pop(2)?;
        }
        Insn::Jsr(_) | Insn::Ret(_) => return None,
        Insn::Return(k) => {
            f.pop(k.as_ref().map_or(0, slots))?;
        }
        Insn::GetStatic(fr) => f.push(usize::from(fr.desc.slots())),
        Insn::GetField(fr) => {
            f.pop(1)?;
            f.push(usize::from(fr.desc.slots()));
        }
        Insn::PutStatic(fr) => {
            f.pop(usize::from(fr.desc.slots()))?;
        }
        Insn::PutField(fr) => {
            f.pop(usize::from(fr.desc.slots()) + 1)?;
        }
        Insn::Invoke { kind, method } => {
            let (args, ret) = desc_words(&method.desc);
            f.pop(args)?;
            if *kind != InvokeKind::Static {
                let recv = f.pop(1)?[0];
                if *kind == InvokeKind::Special && method.name == "<init>" {
                    f.initialize(recv);
                }
            }
            f.push(ret);
        }
        Insn::InvokeDynamic { descriptor, .. } => {
            let (args, ret) = desc_words(&MethodDescriptor::parse(descriptor).ok()?);
            f.pop(args)?;
            f.push(ret);
        }
        Insn::New(_) => f.stack.push(Tag::New(pc)),
        Insn::NewArray(_) | Insn::ANewArray(_) | Insn::ArrayLength | Insn::InstanceOf(_) => {
            f.pop(1)?;
            f.push(1);
        }
        Insn::MultiANewArray { dims, .. } => {
            f.pop(usize::from(*dims))?;
            f.push(1);
        }
    }
    Some(f)
}

/// What holds `null`, a primitive or an initialized object on every path to one pc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Initialized {
    /// Local slots.
    pub(crate) locals: BTreeSet<usize>,
    /// Per operand stack word, bottom first (a `long` or `double` takes two).
    pub(crate) stack: Vec<bool>,
}

/// Per pc, what is initialized before it (`None`: the method is not followed, e.g. it has
/// `jsr`). `param_slots`: the slots of the parameters, the receiver included; `constructor`:
/// local 0 is `this` before `super()`.
pub(crate) fn initialized(
    code: &Code,
    param_slots: usize,
    constructor: bool,
) -> Option<HashMap<u32, Initialized>> {
    let n = code.insns.len();
    let (index, succs) = super::liveness::successors(code);
    let locals = usize::from(code.max_locals).max(param_slots);
    let mut entry = Frame {
        stack: Vec::new(),
        locals: vec![Tag::Init; locals],
    };
    if constructor {
        *entry.locals.first_mut()? = Tag::This;
    }
    let mut at: Vec<Option<Frame>> = vec![None; n];
    let mut todo = vec![0usize];
    at[0] = Some(entry);
    let flow = |at: &mut Vec<Option<Frame>>, todo: &mut Vec<usize>, i: usize, f: &Frame| {
        match &mut at[i] {
            Some(old) => {
                if old.join(f)? {
                    todo.push(i);
                }
            }
            slot @ None => {
                *slot = Some(f.clone());
                todo.push(i);
            }
        }
        Some(())
    };
    while let Some(i) = todo.pop() {
        let (pc, insn) = &code.insns[i];
        let f = at[i].clone()?;
        // exception handlers: the stack holds the (initialized) exception; the locals are
        // those of any instruction in the protected range, before or after it
        let handlers: Vec<usize> = code
            .handlers
            .iter()
            .filter(|h| h.start <= *pc && *pc < h.end)
            .filter_map(|h| index.get(&h.handler).copied())
            .collect();
        let after = step(*pc, insn, f.clone())?;
        for &h in &handlers {
            for locals in [&f.locals, &after.locals] {
                let caught = Frame {
                    stack: vec![Tag::Init],
                    locals: locals.clone(),
                };
                flow(&mut at, &mut todo, h, &caught)?;
            }
        }
        // (a `jsr` or `ret` made `step` give up above)
        for &s in &succs[i] {
            flow(&mut at, &mut todo, s, &after)?;
        }
    }
    Some(
        code.insns
            .iter()
            .zip(at)
            .filter_map(|((pc, _), f)| {
                let f = f?;
                let locals = (0..f.locals.len())
                    .filter(|&s| f.locals[s] == Tag::Init)
                    .collect();
                let stack = f.stack.iter().map(|t| *t == Tag::Init).collect();
                Some((*pc, Initialized { locals, stack }))
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtg_engine::class::MethodRef;

    fn init_of(class: &str) -> Insn {
        Insn::Invoke {
            kind: InvokeKind::Special,
            method: MethodRef {
                class: class.into(),
                name: "<init>".into(),
                desc: MethodDescriptor::parse("()V").unwrap(),
                desc_str: "()V".into(),
                interface: false,
            },
        }
    }

    fn locals(c: &Code, params: usize, constructor: bool) -> HashMap<u32, BTreeSet<usize>> {
        initialized(c, params, constructor)
            .expect("followed")
            .into_iter()
            .map(|(pc, i)| (pc, i.locals))
            .collect()
    }

    fn code(insns: Vec<Insn>) -> Code {
        Code {
            max_stack: 4,
            max_locals: 3,
            insns: insns
                .into_iter()
                .enumerate()
                .map(|(i, x)| (i as u32, x))
                .collect(),
            handlers: vec![],
            local_names: vec![],
            line_numbers: vec![],
        }
    }

    #[test]
    fn javac_allocation_initializes_before_the_store() {
        // new C; dup; invokespecial C.<init>; astore_1; aload_1; return
        let c = code(vec![
            Insn::New("C".into()),
            Insn::Dup,
            init_of("C"),
            Insn::Store(Kind::Ref, 1),
            Insn::Load(Kind::Ref, 1),
            Insn::Return(None),
        ]);
        let init = locals(&c, 0, false);
        assert!(init[&4].contains(&1));
        assert!(init[&0].contains(&1)); // not yet written: no object at all
                                        // the stack: both copies uninitialized before the call, the one left initialized after
        let all = initialized(&c, 0, false).expect("followed");
        assert_eq!(all[&2].stack, vec![false, false]);
        assert_eq!(all[&3].stack, vec![true]);
    }

    #[test]
    fn a_stored_new_object_is_uninitialized_until_its_init() {
        // new C; astore_1; aload_1; invokespecial C.<init>; aload_1; return — legal bytecode
        // that javac never writes: the local holds the uninitialized object for two steps
        let c = code(vec![
            Insn::New("C".into()),
            Insn::Store(Kind::Ref, 1),
            Insn::Load(Kind::Ref, 1),
            init_of("C"),
            Insn::Load(Kind::Ref, 1),
            Insn::Return(None),
        ]);
        let init = locals(&c, 0, false);
        assert!(!init[&2].contains(&1));
        assert!(!init[&3].contains(&1));
        assert!(init[&4].contains(&1));
    }

    #[test]
    fn a_constructors_this_is_uninitialized_until_super() {
        // aload_0; invokespecial Object.<init>; return
        let c = code(vec![
            Insn::Load(Kind::Ref, 0),
            init_of("java/lang/Object"),
            Insn::Return(None),
        ]);
        let init = locals(&c, 1, true);
        assert!(!init[&0].contains(&0));
        assert!(!init[&1].contains(&0));
        assert!(init[&2].contains(&0));
        // the same code in a method: `this` is an initialized object throughout
        let init = locals(&c, 1, false);
        assert!(init[&0].contains(&0));
    }

    #[test]
    fn joins_of_different_objects_stay_uninitialized() {
        // 0: new C; 1: astore_1; 2: iconst_0; 3: ifeq 6; 4: new C; 5: astore_1;
        // 6: aload_1; 7: invokespecial C.<init>; 8: return — at 6 slot 1 holds one of two
        // uninitialized objects; the init of "either" initializes neither for sure
        let c = code(vec![
            Insn::New("C".into()),
            Insn::Store(Kind::Ref, 1),
            Insn::IConst(0),
            Insn::If {
                cond: jtg_engine::class::Cond::Eq,
                target: 6,
            },
            Insn::New("C".into()),
            Insn::Store(Kind::Ref, 1),
            Insn::Load(Kind::Ref, 1),
            init_of("C"),
            Insn::Return(None),
        ]);
        let init = locals(&c, 0, false);
        assert!(!init[&6].contains(&1));
        assert!(!init[&8].contains(&1));
        assert!(init[&8].contains(&2));
    }

    #[test]
    fn subroutines_are_not_followed() {
        let c = code(vec![Insn::Jsr(1), Insn::Return(None)]);
        assert!(initialized(&c, 0, false).is_none());
    }
}
