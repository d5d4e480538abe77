//! What one graph edge says about the quantities of its two ends (docs/proving.md, *From
//! graphs to ITS*): equalities that carry values over, updates from assignment labels, guards
//! from relation labels. Each edge is read between two [`Slots`] of one rule under
//! construction.

use super::division::{division_by_unknown, floor_shift, truncating_division, Division, Divisor};
use super::effects::CallEffects;
use super::element_reads::aaload_array;
use super::lcmp::{comparison, Comparison};
use super::product::{product_bounds, Factor};
use super::quantity::{cut_fields, dist_fields, may_reach, quantities, Quantity, Slots};
use super::ranged::{RangedUpdate, Sides};
use super::summary::return_constraints;
use jtg_engine::class::{Cond, FieldType, Insn};
use jtg_engine::graph::{
    call_entry_state, call_frame, with_statics_of, Edge, EdgeKind, Label, Operand,
};
use jtg_engine::instance_of::is_instance;
use jtg_engine::models::invocation_may_write;
use jtg_engine::state::{
    FieldKey, FieldSet, HeapValue, IntOp, IntSemantics, Interval, Ref, State, JAVA_MAX, JAVA_MIN,
};
use jtg_engine::Program;
use jtg_prove::BigInt;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr};
use std::collections::{BTreeMap, BTreeSet};

/// What a rule's edges leave for its complete guard to decide.
#[derive(Default)]
pub(super) struct Deferred {
    /// Divisions whose bounds need a sign the states do not give.
    pub divisions: Vec<Division>,
    /// Updates that may wrap by the source's intervals (`--ints java`).
    pub ranged: Vec<RangedUpdate>,
    /// `lcmp`s of two unknowns: the rule is split by their three cases (`lcmp.rs`).
    pub comparisons: Vec<Comparison>,
}

/// The constraints of edge `e` from `src` to `dst`; what needs the whole guard goes to
/// `deferred`.
#[allow(clippy::too_many_arguments)]
pub(super) fn edge_constraints(
    prog: &Program,
    sem: IntSemantics,
    effects: &CallEffects<'_>,
    e: &Edge,
    src: &Slots<'_>,
    dst: &Slots<'_>,
    out: &mut Vec<Constraint>,
    deferred: &mut Deferred,
) {
    let abstract_call = e
        .labels
        .iter()
        .any(|l| matches!(l, Label::AbstractCall { .. }));
    let abstract_return = e
        .labels
        .iter()
        .any(|l| matches!(l, Label::Returned { .. } | Label::Thrown { .. }));
    match e.kind {
        EdgeKind::Eval | EdgeKind::Call | EdgeKind::Return if abstract_call => {
            call_entry(prog, sem, src, dst, out);
        }
        EdgeKind::Eval | EdgeKind::Call | EdgeKind::Return => {
            // names are stable along an executed step: integers never change; sizes change
            // where the step writes a reference into the heap (or a callee may have)
            let havoc = if abstract_return {
                if effects.call_may_write(e.from) {
                    call_frame_written(prog, e, src.state)
                } else {
                    Written::NONE
                }
            } else if e.kind == EdgeKind::Call {
                // an inlined call only pushes the callee's frame (a library model's
                // invocation is an evaluation step)
                Written::NONE
            } else {
                written(prog, src.state)
            };
            carry_by_name(src, dst, &havoc, out);
            if e.kind == EdgeKind::Eval && !abstract_return {
                element_read(prog, src, dst, out);
            }
            for l in &e.labels {
                step_label(sem, l, src, dst, out, deferred);
            }
            let returned = e.labels.iter().any(|l| matches!(l, Label::Returned { .. }));
            if let (true, Some(callee)) = (returned, effects.summary_of(e.from)) {
                return_constraints(prog, sem, &callee, src, dst, out);
            }
            if e.kind == EdgeKind::Eval {
                deferred.comparisons.extend(comparison(prog, src, dst));
            }
        }
        EdgeKind::Refine | EdgeKind::Split => {
            // nothing executes: the target is an instance of the source (spec §5.1); the
            // witness of `dst ⊑ src` says which reference of the target each one became
            match is_instance(dst.state, src.state, prog) {
                Ok(w) => {
                    for (g, sp) in &w.map {
                        equate_ref(src, *g, dst, *sp, out);
                    }
                    // a distance of the source, read in the target where its ends went
                    equate_distances(src, dst, &w.map, out);
                }
                Err(_) => carry_by_name(src, dst, &Written::NONE, out),
            }
            for l in &e.labels {
                either_label(l, src, dst, out);
            }
        }
        EdgeKind::Instance => {
            // `src ⊑ dst`: the witness maps the general state's references to the special one's
            if let Ok(w) = is_instance(src.state, dst.state, prog) {
                for (g, sp) in &w.map {
                    equate_ref(src, *sp, dst, *g, out);
                }
                // a distance of the general state, read in the special one (spec §4.2 (n):
                // the special state's facts compose to the general one's)
                equate_distances(dst, src, &w.map, out);
            }
        }
    }
}

