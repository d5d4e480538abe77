//! The text form of a verdict (`jtg prove`).

use jtg_terminate::ProveReport;
use std::fmt::Write as _;

pub fn render_text(r: &ProveReport) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}: {}", r.method, r.verdict);
    let _ = writeln!(o, "assuming: {}", r.assumptions.ints);
    let _ = writeln!(o, "  and a start state: {}", r.assumptions.start);
    let _ = writeln!(
        o,
        "ITS: {} locations, {} rules, {} SCCs",
        r.its_locations, r.its_rules, r.sccs
    );
    match r.verdict.as_str() {
        "YES" => {
            if r.ranking.is_empty() {
                let _ = writeln!(o, "no cycle: every run of the ITS is finite");
            }
            let at = |node: &usize| {
                r.sources
                    .get(node)
                    .map_or_else(String::new, |l| format!("  @ {l}"))
            };
            for (node, text) in &r.invariants {
                let _ = writeln!(o, "invariant [{node}]: {text}{}", at(node));
            }
            for c in &r.never_follow {
                let _ = writeln!(o, "rule graph: never {c}");
            }
            for f in &r.ranking {
                let _ = writeln!(o, "SCC {} level {}:", f.scc, f.level);
                for (node, text) in &f.functions {
                    let _ = writeln!(o, "  [{node}]  {text}{}", at(node));
                }
                for s in &f.strict {
                    let _ = writeln!(o, "  decreases on {s}");
                }
            }
        }
        "NO" => {
            if let Some(w) = &r.witness {
                let _ = writeln!(o, "witness ({}): {}", w.kind, w.detail);
                let _ = writeln!(o, "evidence: {} (integers: {})", w.evidence, w.int_model);
                let _ = writeln!(o, "input {}:", w.input_file);
                for line in w.input.lines() {
                    let _ = writeln!(o, "  {line}");
                }
                let _ = writeln!(o, "replay: {}", w.replay);
            }
        }
        _ => {}
    }
    if let Some(why) = &r.reason {
        let _ = writeln!(o, "why MAYBE: {why}");
    }
    for n in &r.notes {
        let _ = writeln!(o, "note: {n}");
    }
    let _ = writeln!(
        o,
        "times: encode {:.1} ms, prove {:.1} ms, non-termination {:.1} ms, check {:.1} ms",
        r.encode_ms, r.prove_ms, r.nonterm_ms, r.check_ms
    );
    if r.checked_runs > 0 {
        let _ = writeln!(
            o,
            "check: {} runs ({} cut), {} transitions ({} skipped: a value the run did not bind), {} violations",
            r.checked_runs,
            r.cut_runs,
            r.checked_transitions,
            r.skipped_transitions,
            r.violations.len()
        );
        for v in &r.violations {
            let at = v
                .source
                .as_deref()
                .map_or_else(String::new, |l| format!(" ({l})"));
            let _ = writeln!(
                o,
                "VIOLATION ({}) at step {}{at}: {}",
                v.kind, v.step, v.detail
            );
            if !v.same_as.is_empty() {
                let _ = writeln!(
                    o,
                    "  the same failure (up to renaming): {}",
                    v.same_as.join(", ")
                );
            }
            let _ = writeln!(o, "  rule: {}", v.rule);
            let _ = writeln!(o, "  input:");
            for line in v.input.lines() {
                let _ = writeln!(o, "    {line}");
            }
            let _ = writeln!(o, "  replay: {}", v.replay);
            match &v.shrunk {
                Some(sv) => {
                    let _ = writeln!(
                        o,
                        "  shrunk input (fails at step {}: {}):",
                        sv.step, sv.detail
                    );
                    for line in sv.input.lines() {
                        let _ = writeln!(o, "    {line}");
                    }
                    let _ = writeln!(o, "  shrunk rule: {}", sv.rule);
                    let _ = writeln!(o, "  replay the shrunk input: {}", sv.replay);
                }
                None => {
                    let _ = writeln!(o, "  (no smaller input fails the same way)");
                }
            }
        }
    }
    o
}
