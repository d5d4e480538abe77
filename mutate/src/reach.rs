//! Must-reach between positions, and the distinct pairs that acyclicity gives: per node, pairs
//! of access paths `(p, q)` whose run objects satisfy "`q`'s object is reachable from `p`'s
//! object" (in at least one step, or at least zero) on every path the check can match from
//! the start node.
//!
//! Facts, each one the check verifies or the JVM guarantees:
//!
//! * a node's own state: position `p.f.g` is reached from `p` in two steps, and two positions
//!   holding one reference hold one object (the check's condition (e));
//! * refinement, split and instance edges keep the concrete state, an `eval` edge whose
//!   instruction writes no object keeps every edge of the heap, and an inlined `return` only
//!   pops a frame: reachability between the objects at two positions carries over along the
//!   positions' sources ([`source_of`]);
//! * transitivity, and *one successor*: if `p` is a realized object of a class with exactly
//!   one reference field `f`, every path of at least one step from it starts with `p.f`.
//!
//! Only positions whose root the check surely reads (a stack entry, the result, a live local)
//! are used, and only in graphs that never allocate nor run a constructor: there the check
//! binds every object below such a root (no object under construction is left unwalked), so
//! the facts hold for the run's values and may be chained.
//!
//! Acyclicity turns them into distinct pairs: if `q` is reached from `p` in at least one step
//! and `q`'s reference is `C(?)` or `C(…)` without `⟲` (or `p`'s is), one object at both
//! would lie on a cycle of that reference's hidden region (all of it is hidden), which the
//! check's condition (k) rejects at the node. So on a matchable path the two positions never
//! hold one object. Like the must-distinct pairs, the analysis is a fixpoint of "own facts
//! plus the intersection over incoming edges", which holds on every path by induction. A fact
//! is "if `q` holds an object, it is reached from `p`'s": an edge on which `q`'s source is
//! `null` carries every fact about `q` vacuously, and where the check reads `null` at `p`, `q`
//! holds `null` too. Such a *forced* `null` is carried like the facts; an edge whose target
//! puts an existing object there is never taken (**dead**; e.g. `slow` null while `fast` is
//! not, after `slow = slow.next` ran off a list that `fast` was still on).

use super::must::existing;
use super::positions::{roots, source_of, value_at, Facts, Pos};
use jtg_engine::graph::{EdgeKind, Graph, NodeId};
use jtg_engine::state::{HeapValue, Ref, State};
use jtg_engine::Program;
use std::collections::{BTreeMap, BTreeSet};

/// `(p, q) → strict`: if `q` holds an object, it is reached from `p`'s object in at least one
/// step (`true`) or at least zero (`false`). (Conditional on `q` only, so that facts chain:
/// `q` an object makes the middle of a chain one, which makes the first one.)
type Reach = BTreeMap<(Pos, Pos), bool>;

/// The positions of a node the analysis uses: objects below a surely read root.
fn positions(f: &Facts) -> BTreeMap<&Pos, Ref> {
    f.objs
        .iter()
        .filter(|(p, _)| f.surely_read(&(p.0, vec![])))
        .map(|(p, r)| (p, *r))
        .collect()
}

fn add(r: &mut Reach, p: &Pos, q: &Pos, strict: bool) -> bool {
    if p == q {
        return false;
    }
    match r.get_mut(&(p.clone(), q.clone())) {
        Some(s) if *s || !strict => false,
        Some(s) => {
            *s = true;
            true
        }
        None => {
            r.insert((p.clone(), q.clone()), strict);
            true
        }
    }
}

/// The reference field of `class` if it has exactly one (and no array field).
fn only_successor(prog: &Program, class: &str) -> Option<String> {
    let fields = prog.instance_fields(class).ok()?;
    let mut refs = fields.iter().filter(|(_, t, _)| t.is_reference());
    let (name, ..) = refs.next()?;
    refs.next().is_none().then(|| name.as_str().to_string())
}

