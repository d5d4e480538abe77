//! `java.lang.StringBuilder` (`models::LibraryCall::StringBuilder*`, `models::BuilderCall`,
//! contracts in `models/calls.rs` and `models/text.rs`): the model keeps a builder's length,
//! its field `count`, and no contents. Every call that changes the length sets `count` by an
//! arithmetic step the ITS sees (`counts::sum`), so `while (sb.length() < n) sb.append(c);`
//! has its ranking function; an index the intervals do not place splits the state into
//! returning and throwing.

use super::super::{exception, Exec, Flow};
use super::counts::{decide, int, step, sum};
use super::shared;
use super::text::{both, char_range, outcome, split_outcomes};
use crate::class::Cond;
use crate::edge::{Label, Operand};
use crate::error::EngineError;
use crate::models::{self, exceptions, Appended, BuilderCall};
use crate::state::{FieldKey, HeapValue, IntOp, Interval, Ref};

/// The field that holds a builder's (and a string's) length.
const COUNT: &str = "count";

/// `new StringBuilder()` / `StringBuilder(int capacity)`: `count` stays `new`'s 0; a negative
/// capacity throws NegativeArraySizeException.
pub(super) fn new_builder(ex: &mut Exec<'_>, n_args: usize) -> Result<Flow, EngineError> {
    if n_args == 1 {
        let cap = ex.peek(0)?;
        match decide(ex, cap, Cond::Lt, 0)? {
            Err(flow) => return Ok(flow),
            Ok(true) => return exception::throw_builtin(ex, exceptions::NEGATIVE_ARRAY_SIZE),
            Ok(false) => {}
        }
    }
    for _ in 0..=n_args {
        ex.pop()?;
    }
    Ok(Flow::Next)
}

/// `new StringBuilder(String str)`: the string's length; NullPointerException for `null`.
pub(super) fn of_string(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let (s, this) = (ex.peek(0)?, ex.peek(1)?);
    if s.is_null() {
        return exception::throw_builtin(ex, exceptions::NULL_POINTER);
    }
    if let Some(flow) = ex.need_null_or_existing(s)? {
        return Ok(flow);
    }
    if let Some(flow) = ex.need_realized(s)? {
        return Ok(flow);
    }
    let len = count_of(ex, s)?;
    ex.pop()?;
    ex.pop()?;
    set_count(ex, this, len)?;
    Ok(Flow::Next)
}

/// `append(x)` of a primitive or a `String` (`added`), or of an `Object` that is `null` or a
/// string (`append(Object)`, checked by the caller): the receiver, its length grown by the
/// characters appended, stays on the stack as the result.
pub(super) fn append(ex: &mut Exec<'_>, added: Appended) -> Result<Flow, EngineError> {
    let (x, this) = (ex.peek(0)?, ex.peek(1)?);
    let count = match receiver_count(ex, this)? {
        Ok(c) => c,
        Err(flow) => return Ok(flow),
    };
    let n = match added_length(ex, added, x)? {
        Ok(n) => n,
        Err(flow) => return Ok(flow),
    };
    ex.pop()?;
    let grown = grow(ex, count, n)?;
    set_count(ex, this, grown)?;
    Ok(Flow::Next)
}

/// `toString()`: a string of the builder's length (JDK 17 returns the interned `""` for an
/// empty builder, so it may be a string the state holds).
pub(super) fn to_string(ex: &mut Exec<'_>) -> Result<Flow, EngineError> {
    let this = ex.peek(0)?;
    let count = match receiver_count(ex, this)? {
        Ok(c) => c,
        Err(flow) => return Ok(flow),
    };
    let len = int(ex, count)?;
    ex.pop()?;
    let r = shared::string(ex, len);
    // a new string: its length is the builder's count itself
    if let Some(HeapValue::Object { fields, .. }) = ex.st.heap.get_mut(&r) {
        fields.insert(FieldKey::plain(COUNT), count);
    }
    ex.push(r)?;
    Ok(Flow::Next)
}