/// Each distance `dist(a, b)` of `general` equals the distance in `special` between the
/// references the instance witness `map` sends `a` and `b` to (`null` stays `null`), where
/// `special` has one along the same fields.
fn equate_distances(
    general: &Slots<'_>,
    special: &Slots<'_>,
    map: &BTreeMap<Ref, Ref>,
    out: &mut Vec<Constraint>,
) {
    let to = |r: Ref| {
        if r.is_null() {
            Some(r)
        } else {
            map.get(&r).copied()
        }
    };
    for q in quantities(general.state) {
        let Quantity::Dist(a, b) = q else {
            continue;
        };
        if let (Some(x), Some(fields), Some(a2), Some(b2)) = (
            general.of(q),
            dist_fields(general.state, a, b),
            to(a),
            to(b),
        ) {
            if let Some(y) = special.dist(a2, b2, fields) {
                out.push(Constraint::eq(&x, &y));
            }
        }
    }
}

/// Which sizes an executed step may change.
enum Havoc {
    None,
    All,
    /// Those of references that may reach one of these.
    Reaching(BTreeSet<Ref>),
}

impl Havoc {
    fn keeps(&self, r: Ref) -> bool {
        match self {
            Havoc::None => true,
            Havoc::All => false,
            Havoc::Reaching(set) => !set.contains(&r),
        }
    }
}

/// What an executed step may write: the sizes it may change, and the fields it may write a
/// reference into (a distance along F changes only by a write into an F-field).
struct Written {
    sizes: Havoc,
    /// `None`: any field; else the written fields' names (`[]` for array elements).
    fields: Option<Vec<String>>,
    /// The old value of the one field a `putfield` writes, where the state shows it: the F-path
    /// from it (the written field in F, one per class) never runs through the written object
    /// before its end — it would come back to that cell around a cycle and never end — so
    /// each of its distances survives the write.
    after: Option<Ref>,
}

impl Written {
    const NONE: Written = Written {
        sizes: Havoc::None,
        fields: Some(Vec::new()),
        after: None,
    };
    const ALL: Written = Written {
        sizes: Havoc::All,
        fields: None,
        after: None,
    };
    /// Whether a distance from `from` along `fields` survives the step: no field of it is
    /// written (shadowed keys are compared by name, which may only keep fewer), or `from`
    /// reaches no written object, so the path from it is unchanged.
    fn keeps_dist(&self, from: Ref, fields: &FieldSet) -> bool {
        let by_field = match &self.fields {
            None => false,
            Some(names) => !fields.iter().any(|k| names.iter().any(|n| n == k.name())),
        };
        by_field
            || self.after == Some(from)
            || (!matches!(self.sizes, Havoc::All) && self.sizes.keeps(from))
    }
}

/// What the return edge `e` of an abstracted call, from the call node's state `src`, may have
/// written: the frame rule — only objects the callee can reach from its arguments and the
/// statics (`graph::call_frame`), so a reference that may reach none of them keeps its size
/// (the engine's continuation keeps its objects). Anything when the callee is not known.
fn call_frame_written(prog: &Program, e: &Edge, src: &State) -> Written {
    let callee = e.labels.iter().find_map(|l| match l {
        Label::Returned { callee } | Label::Thrown { callee, .. } => Some(callee),
        _ => None,
    });
    match callee.map(|c| call_frame(src, c, prog)) {
        Some(Ok(frame)) => Written {
            sizes: Havoc::Reaching(frame),
            fields: None,
            after: None,
        },
        _ => Written::ALL,
    }
}

