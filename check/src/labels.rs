//! The one evaluator of edge labels: every label of every edge the matcher takes — eval, call
//! and return edges as well as refinement, split and instance edges — is evaluated on the
//! concrete state under the witness maps of the edge's two ends. It reads the typed labels
//! (`jtg_engine::edge`), never their text.
//!
//! **Where a reference is read.** An edge that executes an instruction (eval, call, return)
//! reads operands in its source and an assignment's result in its target. An edge that
//! executes nothing (refine, split, instance) has one concrete state at both ends, so a
//! reference is read in whichever end's *state* has it, the source first (`o1 = o5` of an
//! instance refinement names `o1` of the source and the fresh `o5` of the target). A reference
//! in neither state is an error of the graph, found when the matcher is built ([`LabelPlan`]),
//! before any run.
//!
//! **What holds.**
//! * `res = a op b`, `res = -a`: the run's result equals the operation on the run's operands,
//!   computed exactly (unbounded integers) or wrapped to 32 or 64 bits as the result's kind
//!   says (`--ints java`); an operation undefined on the run's values (division by zero) fails;
//! * `a ◦ b`: the relation holds on the run's values;
//! * `r = p`: the run's values are one object, or both null; `r ≠ p`: they are not one object
//!   (two nulls are no object: a state whose two references are both null is an instance of
//!   both successors of the engine's equality refinement, so both labels hold there);
//!   `r = null`: the value is null;
//! * `r exists`: the value is an object; `r instanceof T` / `r !instanceof T`: the object's
//!   runtime class is (not) a subtype of `T` (a null value fails both: the refinement has a
//!   null successor of its own);
//! * `abstract call of M`: the run's next step executes in `M`; `return from M`: the
//!   abstracted call ended at a normal program end of `M`'s method graph; `E thrown by M`: at
//!   an exceptional one whose exception is of class `E` exactly;
//! * `filled static fields …`: says what the target state knows beyond the source, which the
//!   plan checks (the fields are new in the target); the run has nothing to add.
//!
//! **Unbound references.** A reference of the state that the run's witness does not bind —
//! a static field the run has not accessed yet, a local the recorder shows untyped — has no
//! value in the run: the label is not evaluated (nothing the run did can contradict it) and
//! the evaluation is counted ([`Evaluated::unbound`], reported by `jtg check`). A reference the
//! witness binds is always read: there is no other skip.

use crate::instance::Witness;
use crate::run::ConcreteRun;
use jtg_engine::class::Cond;
use jtg_engine::graph::{EdgeKind, Label, Operand};
use jtg_engine::state::IntOp;
use jtg_engine::state::{wrap32, wrap64, End, IntSemantics, Ref, State, Subtyping};
use jtg_engine::Graph;
use jtg_jvm::{CValue, TraceEnd};

/// Which end of an edge a reference is read in (resolved per edge when the plan is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Source,
    Target,
}

/// One label of one edge, with where each of its references is read.
#[derive(Clone, Debug)]
struct Planned {
    /// (reference, end) for every reference the label names (`null` excluded).
    reads: Vec<(Ref, At)>,
    /// Some reference is read in the target: evaluated once the target's witness exists.
    needs_target: bool,
}

/// The labels of every edge of a graph, resolved once per graph: for each edge, either where
/// each label reads its references, or why the labels cannot be evaluated (an error of the
/// graph).
pub(crate) struct LabelPlan {
    edges: Vec<Result<Vec<Planned>, String>>,
}

impl LabelPlan {
    pub(crate) fn of(g: &Graph) -> LabelPlan {
        LabelPlan {
            edges: (0..g.edges.len()).map(|k| plan_edge(g, k)).collect(),
        }
    }

    /// The first error of the graph's labels, naming its edge.
    pub(crate) fn first_error(&self) -> Option<&str> {
        self.edges
            .iter()
            .find_map(|e| e.as_ref().err().map(String::as_str))
    }
}

