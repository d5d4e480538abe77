//! Deriving every mutant of a graph, in a fixed order, each with its equivalence proof if it
//! has one (the criteria of the crate docs).

use crate::intervals::Intervals;
use crate::labels;
use crate::mutant::{Change, Mutant, Operator};
use jtg_engine::graph::{EdgeKind, Label, NodeId};
use jtg_engine::models::OBJECT;
use jtg_engine::state::{HeapValue, IntSemantics, Interval, Ref, State};
use jtg_engine::{Graph, Program};
use std::collections::BTreeSet;

/// Every mutant of `g`, in a fixed order.
pub fn mutants(g: &Graph, prog: &Program, sem: IntSemantics) -> Vec<Mutant> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<Mutant>,
                op: Operator,
                desc: String,
                change: Change,
                start_changed: bool,
                eq: Option<String>| {
        out.push(Mutant {
            operator: op,
            description: desc,
            change,
            start_changed,
            equivalent: eq,
        })
    };
    // drop-refinement
    for n in 0..g.nodes.len() {
        let outs: Vec<usize> = (0..g.edges.len())
            .filter(|&k| {
                g.edges[k].from == n
                    && matches!(g.edges[k].kind, EdgeKind::Refine | EdgeKind::Split)
            })
            .collect();
        if outs.len() < 2 {
            continue;
        }
        for &k in &outs {
            let e = &g.edges[k];
            push(
                &mut out,
                Operator::DropRefinement,
                format!("drop the {} edge {} → {}", e.kind, e.from, e.to),
                Change::RemoveEdge(k),
                false,
                None,
            );
        }
    }
    // loop heads: the targets of instance edges (where a loop closes)
    let loop_heads: BTreeSet<NodeId> = g
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Instance)
        .map(|e| e.to)
        .collect();
    // the interval invariant (module `intervals`): `r` at `n` within `to` on every path
    let inv = Intervals::of(g, prog, sem);
    let invariant = |n: NodeId, r: Ref, to: &Interval| {
        let i = inv.nodes[n].as_ref()?.get(&r)?;
        i.is_subset_of(to)
            .then(|| format!("interval invariant: {r} ∈ {i} at node {n} on every path"))
    };
    // node-state mutants
    for n in 0..g.nodes.len() {
        let st = &g.nodes[n].state;
        let start = n == g.start;
        for (r, v) in &st.heap {
            let HeapValue::Int(iv) = v else { continue };
            if iv.as_literal().is_some() {
                continue;
            }
            for (side, narrowed) in narrow(iv) {
                push(
                    &mut out,
                    Operator::NarrowInterval,
                    format!("node {n}: {r} = {iv} narrowed at its {side} end to {narrowed}"),
                    Change::SetInt(n, *r, narrowed),
                    start,
                    invariant(n, *r, &narrowed),
                );
            }
        }
        // narrow-counter: a counter of a loop head bounded just past the small sizes
        if loop_heads.contains(&n) {
            for (r, v) in &st.heap {
                let HeapValue::Int(iv) = v else { continue };
                let Some(narrowed) = narrow_counter(iv) else {
                    continue;
                };
                push(
                    &mut out,
                    Operator::NarrowCounter,
                    format!("node {n}: counter {r} = {iv} narrowed to {narrowed}"),
                    Change::SetInt(n, *r, narrowed),
                    start,
                    invariant(n, *r, &narrowed),
                );
            }
        }
        let p = &st.preds;
        for &(a, b) in &p.may_equal {
            let m = Change::RemoveMayEqual(n, a, b);
            let eq = disjoint_types(prog, st, a, b);
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {a} =? {b}"),
                m,
                start,
                eq,
            );
        }
        for &(a, b) in &p.joins {
            let m = Change::RemoveJoin(n, a, b);
            let eq = if realized(st, a) && realized(st, b) {
                Some(VACUOUS_REALIZED.to_string())
            } else if let Some(why) =
                cyclic_join(prog, st, a, b).or_else(|| cyclic_join(prog, st, b, a))
            {
                Some(why)
            } else if a == b && p.is_non_tree(a) {
                Some(REDUNDANT.to_string())
            } else if a == b {
                vacuous_shape(prog, st, a)
            } else {
                vacuous_join(prog, st, a, b)
            };
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {a} %$ {b}"),
                m,
                start,
                eq,
            );
        }
        for &r in &p.non_tree {
            let m = Change::RemoveNonTree(n, r);
            let eq = if realized(st, r) {
                Some(VACUOUS_REALIZED.to_string())
            } else if p.joins(r, r) {
                Some(REDUNDANT.to_string())
            } else {
                vacuous_shape(prog, st, r)
            };
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {r}♦"),
                m,
                start,
                eq,
            );
        }
        for r in p.cyclic.keys() {
            let m = Change::RemoveCyclic(n, *r);
            let eq = realized(st, *r)
                .then(|| VACUOUS_REALIZED.to_string())
                .or_else(|| vacuous_cycle(prog, st, *r));
            push(
                &mut out,
                Operator::DropPredicate,
                format!("node {n}: drop {r}⟲"),
                m,
                start,
                eq,
            );
        }
        for mr in &p.must_reach {
            let m = Change::RemoveMustReach(n, mr.clone());
            let eq = Some(
                "weakening: →! is a requirement the check verifies; dropping it cannot reject a trace".to_string(),
            );
            push(
                &mut out,
                Operator::DropPredicate,
                format!(
                    "node {n}: drop {}→!{}{}",
                    mr.from,
                    jtg_engine::state::fmt_fields(&mr.fields),
                    mr.to
                ),
                m,
                start,
                eq,
            );
        }
    }
    // labels
    for (k, e) in g.edges.iter().enumerate() {
        for (j, l) in e.labels.iter().enumerate() {
            let (src, dst) = (&g.nodes[e.from].state, &g.nodes[e.to].state);
            for (r, eq) in labels::replacements(l, src, dst, e.kind) {
                push(
                    &mut out,
                    Operator::ReplaceLabel,
                    format!("edge {} → {}: `{l}` replaced by `{r}`", e.from, e.to),
                    Change::SetLabel(k, j, r),
                    false,
                    eq,
                );
            }
            // the labels the check has always evaluated; dropping a call or refinement label
            // would change what the edge is, not only what it requires
            if !matches!(
                l,
                Label::Arith { .. } | Label::Rel { .. } | Label::Type { .. }
            ) {
                continue;
            }
            if let Some(f) = labels::flip(l) {
                push(
                    &mut out,
                    Operator::FlipLabel,
                    format!("edge {} → {}: `{l}` becomes `{f}`", e.from, e.to),
                    Change::SetLabel(k, j, f.clone()),
                    false,
                    None,
                );
            }
            let m = Change::RemoveLabel(k, j);
            push(
                &mut out,
                Operator::DropLabel,
                format!("edge {} → {}: drop `{l}`", e.from, e.to),
                m,
                false,
                Some("weakening: labels only restrict the traces a path admits".into()),
            );
        }
    }
    // swap-refinement
    for (desc, change) in labels::swaps(g) {
        push(
            &mut out,
            Operator::SwapRefinement,
            desc,
            change,
            false,
            None,
        );
    }
    // retarget-instance
    for (k, e) in g.edges.iter().enumerate() {
        if e.kind != EdgeKind::Instance {
            continue;
        }
        let pos = position(&g.nodes[e.to].state);
        for t in 0..g.nodes.len() {
            if t == e.to || t == e.from || position(&g.nodes[t].state) != pos {
                continue;
            }
            let m = Change::Retarget(k, t);
            let is =
                |s: &State| jtg_engine::instance_of::instance_holds(s, &g.nodes[t].state, prog);
            let eq = is(&g.nodes[e.from].state).then(|| {
                format!(
                    "instance-preserving: node {} ⊑ node {t} by the engine's ⊑",
                    e.from
                )
            });
            push(
                &mut out,
                Operator::RetargetInstance,
                format!("instance edge {} → {} retargeted to {t}", e.from, e.to),
                m,
                false,
                eq,
            );
        }
    }
    out
}

