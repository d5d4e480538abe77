//! The report of a corpus run: totals, the top reasons of jars without a complete graph, and
//! the run as Markdown, JSON or CSV; expected-status lists (`--expect`, `--save-expected`).

use super::{JarResult, Status};
use serde::Serialize;
use std::fmt::Write as _;

/// Totals over a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Totals {
    pub jars: usize,
    pub complete: usize,
    pub unsupported: usize,
    pub budget: usize,
    pub error: usize,
    pub nodes: usize,
    pub graph_ms: f64,
    pub median_ms: f64,
    pub p90_ms: f64,
    pub max_ms: f64,
    /// Jars whose graph was checked (`--check`).
    pub checked: usize,
    pub traces: usize,
    pub steps: u64,
    pub violations: usize,
    /// Jars with at least one violation.
    pub violating_jars: usize,
    pub outside_model: usize,
    pub cut: usize,
    /// Jars whose check stopped early ([`JarCheck::error`]).
    pub check_errors: usize,
    /// Verdicts (`--prove`).
    pub yes: usize,
    pub no: usize,
    pub maybe: usize,
    pub prove_violations: usize,
    pub prove_median_ms: f64,
    pub prove_p90_ms: f64,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[k.min(sorted.len() - 1)]
}

pub fn totals(results: &[JarResult]) -> Totals {
    let mut t = Totals {
        jars: results.len(),
        ..Totals::default()
    };
    let mut times: Vec<f64> = Vec::new();
    for r in results {
        match r.status {
            Status::Complete => t.complete += 1,
            Status::Unsupported => t.unsupported += 1,
            Status::Budget => t.budget += 1,
            Status::Error => t.error += 1,
        }
        t.nodes += r.nodes;
        t.graph_ms += r.graph_ms;
        times.push(r.graph_ms);
        if let Some(c) = &r.check {
            t.checked += 1;
            t.traces += c.traces;
            t.steps += c.steps;
            t.violations += c.violations;
            t.violating_jars += usize::from(c.violations > 0);
            t.outside_model += c.outside_model;
            t.cut += c.cut;
            t.check_errors += usize::from(c.error.is_some());
        }
    }
    let mut prove_times: Vec<f64> = Vec::new();
    for p in results.iter().filter_map(|r| r.prove.as_ref()) {
        match p.verdict.as_str() {
            "YES" => t.yes += 1,
            "NO" => t.no += 1,
            _ => t.maybe += 1,
        }
        t.prove_violations += p.prove_violations.unwrap_or(0);
        prove_times.push(p.prove_ms);
    }
    prove_times.sort_by(f64::total_cmp);
    if !prove_times.is_empty() {
        t.prove_median_ms = percentile(&prove_times, 0.5);
        t.prove_p90_ms = percentile(&prove_times, 0.9);
    }
    times.sort_by(f64::total_cmp);
    t.median_ms = percentile(&times, 0.5);
    t.p90_ms = percentile(&times, 0.9);
    t.max_ms = times.last().copied().unwrap_or(0.0);
    t
}

