//! Call abstraction for recursion (spec §6.5, in a simpler, sound form).
//!
//! A call of a method that is already on the call stack is not inlined. Instead:
//!
//! * **Entry**: the callee gets a *method graph* of its own. For recursion its entry state is
//!   the call's own callee view ([`call_entry_state`]: one frame at pc 0 whose parameters are
//!   the arguments, with what the caller's state knows of the heap and statics they reach);
//!   the graph builder keeps one current entry node per callee and merges a call's view that
//!   is no instance of it into a new one (hulls, then widening, as at a loop head). A static
//!   loop on primitives starts from the most general entry state ([`entry_state`]): every
//!   parameter the most general value of its type (`this` an existing `C(…)`); every static
//!   field the program reads present with a most general value; every object reference may
//!   have any shape (`r%$r r♦ r⟲{}`), share with every other one (`%$`) and be every other
//!   one of a compatible type (`=?`). Either way the callee frame of every concrete call is
//!   an instance of the entry node its `call` edge (label `abstract call of M`) leads to;
//!   recursive calls inside the method graph lead to the callee's current entry, which makes
//!   the graph finite.
//! * **Return** ([`continuation`]): the call node also gets a `return` edge (label
//!   `return from M`) to the caller's state after the call. There the callee's effects are
//!   havocked: every object the callee can reach — the closure of its arguments and of the
//!   static fields under realized fields, `=?` and `%$` — loses its field values (realized
//!   objects become `C(…)`, concrete arrays abstract arrays of the same length); every static
//!   field the program reads gets a fresh most general value; the return value is fresh and
//!   most general; everything reached, the fresh values, and everything that may reach what
//!   was reached may have any shape and share with each other where their types allow it
//!   ([`Program::may_share`]: a tree shares nothing with a string array), and the fresh values
//!   may be any reached object of a compatible type. Must-reach facts through reached objects are
//!   dropped. References the callee cannot reach keep their values (the JVM gives it no
//!   other access), and integer values are immutable. Unless [`CalleeFacts`] says otherwise:
//!   a *pure* callee changes nothing (only the result is fresh, related to what it can
//!   reach), an *acyclic* result has no `⟲`, a *tree* result no `♦`, and a callee that links
//!   no cycle in and *keeps trees* leaves the trees it reaches without `♦`. The builder checks
//!   these assumptions on the graph (as it grows and when it is finished) and builds it again
//!   without those that fail (`graph/summaries.rs`).
//! * **Exceptions**: when the method graph of the callee (the nodes reachable from its entry
//!   node without entering other abstractions) has exceptional program ends, the call node
//!   gets one more `return` edge per exception class (label `C thrown by M`) whose state has
//!   the havocked heap and the exception (an existing `C(…)`, related like a fresh value) being
//!   handled in the caller: at a handler, or as an exceptional program end. The graph builder
//!   adds these once the callee's graph is known (a fixpoint).
//!
//! How a concrete trace follows this: the callee's instructions, from its first one to the
//! return (or exception) that leaves its frame, match a path of the method graph from the
//! entry node, comparing only the frames from the callee's frame upwards (the callee frame
//! becomes the bottom frame) and the heap reachable from them plus the static fields; that
//! path ends in a program end of the method graph (`end: return` / `end: throw`). The trace
//! then continues in the caller at the target of the call node's matching `return` edge.

use super::{exception, Ctx, Exec, Flow};
use crate::class::FieldType;
use crate::edge::{EdgeKind, Label};
use crate::error::EngineError;
use crate::program::Program;
use crate::refine::{instance::may_alias, Succ};
use crate::state::types::{most_general, Shapes};
use crate::state::{FieldSet, Frame, HeapValue, IntSemantics, MethodId, Ref, State, StaticField};
use std::collections::{BTreeMap, BTreeSet};