const DISJOINT: &str = "disjoint types";
const VACUOUS_REALIZED: &str = "vacuous-realized: the reference is realized with every field listed, so it has no hidden region for the permission to apply to";
const REDUNDANT: &str =
    "redundant: r♦ and r %$ r grant the same permission (j), and the other one stays";

/// `Some(reason)` when no object can be at both `a` and `b` by their types (module docs,
/// **disjoint types**): two classes, neither an interface nor a subclass of the other (a class
/// has one superclass chain, so nothing is below both), or an array and a class other than
/// `Object` that is no interface.
fn disjoint_types(prog: &Program, st: &State, a: Ref, b: Ref) -> Option<String> {
    let h = &prog.hierarchy;
    let ta = st.value(a)?.type_name()?;
    let tb = st.value(b)?.type_name()?;
    let class = |t: &str| !t.starts_with('[') && matches!(h.is_interface(t), Ok(false));
    let disjoint = match (ta.starts_with('['), tb.starts_with('[')) {
        (true, true) => false,
        (true, false) => class(tb) && tb != OBJECT,
        (false, true) => class(ta) && ta != OBJECT,
        (false, false) => {
            class(ta)
                && class(tb)
                && matches!(h.is_subtype(ta, tb), Ok(false))
                && matches!(h.is_subtype(tb, ta), Ok(false))
        }
    };
    disjoint.then(|| format!("{DISJOINT}: {a} is a {ta} and {b} a {tb}, and no object is both"))
}

