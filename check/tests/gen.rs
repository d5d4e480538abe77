//! `jtg_check::gen`: random concrete instances of start states (`make fixtures` first).

mod common;
use common::{fixtures, suite, SuiteEntry};

use jtg_check::concrete::state_to_input;
use jtg_check::gen::qc::{with_space, Input, Space};
use jtg_check::gen::{
    size_bound, Family, GenConfig, Generator, Stats, DEFAULT_MAX_SIZE, SMALL_SIZE,
};
use jtg_engine::class::ClassPath;
use jtg_engine::instance_of::is_instance;
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{HeapValue, IntSemantics, MethodId, Ref, State, JAVA_MAX, JAVA_MIN};
use jtg_engine::Program;
use jtg_jvm::ASSERTIONS_DISABLED;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

fn repo() -> PathBuf {
    jtg_testkit::repo_dir()
}

fn program() -> Program {
    Program::new(ClassPath::from_paths(&[fixtures()]).expect("fixture class path"))
}

fn start(prog: &Program, m: &MethodId, file: Option<&str>, sem: IntSemantics) -> State {
    match file {
        None => prog.default_start(m, sem).expect("default start"),
        Some(f) => parse_text(prog, m, &read_start(f)),
    }
}

fn read_start(f: &str) -> String {
    std::fs::read_to_string(repo().join("java-fixtures/start").join(f)).expect("start file")
}

fn parse_text(prog: &Program, m: &MethodId, text: &str) -> State {
    parse_state(text, &TextContext::for_method(m.clone(), prog)).expect("start state parses")
}

fn arg_slots(prog: &Program, m: &MethodId) -> Vec<usize> {
    let method = prog.method(m).expect("method");
    jtg_check::concrete::arg_slots(method.is_static, &method.desc.params)
}

fn cfg(seed: u64) -> GenConfig {
    GenConfig {
        seed,
        ..GenConfig::default()
    }
}

/// Sizes seen per part of the size schedule: case `k` is small (sizes up to [`SMALL_SIZE`]) or
/// large (up to [`DEFAULT_MAX_SIZE`]) by [`size_bound`].
#[derive(Default)]
struct SizesSeen {
    small: BTreeSet<usize>,
    large: BTreeSet<usize>,
}

impl SizesSeen {
    fn record(&mut self, k: u64, size: usize) {
        if size_bound(k, DEFAULT_MAX_SIZE) == SMALL_SIZE {
            self.small.insert(size);
        } else {
            self.large.insert(size);
        }
    }

    /// The small cases give exactly `small`; the large ones exceed twice the small bound
    /// somewhere and never the default maximum.
    fn assert_schedule(&self, small: std::ops::RangeInclusive<usize>, what: &str) {
        assert_eq!(
            self.small,
            small.clone().collect(),
            "{what} {small:?} in the small cases"
        );
        let large = &self.large;
        assert!(
            large.iter().any(|n| *n > 2 * SMALL_SIZE)
                && large.iter().all(|n| *n <= DEFAULT_MAX_SIZE),
            "large cases: {large:?}"
        );
    }
}

fn stats(gen: &Generator<'_>, n: u64) -> Stats {
    let mut st = Stats::default();
    for k in 0..n {
        st.add(&gen.case(k).expect("sample"));
    }
    st
}

/// The objects reachable from local `slot` along `field`, until null or a repeat; and where
/// the walk ended (`None`: null).
fn walk(st: &State, slot: usize, field: &str) -> (Vec<Ref>, Option<Ref>) {
    let mut seen = vec![];
    let mut cur = st.frames[0].locals[slot].expect("local");
    while cur.is_obj() && !seen.contains(&cur) {
        seen.push(cur);
        cur = match st.value(cur) {
            Some(HeapValue::Object { fields, .. }) => fields[field],
            _ => Ref::Null,
        };
    }
    let end = cur.is_obj().then_some(cur);
    (seen, end)
}