/// What the continuation of an abstracted call assumes of its callee, named by what it does
/// not assume: a callee not listed is *pure* (no step of its method graph, nor of the graphs it
/// calls, writes a field, a static field or an array element, or runs a library model) and
/// returns an *acyclic* object (at every `end: return r` of its method graph, nothing `r`
/// reaches or may be has `⟲` or lies on a realized cycle) that is a *tree* (nothing below it
/// may be reached twice: [`may_be_non_tree`]). The graph builder starts by
/// assuming all of them of every callee, checks them on the graph and builds it again
/// without those that fail (`graph/summaries.rs`): sound by induction on the length of a
/// call's run, since a graph is a correct over-approximation of the runs of a callee whose
/// nested calls are shorter runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct CalleeFacts {
    /// Callees that may write (their continuations havoc what they can reach).
    pub impure: BTreeSet<MethodId>,
    /// Callees that may return a cyclic object, with the fields every cycle below their
    /// results uses (`State::cycle_fields_below` at every return): the result gets `⟲F`.
    pub cyclic_result: BTreeMap<MethodId, FieldSet>,
    /// Callees that may return an object below which the structure is not a tree (two paths
    /// from it may meet: [`may_be_non_tree`]). A callee not listed returns a tree: its result
    /// gets no `♦` (nor the self-join that goes with it), so `result.add(build(n − 1))` keeps
    /// the tree a recursive builder grows a tree.
    pub shared_result: BTreeSet<MethodId>,
    /// Callees that may write into an object `p` a reference that may reach `p` (a new cycle)
    /// or a cycle (a cyclic structure linked in), or run a library model that writes. A
    /// callee not listed leaves every object that reached no cycle before the call reaching
    /// none after it (by induction over its writes: a path to a cycle that is new after
    /// `p.f = v` runs through `p → v`, so `v` reached `p` or a cycle before), so its
    /// continuation marks `⟲` only what may have reached a cycle before.
    pub cycle_linking: BTreeSet<MethodId>,
    /// Callees that may write into a field or an array element an object that is no isolated
    /// tree ([`is_isolated_tree`]), or run a library model that writes. A callee listed in
    /// neither this nor [`Self::cycle_linking`] leaves every object whose structure was a tree
    /// before the call a tree after it, so its continuation gives such an object no `♦`: the
    /// writes of `insert` that hang a new leaf into a tree keep it a tree. By induction over
    /// the writes: after `x.f = v`, a path that meets another one below an object `a` either
    /// met it before, or one of them enters the objects below `v` through the new edge; no
    /// other reference leads into them and they form a tree, so the other path enters through
    /// `x.f` too, and the two meet above `x` (they met before) or make a cycle (which
    /// `cycle_linking` rules out).
    pub tree_breaking: BTreeSet<MethodId>,
}

/// An abstracted call: what the graph builder needs to connect the call node.
#[derive(Debug)]
pub(crate) struct CallAbstraction {
    /// The most general entry state of the callee (the start of its method graph).
    pub entry: State,
    /// The caller's state after a normal return.
    pub cont: Succ,
    pub site: CallSite,
}

/// What identifies an abstracted call at a call node (for its exceptional continuations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CallSite {
    pub callee: MethodId,
    /// Operand stack slots the call pops (arguments and receiver).
    pub n_pop: usize,
    /// The declared return type (`None` for `void`).
    pub ret: Option<FieldType>,
}

/// The label of the `call` edge from a call node to the callee's entry node.
pub(crate) fn call_label(callee: &MethodId) -> Label {
    Label::AbstractCall {
        callee: callee.clone(),
    }
}

/// How the entry state of an abstracted call is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    /// The call's own callee frame ([`call_entry_state`]): recursion, whose method graph is
    /// generalized call by call like a loop head, so that it keeps what every call site
    /// knows (acyclic arguments, the sizes the ITS needs across the call).
    CallSite,
    /// The most general entry ([`entry_state`]): a static loop on primitives, built once.
    MostGeneral,
}