/// Closes `r` under transitivity and the one-successor rule, for the node's positions.
fn close(r: &mut Reach, s: &State, pos: &BTreeMap<&Pos, Ref>, prog: &Program) {
    let succ: BTreeMap<&Pos, Pos> = pos
        .iter()
        .filter_map(|(p, x)| match s.value(*x) {
            Some(HeapValue::Object { class, fields }) => {
                let f = only_successor(prog, class)?;
                fields.contains_key(f.as_str()).then_some(())?;
                let mut c = (*p).clone();
                c.1.push(super::positions::Seg::Field(f));
                pos.contains_key(&c).then_some((*p, c))
            }
            _ => None,
        })
        .collect();
    loop {
        let mut changed = false;
        let facts: Vec<((Pos, Pos), bool)> = r.iter().map(|(k, v)| (k.clone(), *v)).collect();
        for ((a, b), s1) in &facts {
            for ((c, d), s2) in &facts {
                if b == c {
                    changed |= add(r, a, d, *s1 || *s2);
                }
            }
            if *s1 {
                if let Some(c) = succ.get(a) {
                    changed |= add(r, c, b, false);
                }
            }
        }
        if !changed {
            return;
        }
    }
}

/// The node's own facts: a position below another, one reference at two positions.
fn own(pos: &BTreeMap<&Pos, Ref>) -> Reach {
    let mut r = Reach::new();
    for (p, x) in pos {
        for (q, y) in pos {
            if p == q {
                continue;
            }
            if x == y {
                add(&mut r, p, q, false);
            } else if q.0 == p.0 && q.1.len() > p.1.len() && q.1.starts_with(&p.1) {
                add(&mut r, p, q, true);
            }
        }
    }
    r
}

/// Whether an edge leaves every edge of the concrete heap as it was.
fn keeps_heap(g: &Graph, facts: &[Facts], k: usize, abstract_caller: &[bool]) -> bool {
    let e = &g.edges[k];
    match e.kind {
        EdgeKind::Refine | EdgeKind::Split | EdgeKind::Instance => true,
        EdgeKind::Eval => facts[e.from].keeps_heap(),
        EdgeKind::Return => !abstract_caller[e.from],
        EdgeKind::Call => false,
    }
}

/// Whether the graph never allocates nor runs a constructor: then the check binds every
/// object below a surely read root (no object under construction is left unwalked).
pub(super) fn binds_every_object(g: &Graph, facts: &[Facts]) -> bool {
    !(0..g.nodes.len()).any(|k| {
        facts[k].allocates()
            || g.nodes[k]
                .state
                .frames
                .iter()
                .any(|f| &*f.method.name == "<init>")
    })
}

/// What the analysis gives the must-distinct analysis.
pub(super) struct Acyclic {
    /// Per node, pairs of positions that never hold one object (empty where the analysis does
    /// not apply).
    pub(super) pairs: Vec<BTreeSet<(Pos, Pos)>>,
    /// Per edge, whether no matchable path takes it: its source is not reached, or its target
    /// contradicts the facts (a position they force to `null` holds an existing object).
    pub(super) dead: Vec<bool>,
}

/// One node's facts: the reach pairs, and positions that hold `null` on every matchable path
/// although the state allows an object (`q` after a fact `(p, q)` met a `null` at `p`).
#[derive(Clone, PartialEq, Eq)]
struct NodeFacts {
    reach: Reach,
    null: BTreeSet<Pos>,
}