/// What the instruction at the top frame of `s` writes: a reference field (`putfield`), an
/// object array element (`aastore`), or — a library model of an invocation — anything.
fn written(prog: &Program, s: &State) -> Written {
    let Some(f) = s.top() else {
        return Written::NONE;
    };
    if f.exception.is_some() {
        return Written::NONE;
    }
    let insn = prog.next_insn(s);
    let target = |depth: usize, field: String| -> Written {
        match f.stack.len().checked_sub(depth + 1).map(|k| f.stack[k]) {
            Some(r) => Written {
                sizes: Havoc::Reaching(may_reach(s, r)),
                after: (depth == 1)
                    .then(|| old_field_value(s, r, &field))
                    .flatten(),
                fields: Some(vec![field]),
            },
            None => Written::ALL,
        }
    };
    match insn {
        Some(Insn::PutField(fr)) => match fr.desc {
            FieldType::Object(_) | FieldType::Array(_) => target(1, fr.name.clone()),
            _ => Written::NONE,
        },
        Some(Insn::ArrayStore(_)) => {
            // the stored value is a reference exactly when the array holds objects
            let arr = f.stack.len().checked_sub(3).map(|k| f.stack[k]);
            match arr.and_then(|a| s.value(a)) {
                Some(HeapValue::Array { ty, .. })
                    if ty.starts_with("[L") || ty.starts_with("[[") =>
                {
                    target(2, FieldKey::array_elements().name().to_string())
                }
                Some(HeapValue::Array { .. }) => Written::NONE,
                _ => Written::ALL,
            }
        }
        Some(Insn::Invoke { method, .. })
            if !invocation_may_write(&method.class, &method.name, &method.desc_str) =>
        {
            Written::NONE
        }
        Some(Insn::Invoke { .. }) | Some(Insn::InvokeDynamic { .. }) | None => Written::ALL,
        Some(_) => Written::NONE,
    }
}

/// The object the field named `name` of the realized object `r` holds in `s` (none where the
/// name is shadowed: two fields of that name).
fn old_field_value(s: &State, r: Ref, name: &str) -> Option<Ref> {
    let Some(HeapValue::Object { fields, .. }) = s.value(r) else {
        return None;
    };
    let mut named = fields.iter().filter(|(k, _)| k.name() == name);
    match (named.next(), named.next()) {
        (Some((_, v)), None) if v.is_obj() => Some(*v),
        _ => None,
    }
}

/// Every quantity of `dst` whose reference `src` has too, of the same kind, equals it there
/// (unless `havoc` says the step may have changed that size or distance). A distance of `dst`
/// is read in `src` as [`Slots::dist`] does (the step changed no F-field).
fn carry_by_name(src: &Slots<'_>, dst: &Slots<'_>, havoc: &Written, out: &mut Vec<Constraint>) {
    for q in quantities(dst.state) {
        let r = q.reference();
        let (a, b) = match q {
            Quantity::Int(_) => (src.int(r), dst.int(r)),
            Quantity::Size(_)
                if havoc.sizes.keeps(r)
                    && src.state.value(r).is_some_and(|v| !v.is_primitive()) =>
            {
                (src.size(r), dst.size(r))
            }
            Quantity::SizeAvoiding(_, g)
                if havoc.sizes.keeps(r)
                    && src.state.value(r).is_some_and(|v| !v.is_primitive()) =>
            {
                (src.size_avoiding(r, g), dst.size_avoiding(r, g))
            }
            // the elements' lengths never change: only a store of an element into the array
            // (or one that may be it) changes the greatest
            Quantity::ElemLen(_)
                if havoc.sizes.keeps(r)
                    && src.state.value(r).is_some_and(|v| !v.is_primitive()) =>
            {
                (src.elem_len(r), dst.elem_len(r))
            }
            Quantity::Size(_) | Quantity::SizeAvoiding(..) | Quantity::ElemLen(_) => continue,
            // a length never changes (JLS §10.3; strings are immutable), whatever the step
            Quantity::Len(_) => (src.len(r), dst.len(r)),
            Quantity::Dist(from, to) => {
                let Some(fields) = dist_fields(dst.state, from, to) else {
                    continue;
                };
                if !havoc.keeps_dist(from, fields)
                    || !known(src.state, from)
                    || !known(src.state, to)
                {
                    continue;
                }
                (src.dist(from, to, fields), dst.of(q))
            }
        };
        if let (Some(a), Some(b)) = (a, b) {
            out.push(Constraint::eq(&a, &b));
        }
    }
}

