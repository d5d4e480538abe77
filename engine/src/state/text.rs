//! The text form of states, readable like the thesis figures and parsed back (users write start
//! states in it; concrete states use the same form). Documented in `docs/state-text.md`.
//!
//! ```text
//! 00 | cur: o1, x: i1 | ε
//! o1: List(?)  i1: Z
//! o1♦  o1%$o1
//! ```
//!
//! * One line per frame, top frame first: `[Class.method(desc) ]PC | locals | stack[ | exc: r]`.
//!   The method is omitted when it is the context method. Locals are `name: ref` (the
//!   LocalVariableTable name, or `l<slot>`); unset slots are not shown. The stack is printed top
//!   first; `ε` is empty.
//! * A state produced by a split on an integer relation starts with `T: ` or `F: `; a library
//!   call's third outcome (its ClassCastException) with `X: `.
//! * Program ends: `end: return [r]` or `end: throw r`.
//! * `static: Class.field=r …` lists static fields.
//! * Heap entries `r: value`, objects first, then integers, separated by two spaces.
//! * Predicates `a=?b  a%$b  r♦  r⟲{f,…}  a→!{f,…}b` (ASCII also accepted: `r<>`, `r cyc{f}`,
//!   `a ->!{f} b`).

use super::{
    display_type, parse_type, End, FieldKey, FieldSet, Frame, HeapValue, Interval, MethodId,
    Outcome, Ref, State,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where the printer gets local-variable names and the parser slot numbers.
pub trait LocalNames {
    fn local_name(&self, method: &MethodId, slot: usize, pc: u32) -> Option<String>;
    fn local_slot(&self, method: &MethodId, name: &str, pc: u32) -> Option<usize>;
    /// The method's `max_locals`, so parsed frames get the right number of slots.
    fn max_locals(&self, method: &MethodId) -> Option<usize>;
    /// The source line of `pc` in `method` (`None`: no line table, or no class file).
    fn source_line(&self, _method: &MethodId, _pc: u32) -> Option<super::SourceLine> {
        None
    }
}

/// No names: locals print as `l<slot>`.
pub struct NoNames;
impl LocalNames for NoNames {
    fn local_name(&self, _: &MethodId, _: usize, _: u32) -> Option<String> {
        None
    }
    fn local_slot(&self, _: &MethodId, _: &str, _: u32) -> Option<usize> {
        None
    }
    fn max_locals(&self, _: &MethodId) -> Option<usize> {
        None
    }
}

/// Printing and parsing context.
pub struct TextContext<'a> {
    /// Frames of this method print without the method name; parsed frames without one get it.
    pub method: Option<MethodId>,
    pub names: &'a dyn LocalNames,
}

impl<'a> TextContext<'a> {
    pub fn plain() -> TextContext<'static> {
        TextContext {
            method: None,
            names: &NoNames,
        }
    }
    pub fn for_method(method: MethodId, names: &'a dyn LocalNames) -> TextContext<'a> {
        TextContext {
            method: Some(method),
            names,
        }
    }
}

fn frame_line(f: &Frame, ctx: &TextContext<'_>) -> String {
    let mut s = String::new();
    if ctx.method.as_ref() != Some(&f.method) {
        let _ = write!(s, "{} ", f.method);
    }
    let _ = write!(s, "{:02} | ", f.pc);
    let locals: Vec<String> = f
        .locals
        .iter()
        .enumerate()
        .filter_map(|(slot, r)| {
            let r = (*r)?;
            let name = ctx
                .names
                .local_name(&f.method, slot, f.pc)
                .unwrap_or_else(|| format!("l{slot}"));
            Some(format!("{name}: {r}"))
        })
        .collect();
    s.push_str(&or_eps(locals.join(", ")));
    s.push_str(" | ");
    let stack: Vec<String> = f.stack.iter().rev().map(Ref::to_string).collect();
    s.push_str(&or_eps(stack.join(", ")));
    if let Some(e) = f.exception {
        let _ = write!(s, " | exc: {e}");
    }
    s
}

fn or_eps(s: String) -> String {
    if s.is_empty() {
        "ε".into()
    } else {
        s
    }
}

/// Heap entries in print order: objects first, then integers, each by number.
fn heap_order(state: &State) -> Vec<(Ref, &HeapValue)> {
    let mut v: Vec<_> = state.heap.iter().map(|(r, v)| (*r, v)).collect();
    v.sort_by_key(|(r, _)| (r.is_int(), *r));
    v
}