pub(super) fn abstract_call(
    ex: &mut Exec<'_>,
    callee: MethodId,
    n_pop: usize,
    ret: Option<FieldType>,
    kind: EntryKind,
) -> Result<Flow, EngineError> {
    let site = CallSite { callee, n_pop, ret };
    let entry = match kind {
        EntryKind::CallSite => call_entry_state(&ex.st, &site.callee, ex.cx.prog),
        EntryKind::MostGeneral => entry_state(ex.cx, &site.callee),
    }
    .map_err(|e| ex.unsupported(e))?;
    let cont = continuation(&ex.st, &site, None, ex.cx)?;
    Ok(Flow::Abstract(Box::new(CallAbstraction {
        entry,
        cont,
        site,
    })))
}

/// The most general entry state of `m` (see the module documentation).
pub(crate) fn entry_state(cx: &Ctx<'_>, m: &MethodId) -> Result<State, String> {
    let method = cx.prog.method(m).map_err(|e| e.to_string())?;
    let code = method
        .code
        .as_ref()
        .ok_or_else(|| format!("{m} has no code"))?;
    let mut st = State::default();
    let mut frame = Frame::new(m.clone(), code.max_locals as usize);
    let mut objs = Vec::new();
    let mut slot = 0usize;
    if !method.is_static {
        let this = st.new_obj(HeapValue::Abstract {
            ty: m.class.to_string(),
        });
        frame.locals[slot] = Some(this);
        objs.push(this);
        slot += 1;
    }
    for p in &method.desc.params {
        let r = most_general(&mut st, p, cx.sem)?;
        if slot >= frame.locals.len() {
            return Err(format!("{m}: parameters exceed max_locals"));
        }
        frame.locals[slot] = Some(r);
        if r.is_obj() {
            objs.push(r);
        }
        slot += p.slots() as usize;
    }
    for (key, t) in cx.prog.read_statics() {
        if !cx.world.may_read_static(key) {
            continue;
        }
        let r = most_general(&mut st, t, cx.sem)
            .map_err(|w| format!("static field {}.{}: {w}", key.0, key.1))?;
        st.statics.insert(key.clone(), r);
        if r.is_obj() {
            objs.push(r);
        }
    }
    for (i, &a) in objs.iter().enumerate() {
        any_shape(&mut st, a, cx.prog);
        for &b in &objs[i + 1..] {
            if may_share(&st, a, b, cx.prog) {
                st.preds.add_join(a, b);
            }
            if compatible(&st, a, b, cx.prog) {
                st.preds.add_may_equal(a, b);
            }
        }
    }
    st.frames.push(frame);
    cx.prog.forget_dead_locals(&mut st);
    st.gc();
    Ok(st)
}

/// The callee's view of the abstracted call at the top frame of `st` (at the invoke): one
/// frame of `site.callee` at pc 0 whose parameters are the call's arguments, with the heap,
/// predicates and statics of `st` (what the callee can reach of them: the rest is collected).
/// The callee frame of every concrete call this state stands for is an instance of it, as the
/// JVM gives the callee no other access than its arguments and the statics. Reference names
/// are those of `st`, so a witness of `view ⊑ entry` relates the caller's references to the
/// entry's (`prove/src/from_graph`).
pub fn call_entry_state(st: &State, callee: &MethodId, prog: &Program) -> Result<State, String> {
    let m = callee;
    let method = prog.method(m).map_err(|e| e.to_string())?;
    let code = method
        .code
        .as_ref()
        .ok_or_else(|| format!("{m} has no code"))?;
    let args = call_args(st, callee, prog)?;
    let widths = std::iter::repeat_n(1, usize::from(!method.is_static))
        .chain(method.desc.params.iter().map(|p| p.slots() as usize));
    let mut frame = Frame::new(m.clone(), code.max_locals as usize);
    let mut slot = 0usize;
    for (&a, w) in args.iter().zip(widths) {
        *frame
            .locals
            .get_mut(slot)
            .ok_or_else(|| format!("{m}: arguments exceed max_locals"))? = Some(a);
        slot += w;
    }
    let mut view = st.clone();
    view.split = None;
    view.end = None;
    view.frames = vec![frame];
    prog.forget_dead_locals(&mut view);
    view.gc();
    Ok(view)
}