/// An `aaload` that pushed its element: the element is no longer than the greatest element
/// of its array (`len(e) ≤ maxlen(a[*])`; `0` for a null element).
fn element_read(prog: &Program, src: &Slots<'_>, dst: &Slots<'_>, out: &mut Vec<Constraint>) {
    let Some(a) = aaload_array(prog, src.state) else {
        return;
    };
    let (Some(f), Some(g)) = (src.state.top(), dst.state.top()) else {
        return;
    };
    if g.exception.is_some() || g.stack.len() + 1 != f.stack.len() {
        return;
    }
    let Some(&e) = g.stack.last() else {
        return;
    };
    if let (Some(l), Some(m)) = (dst.len(e), src.elem_len(a)) {
        out.push(Constraint::le(&l, &m));
    }
}

/// Whether `r` denotes a value in `s` (null always does; a name absent from `s` is a new one).
fn known(s: &State, r: Ref) -> bool {
    r.is_null() || s.value(r).is_some()
}

/// `src`'s reference `a` and `dst`'s reference `b` are one value.
fn equate_ref(src: &Slots<'_>, a: Ref, dst: &Slots<'_>, b: Ref, out: &mut Vec<Constraint>) {
    let ints = src.state.integral(a).is_some() || dst.state.integral(b).is_some();
    let (x, y) = if ints {
        (src.int(a), dst.int(b))
    } else if a.is_int() || b.is_int() {
        (None, None)
    } else {
        (src.size(a), dst.size(b))
    };
    if let (Some(x), Some(y)) = (x, y) {
        out.push(Constraint::eq(&x, &y));
    }
    if !(ints || a.is_int() || b.is_int()) {
        for g in cut_fields(dst.state) {
            if let (Some(x), Some(y)) = (src.size_avoiding(a, g), dst.size_avoiding(b, g)) {
                out.push(Constraint::eq(&x, &y));
            }
        }
    }
    // one array or string: one length (absent where a side has no length quantity for it)
    let both_null = a.is_null() && b.is_null();
    if !(ints || a.is_int() || b.is_int() || both_null) {
        if let (Some(x), Some(y)) = (src.len(a), dst.len(b)) {
            out.push(Constraint::eq(&x, &y));
        }
        if let (Some(x), Some(y)) = (src.elem_len(a), dst.elem_len(b)) {
            out.push(Constraint::eq(&x, &y));
        }
    }
}

/// The call edge of an abstracted call: the callee's view of the call (its frame with the
/// caller's arguments, the caller's heap and statics, reference names kept) is an instance of
/// the entry state; the witness says which caller reference each entry reference is, so the
/// entry's values (integers, sizes) are the caller's — not only the parameters', also those of
/// the fields the entry state shows.
fn call_entry(
    prog: &Program,
    sem: IntSemantics,
    src: &Slots<'_>,
    dst: &Slots<'_>,
    out: &mut Vec<Constraint>,
) {
    let Some(callee) = dst.state.top() else {
        return;
    };
    let view = call_entry_state(src.state, &callee.method, prog)
        .and_then(|v| with_statics_of(&v, dst.state, prog, sem));
    let Ok(view) = view else { return };
    if let Ok(w) = is_instance(&view, dst.state, prog) {
        for (g, sp) in &w.map {
            equate_ref(src, *sp, dst, *g, out);
        }
    }
}

fn operand(s: &Slots<'_>, o: &Operand) -> Option<LinExpr> {
    match o {
        Operand::Lit(v) => Some(LinExpr::constant(Q::from(BigInt::from(*v)))),
        Operand::Ref(r) => s.int(*r),
    }
}

fn operand_interval(s: &State, o: &Operand) -> Option<Interval> {
    match o {
        Operand::Lit(v) => Some(Interval::literal(*v)),
        Operand::Ref(r) => s.integral(*r).copied(),
    }
}

