//! Must-nullness of positions: per node, the root positions (locals and stack entries) whose
//! run value is an object, never `null`, on every path the check can match from the start
//! node, and those whose run value is `null` on every such path.
//!
//! A node's own state gives such positions: where the check surely reads a root (a stack entry
//! or a live local) and the state has an existing object there (`C(…)`, a realized object or
//! array), the check accepts only an object (or one under construction, which is no `null`
//! either); where the state has `null` there, the check accepts only `null`; where the state
//! has a reference `r →!F t` towards an object (see [`must_reach_objects`]), only an
//! object. Edges carry the
//! facts from their source positions like the intervals of [`super::Invariant`]
//! ([`source_of`]: the same value at both ends of a refinement, split or instance edge; an
//! instruction's effect on an `eval` edge; an inlined `return`). The greatest fixpoint
//! ([`must::fixpoint`]) holds on every path by induction on its length.
//!
//! An edge is *dead* when its target puts `null` at a position the check surely reads whose
//! source holds an object on every matchable path, or an existing object at such a position
//! whose source holds `null` on every matchable path: the check rejects the target for every
//! run that gets there, so no run takes the edge (e.g. `tail == null` tested again in a later
//! iteration of a loop that set `tail` to a new object, after a merge forgot it; or a loop head
//! of Floyd's cycle search that the graph enters only after `fast` ran off the list, whose
//! `fast ≠ null` case, and everything only it leads to, no run reaches).

use super::must::{self, existing};
use super::positions::{roots, source_of, Facts, Pos};
use super::reach::binds_every_object;
use jtg_engine::graph::Graph;
use jtg_engine::state::{Ref, State};
use std::collections::BTreeSet;

/// Root positions with what they hold on every matchable path: `true` an object, `false`
/// `null`.
type Positions = BTreeSet<(Pos, bool)>;

/// The must-nullness of root positions per node (`None`: no path from the start node reaches
/// it) and the edges no such path takes.
pub(super) struct Nullness {
    pub(super) nodes: Vec<Option<Positions>>,
    pub(super) dead: Vec<bool>,
}

/// What the check accepts at a position holding `r`: an object, `null`, or either.
fn required(s: &State, r: Ref) -> Option<bool> {
    if r.is_null() {
        Some(false)
    } else if existing(s, r) {
        Some(true)
    } else {
        None
    }
}

/// Surely read root positions holding an existing object or `null`, or (`walked`: the check
/// binds every object below a surely read root) a reference that must reach one.
fn own(s: &State, f: &Facts, walked: bool) -> Positions {
    let reaching = if walked {
        must_reach_objects(s, f)
    } else {
        BTreeSet::new()
    };
    roots(s)
        .into_iter()
        .filter(|(p, _)| f.surely_read(p))
        .filter_map(|(p, r)| {
            let object = required(s, r).or_else(|| reaching.contains(&r).then_some(true))?;
            Some((p, object))
        })
        .collect()
}

/// The references below surely read roots that are objects wherever the check accepts the
/// state because of a `→!`: the check's condition (n) fails `r →!F t` when following `F` from
/// `r`'s value runs into `null` before `t`'s, which it does at once when `r` is `null` and
/// `t` is not; so `r →!F t` with `t` an existing object (or, in turn, such a reference) makes
/// `r` an object (e.g. `current` of a ring walk, which must reach `this`).
fn must_reach_objects(s: &State, f: &Facts) -> BTreeSet<Ref> {
    let bound: BTreeSet<Ref> = f
        .objs
        .iter()
        .filter(|(p, _)| f.surely_read(&(p.0, vec![])))
        .map(|(_, r)| *r)
        .collect();
    let mut objects: BTreeSet<Ref> = bound.iter().copied().filter(|r| existing(s, *r)).collect();
    loop {
        let more: Vec<Ref> = s
            .preds
            .must_reach
            .iter()
            .filter(|m| bound.contains(&m.from) && objects.contains(&m.to))
            .map(|m| m.from)
            .filter(|r| !objects.contains(r))
            .collect();
        if more.is_empty() {
            return objects;
        }
        objects.extend(more);
    }
}

impl Nullness {
    /// `feasible`: edges another sound analysis has not ruled out.
    pub(super) fn of(g: &Graph, facts: &[Facts], feasible: &[bool]) -> Nullness {
        let n = g.nodes.len();
        let walked = binds_every_object(g, facts);
        let own: Vec<Positions> = (0..n)
            .map(|k| own(&g.nodes[k].state, &facts[k], walked))
            .collect();
        let m = must::fixpoint(
            g,
            &own,
            feasible,
            |k, src| dead(g, facts, k, src),
            |k, src| transfer(g, facts, k, src),
        );
        Nullness {
            nodes: m.nodes,
            dead: m.dead,
        }
    }
}

/// The positions edge `k` carries into its target.
fn transfer(g: &Graph, facts: &[Facts], k: usize, src: &Positions) -> Positions {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let sf = &facts[e.from];
    let mut out = Positions::new();
    for (p, _) in roots(t) {
        let Some(q) = source_of(e.kind, s, sf, t, &p) else {
            continue;
        };
        for object in [true, false] {
            if src.contains(&(q.clone(), object)) {
                out.insert((p.clone(), object));
            }
        }
    }
    out
}

/// Whether edge `k`'s target requires at a surely read position the opposite of what its
/// source holds on every matchable path (`null` for an object, an object for `null`).
fn dead(g: &Graph, facts: &[Facts], k: usize, src: &Positions) -> bool {
    let e = &g.edges[k];
    let (s, t) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
    let (sf, tf) = (&facts[e.from], &facts[e.to]);
    roots(t).into_iter().any(|(p, r)| {
        let Some(object) = required(t, r) else {
            return false;
        };
        tf.surely_read(&p)
            && source_of(e.kind, s, sf, t, &p).is_some_and(|q| src.contains(&(q, !object)))
    })
}
