//! The interval invariant (crate docs, *interval invariant*): per node, an interval per
//! integer reference that holds on every path from the start node. It is narrower than the
//! node's own interval where the graph merged states that the nodes after it tell apart (a
//! loop head holding `n ∈ [1, 2]` for the first two iterations, of which only the second
//! reaches the exit).
//!
//! An edge carries a value from its source to its target by the engine's own reading of the
//! graph, as the prover does (`prove/src/from_graph/step.rs`): along an executed step
//! (`eval`, inlined `call` and `return`) an integer reference names one value, so a name in
//! both states is the same value; a refinement's or split's target is an instance of its
//! source, an instance edge's source of its target, and the engine's `⊑` witness says which
//! reference became which. A new value is bounded by its arithmetic label over the source's
//! intervals or by the instruction that made it (module `results`); a relation label narrows
//! the source's operands first. Every contribution is cut by the target's own interval; a
//! contradiction (an empty interval) means no path takes the edge. Contributions of incoming
//! edges are joined (hull); each bound of a reference is widened to the node's own bound after
//! it grew [`WIDEN_AFTER`] times.

use crate::results::result_interval;
use jtg_engine::class::Cond;
use jtg_engine::graph::{EdgeKind, Label, Operand};
use jtg_engine::instance_of::is_instance;
use jtg_engine::state::{HeapValue, IntOp, IntSemantics, Interval, Ref, State};
use jtg_engine::{Graph, Program};
use std::collections::BTreeMap;

/// Per node, the interval of every integer reference (`None`: no path reaches the node).
pub struct Intervals {
    pub nodes: Vec<Option<BTreeMap<Ref, Interval>>>,
}

/// Times one bound of a reference at a node may grow before it is widened.
const WIDEN_AFTER: usize = 6;

type Ints = BTreeMap<Ref, Interval>;

/// The integer references of `s` with their own intervals.
fn own(s: &State) -> Ints {
    s.heap
        .iter()
        .filter_map(|(r, v)| match v {
            HeapValue::Int(iv) | HeapValue::Long(iv) => Some((*r, *iv)),
            _ => None,
        })
        .collect()
}

impl Intervals {
    pub fn of(g: &Graph, prog: &Program, sem: IntSemantics) -> Intervals {
        let mut out = vec![Vec::new(); g.nodes.len()];
        for (k, e) in g.edges.iter().enumerate() {
            out[e.from].push(k);
        }
        let mut inv: Vec<Option<Ints>> = vec![None; g.nodes.len()];
        // per node, reference and bound (`true`: high): how often it grew
        let mut grown: Vec<BTreeMap<(Ref, bool), usize>> = vec![BTreeMap::new(); g.nodes.len()];
        inv[g.start] = Some(own(&g.nodes[g.start].state));
        let mut todo = vec![g.start];
        while let Some(n) = todo.pop() {
            let Some(src) = inv[n].clone() else { continue };
            for &k in &out[n] {
                let t = g.edges[k].to;
                let Some(mut new) = carry(g, prog, sem, k, &src) else {
                    continue;
                };
                if let Some(old) = &inv[t] {
                    let cap = own(&g.nodes[t].state);
                    for (r, iv) in new.iter_mut() {
                        let Some(o) = old.get(r) else { continue };
                        let h = o.hull(iv);
                        let mut widen = |high: bool, changed: bool| {
                            let c = grown[t].entry((*r, high)).or_insert(0);
                            *c += usize::from(changed);
                            changed && *c > WIDEN_AFTER
                        };
                        let lo = if widen(false, h.lo != o.lo) {
                            cap[r].lo
                        } else {
                            h.lo
                        };
                        let hi = if widen(true, h.hi != o.hi) {
                            cap[r].hi
                        } else {
                            h.hi
                        };
                        *iv = Interval::new(lo, hi).unwrap_or(cap[r]);
                    }
                    if new == *old {
                        continue;
                    }
                }
                inv[t] = Some(new);
                todo.push(t);
            }
        }
        Intervals { nodes: inv }
    }
}

