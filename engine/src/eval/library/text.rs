//! `String` queries and `Integer` parsing and boxing (`models::TextCall`, contracts in
//! `models/text.rs`). Calls with two outcomes the state cannot decide (`parseInt` returns or
//! throws, `charAt` of an index the intervals do not place) split the state first: the `T:`
//! successor returns, the `F:` successor throws (the split flag is consumed by the call).

use super::super::{exception, Exec, Flow};
use super::shared;
use crate::class::Cond;
use crate::edge::{EdgeKind, Label, Operand};
use crate::error::EngineError;
use crate::models::{self, exceptions, Boxed, TextCall};
use crate::refine::{integer, Succ};
use crate::state::{FieldKey, HeapValue, IntOp, Interval, Outcome, Ref};

pub(crate) fn eval(
    ex: &mut Exec<'_>,
    call: TextCall,
    n_args: usize,
    has_receiver: bool,
) -> Result<Flow, EngineError> {
    use TextCall::*;
    let pop_all = |ex: &mut Exec<'_>| -> Result<(), EngineError> {
        for _ in 0..n_args + usize::from(has_receiver) {
            ex.pop()?;
        }
        Ok(())
    };
    match call {
        Equals => {
            let (o, this) = (ex.peek(0)?, ex.peek(1)?);
            let v = if o.is_null() {
                Interval::literal(0)
            } else if o == this {
                Interval::literal(1)
            } else {
                bool_range()
            };
            pop_all(ex)?;
            push_int(ex, v)?;
        }
        BoolQuery { str_at } => {
            if let Some(flow) = null_check(ex, str_at)? {
                return Ok(flow);
            }
            pop_all(ex)?;
            push_int(ex, bool_range())?;
        }
        IndexOf {
            null_throws,
            str_at,
            last,
            from,
        } => {
            if null_throws {
                if let Some(flow) = null_check(ex, str_at)? {
                    return Ok(flow);
                }
            }
            return index_of(ex, n_args, !null_throws, last, from);
        }
        NewCopy => {
            let (s, this) = (ex.peek(0)?, ex.peek(1)?);
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            if let Some(flow) = ex.need_realized(s)? {
                return Ok(flow);
            }
            let count = string_count(ex, s)?;
            pop_all(ex)?;
            match ex.st.heap.get_mut(&this) {
                Some(HeapValue::Object { fields, .. }) => {
                    fields.insert(FieldKey::plain("count"), count);
                }
                _ => return Err(ex.invalid("new String(String) on a non-String")),
            }
        }
        CompareTo => {
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            pop_all(ex)?;
            push_int(ex, models::random_int())?;
        }
        AnyInt { null_throws } => {
            if null_throws {
                if let Some(flow) = null_check(ex, 0)? {
                    return Ok(flow);
                }
            }
            pop_all(ex)?;
            push_int(ex, models::random_int())?;
        }
        CompareToBridge { class: expected } => {
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            let o = ex.peek(0)?;
            if let Some(flow) = ex.need_realized(o)? {
                return Ok(flow);
            }
            if !matches!(ex.st.value(o), Some(HeapValue::Object { class, .. }) if class == expected)
            {
                return exception::throw_builtin(ex, exceptions::CLASS_CAST);
            }
            pop_all(ex)?;
            push_int(ex, models::random_int())?;
        }
        Unbox(boxed) => {
            pop_all(ex)?;
            let v = match boxed {
                Boxed::Integer => models::random_int(),
                Boxed::Character => char_range(),
            };
            push_int(ex, v)?;
        }
        CharAt | Substring { .. } => return bounded(ex, call, n_args),
        Repeat => return repeat(ex),
        Concat => {
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            pop_all(ex)?;
            let r = shared::string(ex, Interval::at_least(0));
            ex.push(r)?;
        }
        ReplaceSeq => {
            // `target.toString()` first, then `replacement.toString()`
            for k in [1, 0] {
                if let Some(flow) = null_check(ex, k)? {
                    return Ok(flow);
                }
                let a = ex.peek(k)?;
                let ty = ex.st.value(a).and_then(HeapValue::type_name);
                if ty != Some(models::STRING) {
                    return Err(ex.unsupported(format!(
                        "String.replace with a CharSequence of type {} (its toString() may be \
                         program code)",
                        ty.map_or("?".into(), crate::state::display_type)
                    )));
                }
            }
            pop_all(ex)?;
            let r = shared::string(ex, Interval::at_least(0));
            ex.push(r)?;
        }
        Split => {
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            let Some(ok) = outcome(ex) else {
                return Ok(split_outcomes(ex));
            };
            if !ok {
                return exception::throw_builtin(ex, models::PATTERN_SYNTAX);
            }
            pop_all(ex)?;
            let r = shared::string_array(ex);
            ex.push(r)?;
        }
        Intern => {
            let this = ex.peek(0)?;
            let len = match length_of(ex, this)? {
                Ok((_, len)) => len,
                Err(flow) => return Ok(flow),
            };
            // the receiver stays a candidate: it is still in the heap
            let r = shared::string(ex, len);
            ex.pop()?;
            ex.push(r)?;
        }
        OfPrimitive { min, max } => {
            pop_all(ex)?;
            let len = Interval::new(Some(min.into()), Some(max.into())).unwrap_or(Interval::TOP);
            let r = shared::string(ex, len);
            ex.push(r)?;
        }
        OfObject => {
            let o = ex.peek(0)?;
            if has_receiver {
                // `String.toString()`: "This object (which is already a string!) is itself
                // returned"; the receiver stays on the stack as the result
                return Ok(Flow::Next);
            }
            if let Some(flow) = ex.need_null_or_existing(o)? {
                return Ok(flow);
            }
            if !o.is_null() && ex.st.value(o).and_then(HeapValue::type_name) != Some(models::STRING)
            {
                let ty = ex.st.value(o).and_then(HeapValue::type_name).unwrap_or("?");
                return Err(ex.unsupported(format!(
                    "String.valueOf of an object of type {} (toString() not modelled)",
                    ty.replace('/', ".")
                )));
            }
            if o.is_null() {
                // "if the argument is null, then a string equal to "null""
                ex.pop()?;
                let r = shared::string(ex, Interval::literal(4));
                ex.push(r)?;
            }
        }
        ParseInt | ValueOfString => {
            let Some(ok) = outcome(ex) else {
                return Ok(split_outcomes(ex));
            };
            if !ok {
                return exception::throw_builtin(ex, models::NUMBER_FORMAT);
            }
            pop_all(ex)?;
            if call == ParseInt {
                push_int(ex, models::random_int())?;
            } else {
                let r = shared::possibly_shared(ex, models::INTEGER, None);
                ex.push(r)?;
            }
        }
        Box(boxed) => {
            pop_all(ex)?;
            let r = shared::possibly_shared(ex, boxed.class(), None);
            ex.push(r)?;
        }
        NewBox => pop_all(ex)?,
        IsEmpty | IsBlank | Trim | ToCharArray | ChangeCase | ReplaceChar => {
            return by_length(ex, call, n_args)
        }
        NewOfChars => {
            let (a, this) = (ex.peek(0)?, ex.peek(1)?);
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            if let Some(flow) = ex.need_realized(a)? {
                return Ok(flow);
            }
            let len = match ex.st.value(a) {
                Some(HeapValue::Array { len, .. }) => Some(*len),
                _ => None,
            }
            .ok_or_else(|| ex.invalid("new String(char[]) of a non-array"))?;
            pop_all(ex)?;
            match ex.st.heap.get_mut(&this) {
                // the string's length is the array's length itself
                Some(HeapValue::Object { fields, .. }) => {
                    fields.insert(FieldKey::plain("count"), len);
                }
                _ => return Err(ex.invalid("new String(char[]) on a non-String")),
            }
        }
        ValueOfChars => {
            let a = ex.peek(0)?;
            if let Some(flow) = null_check(ex, 0)? {
                return Ok(flow);
            }
            if let Some(flow) = ex.need_realized(a)? {
                return Ok(flow);
            }
            let len = match ex.st.value(a) {
                Some(HeapValue::Array { len, .. }) => ex.st.int(*len).copied(),
                _ => None,
            }
            .ok_or_else(|| ex.invalid("String.valueOf(char[]) of a non-array"))?;
            pop_all(ex)?;
            let r = shared::string(ex, len);
            ex.push(r)?;
        }
    }
    Ok(Flow::Next)
}

