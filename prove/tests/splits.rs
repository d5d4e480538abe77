//! Location splits (`prove/src/refine.rs`): the refined ITS has the original's transitions,
//! copy for copy; `gcd` with operands of any sign is YES by a ranking function per part
//! (`|b|`); tampered splits are rejected; concrete transitions are checked on the copy they
//! take.

use jtg_prove::{
    check_transition, parse_koat, prove, refine, verify_termination, BigInt, Certificate,
    Constraint, Its, LinExpr, LocId, Options, Rel, Split, Var, Verdict,
};

fn koat(rules: &str, vars: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .unwrap()
}

/// `while (b != 0) { t = a % b; a = b; b = t; }` as the graph encodes it: the remainder `t`
/// has the dividend's sign and `|t| ≤ |b| − 1`.
fn gcd() -> Its {
    koat(
        "start(a, b) -> f(a, b)
         f(a, b) -> f(b, t) :|: b >= 1 && a >= 0 && 0 <= t && t <= b - 1
         f(a, b) -> f(b, t) :|: b >= 1 && a < 0 && 1 - b <= t && t <= 0
         f(a, b) -> f(b, t) :|: b <= -1 && a >= 0 && 0 <= t && t <= -b - 1
         f(a, b) -> f(b, t) :|: b <= -1 && a < 0 && b + 1 <= t && t <= 0
         f(a, b) -> g(a) :|: b = 0",
        "a b t",
    )
}

fn n(v: i64) -> BigInt {
    BigInt::from(v)
}

fn proved(its: &Its) -> jtg_prove::TerminationCertificate {
    let p = prove(its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes, "{:?}", p.notes);
    let Certificate::Termination(c) = p.certificate else {
        panic!("no certificate")
    };
    c
}

#[test]
fn gcd_of_any_signs_is_ranked_by_the_absolute_value_per_part() {
    let its = gcd();
    let c = proved(&its);
    assert_eq!(c.splits.len(), 1, "{c:?}");
    assert_eq!(c.splits[0].location, its.location_by_name("f").unwrap());
    verify_termination(&its, &c).unwrap();
    // 7 % −3 = 1 (f(7, −3) → f(−3, 1)): from the negative part into the non-negative one;
    // −7 % 3 = −1 the other way; each decreases every level that covers it
    for (args, t) in [([7, -3], 1), ([-7, 3], -1), ([9, 4], 1), ([-9, -4], -1)] {
        let args: Vec<BigInt> = args.iter().map(|&v| n(v)).collect();
        let r = its
            .rule_ids()
            .find(|&r| {
                its.rule(r).from != its.start()
                    && its.step(r, &args, &[n(t)]).ok().flatten().is_some()
            })
            .expect("a rule takes the step");
        let check = check_transition(&its, &c, r, &args, &[n(t)]).unwrap();
        assert!(!check.ranking.is_empty(), "ranked: {args:?}");
        assert!(check.ranking.iter().all(|k| k.holds()), "{check:?}");
    }
}

