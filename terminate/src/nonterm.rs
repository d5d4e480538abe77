//! NO witnesses, confirmed in the JVM (docs/proving.md, *NO for graphs*).
//!
//! * **Repeated state** ([`repeated_state`]): a run of a generated input whose full recorded
//!   state — every frame, the heap reachable from them up to a renaming of objects, the static
//!   fields accessed so far — is the same at steps `i`, `j` and `2j − i` never ends: the JVM is
//!   deterministic, and the lap from `j` to `2j − i` initialised no class the lap before had
//!   not (it executed the same instructions), so the state at `2j − i`, class initialisation
//!   included, is the state at `j`. Assumed, and refused where it fails: nothing the lap does
//!   depends on identity hash codes, time, randomness or other state the trace does not
//!   record — every invoked library method is on a short list of deterministic ones, every
//!   object is of a program class, an array or a string (compared by identity: the trace
//!   records only a string's length).
//! * **Recurrent set** ([`confirm_recurrent`]): the prover's set `G` at a loop head and the
//!   start values reaching it become a JVM input (a generated instance of the start state with
//!   the start's integers set to those values); the run must be cut by the step budget, never
//!   end, and the ITS values at every visit of the head must lie in `G`. A closed recurrent
//!   set (docs/proving-java-ints.md: every rule of the loop, Java ints' wrap cases included)
//!   is confirmed the same way, the values at every location of it lying in its set.

use crate::crosscheck::run_transitions;
use crate::from_graph::{Encoding, Quantity};
use crate::witness_input::{resize_arrays, temp_places};
use crate::{NoWitness, ProveConfig};
use anyhow::Result;
use jtg_check::Matcher;
use jtg_check::Target;
use jtg_engine::class::Insn;
use jtg_engine::instance_of::is_instance;
use jtg_engine::models::{deterministic_call, is_jdk_class};
use jtg_engine::state::{HeapValue, IntSemantics, Interval, MethodId, State};
use jtg_engine::{Graph, Program};
use jtg_jvm::{Budget, CObject, CValue, ObjId, Step, Trace, TraceEnd};
use jtg_prove::{in_set, ClosedRecurrentSet, LocId, RecurrentSet};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The canonical text of a step's state: objects numbered in the order a walk from the roots
/// meets them, strings by identity. `None` when the state holds something the repetition
/// argument does not cover (module docs).
fn canonical(step: &Step) -> Option<String> {
    let mut out = String::new();
    let mut numbers: HashMap<ObjId, usize> = HashMap::new();
    let mut order: Vec<ObjId> = Vec::new();
    let val = |v: &CValue,
               out: &mut String,
               numbers: &mut HashMap<ObjId, usize>,
               order: &mut Vec<ObjId>|
     -> Option<()> {
        match v {
            CValue::Int(i) => write!(out, "I{i},").ok(),
            CValue::Long(l) => write!(out, "L{l},").ok(),
            CValue::Float(f) => write!(out, "F{f},").ok(),
            CValue::Double(d) => write!(out, "D{d},").ok(),
            CValue::Null => write!(out, "N,").ok(),
            CValue::Top => write!(out, "T,").ok(),
            CValue::Uninit(_) => None,
            CValue::Ref(id) => {
                if let Some(CObject::Str { .. }) = step.heap.get(id) {
                    return write!(out, "S{id:?},").ok();
                }
                let n = *numbers.entry(*id).or_insert_with(|| {
                    order.push(*id);
                    order.len() - 1
                });
                write!(out, "R{n},").ok()
            }
        }
    };
    for f in &step.frames {
        write!(out, "|{}.{}{}@{}:", f.class, f.method, f.desc, f.pc).ok()?;
        for v in f.locals.iter().chain(&f.stack) {
            val(v, &mut out, &mut numbers, &mut order)?;
        }
    }
    for (k, v) in &step.statics {
        write!(out, "|{}.{}=", k.class, k.name).ok()?;
        val(v, &mut out, &mut numbers, &mut order)?;
    }
    let mut next = 0;
    while next < order.len() {
        let id = order[next];
        next += 1;
        match step.heap.get(&id)? {
            CObject::Instance { class, fields } => {
                if is_jdk_class(class) {
                    return None;
                }
                write!(out, "|{class}(").ok()?;
                for (name, v) in fields {
                    write!(out, "{name}=").ok()?;
                    val(v, &mut out, &mut numbers, &mut order)?;
                }
            }
            CObject::Array { elem, elems } => {
                write!(out, "|[{elem}").ok()?;
                for v in elems.iter() {
                    val(v, &mut out, &mut numbers, &mut order)?;
                }
            }
            CObject::Str { .. } => {}
        }
    }
    Some(out)
}