/// See the module docs.
pub(super) fn acyclic(g: &Graph, prog: &Program, facts: &[Facts], feasible: &[bool]) -> Acyclic {
    let n = g.nodes.len();
    let mut out = Acyclic {
        pairs: vec![BTreeSet::new(); n],
        dead: vec![false; g.edges.len()],
    };
    if !binds_every_object(g, facts) {
        return out;
    }
    let (_, abstract_caller) = super::positions::adjacency(g);
    let pos: Vec<BTreeMap<&Pos, Ref>> = facts.iter().map(positions).collect();
    let own: Vec<Reach> = (0..n).map(|k| own(&pos[k])).collect();
    let mut incoming: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, e) in g.edges.iter().enumerate() {
        incoming[e.to].push(k);
        outgoing[e.from].push(k);
    }
    // `None`: not reached (yet), or reached only along contradicted edges
    let mut at: Vec<Option<NodeFacts>> = vec![None; n];
    let mut first = own[g.start].clone();
    close(&mut first, &g.nodes[g.start].state, &pos[g.start], prog);
    at[g.start] = Some(NodeFacts {
        reach: first,
        null: BTreeSet::new(),
    });
    let mut todo: Vec<NodeId> = (0..n).collect();
    while let Some(t) = todo.pop() {
        if t == g.start {
            continue;
        }
        let mut acc: Option<NodeFacts> = None;
        for &k in &incoming[t] {
            let e = &g.edges[k];
            let Some(src) = at[e.from].as_ref() else {
                continue;
            };
            if !feasible[k] {
                continue;
            }
            let tr = if keeps_heap(g, facts, k, &abstract_caller) {
                match transfer(g, facts, k, src, &pos[t]) {
                    Some(tr) => tr,
                    None => continue, // the edge contradicts the facts: never taken
                }
            } else {
                NodeFacts {
                    reach: Reach::new(),
                    null: BTreeSet::new(),
                }
            };
            acc = Some(match acc {
                None => tr,
                Some(a) => NodeFacts {
                    reach: a
                        .reach
                        .into_iter()
                        .filter_map(|(pq, s)| tr.reach.get(&pq).map(|s2| (pq, s && *s2)))
                        .collect(),
                    null: a.null.intersection(&tr.null).cloned().collect(),
                },
            });
        }
        let new = acc.map(|mut a| {
            for ((p, q), s) in &own[t] {
                add(&mut a.reach, p, q, *s);
            }
            close(&mut a.reach, &g.nodes[t].state, &pos[t], prog);
            a
        });
        if at[t] != new {
            at[t] = new;
            todo.extend(outgoing[t].iter().map(|&k| g.edges[k].to));
        }
    }
    for (k, e) in g.edges.iter().enumerate() {
        out.dead[k] = !feasible[k]
            || match at[e.from].as_ref() {
                None => true,
                Some(src) => {
                    keeps_heap(g, facts, k, &abstract_caller)
                        && transfer(g, facts, k, src, &pos[e.to]).is_none()
                }
            };
    }
    for (k, a) in at.iter().enumerate() {
        let Some(a) = a else { continue };
        let s = &g.nodes[k].state;
        let acyclic = |x: Ref| {
            matches!(
                s.value(x),
                Some(HeapValue::Unknown { .. } | HeapValue::Abstract { .. })
            ) && s.preds.cyclic(x).is_none()
        };
        for ((p, q), strict) in &a.reach {
            let (Some(&x), Some(&y)) = (pos[k].get(p), pos[k].get(q)) else {
                continue;
            };
            if *strict && (acyclic(x) || acyclic(y)) {
                out.pairs[k].insert(pair(p, q));
            }
        }
    }
    for (k, p) in out.pairs.iter_mut().enumerate() {
        p.extend(must_reach_pairs(&g.nodes[k].state, &pos[k]));
    }
    // an edge whose target puts one existing object at two positions (below surely read
    // roots: the check binds them all in a graph that allocates nothing) whose sources are a
    // pair: no run takes it (e.g. `slow = fast.next` in Floyd's loop over an acyclic list)
    for (k, e) in g.edges.iter().enumerate() {
        if out.dead[k] || out.pairs[e.from].is_empty() {
            continue;
        }
        let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
        let sure: Vec<(Ref, Pos)> = pos[e.to]
            .iter()
            .filter(|(_, r)| existing(t, **r))
            .filter_map(|(p, r)| source_of(e.kind, s, &facts[e.from], t, p).map(|q| (*r, q)))
            .collect();
        out.dead[k] = sure.iter().enumerate().any(|(i, (r, ps))| {
            sure[i + 1..]
                .iter()
                .any(|(x, qs)| x == r && ps != qs && out.pairs[e.from].contains(&pair(ps, qs)))
        });
    }
    out
}

