//! Class initializers (`<clinit>`). The JVM runs a class's initializer inside the step that
//! first uses the class (JVMS §5.5), and the engine's graphs do not enter it (the first read
//! of a static is an input). A run of the analysed method ends only if every initializer it
//! starts ends: `static { while (a == 0) {} }` makes `new A()` loop forever although the
//! method's graph ends there. So a YES also needs a YES for each initializer of a class-path
//! class the method's code may reach ([`Program::initializers`]: the reachable code's classes
//! and their supertypes), each proved on its own graph from its most general start — the
//! statics it reads are inputs, so every concrete initialization is a run of that graph.
//! The initializers one of them starts are on the method's list too, so none is proved
//! twice and no proof recurses. Most initializers end by their shape alone
//! ([`jtg_engine::class::loop_free`]: no backward edge, no recursion, only JDK calls that run
//! no program code) — javac's enum initializers among them, whose `Enum.<init>` the engine
//! does not execute — and need no graph.
//!
//! An initializer that ends by an exception makes its class's first use throw an
//! `ExceptionInInitializerError` (a `NoClassDefFoundError` at later uses), a step the graph
//! does not have either. Uncaught, it ends the run; so where the run's code has a handler
//! that catches it (`catch (Throwable t)`, a `finally`), each initializer must also be shown
//! not to throw: its graph must have no end by an exception (its shape says nothing about
//! exceptions, so that takes its graph).

use crate::from_graph::{encode, EncodeOptions};
use crate::{prove_encoding, reason, ProveConfig};
use jtg_engine::class::{loop_free, MethodRef};
use jtg_engine::models::ends_without_program_code;
use jtg_engine::state::{End, MethodId};
use jtg_engine::{build_graph, Graph, Options as BuildOptions, Program};
use jtg_prove::{Options, Verdict};

/// Nodes an initializer's graph may have (the corpus runner's node budget).
const MAX_NODES: usize = 20_000;

/// The first initializer a run of `m` from `graph`'s start may start that is not proved to
/// end, and why (`None`: every one is proved).
pub(crate) fn unproven(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    cfg: &ProveConfig,
) -> Option<String> {
    let start = &graph.nodes[graph.start].state;
    let inits = prog.initializers(start);
    inits
        .methods
        .iter()
        .filter(|init| *init != m)
        .find_map(|init| {
            let why = why_not_proved(prog, init, inits.caught_at.as_ref(), cfg)?;
            let normally = if inits.caught_at.is_some() { " normally" } else { "" };
            Some(format!(
                "the class initializer {init} that the run may start is not proved to end{normally}: {why}"
            ))
        })
}

/// Why `init` is not shown to end (`None`: it is): by its shape, or else by its graph's YES;
/// where `caught_at` (method, handler pc) catches the error of an initializer that throws,
/// also without an end by an exception in its graph.
fn why_not_proved(
    prog: &Program,
    init: &MethodId,
    caught_at: Option<&(MethodId, u32)>,
    cfg: &ProveConfig,
) -> Option<String> {
    let trusted = |r: &MethodRef| ends_without_program_code(&r.class, &r.name, &r.desc_str);
    if caught_at.is_none() && loop_free(&prog.hierarchy, &init.key(), &trusted) {
        return None;
    }
    let caught = |why: String| match caught_at {
        Some((at, pc)) => format!("{why}; the handler at {at} pc {pc} would catch its error"),
        None => why,
    };
    why_graph_not_proved(prog, init, caught_at.is_some(), cfg).map(caught)
}

/// Why the graph of `init` from its most general start does not show it ends (without an
/// exception where `no_throw`); `None`: it does.
fn why_graph_not_proved(
    prog: &Program,
    init: &MethodId,
    no_throw: bool,
    cfg: &ProveConfig,
) -> Option<String> {
    let start = match prog.default_start(init, cfg.ints) {
        Ok(s) => s,
        Err(e) => return Some(format!("no start state ({e})")),
    };
    let opts = BuildOptions {
        ints: cfg.ints,
        max_nodes: MAX_NODES.min(cfg.max_graph),
    };
    let graph = match build_graph(prog, init, start, &opts) {
        Ok(g) => g,
        Err(f) => return Some(format!("its graph is incomplete ({})", f.error)),
    };
    if no_throw {
        let throws = graph
            .nodes
            .iter()
            .position(|n| matches!(n.state.end, Some(End::Throw(_))));
        if let Some(n) = throws {
            return Some(format!("it may end by an exception [node {n}]"));
        }
    }
    let mut enc = match encode(&graph, prog, &EncodeOptions::new(cfg.ints)) {
        Ok(e) => e,
        Err(e) => return Some(format!("its graph is not encoded ({e})")),
    };
    let arity = enc.its.locations().iter().map(|l| l.arity()).max();
    if enc.its.rules().len() > cfg.max_rules || arity.unwrap_or(0) > cfg.max_arity {
        return Some(format!(
            "its ITS is too large to prove ({} rules)",
            enc.its.rules().len()
        ));
    }
    let opts = Options {
        timeout: cfg.timeout,
        max_work: cfg.max_work,
        // a NO of the initializer would need its own witness: MAYBE is all the caller states
        nontermination: false,
        ..Options::default()
    };
    let proof = match prove_encoding(&mut enc, cfg.ints, &opts) {
        Ok(p) => p,
        Err(e) => return Some(format!("its proof failed ({e})")),
    };
    (proof.verdict != Verdict::Yes)
        .then(|| reason::why_maybe(&graph, prog, &enc, &proof, &proof.notes))
}
