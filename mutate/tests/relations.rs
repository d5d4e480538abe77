//! The difference constraints behind the relational proofs (module `relations` of the
//! crate) and the positions they rest on: labels tying a value to a loop test, array lengths,
//! a callee's parameters, replaced labels the constraints imply.

mod common;
use common::{claims, drop_labels, graph, narrowing, program, SEM};

use jtg_engine::graph::EdgeKind;
use jtg_engine::state::{HeapValue, Interval, Ref};
use jtg_mutate::{mutants, Analyses, Mutant, Operator};

#[test]
fn relational_invariant_keeps_the_decrement_tied_to_the_loop_test() {
    // List.get: `x-- > 0` stores i3 = i1 − 1 before the test of i1 (node 4 refines to node 5,
    // i1 ≤ 0, and node 6, i1 ≥ 1); the interval invariant has i3 ∈ Z there, the relation
    // i3 = i1 − 1 gives i3 ≥ 0 on the way into the loop and i3 ≤ −1 on the way out
    let prog = program();
    let g = graph(&prog, "List.get");
    let an = Analyses::of(&g, &prog, SEM);
    let iv = |n: usize| {
        an.intervals.nodes[n]
            .as_ref()
            .expect("reached")
            .get(&Ref::Int(3))
            .copied()
    };
    assert!(!iv(6).is_some_and(|i| i.is_subset_of(&Interval::at_least(0))));
    assert_eq!(
        an.related_interval(6, Ref::Int(3)),
        Some(Interval::at_least(0))
    );
    assert_eq!(
        an.related_interval(5, Ref::Int(3)),
        Interval::new(None, Some(-1))
    );
    let ms = mutants(&g, &prog, SEM);
    assert!(claims(
        narrowing(&ms, 6, Ref::Int(3), "[≥0]"),
        "relational invariant"
    ));
    assert!(claims(
        narrowing(&ms, 5, Ref::Int(3), "[≤0]"),
        "relational invariant"
    ));
    // in the loop, x was positive before its decrement: the test finds x = 0 when it fails
    assert!(claims(
        narrowing(&ms, 21, Ref::Int(10), "0"),
        "relational invariant"
    ));
    // wrong narrowings: x − 1 is positive on entering the loop with x ≥ 2; x ≤ −1 fails
    // the first test, so node 5's x keeps 0 and below; node 21's x is 0, not below
    assert!(narrowing(&ms, 6, Ref::Int(3), "[≤0]").equivalent.is_none());
    assert!(narrowing(&ms, 21, Ref::Int(10), "[≤-1]")
        .equivalent
        .is_none());
    assert!(narrowing(&ms, 5, Ref::Int(4), "[≤-1]").equivalent.is_none());
}

#[test]
fn array_lengths_are_related_to_the_loop_counter() {
    // Xta.main walks `args` with `i < args.length`: the check binds the length
    // of an array a live local holds, and an array's length never changes (not across `new`,
    // whose class initializer may write the heap, nor across calls), so `i < args.length`
    // reaches `args[i]` and its ArrayIndexOutOfBoundsException case is never taken
    let prog = program();
    {
        let spec = "Xta.main";
        let g = graph(&prog, spec);
        let an = Analyses::of(&g, &prog, SEM);
        let aioobe: Vec<usize> = (0..g.nodes.len())
            .filter(|&n| {
                let st = &g.nodes[n].state;
                matches!(st.end, Some(jtg_engine::state::End::Throw(r))
                    if matches!(st.value(r), Some(HeapValue::Object { class, .. })
                        if class.as_str() == "java/lang/ArrayIndexOutOfBoundsException"))
            })
            .collect();
        assert!(
            !aioobe.is_empty(),
            "{spec}: no ArrayIndexOutOfBoundsException end"
        );
        for n in aioobe {
            assert!(
                an.unreachable(n),
                "{spec}: node {n} (args[i] out of bounds) reachable"
            );
        }
    }
}

