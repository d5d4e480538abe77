//! End-to-end tests of the soundness check on hand-written concrete inputs (`make fixtures`):
//! real graphs pass, hand-broken graphs are caught at the right step, overflow is classified
//! by the integer semantics.

mod common;
use common::fixtures;

use jtg_check::Matcher;
use jtg_check::{check_run, check_runs, Target, Verdict};
use jtg_engine::class::ClassPath;
use jtg_engine::graph::{EdgeKind, Label};
use jtg_engine::state::text::{parse_state, TextContext};
use jtg_engine::state::{HeapValue, IntSemantics, MethodId, State};
use jtg_engine::{build_graph, Graph, Options, Program};

fn program() -> Program {
    Program::new(ClassPath::parse(&fixtures().to_string_lossy()).expect("class path"))
}

fn start_file(name: &str) -> String {
    let p = jtg_testkit::repo_dir()
        .join("java-fixtures/start")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn parse(prog: &Program, m: &MethodId, text: &str) -> State {
    parse_state(text, &TextContext::for_method(m.clone(), prog)).expect("state text")
}

fn graph(prog: &Program, m: &MethodId, start: Option<&str>, sem: IntSemantics) -> Graph {
    let st = match start {
        Some(t) => parse(prog, m, t),
        None => prog.default_start(m, sem).expect("start"),
    };
    let opts = Options {
        ints: sem,
        ..Default::default()
    };
    build_graph(prog, m, st, &opts).expect("graph")
}

fn verdict(prog: &Program, g: &Graph, input: &str, sem: IntSemantics) -> Verdict {
    let target = Target::new(prog, g.method.clone(), vec![fixtures()]).expect("target");
    let st = parse(prog, &g.method, input);
    let trace = target.trace(&st, 100_000).expect("trace");
    let matcher = Matcher::new(g, prog, sem);
    check_run(&matcher, prog, &trace, sem).verdict
}

const CONTAINS_INPUTS: &[&str] = &[
    "00 | cur: null, x: i1 | ε\ni1: 3",
    "00 | cur: o1, x: i1 | ε\no1: List(next=null, val=i2)  i1: 3  i2: 3",
    "00 | cur: o1, x: i1 | ε\no1: List(next=null, val=i2)  i1: 3  i2: 4",
    "00 | cur: o1, x: i1 | ε\no1: List(next=o2, val=i2)  o2: List(next=o3, val=i3)  o3: List(next=null, val=i4)\ni1: 9  i2: 1  i3: 2  i4: 9",
];

#[test]
fn contains_inputs_are_paths() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
        let g = graph(&prog, &m, None, sem);
        for input in CONTAINS_INPUTS {
            assert_eq!(verdict(&prog, &g, input, sem), Verdict::Pass, "{input}");
        }
    }
}

#[test]
fn cyclic_get_is_a_path() {
    let prog = program();
    let m = prog.find_method("List.get").expect("method");
    let g = graph(
        &prog,
        &m,
        Some(&start_file("List.get.cyclic.state")),
        IntSemantics::Unbounded,
    );
    let input = std::fs::read_to_string(
        jtg_testkit::repo_dir().join("java-fixtures/inputs/List.get.cyclic3.state"),
    )
    .expect("input");
    assert_eq!(
        verdict(&prog, &g, &input, IntSemantics::Unbounded),
        Verdict::Pass
    );
}

/// Removes (and returns) the edge to the null successor of the first instance refinement.
fn drop_null_refinement(g: &mut Graph) -> jtg_engine::graph::Edge {
    let k = g
        .edges
        .iter()
        .position(|e| {
            e.kind == EdgeKind::Refine
                && e.labels
                    .iter()
                    .any(|l| matches!(l, Label::RefEq { p, equal: true, .. } if p.is_null()))
        })
        .expect("a null refinement");
    g.edges.remove(k)
}

