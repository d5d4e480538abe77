//! Condition (a) of the instance check: control (frames, methods, pcs, stack heights,
//! exceptions, statics, end kind), and the root positions both states have.

use super::{Explain, Mismatch};
use crate::state::{display_type, End, Ref, State};
use std::fmt;

/// A root of both states: its position, the reference in `s` and the one in `s'`.
pub(super) type Root<'a> = (RootName<'a>, Ref, Ref);

/// A root position, printed only for messages (the check itself never needs the text).
#[derive(Clone, Copy, Debug)]
pub(super) enum RootName<'a> {
    /// Frame (0 = top), local slot.
    Local(usize, usize),
    /// Frame, stack slot (0 = top).
    Stack(usize, usize),
    Exc(usize),
    Static(&'a str, &'a str),
    Result,
    Thrown,
}

impl fmt::Display for RootName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootName::Local(i, slot) => write!(f, "lv{i}.{slot}"),
            RootName::Stack(i, k) => write!(f, "os{i}.{k}"),
            RootName::Exc(i) => write!(f, "exc{i}"),
            RootName::Static(class, field) => write!(f, "sf.{}.{field}", display_type(class)),
            RootName::Result => f.write_str("result"),
            RootName::Thrown => f.write_str("thrown"),
        }
    }
}

/// (a) Control, and the list of root pairs in walk order (frames bottom to top: locals by slot,
/// stack bottom to top, pending exception; then statics by key; then the end result).
pub(super) fn control<'a>(
    sp: &State,
    g: &'a State,
    explain: Explain,
) -> Result<Vec<Root<'a>>, Mismatch> {
    if sp.frames.len() != g.frames.len() {
        return Err(explain.no('a', || {
            format!(
                "s has {} frames, s' has {}",
                g.frames.len(),
                sp.frames.len()
            )
        }));
    }
    let n = g.frames.len();
    let mut roots = Vec::new();
    for (idx, (fg, fs)) in g.frames.iter().zip(&sp.frames).enumerate() {
        let i = n - 1 - idx;
        if fg.method != fs.method || fg.pc != fs.pc {
            return Err(explain.no('a', || {
                format!(
                    "frame {i}: s is at {} {:02}, s' at {} {:02}",
                    fg.method, fg.pc, fs.method, fs.pc
                )
            }));
        }
        if fg.stack.len() != fs.stack.len() {
            return Err(explain.no('a', || {
                format!(
                    "frame {i}: stack height {} in s, {} in s'",
                    fg.stack.len(),
                    fs.stack.len()
                )
            }));
        }
        for (slot, r) in fg.locals.iter().enumerate() {
            let Some(r) = *r else { continue };
            // An unset slot of s' is unconstrained while s constrains it: not an instance.
            match fs.locals.get(slot).copied().flatten() {
                Some(r2) => roots.push((RootName::Local(i, slot), r, r2)),
                None => {
                    return Err(explain.no('a', || {
                        format!("lv{i}.{slot} holds {r} in s but is unset in s'")
                    }))
                }
            }
        }
        let h = fg.stack.len();
        for (b, (r, r2)) in fg.stack.iter().zip(&fs.stack).enumerate() {
            roots.push((RootName::Stack(i, h - 1 - b), *r, *r2));
        }
        match (fg.exception, fs.exception) {
            (Some(r), Some(r2)) => roots.push((RootName::Exc(i), r, r2)),
            (None, None) => {}
            (e, e2) => {
                return Err(explain.no('a', || {
                    format!(
                        "frame {i}: pending exception {} in s, {} in s'",
                        e.map_or("none".into(), |r| r.to_string()),
                        e2.map_or("none".into(), |r| r.to_string())
                    )
                }))
            }
        }
    }
    // Statics: both states must know the same static fields ([I], `mergeStaticFields`). A
    // static s knows and s' does not is unconstrained in s'; one s' knows and s does not
    // would, in s, get its first-access value at the next read, which cannot alias anything
    // of the run so far, so s would lose the aliasing s' may have.
    if let Some((class, field)) = sp.statics.keys().find(|k| !g.statics.contains_key(*k)) {
        return Err(explain.no('a', || {
            format!(
                "sf.{}.{field} is known in s' but not in s",
                display_type(class)
            )
        }));
    }
    for (key, r) in &g.statics {
        let name = RootName::Static(&key.0, &key.1);
        match sp.statics.get(key) {
            Some(r2) => roots.push((name, *r, *r2)),
            None => return Err(explain.no('a', || format!("{name} is known in s but not in s'"))),
        }
    }
    match (&g.end, &sp.end) {
        (None, None) | (Some(End::Return(None)), Some(End::Return(None))) => {}
        (Some(End::Return(Some(r))), Some(End::Return(Some(r2)))) => {
            roots.push((RootName::Result, *r, *r2))
        }
        (Some(End::Throw(r)), Some(End::Throw(r2))) => roots.push((RootName::Thrown, *r, *r2)),
        (e, e2) => {
            return Err(explain.no('a', || {
                format!("program end {} in s, {} in s'", end_kind(e), end_kind(e2))
            }))
        }
    }
    Ok(roots)
}

fn end_kind(e: &Option<End>) -> &'static str {
    match e {
        None => "none",
        Some(End::Return(None)) => "`return`",
        Some(End::Return(Some(_))) => "`return r`",
        Some(End::Throw(_)) => "`throw`",
    }
}