/// Deepest call stack whose states are compared: a deeper state is not looked at (its text
/// grows with the stack; a run recursing without bound never repeats a state anyway).
const MAX_REPEAT_DEPTH: usize = 64;

fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Steps `(i, j, k)` with `j − i = k − j` whose states are equal, and no lap from `i` to `k`
/// calls a method that is not a [`deterministic_call`]. States are kept as hashes of their
/// [`canonical`] text (memory stays linear in the run's length); a hash match is confirmed by
/// comparing the texts themselves.
fn find_repetition(prog: &Program, trace: &Trace) -> Option<(usize, usize, usize)> {
    let mut seen: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut calls_ok: Vec<bool> = Vec::new();
    let mut insns: HashMap<(String, String, String, u32), Option<Insn>> = HashMap::new();
    let mut prev: Option<(usize, Step)> = None;
    for k in 0..trace.len() {
        let top = trace.top_frame(k);
        let key = (
            top.class.to_string(),
            top.method.to_string(),
            top.desc.to_string(),
            top.pc,
        );
        let insn = insns
            .entry(key)
            .or_insert_with(|| {
                let m = MethodId::new(&top.class, &top.method, &top.desc);
                let c = prog.hierarchy.classpath().load(&m.class).ok()?;
                let meth = c.method(&m.name, Some(&m.desc)).ok()?;
                meth.code.as_ref()?.at(top.pc).cloned()
            })
            .clone();
        let ok = match &insn {
            Some(Insn::Invoke { method, .. }) => deterministic_call(&method.class, &method.name),
            Some(Insn::InvokeDynamic { .. }) | None => false,
            Some(_) => true,
        };
        calls_ok.push(ok);
        if trace.depth(k) > MAX_REPEAT_DEPTH {
            continue;
        }
        let step = match &prev {
            Some((p, s)) if *p + 1 == k => trace.step_after(k, usize::MAX, (*p, s)),
            _ => trace.step(k),
        };
        let text = canonical(&step);
        prev = Some((k, step));
        let Some(c) = text else {
            continue;
        };
        let same = |a: usize| canonical(&trace.step(a)).as_deref() == Some(c.as_str());
        let prev_k = seen.entry(text_hash(&c)).or_default();
        for &j in prev_k.iter().rev().take(8) {
            if 2 * j < k {
                continue;
            }
            let i = 2 * j - k;
            if prev_k.binary_search(&i).is_ok()
                && calls_ok[i..=k].iter().all(|b| *b)
                && same(j)
                && same(i)
            {
                return Some((i, j, k));
            }
        }
        prev_k.push(k);
    }
    None
}

/// Deepest call stack of the steps a recurrent set's run is judged on (module docs). A run
/// that passes it has recursed this deep without returning: the abstract call stack is
/// unbounded, the JVM's is not, and where the JVM ends such a run (`StackOverflowError`) depends
/// on its stack size and on which frames are compiled, i.e. on what ran before in the process.
/// The verdict therefore rests only on the run's steps up to this depth (every JVM stack holds
/// 256 frames of a program method), never on how or when the JVM ended the run.
pub(crate) const MAX_MATCH_DEPTH: usize = 256;

/// Frames materialised when a recurrent set's run is matched (the sum of the steps' depths):
/// a deterministic bound on the matching's time and memory. A loop whose every lap recurses
/// deeper (TPDB's `TerminatorRec04`) is matched on the prefix within it.
const MAX_MATCH_FRAMES: usize = 400_000;