/// The calls whose result follows from the receiver's length (see `models::TextCall`).
fn by_length(ex: &mut Exec<'_>, call: TextCall, n_args: usize) -> Result<Flow, EngineError> {
    let this = ex.peek(n_args)?;
    let (count, len) = match length_of(ex, this)? {
        Ok(l) => l,
        Err(flow) => return Ok(flow),
    };
    let empty = len.decide(Cond::Eq, &Interval::literal(0));
    if call == TextCall::IsEmpty && empty.is_none() {
        // the length decides the result: refine it against 0 first
        let succs = integer::refine(&ex.before, count, &integer::partition(&len, Cond::Eq, 0));
        return Ok(Flow::Refine(EdgeKind::Refine, succs));
    }
    for _ in 0..=n_args {
        ex.pop()?;
    }
    let r = match call {
        TextCall::IsEmpty => ex
            .st
            .new_int(Interval::literal(i128::from(empty == Some(true)))),
        TextCall::IsBlank if empty == Some(true) => ex.st.new_int(Interval::literal(1)),
        TextCall::IsBlank => ex.st.new_int(bool_range()),
        TextCall::Trim => shared::string(
            ex,
            Interval {
                lo: Some(0),
                hi: len.hi,
            },
        ),
        TextCall::ChangeCase => {
            let v = match empty {
                Some(true) => Interval::literal(0),
                Some(false) => Interval::at_least(1),
                None => Interval::at_least(0),
            };
            shared::string(ex, v)
        }
        TextCall::ReplaceChar => shared::string(ex, len),
        TextCall::ToCharArray => {
            let elems = match len.as_literal() {
                Some(k) if k <= super::super::array::CONCRETE_MAX => Some(
                    (0..k)
                        .map(|_| ex.st.new_int(char_range()))
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            };
            // a new array whose length is the string's length itself
            ex.st
                .new_obj(HeapValue::array("[C".into(), count, elems, true))
        }
        _ => return Err(ex.invalid("String length model of another call")),
    };
    ex.push(r)?;
    Ok(Flow::Next)
}

pub(super) fn char_range() -> Interval {
    Interval::new(Some(0), Some(0xFFFF)).unwrap_or(Interval::TOP)
}

/// `charAt(i)`, `substring(b)`, `substring(b, e)`: the receiver's length decides the bounds
/// where the intervals do; elsewhere the state splits into returning and throwing.
fn bounded(ex: &mut Exec<'_>, call: TextCall, n_args: usize) -> Result<Flow, EngineError> {
    let this = ex.peek(n_args)?;
    if let Some(flow) = ex.need_realized(this)? {
        return Ok(flow);
    }
    let count = string_count(ex, this)?;
    let count = *ex
        .st
        .int(count)
        .ok_or_else(|| ex.invalid("String length of a non-integer"))?;
    let ints: Vec<Interval> = (0..n_args)
        .map(|k| ex.peek(n_args - 1 - k).map(|r| ex.st.int(r).copied()))
        .collect::<Result<Option<_>, _>>()?
        .ok_or_else(|| ex.invalid("String index of a non-integer"))?;
    let in_bounds = match (call, ints.as_slice()) {
        // 0 ≤ i < count
        (TextCall::CharAt, [i]) => both(
            i.decide(Cond::Ge, &Interval::literal(0)),
            i.decide(Cond::Lt, &count),
        ),
        // 0 ≤ b ≤ count
        (TextCall::Substring { two: false }, [b]) => both(
            b.decide(Cond::Ge, &Interval::literal(0)),
            b.decide(Cond::Le, &count),
        ),
        // 0 ≤ b ≤ e ≤ count
        (TextCall::Substring { two: true }, [b, e]) => both(
            both(
                b.decide(Cond::Ge, &Interval::literal(0)),
                b.decide(Cond::Le, e),
            ),
            e.decide(Cond::Le, &count),
        ),
        _ => return Err(ex.invalid("String index call with the wrong arguments")),
    };
    let Some(ok) = in_bounds.or_else(|| outcome(ex)) else {
        return Ok(split_outcomes(ex));
    };
    if !ok {
        return exception::throw_builtin(ex, models::STRING_INDEX);
    }
    if let Some(r) = exact_substring(ex, call, n_args, &count, &ints)? {
        ex.push(r)?;
        return Ok(Flow::Next);
    }
    for _ in 0..=n_args {
        ex.pop()?;
    }
    if call == TextCall::CharAt {
        push_int(
            ex,
            Interval::new(Some(0), Some(0xFFFF)).unwrap_or(Interval::TOP),
        )?;
    } else {
        let len = Interval {
            lo: Some(0),
            hi: count.hi,
        };
        let r = shared::string(ex, len);
        ex.push(r)?;
    }
    Ok(Flow::Next)
}

/// The result of an in-bounds `substring` where the intervals decide which of JDK 17's three
/// results it is (`String.substring(b, e)`: the receiver itself for the whole range, the
/// interned `""` for an empty one — `StringLatin1.newString` — else a new string of length
/// `e − b`), with its length exact: `res = count − b` (or `e − b`) as a label, so that
/// `while (!s.isEmpty()) s = s.substring(1);` shortens `s` by one each lap. Pops the
/// receiver and the arguments; `None` (nothing popped): not decided, the caller's coarse model.
fn exact_substring(
    ex: &mut Exec<'_>,
    call: TextCall,
    n_args: usize,
    count: &Interval,
    ints: &[Interval],
) -> Result<Option<Ref>, EngineError> {
    let (begin, end, end_iv) = match (call, ints) {
        (TextCall::Substring { two: false }, [b]) => {
            let this = ex.peek(1)?;
            (b, string_count(ex, this)?, count)
        }
        (TextCall::Substring { two: true }, [b, e]) => (b, ex.peek(0)?, e),
        _ => return Ok(None),
    };
    let this = ex.peek(n_args)?;
    let whole_end = end == string_count(ex, this)? || end_iv.decide(Cond::Eq, count) == Some(true);
    let whole = match (begin.decide(Cond::Eq, &Interval::literal(0)), whole_end) {
        (Some(true), true) => true,
        (Some(false), _) => false,
        // `e < count` is not decided by the intervals: the coarse model
        _ => return Ok(None),
    };
    if whole {
        for _ in 0..=n_args {
            ex.pop()?;
        }
        return Ok(Some(this));
    }
    let len = Interval {
        lo: Some(end_iv.lo.zip(begin.hi).map_or(0, |(e, b)| (e - b).max(0))),
        hi: end_iv.hi.zip(begin.lo).map(|(e, b)| e - b),
    };
    if len.decide(Cond::Eq, &Interval::literal(0)) != Some(false)
        && shared::may_be_held_string(ex, Interval::literal(0))
    {
        // the interned `""` may be an object the state holds
        return Ok(None);
    }
    let b_ref = ex.peek(n_args - 1)?;
    let (a, b) = (Operand::of(&ex.st, end), Operand::of(&ex.st, b_ref));
    for _ in 0..=n_args {
        ex.pop()?;
    }
    let res = ex.st.new_int(len);
    ex.labels.push(Label::Arith {
        res,
        op: IntOp::Sub,
        a,
        b: Some(b),
    });
    Ok(Some(shared::fresh_string(ex, res)))
}

/// The length reference of the realized string `s`.
/// The string `s`'s length: its `count` reference and interval, once it is realized
/// (`Err`: the flow that realizes it first).
/// `s.repeat(count)` (`TextCall::Repeat`).
fn repeat(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (n, this) = (ex.peek(0)?, ex.peek(1)?);
    let (count, len) = match length_of(ex, this)? {
        Ok(l) => l,
        Err(flow) => return Ok(flow),
    };
    let outcomes = [
        (n, Cond::Ge, 0),
        (n, Cond::Eq, 1),
        (n, Cond::Eq, 0),
        (count, Cond::Eq, 0),
    ];
    let mut holds = [false; 4];
    for (k, (r, cond, c)) in outcomes.into_iter().enumerate() {
        holds[k] = match super::counts::decide(ex, r, cond, c)? {
            Ok(b) => b,
            Err(flow) => return Ok(flow),
        };
        // the later tests are JDK 17's, in its order, after the ones that return
        if k == 0 && !holds[0] {
            return exception::throw_builtin(ex, exceptions::ILLEGAL_ARGUMENT);
        }
        if k == 1 && holds[1] {
            // the receiver stays on the stack as the result
            ex.pop()?;
            return Ok(Flow::Next);
        }
    }
    let k = super::counts::int(ex, n)?;
    ex.pop()?;
    ex.pop()?;
    let r = if holds[2] || holds[3] {
        shared::string(ex, Interval::literal(0))
    } else {
        let most = i128::from(i32::MAX);
        let v = Interval {
            lo: len.lo.zip(k.lo).map(|(a, b)| (a * b).min(most)),
            hi: len.hi.zip(k.hi).map(|(a, b)| (a * b).min(most)),
        };
        let c = ex.st.new_int(v);
        shared::fresh_string(ex, c)
    };
    ex.push(r)?;
    Ok(Flow::Next)
}

fn length_of(ex: &mut Exec<'_>, s: Ref) -> Result<Result<(Ref, Interval), Flow>, EngineError> {
    if let Some(flow) = ex.need_realized(s)? {
        return Ok(Err(flow));
    }
    let count = string_count(ex, s)?;
    let len = *ex
        .st
        .int(count)
        .ok_or_else(|| ex.invalid("String length of a non-integer"))?;
    Ok(Ok((count, len)))
}

fn string_count(ex: &Exec<'_>, s: Ref) -> Result<Ref, EngineError> {
    match ex.st.value(s) {
        Some(HeapValue::Object { fields, .. }) => fields.get("count").copied(),
        _ => None,
    }
    .ok_or_else(|| ex.invalid("String method on a non-String"))
}

/// `Some(true)` when both hold, `Some(false)` when one fails, else undecided.
pub(super) fn both(a: Option<bool>, b: Option<bool>) -> Option<bool> {
    match (a, b) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    }
}