/// The arguments (receiver first) of the call of `callee` at the top frame of `st`: the top
/// of its operand stack.
fn call_args<'s>(st: &'s State, callee: &MethodId, prog: &Program) -> Result<&'s [Ref], String> {
    let method = prog.method(callee).map_err(|e| e.to_string())?;
    let caller = st.top().ok_or("an abstracted call without a frame")?;
    let n_pop = method.desc.params.len() + usize::from(!method.is_static);
    let at = caller
        .stack
        .len()
        .checked_sub(n_pop)
        .ok_or("operand stack underflow at an abstracted call")?;
    Ok(&caller.stack[at..])
}

/// The frame of the abstracted call of `callee` at the top frame of `st` (at the invoke):
/// the references of `st` whose reachable objects the callee may change — those that may
/// reach (realized fields, `=?`, `%$`) an object its arguments or the static fields of `st`
/// may reach. Every other reference reaches the same objects with the same fields after the
/// call: the callee accesses only objects reachable from its arguments, the statics and what
/// it allocates, and a static `st` never read holds nothing the caller holds
/// ([`crate::state::types::fill_static`]). The continuation keeps them ([`continuation`]),
/// and so may termination's `return` rule keep their sizes.
pub fn call_frame(st: &State, callee: &MethodId, prog: &Program) -> Result<BTreeSet<Ref>, String> {
    let args = call_args(st, callee, prog)?;
    Ok(may_reach_any(st, &reach_of(st, args), prog))
}

/// `st` knowing also the static fields `other` knows: a static `st` never accessed gets its
/// first-access value ([`Program::fill_static`]), which is what `st` says about it. Dropping it from
/// `other` instead would be unsound: its value may be an object the program also holds
/// elsewhere.
pub fn with_statics_of(
    st: &State,
    other: &State,
    prog: &Program,
    sem: IntSemantics,
) -> Result<State, String> {
    let mut out = st.clone();
    for key in other.statics.keys() {
        if out.statics.contains_key(key) {
            continue;
        }
        let t = prog
            .static_type(key)
            .ok_or_else(|| format!("no type known for static {}.{}", key.0, key.1))?;
        prog.fill_static(&mut out, key.clone(), t, sem)
            .map_err(|w| format!("static field {}.{}: {w}", key.0, key.1))?;
    }
    Ok(out)
}