/// What edge `k` tells its target, from the source's intervals `src`: an interval per integer
/// reference of the target, or `None` when no path takes the edge.
fn carry(g: &Graph, prog: &Program, sem: IntSemantics, k: usize, src: &Ints) -> Option<Ints> {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let mut src = src.clone();
    for l in &e.labels {
        if let Label::Rel { a, cond, b } = l {
            narrow(&mut src, *a, *cond, *b)?;
        }
    }
    let abstracted = e.labels.iter().any(|l| {
        matches!(
            l,
            Label::AbstractCall { .. } | Label::Returned { .. } | Label::Thrown { .. }
        )
    });
    let executed = !abstracted && e.kind.is_step();
    // which source reference each target reference is
    let by_name = || src.keys().map(|r| (*r, *r)).collect::<BTreeMap<Ref, Ref>>();
    let from: BTreeMap<Ref, Ref> = match e.kind {
        _ if abstracted => BTreeMap::new(),
        _ if executed => by_name(),
        EdgeKind::Instance => is_instance(s, t, prog).map(|w| w.map).unwrap_or_default(),
        _ => match is_instance(t, s, prog) {
            Ok(w) => w.map.iter().map(|(a, b)| (*b, *a)).collect(),
            Err(_) => by_name(),
        },
    };
    let val = |o: &Operand| match o {
        Operand::Lit(v) => Some(Interval::literal(*v)),
        Operand::Ref(r) => src.get(r).copied(),
    };
    let mut res = own(t);
    for (r, iv) in res.iter_mut() {
        let mut facts: Vec<Interval> = from
            .get(r)
            .and_then(|x| src.get(x))
            .into_iter()
            .copied()
            .collect();
        if executed {
            for l in &e.labels {
                if let Label::Arith { res, op, a, b } = l {
                    if res == r {
                        let b = b.as_ref().map(val);
                        facts.extend(val(a).and_then(|a| arith(*op, a, b.flatten(), sem)));
                    }
                }
            }
            facts.extend(result_interval(prog, s, t, *r));
        }
        for f in facts {
            *iv = iv.intersect(&f)?;
        }
    }
    Some(res)
}

/// The interval of `a op b`, when the operands determine one.
fn arith(op: IntOp, a: Interval, b: Option<Interval>, sem: IntSemantics) -> Option<Interval> {
    let b = if op == IntOp::Neg { a } else { b? };
    if matches!(op, IntOp::Div | IntOp::Rem) && b.contains(0) {
        return None;
    }
    let v = Interval::exact(op, &a, &b);
    match sem {
        IntSemantics::Unbounded => Some(v),
        // a wrapped result may be anywhere
        IntSemantics::Java => (!v.overflows_java()).then_some(v),
    }
}

/// Narrows `src` by a relation label `a cond b` that held; `None`: it cannot hold.
fn narrow(src: &mut Ints, a: Operand, cond: Cond, b: Operand) -> Option<()> {
    let side = |o: Operand, src: &Ints| match o {
        Operand::Lit(v) => Some((Interval::literal(v), None)),
        Operand::Ref(r) => src.get(&r).map(|iv| (*iv, Some(r))),
    };
    let (Some((ia, ra)), Some((ib, rb))) = (side(a, src), side(b, src)) else {
        return Some(());
    };
    // x cond y, narrowed for x
    let part = |x: Interval, cond: Cond, y: Interval| -> Option<Interval> {
        let lim = Interval::new;
        let p = match cond {
            Cond::Lt => lim(None, y.hi.map(|h| h - 1))?,
            Cond::Le => lim(None, y.hi)?,
            Cond::Gt => lim(y.lo.map(|l| l + 1), None)?,
            Cond::Ge => lim(y.lo, None)?,
            Cond::Eq => y,
            Cond::Ne => match y.as_literal() {
                Some(v) if x.lo == Some(v) => lim(Some(v + 1), None)?,
                Some(v) if x.hi == Some(v) => lim(None, Some(v - 1))?,
                _ => Interval::TOP,
            },
        };
        x.intersect(&p)
    };
    let flip = match cond {
        Cond::Lt => Cond::Gt,
        Cond::Gt => Cond::Lt,
        Cond::Le => Cond::Ge,
        Cond::Ge => Cond::Le,
        c => c,
    };
    let na = part(ia, cond, ib)?;
    let nb = part(ib, flip, ia)?;
    if let Some(r) = ra {
        src.insert(r, na);
    }
    if let Some(r) = rb {
        src.insert(r, nb);
    }
    Some(())
}
