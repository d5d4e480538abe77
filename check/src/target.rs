//! The method being checked, run in the real JVM: engine states become concrete inputs
//! (`concrete`), the recorded traces key static fields as the engine does.

use crate::concrete::{arg_slots, state_to_input};
use crate::error::CheckError;
use jtg_engine::state::{MethodId, State};
use jtg_engine::Program;
use jtg_jvm::{trace_batch, JvmError, StaticKey, Trace, TraceOptions};
use std::path::PathBuf;

/// What is being checked: a method of a program, run from a class path.
pub struct Target<'a> {
    pub prog: &'a Program,
    pub method: MethodId,
    /// Class path entries the tracer instruments.
    pub classpath: Vec<PathBuf>,
    /// The local slots of the arguments (`this` included), see [`arg_slots`].
    pub arg_slots: Vec<usize>,
}

impl<'a> Target<'a> {
    pub fn new(
        prog: &'a Program,
        method: MethodId,
        classpath: Vec<PathBuf>,
    ) -> Result<Target<'a>, CheckError> {
        let m = prog.method(&method)?;
        let arg_slots = arg_slots(m.is_static, &m.desc.params);
        Ok(Target {
            prog,
            method,
            classpath,
            arg_slots,
        })
    }

    /// Runs the method in the JVM on a concrete input state.
    pub fn trace(&self, input: &State, max_steps: u64) -> Result<Trace, CheckError> {
        let mut r = self.trace_batch(std::slice::from_ref(input), max_steps);
        r.pop()
            .unwrap_or_else(|| Err(CheckError::BadInput("no trace".into())))
    }

    /// Runs the method on every input state, in order, as [`Target::trace`] would, but many
    /// runs per JVM call ([`trace_batch`]). The traces key static fields as the program's
    /// states do ([`Trace::resolve_statics`] with [`Program::static_key`]).
    pub fn trace_batch(&self, inputs: &[State], max_steps: u64) -> Vec<Result<Trace, CheckError>> {
        let opts = TraceOptions {
            max_steps,
            ..Default::default()
        };
        let mut out: Vec<Option<Result<Trace, CheckError>>> = Vec::with_capacity(inputs.len());
        let mut cis = Vec::with_capacity(inputs.len());
        for s in inputs {
            match state_to_input(s, &self.arg_slots) {
                Ok(ci) => {
                    cis.push(ci);
                    out.push(None);
                }
                Err(e) => out.push(Some(Err(e.into()))),
            }
        }
        let mut traces = trace_batch(
            &self.classpath,
            &self.method.class,
            &self.method.name,
            &self.method.desc,
            &cis,
            &opts,
        )
        .into_iter();
        // static fields keyed as the engine keys them: by the class that declares them
        let key = |class: &str, name: &str| {
            let (class, name) = self.prog.static_key(&jtg_engine::class::FieldRef {
                class: class.to_string(),
                name: name.to_string(),
                desc: jtg_engine::class::FieldType::Int,
            });
            StaticKey { class, name }
        };
        out.into_iter()
            .map(|o| match o {
                Some(e) => e,
                None => traces
                    .next()
                    .unwrap_or_else(|| Err(JvmError::Decode("missing trace".into())))
                    .map(|mut t| {
                        t.resolve_statics(&key);
                        t
                    })
                    .map_err(CheckError::from),
            })
            .collect()
    }
}
