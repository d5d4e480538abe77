//! Difference constraints between the integer references of a node (`x − y ≤ c`, with a zero
//! variable for plain bounds): a must-analysis that holds on every partial path the check can
//! match from the start node, for the witnesses of the references the check binds.
//!
//! It carries what the interval invariant loses at a join: `x = i − 1` stays tied to `i`, so a
//! later `i ≥ 1` gives `x ≥ 0`. The facts are the interval invariant's (module `invariant`):
//! the node intervals and the invariant's intervals at each node (both hold for every bound
//! witness), relation labels whose operands the check surely binds, `res = a ± b` labels of a
//! step whose operands it surely binds and whose result cannot wrap, and positions carried
//! along edges by [`source_of`].
//!
//! Only references the check surely binds (a stack entry, the result, a live local, the local
//! the next instruction reads) are variables: their witnesses exist on every matched path, so
//! the constraints are plain facts and may be chained. (A reference read only maybe — below an
//! object, in a dead local — would make a chain `x − y ≤ a`, `y − z ≤ b` conditional on `y`.)
//! A target variable equals the value at each of its surely read positions, so the tightest
//! constraint over their sources holds. Joins take the loosest constraint; a constraint still
//! growing after a few rounds is dropped, which ends the fixpoint. A relation label or target
//! interval that contradicts the constraints marks the edge as never taken.

use super::invariant;
use super::positions::{source_of, Facts};
use jtg_engine::class::Cond;
use jtg_engine::graph::{EdgeKind, Label, NodeId, Operand};
use jtg_engine::state::IntOp;
use jtg_engine::state::{HeapValue, IntSemantics, Interval, Ref, State};
use jtg_engine::Graph;
use std::collections::{BTreeMap, BTreeSet};

/// A variable of the constraints: zero, a reference of the node, or the result of the `j`-th
/// label of the edge being crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum V {
    Zero,
    R(Ref),
    Res(usize),
}

/// `x − y ≤ c` per `(x, y)`; a missing pair is unconstrained.
type Dbm = BTreeMap<(V, V), i128>;

/// Per node, the closed constraints (`None`: no path reaches the node).
pub(crate) struct Relations {
    nodes: Vec<Option<Dbm>>,
    /// Per edge, whether a matchable path may take it (its source is reached and its labels
    /// and target's intervals are consistent with the source's constraints).
    pub(super) edges: Vec<bool>,
}

const WIDEN_AFTER: usize = 6;

fn tighten(d: &mut Dbm, x: V, y: V, c: i128) {
    let e = d.entry((x, y)).or_insert(c);
    *e = (*e).min(c);
}

fn bound_interval(d: &mut Dbm, v: V, iv: &Interval) {
    if let Some(h) = iv.hi {
        tighten(d, v, V::Zero, h);
    }
    if let Some(l) = iv.lo {
        tighten(d, V::Zero, v, -l);
    }
}

/// Floyd–Warshall closure; `None` when the constraints contradict each other.
fn close(d: &mut Dbm) -> Option<()> {
    let vars: Vec<V> = d
        .keys()
        .flat_map(|(x, y)| [*x, *y])
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    for &k in &vars {
        for &i in &vars {
            let Some(&ik) = d.get(&(i, k)) else { continue };
            for &j in &vars {
                let Some(&kj) = d.get(&(k, j)) else { continue };
                tighten(d, i, j, ik + kj);
            }
        }
    }
    if vars
        .iter()
        .any(|v| d.get(&(*v, *v)).is_some_and(|c| *c < 0))
    {
        return None;
    }
    d.retain(|(x, y), _| x != y);
    Some(())
}

fn ints(s: &State) -> impl Iterator<Item = (Ref, Interval)> + '_ {
    s.heap.iter().filter_map(|(r, v)| match v {
        HeapValue::Int(iv) => Some((*r, *iv)),
        _ => None,
    })
}

