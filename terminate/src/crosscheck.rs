//! The cross-check of a verdict on concrete runs (`jtg prove --check N`): every run's path
//! through the graph (the checker's matcher, with its witness per step) becomes a run of the
//! ITS — locations from the path's nodes, variable values from the witnesses, sizes counted on
//! the concrete heap ([`concrete_size`]) — and every transition must satisfy its rule (the
//! export is sound) and decrease every ranking function that the certificate says decreases
//! on it (the proof is sound).

use crate::from_graph::quantity::{dist_fields, FieldName};
use crate::from_graph::{Encoding, Quantity};
use crate::{chain_text, ProveConfig};
use anyhow::Result;
use jtg_check::Target;
use jtg_check::{first_overflow, ConcreteRun, Extent, Matcher, PathEntry};
use jtg_engine::graph::NodeId;
use jtg_engine::state::FieldSet;
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::{Graph, Program};
use jtg_jvm::{CHeap, CObject, CValue, ObjId, TraceEnd};

/// Steps of each cross-checked run (a prefix of a longer run is checked, as a cut run is):
/// mapping a step counts sizes on the concrete heap, so a run whose heap grows every lap costs
/// time quadratic in its length (TPDB's `CyclicalListDuplicate`: about 30 s per run at
/// 100 000 steps, which held the whole corpus run).
pub(crate) const MAX_CHECKED_STEPS: u64 = 10_000;
use jtg_prove::{check_transition, BigInt, RuleId, TerminationCertificate};
use std::collections::{BTreeMap, BTreeSet};

/// One transition of an ITS run read off a concrete run.
#[derive(Clone, Debug)]
pub(crate) struct ConcreteTransition {
    pub rule: RuleId,
    /// The step of the run where the rule's first node was.
    pub step: usize,
    pub args: Vec<BigInt>,
    pub temps: Vec<BigInt>,
    pub target: Vec<BigInt>,
    /// The transition lies inside an abstracted call that returns later in the run: from the
    /// rule that enters the callee to the callee's end. The caller goes on by the call's
    /// return rule, so the ITS run of the caller does not take these transitions.
    pub in_returned_call: bool,
}

/// The length of the array or string `v` on the heap of step `step` (0 for null): what the
/// encoding's length variables denote. `None` for any other value. `v` is a value of the
/// step's `frames` top frames (as for [`concrete_size`]).
pub(crate) fn concrete_len(
    run: &dyn ConcreteRun,
    step: usize,
    frames: usize,
    v: CValue,
) -> Option<BigInt> {
    on_heap(run, step, frames, v, |heap, id| length_of(heap.get(&id)?))
}

/// The greatest length among the elements of the array `v` on the heap of step `step` (0 for
/// null, an empty array or only null elements): the encoding's `maxlen(a[*])`.
pub(crate) fn concrete_elem_len(
    run: &dyn ConcreteRun,
    step: usize,
    frames: usize,
    v: CValue,
) -> Option<BigInt> {
    on_heap(run, step, frames, v, |heap, id| {
        let Some(CObject::Array { elems, .. }) = heap.get(&id) else {
            return None;
        };
        elems.iter().try_fold(0, |max: usize, e| {
            let n = match e {
                CValue::Null => 0,
                CValue::Ref(o) => length_of(heap.get(o)?)?,
                _ => return None,
            };
            Some(max.max(n))
        })
    })
}

/// The length of an array or a string.
fn length_of(o: &CObject) -> Option<usize> {
    match o {
        CObject::Array { elems, .. } => Some(elems.len()),
        CObject::Str { len } => Some(*len as usize),
        _ => None,
    }
}

/// `measure` of the object `v` refers to, on the heap of step `step` (`0` for null; `None`
/// for a value that is no reference).
fn on_heap(
    run: &dyn ConcreteRun,
    step: usize,
    frames: usize,
    v: CValue,
    measure: impl FnOnce(&CHeap, ObjId) -> Option<usize>,
) -> Option<BigInt> {
    let id = match v {
        CValue::Null => return Some(BigInt::from(0)),
        CValue::Ref(id) => id,
        _ => return None,
    };
    if run.is_empty() {
        return None;
    }
    measure(&run.top_step(step.min(run.len() - 1), frames).heap, id).map(BigInt::from)
}