/// Whether a call with two outcomes returns (`true`) or throws: the split flag of the state
/// before the call; `None` until [`split_outcomes`] has split it.
pub(super) fn outcome(ex: &Exec<'_>) -> Option<bool> {
    ex.before.decided()
}

/// The split of the state before the call into its returning and throwing outcomes.
pub(super) fn split_outcomes(ex: &Exec<'_>) -> Flow {
    split_into(ex, &[Outcome::T, Outcome::F])
}

/// The split of the state before the call into `outcomes`, in this order.
pub(super) fn split_into(ex: &Exec<'_>, outcomes: &[Outcome]) -> Flow {
    let succs = outcomes
        .iter()
        .map(|&o| {
            let mut s = ex.st_before();
            s.split = Some(o);
            Succ::new(s)
        })
        .collect();
    Flow::Refine(EdgeKind::Split, succs)
}

/// NullPointerException for a `null` argument (`k`-th from the top of the stack); a
/// refinement when it may be null.
pub(super) fn null_check(ex: &mut Exec<'_>, k: usize) -> Result<Option<Flow>, EngineError> {
    let a = ex.peek(k)?;
    if a.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER).map(Some);
    }
    ex.need_null_or_existing(a)
}

fn push_int(ex: &mut Exec<'_>, v: Interval) -> Result<(), EngineError> {
    let r = ex.st.new_int(v);
    ex.push(r)
}

