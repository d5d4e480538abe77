//! Interval invariants of a graph: per node, per integer reference (`int` or `long`), an
//! interval containing the reference's witness value on every partial path the check can match
//! from the start node. (A label's result is used under `--ints java` only where it fits 32
//! bits, which a `long` result that fits does at 64 bits too.)
//!
//! The facts used are only ones the check verifies or the JVM guarantees:
//!
//! * a node's own interval (the check's condition (c));
//! * the labels of an edge on the path (`res = a op b`, `a cond b`), where the check evaluated
//!   them — it skips a label whose operand the witness does not bind, so a label constrains
//!   only when its operands are *surely bound* (see `Facts::surely_bound`);
//! * *positions* (module `positions`): access paths read like the check's walk, carried along
//!   edges by what each edge keeps of the concrete state.
//!
//! A position is a conditional fact, "if the run's value there is an integer the check reads,
//! it lies in I": the check skips a local the JVM's verifier leaves untyped (a dead local at a
//! merge point), so a reference held only by locals may be unbound. A reference's interval is
//! the intersection over its positions that are surely read, or the hull over all of them.
//!
//! The fixpoint joins the contributions of all incoming edges (hull) and widens each bound of a
//! reference at a node after that bound has grown a few times (not after the node has: another
//! reference's counter growing at the loop head must not widen a bound that settled); every
//! transfer is monotone and capped by the node's own interval, so it terminates.

use jtg_engine::graph::{EdgeKind, Label, NodeId, Operand};
use jtg_engine::state::IntOp;
use jtg_engine::state::{HeapValue, IntSemantics, Interval, Ref, State};
use jtg_engine::Graph;

use crate::positions::{adjacency, source_of, Facts, Root};
use crate::selfcmp::self_compare;
use crate::ushr::unsigned_shift;
use std::collections::BTreeMap;

/// Per node, the interval of every integer reference of its state (`None`: no path from the
/// start node reaches the node).
pub struct Invariant {
    pub nodes: Vec<Option<BTreeMap<Ref, Interval>>>,
    /// Per edge, whether a path the check can match may take it (its source is reached and
    /// its labels and target intervals do not contradict the source's invariant).
    pub edges: Vec<bool>,
}

impl Invariant {
    /// Node `n`'s state with every integer interval narrowed to the invariant (`None`: the node
    /// is unreachable). Every concrete state the check can meet at `n` is an instance of it.
    pub fn tightened(&self, g: &Graph, n: NodeId) -> Option<State> {
        let ivs = self.nodes[n].as_ref()?;
        let mut st = g.nodes[n].state.clone();
        for (r, iv) in ivs {
            match st.heap.get(r) {
                Some(HeapValue::Int(own)) => {
                    let v = own.intersect(iv).unwrap_or(*own);
                    st.heap.insert(*r, HeapValue::Int(v));
                }
                Some(HeapValue::Long(own)) => {
                    let v = own.intersect(iv).unwrap_or(*own);
                    st.heap.insert(*r, HeapValue::Long(v));
                }
                _ => {}
            }
        }
        Some(st)
    }
}

/// Times one bound of a reference at a node may grow before it is widened to the node's own
/// interval's bound.
const WIDEN_AFTER: usize = 6;