/// `Some(reason)` when `a %$ b` is implied by the rest of the state (see the module docs,
/// **acyclic join**): `b` is a realized object listing every field of its class, the state
/// shows a path of realized fields from `b` to `a`, and `a` is `C(?)`/`C(…)` without `⟲`.
fn cyclic_join(prog: &Program, st: &State, a: Ref, b: Ref) -> Option<String> {
    if a == b
        || !matches!(
            st.value(a)?,
            HeapValue::Unknown { .. } | HeapValue::Abstract { .. }
        )
    {
        return None;
    }
    if st.preds.cyclic(a).is_some() {
        return None;
    }
    let HeapValue::Object { class, fields } = st.value(b)? else {
        return None;
    };
    let all = prog.instance_fields(class).ok()?;
    if all.len() != fields.len() || all.iter().any(|(f, ..)| !fields.contains_key(f)) {
        return None;
    }
    // the explicit fields below `b`, through realized objects only
    let mut todo: Vec<Ref> = fields.values().copied().collect();
    let mut seen = BTreeSet::new();
    while let Some(x) = todo.pop() {
        if x == a {
            return Some(format!(
                "acyclic join: {b} lists every field and reaches {a} through them, and {a} has no ⟲: {b}'s object in {a}'s hidden region would close a cycle there"
            ));
        }
        if !seen.insert(x) {
            continue;
        }
        match st.value(x) {
            Some(HeapValue::Object { fields, .. }) => todo.extend(fields.values().copied()),
            Some(HeapValue::Array {
                elems: Some(es), ..
            }) => todo.extend(es.iter().copied()),
            _ => {}
        }
    }
    None
}

/// Whether `r` is a realized object or an array with known elements (no hidden region).
fn realized(st: &State, r: Ref) -> bool {
    matches!(
        st.value(r),
        Some(HeapValue::Object { .. } | HeapValue::Array { elems: Some(_), .. })
    )
}

fn position(s: &State) -> Vec<(String, u32)> {
    s.frames
        .iter()
        .map(|f| (f.method.to_string(), f.pc))
        .collect()
}

/// The narrowings of a non-literal interval: (which end, result).
fn narrow(iv: &Interval) -> Vec<(&'static str, Interval)> {
    let mut v = Vec::new();
    let lo = match iv.lo {
        Some(a) => Interval::new(Some(a + 1), iv.hi),
        None => Interval::new(Some(iv.hi.map_or(0, |b| b.min(0))), iv.hi),
    };
    let hi = match iv.hi {
        Some(b) => Interval::new(iv.lo, Some(b - 1)),
        None => Interval::new(iv.lo, Some(iv.lo.map_or(0, |a| a.max(0)))),
    };
    if let Some(x) = lo.filter(|x| x != iv) {
        v.push(("low", x));
    }
    if let Some(x) = hi.filter(|x| x != iv) {
        v.push(("high", x));
    }
    v
}