/// The reason of a non-complete jar with references and numbers blanked out, for grouping
/// ("top unsupported reasons").
pub fn reason_key(detail: &str) -> String {
    // drop the location prefix `unsupported at M pc N: `
    let d = match detail.find(": ") {
        Some(i) if detail.starts_with("unsupported at") || detail.starts_with("invalid") => {
            &detail[i + 2..]
        }
        _ => detail,
    };
    // digit runs that stand alone (not inside a word such as `i2l`) become `N`
    let mut out = String::new();
    let mut prev: Option<char> = None;
    let mut in_number = false;
    for c in d.chars() {
        if c.is_ascii_digit() && (in_number || !prev.is_some_and(char::is_alphanumeric)) {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
        prev = Some(c);
    }
    out
}

/// Reasons of the jars with `status`, most frequent first.
pub fn top_reasons(results: &[JarResult], status: Status) -> Vec<(String, usize)> {
    let mut m: std::collections::BTreeMap<String, usize> = Default::default();
    for r in results.iter().filter(|r| r.status == status) {
        *m.entry(reason_key(&r.detail)).or_default() += 1;
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// Markdown: a summary, the top reasons, and one row per jar.
pub fn render_md(results: &[JarResult], timing: bool) -> String {
    let t = totals(results);
    let mut s = String::new();
    let _ = writeln!(s, "| status | jars | share |\n|---|---:|---:|");
    for st in Status::ALL {
        let n = results.iter().filter(|r| r.status == st).count();
        let _ = writeln!(s, "| {} | {n} | {:.1} % |", st.name(), pct(n, t.jars));
    }
    let _ = writeln!(s, "| **total** | {} | |", t.jars);
    if timing {
        let _ = writeln!(
            s,
            "\nGraph time per jar: median {:.1} ms, 90th percentile {:.1} ms, max {:.1} ms; {} nodes in all.",
            t.median_ms, t.p90_ms, t.max_ms, t.nodes
        );
    }
    let checked = results.iter().any(|r| r.check.is_some());
    if checked {
        let _ = writeln!(
            s,
            "\nChecked against the JVM: {} jars, {} runs ({} cut, {} outside the model), {} violations in {} jars, {} checks stopped early.",
            t.checked, t.traces, t.cut, t.outside_model, t.violations, t.violating_jars, t.check_errors
        );
    }
    let proved = results.iter().any(|r| r.prove.is_some());
    if proved {
        let _ = writeln!(
            s,
            "\nVerdicts: {} YES, {} NO, {} MAYBE; prove time per jar median {:.1} ms, 90th percentile {:.1} ms; {} cross-check violations.",
            t.yes, t.no, t.maybe, t.prove_median_ms, t.prove_p90_ms, t.prove_violations
        );
        // what the verdicts assume, once per distinct model (all jars share one in practice)
        let mut models: Vec<String> = results
            .iter()
            .filter_map(|r| r.prove.as_ref()?.assumptions.as_ref())
            .map(|a| format!("{}; start states: {}", a.ints, a.start))
            .collect();
        models.sort();
        models.dedup();
        for m in models {
            let _ = writeln!(s, "Verdicts assume {m}.");
        }
    }
    for st in [Status::Unsupported, Status::Budget, Status::Error] {
        let reasons = top_reasons(results, st);
        if reasons.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n**{}** reasons:\n", st.name());
        for (why, n) in reasons {
            let _ = writeln!(s, "- {n} × {}", why.replace('|', "\\|"));
        }
    }
    let _ = writeln!(
        s,
        "\n| jar | status | nodes |{}{}{} detail |",
        if timing { " ms |" } else { "" },
        if proved { " verdict |" } else { "" },
        if checked {
            " traces | violations | cut | coverage |"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        "|---|---|---:|{}{}{}---|",
        if timing { "---:|" } else { "" },
        if proved { "---|" } else { "" },
        if checked { "---:|---:|---:|---:|" } else { "" }
    );
    for r in results {
        let time = if timing {
            format!(" {:.1} |", r.graph_ms)
        } else {
            String::new()
        };
        let check = match (&r.check, checked) {
            (_, false) => String::new(),
            (None, true) => " | | | |".into(),
            (Some(c), true) => format!(
                " {} | {} | {} | {:.1} % |",
                c.traces,
                c.violations,
                c.cut,
                100.0 * coverage(c.covered_nodes, r.nodes)
            ),
        };
        let verdict = match (&r.prove, proved) {
            (_, false) => String::new(),
            (None, true) => " |".into(),
            (Some(p), true) => format!(" {} |", p.verdict),
        };
        let mut detail = r.detail.clone();
        if let Some(p) = &r.prove {
            if let Some(why) = &p.reason {
                detail = format!(
                    "{detail}{}why MAYBE: {why}",
                    if detail.is_empty() { "" } else { "; " }
                );
            }
            if let Some(v) = &p.replay {
                detail = format!(
                    "{detail}{}{} replay: {v}",
                    if detail.is_empty() { "" } else { "; " },
                    p.verdict
                );
            }
        }
        if let Some(c) = &r.check {
            for (what, v) in [("check stopped", &c.error), ("replay", &c.replay)] {
                if let Some(v) = v {
                    detail = format!(
                        "{detail}{}{what}: {v}",
                        if detail.is_empty() { "" } else { "; " }
                    );
                }
            }
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} |{time}{verdict}{check} {} |",
            r.jar,
            r.status.name(),
            r.nodes,
            detail.replace('|', "\\|")
        );
    }
    s
}

/// Fraction of `nodes` that `covered` is (0 for an empty graph).
pub fn coverage(covered: usize, nodes: usize) -> f64 {
    if nodes == 0 {
        0.0
    } else {
        covered as f64 / nodes as f64
    }
}

/// A jar in the JSON report: the check's numbers at the top level (`null` when not checked).
#[derive(Serialize)]
struct JarJson<'a> {
    jar: &'a str,
    status: Status,
    detail: &'a str,
    nodes: usize,
    graph_ms: f64,
    traces: Option<usize>,
    violations: Option<usize>,
    steps: Option<u64>,
    outside_model: Option<usize>,
    cut: Option<usize>,
    node_coverage: Option<f64>,
    check_seed: Option<u64>,
    check_ms: Option<f64>,
    check_error: Option<&'a str>,
    replay: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_violations: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_replay: Option<&'a str>,
    /// Why a MAYBE (the prover's first note), or a failed step.
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_note: Option<&'a str>,
    /// A NO's evidence.
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_witness: Option<&'a str>,
    /// Why the verdict is MAYBE (`jtg prove`'s reason; set for every MAYBE).
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_reason: Option<&'a str>,
    /// What the verdict assumes: its integer model and its start state's shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    prove_assumptions: Option<&'a jtg_terminate::Assumptions>,
}

impl<'a> JarJson<'a> {
    fn of(r: &'a JarResult) -> JarJson<'a> {
        let c = r.check.as_ref();
        JarJson {
            jar: &r.jar,
            status: r.status,
            detail: &r.detail,
            nodes: r.nodes,
            graph_ms: r.graph_ms,
            traces: c.map(|c| c.traces),
            violations: c.map(|c| c.violations),
            steps: c.map(|c| c.steps),
            outside_model: c.map(|c| c.outside_model),
            cut: c.map(|c| c.cut),
            node_coverage: c.map(|c| coverage(c.covered_nodes, r.nodes)),
            check_seed: c.map(|c| c.seed),
            check_ms: c.map(|c| c.check_ms),
            check_error: c.and_then(|c| c.error.as_deref()),
            replay: c.and_then(|c| c.replay.as_deref()),
            verdict: r.prove.as_ref().map(|p| p.verdict.as_str()),
            certificate: r.prove.as_ref().map(|p| p.certificate.as_str()),
            prove_ms: r.prove.as_ref().map(|p| p.prove_ms),
            prove_violations: r.prove.as_ref().and_then(|p| p.prove_violations),
            prove_replay: r.prove.as_ref().and_then(|p| p.replay.as_deref()),
            prove_note: r.prove.as_ref().and_then(|p| p.note.as_deref()),
            prove_witness: r.prove.as_ref().and_then(|p| p.witness.as_deref()),
            prove_reason: r.prove.as_ref().and_then(|p| p.reason.as_deref()),
            prove_assumptions: r.prove.as_ref().and_then(|p| p.assumptions.as_ref()),
        }
    }
}

/// JSON: `{"format_version": 1, "jars": [...], "totals": {...}}`; without `timing` every
/// time (`*_ms`) is left out.
pub fn render_json(results: &[JarResult], timing: bool) -> String {
    #[derive(Serialize)]
    struct J<'a> {
        format_version: u64,
        jars: Vec<JarJson<'a>>,
        totals: Totals,
    }
    let mut v = serde_json::to_value(J {
        format_version: jtg_check::FORMAT_VERSION,
        jars: results.iter().map(JarJson::of).collect(),
        totals: totals(results),
    })
    .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
    if !timing {
        drop_times(&mut v);
    }
    serde_json::to_string_pretty(&v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Removes every time (a key ending in `_ms`) from `v`, at any depth (`--no-times`).
pub fn drop_times(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|k, _| !k.ends_with("_ms"));
            m.values_mut().for_each(drop_times);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(drop_times),
        _ => {}
    }
}

/// CSV: one line per jar (`jar,status,nodes,graph_ms,traces,violations,detail,cut,
/// outside_model,node_coverage,check_error`; the check's columns are empty for jars not
/// checked); without `timing` the `graph_ms` column is left out.
pub fn render_csv(results: &[JarResult], timing: bool) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut s = String::from(if timing {
        "jar,status,nodes,graph_ms,traces,violations,detail,cut,outside_model,node_coverage,check_error\n"
    } else {
        "jar,status,nodes,traces,violations,detail,cut,outside_model,node_coverage,check_error\n"
    });
    for r in results {
        let c = r.check.as_ref();
        let opt = |v: Option<usize>| v.map(|x| x.to_string()).unwrap_or_default();
        let time = if timing {
            format!("{:.3},", r.graph_ms)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{},{},{},{time}{},{},{},{},{},{},{}",
            q(&r.jar),
            r.status.name(),
            r.nodes,
            opt(c.map(|c| c.traces)),
            opt(c.map(|c| c.violations)),
            q(&r.detail),
            opt(c.map(|c| c.cut)),
            opt(c.map(|c| c.outside_model)),
            c.map(|c| format!("{:.4}", coverage(c.covered_nodes, r.nodes)))
                .unwrap_or_default(),
            c.and_then(|c| c.error.as_deref())
                .map(q)
                .unwrap_or_default()
        );
    }
    s
}

/// Reads an expected-status list (`<status> <jar> [<verdict>]` per line, `#` comments).
pub fn read_expected(text: &str) -> Vec<(String, Status)> {
    read_expected_verdicts(text)
        .into_iter()
        .map(|(j, s, _)| (j, s))
        .collect()
}

/// [`read_expected`] with the optional third column, the expected verdict (`YES`, `NO`,
/// `MAYBE`).
pub fn read_expected_verdicts(text: &str) -> Vec<(String, Status, Option<String>)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            let st = Status::parse(w.next()?)?;
            let jar = w.next()?.to_string();
            let verdict = w.next().map(str::to_string);
            Some((jar, st, verdict))
        })
        .collect()
}

