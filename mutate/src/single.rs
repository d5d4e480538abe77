//! Methods with exactly one run: a static method without parameters, started from a state
//! without inputs, whose code can neither leave the method nor read anything outside it.
//!
//! Such a run is a function of nothing: the JVM executes the entry's instructions on values the
//! run itself makes (constants, arithmetic, arrays it allocates), so every run is the same run,
//! with the same steps and the same end (a step budget cuts it at the same step). The
//! instructions that could bring in something else are refused: a call or `invokedynamic`
//! (other code, the clock, a random source, identity hashes), a static field access or `new`
//! (which may run a class initializer, and a static's value is whatever it left), a monitor or
//! a `synchronized` entry (other threads), `ldc` of a method handle or type (a bootstrap may
//! run), and `jsr`/`ret`. The start state must hold nothing the generator draws: no local, no
//! stack entry, no static, no heap value. (Running out of memory is the one way the same JVM
//! could end the run differently; the allocations are the same in every run.)
//!
//! A mutant the one run does not kill, on the run's full length (`analysis` traces it again
//! within a budget far above the plan's, and claims nothing if that cuts it too), is then
//! equivalent: the check accepts exactly what it accepted on every input there is.

use jtg_engine::class::{Constant, Insn};
use jtg_engine::{Graph, Program};

/// Why `g`'s method has exactly one run (module docs), or `None`.
pub fn single_run(g: &Graph, prog: &Program) -> Option<String> {
    let start = &g.nodes.get(g.start)?.state;
    let inputs = start.frames.iter().any(|f| f.refs().next().is_some())
        || !start.statics.is_empty()
        || !start.heap.is_empty()
        || start.frames.len() != 1;
    if inputs {
        return None;
    }
    let m = prog.method(&g.method).ok()?;
    if !m.is_static || !m.desc.params.is_empty() || m.is_synchronized {
        return None;
    }
    let code = m.code.as_ref()?;
    let pure = code.insns.iter().all(|(_, insn)| match insn {
        Insn::Invoke { .. }
        | Insn::InvokeDynamic { .. }
        | Insn::GetStatic(_)
        | Insn::PutStatic(_)
        | Insn::New(_)
        | Insn::MonitorEnter
        | Insn::MonitorExit
        | Insn::Jsr(_)
        | Insn::Ret(_) => false,
        Insn::Ldc(c) => !matches!(c, Constant::Other(_)),
        _ => true,
    });
    pure.then(|| {
        format!(
            "single run: {} takes no input and its code calls nothing and reads no static, so every run is the one traced",
            g.method
        )
    })
}