fn bool_range() -> Interval {
    Interval::new(Some(0), Some(1)).unwrap_or(Interval::TOP)
}

/// `indexOf`/`lastIndexOf` (contracts at `TextCall::IndexOf`): "-1 if there is no such
/// occurrence", else an index inside the receiver, related to `fromIndex` where the Javadoc
/// relates it. A receiver that may hold the sought text splits first into the found (`T:`)
/// and not-found (`F:`) outcomes, so that the found index's bounds hold without the `-1`.
fn index_of(
    ex: &mut Exec<'_>,
    n_args: usize,
    char_sought: bool,
    last: bool,
    from: bool,
) -> Result<Flow, EngineError> {
    let this = ex.peek(n_args)?;
    let (count, len) = match length_of(ex, this)? {
        Ok(l) => l,
        Err(flow) => return Ok(flow),
    };
    let from_ref = if from { Some(ex.peek(0)?) } else { None };
    let from_value = match from_ref {
        Some(r) => Some(
            *ex.st
                .int(r)
                .ok_or_else(|| ex.invalid("indexOf from a non-integer"))?,
        ),
        None => None,
    };
    // where a found index would lie: a char's below the length, "" at the length itself
    let top = if char_sought {
        len.hi.map(|h| h - 1)
    } else {
        len.hi
    };
    let (mut lo, mut hi) = (0, top);
    match (from_value, last) {
        (Some(f), false) if char_sought => lo = lo.max(f.lo.unwrap_or(0)),
        (Some(f), true) => hi = min_bound(hi, f.hi),
        _ => {}
    }
    // no index fits (a char in "", backwards from a negative index): never found
    let found_at = Interval::new(Some(lo), hi);
    let found = if found_at.is_none() {
        Some(false)
    } else {
        outcome(ex)
    };
    let Some(found) = found else {
        return Ok(split_outcomes(ex));
    };
    let from_op = from_ref.map(|r| Operand::of(&ex.st, r));
    let count_op = Operand::of(&ex.st, count);
    for _ in 0..=n_args {
        ex.pop()?;
    }
    let Some(v) = found_at.filter(|_| found) else {
        push_int(ex, Interval::literal(-1))?;
        return Ok(Flow::Next);
    };
    push_int(ex, v)?;
    let res = Operand::Ref(ex.peek(0)?);
    let below = if char_sought { Cond::Lt } else { Cond::Le };
    if let Operand::Ref(_) = count_op {
        ex.labels.push(Label::Rel {
            a: res,
            cond: below,
            b: count_op,
        });
    }
    let by_from = match (from_op, last) {
        (Some(f @ Operand::Ref(_)), false) if char_sought => Some((Cond::Ge, f)),
        (Some(f @ Operand::Ref(_)), true) => Some((Cond::Le, f)),
        _ => None,
    };
    if let Some((cond, f)) = by_from {
        ex.labels.push(Label::Rel { a: res, cond, b: f });
    }
    Ok(Flow::Next)
}

fn min_bound(a: Option<i128>, b: Option<i128>) -> Option<i128> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) | (None, x) => x,
    }
}