impl Invariant {
    /// `dead`: edges another sound analysis showed no matchable path takes.
    pub(super) fn of(
        g: &Graph,
        facts: &[Facts],
        sem: IntSemantics,
        dead: Option<&[bool]>,
    ) -> Invariant {
        let own = |n: NodeId| -> BTreeMap<Ref, Interval> {
            g.nodes[n]
                .state
                .heap
                .iter()
                .filter_map(|(r, v)| match v {
                    HeapValue::Int(iv) | HeapValue::Long(iv) => Some((*r, *iv)),
                    _ => None,
                })
                .collect()
        };
        let (out, abstract_caller) = adjacency(g);
        let mut inv: Vec<Option<BTreeMap<Ref, Interval>>> = vec![None; g.nodes.len()];
        // per node, per reference and bound (`false`: low, `true`: high): how often it grew
        let mut grown: Vec<BTreeMap<(Ref, bool), usize>> = vec![BTreeMap::new(); g.nodes.len()];
        inv[g.start] = Some(own(g.start));
        let mut todo = vec![g.start];
        while let Some(n) = todo.pop() {
            let Some(src) = inv[n].clone() else { continue };
            for &k in &out[n] {
                if dead.is_some_and(|d| d[k]) {
                    continue;
                }
                let e = &g.edges[k];
                let t = e.to;
                let contrib = match contribution(
                    e.kind,
                    &e.labels,
                    (&g.nodes[n].state, &facts[n], &src),
                    (&g.nodes[t].state, &facts[t]),
                    abstract_caller[n],
                    sem,
                ) {
                    Some(c) => c,
                    None => continue,
                };
                let new = match &inv[t] {
                    None => contrib,
                    Some(old) => {
                        let mut m = old.clone();
                        for (r, iv) in &contrib {
                            let h = m.get(r).map_or(*iv, |o| o.hull(iv));
                            m.insert(*r, h);
                        }
                        let own_t = own(t);
                        for (r, iv) in m.iter_mut() {
                            let Some(o) = old.get(r) else { continue };
                            let cap = own_t.get(r).copied().unwrap_or(Interval::TOP);
                            // each bound is widened after its own growth only: a counter
                            // growing at the top must not cost another bound its precision
                            let mut widen = |high: bool, changed: bool| {
                                let k = grown[t].entry((*r, high)).or_insert(0);
                                *k += usize::from(changed);
                                changed && *k > WIDEN_AFTER
                            };
                            let lo = if widen(false, iv.lo != o.lo) {
                                cap.lo
                            } else {
                                iv.lo
                            };
                            let hi = if widen(true, iv.hi != o.hi) {
                                cap.hi
                            } else {
                                iv.hi
                            };
                            *iv = Interval::new(lo, hi).unwrap_or(cap);
                        }
                        if m == *old {
                            continue;
                        }
                        m
                    }
                };
                inv[t] = Some(new);
                todo.push(t);
            }
        }
        let edges = g
            .edges
            .iter()
            .enumerate()
            .map(|(k, e)| {
                !dead.is_some_and(|d| d[k])
                    && inv[e.from].as_ref().is_some_and(|src| {
                        contribution(
                            e.kind,
                            &e.labels,
                            (&g.nodes[e.from].state, &facts[e.from], src),
                            (&g.nodes[e.to].state, &facts[e.to]),
                            abstract_caller[e.from],
                            sem,
                        )
                        .is_some()
                    })
            })
            .collect();
        Invariant { nodes: inv, edges }
    }
}