/// The null successor of the first instance refinement removed: `contains(null, x)` has no
/// path any more, and the check says where.
#[test]
fn broken_contains_is_caught() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let mut g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let dropped = drop_null_refinement(&mut g);
    match verdict(&prog, &g, CONTAINS_INPUTS[0], IntSemantics::Unbounded) {
        Verdict::Violation(stuck) => {
            assert!(
                stuck.candidates.iter().any(|c| c.node != dropped.to),
                "{stuck:?}"
            );
            assert!(!stuck.candidates.is_empty());
            // candidates are tried without reasons; the stuck run is matched again with them
            for c in &stuck.candidates {
                assert!(
                    !c.reason.is_empty() && !c.reason.ends_with(": "),
                    "no reason: {c:?}"
                );
            }
        }
        v => panic!("not caught: {v:?}"),
    }
    // the non-null inputs still pass
    assert_eq!(
        verdict(&prog, &g, CONTAINS_INPUTS[1], IntSemantics::Unbounded),
        Verdict::Pass
    );
}

/// A flipped relation label is caught by the label check, not only by positions.
#[test]
fn flipped_label_is_caught() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let mut g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let mut flipped = false;
    for e in &mut g.edges {
        for l in &mut e.labels {
            if let Label::Rel { cond, .. } = l {
                *cond = cond.negate();
                flipped = true;
            }
        }
    }
    assert!(flipped, "contains has relation labels");
    assert!(matches!(
        verdict(&prog, &g, CONTAINS_INPUTS[1], IntSemantics::Unbounded),
        Verdict::Violation(_)
    ));
}

/// `MIN / -1` overflows: outside the unbounded model, a plain path under Java ints.
#[test]
fn overflow_depends_on_the_int_semantics() {
    let prog = program();
    let m = prog.find_method("IntLoops.divide").expect("method");
    let input = "00 | a: i1, b: i2 | ε\ni1: -2147483648  i2: -1";
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    assert!(matches!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::OutsideModel { .. }
    ));
    let g = graph(&prog, &m, None, IntSemantics::Java);
    assert_eq!(verdict(&prog, &g, input, IntSemantics::Java), Verdict::Pass);
}

/// Exceptions: caught (handler step follows the throwing step) and uncaught (program end).
#[test]
fn exceptions_are_paths() {
    let prog = program();
    for (method, input) in [
        ("IntLoops.safeDivide", "00 | a: i1, b: i2 | ε\ni1: 7  i2: 0"),
        ("IntLoops.divide", "00 | a: i1, b: i2 | ε\ni1: 7  i2: 0"),
        (
            "ListOps.second",
            "00 | l: o1 | ε\no1: List(next=null, val=i1)  i1: 1",
        ),
        ("ListOps.second", "00 | l: null | ε"),
    ] {
        let m = prog.find_method(method).expect("method");
        let g = graph(&prog, &m, None, IntSemantics::Unbounded);
        assert_eq!(
            verdict(&prog, &g, input, IntSemantics::Unbounded),
            Verdict::Pass,
            "{method}: {input}"
        );
    }
}

/// Constructors: `new List()` + `List.<init>` (inlined) + `Object.<init>` (a library model).
#[test]
fn allocation_is_a_path() {
    let prog = program();
    let m = prog.find_method("ListOps.copy").expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let input =
        "00 | cur: o1 | ε\no1: List(next=o2, val=i1)  o2: List(next=null, val=i2)  i1: 1  i2: 2";
    assert_eq!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Pass
    );
}

/// An object under construction is walked once a constructor frame above has run `super()`:
/// in `Outer.cellOf`, node 23 is `Cell.<init>` after `super()`, and the outer object's `v`
/// (i1) is only reachable through the `Cell` the caller frame still holds uninitialized. A
/// graph that narrows it is caught; one that narrows it before `super()` (node 19, where the
/// object has no identity yet) is not (a deliberate gap of the check).
#[test]
fn objects_past_super_are_walked() {
    use jtg_engine::state::{HeapValue, Interval, Ref};
    let prog = program();
    let m = prog.find_method("Outer.cellOf").expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let input = "00 | o: o1 | ε\no1: Outer(v=i1)  i1: -5";
    assert_eq!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Pass
    );
    let narrowed = |n: usize| {
        let mut g = g.clone();
        let st = &mut g.nodes[n].state;
        assert_eq!(st.int(Ref::Int(1)), Some(&Interval::TOP), "node {n}");
        st.heap
            .insert(Ref::Int(1), HeapValue::Int(Interval::at_least(0)));
        g
    };
    match verdict(&prog, &narrowed(23), input, IntSemantics::Unbounded) {
        Verdict::Violation(_) => {}
        v => panic!("narrowed node 23 passes: {v:?}"),
    }
    assert_eq!(
        verdict(&prog, &narrowed(19), input, IntSemantics::Unbounded),
        Verdict::Pass
    );
}

