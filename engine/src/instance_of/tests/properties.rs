//! Properties of the instance check on random states: reflexivity, renamings, and that the
//! signature filter never rejects an instance.

use super::{admits, get};
use crate::instance_of::is_instance;
use crate::state::{FieldKey, FieldSet, FlatTypes, Frame, HeapValue, Interval, Ref, State};
use quickcheck::{quickcheck, Arbitrary, Gen};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug)]
struct ArbState(State);

impl Arbitrary for ArbState {
    fn arbitrary(g: &mut Gen) -> ArbState {
        let mut s = State::default();
        let n_obj = usize::arbitrary(g) % 6;
        let n_int = usize::arbitrary(g) % 4;
        let ints: Vec<Ref> = (0..n_int)
            .map(|_| {
                let lo = i64::arbitrary(g) % 20;
                let iv = match u8::arbitrary(g) % 3 {
                    0 => Interval::TOP,
                    1 => Interval::literal(lo.into()),
                    _ => Interval::at_least(lo.into()),
                };
                s.new_int(iv)
            })
            .collect();
        let objs: Vec<Ref> = (0..n_obj).map(|_| s.fresh_obj()).collect();
        let pick = |g: &mut Gen| -> Ref {
            if objs.is_empty() || u8::arbitrary(g) % 4 == 0 {
                Ref::Null
            } else {
                objs[usize::arbitrary(g) % objs.len()]
            }
        };
        let int = |g: &mut Gen, s: &mut State| -> Ref {
            if ints.is_empty() || bool::arbitrary(g) {
                s.new_int(Interval::literal((u8::arbitrary(g) % 3).into()))
            } else {
                ints[usize::arbitrary(g) % ints.len()]
            }
        };
        for &o in &objs {
            let v = match u8::arbitrary(g) % 5 {
                0 => HeapValue::Unknown { ty: "List".into() },
                1 => HeapValue::Abstract { ty: "List".into() },
                2 => {
                    let len = int(g, &mut s);
                    let elems = bool::arbitrary(g).then(|| vec![int(g, &mut s)]);
                    HeapValue::array("[I".into(), len, elems, true)
                }
                3 => HeapValue::Object {
                    class: "Pair".into(),
                    fields: [
                        (FieldKey::plain("a"), pick(g)),
                        (FieldKey::plain("b"), pick(g)),
                    ]
                    .into(),
                },
                _ => HeapValue::Object {
                    class: "List".into(),
                    fields: [
                        (FieldKey::plain("next"), pick(g)),
                        (FieldKey::plain("val"), int(g, &mut s)),
                    ]
                    .into(),
                },
            };
            s.heap.insert(o, v);
        }
        let mut f = Frame::new(get(), 3);
        f.pc = u32::arbitrary(g) % 30;
        f.locals[0] = Some(pick(g));
        f.locals[1] = Some(pick(g));
        f.locals[2] = Some(int(g, &mut s));
        f.stack = (0..usize::arbitrary(g) % 3).map(|_| pick(g)).collect();
        s.frames.push(f);
        if objs.len() >= 2 {
            let (a, b) = (objs[0], objs[1]);
            let next: FieldSet = [FieldKey::plain("next")].into();
            if bool::arbitrary(g) {
                s.preds.add_may_equal(a, b);
                s.preds.add_join(a, b);
            }
            if bool::arbitrary(g) {
                s.preds.add_join(a, a);
                s.preds.add_non_tree(a);
            }
            if bool::arbitrary(g) {
                s.preds.add_cyclic(b, next.clone());
            }
            if bool::arbitrary(g) {
                s.preds.add_must_reach(b, next, a);
            }
        }
        s.gc();
        ArbState(s)
    }
}

/// Applies the reference bijection `sigma` to every part of the state.
fn rename_all(s: &State, sigma: &BTreeMap<Ref, Ref>) -> State {
    let mut out = s.clone();
    // via numbers far away, so that no intermediate name collides
    let far = |r: Ref| match r {
        Ref::Int(n) => Ref::Int(n + 100_000),
        Ref::Obj(n) => Ref::Obj(n + 100_000),
        Ref::Null => Ref::Null,
    };
    for step in [0, 1] {
        for (&from, &to) in sigma {
            let (from, to) = if step == 0 {
                (from, far(to))
            } else {
                (far(to), to)
            };
            let v = out.heap.remove(&from);
            out.rename(from, to);
            if let Some(mut v) = v {
                v.rename_children(from, to); // a field pointing to itself
                out.heap.insert(to, v);
            }
        }
    }
    out
}