/// AProVE's verdicts (`jar<TAB>YES|NO|MAYBE…` per line, a header line first), as the
/// corpus's `aprove-termcomp2024.tsv` lists them.
pub fn read_aprove(text: &str) -> std::collections::BTreeMap<String, String> {
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let (jar, v) = l.split_once('\t')?;
            Some((jar.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// A verdict that contradicts AProVE's: YES where AProVE says NO, or NO where it says YES.
pub fn contradicts(ours: &str, aprove: &str) -> bool {
    matches!((ours, aprove), ("YES", "NO") | ("NO", "YES"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_keys_group_numbers() {
        assert_eq!(
            reason_key("unsupported at A.m(I)V pc 12: invokevirtual: library method x.Y.z()V"),
            "invokevirtual: library method x.Y.z()V"
        );
        assert_eq!(
            reason_key("node budget exceeded: 20000 nodes"),
            "node budget exceeded: N nodes"
        );
    }

    #[test]
    fn expected_lists_parse() {
        let v = read_expected("# c\ncomplete a/B.jar\nbudget  c/D.jar\nnonsense\n");
        assert_eq!(
            v,
            vec![
                ("a/B.jar".to_string(), Status::Complete),
                ("c/D.jar".to_string(), Status::Budget)
            ]
        );
    }

    #[test]
    fn totals_and_percentiles() {
        let r = |st, ms| JarResult {
            jar: "x".into(),
            status: st,
            detail: String::new(),
            nodes: 1,
            graph_ms: ms,
            check: None,
            prove: None,
        };
        let t = totals(&[
            r(Status::Complete, 1.0),
            r(Status::Budget, 3.0),
            r(Status::Complete, 2.0),
        ]);
        assert_eq!((t.jars, t.complete, t.budget), (3, 2, 1));
        assert_eq!(t.median_ms, 2.0);
        assert_eq!(t.max_ms, 3.0);
        assert!(render_json(&[], true).contains("\"totals\""));
    }
}