/// The deterministic window of a run: the steps a NO witness is judged on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Window {
    /// The run passed [`MAX_MATCH_DEPTH`] at this step (recursion without return so far).
    Deep(usize),
    /// The frames bound [`MAX_MATCH_FRAMES`] was reached at this step of a run cut by the step
    /// budget.
    Frames(usize),
    /// The whole run, cut by the step budget.
    Whole(usize),
}

impl Window {
    /// Steps in the window.
    pub(crate) fn steps(self) -> usize {
        match self {
            Window::Deep(n) | Window::Frames(n) | Window::Whole(n) => n,
        }
    }
}

/// The window of `tr` (see [`Window`]), or `None` when the run ended inside it: returned,
/// threw, or was cut by the recording budget, before passing [`MAX_MATCH_DEPTH`].
pub(crate) fn window(tr: &Trace) -> Option<Window> {
    let mut frames = 0usize;
    let mut frames_at = None;
    for i in 0..tr.len() {
        let d = tr.depth(i);
        if d > MAX_MATCH_DEPTH {
            return Some(Window::Deep(i));
        }
        frames += d;
        if frames > MAX_MATCH_FRAMES && frames_at.is_none() {
            frames_at = Some(i);
        }
    }
    if !matches!(
        tr.end,
        TraceEnd::Cut {
            budget: Budget::Steps(_)
        }
    ) {
        return None;
    }
    Some(match frames_at {
        Some(i) => Window::Frames(i),
        None => Window::Whole(tr.len()),
    })
}