/// The number of objects reachable from `v` on the heap of step `step` (0 for null): the size
/// the encoding's size variables denote. `None` for a value that is no reference. `v` is a
/// value of the step's `frames` top frames (a node's state has no more): only they and the
/// heap they reach are materialised, so a deep recursion costs its top frames, not its depth.
pub(crate) fn concrete_size(
    run: &dyn ConcreteRun,
    step: usize,
    frames: usize,
    v: CValue,
    skip: Option<FieldName>,
) -> Option<BigInt> {
    let id = match v {
        CValue::Null => return Some(BigInt::from(0)),
        CValue::Ref(id) => id,
        _ => return None,
    };
    let at = step.min(run.len().saturating_sub(1));
    if run.is_empty() {
        return None;
    }
    let s = run.top_step(at, frames);
    let mut seen = BTreeSet::new();
    let mut todo = vec![id];
    while let Some(o) = todo.pop() {
        if !seen.insert(o) {
            continue;
        }
        match s.heap.get(&o) {
            Some(CObject::Instance { fields, .. }) => {
                todo.extend(fields.iter().filter_map(|(k, f)| match f {
                    CValue::Ref(r) if skip.is_none_or(|g| g.as_str() != k.as_str()) => Some(*r),
                    _ => None,
                }))
            }
            Some(CObject::Array { .. }) if skip.is_some_and(|g| g.as_str() == "[]") => {}
            Some(CObject::Array { elems, .. }) => {
                todo.extend(elems.iter().filter_map(|f| match f {
                    CValue::Ref(r) => Some(*r),
                    _ => None,
                }))
            }
            Some(CObject::Str { .. }) => {}
            None => return None,
        }
    }
    Some(BigInt::from(seen.len()))
}

/// The length of the shortest path along fields of `fields` from `from` to `to` on the heap
/// of step `step` (0 when they are one value): the value the encoding's distance variables
/// denote. `None` when `to` is not reached (then the state's `→!F` fact is violated, which
/// `jtg check` reports) or a value is no reference. `from` and `to` are values of the step's
/// `frames` top frames (as for [`concrete_size`]).
pub(crate) fn concrete_dist(
    run: &dyn ConcreteRun,
    step: usize,
    frames: usize,
    from: CValue,
    to: CValue,
    fields: &FieldSet,
) -> Option<BigInt> {
    if run.is_empty() {
        return None;
    }
    let s = run.top_step(step.min(run.len() - 1), frames);
    // breadth first: the first time `to` is met is the shortest path
    let mut seen: BTreeSet<jtg_jvm::ObjId> = BTreeSet::new();
    let mut layer = vec![from];
    let mut d: u64 = 0;
    while !layer.is_empty() {
        let mut next = Vec::new();
        for v in layer {
            if v == to {
                return Some(BigInt::from(d));
            }
            let CValue::Ref(id) = v else { continue };
            if !seen.insert(id) {
                continue;
            }
            if let Some(CObject::Instance { fields: fs, .. }) = s.heap.get(&id) {
                next.extend(fields.iter().filter_map(|f| fs.get(f.as_str()).copied()));
            }
        }
        layer = next;
        d += 1;
    }
    None
}

fn value_of(graph: &Graph, run: &dyn ConcreteRun, e: &PathEntry, q: Quantity) -> Option<BigInt> {
    let v = e.witness.get(q.reference())?;
    // the node's frames are the run's top ones (an abstracted call's callee frames only)
    let frames = graph.nodes[e.node].state.frames.len().max(1);
    match q {
        Quantity::Int(_) => match v {
            CValue::Int(i) => Some(BigInt::from(i)),
            CValue::Long(l) => Some(BigInt::from(l)),
            _ => None,
        },
        Quantity::Size(_) => concrete_size(run, e.step, frames, v, None),
        Quantity::SizeAvoiding(_, g) => concrete_size(run, e.step, frames, v, Some(g)),
        Quantity::Len(_) => concrete_len(run, e.step, frames, v),
        Quantity::ElemLen(_) => concrete_elem_len(run, e.step, frames, v),
        Quantity::Dist(a, b) => {
            let to = if b.is_null() {
                CValue::Null
            } else {
                e.witness.get(b)?
            };
            let fields = dist_fields(&graph.nodes[e.node].state, a, b)?;
            concrete_dist(run, e.step, frames, v, to, fields)
        }
    }
}