/// A tiny stand-in for the input generator (tests only): a list of `len` nodes of `class`
/// (fields `next`, `val`) with values in -3..=3 whose last node links to `back` (a cycle or
/// lasso) or to null.
fn list_input(
    class: &str,
    var: &str,
    len: usize,
    back: Option<usize>,
    vals: &[i32],
    extra: &str,
) -> String {
    if len == 0 {
        return format!("00 | {var}: null{extra} | ε\n");
    }
    let mut heap = String::new();
    let mut ints = String::new();
    for k in 0..len {
        let next = if k + 1 < len {
            format!("o{}", k + 2)
        } else {
            back.map_or("null".into(), |b| format!("o{}", b + 1))
        };
        heap.push_str(&format!(
            "o{}: {class}(next={next}, val=i{})  ",
            k + 1,
            k + 10
        ));
        ints.push_str(&format!("i{}: {}  ", k + 10, vals[k % vals.len()]));
    }
    format!("00 | {var}: o1{extra} | ε\n{heap}\n{ints}\n")
}

/// Differential property: on (node state, concrete step) pairs at the same program position,
/// drawn from real runs of fixture methods on random lists, the engine's `⊑` (applied to the
/// step as a concrete state, with the static fields the run knows) saying "instance" implies
/// the checker saying so. `Statics.clearLastPositive` brings states with a static field. The converse
/// disagreements are counted and printed (the engine's check may be conservative). The
/// checker's verdict is the same on the matcher's reading of the step (a view of all objects
/// built from the step before, hidden regions memoised per heap across nodes).
#[test]
fn checker_agrees_with_the_engine_where_the_engine_says_instance() {
    use jtg_check::concrete::step_to_state;
    use jtg_check::instance::{concrete_instance, walk_roots, Concrete, RegionMemo};
    use rand::{Rng, SeedableRng};
    let prog = program();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    let cases: [(&str, Option<&str>, &str, &str); 6] = [
        ("List.contains", None, "cur", ", x: i1"),
        (
            "List.contains",
            Some("List.contains.cyclic.state"),
            "cur",
            ", x: i1",
        ),
        (
            "ListOps.hasCycle",
            Some("ListOps.hasCycle.lasso.state"),
            "head",
            "",
        ),
        ("ListOps.reverse", None, "cur", ""),
        ("ListOps.countPositive", None, "cur", ""),
        ("Statics.clearLastPositive", None, "head", ""),
    ];
    let (mut pairs, mut both, mut only_checker) = (0usize, 0usize, 0usize);
    // pairs where the node and the step have a static field, and where both say instance
    let (mut static_pairs, mut static_both) = (0usize, 0usize);
    let mut examples = Vec::new();
    for (method, start, var, extra) in cases {
        let m = prog.find_method(method).expect("method");
        let g = graph(
            &prog,
            &m,
            start.map(start_file).as_deref(),
            IntSemantics::Unbounded,
        );
        let target = Target::new(&prog, m.clone(), vec![fixtures()]).expect("target");
        let cyclic_ok = start.is_some();
        for _ in 0..40 {
            let len = rng.gen_range(0..5);
            let back = (cyclic_ok && len > 0 && rng.gen_bool(0.5)).then(|| rng.gen_range(0..len));
            let vals: Vec<i32> = (0..4).map(|_| rng.gen_range(-3..=3)).collect();
            let class = method.split('.').next().filter(|c| *c == "Statics");
            let mut text = list_input(class.unwrap_or("List"), var, len, back, &vals, extra);
            if !extra.is_empty() {
                text.push_str(&format!("i1: {}\n", rng.gen_range(-3..=3)));
            }
            let st = parse(&prog, &m, &text);
            let trace = target.trace(&st, 10_000).expect("trace");
            let mut view: Option<(usize, jtg_jvm::StepView)> = None;
            let mut memo = RegionMemo::default();
            for i in 0..trace.len() {
                let step = trace.step(i);
                // the matcher's reading: a view built from the step before, regions memoised
                let v = trace.view_after(i, usize::MAX, view.as_ref().map(|(j, v)| (*j, v)));
                let cv = Concrete {
                    frames: &v.frames,
                    heap: &v.objects,
                    statics: &v.statics,
                    end: None,
                };
                assert_eq!(
                    *v.statics, step.statics,
                    "{method} step {i}: the view's statics"
                );
                let key = v.heap_key.expect("a trace has heap versions");
                let Ok(cs) = step_to_state(&step) else {
                    view = Some((i, v));
                    continue;
                };
                let c = Concrete {
                    frames: &step.frames,
                    heap: &jtg_jvm::Objects::from(step.heap.clone()),
                    statics: &step.statics,
                    end: None,
                };
                for n in &g.nodes {
                    let same_pos = n.state.frames.len() == cs.frames.len()
                        && n.state
                            .frames
                            .iter()
                            .zip(&cs.frames)
                            .all(|(a, b)| a.method == b.method && a.pc == b.pc);
                    if !same_pos || n.state.split.is_some() {
                        continue;
                    }
                    pairs += 1;
                    let with_statics = !n.state.statics.is_empty() && !cs.statics.is_empty();
                    static_pairs += usize::from(with_statics);
                    let engine = jtg_engine::instance_of::is_instance(&cs, &n.state, &prog);
                    let mine = concrete_instance(&c, &n.state, &prog);
                    static_both += usize::from(with_statics && engine.is_ok() && mine.is_ok());
                    let memoised = walk_roots(&cv, &n.state, &prog, false)
                        .and_then(|w| w.finish_with(Some(memo.of(key))));
                    assert_eq!(
                        mine.as_ref().err().map(|f| f.condition),
                        memoised.as_ref().err().map(|f| f.condition),
                        "{method} node {} step {i}: the view and the memo change the verdict\ninput:\n{text}",
                        n.id
                    );
                    match (&engine, &mine) {
                        (Ok(_), Ok(_)) => both += 1,
                        (Ok(_), Err(f)) => panic!(
                            "{method}: the engine says the step is an instance of node {}, the checker says {f}\ninput:\n{text}",
                            n.id
                        ),
                        (Err(e), Ok(_)) => {
                            only_checker += 1;
                            if examples.len() < 3 {
                                examples.push(format!("{method} node {} step {i}: engine says {e}\ninput:\n{text}", n.id));
                            }
                        }
                        (Err(_), Err(_)) => {}
                    }
                }
                view = Some((i, v));
            }
        }
    }
    eprintln!(
        "differential: {pairs} pairs, {both} instances for both, {only_checker} only for the checker; \
         {static_pairs} pairs with statics, {static_both} instances for both"
    );
    for e in &examples {
        eprintln!("{e}");
    }
    assert!(
        both > 100,
        "too few positive pairs ({both}) to mean anything"
    );
    assert!(
        static_both > 10,
        "too few positive pairs with static fields ({static_both}) to mean anything"
    );
}

