//! The witness input of a NO: a generated instance of the start state given the values of the
//! certificate. An array whose length the start values change is cut or extended
//! ([`resize_arrays`]). The values a NO's path from the start gives its temporaries are written
//! where the graph shows what they are: the length of a string or an array, or an integer,
//! that the input holds below one of the start state's references. A guess that the JVM run
//! then confirms or refutes like any input (nothing here is trusted). Without it, a recurrent
//! set that only one length of `args[1]` enters (`{i = −5}` of TPDB `Velroyen08-ex03`, whose
//! `main` reads `args[1].length()`) waits for a random input to draw that length.
//!
//! The temporary of a rule is a quantity of a node on the chain of graph nodes the rule
//! composes (`RuleOrigin::temps`). Walking the chain from the start node, the references of
//! the start state are followed through the refinements that give them new names (`o1 = o3`:
//! the object of `o1` is now `o3`) and into the elements an `aaload` with a literal index reads
//! from an array whose elements the state does not show; at the temporary's node, the
//! quantity's reference is looked for below one of them through realized fields and array
//! elements, and the same steps are taken in the input from the concrete object the start
//! reference stands for.

use crate::from_graph::{Encoding, Quantity};
use jtg_engine::class::Insn;
use jtg_engine::edge::{EdgeKind, Label};
use jtg_engine::models::{STRING, STRING_ARRAY};
use jtg_engine::state::{FieldKey, HeapValue, Interval, Ref, State};
use jtg_engine::{Graph, Program};
use jtg_prove::{BigInt, RuleId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Longest array a witness input extends an array to.
const MAX_WITNESS_ARRAY: usize = 4096;

/// One step below an object.
#[derive(Clone, Debug)]
enum Step {
    Field(FieldKey),
    Elem(usize),
}

/// Where the prefix's temporaries lie in an input of the start state: per temporary, the start
/// reference, the steps below it, its quantity and its value. Independent of the input, so
/// found once per confirmation.
pub(crate) struct TempPlaces(Vec<(Ref, Vec<Step>, Quantity, i128)>);

/// The places of the temporaries of the rules `prefix` with the values `temps`, where the graph
/// shows them.
pub(crate) fn temp_places(
    graph: &Graph,
    prog: &Program,
    enc: &Encoding,
    prefix: &[RuleId],
    temps: &[Vec<BigInt>],
) -> TempPlaces {
    let mut out = Vec::new();
    for (rule, vals) in prefix.iter().zip(temps) {
        let Some(origin) = enc.origins.get(rule.index()) else {
            continue;
        };
        let known = known_along(graph, prog, &origin.nodes);
        for ((pos, q), v) in origin.temps.iter().zip(vals) {
            let (Some(&node), Some(now)) = (origin.nodes.get(*pos), known.get(*pos)) else {
                continue;
            };
            let Ok(v) = i128::try_from(v) else { continue };
            if let Some((root, path)) = path_to(&graph.nodes[node].state, now, q.reference()) {
                out.push((root, path, *q, v));
            }
        }
    }
    TempPlaces(out)
}

impl TempPlaces {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Writes the temporaries into `input`, whose start references map to the input's by
    /// `to_input`; the number written.
    pub(crate) fn write(&self, input: &mut State, to_input: &BTreeMap<Ref, Ref>) -> usize {
        let mut written = 0;
        for (root, path, q, v) in &self.0 {
            let Some(&start_root) = to_input.get(root) else {
                continue;
            };
            let done = match follow(input, start_root, path) {
                Some(Ref::Null) => new_string(input, start_root, path, *q, *v),
                Some(target) => write(input, *q, target, *v),
                None => false,
            };
            written += usize::from(done);
        }
        written
    }
}

/// Where a reference of a node stands in the input: a start reference (by its start name) and
/// the steps below it.
type Known = BTreeMap<Ref, (Ref, Vec<Step>)>;

/// Per node of `chain` (which starts at the start node), the references whose place in the
/// input is known there: the start references, under the names the refinements give them
/// (`o1 = o3`), and the elements an `aaload` with a literal index reads from a known array
/// whose elements the state does not show (`args[1]`).
fn known_along(graph: &Graph, prog: &Program, chain: &[usize]) -> Vec<Known> {
    let Some(&first) = chain.first() else {
        return Vec::new();
    };
    let mut now: Known = graph.nodes[first]
        .state
        .heap
        .keys()
        .filter(|r| r.is_obj())
        .map(|r| (*r, (*r, Vec::new())))
        .collect();
    let mut out = vec![now.clone()];
    for w in chain.windows(2) {
        let (before, after) = (&graph.nodes[w[0]].state, &graph.nodes[w[1]].state);
        for e in graph
            .edges
            .iter()
            .filter(|e| e.from == w[0] && e.to == w[1])
        {
            for l in &e.labels {
                if let Label::RefEq {
                    r, p, equal: true, ..
                } = l
                {
                    if let Some(k) = now.remove(r) {
                        now.insert(*p, k);
                    }
                }
            }
            if e.kind == EdgeKind::Eval {
                if let Some((elem, place)) = element_read(before, after, prog, &now) {
                    now.insert(elem, place);
                }
            }
        }
        now.retain(|name, _| after.heap.contains_key(name));
        out.push(now.clone());
    }
    out
}

/// The element an `aaload` step from `before` to `after` pushes, with its place in the input,
/// where the array's place is known and the index is a literal.
fn element_read(
    before: &State,
    after: &State,
    prog: &Program,
    known: &Known,
) -> Option<(Ref, (Ref, Vec<Step>))> {
    if !matches!(prog.next_insn(before)?, Insn::ArrayLoad(_)) {
        return None;
    }
    let [.., arr, idx] = before.top()?.stack.as_slice() else {
        return None;
    };
    let k = match before.value(*idx)? {
        HeapValue::Int(i) => usize::try_from(i.as_literal()?).ok()?,
        _ => return None,
    };
    let elem = *after.top()?.stack.last()?;
    if !elem.is_obj() || before.heap.contains_key(&elem) {
        return None;
    }
    let (root, path) = known.get(arr)?;
    let mut path = path.clone();
    path.push(Step::Elem(k));
    Some((elem, (*root, path)))
}

/// A start reference (by its start name) and the steps from its object, at this node, to
/// `target` (an object, or an integer a field or an element holds): breadth first from the
/// known references in order.
fn path_to(st: &State, known: &Known, target: Ref) -> Option<(Ref, Vec<Step>)> {
    let mut seen = BTreeSet::new();
    let mut todo: VecDeque<(Ref, Ref, Vec<Step>)> = known
        .iter()
        .map(|(now, (root, path))| (*root, *now, path.clone()))
        .collect();
    while let Some((root, r, path)) = todo.pop_front() {
        if r == target {
            return Some((root, path));
        }
        if !r.is_obj() || !seen.insert(r) {
            continue;
        }
        let children: Vec<(Step, Ref)> = match st.value(r) {
            Some(HeapValue::Object { fields, .. }) => fields
                .iter()
                .map(|(k, c)| (Step::Field(k.clone()), *c))
                .collect(),
            Some(HeapValue::Array { elems: Some(e), .. }) => e
                .iter()
                .enumerate()
                .map(|(k, c)| (Step::Elem(k), *c))
                .collect(),
            _ => Vec::new(),
        };
        for (step, c) in children {
            let mut p = path.clone();
            p.push(step);
            todo.push_back((root, c, p));
        }
    }
    None
}

/// The reference `path` leads to from `from` in the input, where the input realizes it.
fn follow(input: &State, from: Ref, path: &[Step]) -> Option<Ref> {
    let mut cur = from;
    for step in path {
        cur = match (input.value(cur)?, step) {
            (HeapValue::Object { fields, .. }, Step::Field(k)) => *fields.get(k)?,
            (HeapValue::Array { elems: Some(e), .. }, Step::Elem(k)) => *e.get(*k)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Puts a string of length `v` where `path` ends at a null element of a `String[]`: the
/// length of `args[1]` where the input's `args[1]` is null; whether it did.
fn new_string(input: &mut State, from: Ref, path: &[Step], q: Quantity, v: i128) -> bool {
    let (Quantity::Len(_), Some((Step::Elem(k), above))) = (q, path.split_last()) else {
        return false;
    };
    let Some(arr) = follow(input, from, above) else {
        return false;
    };
    if v < 0 || !matches!(input.value(arr), Some(HeapValue::Array { ty, .. }) if ty == STRING_ARRAY)
    {
        return false;
    }
    let count = input.new_int(Interval::literal(v));
    let string = input.new_obj(HeapValue::Object {
        class: STRING.to_string(),
        fields: [(FieldKey::plain("count"), count)].into(),
    });
    match input.heap.get_mut(&arr) {
        Some(HeapValue::Array { elems: Some(e), .. }) if *k < e.len() => {
            e[*k] = string;
            true
        }
        _ => false,
    }
}

/// Sets quantity `q` of the input's `target` to `v`: an integer's value, a string's or an
/// array's length; whether it was set.
fn write(input: &mut State, q: Quantity, target: Ref, v: i128) -> bool {
    let int = match (q, input.value(target)) {
        (Quantity::Int(_), Some(HeapValue::Int(_) | HeapValue::Long(_))) => target,
        (Quantity::Len(_), Some(HeapValue::Object { fields, .. })) if v >= 0 => {
            match fields.get("count") {
                Some(c) => *c,
                None => return false,
            }
        }
        (Quantity::Len(_), Some(HeapValue::Array { len, .. })) if v >= 0 => {
            let len = *len;
            resize_arrays(input, len, v);
            len
        }
        _ => return false,
    };
    match input.heap.get_mut(&int) {
        Some(HeapValue::Int(i) | HeapValue::Long(i)) => {
            *i = Interval::literal(v);
            true
        }
        _ => false,
    }
}

/// Keeps the concrete arrays whose length reference is `len` as long as its new value `n`:
/// cut, or extended — arrays of references with `null` (sharing no object, so no aliasing the
/// start state may forbid), arrays of integers by repeating their elements. An extension the
/// start state does not allow fails the instance check that follows.
pub(crate) fn resize_arrays(st: &mut State, len: jtg_engine::state::Ref, n: i128) {
    let Ok(n) = usize::try_from(n) else { return };
    let n = n.min(MAX_WITNESS_ARRAY);
    for v in st.heap.values_mut() {
        if let HeapValue::Array {
            ty,
            len: l,
            elems: Some(elems),
            ..
        } = v
        {
            if *l != len || elems.len() == n {
                continue;
            }
            let elem = ty.strip_prefix('[').unwrap_or(ty);
            let of_refs = elem.starts_with('L') || elem.starts_with('[');
            if elems.len() > n {
                elems.truncate(n);
            } else if of_refs {
                elems.resize(n, jtg_engine::state::Ref::Null);
            } else if !elems.is_empty() {
                let k = elems.len();
                for i in k..n {
                    let e = elems[i % k];
                    elems.push(e);
                }
            }
        }
    }
}