/// A label of an executed step: `res = a op b` as an exact update where it is linear (and,
/// under Java ints, cannot wrap), `a ◦ b` as a guard.
fn step_label(
    sem: IntSemantics,
    l: &Label,
    src: &Slots<'_>,
    dst: &Slots<'_>,
    out: &mut Vec<Constraint>,
    deferred: &mut Deferred,
) {
    match l {
        Label::Arith { res, op, a, b } => {
            let Some(r) = dst.int(*res) else { return };
            let Some(x) = operand(src, a) else { return };
            let y = b.as_ref().and_then(|b| operand(src, b));
            let lit = |o: &Option<Operand>| match o {
                Some(Operand::Lit(v)) => Some(*v),
                _ => None,
            };
            let value = match op {
                IntOp::Add => y.map(|y| x.plus(&y)),
                IntOp::Sub => y.map(|y| x.minus(&y)),
                IntOp::Neg => Some(LinExpr::zero().minus(&x)),
                IntOp::Mul => match (lit(&Some(*a)), lit(b)) {
                    (_, Some(k)) => Some(x.scaled(&Q::from(BigInt::from(k)))),
                    (Some(k), _) => y.map(|y| y.scaled(&Q::from(BigInt::from(k)))),
                    _ => {
                        let wraps = sem == IntSemantics::Java
                            && wrap_sides(src.state, dst.state, *res, *op, a, b.as_ref()).any();
                        if let (Some(b), Some(y), false) = (b, y, wraps) {
                            let factor = |o: &Operand, value: LinExpr| {
                                let i = operand_interval(src.state, o);
                                Factor {
                                    value,
                                    lo: i.and_then(|i| i.lo),
                                    hi: i.and_then(|i| i.hi),
                                }
                            };
                            let (fa, fb) = (factor(a, x.clone()), factor(b, y));
                            out.extend(product_bounds(&r, &fa, &fb, a == b));
                        }
                        None
                    }
                },
                IntOp::Shr | IntOp::Ushr => {
                    // never wraps: |x >> k| ≤ |x|, and x >>> k (k ≥ 1) lies in [0, 2^(w−k))
                    let Some(k) = lit(b).and_then(|k| u32::try_from(k).ok()) else {
                        return;
                    };
                    let (_, hi) = type_range(dst.state, *res);
                    let bits = if hi > JAVA_MAX { 64 } else { 32 };
                    let nonneg = operand_interval(src.state, a)
                        .is_some_and(|i| i.lo.is_some_and(|l| l >= 0));
                    if k >= bits {
                        return;
                    }
                    if *op == IntOp::Ushr && k == 0 {
                        out.push(Constraint::eq(&r, &x));
                    } else if *op == IntOp::Shr || nonneg {
                        floor_shift(&x, k, &r, out);
                    } else {
                        deferred.divisions.push(Division {
                            op: *op,
                            x: x.clone(),
                            divisor: Divisor::UnsignedShift { k, bits },
                            r: r.clone(),
                        });
                    }
                    None
                }
                IntOp::Div | IntOp::Rem => {
                    let wraps = sem == IntSemantics::Java
                        && wrap_sides(src.state, dst.state, *res, *op, a, b.as_ref()).any();
                    let sign = operand_interval(src.state, a).map(|i| (i.lo, i.hi));
                    let signed = sign.is_some_and(|(lo, hi)| {
                        lo.is_some_and(|l| l >= 0) || hi.is_some_and(|h| h <= 0)
                    });
                    let divisor = match (lit(b), &y) {
                        (Some(k), _) if k != 0 && k != -1 && !wraps => {
                            truncating_division(*op, &x, k, &r, sign, out);
                            Divisor::Literal(k)
                        }
                        (None, Some(y)) if !wraps => {
                            let interval = b
                                .as_ref()
                                .and_then(|b| operand_interval(src.state, b))
                                .map(|i| (i.lo, i.hi));
                            division_by_unknown(*op, &x, y, interval, &r, sign, out);
                            Divisor::Unknown {
                                y: y.clone(),
                                interval,
                            }
                        }
                        _ => return,
                    };
                    if !signed {
                        deferred.divisions.push(Division {
                            op: *op,
                            x: x.clone(),
                            divisor,
                            r: r.clone(),
                        });
                    }
                    None
                }
            };
            let Some(value) = value else { return };
            let sides = wrap_sides(src.state, dst.state, *res, *op, a, b.as_ref());
            if sem == IntSemantics::Java && sides.any() {
                // exact only if the rule's whole guard keeps it in range (`ranged.rs`)
                let (lo, hi) = type_range(dst.state, *res);
                let once = matches!(op, IntOp::Add | IntOp::Sub | IntOp::Neg);
                deferred
                    .ranged
                    .push(RangedUpdate::new(r, value, lo, hi, once).on_sides(sides));
                return;
            }
            out.push(Constraint::eq(&r, &value));
        }
        Label::Narrow { res, to, a } => {
            // the JVM's low bits under either integer model: exact where the rule's whole
            // guard keeps the operand in the type's range (`ranged.rs`), as a wrap is
            let (Some(r), Some(x)) = (dst.int(*res), src.int(*a)) else {
                return;
            };
            let (lo, hi) = to.range();
            let sides = match src.state.integral(*a) {
                Some(i) => Sides {
                    above: i.hi.is_none_or(|h| h > hi),
                    below: i.lo.is_none_or(|l| l < lo),
                },
                None => Sides::BOTH,
            };
            if sides.any() {
                deferred
                    .ranged
                    .push(RangedUpdate::new(r, x, lo, hi, false).on_sides(sides));
            } else {
                out.push(Constraint::eq(&r, &x));
            }
        }
        Label::Rel { a, cond, b } => {
            // a reference the source lacks is the step's result (a library call's contract)
            let side = |o: &Operand| operand(src, o).or_else(|| operand(dst, o));
            if let (Some(x), Some(y)) = (side(a), side(b)) {
                out.push(relation(&x, *cond, &y));
            }
        }
        _ => {}
    }
}

