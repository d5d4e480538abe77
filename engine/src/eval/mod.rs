//! Symbolic evaluation (spec §6): one instruction per evaluation edge. When an instruction
//! cannot be executed deterministically, the step returns the refinement that makes it so and
//! the graph builder retries on each successor.
//!
//! One module per instruction family: [`stack`] (loads, stores, constants, stack shuffles),
//! [`arith`] (int and long), [`float`] (float and double), [`array`], [`branch`], [`field`]
//! (instance and static fields), [`invoke`] (new, calls, returns), [`dynamic`]
//! (`invokedynamic`: string concatenation, lambda sites), [`lambda`] (calls of a lambda
//! object's method), [`exception`] (throwing and handling).

mod arith;
mod array;
mod branch;
mod dispatch;
mod dynamic;
mod exception;
mod field;
pub(crate) use field::may_reach_from;
mod float;
mod invoke;
mod lambda;
mod library;
mod stack;
pub(crate) mod summary;

use crate::class::{ClassError, Insn, Kind};

use crate::edge::{EdgeKind, Label, Side};
use crate::error::EngineError;
use crate::program::Program;
use crate::refine::{self, Succ};
use crate::state::{HeapValue, IntSemantics, MethodId, Ref, State};

/// What one step from a state produces.
#[derive(Debug)]
pub(crate) enum StepOutcome {
    /// The instruction was evaluated: one successor along an edge of `kind`
    /// (eval, call or return).
    Eval { kind: EdgeKind, succ: Box<Succ> },
    /// A case analysis is needed first: successors along refinement or split edges.
    Refine { kind: EdgeKind, succs: Vec<Succ> },
    /// A call abstraction (see [`summary`]): a `call` edge to the callee's entry node and a
    /// `return` edge to the caller's continuation.
    Abstract(Box<summary::CallAbstraction>),
}

/// The evaluation context.
pub(crate) struct Ctx<'a> {
    pub prog: &'a Program,
    pub sem: IntSemantics,
    /// The classes an object of the analysed run can have ([`Program::world`]).
    pub world: &'a crate::class::World,
    /// What the continuations of abstracted calls may assume of their callees.
    pub facts: &'a summary::CalleeFacts,
    /// The classes the run's collections may hold (a store of another admitted class is
    /// [`EngineError::ElementClass`]: the builder starts again with it).
    pub elements: &'a crate::models::elements::ElementTypes,
}

