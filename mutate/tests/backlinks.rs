//! Back links (`o.f.g == o`, module `backlinks`) on `Dll.buildAndRemove` (`make fixtures`): the
//! states a doubly linked list's invariant rules out are unreachable, the similar states runs
//! do reach are not, and no mutant the argument proves is killed by a run.

mod common;
use common::{graph, program, traces, SEM};

use jtg_check::ConcreteRun;
use jtg_engine::Graph;
use jtg_mutate::{mutants, run_mutants, Analyses, Mutant};

fn edge(g: &Graph, from: usize, to: usize) -> usize {
    g.edges
        .iter()
        .position(|e| e.from == from && e.to == to)
        .unwrap_or_else(|| panic!("no edge {from} → {to}"))
}

/// In `remove`, node 171 shows a one-entry list (`header.next = header.previous = o7`) whose
/// entry's `previous` is a fresh `o10`, not the header: every run has `header.next.previous ==
/// header` there (built by `addLast`, carried through the loop), so no run reaches it, nor
/// node 161 before it. At node 389 (the generalized loop's list), the refinement of the first
/// entry's `previous` to the header (389 → 395) is what runs take (`jtg check … Dll.buildAndRemove
/// -n 200 --seed 1` covers 389 and 395); the other case (389 → 396) is dead.
#[test]
fn a_list_entry_that_does_not_link_back_is_unreachable() {
    let prog = program();
    let g = graph(&prog, "Dll.buildAndRemove");
    let an = Analyses::of(&g, &prog, SEM);
    for n in [161, 171, 396] {
        assert!(an.unreachable(n), "node {n} reachable");
    }
    assert!(an.dead(edge(&g, 389, 396)));
    // the similar states runs reach
    for n in [151, 156, 389, 395] {
        assert!(!an.unreachable(n), "node {n} unreachable");
    }
    assert!(!an.dead(edge(&g, 389, 395)));
}

/// The mutants of nodes no run reaches are proven now (`node 171: …` among them), and the
/// proven ones survive real runs (lists of up to 40 entries; some other mutant is killed).
#[test]
fn no_mutant_the_back_links_prove_is_killed() {
    let prog = program();
    let g = graph(&prog, "Dll.buildAndRemove");
    let all = mutants(&g, &prog, SEM);
    let behind = |m: &Mutant| {
        m.equivalent
            .as_deref()
            .is_some_and(|w| w.starts_with("unreachable") || w.starts_with("dead edge"))
    };
    assert!(all
        .iter()
        .any(|m| m.description.starts_with("node 171:") && behind(m)));
    let claimed: Vec<Mutant> = all.iter().filter(|m| behind(m)).cloned().collect();
    assert!(claimed.len() >= 1000, "{} claimed", claimed.len());
    // every 25th claimed one, and unproven ones to show that the runs kill
    let mut ms: Vec<Mutant> = claimed.iter().step_by(25).cloned().collect();
    ms.extend(
        all.iter()
            .filter(|m| m.equivalent.is_none())
            .step_by(50)
            .take(20)
            .cloned(),
    );
    let runs = traces(&prog, &g, 40, 40, 5);
    let rs: Vec<&dyn ConcreteRun> = runs.iter().map(|t| t as &dyn ConcreteRun).collect();
    let fates = run_mutants(&g, &prog, SEM, &ms, &rs);
    assert!(common::killed_none_claimed(&ms, &fates, "Dll.buildAndRemove") > 0);
}