/// The methods of the frames at step `i`, deepest count first: `RecNo.down2 ×256, RecNo.main ×1`.
fn frame_counts(tr: &Trace, i: usize) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for f in &tr.step(i).frames {
        *counts
            .entry(format!("{}.{}", f.class.replace('/', "."), f.method))
            .or_default() += 1;
    }
    let mut v: Vec<(String, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.iter()
        .map(|(m, n)| format!("{m} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// JVM steps all the runs of one recurrent set's confirmation may take together: a
/// deterministic bound on the NO search's time (each run may take `--max-steps`).
const MAX_CONFIRM_STEPS: u64 = 500_000;

fn write_witness(cfg: &ProveConfig, m: &MethodId, text: &str) -> Result<String> {
    let path = match &cfg.witness_out {
        Some(p) => p.clone(),
        // named after the method and this process: two runs at once never share a file
        None => std::env::temp_dir().join(format!(
            "jtg-no-{}.{}-{}.state",
            m.class.replace('/', "."),
            m.name.replace(['<', '>'], ""),
            std::process::id()
        )),
    };
    std::fs::write(&path, text)?;
    Ok(path.display().to_string())
}

fn replay(cfg: &ProveConfig, m: &MethodId, file: &str) -> String {
    format!(
        "jtg trace {} '{}' --input {file} --max-steps {}",
        cfg.classpath,
        format_args!("{}.{}{}", m.class.replace('/', "."), m.name, m.desc),
        cfg.max_steps
    )
}

/// Searches generated inputs for a run whose state repeats (module docs).
pub(crate) fn repeated_state(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    cfg: &ProveConfig,
) -> Result<Option<NoWitness>> {
    let gen = cfg.generator(prog, m, graph)?;
    let target = Target::new(prog, m.clone(), jtg_jvm::classpath_entries(&cfg.classpath))?;
    let steps = cfg.max_steps.min(20_000);
    let inputs: Vec<State> = (0..cfg.nonterm_inputs)
        .map(|k| gen.case(k).map(|s| s.state))
        .collect::<Result<_, _>>()?;
    // the wall-clock safety net (`--max-secs`), checked between small batches of runs
    let started = std::time::Instant::now();
    let mut traces = Vec::with_capacity(inputs.len());
    for batch in inputs.chunks(4) {
        if started.elapsed() > cfg.timeout {
            anyhow::bail!(
                "stopped by the wall-clock safety net (--max-secs {}) after {} of {} inputs",
                cfg.timeout.as_secs_f64(),
                traces.len(),
                inputs.len()
            );
        }
        traces.extend(target.trace_batch(batch, steps));
    }
    for (input, tr) in inputs.iter().zip(traces) {
        if started.elapsed() > cfg.timeout {
            anyhow::bail!(
                "stopped by the wall-clock safety net (--max-secs {}) while looking for a repeated state",
                cfg.timeout.as_secs_f64()
            );
        }
        let tr = match tr {
            Ok(tr) => tr,
            // no input is to blame: the JVM cannot run the program at all
            Err(jtg_check::CheckError::Jvm(e)) if e.is_environment() => return Err(e.into()),
            Err(_) => continue,
        };
        if !matches!(
            tr.end,
            TraceEnd::Cut {
                budget: Budget::Steps(_)
            }
        ) {
            continue;
        }
        if let Some((i, j, k)) = find_repetition(prog, &tr) {
            let text = gen.print(input);
            let file = write_witness(cfg, m, &text)?;
            let top = tr.top_frame(i);
            return Ok(Some(NoWitness {
                kind: "repeated_state".into(),
                evidence: "state_repetition".into(),
                input: text,
                detail: format!(
                    "the state before step {i} ({}.{} pc {}) recurs at steps {j} and {k} (period {})",
                    top.class.replace('/', "."),
                    top.method,
                    top.pc,
                    j - i
                ) + "; a repetition of the JVM's own state, so true of Java's ints whatever --ints says",
                replay: replay(cfg, m, &file),
                input_file: file,
                int_model: int_model_name(cfg.ints).into(),
            }));
        }
    }
    Ok(None)
}

/// The set a NO's run must stay in: a cycle's recurrent set (per lap at the head) or a closed
/// recurrent set (per location, whichever rules the run takes).
#[derive(Clone, Copy)]
pub(crate) enum NoSet<'a> {
    Cycle(&'a RecurrentSet),
    Closed(&'a ClosedRecurrentSet),
}

impl<'a> NoSet<'a> {
    fn head(self, its: &jtg_prove::Its) -> LocId {
        match self {
            NoSet::Cycle(rs) => rs.head(its),
            NoSet::Closed(cs) => cs.head,
        }
    }

    /// The rules from the start to the set and the temporaries chosen at each.
    fn prefix(self) -> (&'a [jtg_prove::RuleId], &'a [Vec<jtg_prove::BigInt>]) {
        match self {
            NoSet::Cycle(rs) => (&rs.prefix, &rs.prefix_temps),
            NoSet::Closed(cs) => (&cs.prefix, &cs.prefix_temps),
        }
    }

    fn start_values(self) -> &'a [jtg_prove::BigInt] {
        match self {
            NoSet::Cycle(rs) => &rs.start_values,
            NoSet::Closed(cs) => &cs.start_values,
        }
    }

    /// Whether `vals` at `loc` lies in the set of lap position `phase` (a cycle) or of `loc`.
    fn contains(self, loc: LocId, phase: usize, vals: &[jtg_prove::BigInt]) -> bool {
        match self {
            NoSet::Cycle(rs) => in_set(&rs.sets[phase], vals),
            NoSet::Closed(cs) => cs.set(loc).is_some_and(|s| s.contains(vals)),
        }
    }

    /// The head's set, readable.
    fn describe(self, head: LocId, name: &dyn Fn(jtg_prove::Var) -> String) -> Vec<String> {
        match self {
            NoSet::Cycle(rs) => rs.sets[0].iter().map(|c| c.display_with(name)).collect(),
            NoSet::Closed(cs) => cs
                .set(head)
                .map(|s| {
                    s.constraints
                        .iter()
                        .map(|c| c.display_with(name))
                        .chain(s.congruences.iter().map(|k| k.display_with(name)))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// Why no input confirmed a recurrent set: the reason of the attempt that got furthest (a run
/// that entered the set and left it says more than one that ended at once), the first of
/// equals. `stage` orders the checks an attempt passes.
struct Furthest {
    stage: u8,
    text: String,
}

impl Furthest {
    fn new(text: &str) -> Furthest {
        Furthest {
            stage: 0,
            text: text.to_string(),
        }
    }

    fn note(&mut self, stage: u8, text: String) {
        if stage > self.stage {
            self.stage = stage;
            self.text = text;
        }
    }
}

/// Turns a recurrent set into a JVM input and confirms it (module docs); the witness, or why
/// it was not confirmed.
pub(crate) fn confirm_recurrent(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    enc: &Encoding,
    set: NoSet,
    cfg: &ProveConfig,
) -> Result<NoWitness, String> {
    let start = &graph.nodes[graph.start].state;
    let gen = cfg.generator(prog, m, graph).map_err(|e| e.to_string())?;
    let target = Target::new(prog, m.clone(), jtg_jvm::classpath_entries(&cfg.classpath))
        .map_err(|e| e.to_string())?;
    let head = set.head(&enc.its);
    // positions of the cycle that leave the head: the start of each lap
    let phases: Vec<usize> = match set {
        NoSet::Cycle(rs) => (0..rs.cycle.len())
            .filter(|&i| enc.its.rule(rs.cycle[i].rule).from == head)
            .collect(),
        NoSet::Closed(_) => vec![0],
    };
    let matcher = Matcher::new(graph, prog, cfg.ints);
    let mut last = Furthest::new("no input could be built");
    let mut spent = 0u64;
    // each generated input twice: with the path's temporaries where the graph shows what they
    // are (`witness_input`), then as generated (a guess that fails must not hide an input the
    // temporaries' values would have spoiled)
    let (prefix, temps) = set.prefix();
    let places = temp_places(graph, prog, enc, prefix, temps);
    let guides: &[bool] = if places.is_empty() {
        &[false]
    } else {
        &[true, false]
    };
    let attempts = (0..cfg.nonterm_inputs.max(1)).flat_map(|k| guides.iter().map(move |&g| (k, g)));
    for (k, guided) in attempts {
        if spent >= MAX_CONFIRM_STEPS {
            last.text = format!(
                "{} (then the JVM step budget of {MAX_CONFIRM_STEPS} was spent)",
                last.text
            );
            break;
        }
        let Ok(sample) = gen.case(k) else { continue };
        let mut input = sample.state;
        let Ok(w) = is_instance(&input, start, prog) else {
            continue;
        };
        // the start's integers get the start values of the certificate
        for (q, v) in enc.loc_vars[0].iter().zip(set.start_values()) {
            if let Quantity::Int(r) = q {
                let Some(&c) = w.map.get(r) else { continue };
                let Ok(v) = i128::try_from(v) else { continue };
                if let Some(HeapValue::Int(i) | HeapValue::Long(i)) = input.heap.get_mut(&c) {
                    *i = Interval::literal(v);
                }
                resize_arrays(&mut input, c, v);
            }
        }
        if is_instance(&input, start, prog).is_err() {
            last.note(1, "the start values do not fit the start state".into());
            continue;
        }
        if guided
            && (places.write(&mut input, &w.map) == 0 || is_instance(&input, start, prog).is_err())
        {
            continue;
        }
        let tr = match target.trace(&input, cfg.max_steps) {
            Ok(t) => t,
            Err(e) => {
                last.note(2, e.to_string());
                continue;
            }
        };
        // the verdict rests on the deterministic window only (see [`Window`]): how and when
        // the JVM ended a run past it does not count
        let Some(win) = window(&tr) else {
            spent += tr.len() as u64;
            last.note(
                3,
                format!("the run of case {k} ended within {} steps", tr.len()),
            );
            continue;
        };
        spent += win.steps() as u64;
        let tr = if win.steps() < tr.len() {
            match target.trace(&input, win.steps() as u64) {
                Ok(t) => t,
                Err(e) => {
                    last.note(2, e.to_string());
                    continue;
                }
            }
        } else {
            tr
        };
        let mut skipped = 0;
        let ts = match run_transitions(enc, graph, prog, &matcher, &tr, cfg.ints, &mut skipped) {
            Ok(ts) => ts,
            Err(why) => {
                last.note(4, why);
                continue;
            }
        };
        // a call that returned is a finished part of the run, summarized by its return rule:
        // an unbounded recursion is the chain of calls that never return (`f(x − 1) + f(x + 1)`
        // visits `f(0)` between the laps `f(2) → f(1) → f(2)` of its recurrent set)
        let visits: Vec<&Vec<jtg_prove::BigInt>> = ts
            .iter()
            .filter(|t| !t.in_returned_call && enc.its.rule(t.rule).to == head)
            .map(|t| &t.target)
            .collect();
        // the run may reach the head outside `G` first (a prefix value the certificate's
        // start values would have avoided) but must stay in `G` from its first visit inside
        let Some(first) = visits.iter().position(|v| set.contains(head, 0, v)) else {
            let why = format!(
                "the run of case {k} visits the loop head {} times, never inside the recurrent set",
                visits.len()
            );
            last.note(5, why);
            continue;
        };
        let visits = &visits[first..];
        if visits.len() < 2 {
            let why = format!(
                "the run of case {k} visits the loop head inside the recurrent set {} times",
                visits.len()
            );
            last.note(6, why);
            continue;
        }
        // a cycle of several laps passes the head once per lap: the j-th visit lies in the set
        // of the j-th lap's start (mod the laps)
        if let Some((j, out)) = visits
            .iter()
            .enumerate()
            .find(|(j, v)| !set.contains(head, phases[j % phases.len()], v))
        {
            let why = format!(
                "the run of case {k} leaves the recurrent set at visit {j} of the loop head ({out:?})"
            );
            last.note(7, why);
            continue;
        }
        let text = gen.print(&input);
        let file = write_witness(cfg, m, &text).map_err(|e| e.to_string())?;
        let node = enc.loc_node[head.index()].unwrap_or(graph.start);
        let names = &enc.loc_vars[head.index()];
        // a closed set: every location of it, on every transition from the first visit on;
        // which of its rules the run took, and where it wrapped around
        let mut taken = String::new();
        if let NoSet::Closed(cs) = set {
            let from = ts
                .iter()
                .position(|t| {
                    enc.its.rule(t.rule).to == head
                        && cs.set(head).is_some_and(|s| s.contains(&t.target))
                })
                .unwrap_or(0);
            if let Some((j, t)) = ts.iter().enumerate().skip(from).find(|(_, t)| {
                cs.set(enc.its.rule(t.rule).to)
                    .is_some_and(|s| !s.contains(&t.target))
            }) {
                let why = format!(
                    "the run of case {k} leaves the closed recurrent set at transition {j} ({:?})",
                    t.target
                );
                last.note(7, why);
                continue;
            }
            taken = rules_taken(enc, &ts[(from + 1).min(ts.len())..]);
        }
        let name = |v: jtg_prove::Var| {
            names
                .get(v.index())
                .map(|q| q.to_string())
                .unwrap_or_default()
        };
        let shown = set.describe(head, &name);
        let laps = match set {
            NoSet::Cycle(_) if phases.len() > 1 => {
                format!(" (a cycle of {} laps through it)", phases.len())
            }
            NoSet::Cycle(_) => String::new(),
            NoSet::Closed(cs) => format!(
                " (a set closed under all {} rule instances out of the loop's locations ({}), \
                 whichever the run takes{})",
                cs.steps.len(),
                cs.sets.len(),
                if cfg.ints == IntSemantics::Java {
                    ", the wrap-around cases of Java's ints included"
                } else {
                    ""
                }
            ),
        };
        let evidence = match win {
            Window::Deep(n) => format!(
                "{} visits in {n} steps, when the call depth passes {MAX_MATCH_DEPTH} without a \
                 return (frames {}): recursion without bound, non-termination on the unbounded \
                 abstract call stack; a JVM ends such a run with StackOverflowError where its \
                 stack is full (a depth that depends on its stack size and compiled code)",
                visits.len(),
                frame_counts(&tr, n - 1)
            ),
            Window::Frames(n) => format!(
                "{} visits in the first {n} steps (matched), the run cut by the step budget of {}, never ended",
                visits.len(),
                cfg.max_steps
            ),
            Window::Whole(n) => format!(
                "{} visits in {n} steps, the run cut by the step budget, never ended",
                visits.len()
            ),
        };
        return Ok(NoWitness {
            kind: "recurrent_set".into(),
            evidence: match win {
                Window::Deep(_) => "call_depth",
                Window::Frames(_) | Window::Whole(_) => "step_budget",
            }
            .into(),
            input: text,
            detail: format!(
                "loop head [{node}]{laps} stays in {{{}}}: {evidence}{taken}{}",
                shown.join(", "),
                int_model_caveat(cfg.ints, enc, set)
            ),
            replay: replay(cfg, m, &file),
            input_file: file,
            int_model: int_model_name(cfg.ints).into(),
        });
    }
    Err(last.text)
}

/// Which rules a run in a closed set took (`; the run took 3 rules of the set …`), and the
/// first transition whose integer jumped by 2³¹ or more: a wrap-around the JVM executed.
fn rules_taken(enc: &Encoding, ts: &[crate::crosscheck::ConcreteTransition]) -> String {
    let mut rules: Vec<jtg_prove::RuleId> = ts.iter().map(|t| t.rule).collect();
    rules.sort();
    rules.dedup();
    let half = jtg_prove::BigInt::from(1u64 << 31);
    let wrap = ts.iter().find_map(|t| {
        let names = &enc.loc_vars[enc.its.rule(t.rule).to.index()];
        t.args
            .iter()
            .zip(&t.target)
            .enumerate()
            .find(|(_, (a, b))| (*b - *a).magnitude() >= half.magnitude())
            .map(|(j, (a, b))| {
                let name = names.get(j).map(|q| q.to_string()).unwrap_or_default();
                format!(
                    "; it wrapped around at JVM step {} ({name}: {a} → {b})",
                    t.step
                )
            })
    });
    format!(
        "; the run took {} of the set's rules{}",
        rules.len(),
        wrap.unwrap_or_default()
    )
}

/// `--ints` as spelled on the command line.
pub(crate) fn int_model_name(ints: IntSemantics) -> &'static str {
    match ints {
        IntSemantics::Unbounded => "unbounded",
        IntSemantics::Java => "java",
    }
}

/// What a recurrent set's NO says about Java's ints. Under `--ints java` the ITS models
/// 32/64-bit wrap-around (an update that may leave the range is not exact), so the set is one of
/// the JVM's runs: nothing to add. Under unbounded integers the NO is about mathematical
/// integers: when an integer of the head changes by a constant every lap, a JVM run leaves
/// the set by overflow after at most `2³²/|c|` laps (`2⁶⁴/|c|` for a long), and says so.
fn int_model_caveat(ints: IntSemantics, enc: &Encoding, set: NoSet) -> String {
    if ints == IntSemantics::Java {
        return "; under Java's ints (--ints java: 32-bit int, 64-bit long, wrap-around), the \
                JVM's own arithmetic"
            .into();
    }
    let NoSet::Cycle(rs) = set else {
        return "; NO over mathematical integers (--ints unbounded): Java's ints may wrap, \
                --ints java decides the JVM's runs"
            .into();
    };
    let head = rs.head(&enc.its);
    let names = &enc.loc_vars[head.index()];
    let drift: Vec<String> = jtg_prove::composed_update(&enc.its, &rs.cycle)
        .map(|u| {
            u.iter()
                .enumerate()
                .filter(|(i, _)| matches!(names.get(*i), Some(Quantity::Int(_))))
                .filter_map(|(i, e)| {
                    let d = e.minus(&jtg_prove::LinExpr::var(jtg_prove::Var(i as u32)));
                    (d.is_constant() && !d.constant.is_zero())
                        .then(|| format!("{} changes by {} a lap", names[i], d.constant))
                })
                .collect()
        })
        .unwrap_or_default();
    if drift.is_empty() {
        "; NO over mathematical integers (--ints unbounded): Java's ints may wrap, --ints java \
         decides the JVM's runs"
            .into()
    } else {
        format!(
            "; NO over mathematical integers only (--ints unbounded): {}, so under Java's ints \
             this run overflows after at most 2^32 laps and may then end (the JVM run judged \
             here stops long before); --ints java decides the JVM's runs",
            drift.join(", ")
        )
    }
}