/// Performs one step from `st` (which must not be a program end).
pub(crate) fn step(st: &State, cx: &Ctx<'_>) -> Result<StepOutcome, EngineError> {
    let frame = st
        .top()
        .ok_or_else(|| EngineError::Internal("step from a program end".into()))?;
    let class = cx.prog.hierarchy.classpath().load(&frame.method.class)?;
    let method = class.method(&frame.method.name, Some(&frame.method.desc))?;
    let code = method.code.as_ref().ok_or_else(|| EngineError::Invalid {
        method: frame.method.clone(),
        pc: frame.pc,
        what: "method has no code".into(),
    })?;
    let insn = code.at(frame.pc).ok_or_else(|| EngineError::Invalid {
        method: frame.method.clone(),
        pc: frame.pc,
        what: "no instruction at this pc".into(),
    })?;
    let mut ex = Exec {
        st: st.clone(),
        before: st.clone(),
        cx,
        method: frame.method.clone(),
        pc: frame.pc,
        labels: vec![],
        kind: EdgeKind::Eval,
        mnemonic: insn.mnemonic(),
    };
    ex.st.split.take();
    // a loop's head realizes the objects the loop reads through locals it never assigns, so
    // that every lap reads the same fields (`i < c.n`, `i < xs.size()` keep one bound)
    if let Some(locals) = cx.prog.loop_receivers(&frame.method).get(&frame.pc) {
        for &k in locals {
            let Some(&Some(r)) = frame.locals.get(usize::from(k)) else {
                continue;
            };
            // a realization the engine cannot make here (every class below `Object`) is left
            // to the loop's own read, which may not need it
            if let Ok(Some(Flow::Refine(kind, succs))) = ex.need_realized(r) {
                return Ok(StepOutcome::Refine { kind, succs });
            }
        }
    }
    let outcome = match insn {
        Insn::Nop => Ok(Flow::Next),
        Insn::AConstNull
        | Insn::IConst(_)
        | Insn::LConst(_)
        | Insn::FConst(_)
        | Insn::DConst(_)
        | Insn::Ldc(_)
        | Insn::Load(..)
        | Insn::Store(..)
        | Insn::Pop
        | Insn::Pop2
        | Insn::Dup
        | Insn::DupX1
        | Insn::DupX2
        | Insn::Dup2
        | Insn::Dup2X1
        | Insn::Dup2X2
        | Insn::Swap => stack::eval(&mut ex, insn),
        Insn::Arith(Kind::Float | Kind::Double, _)
        | Insn::FCmpL
        | Insn::FCmpG
        | Insn::DCmpL
        | Insn::DCmpG => float::eval(&mut ex, insn),
        Insn::Convert { from, to }
            if [from, to]
                .iter()
                .any(|k| matches!(k, Kind::Float | Kind::Double)) =>
        {
            float::eval(&mut ex, insn)
        }
        Insn::Arith(..)
        | Insn::Convert { .. }
        | Insn::LCmp
        | Insn::IInc { .. }
        | Insn::I2B
        | Insn::I2C
        | Insn::I2S => arith::eval(&mut ex, insn),
        Insn::If { .. }
        | Insn::IfICmp { .. }
        | Insn::IfACmp { .. }
        | Insn::IfNull { .. }
        | Insn::IfNonNull { .. }
        | Insn::Goto(_)
        | Insn::TableSwitch { .. }
        | Insn::LookupSwitch { .. } => branch::eval(&mut ex, insn, st),
        Insn::GetField(_) | Insn::PutField(_) | Insn::GetStatic(_) | Insn::PutStatic(_) => {
            field::eval(&mut ex, insn)
        }
        Insn::New(_)
        | Insn::Invoke { .. }
        | Insn::Return(_)
        | Insn::CheckCast(_)
        | Insn::InstanceOf(_)
        | Insn::MonitorEnter
        | Insn::MonitorExit => invoke::eval(&mut ex, insn),
        Insn::AThrow => exception::athrow(&mut ex),
        Insn::InvokeDynamic {
            name,
            descriptor,
            site,
        } => dynamic::eval(&mut ex, name, descriptor, site),
        Insn::NewArray(_)
        | Insn::ANewArray(_)
        | Insn::MultiANewArray { .. }
        | Insn::ArrayLength
        | Insn::ArrayLoad(_)
        | Insn::ArrayStore(_) => array::eval(&mut ex, insn),
        _ => Err(ex.unsupported("instruction not modelled".into())),
    }
    .map_err(|e| match e {
        // a JDK class without a model in `models/`: an unsupported library call, located
        EngineError::Class(ClassError::NotFound { class })
            if crate::models::is_jdk_class(&class) =>
        {
            match insn {
                // a static method of a class the engine has no table entry for, though it
                // may model others of it (`Arrays.fill`, `Collections.sort`): name the method
                Insn::Invoke { method, .. } if method.class == class => ex.unsupported(format!(
                    "library method {}.{}{} (no model)",
                    class.replace('/', "."),
                    method.name,
                    method.desc_str
                )),
                _ => ex.unsupported(format!(
                    "library class {} is not modelled",
                    class.replace('/', ".")
                )),
            }
        }
        e => e,
    })?;
    let next_pc = code.next_pc(ex.pc);
    match outcome {
        Flow::Refine(kind, succs) => Ok(StepOutcome::Refine { kind, succs }),
        Flow::Abstract(a) => Ok(StepOutcome::Abstract(a)),
        flow => {
            match flow {
                Flow::Next => {
                    let pc = next_pc.ok_or_else(|| ex.invalid("execution falls off the code"))?;
                    ex.top()?.pc = pc;
                }
                Flow::Jump(t) => ex.top()?.pc = t,
                Flow::Done => {}
                Flow::Refine(..) | Flow::Abstract(_) => unreachable!("handled above"),
            }
            cx.prog.forget_dead_locals(&mut ex.st);
            ex.st.gc();
            // a result dead at once (`iinc` of a local never read again, as in a `finally`
            // after the value to return is saved) is collected with its local: a label would
            // name a value the target does not hold, so it claims nothing and is dropped
            let (st, before, step) = (&ex.st, &ex.before, ex.kind.is_step());
            ex.labels.retain(|l| {
                l.reads(step).iter().all(|(r, side)| match side {
                    Side::Source => true,
                    Side::Target => st.value(*r).is_some(),
                    Side::Either => before.value(*r).is_some() || st.value(*r).is_some(),
                })
            });
            Ok(StepOutcome::Eval {
                kind: ex.kind,
                succ: Box::new(Succ::labelled(ex.st, ex.labels)),
            })
        }
    }
}

/// How control continues after an instruction.
pub(crate) enum Flow {
    /// To the next instruction.
    Next,
    /// To this pc of the current frame.
    Jump(u32),
    /// Frames and pcs were already set (calls, returns, exceptions).
    Done,
    /// A refinement must happen first.
    Refine(EdgeKind, Vec<Succ>),
    /// The call is abstracted (recursion).
    Abstract(Box<summary::CallAbstraction>),
}

/// The state being evaluated plus the context of the current instruction.
pub(crate) struct Exec<'a> {
    pub st: State,
    /// The state before the instruction; refinements apply to it.
    pub before: State,
    pub cx: &'a Ctx<'a>,
    pub method: MethodId,
    pub pc: u32,
    pub labels: Vec<Label>,
    pub kind: EdgeKind,
    /// The JVM mnemonic of the instruction, for error messages.
    pub mnemonic: &'static str,
}