#[test]
fn call_arguments_are_the_callees_parameters() {
    // Rta.main: the engine unrolls the first iteration, so `list` is an object at the
    // generalized loop head on every path, and `run(list, args.length)` after that loop
    // passes it as the parameter `n` (an inlined call's callee locals are the arguments it
    // popped): the null-list entry of `run` behind the generalized loop is unreachable; the
    // one of the unrolled empty loop (`x = 0`) is not
    let prog = program();
    let g = graph(&prog, "Rta.main");
    let an = Analyses::of(&g, &prog, SEM);
    let at_pc = |n: usize, pc: u32| {
        let st = &g.nodes[n].state;
        st.frames.len() == 2
            && st
                .top()
                .is_some_and(|f| &*f.method.name == "run" && f.pc == pc)
    };
    // the first test `n != null` of `run`: pc 1 right after the call's entry (pc 0), or
    // refined there, not the test after a loop iteration
    let entered = |n: usize| {
        at_pc(n, 0)
            && g.edges
                .iter()
                .any(|e| e.to == n && e.kind == EdgeKind::Call)
    };
    let first_test = |n: usize| {
        g.edges
            .iter()
            .filter(|e| e.to == n)
            .any(|e| entered(e.from) || g.edges.iter().any(|d| d.to == e.from && entered(d.from)))
    };
    let (mut dead, mut live) = (0, 0);
    for (n, node) in g.nodes.iter().enumerate() {
        let st = &node.state;
        let Some(f) = st.top() else { continue };
        if !at_pc(n, 1) || !first_test(n) {
            continue;
        }
        let (Some(Some(Ref::Null)), Some(Some(x))) = (f.locals.first(), f.locals.get(1)) else {
            continue;
        };
        match st.value(*x) {
            Some(HeapValue::Int(iv)) if *iv == Interval::literal(0) => {
                live += 1;
                assert!(!an.unreachable(n), "node {n}: run(null, 0) unreachable");
            }
            _ => {
                dead += 1;
                assert!(
                    an.unreachable(n),
                    "node {n}: run(null, x) after the loop reachable"
                );
            }
        }
    }
    assert!(
        dead >= 1 && live >= 1,
        "{dead} unreachable, {live} reachable null entries"
    );
}

#[test]
fn relational_invariant_needs_the_arithmetic_label() {
    // without the label `i3 = i1 − 1`, nothing ties the decremented value to the tested one
    let prog = program();
    let mut g = graph(&prog, "List.get");
    drop_labels(&mut g, 3, 4);
    let an = Analyses::of(&g, &prog, SEM);
    assert!(!an
        .related_interval(6, Ref::Int(3))
        .is_some_and(|i| i.is_subset_of(&Interval::at_least(0))));
    let ms = mutants(&g, &prog, SEM);
    assert!(narrowing(&ms, 6, Ref::Int(3), "[≥0]").equivalent.is_none());
}

#[test]
fn replaced_labels_implied_by_the_constraints_are_equivalent() {
    // Wide.floats's loop `while (k < n && k < 100) { … k++; }`: every path into the loop
    // test has k ≤ 100, so on the exit edge of `k < 100` (`k ≥ 100`) k is 100 — `k ≥ 100`
    // replaced by `100 ≥ k` holds wherever the original does, `k > 100` nowhere
    let prog = program();
    let g = graph(&prog, "Wide.floats");
    let ms = mutants(&g, &prog, SEM);
    let replaced = |from: &str, to: &str| -> Vec<&Mutant> {
        ms.iter()
            .filter(|m| {
                m.operator == Operator::ReplaceLabel
                    && m.description
                        .ends_with(&format!("`{from}` replaced by `{to}`"))
            })
            .collect()
    };
    // the `k < n` exit, `k ≥ n` → `n ≥ k`, is implied too (k ≤ n on every path into the
    // test: k counts from 0 and is incremented only after k < n)
    let (mut implied, mut strict) = (0, 0);
    for e in &g.edges {
        for l in &e.labels {
            let jtg_engine::graph::Label::Rel { a, cond, b } = l else {
                continue;
            };
            if *cond != jtg_engine::class::Cond::Ge {
                continue;
            }
            let (a, b) = (a.to_string(), b.to_string());
            let prefix = format!("edge {} → {}: ", e.from, e.to);
            for m in replaced(&format!("{a} ≥ {b}"), &format!("{b} ≥ {a}")) {
                if m.description.starts_with(&prefix) && claims(m, "implied label") {
                    implied += 1;
                    // on that edge, the strict form is never implied (a = b there)
                    for s in replaced(&format!("{a} ≥ {b}"), &format!("{a} > {b}")) {
                        if s.description.starts_with(&prefix) {
                            strict += 1;
                            assert!(
                                s.equivalent.is_none(),
                                "{} claimed: {:?}",
                                s.description,
                                s.equivalent
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(implied >= 2, "{implied} swapped loop exits implied");
    assert!(strict >= 2, "{strict} strict forms checked");
}