/// `Corpus.main` on generated inputs: `fact` is recursive, so its inner call is abstracted
/// (a `call` edge to the one-frame entry node of `fact`'s method graph). Every run must match
/// — the callee's steps on the method graph, the caller continuing at a `return` edge — and
/// some runs must actually go through the abstracted call.
#[test]
fn runs_through_abstracted_calls_are_paths() {
    use jtg_check::gen::{GenConfig, Generator};
    use jtg_check::Extent;
    let prog = program();
    let m = prog
        .find_method("Corpus.main([Ljava/lang/String;)V")
        .expect("method");
    for sem in [IntSemantics::Unbounded, IntSemantics::Java] {
        let g = graph(&prog, &m, None, sem);
        let entries: Vec<usize> = g
            .edges
            .iter()
            .filter(|e| {
                e.kind == EdgeKind::Call
                    && e.labels
                        .iter()
                        .any(|l| matches!(l, Label::AbstractCall { .. }))
            })
            .map(|e| e.to)
            .collect();
        assert!(!entries.is_empty(), "no abstracted call in the graph");
        let target = Target::new(&prog, m.clone(), vec![fixtures()]).expect("target");
        let matcher = Matcher::new(&g, &prog, sem);
        let start = g.nodes[g.start].state.clone();
        let cfg = GenConfig {
            seed: 4,
            max_size: 4,
            ints: sem,
        };
        let gen = Generator::new(&prog, &m, &start, cfg).expect("generator");
        let mut through = 0;
        for k in 0..60 {
            let input = gen.case(k).expect("case").state;
            let trace = target.trace(&input, 100_000).expect("trace");
            let c = check_run(&matcher, &prog, &trace, sem);
            assert!(
                !matches!(c.verdict, Verdict::Violation(_)),
                "{sem:?} case {k}: {:?}",
                c.verdict
            );
            if c.path.iter().any(|n| entries.contains(n)) {
                through += 1;
                // the whole run (not only a prefix) is covered when it ran to its end
                if !c.cut && matches!(c.verdict, Verdict::Pass) {
                    let full = matcher.run(&trace, Extent::Full);
                    assert!(matches!(full, jtg_check::Matched::Path { .. }));
                }
            }
        }
        assert!(
            through >= 10,
            "{sem:?}: only {through} runs entered fact's method graph"
        );
    }
}