fn plan_edge(g: &Graph, k: usize) -> Result<Vec<Planned>, String> {
    let e = &g.edges[k];
    let (src, dst) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let step = e.kind.is_step();
    let mut out = Vec::with_capacity(e.labels.len());
    for l in &e.labels {
        let fail = |why: String| format!("edge {k} ({} → {}): label `{l}` {why}", e.from, e.to);
        if !fits_edge(l, e.kind) {
            return Err(fail(format!("cannot stand on a {} edge", e.kind)));
        }
        let mut reads = Vec::new();
        for (r, side, want_int) in references(l, step) {
            if r.is_null() {
                continue;
            }
            if r.is_int() != want_int {
                return Err(fail(format!(
                    "names {r}, which is not an {} reference",
                    if want_int { "integer" } else { "object" }
                )));
            }
            let at = match side {
                Some(at) => at,
                None if src.value(r).is_some() => At::Source,
                None => At::Target,
            };
            let (state, what) = match (side, at) {
                (None, _) if src.value(r).is_none() && dst.value(r).is_none() => {
                    return Err(fail(format!("names {r}, which is in neither state")))
                }
                (_, At::Source) => (src, "the source state"),
                (_, At::Target) => (dst, "the target state"),
            };
            let Some(v) = state.value(r) else {
                return Err(fail(format!("names {r}, which is not in {what}")));
            };
            let is_int = matches!(
                v,
                jtg_engine::state::HeapValue::Int(_) | jtg_engine::state::HeapValue::Long(_)
            );
            if is_int != want_int {
                return Err(fail(format!(
                    "names {r}, whose value in {what} is not {}",
                    if want_int { "an integer" } else { "an object" }
                )));
            }
            reads.push((r, at));
        }
        match l {
            Label::Arith { op, b, .. } if (*op == IntOp::Neg) != b.is_none() => {
                return Err(fail("has the wrong number of operands".into()))
            }
            Label::RefEq { r, p, .. } if r == p || r.is_null() => {
                return Err(fail(
                    "compares a reference with itself or null with null".into(),
                ))
            }
            Label::AbstractCall { callee } => {
                let entry =
                    matches!(dst.frames.as_slice(), [f] if f.method == *callee && f.pc == 0);
                if !entry {
                    return Err(fail(format!(
                        "leads to node {}, which is no entry state of {callee}",
                        e.to
                    )));
                }
            }
            Label::Returned { callee } | Label::Thrown { callee, .. } => {
                let called = g.edges.iter().any(|c| {
                    c.from == e.from
                        && c.kind == EdgeKind::Call
                        && c.labels
                            .iter()
                            .any(|l| matches!(l, Label::AbstractCall { callee: m } if m == callee))
                });
                if !called {
                    return Err(fail(format!(
                        "leaves node {}, which has no abstract call of {callee}",
                        e.from
                    )));
                }
            }
            Label::FilledStatics { fields } => {
                if fields.is_empty() {
                    return Err(fail("names no static field".into()));
                }
                if let Some((c, f)) = fields
                    .iter()
                    .find(|k| src.statics.contains_key(*k) || !dst.statics.contains_key(*k))
                {
                    return Err(fail(format!(
                        "names {c}.{f}, which is not a static field new in the target"
                    )));
                }
            }
            _ => {}
        }
        let needs_target = reads.iter().any(|(_, at)| *at == At::Target);
        out.push(Planned {
            reads,
            needs_target,
        });
    }
    Ok(out)
}

/// The edge kinds a label can stand on.
fn fits_edge(l: &Label, kind: EdgeKind) -> bool {
    use EdgeKind::*;
    match l {
        Label::Arith { .. } | Label::Narrow { .. } => kind == Eval,
        Label::Rel { .. } => matches!(kind, Eval | Split | Refine),
        Label::RefEq { .. }
        | Label::Exists { .. }
        | Label::Type { .. }
        | Label::FilledStatics { .. } => kind == Refine,
        Label::AbstractCall { .. } => kind == Call,
        Label::Returned { .. } | Label::Thrown { .. } => kind == Return,
    }
}