/// Prints a state as lines (see the module docs).
pub fn print_state(state: &State, ctx: &TextContext<'_>) -> String {
    let mut lines = Vec::new();
    for f in state.frames.iter().rev() {
        lines.push(frame_line(f, ctx));
    }
    if let (Some(decided), Some(first)) = (state.split, lines.first_mut()) {
        first.insert_str(0, &format!("{} ", decided.tag()));
    }
    match &state.end {
        Some(End::Return(Some(r))) => lines.push(format!("end: return {r}")),
        Some(End::Return(None)) => lines.push("end: return".into()),
        Some(End::Throw(r)) => lines.push(format!("end: throw {r}")),
        None => {}
    }
    if !state.statics.is_empty() {
        let items: Vec<String> = state
            .statics
            .iter()
            .map(|((c, n), r)| format!("{}.{n}={r}", display_type(c)))
            .collect();
        lines.push(format!("static: {}", items.join("  ")));
    }
    let heap: Vec<String> = heap_order(state)
        .into_iter()
        .map(|(r, v)| format!("{r}: {v}"))
        .collect();
    if !heap.is_empty() {
        lines.push(heap.join("  "));
    }
    let preds = state.preds.items();
    if !preds.is_empty() {
        lines.push(preds.join("  "));
    }
    lines.join("\n")
}

/// A parse error with the 1-based line and a description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("state text, line {line}: {msg}")]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

/// Parses the text form. The result is validated ([`State::validate`]) and its fresh-name
/// counters are synchronized.
pub fn parse_state(text: &str, ctx: &TextContext<'_>) -> Result<State, ParseError> {
    let mut st = State::default();
    let mut frames_top_first = Vec::new();
    let mut last_line = 0;
    for (no, raw) in text.lines().enumerate() {
        let line_no = no + 1;
        last_line = line_no;
        let err = |msg: String| ParseError { line: line_no, msg };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("end:") {
            let rest = rest.trim();
            let end = if rest == "return" {
                End::Return(None)
            } else if let Some(r) = rest.strip_prefix("return ") {
                End::Return(Some(parse_ref(r.trim()).map_err(err)?))
            } else if let Some(r) = rest.strip_prefix("throw ") {
                End::Throw(parse_ref(r.trim()).map_err(err)?)
            } else {
                return Err(err(format!(
                    "expected `return [r]` or `throw r`, got `{rest}`"
                )));
            };
            st.end = Some(end);
        } else if let Some(rest) = line.strip_prefix("static:") {
            for item in rest.split_whitespace() {
                let (lhs, r) = item
                    .split_once('=')
                    .ok_or_else(|| err(format!("static entry `{item}` is not `Class.field=r`")))?;
                let dot = lhs
                    .rfind('.')
                    .ok_or_else(|| err(format!("static `{lhs}` has no class")))?;
                let class = parse_type(&lhs[..dot])
                    .ok_or_else(|| err(format!("bad class name `{}`", &lhs[..dot])))?;
                st.statics.insert(
                    (class, lhs[dot + 1..].to_string()),
                    parse_ref(r).map_err(err)?,
                );
            }
        } else if line.contains('|') {
            let mut line = line;
            if frames_top_first.is_empty() {
                for v in [Outcome::T, Outcome::F, Outcome::X] {
                    if let Some(rest) = line.strip_prefix(v.tag()) {
                        st.split = Some(v);
                        line = rest.trim_start();
                    }
                }
            }
            frames_top_first.push(parse_frame(line, ctx).map_err(err)?);
        } else {
            parse_items(line, &mut st).map_err(err)?;
        }
    }
    frames_top_first.reverse();
    st.frames = frames_top_first;
    let fail = |msg: String| ParseError {
        line: last_line.max(1),
        msg,
    };
    if st.frames.is_empty() && st.end.is_none() {
        return Err(fail("no frame line and no `end:` line".into()));
    }
    if !st.frames.is_empty() && st.end.is_some() {
        return Err(fail(
            "a state with frames cannot also be a program end".into(),
        ));
    }
    st.validate().map_err(fail)?;
    st.sync_counters();
    Ok(st)
}

fn parse_ref(s: &str) -> Result<Ref, String> {
    Ref::parse(s).ok_or_else(|| format!("`{s}` is not a reference (null, i<n> or o<n>)"))
}