/// Pairs of positions that `→!` keeps apart: with `r →!{f} t`, a realized object `x` whose
/// field `f` is `r`, and `x` another object than `t` (no `x =? t`), `r`'s object is not
/// `x`'s: following `f` from it would come back to `x` at once without meeting `t`, which the
/// check's condition (n) rejects (e.g. `this.next.next` is not `this.next` in a ring that must
/// lead back to `this`).
fn must_reach_pairs(s: &State, pos: &BTreeMap<&Pos, Ref>) -> BTreeSet<(Pos, Pos)> {
    let mut out = BTreeSet::new();
    let at = |x: Ref| pos.iter().filter(move |(_, r)| **r == x).map(|(p, _)| *p);
    for m in &s.preds.must_reach {
        let mut fields = m.fields.iter();
        let (Some(f), None) = (fields.next(), fields.next()) else {
            continue;
        };
        if at(m.to).next().is_none() {
            continue; // the check binds `t` wherever it binds what is below a read root
        }
        for x in pos.values() {
            let Some(HeapValue::Object { fields, .. }) = s.value(*x) else {
                continue;
            };
            // (`x.f = x` with `x →!{f} t` is a state no run matches: nothing to claim there)
            if fields.get(f.as_str()) != Some(&m.from)
                || *x == m.from
                || *x == m.to
                || s.preds.may_equal(*x, m.to)
            {
                continue;
            }
            for p in at(*x) {
                for q in at(m.from) {
                    if p != q {
                        out.insert(pair(p, q));
                    }
                }
            }
        }
    }
    out
}

fn pair(p: &Pos, q: &Pos) -> (Pos, Pos) {
    if p <= q {
        (p.clone(), q.clone())
    } else {
        (q.clone(), p.clone())
    }
}

/// The facts edge `k` carries into its target (its instruction keeps the heap); `None` when
/// the target contradicts them: a position they force to `null` holds an existing object.
fn transfer(
    g: &Graph,
    facts: &[Facts],
    k: usize,
    src: &NodeFacts,
    tpos: &BTreeMap<&Pos, Ref>,
) -> Option<NodeFacts> {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let (sf, tf) = (&facts[e.from], &facts[e.to]);
    let from: Vec<(&Pos, Pos)> = tpos
        .keys()
        .filter_map(|p| source_of(e.kind, s, sf, t, p).map(|q| (*p, q)))
        .collect();
    let mut out = NodeFacts {
        reach: Reach::new(),
        null: BTreeSet::new(),
    };
    for (p, ps) in &from {
        if src.null.contains(ps) {
            out.null.insert((*p).clone());
        }
        for (q, qs) in &from {
            if p == q {
                continue;
            }
            if ps == qs {
                add(&mut out.reach, p, q, false);
            } else if sf.surely_read(&(qs.0, vec![])) && value_at(s, qs) == Some(Ref::Null) {
                // on this edge `q` holds null (the check reads it): the fact is vacuous
                add(&mut out.reach, p, q, true);
            } else if let Some(strict) = src.reach.get(&(ps.clone(), qs.clone())) {
                add(&mut out.reach, p, q, *strict);
            }
        }
    }
    // a root the target surely reads as `null`: whatever the facts say is reached from it
    // (if an object) is `null` too
    for (p, r) in roots(t) {
        if r != Ref::Null || !tf.surely_read(&p) {
            continue;
        }
        let Some(ps) = source_of(e.kind, s, sf, t, &p) else {
            continue;
        };
        for (q, qs) in &from {
            if src.reach.contains_key(&(ps.clone(), qs.clone())) {
                out.null.insert((*q).clone());
            }
        }
    }
    let contradicted = out
        .null
        .iter()
        .any(|q| tpos.get(q).is_some_and(|r| existing(t, *r)) && tf.surely_read(&(q.0, vec![])));
    (!contradicted).then_some(out)
}