impl Relations {
    /// `intervals`: the interval invariant; `dead`: edges no matchable path takes.
    pub(super) fn of(
        g: &Graph,
        facts: &[Facts],
        intervals: &invariant::Invariant,
        dead: impl Fn(usize) -> bool,
        sem: IntSemantics,
    ) -> Relations {
        // what is known at a node whatever the path: its own and its invariant intervals
        let base = |n: NodeId| -> Option<Dbm> {
            let mut d = Dbm::new();
            for (r, iv) in ints(&g.nodes[n].state) {
                if facts[n].surely_bound(r) {
                    bound_interval(&mut d, V::R(r), &iv);
                }
            }
            for (r, iv) in intervals.nodes[n].as_ref()? {
                if facts[n].surely_bound(*r) {
                    bound_interval(&mut d, V::R(*r), iv);
                }
            }
            Some(d)
        };
        let (out, abstract_caller) = super::positions::adjacency(g);
        let mut nodes: Vec<Option<Dbm>> = vec![None; g.nodes.len()];
        let mut rounds = vec![0usize; g.nodes.len()];
        nodes[g.start] = base(g.start).and_then(|mut d| close(&mut d).map(|_| d));
        // what edge `k` tells its target, closed (`None`: not taken from `src`)
        let along = |k: usize, src: &Dbm| -> Option<Dbm> {
            let (n, t) = (g.edges[k].from, g.edges[k].to);
            let mut c = transfer(g, k, (&facts[n], src), &facts[t], abstract_caller[n], sem)?;
            for ((x, y), v) in base(t)? {
                tighten(&mut c, x, y, v);
            }
            close(&mut c)?;
            Some(c)
        };
        let mut todo = vec![g.start];
        while let Some(n) = todo.pop() {
            let Some(src) = nodes[n].clone() else {
                continue;
            };
            for &k in &out[n] {
                if dead(k) {
                    continue;
                }
                let t = g.edges[k].to;
                let Some(contrib) = along(k, &src) else {
                    continue;
                };
                let new = match &nodes[t] {
                    None => contrib,
                    Some(old) => {
                        // the loosest of both; a constraint that keeps growing is dropped
                        let mut m = Dbm::new();
                        for (key, a) in old {
                            let Some(b) = contrib.get(key) else { continue };
                            let v = (*a).max(*b);
                            if v > *a && rounds[t] >= WIDEN_AFTER {
                                continue;
                            }
                            m.insert(*key, v);
                        }
                        if m == *old {
                            continue;
                        }
                        m
                    }
                };
                rounds[t] += 1;
                nodes[t] = Some(new);
                todo.push(t);
            }
        }
        let edges = (0..g.edges.len())
            .map(|k| {
                !dead(k)
                    && nodes[g.edges[k].from]
                        .as_ref()
                        .is_some_and(|src| along(k, src).is_some())
            })
            .collect();
        Relations { nodes, edges }
    }