/// The caller's state after the abstracted call at the top frame of `st` (which is at the
/// invoke instruction): a normal return (`thrown = None`, the return value pushed) or an
/// exception of class `thrown` leaving the callee.
pub(crate) fn continuation(
    st: &State,
    site: &CallSite,
    thrown: Option<&str>,
    cx: &Ctx<'_>,
) -> Result<Succ, EngineError> {
    let mut s = st.clone();
    s.split = None;
    let frame = s
        .top_mut()
        .ok_or_else(|| EngineError::Internal("abstracted call without a frame".into()))?;
    let (method, pc) = (frame.method.clone(), frame.pc);
    let invalid = |what: &str| EngineError::Invalid {
        method: method.clone(),
        pc,
        what: what.to_string(),
    };
    let unsupported = |what: String| EngineError::Unsupported {
        method: method.clone(),
        pc,
        what,
    };
    let at = frame
        .stack
        .len()
        .checked_sub(site.n_pop)
        .ok_or_else(|| invalid("operand stack underflow"))?;
    let args = frame.stack.split_off(at);
    let mut fresh = Vec::new();
    let pure = !cx.facts.impure.contains(&site.callee);
    let links_cycles = cx.facts.cycle_linking.contains(&site.callee);
    let keeps_trees = !links_cycles && !cx.facts.tree_breaking.contains(&site.callee);
    let reached = if pure {
        // nothing changes; the result may be what the callee can reach, read statics included
        fill_read_statics(&mut s, cx).map_err(unsupported)?;
        let reached = reach_of(&s, &args);
        Havocked {
            reached,
            above: BTreeSet::new(),
            cyclic: BTreeSet::new(),
            trees: BTreeSet::new(),
        }
    } else {
        havoc(&mut s, &args, &mut fresh, keeps_trees, cx).map_err(unsupported)?
    };
    let cycle_fields = cx.facts.cyclic_result.get(&site.callee);
    let tree = !cx.facts.shared_result.contains(&site.callee);
    let mut result = None;
    let label;
    let mut exc = None;
    match thrown {
        None => {
            if let Some(t) = &site.ret {
                let r = most_general(&mut s, t, cx.sem).map_err(unsupported)?;
                if r.is_obj() {
                    fresh.push(r);
                    result = Some(r);
                }
                if let Some(f) = s.top_mut() {
                    f.stack.push(r);
                }
            }
            let next = cx
                .prog
                .method(&method)?
                .code
                .as_ref()
                .and_then(|c| c.next_pc(pc))
                .ok_or_else(|| invalid("call without a next instruction"))?;
            if let Some(f) = s.top_mut() {
                f.pc = next;
            }
            label = Label::Returned {
                callee: site.callee.clone(),
            };
        }
        Some(class) => {
            let e = s.new_obj(HeapValue::Abstract {
                ty: class.to_string(),
            });
            fresh.push(e);
            exc = Some(e);
            label = Label::Thrown {
                class: class.to_string(),
                callee: site.callee.clone(),
            };
        }
    }
    // a result the callee allocated, holding only what it allocated, into which nothing
    // older was written ([`crate::class::OwnWrites::returns_isolated`]) shares nothing with
    // the caller's heap
    let isolated = result.filter(|_| {
        cx.prog
            .own_writes(&site.callee)
            .is_some_and(|w| w.returns_isolated())
    });
    relate(&mut s, &reached, &fresh, isolated, links_cycles, cx.prog);
    if let Some(r) = result {
        match cycle_fields {
            None => {
                s.preds.cyclic.remove(&r);
            }
            // every cycle below the result at the callee's returns runs through these, and
            // nothing changes between the return and here
            Some(f) => {
                if let Some(any) = s.preds.cyclic.get_mut(&r) {
                    *any = f.clone();
                }
            }
        }
    }
    if let (Some(r), true) = (result, tree) {
        s.preds.non_tree.remove(&r);
        s.preds.joins.remove(&(r, r));
    }
    if let Some(e) = exc {
        // the handler search of the caller frames decides on the exception's class, which
        // is exactly `class` for every concrete exception this path stands for
        let mut ex = Exec {
            st: s.clone(),
            before: s,
            cx,
            method: method.clone(),
            pc,
            labels: vec![],
            kind: EdgeKind::Return,
            mnemonic: "invoke",
        };
        match exception::handle(&mut ex, e)? {
            Flow::Done => {}
            _ => {
                return Err(EngineError::Internal(
                    "exception handling did not finish".into(),
                ))
            }
        }
        s = ex.st;
    }
    cx.prog.forget_dead_locals(&mut s);
    s.gc();
    Ok(Succ::labelled(s, vec![label]))
}

/// Every object `args` and the static fields reach (realized fields, `=?`, `%$`).
fn reach_of(s: &State, args: &[Ref]) -> BTreeSet<Ref> {
    let mut reached = BTreeSet::new();
    for r in args.iter().copied().chain(s.statics.values().copied()) {
        if r.is_obj() {
            reached.extend(super::field::may_reach_from(s, r));
        }
    }
    reached
}

/// Gives every static field the program reads and `s` does not know its first-access value
/// ([`Program::fill_static`]: what `s` says of it), so that a callee's result read from one is related
/// to it.
fn fill_read_statics(s: &mut State, cx: &Ctx<'_>) -> Result<(), String> {
    for (key, t) in cx.prog.read_statics() {
        if !s.statics.contains_key(key) && cx.world.may_read_static(key) {
            cx.prog
                .fill_static(s, key.clone(), t, cx.sem)
                .map_err(|w| format!("static field {}.{}: {w}", key.0, key.1))?;
        }
    }
    Ok(())
}