/// The ITS transitions of a matched path; `skipped` counts those with a value the run did not
/// bind (a reference the witness leaves out).
pub(crate) fn transitions(
    enc: &Encoding,
    graph: &Graph,
    run: &dyn ConcreteRun,
    path: &[PathEntry],
    skipped: &mut u64,
) -> Vec<ConcreteTransition> {
    let chains = enc.rule_by_chain();
    let is_loc: BTreeMap<NodeId, usize> = enc
        .loc_node
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| (n, i)))
        .collect();
    let mut out = Vec::new();
    let Some(first) = path.first() else {
        return out;
    };
    let start = enc.its.start();
    // the start location stands at the first entry; the start rule of a start node that is
    // a location composes nothing
    if is_loc.contains_key(&first.node) {
        if let Some(&rule) = chains
            .get(&(start, vec![first.node]))
            .and_then(|rs| rs.first())
        {
            let vals: Option<Vec<BigInt>> = enc.loc_vars[0]
                .iter()
                .map(|q| value_of(graph, run, first, *q))
                .collect();
            match vals {
                Some(v) => out.push(ConcreteTransition {
                    rule,
                    step: first.step,
                    args: v.clone(),
                    temps: vec![],
                    target: v,
                    in_returned_call: false,
                }),
                None => *skipped += 1,
            }
        }
    }
    // the abstracted calls entered and not yet left: the path positions of the rule's nodes
    // up to the call node, which the rule of the return continues after the callee ended,
    // and the first transition of the call (the one that enters it)
    let mut calls: Vec<(Vec<usize>, usize)> = Vec::new();
    let mut locs: Vec<usize> = (0..path.len())
        .filter(|&k| is_loc.contains_key(&path[k].node))
        .collect();
    let from_start = locs.first() != Some(&0);
    if from_start {
        locs.insert(0, 0);
    }
    for (wi, w) in locs.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let ends_call = graph.nodes[path[a].node].is_end() && !calls.is_empty();
        let at: Vec<usize> = if ends_call {
            // the callee ended: the caller continues along a return edge of the call node
            let (mut at, first) = calls.pop().expect("checked");
            for t in &mut out[first..] {
                t.in_returned_call = true;
            }
            at.extend(a + 1..=b);
            at
        } else {
            (a..=b).collect()
        };
        let nodes: Vec<NodeId> = at.iter().map(|&k| path[k].node).collect();
        let entries: Vec<&PathEntry> = at.iter().map(|&k| &path[k]).collect();
        let from = if wi == 0 && from_start {
            start
        } else {
            match enc.location_of(nodes[0]) {
                Some(l) => l,
                None => {
                    *skipped += 1;
                    continue;
                }
            }
        };
        // every abstracted call the rule enters (the callee's entry may be chained through)
        for i in 0..nodes.len() - 1 {
            let enters = graph
                .edges
                .iter()
                .any(|e| e.from == nodes[i] && e.to == nodes[i + 1] && e.is_abstract_call());
            if enters {
                calls.push((at[..=i].to_vec(), out.len()));
            }
        }
        let chain = (from, nodes);
        let Some(rules) = chains.get(&chain) else {
            *skipped += 1;
            continue;
        };
        // a chain split by a dividend's sign has one rule per side: the run takes the one
        // whose guard holds (none holding is reported on the first, an export violation)
        let candidates: Vec<ConcreteTransition> = rules
            .iter()
            .filter_map(|&rule| {
                let origin = &enc.origins[rule.index()];
                let from = enc.its.rule(rule).from;
                let to = enc.its.rule(rule).to;
                let args: Option<Vec<BigInt>> = enc.loc_vars[from.index()]
                    .iter()
                    .map(|q| value_of(graph, run, entries[0], *q))
                    .collect();
                let temps: Option<Vec<BigInt>> = origin
                    .temps
                    .iter()
                    .map(|(pos, q)| value_of(graph, run, entries[*pos], *q))
                    .collect();
                let target: Option<Vec<BigInt>> = enc.loc_vars[to.index()]
                    .iter()
                    .map(|q| value_of(graph, run, entries[entries.len() - 1], *q))
                    .collect();
                Some(ConcreteTransition {
                    rule,
                    step: entries[0].step,
                    args: args?,
                    temps: temps?,
                    target: target?,
                    in_returned_call: false,
                })
            })
            .collect();
        let taken = candidates.iter().position(|t| {
            matches!(enc.its.step(t.rule, &t.args, &t.temps), Ok(Some(next)) if next == t.target)
        });
        match taken.or((!candidates.is_empty()).then_some(0)) {
            Some(k) => out.push(candidates[k].clone()),
            None => *skipped += 1,
        }
    }
    out
}