fn parse_frame(line: &str, ctx: &TextContext<'_>) -> Result<Frame, String> {
    let parts: Vec<&str> = line.split('|').map(str::trim).collect();
    if parts.len() < 3 || parts.len() > 4 {
        return Err("a frame line is `[method ]pc | locals | stack[ | exc: r]`".into());
    }
    let head: Vec<&str> = parts[0].split_whitespace().collect();
    let (method, pc_text) = match head.as_slice() {
        [pc] => (
            ctx.method
                .clone()
                .ok_or("frame without method and no context method")?,
            *pc,
        ),
        [m, pc] => (
            MethodId::parse(m).ok_or_else(|| format!("bad method `{m}`"))?,
            *pc,
        ),
        _ => return Err(format!("bad frame head `{}`", parts[0])),
    };
    let pc: u32 = pc_text.parse().map_err(|_| format!("bad pc `{pc_text}`"))?;
    let mut locals: BTreeMap<usize, Ref> = BTreeMap::new();
    if !is_eps(parts[1]) {
        for item in parts[1].split(',') {
            let (name, r) = item
                .split_once(':')
                .ok_or_else(|| format!("local `{}` is not `name: ref`", item.trim()))?;
            let name = name.trim();
            let slot = name
                .strip_prefix('l')
                .and_then(|n| n.parse::<usize>().ok())
                .or_else(|| ctx.names.local_slot(&method, name, pc))
                .ok_or_else(|| format!("unknown local variable `{name}` at pc {pc}"))?;
            if slot > u16::MAX as usize {
                return Err(format!("local slot {slot} out of range"));
            }
            if locals.insert(slot, parse_ref(r.trim())?).is_some() {
                return Err(format!("local `{name}` given twice"));
            }
        }
    }
    let n = ctx
        .names
        .max_locals(&method)
        .unwrap_or(0)
        .max(locals.keys().next_back().map_or(0, |s| s + 1));
    let mut frame = Frame::new(method, n);
    frame.pc = pc;
    for (slot, r) in locals {
        frame.locals[slot] = Some(r);
    }
    if !is_eps(parts[2]) {
        let mut stack = parts[2]
            .split(',')
            .map(|t| parse_ref(t.trim()))
            .collect::<Result<Vec<_>, _>>()?;
        stack.reverse();
        frame.stack = stack;
    }
    if let Some(exc) = parts.get(3) {
        let r = exc
            .strip_prefix("exc:")
            .ok_or("the fourth frame part is `exc: r`")?;
        frame.exception = Some(parse_ref(r.trim())?);
    }
    Ok(frame)
}

fn is_eps(s: &str) -> bool {
    s.is_empty() || s == "ε" || s == "-"
}

/// A cursor over one line of heap entries and predicates.
struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }
    fn skip_ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }
    fn eat(&mut self, pfx: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(pfx) {
            self.pos += pfx.len();
            true
        } else {
            false
        }
    }
    fn word(&mut self) -> &'a str {
        self.skip_ws();
        let r = self.rest();
        let n = r
            .find(|c: char| !(c.is_ascii_alphanumeric()))
            .unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }
    fn reference(&mut self) -> Result<Ref, String> {
        let w = self.word();
        parse_ref(w)
    }
    fn fields(&mut self) -> Result<FieldSet, String> {
        if !self.eat("{") {
            return Err("expected `{` of a field set".into());
        }
        let r = self.rest();
        let close = r.find('}').ok_or("unclosed field set")?;
        self.pos += close + 1;
        r[..close]
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| FieldKey::parse(f).ok_or_else(|| format!("bad field name `{f}`")))
            .collect()
    }
    /// Reads up to and including the bracket that closes the one at the cursor.
    fn bracketed(&mut self) -> Result<&'a str, String> {
        let r = self.rest();
        let mut depth = 0i32;
        for (i, c) in r.char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += i + c.len_utf8();
                        return Ok(&r[..i + c.len_utf8()]);
                    }
                }
                _ => {}
            }
        }
        Err(format!("unbalanced brackets in `{r}`"))
    }
}

fn parse_items(line: &str, st: &mut State) -> Result<(), String> {
    let mut c = Cursor { s: line, pos: 0 };
    loop {
        c.skip_ws();
        if c.rest().is_empty() {
            return Ok(());
        }
        let a = c.reference()?;
        if c.eat(":") {
            let v = parse_value(&mut c)?;
            if st.heap.insert(a, v).is_some() {
                return Err(format!("{a} has two heap values"));
            }
        } else if c.eat("=?") {
            let b = c.reference()?;
            check_pred_refs(a, b)?;
            st.preds.add_may_equal(a, b);
        } else if c.eat("%$") {
            let b = c.reference()?;
            check_pred_refs(a, b)?;
            st.preds.add_join(a, b);
        } else if c.eat("♦") || c.eat("<>") {
            check_pred_refs(a, a)?;
            st.preds.add_non_tree(a);
        } else if c.eat("⟲") || c.eat("cyc") {
            check_pred_refs(a, a)?;
            let f = c.fields()?;
            st.preds.add_cyclic(a, f);
        } else if c.eat("→!") || c.eat("->!") {
            let f = c.fields()?;
            let b = c.reference()?;
            if !a.is_obj() || b.is_int() || a == b {
                return Err(format!(
                    "{a}→!{b} needs an object source and a different target"
                ));
            }
            st.preds.add_must_reach(a, f, b);
        } else {
            return Err(format!(
                "after `{a}` expected `:` or a predicate, got `{}`",
                c.rest()
            ));
        }
    }
}

