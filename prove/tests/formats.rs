//! The exchange formats: hand examples, errors, and parse ∘ print = id on random ITSs.

mod common;

use common::{random_its, Shape};
use jtg_prove::{parse_ari, parse_koat, to_ari, to_koat, BigInt, Its, LocId, RuleId};
use quickcheck::{Gen, QuickCheck};

/// The example of the brief and the Termination Portal's ITS grammar, in ARI syntax.
const ARI_EXAMPLE: &str = "\
; countdown of x while y stays nonnegative
(format LCTRS)
(theory Ints)
(fun f (-> Int Int Int))
(fun g (-> Int Int Int))
(entrypoint f)
(rule (f x y) (g (- x 1) y) :guard (and (> x 0) (>= y 0)))
(rule (g x y) (f x y))
";

#[test]
fn ari_example_of_the_brief() {
    let its = parse_ari(ARI_EXAMPLE).unwrap();
    // f has an incoming rule, so a fresh start location leads to it.
    assert_eq!(its.location(its.start()).name, "f_start");
    assert_eq!(its.rules().len(), 3);
    assert_eq!(
        its.display_rule(RuleId(1)),
        "f(x, y) -> g(x - 1, y) :|: 0 < x && 0 <= y"
    );
    let v = |n: i64| BigInt::from(n);
    assert_eq!(
        its.step(RuleId(1), &[v(3), v(0)], &[]).unwrap(),
        Some(vec![v(2), v(0)])
    );
    assert_eq!(its.step(RuleId(1), &[v(3), v(-1)], &[]).unwrap(), None);
    assert_eq!(parse_ari(&to_ari(&its)).unwrap(), its);
}

#[test]
fn ari_accepts_the_lctrs_extras() {
    // :var declarations, or/not/=>, chained relations, distinct, fresh variables, constants.
    let text = "(format LCTRS) (theory Ints)
        (fun start (-> Int Int Int)) (fun loop (-> Int Int Int)) (fun done Int)
        (entrypoint start)
        (rule (start x y) (loop x y))
        (rule (loop x y) (loop (+ x (* 2 z)) (- y)) :guard (or (< 0 x y) (not (>= x 5))) :var ((z Int)))
        (rule (loop x y) done :guard (=> (distinct x y) (= x 0)))";
    let its = parse_ari(text).unwrap();
    let l = its.location_by_name("loop").unwrap();
    let from_loop: Vec<RuleId> = its.rule_ids().filter(|r| its.rule(*r).from == l).collect();
    // (or A B) gives two rules; (=> P Q) = (or (not P) Q) gives two more.
    assert_eq!(from_loop.len(), 4);
    assert_eq!(its.rule(from_loop[0]).temps, vec!["z".to_string()]);
    assert_eq!(
        its.location_by_name("done")
            .map(|d| its.location(d).arity()),
        Some(0)
    );
    assert_eq!(parse_ari(&to_ari(&its)).unwrap(), its);
}

#[test]
fn ari_errors_name_the_problem() {
    let e = |body: &str| {
        parse_ari(&format!(
            "(format LCTRS) (theory Ints) (fun f (-> Int Int)) (entrypoint f) {body}"
        ))
        .unwrap_err()
        .to_string()
    };
    assert!(e("(rule (f x) (f (* x x)))").contains("non-linear"));
    assert!(e("(rule (f x) (f (div x 2)))").contains("\"div\""));
    assert!(e("(rule (f x) (f x x))").contains("arity 1"));
    assert!(e("(rule (f x) (g x))").contains("undeclared symbol \"g\""));
    assert!(e("(rule (f x) (f x)").contains("unbalanced"));
    assert!(parse_ari("(format LCTRS) (theory Ints) (fun f Int)")
        .unwrap_err()
        .to_string()
        .contains("entrypoint"));
    assert!(
        parse_ari("(format LCTRS) (theory Reals) (fun f Int) (entrypoint f)")
            .unwrap_err()
            .to_string()
            .contains("theory")
    );
    let deep = format!("{}{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse_ari(&deep)
        .unwrap_err()
        .to_string()
        .contains("too deep"));
}

#[test]
fn koat_example_with_the_usual_extras() {
    let text = "# KoAT's own shape of input
(GOAL COMPLEXITY)
(STARTTERM (FUNCTIONSYMBOLS start))
(VAR A B C)
(RULES
  start(A, B) -> Com_1(f(A, B)) :|: A >= 0
  f(A, B) -{2}> Com_1(f(A - 1, B + C)) :|: A >= 1 /\\ C >= 0 && C <= 3
  f(A, B) -> g(A) [ A <= 0 ]
)";
    let its = parse_koat(text).unwrap();
    assert_eq!(its.rules().len(), 3);
    assert_eq!(its.rule(RuleId(1)).temps, vec!["C".to_string()]);
    assert_eq!(its.location(LocId(2)).name, "g");
    assert_eq!(parse_koat(&to_koat(&its)).unwrap(), its);
}

#[test]
fn koat_prints_disequalities_as_two_rules() {
    let its = parse_koat(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x)
         (RULES start(x) -> f(x)  f(x) -> f(x - 2) :|: x != 0)",
    )
    .unwrap();
    let text = to_koat(&its);
    assert!(text.contains("f(x) -> f(x - 2) :|: x < 0"), "{text}");
    assert!(text.contains("f(x) -> f(x - 2) :|: 0 < x"), "{text}");
    assert_eq!(parse_koat(&text).unwrap().rules().len(), 3);
}

#[test]
fn koat_errors_name_the_problem() {
    let e = |rules: &str| {
        parse_koat(&format!(
            "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS f)) (VAR x y) (RULES {rules})"
        ))
        .unwrap_err()
        .to_string()
    };
    assert!(e("f(x) -> f(x*y)").contains("non-linear"));
    assert!(e("f(x) -> Com_2(f(x), f(x))").contains("Com_2"));
    assert!(e("f(x) -> f(x) :|: x ?").contains("unexpected character"));
    assert!(e("f(x) -> f(x, y)").contains("arity"));
}

fn shape(ne: bool) -> Shape {
    Shape {
        max_locs: 4,
        max_vars: 3,
        max_rules: 7,
        max_guard: 3,
        coeff: 3,
        temps: true,
        ne,
    }
}

#[derive(Clone, Debug)]
struct AnyIts(Its);

impl quickcheck::Arbitrary for AnyIts {
    fn arbitrary(g: &mut Gen) -> AnyIts {
        AnyIts(random_its(g, shape(true)))
    }
}

#[derive(Clone, Debug)]
struct NeFreeIts(Its);

impl quickcheck::Arbitrary for NeFreeIts {
    fn arbitrary(g: &mut Gen) -> NeFreeIts {
        NeFreeIts(random_its(g, shape(false)))
    }
}

#[test]
fn ari_parse_after_print_is_identity() {
    fn prop(i: AnyIts) -> bool {
        parse_ari(&to_ari(&i.0)).as_ref() == Ok(&i.0)
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(AnyIts) -> bool);
}

#[test]
fn koat_parse_after_print_is_identity_without_disequalities() {
    fn prop(i: NeFreeIts) -> bool {
        parse_koat(&to_koat(&i.0)).as_ref() == Ok(&i.0)
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(NeFreeIts) -> bool);
}

#[test]
fn koat_print_is_stable_with_disequalities() {
    // With ≠ the KoAT text splits rules; printing what was parsed gives the same text.
    fn prop(i: AnyIts) -> bool {
        let t = to_koat(&i.0);
        parse_koat(&t).map(|j| to_koat(&j)).as_ref() == Ok(&t)
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(AnyIts) -> bool);
}