#[test]
fn a_split_keeps_every_transition() {
    let its = gcd();
    let f = its.location_by_name("f").unwrap();
    let splits = vec![
        Split {
            location: f,
            low: Constraint::new(LinExpr::var(Var(1)).plus(&LinExpr::constant(1)), Rel::Le),
        },
        // the new part split again, by the other variable
        Split {
            location: LocId(its.locations().len() as u32),
            low: Constraint::new(LinExpr::var(Var(0)).minus(&LinExpr::constant(2)), Rel::Le),
        },
    ];
    let rf = refine(&its, &splits).unwrap();
    assert_eq!(rf.its.locations().len(), its.locations().len() + 2);
    for r in its.rule_ids() {
        let arity = its.location(its.rule(r).from).arity();
        for a in -4..=4 {
            for b in -4..=4 {
                for t in -4..=4 {
                    let args = [n(a), n(b)];
                    let temps: Vec<BigInt> = its.rule(r).temps.iter().map(|_| n(t)).collect();
                    let want = its.step(r, &args[..arity], &temps).unwrap();
                    let copy = rf.rule_of(r, &args[..arity], &temps).unwrap();
                    assert_eq!(rf.rule_origin[copy.index()], r);
                    let got = rf.its.step(copy, &args[..arity], &temps).unwrap();
                    assert_eq!(got, want, "rule {r:?} on ({a}, {b}) t = {t}");
                    // the copy's source part holds on the values
                    let from = rf.its.rule(copy).from;
                    assert_eq!(rf.loc_origin[from.index()], its.rule(r).from);
                    if want.is_some() {
                        let q: Vec<jtg_prove::Q> = args.iter().map(jtg_prove::Q::from).collect();
                        for c in &rf.loc_parts[from.index()] {
                            assert_eq!(c.holds(&|v| q.get(v.index()).cloned()), Some(true));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn tampered_splits_are_rejected() {
    let its = gcd();
    let c = proved(&its);
    // another threshold: the functions no longer fit their parts
    let mut t = c.clone();
    t.splits[0].low = Constraint::new(LinExpr::var(Var(1)).minus(&LinExpr::constant(5)), Rel::Le);
    assert!(verify_termination(&its, &t).is_err());
    // the start location cannot be split (a run may begin at any of its points)
    let mut t = c.clone();
    t.splits[0].location = its.start();
    assert!(verify_termination(&its, &t).is_err());
    // a condition over a variable the location does not have
    let mut t = c.clone();
    t.splits[0].low = Constraint::new(LinExpr::var(Var(7)), Rel::Le);
    assert!(verify_termination(&its, &t).is_err());
    // a strict condition is not the `e ≤ 0` a split is made of
    let mut t = c;
    t.splits[0].low = Constraint::new(LinExpr::var(Var(1)), Rel::Lt);
    assert!(verify_termination(&its, &t).is_err());
}

#[test]
fn a_loop_needing_no_split_gets_none() {
    let its = koat("start(x) -> f(x)  f(x) -> f(x - 1) :|: x > 0", "x");
    assert!(proved(&its).splits.is_empty());
}

/// `f(x, y)` with two to four rules, each guarded by the sign of `x` and one more random
/// constraint, moving `x` and `y` by small constants or swapping signs: loops that may need
/// `|x|`. Every YES resting on a split must hold on every transition from a box of points,
/// checked with the ITS semantics (`check_transition` on the original rules).
#[test]
fn split_certificates_hold_on_concrete_transitions() {
    use quickcheck::{Arbitrary, Gen};
    let small = |g: &mut Gen, k: i64| i64::arbitrary(g).rem_euclid(2 * k + 1) - k;
    let mut g = Gen::new(100);
    let (mut yes, mut split) = (0, 0);
    for _ in 0..1000 {
        let mut rules = vec!["start(x, y) -> f(x, y)".to_string()];
        for _ in 0..2 + usize::arbitrary(&mut g) % 3 {
            let sign = if bool::arbitrary(&mut g) {
                "x >= 1"
            } else {
                "x <= -1"
            };
            let extra = format!("{} * y <= {}", small(&mut g, 1), small(&mut g, 3));
            let flip = if bool::arbitrary(&mut g) { "-" } else { "" };
            let (dx, dy) = (small(&mut g, 2), small(&mut g, 1));
            rules.push(format!(
                "f(x, y) -> f({flip}x + {dx}, y + {dy}) :|: {sign} && {extra}"
            ));
        }
        let its = koat(&rules.join("  "), "x y");
        let p = prove(&its, &Options::default());
        let Certificate::Termination(c) = &p.certificate else {
            continue;
        };
        yes += 1;
        if c.splits.is_empty() {
            continue;
        }
        split += 1;
        verify_termination(&its, c).unwrap();
        for r in its.rule_ids().filter(|&r| its.rule(r).from != its.start()) {
            for x in -6..=6 {
                for y in -4..=4 {
                    let check = check_transition(&its, c, r, &[n(x), n(y)], &[]).unwrap();
                    if check.successor.is_some() {
                        assert!(check.ranking.iter().all(|k| k.holds()), "{check:?}");
                    }
                }
            }
        }
    }
    eprintln!("{yes} YES, {split} of them by a split");
    // about 1 % (Gen is seeded randomly; 3 is far below the expected 10)
    assert!(split >= 3, "splits used {split} times of {yes} YES");
}

/// `do { n /= 10; } while (n != 0)` as the graph encodes it: the loop head `h` copies `n` to the
/// test node `t`, which divides (the quotient `q` bounded by the dividend's sign, as the chained
/// guard gives it) and goes back; only the exit compares `n` alone (`−9 ≤ n ≤ 9`).
fn digits() -> Its {
    koat(
        "start(n) -> h(n)
         h(n) -> t(n)
         t(n) -> h(q) :|: q >= 1 && 10 * q <= n && n <= 10 * q + 9
         t(n) -> h(q) :|: q <= -1 && 10 * q - 9 <= n && n <= 10 * q
         t(n) -> e(n) :|: -9 <= n && n <= 9",
        "n q",
    )
}

#[test]
fn a_split_may_come_from_the_loops_exit() {
    // |n| falls, as `n` and `−n`: no rule of the loop compares `n` alone (the quotient `q` is a
    // temporary), the exit does (`n ≤ 9`), and the split by it ranks each part
    let its = digits();
    let c = proved(&its);
    assert_eq!(c.splits.len(), 1, "{c:?}");
    assert_eq!(c.splits[0].location, its.location_by_name("t").unwrap());
    verify_termination(&its, &c).unwrap();
    // `n >> 1` instead (q = ⌊n / 2⌋): from n = −1 the quotient is −1 again, never YES
    let shift = koat(
        "start(n) -> h(n)
         h(n) -> t(n)
         t(n) -> h(q) :|: n >= 1 && 2 * q <= n && n <= 2 * q + 1
         t(n) -> h(q) :|: n <= -1 && 2 * q <= n && n <= 2 * q + 1
         t(n) -> e(n) :|: n = 0",
        "n q",
    );
    assert_ne!(prove(&shift, &Options::default()).verdict, Verdict::Yes);
}