/// The references of `l`: (reference, fixed end or `None` for whichever end has it, whether
/// it must be an integer reference).
fn references(l: &Label, step: bool) -> Vec<(Ref, Option<At>, bool)> {
    let operand_at = if step { Some(At::Source) } else { None };
    let ops = |os: &[Option<&Operand>]| -> Vec<(Ref, Option<At>, bool)> {
        os.iter()
            .flatten()
            .filter_map(|o| match o {
                Operand::Ref(r) => Some((*r, operand_at, true)),
                Operand::Lit(_) => None,
            })
            .collect()
    };
    match l {
        Label::Arith { res, a, b, .. } => {
            let mut v = vec![(*res, step.then_some(At::Target), true)];
            v.extend(ops(&[Some(a), b.as_ref()]));
            v
        }
        Label::Narrow { res, a, .. } => vec![
            (*res, step.then_some(At::Target), true),
            (*a, operand_at, true),
        ],
        // the source's references, or on a step the result it created (in the target)
        Label::Rel { a, b, .. } => [a, b]
            .into_iter()
            .filter_map(|o| o.as_ref().map(|r| (r, None, true)))
            .collect(),
        Label::RefEq { r, p, .. } => vec![(*r, operand_at, false), (*p, operand_at, false)],
        Label::Exists { r } | Label::Type { r, .. } => vec![(*r, operand_at, false)],
        Label::AbstractCall { .. }
        | Label::Returned { .. }
        | Label::Thrown { .. }
        | Label::FilledStatics { .. } => vec![],
    }
}

/// Which labels of an edge to evaluate now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Only the labels that read nothing in the target (before the target's witness exists).
    SourceOnly,
    /// Only the labels that read something in the target.
    TargetNeeded,
    /// Every label.
    All,
}

/// How a label evaluation went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Evaluated {
    /// Labels not evaluated because the run's witness binds one of their references not.
    pub unbound: usize,
}

/// What one edge's labels are evaluated on.
pub(crate) struct Ends<'a> {
    pub src: &'a Witness,
    pub dst: Option<&'a Witness>,
    pub run: &'a dyn ConcreteRun,
    /// The step the edge is taken at (a step edge executes it).
    pub step: usize,
    /// For a return edge of an abstracted call: the program end of the callee's method graph
    /// its path reached, and that end's witness.
    pub callee_end: Option<(&'a State, &'a Witness)>,
}

/// The evaluator: the graph, its plan, the types and the integer semantics.
pub(crate) struct Evaluator<'g> {
    graph: &'g Graph,
    plan: LabelPlan,
    types: &'g (dyn Subtyping + Sync),
    sem: IntSemantics,
}

impl<'g> Evaluator<'g> {
    pub(crate) fn new(
        graph: &'g Graph,
        types: &'g (dyn Subtyping + Sync),
        sem: IntSemantics,
    ) -> Self {
        Evaluator {
            graph,
            plan: LabelPlan::of(graph),
            types,
            sem,
        }
    }

    pub(crate) fn plan(&self) -> &LabelPlan {
        &self.plan
    }

    /// Evaluates the labels of edge `k` chosen by `phase`; `Err` says which label fails and
    /// why (empty unless `explain`).
    pub(crate) fn holds(
        &self,
        k: usize,
        phase: Phase,
        ends: &Ends<'_>,
        explain: bool,
    ) -> Result<Evaluated, String> {
        let plan = match &self.plan.edges[k] {
            Ok(p) => p,
            Err(why) => return Err(if explain { why.clone() } else { String::new() }),
        };
        let mut out = Evaluated::default();
        for (l, p) in self.graph.edges[k].labels.iter().zip(plan) {
            let now = match phase {
                Phase::SourceOnly => !p.needs_target,
                Phase::TargetNeeded => p.needs_target,
                Phase::All => true,
            };
            if !now {
                continue;
            }
            let mut vals = Vec::with_capacity(p.reads.len());
            for &(r, at) in &p.reads {
                let w = match at {
                    At::Source => Some(ends.src),
                    At::Target => ends.dst,
                };
                match w.and_then(|w| w.get(r)) {
                    Some(v) => vals.push((r, v)),
                    None => break,
                }
            }
            if vals.len() < p.reads.len() {
                out.unbound += 1;
                continue;
            }
            self.label(l, &vals, ends, explain)?;
        }
        Ok(out)
    }

