//! A cheap necessary condition for `s' ⊑ s`, so that the graph builder can skip most of the
//! full checks against the many states at one program position that are not generalizations.
//!
//! Every state gets two Bloom filters over *features* of its positions up to [`DEPTH`] steps
//! below a root: `have`, what holds at each position (null, an integer, a literal, a sign, an
//! existing object, a realized instance of class C, an array with n elements, ...), and
//! `need`, what any instance must have there (null where it has null, the same class where it
//! realizes an instance, nothing where it has an unknown object, ...). The controls of (a) that
//! must agree (stack heights, pending exceptions, known statics, end kind) are features too.
//!
//! If `s' ⊑ s`, every position that `s` realizes is realized alike in `s'` and its value in `s'`
//! is compatible with the one in `s` (the lock-step walk checks (b)–(d) at the first position
//! of every reference and the values below a reference depend only on the reference pair), so
//! every feature `s` needs is one `s'` has and `need(s) ⊆ have(s')` bit for bit. Hash
//! collisions only set more bits of `have`, so they can let a non-instance pass, never reject
//! an instance. When `s'` has more positions than [`MAX_POSITIONS`] within the depth, its
//! `have` would be incomplete and it admits everything.
//!
//! Beside the filters, a signature lists the interval of every integer within [`DEPTH`] that is
//! not an array element, keyed by its position: `s' ⊑ s` needs an integer at the same position
//! in `s'` whose interval is a subset ((b) holds at every position `s` realizes). States at one
//! loop head mostly differ in these intervals alone (a counter in a local, the `size` of a
//! list), which the filters cannot compare; array elements are many and left to the filters.
//! Two positions may share a key (a hash); a needed interval is then admitted by any interval
//! of `s'` under that key, so collisions only admit more.

use crate::state::{End, HeapValue, Interval, Ref, State};
use std::collections::VecDeque;

/// Steps below a root whose positions get features.
pub(super) const DEPTH: usize = 3;
/// Positions enumerated per state at most; beyond, `have` is not complete.
pub(super) const MAX_POSITIONS: usize = 1024;

/// The filters of a state, for [`Signature::admits`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Signature {
    need: Box<[u64]>,
    have: Box<[u64]>,
    /// `have` lists the features of every position within [`DEPTH`].
    complete: bool,
    /// The intervals of the integers within [`DEPTH`], by position key, sorted by key.
    ints: Box<[(u64, Interval)]>,
}

/// A Bloom filter width (in 64-bit words) for `n` features: 16 bits per feature, a power of
/// two between 256 and 16384 bits. Only signatures of one width are compared, so a caller
/// fixes the width per program position.
pub(crate) fn width_for(n: usize) -> usize {
    (n * 16).div_ceil(64).next_power_of_two().clamp(4, 256)
}

// Feature kinds; a feature is the hash of (position, kind, payload).
const NULL: u64 = 1;
const INT: u64 = 2;
const LIT: u64 = 3;
const NON_NEG: u64 = 4;
const POS: u64 = 5;
const NON_POS: u64 = 6;
const NEG: u64 = 7;
const EXISTS: u64 = 8;
const INSTANCE: u64 = 9;
const ARRAY: u64 = 10;
const ELEMS: u64 = 11;
const HEIGHT: u64 = 12;
const EXCEPTION: u64 = 13;
const STATIC: u64 = 14;
const END: u64 = 15;
const LONG: u64 = 16;
const FLOAT: u64 = 17;
const DOUBLE: u64 = 18;
const SET: u64 = 19;

// Position steps.
const LOCAL: u64 = 21;
const STACK: u64 = 22;
const EXC: u64 = 23;
const SF: u64 = 24;
const RESULT: u64 = 25;
const FIELD: u64 = 26;
const LEN: u64 = 27;
const ELEM: u64 = 28;

fn mix(h: u64, x: u64) -> u64 {
    // one round of a multiply-xorshift mixer (splitmix64's finalizer on h ^ x)
    let mut z = (h ^ x).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn mix_str(mut h: u64, s: &str) -> u64 {
    for chunk in s.as_bytes().chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = mix(h, u64::from_le_bytes(w));
    }
    mix(h, s.len() as u64)
}

/// Two bits per feature.
fn set(b: &mut [u64], feature: u64) {
    let mask = (b.len() * 64 - 1) as u64;
    for bit in [feature & mask, (feature >> 32) & mask] {
        b[(bit / 64) as usize] |= 1 << (bit % 64);
    }
}

#[derive(Default)]
struct Features {
    /// Features the state needs (and has).
    need: Vec<u64>,
    /// Features the state has but does not need.
    have: Vec<u64>,
}

impl Features {
    /// A feature `s` needs at `pos` and therefore also has.
    fn both(&mut self, pos: u64, kind: u64, payload: u64) {
        self.need.push(mix(mix(pos, kind), payload));
    }
    fn have(&mut self, pos: u64, kind: u64, payload: u64) {
        self.have.push(mix(mix(pos, kind), payload));
    }
}