#[test]
fn gen_every_sample_is_an_instance_over_the_suite() {
    let prog = program();
    let mut total = 0;
    let mut disabled = 0;
    for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
        for SuiteEntry {
            method,
            start: file,
        } in suite()
        {
            let m = prog.find_method(&method).expect("suite method");
            let s = start(&prog, &m, file.as_deref(), sem);
            let gen = Generator::new(
                &prog,
                &m,
                &s,
                GenConfig {
                    seed: 7,
                    max_size: 6,
                    ints: sem,
                },
            )
            .expect("generator");
            for k in 0..200 {
                let sample = gen.case(k).unwrap_or_else(|e| panic!("{method}: {e}"));
                let c = &sample.state;
                assert!(c.preds.is_empty(), "{method}: predicates in a sample");
                // the assertion status the generator adds where `s` leaves it unlisted (module
                // docs, *Assertions*): the engine gives an unlisted static its most general
                // value at the first read, and its `⊑` wants `s` to list what `c` knows
                let mut listed = c.clone();
                listed
                    .statics
                    .retain(|k, _| k.1 != ASSERTIONS_DISABLED || s.statics.contains_key(k));
                disabled += usize::from(listed.statics.len() < c.statics.len());
                if let Err(e) = is_instance(&listed, &s, &prog) {
                    panic!(
                        "{method} case {k}: not an instance ({e}):\n{}",
                        gen.print(c)
                    );
                }
                let input = state_to_input(c, &arg_slots(&prog, &m))
                    .unwrap_or_else(|e| panic!("{method} case {k}: {e}\n{}", gen.print(c)));
                assert_eq!(input.args.len(), arg_slots(&prog, &m).len());
                for v in c.heap.values() {
                    if let HeapValue::Int(iv) = v {
                        let x = iv.as_literal().expect("literal ints only");
                        assert!((JAVA_MIN..=JAVA_MAX).contains(&x), "{x} is no Java int");
                    }
                }
                total += 1;
            }
        }
    }
    assert!(total >= 5_000, "only {total} samples");
    // every fourth case of a class with `assert` (Lib: 5 entries, 200 cases, 2 semantics)
    assert_eq!(disabled, 5 * 50 * 2, "cases with assertions disabled");
}

#[test]
fn gen_list_get_cyclic_gives_only_cycles_back_to_this() {
    let prog = program();
    let m = prog.find_method("List.get").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.get.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(3)).expect("generator");
    let mut sizes = SizesSeen::default();
    for k in 0..2_000 {
        let c = gen.case(k).expect("sample").state;
        let (nodes, end) = walk(&c, 0, "next");
        assert_eq!(
            end,
            Some(nodes[0]),
            "case {k} does not return to this:\n{}",
            gen.print(&c)
        );
        sizes.record(k, nodes.len());
    }
    sizes.assert_schedule(1..=SMALL_SIZE, "every cycle length");
    let st = stats(&gen, 10_000);
    assert_eq!(st.count(Family::Cyclic), 10_000, "{st}");
}

#[test]
fn gen_contains_default_gives_null_and_acyclic_lists_only() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let s = start(&prog, &m, None, IntSemantics::Unbounded);
    let gen = Generator::new(&prog, &m, &s, cfg(4)).expect("generator");
    let st = stats(&gen, 10_000);
    let seen: Vec<Family> = st.counts.keys().copied().collect();
    assert_eq!(seen, vec![Family::Null, Family::Acyclic], "{st}");
    for f in &seen {
        assert!(st.percent(*f) >= 5.0, "{st}");
    }
    let mut sizes = SizesSeen::default();
    for k in 0..1_000 {
        let c = gen.case(k).expect("sample").state;
        let (nodes, end) = walk(&c, 0, "next");
        assert_eq!(end, None, "a cycle in a tree-only start state");
        sizes.record(k, nodes.len());
    }
    sizes.assert_schedule(0..=SMALL_SIZE, "list lengths");
}

