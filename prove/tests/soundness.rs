//! Soundness properties of the verdicts on random small ITSs, checked with the ITS semantics
//! itself (the evaluation API), not with the prover's reasoning:
//! * a YES certificate has no counterexample on a box of integer points: every covered
//!   transition from a point of its source's invariant decreases its ranking functions as the
//!   certificate says and ends in its target's invariant;
//! * a NO witness, iterated 1000 times along its cycle, stays in the recurrent set;
//! * no ITS is both YES and NO;
//! * a tampered certificate is rejected by `verify`.

mod common;

use common::random_loop;
use jtg_prove::refine;
use jtg_prove::RuleCert;
use jtg_prove::{check_invariant, check_transition, instance_matches};
use jtg_prove::{parse_koat, prove, BigInt, Certificate, Its, Options, Proof, Verdict, Q};
use jtg_prove::{verify_nontermination, verify_termination};
use quickcheck::{Gen, QuickCheck, TestResult};

#[derive(Clone, Debug)]
struct LoopIts(Its);

impl quickcheck::Arbitrary for LoopIts {
    fn arbitrary(g: &mut Gen) -> LoopIts {
        LoopIts(random_loop(g))
    }
}

const BOX: i64 = 4;

/// All integer vectors of length n in [-BOX, BOX].
fn box_points(n: usize) -> Vec<Vec<BigInt>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p| {
                (-BOX..=BOX).map(move |v| {
                    let mut q = p.clone();
                    q.push(BigInt::from(v));
                    q
                })
            })
            .collect();
    }
    out
}

fn no_internal_errors(p: &Proof) -> bool {
    p.notes.iter().all(|n| !n.contains("internal error"))
}

fn yes_has_no_counterexample(its: &Its, p: &Proof) -> bool {
    let Certificate::Termination(cert) = &p.certificate else {
        return true;
    };
    // with location splits the levels rank the refined ITS: points are taken per copy, checked
    // as transitions of the original rule
    let rf = refine(its, &cert.splits).unwrap();
    for scc in &cert.sccs {
        for level in &scc.levels {
            for rr in &level.rules {
                let copy = rf.its.rule(rr.instance.rule);
                let orig = rf.rule_origin[rr.instance.rule.index()];
                let rule = its.rule(orig);
                let n = its.location(rule.from).arity();
                for pt in box_points(n + rule.temps.len()) {
                    if !instance_matches(&rf.its, &rr.instance, &pt) {
                        continue;
                    }
                    let (args, temps) = pt.split_at(n);
                    // a point outside the source's invariant is never reached: not a run
                    if check_invariant(cert, rule.from, args).is_some() {
                        continue;
                    }
                    debug_assert_eq!(rf.loc_origin[copy.from.index()], rule.from);
                    let check = check_transition(its, cert, orig, args, temps).unwrap();
                    let Some(next) = &check.successor else {
                        continue;
                    };
                    if check_invariant(cert, rule.to, next).is_some() {
                        eprintln!("invariant not inductive at {pt:?}");
                        return false;
                    }
                    if check.ranking.is_empty() || !check.ranking.iter().all(|c| c.holds()) {
                        eprintln!("counterexample {pt:?} for {}", its.display_rule(orig));
                        return false;
                    }
                }
            }
        }
    }
    true
}

fn no_witness_stays(its: &Its, p: &Proof) -> bool {
    let Certificate::NonTermination(rs) = &p.certificate else {
        return true;
    };
    let mut vals = rs.witness.clone();
    for _ in 0..1000 {
        if !rs.contains(&vals) {
            return false;
        }
        for inst in &rs.cycle {
            let temps = vec![BigInt::from(0); its.rule(inst.rule).temps.len()];
            if !instance_matches(its, inst, &vals) {
                return false;
            }
            match its.step(inst.rule, &vals, &temps).unwrap() {
                Some(v) => vals = v,
                None => return false,
            }
        }
    }
    rs.contains(&vals)
}

