//! `jtg mutate`: every mutant's fate (killed, not covered, equivalent, survived) with its reason
//! under `--verbose`, the four counts and the score over covered mutants in the summary, and
//! `--min-score` deciding the exit code.

mod common;
use common::fixtures;

use std::process::Command;

fn mutate(extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jtg"))
        .arg("mutate")
        .arg(fixtures())
        .args(["ListOps.hasCycle", "-n", "40", "--seed", "1"])
        .args(["--max-mutants", "60"])
        .args(extra)
        .output()
        .expect("run jtg");
    let stderr = common::stderr_of(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
    )
}

#[test]
fn jtg_mutate_prints_four_fates_and_the_score_over_covered_mutants() {
    let (code, out) = mutate(&["--min-score", "0", "--verbose"]);
    assert_eq!(code, Some(0), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let (listing, summary) = lines.split_at(lines.len() - 1);
    assert_eq!(listing.len(), 60, "{out}");
    let count = |fate: &str| {
        listing
            .iter()
            .filter(|l| l.trim_start().starts_with(&format!("{fate} ")))
            .count()
    };
    let (k, c, e, s) = (
        count("killed"),
        count("not-covered"),
        count("equivalent"),
        count("SURVIVED"),
    );
    assert_eq!(k + c + e + s, 60, "{out}");
    // the acyclic default start leaves Floyd's second lap to no run
    assert!(c > 0 && k > 0 && e > 0, "{out}");
    assert!(
        listing
            .iter()
            .filter(|l| l.trim_start().starts_with("not-covered "))
            .all(|l| l.contains(": no run reaches node ") || l.contains(": no run takes the edge ")),
        "{out}"
    );
    let score = 100.0 * k as f64 / (k + s) as f64;
    let expect = format!(
        " derived): {k} killed, {c} not covered, {e} equivalent, {s} survived; score {score:.1}% (killed / (killed + survived))"
    );
    assert!(
        summary[0].starts_with("ListOps.hasCycle(LList;)Z: 60 mutants tried (of ")
            && summary[0].ends_with(&expect),
        "{}\n{expect}",
        summary[0]
    );
    // without --verbose only the survivors are listed
    let (_, quiet) = mutate(&["--min-score", "0"]);
    assert_eq!(quiet.lines().count(), s + 1, "{quiet}");
    // a score below --min-score fails
    if s > 0 {
        let (code, _) = mutate(&["--min-score", "1"]);
        assert_eq!(code, Some(1));
    }
}