/// Broken call abstractions are caught: without the call node's `return from` edges no run
/// can leave the callee; without the program ends of the callee's method graph no callee
/// path can end.
#[test]
fn broken_abstracted_calls_are_caught() {
    let prog = program();
    let m = prog
        .find_method("Corpus.main([Ljava/lang/String;)V")
        .expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    // args[0].length() == 2: s = 0 + 1 + 2 = 3, down(a, 2) = 0, fact(3) recurses
    let input = "00 | args: o1 | ε\no1: java.lang.String[](len=i1)[o2]  o2: java.lang.String(count=i2)  i1: 1  i2: 2";
    assert_eq!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Pass
    );
    let is_return_from = |e: &jtg_engine::graph::Edge| {
        e.kind == EdgeKind::Return
            && e.labels
                .iter()
                .any(|l| matches!(l, Label::Returned { callee } if &*callee.name == "fact" && &*callee.class == "Corpus"))
    };
    let mut no_return = g.clone();
    no_return.edges.retain(|e| !is_return_from(e));
    assert!(no_return.edges.len() < g.edges.len());
    match verdict(&prog, &no_return, input, IntSemantics::Unbounded) {
        Verdict::Violation(stuck) => assert!(!stuck.candidates.is_empty(), "{stuck:?}"),
        v => panic!("missing return edges not caught: {v:?}"),
    }
    // the method graph of fact: one-frame states of fact; drop its edges into program ends
    let in_fact = |n: usize| {
        let st = &g.nodes[n].state;
        st.frames.len() == 1 && &*st.frames[0].method.name == "fact"
    };
    let mut no_end = g.clone();
    no_end
        .edges
        .retain(|e| !(in_fact(e.from) && g.nodes[e.to].is_end()));
    assert!(no_end.edges.len() < g.edges.len());
    match verdict(&prog, &no_end, input, IntSemantics::Unbounded) {
        Verdict::Violation(stuck) => assert!(!stuck.candidates.is_empty(), "{stuck:?}"),
        v => panic!("a callee path without an end not caught: {v:?}"),
    }
}