/// A closed set's witness, run 300 steps: at every step every enabled rule (temporaries from
/// the box) leads into the target's set, and some rule is enabled.
fn closed_witness_stays(its: &Its, p: &Proof) -> bool {
    let Certificate::ClosedNonTermination(c) = &p.certificate else {
        return true;
    };
    let (mut loc, mut vals) = (c.head, c.witness.clone());
    for _ in 0..300 {
        if !c.set(loc).is_some_and(|s| s.contains(&vals)) {
            return false;
        }
        let mut next = None;
        let mut with_temps = false;
        for r in its.rule_ids().filter(|r| its.rule(*r).from == loc) {
            let k = its.rule(r).temps.len();
            with_temps |= k > 0;
            for temps in box_points(k.min(2)) {
                if temps.len() != k {
                    break;
                }
                let Some(v) = its.step(r, &vals, &temps).unwrap() else {
                    continue;
                };
                let to = its.rule(r).to;
                if !c.set(to).is_some_and(|s| s.contains(&v)) {
                    eprintln!("rule {} leaves the closed set from {vals:?}", r.0);
                    return false;
                }
                next.get_or_insert((to, v));
            }
        }
        match next {
            Some((l, v)) => (loc, vals) = (l, v),
            // only temporaries outside the box may enable a rule: nothing more to see
            None => return with_temps,
        }
    }
    true
}

#[test]
fn verdicts_hold_on_concrete_points() {
    fn prop(i: LoopIts) -> TestResult {
        let p = prove(&i.0, &Options::default());
        if !no_internal_errors(&p) {
            return TestResult::error(format!("{:?}\n{}", p.notes, jtg_prove::to_koat(&i.0)));
        }
        TestResult::from_bool(
            yes_has_no_counterexample(&i.0, &p)
                && no_witness_stays(&i.0, &p)
                && closed_witness_stays(&i.0, &p),
        )
    }
    QuickCheck::new()
        .tests(400)
        .quickcheck(prop as fn(LoopIts) -> TestResult);
}

#[test]
fn never_both_yes_and_no() {
    fn prop(i: LoopIts) -> bool {
        let yes = prove(&i.0, &Options::default()).verdict == Verdict::Yes;
        let only_no = Options {
            termination: false,
            ..Options::default()
        };
        let no = prove(&i.0, &only_no).verdict == Verdict::No;
        !(yes && no)
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(LoopIts) -> bool);
}

#[test]
fn verdict_statistics_are_not_degenerate() {
    // The random loops must exercise all three verdicts, or the properties above prove little.
    let mut g = Gen::new(100);
    let (mut yes, mut no, mut maybe) = (0, 0, 0);
    for _ in 0..300 {
        match prove(&random_loop(&mut g), &Options::default()).verdict {
            Verdict::Yes => yes += 1,
            Verdict::No => no += 1,
            Verdict::Maybe => maybe += 1,
        }
    }
    eprintln!("random loops: yes {yes} no {no} maybe {maybe}");
    // MAYBE has become rare in this family (2 to 5 of 300 since unreachable locations and
    // compared pairs enter the invariants), so it is not required here; the MAYBE answers
    // have their own tests (examples.rs, and `a_zero_*budget*` below)
    assert!(yes > 20 && no > 20, "yes {yes} no {no} maybe {maybe}");
}

fn countdown() -> Its {
    parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
         (RULES start(x, y) -> f(x, y)  f(x, y) -> f(x - 1, y + 1) :|: x > 0)",
    )
    .unwrap()
}

#[test]
fn tampered_ranking_certificates_are_rejected() {
    let its = countdown();
    let Certificate::Termination(cert) = prove(&its, &Options::default()).certificate else {
        panic!()
    };
    verify_termination(&its, &cert).unwrap();
    // A function that does not decrease: rank by y instead of x.
    let mut bad = cert.clone();
    let f = &mut bad.sccs[0].levels[0].functions[0].1;
    *f = jtg_prove::LinExpr::var(jtg_prove::Var(1));
    assert!(verify_termination(&its, &bad).is_err());
    // A multiplier changed.
    let mut bad = cert.clone();
    if let RuleCert::Strict { decrease, .. } = &mut bad.sccs[0].levels[0].rules[0].cert {
        decrease.multipliers[0] = &decrease.multipliers[0] + &Q::one();
    }
    assert!(verify_termination(&its, &bad).is_err());
    // The only level removed: the loop remains.
    let mut bad = cert.clone();
    bad.sccs[0].levels.clear();
    assert!(verify_termination(&its, &bad).is_err());
    // A guard flipped in the ITS: the same certificate no longer fits.
    let flipped = parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
         (RULES start(x, y) -> f(x, y)  f(x, y) -> f(x - 1, y + 1) :|: x < 0)",
    )
    .unwrap();
    assert!(verify_termination(&flipped, &cert).is_err());
}