impl Exec<'_> {
    /// An unsupported-feature error naming the instruction (class, method and pc come with
    /// the error's fields).
    pub(crate) fn unsupported(&self, what: String) -> EngineError {
        EngineError::Unsupported {
            method: self.method.clone(),
            pc: self.pc,
            what: format!("{}: {what}", self.mnemonic),
        }
    }
    pub(crate) fn invalid(&self, what: &str) -> EngineError {
        EngineError::Invalid {
            method: self.method.clone(),
            pc: self.pc,
            what: format!("{}: {what}", self.mnemonic),
        }
    }
    pub(crate) fn top(&mut self) -> Result<&mut crate::state::Frame, EngineError> {
        let m = self.method.clone();
        let pc = self.pc;
        self.st.top_mut().ok_or(EngineError::Invalid {
            method: m,
            pc,
            what: "no frame".into(),
        })
    }
    pub(crate) fn pop(&mut self) -> Result<Ref, EngineError> {
        let e = self.invalid("operand stack underflow");
        self.top()?.stack.pop().ok_or(e)
    }
    /// The `k`-th value from the top of the operand stack (0 = top), without popping.
    pub(crate) fn peek(&mut self, k: usize) -> Result<Ref, EngineError> {
        let e = self.invalid("operand stack underflow");
        let s = &self.top()?.stack;
        s.len().checked_sub(k + 1).map(|i| s[i]).ok_or(e)
    }
    pub(crate) fn push(&mut self, r: Ref) -> Result<(), EngineError> {
        self.top()?.stack.push(r);
        Ok(())
    }
    pub(crate) fn sem(&self) -> IntSemantics {
        self.cx.sem
    }

    /// Refinement needed before an object reference can be used as a realized object: an
    /// equality refinement against a realized `=?` partner (invariant 2.5.1), else an instance
    /// refinement. `None` when `r` is null or already realized.
    pub(crate) fn need_realized(&self, r: Ref) -> Result<Option<Flow>, EngineError> {
        match self.st.value(r) {
            Some(HeapValue::Unknown { .. } | HeapValue::Abstract { .. }) => {}
            _ => return Ok(None),
        }
        for p in self.st.preds.may_equal_partners(r) {
            if matches!(
                self.st.value(p),
                Some(HeapValue::Object { .. } | HeapValue::Array { .. })
            ) {
                let succs = refine::equality::refine(&self.st_before(), r, p, self.cx.prog);
                return Ok(Some(Flow::Refine(EdgeKind::Refine, succs)));
            }
        }
        let succs = refine::instance::refine(
            &self.st_before(),
            r,
            self.cx.prog,
            self.cx.world,
            self.cx.sem,
            (&self.method, self.pc),
        )
        .map_err(|e| match e {
            EngineError::Unsupported { method, pc, what } => EngineError::Unsupported {
                method,
                pc,
                what: format!("{}: {what}", self.mnemonic),
            },
            other => other,
        })?;
        Ok(Some(Flow::Refine(EdgeKind::Refine, succs)))
    }

    /// Refinement needed before `r` is known to be `null` or an existing object (uses that do
    /// not read its fields): none if it is either already, else [`Exec::need_realized`].
    pub(crate) fn need_null_or_existing(&self, r: Ref) -> Result<Option<Flow>, EngineError> {
        if r.is_null() || self.st.value(r).is_some_and(HeapValue::exists) {
            return Ok(None);
        }
        self.need_realized(r)
    }

    /// Refinement needed before `r` may be written through: every realized `=?` partner is
    /// resolved first, so that aliases see the write (spec §6.2 putfield). A partner whose
    /// fields the state does not show needs no case analysis: the write's predicates
    /// ([`field::after_write`]) count it among the references that may reach `r`, so it may
    /// share with (and reach) the written value, and realizing it later resolves its `=?`
    /// with the realized `r` first.
    pub(crate) fn need_unaliased(&self, r: Ref) -> Option<Flow> {
        let realized = |x: Ref| {
            matches!(
                self.st.value(x),
                Some(HeapValue::Object { .. } | HeapValue::Array { .. })
            )
        };
        let p = *self
            .st
            .preds
            .may_equal_partners(r)
            .iter()
            .find(|p| realized(**p) || !realized(r))?;
        let (a, b) = match self.st.value(r) {
            Some(HeapValue::Object { .. } | HeapValue::Array { .. }) => (p, r),
            _ => (r, p),
        };
        let succs = refine::equality::refine(&self.st_before(), a, b, self.cx.prog);
        Some(Flow::Refine(EdgeKind::Refine, succs))
    }

    /// The state as it was before this instruction began (refinements apply to it).
    pub(crate) fn st_before(&self) -> State {
        self.before.clone()
    }
}