    /// One label on the run's values of its references (`vals`, in [`references`] order).
    fn label(
        &self,
        l: &Label,
        vals: &[(Ref, CValue)],
        ends: &Ends<'_>,
        explain: bool,
    ) -> Result<(), String> {
        let val = |r: Ref| {
            if r.is_null() {
                return CValue::Null;
            }
            vals.iter()
                .find(|(x, _)| *x == r)
                .map_or(CValue::Top, |(_, v)| *v)
        };
        let int = |o: &Operand| -> Result<i128, String> {
            match o {
                Operand::Lit(v) => Ok(*v),
                Operand::Ref(r) => match val(*r) {
                    CValue::Int(x) => Ok(i128::from(x)),
                    CValue::Long(x) => Ok(i128::from(x)),
                    v => Err(format!("{r} is {} in the run, not an integer", show(v))),
                },
            }
        };
        let fail = |why: &dyn Fn() -> String| -> Result<(), String> {
            Err(if explain {
                let has: Vec<String> = vals
                    .iter()
                    .map(|(r, v)| format!("{r} = {}", show(*v)))
                    .collect();
                let has = if has.is_empty() {
                    String::new()
                } else {
                    format!(": the run has {}", has.join(", "))
                };
                format!("label `{l}` does not hold{has}{}", why())
            } else {
                String::new()
            })
        };
        let not_int = |e: String| {
            if explain {
                format!("label `{l}`: {e}")
            } else {
                e
            }
        };
        match l {
            Label::Arith { res, op, a, b } => {
                let (got, wrap, bits): (i128, fn(i128) -> i128, u32) = match val(*res) {
                    CValue::Int(r) => (i128::from(r), wrap32, 32),
                    CValue::Long(r) => (i128::from(r), wrap64, 64),
                    v => return Err(not_int(format!("{res} is {} in the run", show(v)))),
                };
                let x = int(a).map_err(not_int)?;
                let y = b.as_ref().map(int).transpose().map_err(not_int)?;
                let Some(exact) = exact(*op, x, y, bits) else {
                    return fail(&|| "; the operation is undefined on these values".into());
                };
                let want = match self.sem {
                    IntSemantics::Unbounded => exact,
                    IntSemantics::Java => wrap(exact),
                };
                if got != want {
                    return fail(&|| String::new());
                }
            }
            Label::Narrow { res, to, a } => {
                // the JVM's value, whatever the integer model: the low bits (JLS §5.1.3)
                let got = int(&Operand::Ref(*res)).map_err(not_int)?;
                let x = int(&Operand::Ref(*a)).map_err(not_int)?;
                let (lo, hi) = to.range();
                let width = hi - lo + 1;
                if got < lo || got > hi || (got - x).rem_euclid(width) != 0 {
                    return fail(&|| String::new());
                }
            }
            Label::Rel { a, cond, b } => {
                let (x, y) = (int(a).map_err(not_int)?, int(b).map_err(not_int)?);
                if !cond_holds(*cond, x, y) {
                    return fail(&|| String::new());
                }
            }
            Label::RefEq { r, p, equal } => {
                let (x, y) = (val(*r), val(*p));
                let same_object = x == y && x != CValue::Null;
                let holds = if *equal { x == y } else { !same_object };
                if !holds {
                    return fail(&|| String::new());
                }
            }
            Label::Exists { r } => {
                if !matches!(val(*r), CValue::Ref(_) | CValue::Uninit(_)) {
                    return fail(&|| String::new());
                }
            }
            Label::Type { r, ty, holds } => {
                let class = match val(*r) {
                    CValue::Ref(id) if ends.step < ends.run.len() => {
                        ends.run.runtime_type(ends.step, id)
                    }
                    _ => None,
                };
                let Some(class) = class else {
                    return fail(&|| "; it is no object of the run's heap".into());
                };
                if self.types.is_subtype(&class, ty) != *holds {
                    return fail(&|| {
                        format!(" (the run's object is a {})", class.replace('/', "."))
                    });
                }
            }
            Label::AbstractCall { callee } => {
                let next = ends.step + 1;
                if next < ends.run.len() {
                    let f = ends.run.top_frame(next);
                    let here = (&*f.class, &*f.method, &*f.desc);
                    if here != (&*callee.class, &*callee.name, &*callee.desc) {
                        return fail(&|| {
                            format!(
                                ": the run's next step is in {}.{}{}",
                                f.class.replace('/', "."),
                                f.method,
                                f.desc
                            )
                        });
                    }
                }
            }
            Label::Returned { .. } => match ends.callee_end {
                Some((st, _)) if matches!(st.end, Some(End::Return(_))) => {}
                _ => return fail(&|| ": the callee did not return normally".into()),
            },
            Label::Thrown { class, .. } => {
                let thrown = match ends.callee_end {
                    Some((st, w)) => match st.end {
                        Some(End::Throw(e)) => self.exception_class(w.get(e), ends),
                        _ => None,
                    },
                    None => None,
                };
                if thrown.as_deref() != Some(class.as_str()) {
                    return fail(&|| {
                        format!(
                            ": the callee was left by {}",
                            thrown.as_deref().map_or("no exception".into(), |c| format!(
                                "an exception of class {}",
                                c.replace('/', ".")
                            ))
                        )
                    });
                }
            }
            Label::FilledStatics { .. } => {}
        }
        Ok(())
    }

