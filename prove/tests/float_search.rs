//! The float solver proposes the ranking functions (`prove/src/lp_float.rs`), the exact
//! certification decides: proofs found that way verify, and what it cannot prove stays
//! unproven.

use jtg_prove::{parse_koat, prove, verify_termination, Certificate, Its, Options, Verdict};

fn koat(rules: &str, vars: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .unwrap()
}

fn proved(its: &Its) -> jtg_prove::Proof {
    let p = prove(its, &Options::default());
    assert_eq!(p.verdict, Verdict::Yes, "{:?}", p.notes);
    let Certificate::Termination(c) = &p.certificate else {
        panic!("no certificate")
    };
    verify_termination(its, c).unwrap();
    assert!(p.lp.float_solves > 0, "the float search ran: {:?}", p.lp);
    p
}

#[test]
fn a_lexicographic_proof_proposed_in_floating_point_verifies() {
    // `y` falls inside, `x` across: two levels; `y` is havocked by the outer rule
    proved(&koat(
        "start(x, y) -> f(x, y)
         f(x, y) -> f(x, y - 1) :|: y > 0
         f(x, y) -> f(x - 1, z) :|: x > 0 && y <= 0",
        "x y z",
    ));
}

#[test]
fn a_combination_of_variables_ranks_the_inner_rule() {
    // neither x nor y falls on the first rule, 3x − y does; then x across f → g → f
    proved(&koat(
        "start(x, y) -> f(x, y)
         f(x, y) -> f(x + 1, y + 4) :|: 3 * x >= y
         f(x, y) -> g(x, y) :|: 3 * x < y
         g(x, y) -> f(x - 2, y - 5) :|: x > 0",
        "x y",
    ));
}

#[test]
fn a_loop_without_a_ranking_function_stays_unproven() {
    // `x` may grow or fall at every lap: no linear function of it ranks the loop, and the
    // float search's proposals must not make it YES
    let its = koat(
        "start(x, n) -> f(x, n)
         f(x, n) -> f(x + 1, n) :|: x < n
         f(x, n) -> f(x - 1, n) :|: x < n",
        "x n",
    );
    let p = prove(&its, &Options::default());
    assert_ne!(p.verdict, Verdict::Yes, "{:?}", p.notes);
}