/// The calls of [`BuilderCall`]: an index is checked against the length where the intervals
/// decide it, else by a split into returning and throwing.
pub(super) fn call(
    ex: &mut Exec<'_>,
    call: BuilderCall,
    n_args: usize,
) -> Result<Flow, EngineError> {
    use BuilderCall::*;
    let this = ex.peek(n_args)?;
    let count = match receiver_count(ex, this)? {
        Ok(c) => c,
        Err(flow) => return Ok(flow),
    };
    if call == AppendRange {
        return append_range(ex, this, count);
    }
    let len = int(ex, count)?;
    // the index (offset, new length) is the first argument
    let index = match call {
        SetLength | CharAt | DeleteCharAt | SetCharAt => Some(ex.peek(n_args - 1)?),
        Insert(_) => Some(ex.peek(n_args - 1)?),
        Length | Reverse | AppendRange => None,
    };
    if let Some(i) = index {
        match decide(ex, i, Cond::Lt, 0)? {
            Err(flow) => return Ok(flow),
            Ok(true) => return exception::throw_builtin(ex, models::STRING_INDEX),
            Ok(false) => {}
        }
        let v = int(ex, i)?;
        // below the length (`charAt`, `deleteCharAt`, `setCharAt`), up to it (`insert`)
        let upper = match call {
            SetLength => Some(true),
            Insert(_) => v.decide(Cond::Le, &len),
            _ => v.decide(Cond::Lt, &len),
        };
        let Some(ok) = upper.or_else(|| outcome(ex)) else {
            return Ok(split_outcomes(ex));
        };
        if !ok {
            return exception::throw_builtin(ex, models::STRING_INDEX);
        }
    }
    let new_count = match call {
        DeleteCharAt => Some(step(ex, count, IntOp::Sub, 0)?),
        SetLength => Some(ex.peek(0)?),
        Insert(added) => {
            let x = ex.peek(0)?;
            let n = match added_length(ex, added, x)? {
                Ok(n) => n,
                Err(flow) => return Ok(flow),
            };
            Some(grow(ex, count, n)?)
        }
        _ => None,
    };
    let returns_this = matches!(call, Reverse | DeleteCharAt | Insert(_));
    for _ in 0..n_args {
        ex.pop()?;
    }
    if !returns_this {
        ex.pop()?;
    }
    if let Some(c) = new_count {
        set_count(ex, this, c)?;
    }
    match call {
        Length => ex.push(count)?,
        CharAt => {
            let r = ex.st.new_int(char_range());
            ex.push(r)?;
        }
        _ => {}
    }
    Ok(Flow::Next)
}

/// `append(CharSequence s, int start, int end)` of a `String` or `null` (`"null"`): returns
/// this, grown by `end − start` (kept as: not shorter), when `0 ≤ start ≤ end ≤ s.length()`, else
/// IndexOutOfBoundsException.
fn append_range(ex: &mut Exec<'_>, this: Ref, count: Ref) -> Result<Flow, EngineError> {
    let s = ex.peek(2)?;
    let len = if s.is_null() {
        Interval::literal(4)
    } else {
        if let Some(flow) = ex.need_null_or_existing(s)? {
            return Ok(flow);
        }
        if let Some(flow) = ex.need_realized(s)? {
            return Ok(flow);
        }
        let ty = ex.st.value(s).and_then(HeapValue::type_name);
        if ty != Some(models::STRING) {
            return Err(ex.unsupported(format!(
                "StringBuilder.append of a CharSequence of type {} (its length() and charAt may be program code)",
                ty.map_or("?".into(), crate::state::display_type)
            )));
        }
        let c = count_of(ex, s)?;
        int(ex, c)?
    };
    let (start, end) = (ex.peek(1)?, ex.peek(0)?);
    let (b, e) = (int(ex, start)?, int(ex, end)?);
    let in_bounds = both(
        both(
            b.decide(Cond::Ge, &Interval::literal(0)),
            b.decide(Cond::Le, &e),
        ),
        e.decide(Cond::Le, &len),
    );
    let Some(ok) = in_bounds.or_else(|| outcome(ex)) else {
        return Ok(split_outcomes(ex));
    };
    if !ok {
        return exception::throw_builtin(ex, models::collections::INDEX_OUT_OF_BOUNDS);
    }
    // `count + (end − start)`, two steps in one: the ITS keeps `new ≥ count`
    let (c, top) = (int(ex, count)?, i128::from(i32::MAX));
    let most = c.hi.zip(len.hi).map_or(top, |(x, l)| (x + l).min(top));
    let grown = ex.st.new_int(Interval {
        lo: c.lo,
        hi: Some(most),
    });
    ex.labels.push(Label::Rel {
        a: Operand::Ref(grown),
        cond: Cond::Ge,
        b: Operand::Ref(count),
    });
    // the receiver stays on the stack as the result
    for _ in 0..3 {
        ex.pop()?;
    }
    set_count(ex, this, grown)?;
    Ok(Flow::Next)
}