#[test]
fn gen_contains_cyclic_gives_every_list_shape() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.contains.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(5)).expect("generator");
    let st = stats(&gen, 10_000);
    for f in [
        Family::Null,
        Family::Acyclic,
        Family::Cyclic,
        Family::Panhandle,
    ] {
        assert!(st.percent(f) >= 5.0, "{f:?} below 5 %:\n{st}");
    }
    for f in [
        Family::Dag,
        Family::SharedTail,
        Family::Aliased,
        Family::Tree,
    ] {
        assert_eq!(st.count(f), 0, "{f:?} is impossible for one list:\n{st}");
    }
}

#[test]
fn gen_is_deterministic_in_seed_and_case() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.contains.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let a = Generator::new(&prog, &m, &s, cfg(11)).expect("generator");
    let b = Generator::new(&prog, &m, &s, cfg(11)).expect("generator");
    let c = Generator::new(&prog, &m, &s, cfg(12)).expect("generator");
    let texts = |g: &Generator<'_>, ks: &[u64]| -> Vec<String> {
        ks.iter()
            .map(|k| g.print(&g.case(*k).expect("sample").state))
            .collect()
    };
    let ks = [5, 0, 99, 3];
    assert_eq!(texts(&a, &ks), texts(&b, &ks));
    // Case k does not depend on the cases drawn before it.
    assert_eq!(texts(&a, &[99]), texts(&b, &ks)[2..3].to_vec());
    assert_ne!(
        texts(&a, &ks),
        texts(&c, &ks),
        "another seed, other samples"
    );
}

/// Greedy shrinking with the generator's candidates, as quickcheck does.
fn shrink_while(gen: &Generator<'_>, mut c: State, fails: impl Fn(&State) -> bool) -> State {
    'outer: loop {
        for cand in gen.shrink(&c) {
            assert!(is_instance(&cand, gen.start(), gen.program()).is_ok());
            if fails(&cand) {
                c = cand;
                continue 'outer;
            }
        }
        return c;
    }
}

/// Length of the cycle a `next`-walk from local 0 ends in (0 if none).
fn cycle_len(st: &State) -> usize {
    let (nodes, end) = walk(st, 0, "next");
    match end {
        Some(e) => nodes.len() - nodes.iter().position(|n| *n == e).unwrap_or(0),
        None => 0,
    }
}

#[test]
fn gen_shrinks_a_long_cycle_to_exactly_a_three_cycle() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.contains.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(6)).expect("generator");
    let fails = |st: &State| cycle_len(st) >= 3;
    let mut shrunk = 0;
    for k in 0..500 {
        if shrunk == 25 {
            break;
        }
        let c = gen.case(k).expect("sample").state;
        if !fails(&c) || c.heap.values().filter(|v| v.type_name().is_some()).count() < 5 {
            continue;
        }
        let min = shrink_while(&gen, c, fails);
        let objects = min
            .heap
            .values()
            .filter(|v| v.type_name().is_some())
            .count();
        assert_eq!(cycle_len(&min), 3, "\n{}", gen.print(&min));
        assert_eq!(
            objects,
            3,
            "exactly a 3-cycle, no tail:\n{}",
            gen.print(&min)
        );
        assert!(
            min.heap
                .values()
                .filter_map(|v| v.as_int())
                .all(|iv| iv.as_literal() == Some(0)),
            "ints shrink to 0:\n{}",
            gen.print(&min)
        );
        shrunk += 1;
    }
    assert!(shrunk == 25, "only {shrunk} long cycles shrunk");
}

#[test]
fn gen_shrink_candidates_stay_inside_the_start_state() {
    let prog = program();
    let m = prog.find_method("List.get").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.get.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(8)).expect("generator");
    let mut n = 0;
    for k in 0..200 {
        let c = gen.case(k).expect("sample").state;
        for cand in gen.shrink(&c) {
            assert!(is_instance(&cand, &s, &prog).is_ok());
            let (nodes, end) = walk(&cand, 0, "next");
            assert_eq!(end, Some(nodes[0]), "a shrink left the cyclic shape");
            n += 1;
        }
    }
    assert!(n > 200, "only {n} candidates");
}