/// What a call may have changed ([`havoc`]).
struct Havocked {
    /// The objects the callee can reach.
    reached: BTreeSet<Ref>,
    /// Those plus every object that may reach one of them.
    above: BTreeSet<Ref>,
    /// The objects of `above` that may have reached a cycle before the call.
    cyclic: BTreeSet<Ref>,
    /// The objects of `above` whose structure was a tree before the call and stays one (the
    /// callee keeps trees: [`CalleeFacts::tree_breaking`]); empty where it may not.
    trees: BTreeSet<Ref>,
}

/// Forgets what the callee may have changed: the objects reachable from `args` and the
/// static fields lose their contents, the read statics get fresh values (added to `fresh`).
fn havoc(
    s: &mut State,
    args: &[Ref],
    fresh: &mut Vec<Ref>,
    keeps_trees: bool,
    cx: &Ctx<'_>,
) -> Result<Havocked, String> {
    let reached = reach_of(s, args);
    let above = may_reach_any(s, &reached, cx.prog);
    let cyclic = above
        .iter()
        .copied()
        .filter(|&r| s.may_reach_cycle(r))
        .collect();
    // every path from an object the callee reaches stays among the objects it reaches or
    // makes, where its writes are isolated; an object above them may also reach what they
    // are entered at from outside
    let trees = match keeps_trees {
        true => {
            let outside_too = entered_only_at_args(s, args, &reached, cx);
            above
                .iter()
                .copied()
                .filter(|r| outside_too || reached.contains(r))
                .filter(|&r| !may_be_non_tree(s, r))
                .collect()
        }
        false => BTreeSet::new(),
    };
    for h in &reached {
        let v = match s.heap.get(h) {
            Some(HeapValue::Object { class, .. }) => HeapValue::Abstract { ty: class.clone() },
            Some(HeapValue::Array { ty, len, exact, .. }) => {
                HeapValue::array(ty.clone(), *len, None, *exact)
            }
            _ => continue,
        };
        s.heap.insert(*h, v);
    }
    s.preds
        .must_reach
        .retain(|m| !above.contains(&m.from) && !above.contains(&m.to));
    // every static field may have been written
    let mut keys: BTreeMap<StaticField, FieldType> = cx
        .prog
        .read_statics()
        .iter()
        .filter(|(k, _)| cx.world.may_read_static(k))
        .cloned()
        .collect();
    for key in s.statics.keys() {
        if !keys.contains_key(key) {
            let t = cx
                .prog
                .hierarchy
                .resolve_field(&key.0, &key.1)
                .ok()
                .flatten()
                .map(|f| f.field.desc)
                .ok_or_else(|| format!("static field {}.{} not found", key.0, key.1))?;
            keys.insert(key.clone(), t);
        }
    }
    for (key, t) in keys {
        let r = most_general(s, &t, cx.sem)
            .map_err(|w| format!("static field {}.{}: {w}", key.0, key.1))?;
        if r.is_obj() {
            fresh.push(r);
        }
        s.statics.insert(key, r);
    }
    Ok(Havocked {
        reached,
        above,
        cyclic,
        trees,
    })
}