fn check_pred_refs(a: Ref, b: Ref) -> Result<(), String> {
    if a.is_obj() && b.is_obj() {
        Ok(())
    } else {
        Err(format!(
            "predicates relate object references, not {a} and {b}"
        ))
    }
}

fn parse_value(c: &mut Cursor<'_>) -> Result<HeapValue, String> {
    c.skip_ws();
    let r = c.rest();
    if r.starts_with('[') || r.starts_with('(') {
        let t = c.bracketed().or_else(|_| {
            // `(-∞,0]` mixes bracket kinds; read to the first closing bracket instead.
            let end = r.find([']', ')']).ok_or("unclosed interval")?;
            c.pos += end + 1;
            Ok::<_, String>(&r[..end + 1])
        })?;
        let iv = Interval::parse(t).ok_or_else(|| format!("bad interval `{t}`"))?;
        // `[≥0]L` is a long
        if c.rest().starts_with('L') {
            c.pos += 1;
            return Ok(HeapValue::Long(iv));
        }
        return Ok(HeapValue::Int(iv));
    }
    let n = r
        .find(|ch: char| !(ch.is_alphanumeric() || "-./$_[]".contains(ch)) || ch == '(')
        .unwrap_or(r.len());
    let head = &r[..n];
    // `int[]` and similar: brackets directly followed by `(`
    c.pos += n;
    if head == "Z" || head == "ℤ" || head.parse::<i128>().is_ok() {
        return Interval::parse(head)
            .map(HeapValue::Int)
            .ok_or_else(|| format!("bad integer `{head}`"));
    }
    // longs: `5L`, `-3L`, `ZL`
    if let Some(num) = head.strip_suffix('L') {
        if num == "Z" || num == "ℤ" || num.parse::<i128>().is_ok() {
            return Interval::parse(num)
                .map(HeapValue::Long)
                .ok_or_else(|| format!("bad long `{head}`"));
        }
    }
    match head {
        "float" => return Ok(HeapValue::Float(None)),
        "double" => return Ok(HeapValue::Double(None)),
        _ => {}
    }
    // float literals `1.5f`, `NaNf`, `-Infinityd` (docs/state-text.md); `C(` is a class
    if !c.rest().starts_with('(') {
        if let Some(num) = head.strip_suffix('f') {
            if let Some(bits) = super::floats::parse_f32(num) {
                return Ok(HeapValue::Float(Some(bits)));
            }
        }
        if let Some(num) = head.strip_suffix('d') {
            if let Some(bits) = super::floats::parse_f64(num) {
                return Ok(HeapValue::Double(Some(bits)));
            }
        }
    }
    let ty = parse_type(head).ok_or_else(|| format!("bad type name `{head}`"))?;
    // `A[]!(…)`: an array whose runtime type is exactly `A[]`
    let exact = c.rest().starts_with('!');
    if exact {
        if !ty.starts_with('[') {
            return Err(format!("`!` marks an array type, not `{head}`"));
        }
        c.pos += 1;
    }
    if !c.rest().starts_with('(') {
        return Err(format!("expected `(` after type `{head}`"));
    }
    let body = c.bracketed()?;
    let inner = &body[1..body.len() - 1];
    match inner.trim() {
        "?" => return Ok(HeapValue::Unknown { ty }),
        "…" | ".." => return Ok(HeapValue::Abstract { ty }),
        _ => {}
    }
    if ty.starts_with('[') {
        let len = inner
            .trim()
            .strip_prefix("len=")
            .ok_or("an array is `T[](len=r)` optionally followed by `[r, …]`")?;
        let len = parse_ref(len.trim())?;
        if !len.is_int() {
            return Err("an array length must be an integer reference".into());
        }
        let elems = if c.rest().starts_with('[') {
            let e = c.bracketed()?;
            let e = e[1..e.len() - 1].trim();
            Some(if e.is_empty() {
                vec![]
            } else {
                e.split(',')
                    .map(|t| parse_ref(t.trim()))
                    .collect::<Result<Vec<_>, _>>()?
            })
        } else {
            None
        };
        return Ok(HeapValue::array(ty, len, elems, exact));
    }
    let mut fields = BTreeMap::new();
    if !inner.trim().is_empty() {
        for item in inner.split(',') {
            let (name, r) = item
                .split_once('=')
                .ok_or_else(|| format!("field `{}` is not `name=ref`", item.trim()))?;
            let name = name.trim();
            let key = FieldKey::parse(name).ok_or_else(|| format!("bad field name `{name}`"))?;
            if fields.insert(key, parse_ref(r.trim())?).is_some() {
                return Err(format!("field `{name}` given twice"));
            }
        }
    }
    Ok(HeapValue::Object { class: ty, fields })
}

#[cfg(test)]
mod tests;