/// How many characters appending `x` adds: exact for a string (its length; "null"'s 4) and
/// a `char`, else a range; or the refinement that realizes the string first.
fn added_length(
    ex: &mut Exec<'_>,
    added: Appended,
    x: Ref,
) -> Result<Result<Added, Flow>, EngineError> {
    Ok(Ok(match added {
        Appended::Chars { min, max } if Some(min) == max => Added::Exact(Operand::Lit(min.into())),
        Appended::Chars { min, max } => Added::Between {
            min: min.into(),
            max: max.map(i128::from),
        },
        // "If str is null, then the four characters "null" are appended"
        Appended::Text if x.is_null() => Added::Exact(Operand::Lit(4)),
        Appended::Text => {
            if let Some(flow) = ex.need_null_or_existing(x)? {
                return Ok(Err(flow));
            }
            if let Some(flow) = ex.need_realized(x)? {
                return Ok(Err(flow));
            }
            Added::Exact(Operand::Ref(count_of(ex, x)?))
        }
    }))
}

/// The characters an append adds: a value of the source state (a literal, a string's
/// length), or any number in `[min, max]` (`min ≥ 1`).
enum Added {
    Exact(Operand),
    Between { min: i128, max: Option<i128> },
}

/// The length `count` grown by `n`: `count + n` as an arithmetic step where `n` is a value of
/// the source; else a new length in `count + [min, max]`, above `count` by a label (the ITS
/// sees `new > count`: every such append grows the builder).
fn grow(ex: &mut Exec<'_>, count: Ref, n: Added) -> Result<Ref, EngineError> {
    match n {
        Added::Exact(Operand::Ref(n)) => sum(ex, count, n, IntOp::Add, 0),
        Added::Exact(Operand::Lit(k)) => {
            let k = ex.st.new_int(Interval::literal(k));
            sum(ex, count, k, IntOp::Add, 0)
        }
        Added::Between { min, max } => {
            // a length never passes `Integer.MAX_VALUE` (the JVM throws OutOfMemoryError)
            let (c, top) = (int(ex, count)?, i128::from(i32::MAX));
            let v = Interval {
                lo: c.lo.map(|x| (x + min).min(top)),
                hi: Some(c.hi.zip(max).map_or(top, |(x, m)| (x + m).min(top))),
            };
            let r = ex.st.new_int(v);
            ex.labels.push(Label::Rel {
                a: Operand::Ref(r),
                cond: Cond::Gt,
                b: Operand::Ref(count),
            });
            Ok(r)
        }
    }
}

/// The length of the builder `this`, or the refinement that realizes it first.
fn receiver_count(ex: &mut Exec<'_>, this: Ref) -> Result<Result<Ref, Flow>, EngineError> {
    if let Some(flow) = ex.need_realized(this)? {
        return Ok(Err(flow));
    }
    match ex.st.value(this) {
        Some(HeapValue::Object { fields, .. }) => fields
            .get(COUNT)
            .copied()
            .map(Ok)
            .ok_or_else(|| ex.invalid("StringBuilder without its length")),
        _ => Err(ex.invalid("StringBuilder call on a non-builder")),
    }
}

/// The length of a realized string.
fn count_of(ex: &Exec<'_>, s: Ref) -> Result<Ref, EngineError> {
    match ex.st.value(s) {
        Some(HeapValue::Object { fields, .. }) => fields.get(COUNT).copied(),
        _ => None,
    }
    .ok_or_else(|| ex.invalid("a string without its length"))
}

fn set_count(ex: &mut Exec<'_>, this: Ref, count: Ref) -> Result<(), EngineError> {
    match ex.st.heap.get_mut(&this) {
        Some(HeapValue::Object { fields, .. }) => {
            fields.insert(FieldKey::plain(COUNT), count);
            Ok(())
        }
        _ => Err(ex.invalid("StringBuilder call on a non-builder")),
    }
}