/// A counter's interval `[a, ∞)` (`a ≥ 0`, or `[a, b]` with `b` past the bound) narrowed to
/// `[a, a + SMALL_SIZE + 1]`: just above what the small cases of the generator's size schedule
/// reach (`jtg_check::gen::size_bound`), so only the larger cases can kill it.
fn narrow_counter(iv: &Interval) -> Option<Interval> {
    let lo = iv.lo.filter(|a| *a >= 0)?;
    let hi = lo + jtg_check::gen::SMALL_SIZE as i128 + 1;
    if iv.hi.is_some_and(|b| b <= hi) {
        return None;
    }
    Interval::new(Some(lo), Some(hi))
}

/// `Some(reason)` when every class reachable from `r`'s type has at most one reference field
/// (see the module docs: DAG sharing is then impossible).
fn vacuous_shape(prog: &Program, st: &State, r: Ref) -> Option<String> {
    let seen = reference_fields_at_most(prog, st, r, 1)?;
    Some(format!(
        "vacuous-shape: every class reachable from {r} ({}) has at most one reference field, so no two paths meet without one being a prefix of the other",
        seen.join(", ")
    ))
}

/// `Some(reason)` when neither `a` nor `b` can have a hidden region: each is realized with
/// every field listed, or no class its object can be has a reference field (a JDK
/// `PrintStream`, modelled and recorded without fields; a `String`). The check's condition (h)
/// compares `H(a)` and `H(b)`, the objects reachable through fields the state does not show,
/// and both are empty: dropping `a %$ b` (e.g. `System.out` and a string) leaves it nothing
/// to reject.
fn vacuous_join(prog: &Program, st: &State, a: Ref, b: Ref) -> Option<String> {
    let why = |r: Ref| {
        if realized(st, r) {
            Some(format!("{r} is realized with every field listed"))
        } else {
            reference_fields_at_most(prog, st, r, 0).map(|seen| {
                format!(
                    "no class {r} can be ({}) has a reference field",
                    seen.join(", ")
                )
            })
        }
    };
    let (wa, wb) = (why(a)?, why(b)?);
    Some(format!(
        "vacuous-shape: {wa} and {wb}, so neither has a hidden region for {a} %$ {b} to apply to"
    ))
}

/// `Some(reason)` when no class `r`'s object can have has a reference field (e.g. a JDK
/// `PrintStream`, which the engine models and the tracer records without fields): its region
/// is the object alone, and a cycle needs a field.
fn vacuous_cycle(prog: &Program, st: &State, r: Ref) -> Option<String> {
    let seen = reference_fields_at_most(prog, st, r, 0)?;
    Some(format!(
        "vacuous-shape: no class {r} can be ({}) has a reference field, so no cycle starts at it",
        seen.join(", ")
    ))
}

/// The classes reachable from `r`'s (class) type, when each has at most `max` reference
/// fields and no subclass on the class path.
fn reference_fields_at_most(prog: &Program, st: &State, r: Ref, max: usize) -> Option<Vec<String>> {
    let ty = st.value(r)?.type_name()?.to_string();
    if ty.starts_with('[') {
        return None;
    }
    let mut todo = vec![ty];
    let mut seen = BTreeSet::new();
    while let Some(c) = todo.pop() {
        if !seen.insert(c.clone()) {
            continue;
        }
        // every concrete subtype may appear; be conservative: only final-like leaf classes
        // with no loaded subclasses are accepted, checked by the field count of `c` itself
        let fields = prog.instance_fields(&c).ok()?;
        let refs: Vec<String> = fields
            .iter()
            .filter(|(_, t, _)| t.is_reference())
            .map(|(_, t, _)| jtg_engine::state::types::type_string(t))
            .collect();
        if refs.len() > max || refs.iter().any(|t| t.starts_with('[')) {
            return None;
        }
        if !subclasses_known_absent(prog, &c) {
            return None;
        }
        todo.extend(refs);
    }
    Some(seen.into_iter().collect())
}

/// Whether `class` has no subclass on the class path that could add reference fields. The
/// check is conservative: only classes of the analysed class path whose subclasses are all
/// enumerable are accepted.
fn subclasses_known_absent(prog: &Program, class: &str) -> bool {
    match prog.hierarchy.non_abstract_subtypes(class) {
        Ok(subs) => subs.iter().all(|s| s == class),
        Err(_) => false,
    }
}