    /// Whether label `new`, in place of label `j` of edge `k`, holds on every matchable path
    /// that takes the edge: the source's constraints and the edge's labels (the replaced one
    /// included: a trace the original graph accepts satisfies it) imply it. A relation is
    /// implied by the constraints; an arithmetic label by the replaced one when it differs
    /// only in operands the constraints show equal (the same operation on equal values).
    pub(crate) fn implies(
        &self,
        g: &Graph,
        facts: &[Facts],
        k: usize,
        j: usize,
        new: &Label,
    ) -> bool {
        let e = &g.edges[k];
        let Some(src) = &self.nodes[e.from] else {
            return false;
        };
        let var = source_var(&facts[e.from]);
        let mut d = src.clone();
        assume_relations(&mut d, &e.labels, &var);
        if close(&mut d).is_none() {
            return false; // the edge is dead: another argument
        }
        let same = |x: &Operand, y: &Operand| {
            x == y
                || matches!((var(x), var(y)), (Some(vx), Some(vy))
                    if implied(&d, vx, Cond::Eq, vy))
        };
        match (new, e.labels.get(j)) {
            (Label::Rel { a, cond, b }, _) => match (var(a), var(b)) {
                (Some(va), Some(vb)) => implied(&d, va, *cond, vb),
                _ => false,
            },
            (
                Label::Arith { res, op, a, b },
                Some(Label::Arith {
                    res: res0,
                    op: op0,
                    a: a0,
                    b: b0,
                }),
            ) => {
                res == res0
                    && op == op0
                    && same(a, a0)
                    && match (b, b0) {
                        (Some(b), Some(b0)) => same(b, b0),
                        (None, None) => true,
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// Whether no matchable path reaches node `n`.
    pub(crate) fn unreachable(&self, n: NodeId) -> bool {
        self.nodes[n].is_none()
    }

    /// The interval the constraints give `r` at node `n` (`None`: unreached or unconstrained
    /// on both sides).
    pub(crate) fn interval(&self, n: NodeId, r: Ref) -> Option<Interval> {
        let d = self.nodes[n].as_ref()?;
        let hi = d.get(&(V::R(r), V::Zero)).copied();
        let lo = d.get(&(V::Zero, V::R(r))).map(|c| -c);
        Interval::new(lo, hi)
    }
}

/// `var` of an operand of a label of an edge from a node with facts `sf`: a literal is zero
/// plus its value; a reference is a variable where the check surely binds it in the source.
fn source_var(sf: &Facts) -> impl Fn(&Operand) -> Option<(V, i128)> + '_ {
    move |o: &Operand| match o {
        Operand::Lit(v) => Some((V::Zero, *v)),
        Operand::Ref(r) => sf.surely_bound(*r).then_some((V::R(*r), 0)),
    }
}

/// Adds the relation labels the check evaluated on the source witnesses:
/// `(xa + ca) cond (xb + cb)` for each `a cond b` whose operands are variables.
fn assume_relations(d: &mut Dbm, labels: &[Label], var: impl Fn(&Operand) -> Option<(V, i128)>) {
    for l in labels {
        let Label::Rel { a, cond, b } = l else {
            continue;
        };
        let (Some((xa, ca)), Some((xb, cb))) = (var(a), var(b)) else {
            continue;
        };
        // xa − xb ≤ c  ⇔  a − b ≤ c + cb − ca
        let off = cb - ca;
        match cond {
            Cond::Lt => tighten(d, xa, xb, off - 1),
            Cond::Le => tighten(d, xa, xb, off),
            Cond::Gt => tighten(d, xb, xa, -off - 1),
            Cond::Ge => tighten(d, xb, xa, -off),
            Cond::Eq => {
                tighten(d, xa, xb, off);
                tighten(d, xb, xa, -off);
            }
            Cond::Ne => {}
        }
    }
}

/// The bound `c` of `x − y ≤ c` in the closed constraints `d` (`x − x ≤ 0`).
fn bound(d: &Dbm, x: V, y: V) -> Option<i128> {
    if x == y {
        Some(0)
    } else {
        d.get(&(x, y)).copied()
    }
}

/// Whether the closed constraints `d` imply `(xa + ca) cond (xb + cb)`.
fn implied(d: &Dbm, (xa, ca): (V, i128), cond: Cond, (xb, cb): (V, i128)) -> bool {
    let off = cb - ca;
    // xa − xb ≤ c with c ≤ want
    let le = |x: V, y: V, want: i128| bound(d, x, y).is_some_and(|c| c <= want);
    match cond {
        Cond::Lt => le(xa, xb, off - 1),
        Cond::Le => le(xa, xb, off),
        Cond::Gt => le(xb, xa, -off - 1),
        Cond::Ge => le(xb, xa, -off),
        Cond::Eq => le(xa, xb, off) && le(xb, xa, -off),
        Cond::Ne => le(xa, xb, off - 1) || le(xb, xa, -off - 1),
    }
}

/// The constraints edge `k` gives its target's references, from the source's closed ones.
/// `None`: the edge's relation labels contradict the source.
fn transfer(
    g: &Graph,
    k: usize,
    (sf, src): (&Facts, &Dbm),
    tf: &Facts,
    abstract_caller: bool,
    sem: IntSemantics,
) -> Option<Dbm> {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let mut d = src.clone();
    let var = source_var(sf);
    let interval_of = |d: &Dbm, o: &Operand| -> Option<Interval> {
        match o {
            Operand::Lit(v) => Some(Interval::literal(*v)),
            Operand::Ref(r) => {
                let hi = d.get(&(V::R(*r), V::Zero)).copied();
                let lo = d.get(&(V::Zero, V::R(*r))).map(|c| -c);
                Interval::new(lo, hi)
            }
        }
    };
    assume_relations(&mut d, &e.labels, &var);
    close(&mut d)?;
    // arithmetic labels of a step: res = a ± b, exact when it cannot wrap
    let mut res_of: BTreeMap<Ref, Vec<V>> = BTreeMap::new();
    if e.kind.is_step() {
        for (j, l) in e.labels.iter().enumerate() {
            let Label::Arith {
                res,
                op: op @ (IntOp::Add | IntOp::Sub),
                a,
                b: Some(b),
            } = l
            else {
                continue;
            };
            let (Some((xa, ca)), Some((xb, cb))) = (var(a), var(b)) else {
                continue;
            };
            let (Some(ia), Some(ib)) = (interval_of(&d, a), interval_of(&d, b)) else {
                continue;
            };
            if super::invariant::arith(*op, ia, Some(ib), sem).is_none() {
                continue;
            }
            let r = V::Res(j);
            // res = (xa + ca) ± (xb + cb): pin res to xa by b's bounds (and to xb for +)
            let (sign, c) = match op {
                IntOp::Add => (1, ca + cb),
                _ => (-1, ca - cb),
            };
            // res − xa = sign·xb + c, with xb within its interval
            let ixb = match xb {
                V::Zero => Some(Interval::literal(0)),
                _ => interval_of(&d, b),
            };
            if let Some(i) = ixb {
                let (lo, hi) = if sign > 0 {
                    (i.lo.map(|v| v + c), i.hi.map(|v| v + c))
                } else {
                    (i.hi.map(|v| c - v), i.lo.map(|v| c - v))
                };
                if let Some(h) = hi {
                    tighten(&mut d, r, xa, h);
                }
                if let Some(l) = lo {
                    tighten(&mut d, xa, r, -l);
                }
            }
            if sign > 0 {
                // symmetric: res − xb = xa + c
                let ixa = match xa {
                    V::Zero => Some(Interval::literal(0)),
                    _ => interval_of(&d, a),
                };
                if let Some(i) = ixa {
                    if let Some(h) = i.hi {
                        tighten(&mut d, r, xb, h + c);
                    }
                    if let Some(l) = i.lo {
                        tighten(&mut d, xb, r, -(l + c));
                    }
                }
            } else {
                // res − 0 = xa − xb + c: bounded by the difference of the operands
                if let Some(h) = d.get(&(xa, xb)).copied() {
                    tighten(&mut d, r, V::Zero, h + c);
                }
                if let Some(l) = d.get(&(xb, xa)).copied() {
                    tighten(&mut d, V::Zero, r, l - c);
                }
            }
            res_of.entry(*res).or_default().push(r);
        }
        close(&mut d)?;
    }
    // per target reference the check surely binds: the source variables it equals
    let mut sure: BTreeMap<Ref, Vec<V>> = res_of;
    for (p, r) in tf.at_positions() {
        if !tf.binds(p) {
            continue;
        }
        let from = if abstract_caller && e.kind == EdgeKind::Return {
            None
        } else {
            source_of(e.kind, s, sf, t, p)
        };
        if let Some(q) = from.and_then(|q| sf.at_position(&q)) {
            sure.entry(*r).or_default().push(V::R(q));
        }
    }
    // the source variables that equal a target variable's witness
    let choices = |x: V| -> Option<Vec<V>> {
        match x {
            V::Zero => Some(vec![V::Zero]),
            V::R(r) => sure.get(&r).cloned(),
            V::Res(_) => None,
        }
    };
    let mut targets: Vec<V> = vec![V::Zero];
    targets.extend(
        ints(t)
            .map(|(r, _)| r)
            .filter(|r| tf.surely_bound(*r))
            .map(V::R),
    );
    let mut outd = Dbm::new();
    for &x in &targets {
        let Some(xs) = choices(x) else {
            continue;
        };
        for &y in &targets {
            if x == y {
                continue;
            }
            let Some(ys) = choices(y) else {
                continue;
            };
            // every choice is the witness: the tightest constraint holds
            let c = xs
                .iter()
                .flat_map(|xv| ys.iter().filter_map(|yv| d.get(&(*xv, *yv)).copied()))
                .min();
            if let Some(c) = c {
                outd.insert((x, y), c);
            }
        }
    }
    Some(outd)
}
