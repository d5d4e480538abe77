use super::*;
use crate::state::text::{parse_state, print_state, NoNames, TextContext};
use crate::state::{FieldKey, FieldSet, FlatTypes, Frame, MethodId, JAVA_MAX, JAVA_MIN};
use quickcheck::{quickcheck, Arbitrary, Gen};

fn get() -> MethodId {
    MethodId::new("List", "get", "(I)I")
}

fn ctx() -> TextContext<'static> {
    TextContext::for_method(get(), &NoNames)
}

fn st(text: &str) -> State {
    parse_state(text, &ctx()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn show(s: &State) -> String {
    print_state(s, &ctx())
}

fn hull() -> MergeOptions {
    MergeOptions::default()
}

fn widening(thresholds: Vec<i128>, sem: IntSemantics) -> MergeOptions {
    MergeOptions {
        widen: true,
        thresholds,
        sem,
    }
}

fn fields(f: &[&str]) -> FieldSet {
    f.iter().map(|s| FieldKey::plain(s)).collect()
}

const LIST_PREDS: &str = "o1=?o2  o1%$o2  o1⟲{next}  o2⟲{next}  o2→!{next}o1";

/// Thesis Fig. 2.13: B (`cur = this`) merged with F (`cur = this.next`) gives G.
#[test]
fn fig_2_13_list_get() {
    let b = st(&format!(
        "02 | l0: o1, l1: i1, l2: o1 | ε\n\
         o1: List(next=o2, val=i2)  o2: List(?)  i1: Z  i2: Z\n{LIST_PREDS}"
    ));
    let f = st(&format!(
        "02 | l0: o1, l1: i3, l2: o2 | ε\n\
         o1: List(next=o2, val=i2)  o2: List(?)  i2: Z  i3: Z\n{LIST_PREDS}"
    ));
    let g = merge(&b, &f, &FlatTypes, &hull()).expect("same program position");
    let text = show(&g);
    println!("{text}");
    // this = o1 stays a realized node with its successor o2; cur is the fresh List(?) o3; x is
    // a fresh Z. All three list references may be equal, may share, and lie on next-cycles
    // (⟲ implies ♦, and ♦ comes with a self-join); o2 reaches cur, and cur reaches this.
    assert_eq!(
        text,
        "02 | l0: o1, l1: i4, l2: o3 | ε\n\
         o1: List(next=o2, val=i2)  o2: List(?)  o3: List(?)  i2: Z  i4: Z\n\
         o1=?o2  o1=?o3  o2=?o3  \
         o1%$o1  o1%$o2  o1%$o3  o2%$o2  o2%$o3  o3%$o3  \
         o1♦  o2♦  o3♦  o1⟲{next}  o2⟲{next}  o3⟲{next}  \
         o2→!{next}o3  o3→!{next}o1"
    );
    check_instance(&b, &g);
    check_instance(&f, &g);
    // Merging G with itself, or with B again, changes nothing (up to names): the loop closes.
    assert_eq!(
        show(&merge(&g, &g, &FlatTypes, &hull()).expect("same pp")),
        text
    );
}

/// Thesis Fig. 2.11 (`contains`): the state after one iteration is a renaming of the start
/// state, and so is their merge.
#[test]
fn contains_loop_merge_is_a_renaming() {
    let ctx = TextContext::for_method(MethodId::new("List", "contains", "(LList;I)Z"), &NoNames);
    let a = parse_state("00 | l0: o1, l1: i1 | ε\no1: List(?)  i1: Z", &ctx).expect("parses");
    let i = parse_state("00 | l0: o3, l1: i1 | ε\no3: List(?)  i1: Z", &ctx).expect("parses");
    let m = merge(&a, &i, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(
        print_state(&m, &ctx),
        "00 | l0: o4, l1: i1 | ε\no4: List(?)  i1: Z"
    );
    let mut back = m.clone();
    back.rename(Ref::Obj(4), Ref::Obj(1));
    back.heap
        .insert(Ref::Obj(1), HeapValue::Unknown { ty: "List".into() });
    assert_eq!(back, a);
    // A state merged with itself is itself, names included.
    assert_eq!(merge(&a, &a, &FlatTypes, &hull()).expect("same pp"), a);
}

#[test]
fn integers_hull_widen_thresholds_java() {
    let iv = |lo: Option<i128>, hi: Option<i128>| Interval::new(lo, hi).expect("non-empty");
    let (a, b) = (iv(Some(0), Some(0)), iv(Some(1), Some(5)));
    let un = IntSemantics::Unbounded;
    assert_eq!(merge_interval(&a, &b, &hull()), iv(Some(0), Some(5)));
    // the upper bound moved and goes to +∞; the lower bound did not move and stays
    assert_eq!(
        merge_interval(&a, &b, &widening(vec![], un)),
        Interval::at_least(0)
    );
    // threshold: compared against 10, so the bound stops at the first candidate ≥ 5: 9
    assert_eq!(
        merge_interval(&a, &b, &widening(vec![10], un)),
        iv(Some(0), Some(9))
    );
    assert_eq!(
        merge_interval(&a, &iv(Some(-3), Some(0)), &widening(vec![-10, 10], un)),
        iv(Some(-9), Some(0))
    );
    // widening is directed: the older interval's bounds that the newer one exceeds move
    assert_eq!(
        merge_interval(&b, &a, &widening(vec![], un)),
        Interval::at_most(5)
    );
    // nothing moved: no widening at all
    assert_eq!(
        merge_interval(&b, &iv(Some(2), Some(3)), &widening(vec![], un)),
        b
    );
    // Java ints: infinity is the int range
    let java = widening(vec![], IntSemantics::Java);
    assert_eq!(merge_interval(&a, &b, &java), iv(Some(0), Some(JAVA_MAX)));
    assert_eq!(
        merge_interval(&a, &iv(Some(-1), Some(0)), &java),
        iv(Some(JAVA_MIN), Some(0))
    );
    // thresholds outside the int range are clamped away
    assert_eq!(
        merge_interval(&a, &b, &widening(vec![JAVA_MAX + 5], IntSemantics::Java)),
        iv(Some(0), Some(JAVA_MAX))
    );
    // longs: infinity is the 64-bit range, and a threshold beyond the int range is kept
    let lmax = Some(i128::from(i64::MAX));
    assert_eq!(merge_long_interval(&a, &b, &java), iv(Some(0), lmax));
    assert_eq!(
        merge_long_interval(&a, &b, &widening(vec![JAVA_MAX + 5], IntSemantics::Java)),
        iv(Some(0), Some(JAVA_MAX + 4))
    );
    assert_eq!(
        merge_long_interval(&a, &b, &widening(vec![], un)),
        Interval::at_least(0)
    );
}

/// Integers inside a state: equal intervals under different names still get a fresh
/// reference (so that `x == y` is not invented), and widening applies.
#[test]
fn integer_positions_in_states() {
    let a = st("02 | l0: i1, l1: i1 | ε\ni1: 0");
    let b = st("02 | l0: i1, l1: i2 | ε\ni1: 0  i2: 1");
    let m = merge(&a, &b, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(show(&m), "02 | l0: i1, l1: i3 | ε\ni1: 0  i3: [0,1]");
    let w = merge(
        &a,
        &b,
        &FlatTypes,
        &widening(vec![], IntSemantics::Unbounded),
    )
    .expect("same pp");
    assert_eq!(show(&w), "02 | l0: i1, l1: i3 | ε\ni1: 0  i3: [≥0]");
}

fn small_interval(lo: i8, w: u8, open: u8) -> Interval {
    let lo = i128::from(lo);
    let hi = lo + i128::from(w % 8);
    match open % 4 {
        0 => Interval::new(Some(lo), Some(hi)).unwrap_or(Interval::TOP),
        1 => Interval::at_least(lo),
        2 => Interval::at_most(hi),
        _ => Interval::literal(lo),
    }
}

quickcheck! {
    /// A chain `c_{k+1} = c_k ∇ x_k` contains every input, and without thresholds changes at
    /// most twice (each bound moves once, to infinity); with thresholds each bound passes each
    /// candidate at most once. So once a chain has widened twice it is stable.
    fn widening_chains_stabilize(seq: Vec<(i8, u8, u8)>, ts: Vec<i8>) -> bool {
        let ts: Vec<i128> = ts.into_iter().take(3).map(i128::from).collect();
        for thresholds in [vec![], ts.clone()] {
            let n_cands = 3 * thresholds.len();
            let opts = widening(thresholds, IntSemantics::Unbounded);
            let mut it = seq.iter().map(|&(l, w, o)| small_interval(l, w, o));
            let Some(mut c) = it.next() else { return true };
            let mut changes = 0;
            for x in it {
                let n = merge_interval(&c, &x, &opts);
                if !x.is_subset_of(&n) || !c.is_subset_of(&n) {
                    return false;
                }
                if n != c {
                    changes += 1;
                }
                // merging what is already covered is a no-op
                if merge_interval(&n, &x, &opts) != n {
                    return false;
                }
                c = n;
            }
            if changes > 2 * (n_cands + 1) {
                return false;
            }
            if n_cands == 0 && changes > 2 {
                return false;
            }
        }
        true
    }

    fn java_widening_stays_in_range(a: (i32, u8), b: (i32, u8)) -> bool {
        let iv = |(lo, w): (i32, u8)| {
            let lo = i128::from(lo);
            Interval::new(Some(lo), Some((lo + i128::from(w)).min(JAVA_MAX))).unwrap_or(Interval::TOP)
        };
        let java = Interval::most_general(IntSemantics::Java);
        let (x, y) = (iv(a), iv(b));
        [hull(), widening(vec![], IntSemantics::Java), widening(vec![0, 100], IntSemantics::Java)]
            .iter()
            .all(|o| {
                let o = MergeOptions { sem: IntSemantics::Java, ..o.clone() };
                let m = merge_interval(&x, &y, &o);
                m.is_subset_of(&java) && x.is_subset_of(&m) && y.is_subset_of(&m)
            })
    }
}

/// A realized 2-cycle merged with an acyclic list: the merge does not realize the cycle, so
/// the references on it get ♦, ⟲{next} and a self-join, and the root may equal the abstracted
/// end of the path.
#[test]
fn realized_cycle_becomes_predicates() {
    let a = st("02 | l0: o1 | ε\n\
                o1: List(next=o2, val=i1)  o2: List(next=o1, val=i2)  i1: Z  i2: Z");
    let b = st("02 | l0: o1 | ε\n\
                o1: List(next=o2, val=i1)  o2: List(next=null, val=i2)  i1: Z  i2: Z");
    let c = merge(&a, &b, &FlatTypes, &hull()).expect("same pp");
    println!("{}", show(&c));
    let root = c.frames[0].locals[0].expect("l0 is set");
    let Some(HeapValue::Object { fields: f1, .. }) = c.value(root) else {
        panic!("root stays realized: {}", show(&c))
    };
    let second = f1["next"];
    let Some(HeapValue::Object { fields: f2, .. }) = c.value(second) else {
        panic!("second node stays realized: {}", show(&c))
    };
    let third = f2["next"];
    assert_eq!(
        c.value(third),
        Some(&HeapValue::Unknown { ty: "List".into() }),
        "(o1, null) is a fresh List(?)"
    );
    for r in [root, second, third] {
        assert!(c.preds.is_non_tree(r), "{r}♦");
        assert_eq!(c.preds.cyclic(r), Some(&fields(&["next"])), "{r}⟲{{next}}");
        assert!(c.preds.joins(r, r), "{r}%${r}");
    }
    assert!(
        c.preds.may_equal(root, third),
        "A's cycle closes at the root"
    );
    check_instance(&a, &c);
    check_instance(&b, &c);
    // A cycle both inputs realize stays realized, and needs no predicate.
    assert_eq!(merge(&a, &a, &FlatTypes, &hull()).expect("same pp"), a);
}

/// (l): sharing realized in one input below a realized node of the merge that the merge does
/// not realize becomes ♦ (and the self-join) on that node.
#[test]
fn realized_dag_becomes_non_tree() {
    let a = st("02 | l0: o1 | ε\no1: Pair(l=o2, r=o2)  o2: List(?)");
    let b = st("02 | l0: o1 | ε\no1: Pair(l=o2, r=o3)  o2: List(?)  o3: List(?)");
    let c = merge(&a, &b, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(
        show(&c),
        "02 | l0: o4 | ε\n\
         o2: List(?)  o4: Pair(l=o2, r=o5)  o5: List(?)\n\
         o2=?o5  o4%$o4  o4♦"
    );
    check_instance(&a, &c);
    check_instance(&b, &c);
}

/// The finiteness rule: a reference already realized with one partner is abstracted when it
/// meets another, so the realized part of the merge is bounded by the inputs'.
#[test]
fn forced_abstraction_bounds_the_realized_part() {
    let a = st("02 | l0: o1 | ε\n\
                o1: List(next=o2, val=i1)  o2: List(next=o1, val=i1)  i1: Z");
    let b = st("02 | l0: o1 | ε\n\
                o1: List(next=o2, val=i1)  o2: List(next=o3, val=i1)  \
                o3: List(next=null, val=i1)  i1: Z");
    let c = merge(&a, &b, &FlatTypes, &hull()).expect("same pp");
    println!("{}", show(&c));
    let realized = c
        .heap
        .values()
        .filter(|v| matches!(v, HeapValue::Object { .. }))
        .count();
    assert_eq!(realized, 2, "{}", show(&c));
    assert!(
        c.heap
            .values()
            .any(|v| v == &HeapValue::Abstract { ty: "List".into() }),
        "(o1, o3) is abstracted to List(…): {}",
        show(&c)
    );
    check_instance(&a, &c);
    check_instance(&b, &c);
}

#[test]
fn incompatible_states_are_rejected() {
    let a = st("02 | l0: o1 | ε\no1: List(?)");
    for other in [
        "03 | l0: o1 | ε\no1: List(?)",
        "02 | l0: o1 | o1\no1: List(?)",
        "02 | l0: o1 | ε | exc: o1\no1: List(?)",
        "02 | l0: i1 | ε\ni1: Z",
        "List.get(I)I 02 | l0: o1 | ε\nList.size()I 00 | ε | ε\no1: List(?)",
    ] {
        let b = st(other);
        let e = merge(&a, &b, &FlatTypes, &hull()).expect_err(other);
        assert!(
            e.to_string()
                .starts_with("cannot merge states at different program positions"),
            "{e}"
        );
    }
    let end1 = st("end: return i1\ni1: 1");
    let end2 = st("end: return i1\ni1: 2");
    let m = merge(&end1, &end2, &FlatTypes, &hull()).expect("both return");
    assert_eq!(show(&m), "end: return i2\ni2: [1,2]");
    assert!(merge(&end1, &st("end: return"), &FlatTypes, &hull()).is_err());
}

#[test]
fn arrays_merge_lengths_and_elements() {
    let a = st("02 | l0: o1 | ε\no1: int[](len=i1)[i2, i3]  i1: 2  i2: 0  i3: 5");
    let b = st("02 | l0: o1 | ε\no1: int[](len=i1)[i2, i2]  i1: 2  i2: 1");
    // contents one state changed: an abstract array of the merged length
    let m = merge(&a, &b, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(show(&m), "02 | l0: o2 | ε\no2: int[](len=i1)  i1: 2");
    // contents neither changed (the same references): they stay concrete
    let a2 = st("02 | l0: o1, l1: i4 | ε\no1: int[](len=i1)[i2, i3]  i1: 2  i2: 0  i3: 5  i4: 1");
    let b2 = st("02 | l0: o1, l1: i4 | ε\no1: int[](len=i1)[i2, i3]  i1: 2  i2: 0  i3: 5  i4: 2");
    let m = merge(&a2, &b2, &FlatTypes, &hull()).expect("same pp");
    assert!(
        show(&m).contains("int[](len=i1)[i2, i3]"),
        "unchanged contents stay concrete: {}",
        show(&m)
    );
    let c = st("02 | l0: o1 | ε\no1: int[](len=i1)[i2]  i1: 1  i2: 1");
    let m = merge(&a, &c, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(show(&m), "02 | l0: o2 | ε\no2: int[](len=i4)  i4: [1,2]");
    let o = st("02 | l0: o1 | ε\no1: List(?)");
    let m = merge(&a, &o, &FlatTypes, &hull()).expect("same pp");
    assert_eq!(show(&m), "02 | l0: o2 | ε\no2: java.lang.Object(?)");
}

/// Reachability of `to` from `from` along F in `s`, as in the instance relation's (n).
fn holds_in(s: &State, from: Ref, f: &FieldSet, to: Ref) -> bool {
    crate::state::access::provably_reaches(&s.heap, &s.preds.must_reach, None, from, f, to)
}

/// A structural check of `specific ⊑ general` (spec §4.2 (a)–(f), (n)) for the tests, until
/// the engine's instance relation is available: walks both states in lock step over the
/// positions realized in `general`.
fn check_instance(specific: &State, general: &State) {
    let ctx_text = format!("{}\n  ⋢\n{}", show(specific), show(general));
    assert_eq!(
        specific.frames.len(),
        general.frames.len(),
        "(a) {ctx_text}"
    );
    let mut m: BTreeMap<Ref, Ref> = BTreeMap::new();
    let mut todo: Vec<(Ref, Ref)> = Vec::new();
    for (fs, fg) in specific.frames.iter().zip(&general.frames) {
        assert_eq!((&fs.method, fs.pc), (&fg.method, fg.pc), "(a) {ctx_text}");
        for (ls, lg) in fs.locals.iter().zip(&fg.locals) {
            if let (Some(s), Some(g)) = (ls, lg) {
                todo.push((*s, *g));
            } else {
                assert!(
                    lg.is_none(),
                    "(a) general sets a slot specific leaves unset"
                );
            }
        }
        todo.extend(fs.stack.iter().copied().zip(fg.stack.iter().copied()));
    }
    while let Some((s, g)) = todo.pop() {
        if let Some(&prev) = m.get(&g) {
            assert_eq!(prev, s, "(e) {g} stands for {prev} and {s}: {ctx_text}");
            continue;
        }
        m.insert(g, s);
        if g.is_null() {
            assert!(s.is_null(), "(c) {ctx_text}");
            continue;
        }
        let gv = general.value(g).expect("general is well-formed");
        let sv = specific.value(s);
        match gv {
            HeapValue::Int(gi) => {
                let si = sv.and_then(HeapValue::as_int).expect("(b) an integer");
                assert!(si.is_subset_of(gi), "(b) {s} ⊄ {g}: {ctx_text}");
            }
            HeapValue::Long(gi) => {
                let Some(HeapValue::Long(si)) = sv else {
                    panic!("(b) {s} must be a long: {ctx_text}")
                };
                assert!(si.is_subset_of(gi), "(b) {s} ⊄ {g}: {ctx_text}");
            }
            HeapValue::Float(_) | HeapValue::Double(_) => {
                assert_eq!(sv, Some(gv), "(b) {s} must be a {gv}: {ctx_text}");
            }
            HeapValue::Unknown { ty } => {
                if let Some(t) = sv.and_then(HeapValue::type_name) {
                    assert!(FlatTypes.is_subtype(t, ty), "(d) {ctx_text}");
                }
            }
            HeapValue::Abstract { ty } => {
                let sv = sv.expect("(d) exists");
                assert!(sv.exists(), "(d) {s} must exist: {ctx_text}");
                let t = sv.type_name().expect("object");
                assert!(FlatTypes.is_subtype(t, ty), "(d) {ctx_text}");
            }
            HeapValue::Object { class, fields } => {
                let Some(HeapValue::Object {
                    class: c2,
                    fields: f2,
                }) = sv
                else {
                    panic!("(d) {s} must be a realized {class}: {ctx_text}")
                };
                assert_eq!(class, c2, "(d) {ctx_text}");
                for (f, r) in fields {
                    todo.push((f2[f], *r));
                }
            }
            HeapValue::Array {
                ty,
                len,
                elems,
                exact,
            } => {
                let Some(HeapValue::Array {
                    ty: t2,
                    len: l2,
                    elems: e2,
                    exact: x2,
                }) = sv
                else {
                    panic!("(d) {s} must be an array: {ctx_text}")
                };
                assert_eq!(ty, t2, "(d)");
                assert!(!exact || *x2, "(d) an exact array stays exact: {ctx_text}");
                todo.push((*l2, *len));
                if let Some(e) = elems {
                    let e2 = e2.as_ref().expect("(d) concrete");
                    assert_eq!(e.len(), e2.len(), "(d)");
                    todo.extend(e2.iter().copied().zip(e.iter().copied()));
                }
            }
        }
    }
    // (f) at realized positions: equal or `=?` in the instance needs equal or `=?` here.
    let objs: Vec<(Ref, Ref)> = m
        .iter()
        .filter(|(g, s)| g.is_obj() && s.is_obj())
        .map(|(g, s)| (*g, *s))
        .collect();
    for (i, &(g1, s1)) in objs.iter().enumerate() {
        for &(g2, s2) in &objs[i + 1..] {
            if s1 == s2 || specific.preds.may_equal(s1, s2) {
                assert!(
                    general.preds.may_equal(g1, g2),
                    "(f) {g1} =? {g2} missing: {ctx_text}"
                );
            }
        }
    }
    // (h, i), (j), (k) at realized positions: the instance's permissions are kept.
    let mut pos_of: BTreeMap<Ref, Vec<Ref>> = BTreeMap::new();
    for (&g, &s) in &m {
        pos_of.entry(s).or_default().push(g);
    }
    let none = Vec::new();
    for &(x, y) in &specific.preds.joins {
        for &g1 in pos_of.get(&x).unwrap_or(&none) {
            for &g2 in pos_of.get(&y).unwrap_or(&none) {
                assert!(general.preds.joins(g1, g2), "(h) {g1}%${g2}: {ctx_text}");
            }
        }
    }
    for (s, gs) in &pos_of {
        for &g in gs {
            if specific.preds.is_non_tree(*s) {
                assert!(general.preds.is_non_tree(g), "(j) {g}♦: {ctx_text}");
            }
            if let Some(f) = specific.preds.cyclic(*s) {
                let gf = general.preds.cyclic(g);
                assert!(gf.is_some_and(|gf| gf.is_subset(f)), "(k) {g}⟲: {ctx_text}");
            }
        }
    }
    // (n) must-reach facts of the general state hold in the instance.
    for mr in &general.preds.must_reach {
        let (from, to) = (m[&mr.from], m[&mr.to]);
        assert!(
            holds_in(specific, from, &mr.fields, to),
            "(n) {}→!{:?}{}: {ctx_text}",
            mr.from,
            mr.fields,
            mr.to
        );
    }
}

/// Pairs of small random states at the same program position, for the merge property.
#[derive(Clone, Debug)]
struct Pair(State, State);

fn random_state(g: &mut Gen) -> State {
    let mut s = State::default();
    let n = 1 + usize::arbitrary(g) % 4;
    let objs: Vec<Ref> = (0..n).map(|_| s.fresh_obj()).collect();
    let pick = |g: &mut Gen| -> Ref {
        if u8::arbitrary(g) % 4 == 0 {
            Ref::Null
        } else {
            objs[usize::arbitrary(g) % objs.len()]
        }
    };
    for &o in &objs {
        let v = match u8::arbitrary(g) % 4 {
            0 => HeapValue::Unknown { ty: "List".into() },
            1 => HeapValue::Abstract { ty: "List".into() },
            _ => {
                let val = s.new_int(small_interval(
                    i8::arbitrary(g),
                    u8::arbitrary(g),
                    u8::arbitrary(g),
                ));
                HeapValue::Object {
                    class: "List".into(),
                    fields: [
                        (FieldKey::plain("next"), pick(g)),
                        (FieldKey::plain("val"), val),
                    ]
                    .into(),
                }
            }
        };
        s.heap.insert(o, v);
    }
    let mut f = Frame::new(get(), 3);
    f.pc = 2;
    f.locals[0] = Some(pick(g));
    f.locals[1] = Some(s.new_int(small_interval(
        i8::arbitrary(g),
        u8::arbitrary(g),
        u8::arbitrary(g),
    )));
    f.locals[2] = Some(pick(g));
    s.frames.push(f);
    let next = fields(&["next"]);
    for _ in 0..usize::arbitrary(g) % 3 {
        let (x, y) = (objs[usize::arbitrary(g) % n], objs[usize::arbitrary(g) % n]);
        match u8::arbitrary(g) % 4 {
            0 if !matches!(s.value(x), Some(HeapValue::Object { .. }))
                || !matches!(s.value(y), Some(HeapValue::Object { .. })) =>
            {
                s.preds.add_may_equal(x, y)
            }
            1 => s.preds.add_join(x, y),
            2 => {
                s.preds.add_cyclic(x, next.clone());
                s.preds.add_non_tree(x);
            }
            // a must-reach only where it is true, so the input is consistent
            _ if x != y && holds_in(&s, x, &next, y) => s.preds.add_must_reach(x, next.clone(), y),
            _ => {}
        }
    }
    s.gc();
    s
}

impl Arbitrary for Pair {
    fn arbitrary(g: &mut Gen) -> Pair {
        Pair(random_state(g), random_state(g))
    }
}

quickcheck! {
    /// Both inputs are instances of their merge (structural facts (a)–(f), (n)), the merge is
    /// well-formed and garbage-collected, and re-merging an input into it is stable.
    fn merge_generalizes_both(p: Pair, widen: bool) -> bool {
        let opts = MergeOptions { widen, ..MergeOptions::default() };
        let c = merge(&p.0, &p.1, &FlatTypes, &opts).expect("same pp");
        c.validate().expect("well-formed");
        let mut gc = c.clone();
        gc.gc();
        assert_eq!(gc, c, "garbage-collected");
        check_instance(&p.0, &c);
        check_instance(&p.1, &c);
        for s in [&p.0, &p.1] {
            let again = merge(&c, s, &FlatTypes, &opts).expect("same pp");
            if again.heap.len() != c.heap.len() || again.preds.items().len() != c.preds.items().len() {
                panic!("unstable:\n{}\n+\n{}\n=\n{}", show(&c), show(s), show(&again));
            }
        }
        true
    }
}