    /// The runtime class of the exception object `v` at the edge's step, or of the exception
    /// that ended the run (the callee's end node took it, whether or not the run saw the
    /// object).
    fn exception_class(&self, v: Option<CValue>, ends: &Ends<'_>) -> Option<String> {
        if ends.step >= ends.run.len() {
            return match ends.run.end() {
                TraceEnd::Threw { class, .. } => Some(class.clone()),
                _ => None,
            };
        }
        let CValue::Ref(id) = v? else { return None };
        ends.run.runtime_type(ends.step, id)
    }
}

/// A concrete value as a reason shows it.
fn show(v: CValue) -> String {
    match v {
        CValue::Int(x) => x.to_string(),
        CValue::Long(x) => x.to_string(),
        CValue::Null => "null".into(),
        CValue::Ref(id) => format!("object {id}"),
        CValue::Uninit(n) => format!("an object under construction (#{n})"),
        CValue::Float(_) | CValue::Double(_) => "a floating-point value".into(),
        CValue::Top => "no value".into(),
    }
}

fn cond_holds(c: Cond, x: i128, y: i128) -> bool {
    match c {
        Cond::Eq => x == y,
        Cond::Ne => x != y,
        Cond::Lt => x < y,
        Cond::Ge => x >= y,
        Cond::Gt => x > y,
        Cond::Le => x <= y,
    }
}

/// The mathematical value of `x op y` (division truncating toward zero, as Java does; shifts
/// of a `bits`-wide value as the JVM does them, JLS §15.19).
fn exact(op: IntOp, x: i128, y: Option<i128>, bits: u32) -> Option<i128> {
    let shift = |k: i128| -> Option<u32> { u32::try_from(k).ok().filter(|&k| k < bits) };
    Some(match (op, y) {
        (IntOp::Shr, Some(k)) => x >> shift(k)?,
        (IntOp::Ushr, Some(k)) if x >= 0 || k == 0 => x >> shift(k)?,
        (IntOp::Ushr, Some(k)) => (x + (1i128 << bits)) >> shift(k)?,
        (IntOp::Neg, None) => -x,
        (IntOp::Add, Some(y)) => x + y,
        (IntOp::Sub, Some(y)) => x - y,
        (IntOp::Mul, Some(y)) => x.checked_mul(y)?,
        (IntOp::Div, Some(y)) => x.checked_div(y)?,
        (IntOp::Rem, Some(y)) => x.checked_rem(y)?,
        _ => return None,
    })
}

#[cfg(test)]
#[path = "labels_tests.rs"]
mod tests;
