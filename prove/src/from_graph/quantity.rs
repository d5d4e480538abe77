//! The integer quantities of one state (docs/proving.md, *From graphs to ITS*): its integer
//! references (ints and longs) that are not literals, and the *size* of every object reference
//! (spec §9, CAV'12 path-length abstraction), with the facts the state guarantees about them.

use crate::linexpr::{Constraint, LinExpr, Var};
use crate::q::Q;
use jtg_engine::state::{HeapValue, Ref, State};
use num_bigint::BigInt;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One variable of a location: the value of an integer reference, or the size of an object
/// reference (the number of objects reachable from it; `null` has size 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Quantity {
    Int(Ref),
    Size(Ref),
}

impl Quantity {
    pub fn reference(self) -> Ref {
        match self {
            Quantity::Int(r) | Quantity::Size(r) => r,
        }
    }
    /// The ITS variable name: `i3` for an integer, `sz_o2` for the size of `o2`.
    pub fn var_name(self) -> String {
        match self {
            Quantity::Int(r) => r.to_string(),
            Quantity::Size(r) => format!("sz_{r}"),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::Int(r) => write!(f, "{r}"),
            Quantity::Size(r) => write!(f, "|{r}|"),
        }
    }
}

/// The quantities of a state, in a fixed order (integers by reference, then sizes).
pub fn quantities(s: &State) -> Vec<Quantity> {
    let mut ints = Vec::new();
    let mut sizes = Vec::new();
    for (r, v) in &s.heap {
        match v {
            HeapValue::Int(i) | HeapValue::Long(i) if i.as_literal().is_none() => {
                ints.push(Quantity::Int(*r))
            }
            HeapValue::Int(_) | HeapValue::Long(_) | HeapValue::Float(_) | HeapValue::Double(_) => {
            }
            _ => sizes.push(Quantity::Size(*r)),
        }
    }
    ints.extend(sizes);
    ints
}

/// How the quantities of a state read: the expression of an integer reference (its literal or
/// its variable) and of the size of an object reference (`0` for null).
pub struct Slots<'a> {
    pub state: &'a State,
    pub vars: BTreeMap<Quantity, Var>,
}

impl Slots<'_> {
    /// The integer value of `r`: a literal, a variable, or `None` (not an integer here).
    pub fn int(&self, r: Ref) -> Option<LinExpr> {
        let i = self.state.integral(r)?;
        match i.as_literal() {
            Some(v) => Some(LinExpr::constant(Q::from(BigInt::from(v)))),
            None => self.vars.get(&Quantity::Int(r)).map(|v| LinExpr::var(*v)),
        }
    }
    /// The size of `r`: `0` for null, its variable for an object of the state.
    pub fn size(&self, r: Ref) -> Option<LinExpr> {
        if r.is_null() {
            return Some(LinExpr::zero());
        }
        self.vars.get(&Quantity::Size(r)).map(|v| LinExpr::var(*v))
    }
    pub fn of(&self, q: Quantity) -> Option<LinExpr> {
        match q {
            Quantity::Int(r) => self.int(r),
            Quantity::Size(r) => self.size(r),
        }
    }
}

/// The facts a state guarantees about its quantities (spec §2.1, §3):
/// * every integer lies in its interval;
/// * a size is `≥ 0`, and `≥ 1` for an object known to exist;
/// * a realized object `o` with a reference field (or array element) `r`, whose structure is
///   acyclic (no `⟲` on anything reachable from `o`, no realized cycle through it), is larger:
///   `|o| ≥ |r| + 1` — `r` cannot reach `o`, so everything reachable from `r` and `o` itself
///   are reachable from `o`.
pub fn facts(slots: &Slots<'_>) -> Vec<Constraint> {
    let s = slots.state;
    let mut out = Vec::new();
    for (q, v) in &slots.vars {
        let x = LinExpr::var(*v);
        match *q {
            Quantity::Int(r) => {
                if let Some(i) = s.integral(r) {
                    if let Some(lo) = i.lo {
                        out.push(Constraint::ge(&x, &LinExpr::constant(big(lo))));
                    }
                    if let Some(hi) = i.hi {
                        out.push(Constraint::le(&x, &LinExpr::constant(big(hi))));
                    }
                }
            }
            Quantity::Size(r) => {
                let exists = s.value(r).is_some_and(HeapValue::exists);
                let min = if exists { 1 } else { 0 };
                out.push(Constraint::ge(&x, &LinExpr::constant(Q::int(min))));
                if !exists || !acyclic_below(s, r) {
                    continue;
                }
                for child in children(s, r) {
                    if child.is_obj() {
                        if let Some(c) = slots.size(child) {
                            out.push(Constraint::ge(&x, &c.plus(&LinExpr::constant(Q::one()))));
                        }
                    }
                }
            }
        }
    }
    out
}

fn big(v: i128) -> Q {
    Q::from(BigInt::from(v))
}

/// The object references held by the fields or elements of `r` (integers excluded).
pub fn children(s: &State, r: Ref) -> Vec<Ref> {
    match s.value(r) {
        Some(HeapValue::Object { fields, .. }) => {
            fields.values().copied().filter(|c| !c.is_int()).collect()
        }
        Some(HeapValue::Array {
            elems: Some(elems), ..
        }) => elems.iter().copied().filter(|c| !c.is_int()).collect(),
        _ => Vec::new(),
    }
}

/// Whether every instance of `s` has an acyclic structure below `r`: nothing reachable from
/// `r` (realized fields) carries `⟲`, and the realized part has no cycle. Without `⟲` no
/// concrete instance may hide a cycle (spec §3, §4.2 (k), (m)).
pub fn acyclic_below(s: &State, r: Ref) -> bool {
    // depth-first with colours: a back edge is a realized cycle
    let mut state: BTreeMap<Ref, bool> = BTreeMap::new(); // false: on the stack, true: done
    let mut stack: Vec<(Ref, usize)> = vec![(r, 0)];
    state.insert(r, false);
    if s.preds.cyclic.contains_key(&r) {
        return false;
    }
    while let Some((x, k)) = stack.pop() {
        let kids = children(s, x);
        if k < kids.len() {
            stack.push((x, k + 1));
            let c = kids[k];
            if c.is_null() {
                continue;
            }
            match state.get(&c) {
                Some(false) => return false,
                Some(true) => {}
                None => {
                    if s.preds.cyclic.contains_key(&c) {
                        return false;
                    }
                    state.insert(c, false);
                    stack.push((c, 0));
                }
            }
        } else {
            state.insert(x, true);
        }
    }
    true
}

/// References of `s` whose structure may reach `target` (so a write into `target` may change
/// their size): `target`, what reaches it through realized fields, and what may be or share
/// with one of those (`=?`, `%$`: hidden paths, spec §3).
pub fn may_reach(s: &State, target: Ref) -> BTreeSet<Ref> {
    let mut set: BTreeSet<Ref> = BTreeSet::new();
    if target.is_null() {
        return set;
    }
    set.insert(target);
    loop {
        let mut added = false;
        for r in s.heap.keys() {
            if set.contains(r) {
                continue;
            }
            let reaches = children(s, *r).iter().any(|c| set.contains(c))
                || set
                    .iter()
                    .any(|t| s.preds.joins(*r, *t) || s.preds.may_equal(*r, *t));
            if reaches {
                set.insert(*r);
                added = true;
            }
        }
        if !added {
            return set;
        }
    }
}