impl Signature {
    /// The signature of `s`, with filters `width(number of features)` words wide (see
    /// [`width_for`]).
    pub(crate) fn of(s: &State, width: impl FnOnce(usize) -> usize) -> Signature {
        let mut f = Features::default();
        // (position key, reference, depth, whether the last step is an array element)
        let mut todo: VecDeque<(u64, Ref, usize, bool)> = VecDeque::new();
        let mut ints = Vec::new();
        for (idx, fr) in s.frames.iter().enumerate() {
            let frame = mix(0, idx as u64);
            f.both(frame, HEIGHT, fr.stack.len() as u64);
            f.both(frame, EXCEPTION, fr.exception.is_some() as u64);
            for (slot, r) in fr.locals.iter().enumerate() {
                if let Some(r) = *r {
                    let pos = mix(mix(frame, LOCAL), slot as u64);
                    // (a): a local `s` sets is set in every instance, whatever it holds
                    f.both(pos, SET, 0);
                    todo.push_back((pos, r, 0, false));
                }
            }
            for (b, r) in fr.stack.iter().enumerate() {
                todo.push_back((mix(mix(frame, STACK), b as u64), *r, 0, false));
            }
            if let Some(r) = fr.exception {
                todo.push_back((mix(frame, EXC), r, 0, false));
            }
        }
        for ((class, field), r) in &s.statics {
            let pos = mix_str(mix_str(SF, class), field);
            f.both(pos, STATIC, 0);
            todo.push_back((pos, *r, 0, false));
        }
        let end = match &s.end {
            None => 0,
            Some(End::Return(None)) => 1,
            Some(End::Return(Some(r))) => {
                todo.push_back((RESULT, *r, 0, false));
                2
            }
            Some(End::Throw(r)) => {
                todo.push_back((RESULT, *r, 0, false));
                3
            }
        };
        f.both(0, END, end);
        let mut complete = true;
        let mut seen = 0;
        // breadth first, so that a truncated `need` keeps the positions near the roots
        while let Some((pos, r, depth, elem)) = todo.pop_front() {
            seen += 1;
            if seen > MAX_POSITIONS {
                complete = false;
                break;
            }
            if r.is_null() {
                f.both(pos, NULL, 0);
                continue;
            }
            let Some(v) = s.value(r) else { continue };
            let below = depth < DEPTH;
            match v {
                HeapValue::Int(iv) => {
                    if iv.lo.zip(iv.hi).is_some_and(|(lo, hi)| lo > hi) {
                        complete = false; // empty: a subset of every interval
                    }
                    int_features(&mut f, pos, iv, INT);
                    // array elements only by their features: they are many and seldom differ
                    if !elem {
                        ints.push((pos, *iv));
                    }
                }
                HeapValue::Long(iv) => {
                    if iv.lo.zip(iv.hi).is_some_and(|(lo, hi)| lo > hi) {
                        complete = false;
                    }
                    int_features(&mut f, pos, iv, LONG);
                }
                HeapValue::Float(_) => f.both(pos, FLOAT, 0),
                HeapValue::Double(_) => f.both(pos, DOUBLE, 0),
                HeapValue::Unknown { .. } => {}
                HeapValue::Abstract { .. } => f.both(pos, EXISTS, 0),
                HeapValue::Object { class, fields } => {
                    f.have(pos, EXISTS, 0);
                    f.both(pos, INSTANCE, mix_str(0, class));
                    if below {
                        for (name, c) in fields {
                            todo.push_back((
                                mix_str(mix(pos, FIELD), name.as_str()),
                                *c,
                                depth + 1,
                                false,
                            ));
                        }
                    }
                }
                HeapValue::Array { len, elems, .. } => {
                    f.have(pos, EXISTS, 0);
                    f.both(pos, ARRAY, 0);
                    if let Some(e) = elems {
                        f.both(pos, ELEMS, e.len() as u64);
                    }
                    if below {
                        todo.push_back((mix(pos, LEN), *len, depth + 1, false));
                        for (k, c) in elems.iter().flatten().enumerate() {
                            todo.push_back((mix(mix(pos, ELEM), k as u64), *c, depth + 1, true));
                        }
                    }
                }
            }
        }
        let words = width(f.need.len() + f.have.len()).next_power_of_two();
        let mut need = vec![0; words].into_boxed_slice();
        let mut have = vec![0; words].into_boxed_slice();
        for &x in &f.need {
            set(&mut need, x);
            set(&mut have, x);
        }
        for &x in &f.have {
            set(&mut have, x);
        }
        ints.sort_unstable_by_key(|&(key, _)| key);
        Signature {
            need,
            have,
            complete,
            ints: ints.into_boxed_slice(),
        }
    }

    /// `false` only if `specific ⊑ self` is impossible.
    pub(crate) fn admits(&self, specific: &Signature) -> bool {
        !specific.complete
            || (self.ints_admit(specific)
                && (self.need.len() != specific.have.len()
                    || self
                        .need
                        .iter()
                        .zip(&specific.have)
                        .all(|(n, h)| n & !h == 0)))
    }

    /// Every integer of `self` has an integer of `specific` under its key with a subset interval
    /// (both lists are sorted by key, so one merge walk decides it).
    fn ints_admit(&self, specific: &Signature) -> bool {
        let theirs = &specific.ints;
        let mut from = 0;
        self.ints.iter().all(|&(key, iv)| {
            from += theirs[from..].partition_point(|&(k, _)| k < key);
            theirs[from..]
                .iter()
                .take_while(|&&(k, _)| k == key)
                .any(|(_, iv2)| iv2.is_subset_of(&iv))
        })
    }
}

/// Integer features: that it is one, its literal, and its sign where the bounds fix it. A
/// bound of `s` implies the same bound of every subset interval of `s'`.
fn int_features(f: &mut Features, pos: u64, iv: &Interval, kind: u64) {
    f.both(pos, kind, 0);
    if let Some(v) = iv.as_literal() {
        f.both(pos, LIT, v as u64 ^ (v >> 64) as u64);
    }
    for (holds, kind) in [
        (iv.lo.is_some_and(|l| l >= 0), NON_NEG),
        (iv.lo.is_some_and(|l| l >= 1), POS),
        (iv.hi.is_some_and(|h| h <= 0), NON_POS),
        (iv.hi.is_some_and(|h| h <= -1), NEG),
    ] {
        if holds {
            f.both(pos, kind, 0);
        }
    }
}