/// The range of `r`'s kind in `s`: a `long`'s 64 bits, else an `int`'s 32.
pub(super) fn type_range(s: &State, r: Ref) -> (i128, i128) {
    match s.value(r) {
        Some(HeapValue::Long(_)) => (i64::MIN as i128, i64::MAX as i128),
        _ => (JAVA_MIN, JAVA_MAX),
    }
}

/// On which sides the exact result of `a op b` may leave the range of the result's kind, by
/// the source's intervals (facts of every concrete state there); `.any()`: whether it may.
fn wrap_sides(
    src: &State,
    dst: &State,
    res: Ref,
    op: IntOp,
    a: &Operand,
    b: Option<&Operand>,
) -> Sides {
    let (lo, hi) = type_range(dst, res);
    let Some(x) = operand_interval(src, a) else {
        return Sides::BOTH;
    };
    let y = b.and_then(|b| operand_interval(src, b));
    if matches!(op, IntOp::Div | IntOp::Rem) {
        // JLS §15.17.2–3: the only overflow is MIN / −1 = MAX + 1 (MIN % −1 is 0, exact); an
        // interval without a bound is the type's whole range
        let Some(y) = y else { return Sides::BOTH };
        let minus_one = y.lo.is_none_or(|l| l <= -1) && y.hi.is_none_or(|h| h >= -1);
        let min = x.lo.is_none_or(|l| l <= lo);
        let above = op == IntOp::Div && minus_one && min;
        return Sides {
            above,
            below: false,
        };
    }
    let exact = match (op, y) {
        (IntOp::Neg, _) => Interval::exact(IntOp::Sub, &Interval::literal(0), &x),
        (_, Some(y)) => Interval::exact(op, &x, &y),
        _ => return Sides::BOTH,
    };
    Sides {
        above: exact.hi.is_none_or(|h| h > hi),
        below: exact.lo.is_none_or(|l| l < lo),
    }
}

/// A label of a step that executes nothing: relations between integers, read in whichever
/// end has each reference (the source first).
fn either_label(l: &Label, src: &Slots<'_>, dst: &Slots<'_>, out: &mut Vec<Constraint>) {
    if let Label::Rel { a, cond, b } = l {
        let side = |o: &Operand| operand(src, o).or_else(|| operand(dst, o));
        if let (Some(x), Some(y)) = (side(a), side(b)) {
            out.push(relation(&x, *cond, &y));
        }
    }
}

fn relation(x: &LinExpr, c: Cond, y: &LinExpr) -> Constraint {
    match c {
        Cond::Eq => Constraint::eq(x, y),
        Cond::Ne => Constraint::ne(x, y),
        Cond::Lt => Constraint::lt(x, y),
        Cond::Le => Constraint::le(x, y),
        Cond::Gt => Constraint::gt(x, y),
        Cond::Ge => Constraint::ge(x, y),
    }
}
