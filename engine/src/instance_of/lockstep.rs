//! Conditions (b)–(e) of the instance check: the lock-step walk over the positions of the
//! general state, which builds the witness `s-ref ↦ s'-ref`.

use super::control::{Root, RootName};
use super::{Explain, Mismatch};
use crate::state::{FieldKey, HeapValue, Interval, Ref, State, Subtyping};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The lock-step walk over `SPos(s)` (conditions (b)–(e)).
pub(super) struct LockStep<'a> {
    explain: Explain,
    g: &'a State,
    sp: &'a State,
    types: &'a dyn Subtyping,
    map: BTreeMap<Ref, Ref>,
    /// The positions walked so far, as a trie (printed only for messages).
    paths: Vec<PathNode<'a>>,
    /// The first position of each reference of `s`, for messages.
    first: BTreeMap<Ref, usize>,
}

/// A position of the lock-step walk: its parent position and the last step.
struct PathNode<'a> {
    parent: Option<usize>,
    step: PathStep<'a>,
}

enum PathStep<'a> {
    Root(RootName<'a>),
    Field(&'a FieldKey),
    Len,
    Elem(usize),
}

fn literal(st: &State, r: Ref) -> Option<i128> {
    st.int(r).and_then(Interval::as_literal)
}

impl<'a> LockStep<'a> {
    pub(super) fn new(
        g: &'a State,
        sp: &'a State,
        types: &'a dyn Subtyping,
        explain: Explain,
    ) -> Self {
        LockStep {
            explain,
            g,
            sp,
            types,
            map: BTreeMap::new(),
            paths: Vec::new(),
            first: BTreeMap::new(),
        }
    }

    pub(super) fn run(mut self, roots: &[Root<'a>]) -> Result<BTreeMap<Ref, Ref>, Mismatch> {
        let mut todo: Vec<(usize, Ref, Ref)> = roots
            .iter()
            .enumerate()
            .rev()
            .map(|(k, (_, r, r2))| (k, *r, *r2))
            .collect();
        self.paths.extend(roots.iter().map(|(name, _, _)| PathNode {
            parent: None,
            step: PathStep::Root(*name),
        }));
        while let Some((pos, r, r2)) = todo.pop() {
            // Value conditions first, so that a realized-vs-unknown mismatch is reported as
            // (d) even when (e) fails at the same position.
            self.values(pos, r, r2)?;
            if r.is_null() {
                continue;
            }
            match self.map.get(&r) {
                Some(&prev) if prev == r2 => {}
                Some(&prev) => {
                    // (e), with the exception for two equal integer literals.
                    let same_literal = matches!(
                        (literal(self.sp, prev), literal(self.sp, r2)),
                        (Some(a), Some(b)) if a == b
                    );
                    if !same_literal {
                        let at = self.first.get(&r).map_or("?".into(), |&p| self.name(p));
                        return Err(self.explain.no('e', || {
                            format!(
                                "{r} is at {at} and {} in s, but s' has {prev} and {r2} there",
                                self.name(pos)
                            )
                        }));
                    }
                }
                None => {
                    self.map.insert(r, r2);
                    self.first.insert(r, pos);
                    self.push_children(pos, r, r2, &mut todo);
                }
            }
        }
        self.check_mapped_equalities()?;
        Ok(self.map)
    }

    /// (f) on the walked positions alone, before the positions of `s'` are enumerated: two
    /// objects of `s` whose first positions hold the same object of `s'`, or two objects of
    /// `s'` related by `=?`, must be equal or `=?` in `s`. Every pair of the walk is the pair of a
    /// realized position that [`Positions::check_realized_equalities`] checks too, so this only
    /// finds its failures sooner (the states at one program position mostly differ here).
    fn check_mapped_equalities(&self) -> Result<(), Mismatch> {
        let mut of: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
        for (&r, &r2) in &self.map {
            if r.is_obj() && r2.is_obj() {
                of.entry(r2).or_default().push(r);
            }
        }
        let need = |r: Ref, q: Ref, why: &dyn Fn() -> String| {
            if r == q || self.g.preds.may_equal(r, q) {
                return Ok(());
            }
            let at = |t: Ref| self.first.get(&t).map_or("?".into(), |&p| self.name(p));
            Err(self.explain.no('f', || {
                format!(
                    "{} at {} and {}, where s has {r} and {q} without {r}=?{q}",
                    why(),
                    at(r),
                    at(q)
                )
            }))
        };
        for (&x, rs) in &of {
            for (k, &r) in rs.iter().enumerate() {
                for &q in &rs[k + 1..] {
                    need(r, q, &|| format!("s' has {x}"))?;
                }
            }
        }
        for &(a, b) in &self.sp.preds.may_equal {
            for &r in of.get(&a).into_iter().flatten() {
                for &q in of.get(&b).into_iter().flatten() {
                    need(r, q, &|| format!("s' has {a}=?{b}"))?;
                }
            }
        }
        Ok(())
    }

    fn name(&self, id: usize) -> String {
        let mut steps = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            steps.push(&self.paths[c].step);
            cur = self.paths[c].parent;
        }
        let mut out = String::new();
        for s in steps.into_iter().rev() {
            let _ = match s {
                PathStep::Root(n) => write!(out, "{n}"),
                PathStep::Field(f) => write!(out, ".{f}"),
                PathStep::Len => write!(out, ".len"),
                PathStep::Elem(k) => write!(out, "[{k}]"),
            };
        }
        out
    }

    fn child(&mut self, parent: usize, step: PathStep<'a>) -> usize {
        self.paths.push(PathNode {
            parent: Some(parent),
            step,
        });
        self.paths.len() - 1
    }

    /// Pushes the child positions of `pos` that `s` realizes, once [`Self::values`] accepted
    /// it, so that they are popped in order.
    fn push_children(&mut self, pos: usize, r: Ref, r2: Ref, todo: &mut Vec<(usize, Ref, Ref)>) {
        let start = todo.len();
        match (self.g.value(r), self.sp.value(r2)) {
            (
                Some(HeapValue::Object { fields, .. }),
                Some(HeapValue::Object { fields: f2, .. }),
            ) => {
                for ((f, c), c2) in fields.iter().zip(f2.values()) {
                    let id = self.child(pos, PathStep::Field(f));
                    todo.push((id, *c, *c2));
                }
            }
            (
                Some(HeapValue::Array { len, elems, .. }),
                Some(HeapValue::Array {
                    len: len2,
                    elems: elems2,
                    ..
                }),
            ) => {
                let id = self.child(pos, PathStep::Len);
                todo.push((id, *len, *len2));
                if let (Some(e), Some(e2)) = (elems, elems2) {
                    for (k, (a, b)) in e.iter().zip(e2).enumerate() {
                        let id = self.child(pos, PathStep::Elem(k));
                        todo.push((id, *a, *b));
                    }
                }
            }
            _ => {}
        }
        todo[start..].reverse();
    }

    /// Checks (b)–(d) at one position (the children of a realized value are pushed by
    /// [`Self::push_children`]).
    fn values(&self, pos: usize, r: Ref, r2: Ref) -> Result<(), Mismatch> {
        let pos = || self.name(pos);
        if r.is_null() {
            return if r2.is_null() {
                Ok(())
            } else {
                Err(self
                    .explain
                    .no('c', || format!("{}: null in s, {r2} in s'", pos())))
            };
        }
        let Some(v) = self.g.value(r) else {
            return Err(self
                .explain
                .no('d', || format!("{}: {r} has no heap value in s", pos())));
        };
        let v2 = if r2.is_null() {
            None
        } else {
            match self.sp.value(r2) {
                Some(v2) => Some(v2),
                None => {
                    return Err(self
                        .explain
                        .no('d', || format!("{}: {r2} has no heap value in s'", pos())))
                }
            }
        };
        let shown = |v2: Option<&HeapValue>| v2.map_or("null".to_string(), |v| v.to_string());
        let sub =
            |v2: &HeapValue, ty: &str| v2.type_name().is_some_and(|t| self.types.is_subtype(t, ty));
        match v {
            HeapValue::Int(iv) => match v2 {
                Some(HeapValue::Int(iv2)) if iv2.is_subset_of(iv) => Ok(()),
                _ => Err(self.explain.no('b', || {
                    format!(
                        "{}: {r} is {iv} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Long(iv) => match v2 {
                Some(HeapValue::Long(iv2)) if iv2.is_subset_of(iv) => Ok(()),
                _ => Err(self.explain.no('b', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            // floats are coarse: any float is an instance of `float`; a literal only of itself
            HeapValue::Float(_) | HeapValue::Double(_) => match (v, v2) {
                (HeapValue::Float(None), Some(HeapValue::Float(_)))
                | (HeapValue::Double(None), Some(HeapValue::Double(_))) => Ok(()),
                (_, Some(v2)) if v2 == v => Ok(()),
                _ => Err(self.explain.no('b', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Unknown { ty } => match v2 {
                None => Ok(()),
                Some(v2) if !matches!(v2, HeapValue::Int(_)) && sub(v2, ty) => Ok(()),
                Some(v2) => Err(self.explain.no('d', || {
                    format!("{}: {r} is {v} in s, but {r2} is {v2} in s'", pos())
                })),
            },
            HeapValue::Abstract { ty } => match v2 {
                Some(v2)
                    if !matches!(v2, HeapValue::Int(_) | HeapValue::Unknown { .. })
                        && sub(v2, ty) =>
                {
                    Ok(())
                }
                _ => Err(self.explain.no('d', || {
                    format!(
                        "{}: {r} is {v} (exists) in s, but {r2} is {} in s'",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Object { class, fields } => match v2 {
                Some(HeapValue::Object {
                    class: c2,
                    fields: f2,
                }) if c2 == class && f2.keys().eq(fields.keys()) => Ok(()),
                _ => Err(self.explain.no('d', || {
                    format!(
                        "{}: {r} is {v} in s, but {r2} is {} in s' (needs the same class \
                         and fields)",
                        pos(),
                        shown(v2)
                    )
                })),
            },
            HeapValue::Array {
                ty, elems, exact, ..
            } => {
                let bad = || {
                    self.explain.no('d', || {
                        format!(
                            "{}: {r} is {v} in s, but {r2} is {} in s'",
                            pos(),
                            shown(v2)
                        )
                    })
                };
                let Some(
                    w2 @ HeapValue::Array {
                        ty: ty2,
                        elems: elems2,
                        exact: exact2,
                        ..
                    },
                ) = v2
                else {
                    return Err(bad());
                };
                // an exact array type admits only that type, known exactly
                if !sub(w2, ty) || (*exact && !(*exact2 && ty2 == ty)) {
                    return Err(bad());
                }
                match (elems, elems2) {
                    (None, _) => Ok(()),
                    (Some(e), Some(e2)) if e.len() == e2.len() => Ok(()),
                    _ => Err(bad()),
                }
            }
        }
    }
}
