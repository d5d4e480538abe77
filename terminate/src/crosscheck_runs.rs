//! The runs of the cross-check (`jtg prove --check N`, `--input FILE`): inputs drawn or given,
//! run in the JVM in batches, each checked by [`Checker`]; a failing input is shrunk
//! ([`crate::shrink`]) and reported with the commands that replay it.

use crate::crosscheck::Checker;
use crate::from_graph::Encoding;
use crate::shrink::{save_input, shrink};
use crate::{ProveConfig, ProveReport, ShrunkViolation, Violation};
use anyhow::Result;
use jtg_check::gen::Generator;
use jtg_check::report::shell_quote;
use jtg_engine::state::text::LocalNames;
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::{Graph, Program};
use jtg_prove::TerminationCertificate;

/// The inputs of a cross-check: the one given (`--input`) or `cfg.check` generated ones, each
/// with its name in replay commands.
fn inputs(gen: &Generator<'_>, cfg: &ProveConfig) -> Result<Vec<(Option<u64>, State)>> {
    if let Some(given) = &cfg.input {
        gen.admits(&given.state).map_err(|why| {
            anyhow::Error::new(jtg_engine::EngineError::StartState(format!(
                "{}: not an instance of the start state: {why}",
                given.file
            )))
        })?;
        return Ok(vec![(None, given.state.clone())]);
    }
    (0..cfg.check)
        .map(|k| Ok((Some(k), gen.case(k)?.state)))
        .collect()
}

/// Runs the inputs (the given one or `cfg.check` generated ones) and checks every transition
/// (module docs); a failing input is shrunk and its replay given.
pub(crate) fn run(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    enc: &Encoding,
    cert: Option<&TerminationCertificate>,
    cfg: &ProveConfig,
    report: &mut ProveReport,
) -> Result<()> {
    let gen = cfg.generator(prog, m, graph)?;
    let checker = Checker::new(prog, m, graph, enc, cert, cfg)?;
    let inputs = inputs(&gen, cfg)?;
    for chunk in inputs.chunks(64) {
        let states: Vec<State> = chunk.iter().map(|(_, s)| s.clone()).collect();
        let traces = checker.target.trace_batch(&states, checker.max_steps);
        for ((case, input), tr) in chunk.iter().zip(traces) {
            let tr = tr?;
            report.checked_runs += 1;
            if matches!(tr.end, jtg_jvm::TraceEnd::Cut { .. }) {
                report.cut_runs += 1;
            }
            // the trace itself, not every step materialised: a deep recursion would hold
            // steps × depth frames (2 GB for `Daily.ternaryRec --check 20`)
            let c = checker.check_run(&tr);
            report.checked_transitions += c.checked;
            report.skipped_transitions += c.skipped;
            let name = match case {
                Some(k) => format!("case {k}"),
                None => "the input".to_string(),
            };
            if let Some(why) = c.no_path {
                report.notes.push(format!("{name}: {why}"));
            }
            let Some(f) = c.failure else { continue };
            if report.violations.len() >= 5 {
                continue;
            }
            let source = (f.transition.step < tr.len())
                .then(|| tr.top_frame(f.transition.step))
                .and_then(|t| prog.source_line(&MethodId::new(&t.class, &t.method, &t.desc), t.pc))
                .map(|l| l.to_string());
            let replay = Replay { prog_m: m, cfg };
            let shrunk = shrink(&checker, &gen, input, &f.kind, cfg.shrink_runs)?
                .map(|(small, sf)| -> Result<ShrunkViolation> {
                    let text = gen.print(&small);
                    let file = save_input(m, &text)?;
                    Ok(ShrunkViolation {
                        input: text,
                        step: sf.transition.step,
                        rule: checker.rule_text(sf.transition.rule),
                        detail: sf.detail,
                        replay: replay.given(&file),
                        input_file: file,
                    })
                })
                .transpose()?;
            let violation = Violation {
                input: gen.print(input),
                step: f.transition.step,
                source,
                kind: f.kind,
                rule: checker.rule_text(f.transition.rule),
                detail: f.detail,
                replay: match case {
                    Some(k) => replay.generated(*k),
                    None => replay.given(&cfg.input.as_ref().expect("given").file),
                },
                shrunk,
                same_as: vec![],
            };
            // a failure equal to one reported (its shrunk input up to the names of
            // references, its kind and rule) is that one again: named, not repeated
            match report
                .violations
                .iter_mut()
                .find(|v| same_failure(v, &violation))
            {
                Some(first) => first.same_as.push(name),
                None => report.violations.push(violation),
            }
        }
    }
    Ok(())
}

/// The `jtg prove` commands that run one input again.
struct Replay<'a> {
    prog_m: &'a MethodId,
    cfg: &'a ProveConfig,
}

impl Replay<'_> {
    fn base(&self) -> String {
        let cfg = self.cfg;
        let m = self.prog_m;
        let mut s = format!(
            "jtg prove {} {}",
            shell_quote(&cfg.classpath),
            shell_quote(&format!(
                "{}.{}{}",
                m.class.replace('/', "."),
                m.name,
                m.desc
            ))
        );
        if let Some(p) = &cfg.start_file {
            s.push_str(&format!(" --start {}", shell_quote(&p.to_string_lossy())));
        }
        if cfg.ints == IntSemantics::Java {
            s.push_str(" --ints java");
        }
        s.push_str(&format!(" --max-steps {}", cfg.max_steps));
        if let Some(k) = cfg.break_certificate {
            s.push_str(&format!(" --break-certificate {}", k.name()));
        }
        s
    }

    /// Case `k` of the generated inputs (all `cfg.check` of them are run again).
    fn generated(&self, k: u64) -> String {
        format!(
            "{} --check {} --seed {}  # case {k}",
            self.base(),
            self.cfg.check,
            self.cfg.seed
        )
    }

    /// One input from a file.
    fn given(&self, file: &str) -> String {
        format!("{} --input {}", self.base(), shell_quote(file))
    }
}

/// Whether two violations are the same failure: the same kind and rule, and inputs (the
/// shrunk ones where both were shrunk) equal up to the names of references.
fn same_failure(a: &Violation, b: &Violation) -> bool {
    let input = |v: &Violation| {
        v.shrunk
            .as_ref()
            .map_or_else(|| v.input.clone(), |s| s.input.clone())
    };
    let rule = |v: &Violation| v.shrunk.as_ref().map_or(&v.rule, |s| &s.rule).clone();
    a.kind == b.kind
        && rule(a) == rule(b)
        && crate::model::canonical_names(&input(a)) == crate::model::canonical_names(&input(b))
}