/// What one edge tells its target: an interval per integer reference of the target, or
/// `None` when the edge cannot be taken (a relation label contradicts the source).
fn contribution(
    kind: EdgeKind,
    labels: &[Label],
    (s, sf, src): (&State, &Facts, &BTreeMap<Ref, Interval>),
    (t, tf): (&State, &Facts),
    abstract_caller: bool,
    sem: IntSemantics,
) -> Option<BTreeMap<Ref, Interval>> {
    let mut src = src.clone();
    for l in labels {
        if let Label::Rel { a, cond, b } = l {
            refine(&mut src, sf, *a, *cond, *b)?;
        }
    }
    let get = |o: &Operand| -> Option<Interval> {
        match o {
            Operand::Lit(v) => Some(Interval::literal(*v)),
            Operand::Ref(r) => src.get(r).copied(),
        }
    };
    let bound = |o: &Operand| match o {
        Operand::Lit(_) => true,
        Operand::Ref(r) => sf.surely_bound(*r),
    };
    // per target position, the interval of the source position it mirrors
    let mut per_ref: BTreeMap<Ref, (Vec<Interval>, Vec<Interval>)> = BTreeMap::new();
    for (p, r) in tf.at_positions() {
        let from = if abstract_caller && kind == EdgeKind::Return {
            None
        } else {
            source_of(kind, s, sf, t, p)
        };
        let iv = from
            .and_then(|q| sf.at_position(&q))
            .and_then(|x| src.get(&x))
            .copied()
            .unwrap_or(Interval::TOP);
        let sure = p.1.is_empty() && matches!(p.0, Root::Stack(..) | Root::Result);
        let e = per_ref.entry(*r).or_default();
        if sure {
            e.0.push(iv);
        } else {
            e.1.push(iv);
        }
    }
    let mut res = BTreeMap::new();
    for (r, v) in &t.heap {
        let (HeapValue::Int(own) | HeapValue::Long(own)) = v else {
            continue;
        };
        let mut iv = match per_ref.get(r) {
            // a value the check surely reads outside the target's interval: never taken
            Some((sure, _)) if !sure.is_empty() => {
                sure.iter().try_fold(*own, |a, b| a.intersect(b))?
            }
            Some((_, maybe)) if !maybe.is_empty() => {
                maybe.iter().skip(1).fold(maybe[0], |a, b| a.hull(b))
            }
            _ => Interval::TOP,
        };
        if kind.is_step() {
            for l in labels {
                let Label::Arith { res, op, a, b } = l else {
                    continue;
                };
                if res != r || !bound(a) || !b.as_ref().is_none_or(bound) {
                    continue;
                }
                let (Some(x), y) = (get(a), b.as_ref().map(get)) else {
                    continue;
                };
                if let Some(v) = arith(*op, x, y.flatten(), sem) {
                    iv = iv.intersect(&v).unwrap_or(iv);
                }
            }
        }
        if kind == EdgeKind::Eval {
            let cmp = sf.insn().and_then(|i| self_compare(i, s, t, *r));
            if let Some(v) = cmp {
                iv = iv.intersect(&v).unwrap_or(iv);
            }
            let shifted = sf.insn().and_then(|i| unsigned_shift(i, s, &src, t, *r));
            if let Some(v) = shifted {
                iv = iv.intersect(&v).unwrap_or(iv);
            }
        }
        res.insert(*r, iv.intersect(own).unwrap_or(*own));
    }
    Some(res)
}

/// The interval of `a op b`, when the label's operands determine one.
pub(super) fn arith(
    op: IntOp,
    a: Interval,
    b: Option<Interval>,
    sem: IntSemantics,
) -> Option<Interval> {
    let b = match (op, b) {
        (IntOp::Neg, _) => a,
        (_, Some(b)) => b,
        _ => return None,
    };
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

/// Narrows the source intervals by a relation label that held (the check evaluated it with
/// the source witness). `None`: the label cannot hold. A bound of one side is only used on
/// the other when the check surely binds it (else the label is not evaluated).
fn refine(
    src: &mut BTreeMap<Ref, Interval>,
    sf: &Facts,
    a: Operand,
    cond: jtg_engine::class::Cond,
    b: Operand,
) -> Option<()> {
    use jtg_engine::class::Cond;
    let side = |o: Operand, src: &BTreeMap<Ref, Interval>| match o {
        Operand::Lit(v) => Some((Interval::literal(v), true, None)),
        Operand::Ref(r) => src.get(&r).map(|iv| (*iv, sf.surely_bound(r), Some(r))),
    };
    let (Some((ia, ba, ra)), Some((ib, bb, rb))) = (side(a, src), side(b, src)) else {
        return Some(());
    };
    // x cond y, narrowed for x
    let narrow = |x: Interval, cond: Cond, y: Interval| -> Option<Interval> {
        let lim = |lo: Option<i128>, hi: Option<i128>| Interval::new(lo, hi);
        let part = match cond {
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
        x.intersect(&part)
    };
    let flip = |c: Cond| match c {
        Cond::Lt => Cond::Gt,
        Cond::Gt => Cond::Lt,
        Cond::Le => Cond::Ge,
        Cond::Ge => Cond::Le,
        c => c,
    };
    if let Some(ra) = ra.filter(|_| bb) {
        match narrow(ia, cond, ib) {
            Some(v) => {
                src.insert(ra, v);
            }
            None if ba => return None,
            None => {}
        }
    }
    if let Some(rb) = rb.filter(|_| ba) {
        match narrow(ib, flip(cond), ia) {
            Some(v) => {
                src.insert(rb, v);
            }
            None if bb => return None,
            None => {}
        }
    }
    Some(())
}