/// Whether the objects the callee can reach (`reached`) are entered from the rest of the
/// heap only at arguments that no other root of the callee could hold: then the callee's
/// writes of objects isolated in its own view (`CalleeFacts::tree_breaking`) are isolated in
/// the caller's heap too. An object the callee reaches that an object it cannot reach
/// references (a realized field, or a `%$`/`=?` partner whose type may share with it) is
/// entered from outside; written below an object that another root of the callee reaches,
/// it would be reached twice from above. Below its own root it would close a cycle, which
/// `cycle_linking` rules out; the other roots are the other arguments and every static field
/// (`reach_of`), judged by their types ([`Program::may_share`]).
fn entered_only_at_args(s: &State, args: &[Ref], reached: &BTreeSet<Ref>, cx: &Ctx<'_>) -> bool {
    let outside = |q: &Ref| q.is_obj() && !reached.contains(q);
    let entered: BTreeSet<Ref> = reached
        .iter()
        .copied()
        .filter(|&e| {
            let parent = s
                .heap
                .iter()
                .any(|(k, v)| outside(k) && v.children().any(|c| c == e));
            let partner = s
                .preds
                .may_equal_partners(e)
                .into_iter()
                .chain(s.preds.join_partners(e))
                .any(|q| outside(&q) && may_share(s, e, q, cx.prog));
            parent || partner
        })
        .collect();
    let static_types: Vec<String> = cx
        .prog
        .read_statics()
        .iter()
        .filter(|(k, t)| t.is_reference() && cx.world.may_read_static(k))
        .map(|(_, t)| match t {
            FieldType::Object(c) => c.to_string(),
            t => t.to_string(),
        })
        .collect();
    entered.iter().all(|&e| {
        let Some(ty) = s.value(e).and_then(HeapValue::type_name) else {
            return false;
        };
        let other_arg = args
            .iter()
            .any(|&a| a.is_obj() && a != e && may_share(s, a, e, cx.prog));
        let other_static = s
            .statics
            .values()
            .any(|&r| r.is_obj() && r != e && may_share(s, r, e, cx.prog))
            || static_types.iter().any(|t| cx.prog.may_share(t, ty));
        args.contains(&e) && !other_arg && !other_static
    })
}

/// The predicates after a havoc: see the module documentation. Unless the callee
/// `links_cycles` ([`CalleeFacts::cycle_linking`]), what reached no cycle before the call
/// reaches none after it.
fn relate(
    s: &mut State,
    h: &Havocked,
    fresh: &[Ref],
    isolated: Option<Ref>,
    links_cycles: bool,
    prog: &Program,
) {
    let Havocked {
        reached,
        above,
        cyclic,
        trees,
    } = h;
    let all: Vec<Ref> = reached.iter().chain(fresh).copied().collect();
    for &p in above.iter().chain(fresh) {
        if links_cycles || cyclic.contains(&p) || fresh.contains(&p) {
            any_shape(s, p, prog);
        } else if !trees.contains(&p) {
            s.preds.add_join(p, p);
            s.preds.add_non_tree(p);
        }
    }
    // the isolated result and any other object: every other one existed before the call (a
    // static's fresh value too, since the callee stored no reference into a static)
    let apart = |p: Ref, q: Ref| isolated.is_some_and(|r| p == r || q == r);
    for &p in above.iter().chain(fresh) {
        for &q in &all {
            // what `p` reaches by realized fields it kept (the callee cannot reach it) shares
            // with it without a join
            if p != q && !apart(p, q) && may_share(s, p, q, prog) && !s.join_is_vacuous(p, q) {
                s.preds.add_join(p, q);
            }
        }
    }
    for (i, &n) in fresh.iter().enumerate() {
        for &q in reached.iter().chain(&fresh[i + 1..]) {
            if q != n && !apart(n, q) && compatible(s, n, q, prog) {
                s.preds.add_may_equal(n, q);
            }
        }
    }
}

/// `r%$r r♦ r⟲{}`: the object below `r` may have any shape its type's fields allow
/// (`Program::field_shapes`: a `String[]` reaches no cycle, whatever a callee did).
fn any_shape(s: &mut State, r: Ref, prog: &Program) {
    let shapes = type_shapes(s, r, prog);
    if shapes.sharing || shapes.cycles {
        s.preds.add_join(r, r);
        s.preds.add_non_tree(r);
    }
    if shapes.cycles {
        s.preds.add_cyclic(r, FieldSet::new());
    }
}

/// The shapes the objects `r` reaches can take by the field types of `r`'s type (every shape
/// where the type is unknown).
fn type_shapes(s: &State, r: Ref, prog: &Program) -> Shapes {
    let ty = match s.value(r).and_then(HeapValue::type_name) {
        Some(t) if t.starts_with('[') => FieldType::parse(t).ok(),
        Some(t) => Some(FieldType::Object(t.into())),
        None => None,
    };
    ty.map_or(Shapes::ANY, |t| prog.field_shapes(&t))
}