/// What a transition violates, if anything: (kind, detail).
pub(crate) fn check_one(
    enc: &Encoding,
    cert: Option<&TerminationCertificate>,
    t: &ConcreteTransition,
) -> Option<(String, String)> {
    let empty = TerminationCertificate::default();
    let c = match check_transition(&enc.its, cert.unwrap_or(&empty), t.rule, &t.args, &t.temps) {
        Ok(c) => c,
        Err(e) => return Some(("export".into(), e.to_string())),
    };
    let vals = |v: &[BigInt]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &c.successor {
        None => {
            return Some((
                "export".into(),
                format!(
                    "the guard is false on ({}) with temporaries ({})",
                    vals(&t.args),
                    vals(&t.temps)
                ),
            ))
        }
        Some(next) if *next != t.target => {
            return Some((
                "export".into(),
                format!(
                    "the update gives ({}), the run has ({})",
                    vals(next),
                    vals(&t.target)
                ),
            ))
        }
        _ => {}
    }
    if let Some(cert) = cert {
        let rule = enc.its.rule(t.rule);
        for (loc, v) in [(rule.from, &t.args), (rule.to, &t.target)] {
            if let Some(k) = jtg_prove::check_invariant(cert, loc, v) {
                let name = |x: jtg_prove::Var| enc.its.location(loc).vars[x.index()].clone();
                return Some((
                    "invariant".into(),
                    format!(
                        "the invariant {} of location {} is false on ({})",
                        cert.invariants.at(loc)[k].display_with(&name),
                        enc.its.location(loc).name,
                        vals(v)
                    ),
                ));
            }
        }
    }
    for r in &c.ranking {
        if !r.holds() {
            return Some((
                "ranking".into(),
                format!(
                    "SCC {} level {}: {} before, {} after ({}{})",
                    r.scc,
                    r.level,
                    r.before,
                    r.after,
                    if r.decreases { "" } else { "does not decrease" },
                    if r.bounded { "" } else { "; below 0" }
                ),
            ));
        }
    }
    None
}

/// Whether `prev` directly followed by `t` is a pair of rules the certificate says never
/// follow each other (`chain`, with the pair's values).
pub(crate) fn check_pair(
    enc: &Encoding,
    cert: Option<&TerminationCertificate>,
    prev: &ConcreteTransition,
    t: &ConcreteTransition,
) -> Option<(String, String)> {
    let cert = cert?;
    // consecutive in the ITS run: the second starts where and with what the first ended
    if enc.its.rule(prev.rule).to != enc.its.rule(t.rule).from || prev.target != t.args {
        return None;
    }
    let vals = |a: &[BigInt], b: &[BigInt]| {
        a.iter()
            .chain(b)
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let first: Vec<BigInt> = prev.args.iter().chain(&prev.temps).cloned().collect();
    let second: Vec<BigInt> = t.args.iter().chain(&t.temps).cloned().collect();
    let k = jtg_prove::check_chain(&enc.its, cert, (prev.rule, &first), (t.rule, &second))?;
    let c = &cert.chains[k];
    Some((
        "chain".into(),
        format!(
            "the certificate says rule {} never directly follows rule {}; the run takes rule {} \
             on ({}) [{}], then rule {} on ({})",
            c.second.rule.0,
            c.first.rule.0,
            prev.rule.0,
            vals(&prev.args, &prev.temps),
            chain_text(enc, prev.rule),
            t.rule.0,
            vals(&t.args, &t.temps),
        ),
    ))
}

/// A concrete run's ITS transitions, or why there are none (not a path, outside the model).
pub(crate) fn run_transitions(
    enc: &Encoding,
    graph: &Graph,
    prog: &Program,
    matcher: &Matcher<'_>,
    run: &dyn ConcreteRun,
    sem: IntSemantics,
    skipped: &mut u64,
) -> Result<Vec<ConcreteTransition>, String> {
    let overflow = match sem {
        IntSemantics::Unbounded => first_overflow(run, prog),
        IntSemantics::Java => None,
    };
    let extent = match overflow {
        Some(k) => Extent::Prefix { last: k },
        None if run.end().hit_jvm_limit() || matches!(run.end(), TraceEnd::Cut { .. }) => {
            Extent::Prefix {
                last: run.len().saturating_sub(1),
            }
        }
        None => Extent::Full,
    };
    let path = matcher
        .path_with_witnesses(run, extent)
        .ok_or_else(|| "the run is no path of the graph (see jtg check)".to_string())?;
    Ok(transitions(enc, graph, run, &path, skipped))
}

/// The first thing a run's ITS transitions violate.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    pub transition: ConcreteTransition,
    /// `export`, `ranking`, `chain` or `invariant` ([`Violation::kind`]).
    pub kind: String,
    pub detail: String,
}