#[test]
fn tampered_recurrent_sets_are_rejected() {
    let its = parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
         (RULES start(x) -> f(x)  f(x) -> f(x - 2) :|: x != 0)",
    )
    .unwrap();
    let Certificate::NonTermination(rs) = prove(&its, &Options::default()).certificate else {
        panic!()
    };
    verify_nontermination(&its, &rs).unwrap();
    let mut bad = rs.clone();
    bad.witness = vec![BigInt::from(1)];
    assert!(verify_nontermination(&its, &bad).is_err());
    let mut bad = rs.clone();
    bad.start_values = vec![BigInt::from(5)];
    assert!(verify_nontermination(&its, &bad).is_err());
    // G = {} (everything) is not closed: x = 2 steps to 0 where the guard fails.
    let mut bad = rs.clone();
    bad.sets[0].clear();
    assert!(verify_nontermination(&its, &bad).is_err());
    // Dropping the disequality would make the loop "enabled" everywhere: refused.
    let mut bad = rs.clone();
    bad.cycle[0].ne_sides = vec![jtg_prove::NeSide::Dropped];
    assert!(verify_nontermination(&its, &bad).is_err());
}

#[test]
fn proofs_survive_json() {
    for its in [countdown(), {
        parse_koat(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
             (RULES start(x) -> f(x)  f(x) -> f(x + 1) :|: x > 0)",
        )
        .unwrap()
    }] {
        let p = prove(&its, &Options::default());
        let text = serde_json::to_string(&p).unwrap();
        let back: Proof = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        match &back.certificate {
            Certificate::Termination(c) => verify_termination(&its, c).unwrap(),
            Certificate::NonTermination(r) => verify_nontermination(&its, r).unwrap(),
            Certificate::ClosedNonTermination(c) => jtg_prove::verify_closed(&its, c).unwrap(),
            Certificate::Unproven { .. } => panic!("expected a verdict"),
        }
    }
}

#[test]
fn a_zero_budget_answers_maybe_at_once() {
    let opts = Options {
        timeout: std::time::Duration::ZERO,
        ..Options::default()
    };
    let p = prove(&countdown(), &opts);
    assert_eq!(p.verdict, Verdict::Maybe);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("limit") || n.contains("timeout")),
        "{:?}",
        p.notes
    );
}

#[test]
fn a_zero_work_budget_answers_maybe_whatever_the_clock() {
    let opts = Options {
        max_work: 0,
        timeout: std::time::Duration::from_secs(3600),
        ..Options::default()
    };
    let p = prove(&countdown(), &opts);
    assert_eq!(p.verdict, Verdict::Maybe);
    assert!(
        p.notes.iter().any(|n| n.contains("work budget")),
        "{:?}",
        p.notes
    );
    assert!(!p.notes.iter().any(|n| n.contains("wall-clock")));
}

#[test]
fn the_work_count_is_deterministic() {
    let a = prove(&countdown(), &Options::default());
    let b = prove(&countdown(), &Options::default());
    assert_eq!(a.verdict, Verdict::Yes);
    assert!(a.lp.work > 0);
    assert_eq!(a.lp, b.lp);
}

#[test]
fn check_transition_reports_a_broken_ranking_function() {
    // What the JVM cross-check will do: run concrete transitions through a certificate.
    let its = countdown();
    let Certificate::Termination(cert) = prove(&its, &Options::default()).certificate else {
        panic!()
    };
    let loop_rule = cert.sccs[0].levels[0].rules[0].instance.rule;
    let v = |n: i64| BigInt::from(n);
    let good = check_transition(&its, &cert, loop_rule, &[v(3), v(7)], &[]).unwrap();
    assert_eq!(good.successor, Some(vec![v(2), v(8)]));
    assert!(good.ranking.len() == 1 && good.ranking[0].holds());
    // Rank by y, which increases: the concrete step shows it.
    let mut bad = cert.clone();
    bad.sccs[0].levels[0].functions[0].1 = jtg_prove::LinExpr::var(jtg_prove::Var(1));
    let caught = check_transition(&its, &bad, loop_rule, &[v(3), v(7)], &[]).unwrap();
    assert!(!caught.ranking[0].decreases);
    assert_eq!(caught.ranking[0].before, Q::int(7));
    assert_eq!(caught.ranking[0].after, Q::int(8));
    // A guard that does not hold: no successor, nothing to rank.
    let off = check_transition(&its, &cert, loop_rule, &[v(0), v(7)], &[]).unwrap();
    assert_eq!(off.successor, None);
    assert!(off.ranking.is_empty());
}