/// Whether the objects of `a` and `b` may share an object by their types
/// ([`Program::may_share`]).
fn may_share(s: &State, a: Ref, b: Ref, prog: &Program) -> bool {
    match (
        s.value(a).and_then(HeapValue::type_name),
        s.value(b).and_then(HeapValue::type_name),
    ) {
        (Some(ta), Some(tb)) => prog.may_share(ta, tb),
        _ => true,
    }
}

fn compatible(s: &State, a: Ref, b: Ref, prog: &Program) -> bool {
    match (
        s.value(a).and_then(HeapValue::type_name),
        s.value(b).and_then(HeapValue::type_name),
    ) {
        (Some(ta), Some(tb)) => may_alias(prog, ta, tb),
        _ => false,
    }
}

/// `targets` and every object reference that may reach one of them: realized predecessors
/// and `=?`/`%$` partners (those whose types allow sharing), transitively.
fn may_reach_any(st: &State, targets: &BTreeSet<Ref>, prog: &Program) -> BTreeSet<Ref> {
    let mut preds: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
    for (k, v) in &st.heap {
        for c in v.children() {
            preds.entry(c).or_default().push(*k);
        }
    }
    let mut seen = BTreeSet::new();
    let mut todo: Vec<Ref> = targets.iter().copied().collect();
    while let Some(r) = todo.pop() {
        if !r.is_obj() || !seen.insert(r) {
            continue;
        }
        if let Some(p) = preds.get(&r) {
            todo.extend(p.iter().copied());
        }
        todo.extend(st.preds.may_equal_partners(r));
        todo.extend(
            st.preds
                .join_partners(r)
                .into_iter()
                .filter(|&q| may_share(st, r, q, prog)),
        );
    }
    seen
}

/// Whether the structure below `r` may not be a tree: an object `r` reaches by realized fields
/// is reached twice (by two paths, or around a cycle), or is `♦`, joins itself or may be
/// cyclic (`⟲`), or two of them may be equal (`=?`) or share (`%$`). Joins and `=?` with
/// objects outside the structure leave it a tree (a tree may share with others).
pub(crate) fn may_be_non_tree(st: &State, r: Ref) -> bool {
    tree_below(st, r).is_none()
}

/// The objects `r` reaches through realized fields where the structure below `r` is a tree
/// (see [`may_be_non_tree`]), `None` where it may not be.
fn tree_below(st: &State, r: Ref) -> Option<BTreeSet<Ref>> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![r];
    while let Some(x) = todo.pop() {
        if !x.is_obj() {
            continue;
        }
        if !seen.insert(x) {
            return None;
        }
        let p = &st.preds;
        if p.is_non_tree(x) || p.joins(x, x) || p.cyclic(x).is_some() {
            return None;
        }
        if let Some(v @ (HeapValue::Object { .. } | HeapValue::Array { .. })) = st.value(x) {
            todo.extend(v.children());
        }
    }
    let inside = |&(a, b): &(Ref, Ref)| a != b && seen.contains(&a) && seen.contains(&b);
    match st.preds.may_equal.iter().chain(&st.preds.joins).any(inside) {
        true => None,
        false => Some(seen),
    }
}

/// Whether the object of `r` is an *isolated tree*: the structure below it is a tree
/// ([`may_be_non_tree`]), no object outside it has a field or element that references one
/// inside it, and no reference inside it may be (`=?`) or share with (`%$`) one outside it.
/// Writing such an object into a field makes nothing reachable twice ([`CalleeFacts::tree_breaking`]).
/// Static fields and local variables may hold it: they are no paths between objects.
pub(crate) fn is_isolated_tree(st: &State, r: Ref) -> bool {
    let Some(inside) = tree_below(st, r) else {
        return false;
    };
    let referenced = st
        .heap
        .iter()
        .filter(|(k, _)| !inside.contains(k))
        .any(|(_, v)| v.children().any(|c| inside.contains(&c)));
    let across = |&(a, b): &(Ref, Ref)| inside.contains(&a) != inside.contains(&b);
    let related = st.preds.may_equal.iter().chain(&st.preds.joins).any(across);
    !referenced && !related
}