#[test]
fn gen_quickcheck_finds_and_shrinks_inside_the_start_state() {
    let prog = Arc::new(program());
    let m = prog.find_method("List.contains").expect("method");
    let s = start(
        &prog,
        &m,
        Some("List.contains.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let space = Arc::new(Space::new(prog, m, s, cfg(9)).expect("space"));
    let holds = |i: Input| is_instance(i.state(), i.space().start(), i.space().program()).is_ok();
    let ok = with_space(space.clone(), || {
        quickcheck::QuickCheck::new()
            .tests(300)
            .quicktest(holds as fn(Input) -> bool)
    });
    assert!(ok.is_ok(), "every arbitrary input is an instance");
    let no_long_cycle = |i: Input| cycle_len(i.state()) < 3;
    let failed = with_space(space, || {
        quickcheck::QuickCheck::new()
            .tests(300)
            .quicktest(no_long_cycle as fn(Input) -> bool)
    });
    assert!(
        failed.is_err(),
        "long cycles are generated, so the property fails"
    );
}

#[test]
fn gen_string_arrays_have_varied_lengths_and_strings() {
    let prog = program();
    let m = prog.find_method("Inputs.lens").expect("method");
    let s = parse_text(
        &prog,
        &m,
        "00 | a: o1 | ε\no1: java.lang.String[](len=i1)  i1: [≥0]\n",
    );
    let gen = Generator::new(&prog, &m, &s, cfg(10)).expect("generator");
    let mut sizes = SizesSeen::default();
    let mut strlens = BTreeSet::new();
    for k in 0..500 {
        let c = gen.case(k).expect("sample").state;
        let input = state_to_input(&c, &[0]).expect("runnable");
        assert_eq!(input.args.len(), 1);
        let a = c.frames[0].locals[0].expect("a");
        let Some(HeapValue::Array { elems: Some(e), .. }) = c.value(a) else {
            panic!("not an array:\n{}", gen.print(&c));
        };
        sizes.record(k, e.len());
        for x in e {
            if let Some(HeapValue::Object { class, fields }) = c.value(*x) {
                assert_eq!(class, "java/lang/String");
                let n = c.int(fields["count"]).and_then(|i| i.as_literal());
                strlens.insert(n.expect("literal length"));
            }
        }
    }
    sizes.assert_schedule(0..=SMALL_SIZE, "array lengths");
    assert!(strlens.contains(&0) && strlens.len() >= 5, "{strlens:?}");
}

#[test]
fn gen_ints_hit_boundaries_and_compared_constants() {
    let prog = program();
    let m = prog.find_method("IntLoops.countDown").expect("method");
    let s = start(&prog, &m, None, IntSemantics::Unbounded);
    let gen = Generator::new(&prog, &m, &s, cfg(2)).expect("generator");
    let mut seen = BTreeSet::new();
    for k in 0..2_000 {
        let c = gen.case(k).expect("sample").state;
        for v in c.heap.values() {
            if let Some(x) = v.as_int().and_then(|i| i.as_literal()) {
                seen.insert(x);
            }
        }
    }
    for want in [0, 1, -1, JAVA_MIN, JAVA_MAX] {
        assert!(seen.contains(&want), "{want} never drawn");
    }
    for c in prog.compared_constants(&m) {
        assert!(seen.contains(&c), "compared constant {c} never drawn");
    }
}

/// Every family a start state allows shows up at ≥ 5 %: trees, DAGs (`♦`), shared tails (`%$`),
/// aliasing (`=?`).
#[test]
fn gen_generates_trees_dags_shared_tails_and_aliases_where_allowed() {
    let prog = program();
    let cases: [(&str, &str, &[Family]); 4] = [
        (
            "Tree.size",
            "00 | root: o1 | ε\no1: Tree(?)\n",
            &[Family::Null, Family::Tree],
        ),
        (
            "Tree.size",
            "00 | root: o1 | ε\no1: Tree(?)\no1♦  o1%$o1\n",
            &[Family::Null, Family::Tree, Family::Dag],
        ),
        (
            "ListOps.append",
            "00 | a: o1, b: o2 | ε\no1: List(?)  o2: List(?)\no1%$o2\n",
            &[Family::Null, Family::Acyclic, Family::SharedTail],
        ),
        (
            "Inputs.same",
            "00 | a: o1, b: o2 | ε\no1: java.lang.Object(?)  o2: java.lang.Object(?)\no1=?o2\n",
            &[Family::Null, Family::Aliased],
        ),
    ];
    for (method, text, want) in cases {
        let m = prog.find_method(method).expect("method");
        let s = parse_text(&prog, &m, text);
        let gen = Generator::new(&prog, &m, &s, cfg(13)).expect("generator");
        let st = stats(&gen, 2_000);
        for f in want {
            assert!(
                st.percent(*f) >= 5.0,
                "{method} {text}: {f:?} below 5 %\n{st}"
            );
        }
        for k in 0..2_000 {
            let c = gen.case(k).expect("sample").state;
            assert!(is_instance(&c, &s, &prog).is_ok());
        }
    }
}

/// `Sentinel.indexOf`'s cyclic start lets `next` and `previous` form any cycles and share
/// nodes (`⟲∅`, `♦`): the nodes of the `next` chain back to the header get `previous` links
/// into the chain (themselves included) or to the header, not only `null`.
#[test]
fn gen_sentinel_chain_nodes_get_previous_links() {
    let prog = program();
    let m = prog.find_method("Sentinel.indexOf").expect("method");
    let s = start(
        &prog,
        &m,
        Some("Sentinel.indexOf.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(3)).expect("generator");
    let (mut own, mut header, mut null) = (0, 0, 0);
    for k in 0..1_000 {
        let c = gen.case(k).expect("sample").state;
        let field = |x: Ref, f: &str| match c.value(x) {
            Some(HeapValue::Object { fields, .. }) => fields.get(f).copied(),
            _ => None,
        };
        let this = c.frames[0].locals[0].expect("this");
        let h = field(this, "header").expect("header");
        let first = field(h, "next").expect("header.next");
        if first == h {
            continue;
        }
        match field(first, "previous") {
            Some(p) if p == first => own += 1,
            Some(p) if p == h => header += 1,
            Some(Ref::Null) => null += 1,
            _ => {}
        }
    }
    assert!(own > 0 && header > 0 && null > 0, "{own} {header} {null}");
}

/// `Types.countSelfItems`'s cyclic start allows cycles through `item` (`⟲{item}`): the
/// sparse cycle plans leave `item` slots free for back edges, so lists with two or more cells
/// that are their own items (the runs that reach the loop's nodes after its second one) are
/// four times as frequent as before them (22 of these 1 000 cases; 5 without them).
#[test]
fn gen_self_items_come_several_to_a_list() {
    let prog = program();
    let m = prog.find_method("Types.countSelfItems").expect("method");
    let s = start(
        &prog,
        &m,
        Some("Types.countSelfItems.cyclic.state"),
        IntSemantics::Unbounded,
    );
    let gen = Generator::new(&prog, &m, &s, cfg(3)).expect("generator");
    let mut two = 0;
    for k in 0..1_000 {
        let c = gen.case(k).expect("sample").state;
        let (cells, _) = walk(&c, 0, "next");
        let own = cells
            .iter()
            .filter(|x| {
                matches!(c.value(**x), Some(HeapValue::Object { fields, .. }) if fields.get("item") == Some(*x))
            })
            .count();
        two += usize::from(own >= 2);
    }
    assert!(two >= 15, "{two} of 1000 lists with two self-items");
}