/// The cross-check of one concrete run.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunCheck {
    /// Transitions checked (up to and including a failing one).
    pub checked: u64,
    /// Transitions with a value the run did not bind.
    pub skipped: u64,
    /// Why the run has no ITS transitions at all (it is no path of the graph: `jtg check`'s
    /// business, so a note, not a cross-check violation).
    pub no_path: Option<String>,
    pub failure: Option<Failure>,
}

/// Everything one concrete run is checked against: the graph, its ITS and the certificate.
pub(crate) struct Checker<'a> {
    pub prog: &'a Program,
    pub graph: &'a Graph,
    pub enc: &'a Encoding,
    pub cert: Option<&'a TerminationCertificate>,
    pub matcher: Matcher<'a>,
    pub target: Target<'a>,
    pub ints: IntSemantics,
    /// Steps of each run (at most [`MAX_CHECKED_STEPS`]).
    pub max_steps: u64,
}

impl<'a> Checker<'a> {
    pub(crate) fn new(
        prog: &'a Program,
        m: &MethodId,
        graph: &'a Graph,
        enc: &'a Encoding,
        cert: Option<&'a TerminationCertificate>,
        cfg: &ProveConfig,
    ) -> Result<Self> {
        Ok(Checker {
            prog,
            graph,
            enc,
            cert,
            matcher: Matcher::new(graph, prog, cfg.ints),
            target: Target::new(prog, m.clone(), jtg_jvm::classpath_entries(&cfg.classpath))?,
            ints: cfg.ints,
            max_steps: cfg.max_steps.min(MAX_CHECKED_STEPS),
        })
    }

    /// Checks every transition of a recorded run; stops at the first failure.
    pub(crate) fn check_run(&self, run: &dyn ConcreteRun) -> RunCheck {
        let mut out = RunCheck::default();
        let ts = match run_transitions(
            self.enc,
            self.graph,
            self.prog,
            &self.matcher,
            run,
            self.ints,
            &mut out.skipped,
        ) {
            Ok(ts) => ts,
            Err(why) => {
                out.no_path = Some(why);
                return out;
            }
        };
        for (i, t) in ts.iter().enumerate() {
            out.checked += 1;
            let found = check_one(self.enc, self.cert, t).or_else(|| {
                i.checked_sub(1)
                    .and_then(|p| check_pair(self.enc, self.cert, &ts[p], t))
            });
            if let Some((kind, detail)) = found {
                out.failure = Some(Failure {
                    transition: t.clone(),
                    kind,
                    detail,
                });
                break;
            }
        }
        out
    }

    /// Runs `input` in the JVM and checks the run.
    pub(crate) fn check_input(&self, input: &State) -> Result<RunCheck> {
        let trace = self.target.trace(input, self.max_steps)?;
        // the trace itself: materialising every step would hold steps × depth frames
        Ok(self.check_run(&trace))
    }

    /// A rule readable: its constraints and its chain of nodes.
    pub(crate) fn rule_text(&self, rule: RuleId) -> String {
        format!(
            "{}  ({})",
            self.enc.its.display_rule(rule),
            chain_text(self.enc, rule)
        )
    }
}