/// A run the JVM ends with `StackOverflowError` (here `fact(45150)`) left the model, whose
/// stack is unbounded: it is checked as a prefix and counted as cut, not as a violation.
#[test]
fn stack_overflow_is_a_cut() {
    let prog = program();
    let m = prog
        .find_method("Corpus.main([Ljava/lang/String;)V")
        .expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let target = Target::new(&prog, m.clone(), vec![fixtures()]).expect("target");
    let input = parse(
        &prog,
        &m,
        "00 | args: o1 | ε\no1: java.lang.String[](len=i1)[o2]  o2: java.lang.String(count=i2)  i1: 1  i2: 300",
    );
    let trace = target.trace(&input, 1_000_000).expect("trace");
    assert!(
        matches!(&trace.end, jtg_jvm::TraceEnd::Threw { class, .. } if class == "java/lang/StackOverflowError"),
        "{:?}",
        trace.end
    );
    let matcher = Matcher::new(&g, &prog, IntSemantics::Unbounded);
    let c = check_run(&matcher, &prog, &trace, IntSemantics::Unbounded);
    assert_eq!(c.verdict, Verdict::Pass);
    assert!(c.cut);
    // the prefix really is checked: a graph without the abstracted call's entry fails
    let mut broken = g.clone();
    broken.edges.retain(|e| e.kind != EdgeKind::Call);
    let matcher = Matcher::new(&broken, &prog, IntSemantics::Unbounded);
    let c = check_run(&matcher, &prog, &trace, IntSemantics::Unbounded);
    assert!(
        matches!(c.verdict, Verdict::Violation(_)),
        "{:?}",
        c.verdict
    );
}

/// `check_runs` by several threads gives the checks of `check_run` one by one, in order, on a
/// graph where some runs pass and one does not (the null successor removed).
#[test]
fn parallel_checks_are_the_sequential_checks() {
    let prog = program();
    let m = prog.find_method("List.contains").expect("method");
    let mut g = graph(&prog, &m, None, IntSemantics::Unbounded);
    drop_null_refinement(&mut g);
    let target = Target::new(&prog, m.clone(), vec![fixtures()]).expect("target");
    let inputs: Vec<State> = CONTAINS_INPUTS
        .iter()
        .cycle()
        .take(9)
        .map(|t| parse(&prog, &m, t))
        .collect();
    let traces: Vec<_> = target
        .trace_batch(&inputs, 100_000)
        .into_iter()
        .map(|t| t.expect("trace"))
        .collect();
    let runs: Vec<&jtg_jvm::Trace> = traces.iter().collect();
    let matcher = Matcher::new(&g, &prog, IntSemantics::Unbounded);
    let key =
        |c: &jtg_check::TraceCheck| (c.verdict.clone(), c.steps, c.cut, c.path.clone(), c.checked);
    let one: Vec<_> = runs
        .iter()
        .map(|r| key(&check_run(&matcher, &prog, *r, IntSemantics::Unbounded)))
        .collect();
    assert!(one.iter().any(|c| c.0 == Verdict::Pass));
    assert!(one.iter().any(|c| matches!(c.0, Verdict::Violation(_))));
    for jobs in [1, 2, 4] {
        let many = check_runs(&matcher, &prog, &runs, IntSemantics::Unbounded, jobs);
        assert_eq!(many.iter().map(key).collect::<Vec<_>>(), one, "{jobs} jobs");
    }
}