/// A random bijection on the references of `s`, preserving their kind.
fn shuffle(s: &State, g: &mut Gen) -> BTreeMap<Ref, Ref> {
    let refs = s.all_refs();
    let mut sigma = BTreeMap::new();
    for kind in [true, false] {
        let from: Vec<Ref> = refs
            .iter()
            .copied()
            .filter(|r| r.is_int() == kind)
            .collect();
        let mut to = from.clone();
        for k in (1..to.len()).rev() {
            to.swap(k, usize::arbitrary(g) % (k + 1));
        }
        let shift = u32::from(u8::arbitrary(g) % 5);
        for (a, b) in from.into_iter().zip(to) {
            let b = match b {
                Ref::Int(n) => Ref::Int(n + shift),
                Ref::Obj(n) => Ref::Obj(n + shift),
                Ref::Null => Ref::Null,
            };
            sigma.insert(a, b);
        }
    }
    sigma
}

#[derive(Clone, Debug)]
struct Renamed(State, BTreeMap<Ref, Ref>);

impl Arbitrary for Renamed {
    fn arbitrary(g: &mut Gen) -> Renamed {
        let s = ArbState::arbitrary(g).0;
        let sigma = shuffle(&s, g);
        Renamed(s, sigma)
    }
}

#[derive(Clone, Debug)]
struct SamePosition(State, State);

impl Arbitrary for SamePosition {
    fn arbitrary(g: &mut Gen) -> SamePosition {
        let a = ArbState::arbitrary(g).0;
        let mut b = ArbState::arbitrary(g).0;
        b.frames[0].pc = a.frames[0].pc;
        b.frames[0].stack.truncate(a.frames[0].stack.len());
        while b.frames[0].stack.len() < a.frames[0].stack.len() {
            b.frames[0].stack.push(Ref::Null);
        }
        b.gc();
        SamePosition(a, b)
    }
}

quickcheck! {
    /// The signature never rejects an instance: among two random states and their merge,
    /// every instance the full check finds is admitted.
    fn signature_admits_every_instance(p: SamePosition) -> bool {
        let SamePosition(a, b) = p;
        let opts = crate::merge::MergeOptions::default();
        let mut states = vec![a.clone(), b.clone()];
        states.extend(crate::merge::merge(&a, &b, &FlatTypes, &opts).ok());
        for s in &states {
            for t in &states {
                if is_instance(s, t, &FlatTypes).is_ok() && !admits(t, s) {
                    panic!("the signature rejects an instance\n{s:?}\n⊑\n{t:?}");
                }
            }
        }
        true
    }

    fn signature_admits_renamings(r: Renamed) -> bool {
        let Renamed(s, sigma) = r;
        let t = rename_all(&s, &sigma);
        admits(&s, &t) && admits(&t, &s)
    }

    fn reflexive_with_identity_witness(s: ArbState) -> bool {
        let s = s.0;
        match is_instance(&s, &s, &FlatTypes) {
            Ok(w) => {
                let reach = s.reachable();
                w.map.iter().all(|(a, b)| a == b)
                    && w.map.keys().filter(|r| !r.is_null()).copied().collect::<BTreeSet<_>>() == reach
            }
            Err(m) => panic!("{m}\n{s:?}"),
        }
    }

    fn renaming_is_instance_both_ways(r: Renamed) -> bool {
        let Renamed(s, sigma) = r;
        let t = rename_all(&s, &sigma);
        let inverse: BTreeMap<Ref, Ref> = sigma.iter().map(|(a, b)| (*b, *a)).collect();
        let fwd = match is_instance(&t, &s, &FlatTypes) {
            Ok(w) => w,
            Err(m) => panic!("{m}\n{s:?}\n{t:?}\n{sigma:?}"),
        };
        let back = match is_instance(&s, &t, &FlatTypes) {
            Ok(w) => w,
            Err(m) => panic!("{m}"),
        };
        fwd.map.iter().all(|(a, b)| a.is_null() || sigma.get(a) == Some(b))
            && back.map.iter().all(|(a, b)| a.is_null() || inverse.get(a) == Some(b))
    }
}