/// Static fields are roots of `c ⊑ s`. In `Statics.clearLastPositive` the loop sets the static
/// `last` to positive cells; when the head is one, only `last =? head` at the merged loop head
/// lets the run through. A graph without that `=?` (at every node where `last` and `head` are
/// different references) is caught, and so is one whose merged nodes say `last` is null
/// (narrowed); the reasons name the static. The intact graph passes.
#[test]
fn static_fields_are_checked() {
    use jtg_engine::state::Ref;
    let prog = program();
    let m = prog
        .find_method("Statics.clearLastPositive")
        .expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let key = ("Statics".to_string(), "last".to_string());
    let head_first = "00 | head: o1 | ε\no1: Statics(next=o2, val=i1)  o2: Statics(next=null, val=i2)\ni1: 5  i2: -1";
    let second = "00 | head: o1 | ε\no1: Statics(next=o2, val=i1)  o2: Statics(next=null, val=i2)\ni1: 5  i2: 7";
    for input in [head_first, second] {
        assert_eq!(
            verdict(&prog, &g, input, IntSemantics::Unbounded),
            Verdict::Pass,
            "{input}"
        );
    }
    let names_last = |v: Verdict| match v {
        Verdict::Violation(stuck) => {
            assert!(
                stuck
                    .candidates
                    .iter()
                    .any(|c| c.reason.contains("sf.Statics.last")),
                "{stuck:?}"
            );
        }
        v => panic!("not caught: {v:?}"),
    };
    // drop `last =? head`
    let mut dropped = g.clone();
    let mut n_dropped = 0;
    for n in &mut dropped.nodes {
        let st = &mut n.state;
        let (Some(&last), Some(Some(head))) = (
            st.statics.get(&key),
            st.frames.first().and_then(|f| f.locals.first()),
        ) else {
            continue;
        };
        if last != *head && st.preds.may_equal(last, *head) {
            st.preds.remove_may_equal(last, *head);
            n_dropped += 1;
        }
    }
    assert!(n_dropped > 0, "no node has last =? head");
    names_last(verdict(
        &prog,
        &dropped,
        head_first,
        IntSemantics::Unbounded,
    ));
    // narrow `last` to null where it is a merged (abstract) reference
    let mut narrowed = g.clone();
    let mut n_narrowed = 0;
    for n in &mut narrowed.nodes {
        let st = &mut n.state;
        if let Some(r) = st.statics.get_mut(&key) {
            if r.is_obj() && !st.preds.may_equal_partners(*r).is_empty() {
                *r = Ref::Null;
                n_narrowed += 1;
            }
        }
    }
    assert!(n_narrowed > 0, "no node has a merged last");
    names_last(verdict(&prog, &narrowed, second, IntSemantics::Unbounded));
}

/// `StaticAlias.bump` writes one static field through two names (`count` and `Sub.count`): the
/// trace keys both by the declaring class as the graph does. The intact graph passes; one whose
/// node after the write through `Sub.count` says the static is 2 (its interval narrowed off the
/// value 1) is caught there. (With the two names kept apart, the run would not know `count`
/// at that node: the read after it shows another value than the 0 written first, so the field
/// is unknown in between, and the narrowed graph would pass.)
#[test]
fn static_fields_are_keyed_by_their_declaring_class() {
    use jtg_engine::state::{HeapValue, Interval};
    let prog = program();
    let m = prog.find_method("StaticAlias.bump").expect("method");
    let g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let input = "00 | ε | ε";
    assert_eq!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Pass
    );
    let key = ("StaticAlias".to_string(), "count".to_string());
    // the node before `getstatic count` (pc 12): the static is its only root
    let n = g
        .nodes
        .iter()
        .position(|n| n.state.frames.first().is_some_and(|f| f.pc == 12))
        .expect("node at pc 12");
    let mut bad = g.clone();
    let st = &mut bad.nodes[n].state;
    let r = st.statics[&key];
    assert_eq!(st.int(r), Some(&Interval::literal(1)));
    st.heap.insert(r, HeapValue::Int(Interval::literal(2)));
    match verdict(&prog, &bad, input, IntSemantics::Unbounded) {
        Verdict::Violation(stuck) => assert!(
            stuck
                .candidates
                .iter()
                .any(|c| c.node == n && c.reason.contains("sf.StaticAlias.count")),
            "{stuck:?}"
        ),
        v => panic!("not caught: {v:?}"),
    }
}

/// A float constant is a literal in the graph (`ldc2_w +∞` in Floats.classify), compared with
/// the run's value bit for bit: the graph accepts the run, and a wrong literal is caught.
#[test]
fn float_constants_are_checked() {
    let prog = program();
    let m = prog.find_method("Floats.classify").expect("method");
    let mut g = graph(&prog, &m, None, IntSemantics::Unbounded);
    let input = "00 | d: i1 | ε\ni1: 2.0d";
    assert!(matches!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Pass
    ));
    let inf = HeapValue::Double(Some(f64::INFINITY.to_bits()));
    let mut changed = 0;
    for n in &mut g.nodes {
        for v in n.state.heap.values_mut() {
            if *v == inf {
                *v = HeapValue::Double(Some(f64::MAX.to_bits()));
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "the graph holds the literal +∞");
    assert!(matches!(
        verdict(&prog, &g, input, IntSemantics::Unbounded),
        Verdict::Violation(_)
    ));
}
