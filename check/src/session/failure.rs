//! The report of a violating case: the failure, the input shrunk (when the session has a
//! generator) and saved where its replay command finds it.

use super::chunks::Case;
use super::{Session, SessionError};
use crate::path::Stuck;
use crate::report::{failure, shell_quote, FailureReport};
use crate::shrink::shrink;
use crate::verdict::Verdict;
use jtg_engine::state::text::{print_state, TextContext};
use jtg_engine::state::{MethodId, State};
use jtg_jvm::Trace;
use std::path::PathBuf;

impl Session<'_> {
    /// The report of `case`, whose run `trace` got stuck at `stuck`.
    pub(super) fn report(
        &self,
        case: &Case,
        trace: &Trace,
        stuck: &Stuck,
    ) -> Result<FailureReport, SessionError> {
        let (graph, prog, m) = (self.graph, self.prog, &self.method);
        let set = &self.settings;
        let base = &set.replay;
        let ctx = TextContext::for_method(m.clone(), prog);
        let mut r = failure(
            graph,
            prog,
            m,
            case.name.clone(),
            print_state(&case.state, &ctx),
            trace,
            stuck,
            format!("{base} {}", case.replay),
        );
        let Ok(g) = &self.generator else {
            return Ok(r);
        };
        let cand = |s: &State| g.shrink(s);
        let (small, sc) = shrink(
            &self.target,
            &self.matcher,
            &case.state,
            set.ints,
            set.max_steps,
            &cand,
            set.shrink_runs,
        )?;
        if let Verdict::Violation(ss) = &sc.verdict {
            let text = print_state(&small, &ctx);
            let file = save_input(&self.run_dir(), m, &case.name, &text);
            let replay = file.map_or_else(
                || r.replay.clone(),
                |f| format!("{base} --input {}", shell_quote(&f.to_string_lossy())),
            );
            let strace = self.target.trace(&small, set.max_steps)?;
            let sr = failure(
                graph,
                prog,
                m,
                format!("{}, shrunk", case.name),
                text,
                &strace,
                ss,
                replay,
            );
            r.shrunk = Some(Box::new(sr));
        }
        Ok(r)
    }
}

impl Session<'_> {
    /// The folder of this run's replay files: one per run, named by a stable hash of what the
    /// run's inputs depend on (the replay command, seed and largest structure), so that runs
    /// of other methods, graphs or seeds never overwrite each other's files, while the same
    /// run (resumed, or another shard of it) names the same files and so prints the same
    /// report.
    fn run_dir(&self) -> PathBuf {
        let s = &self.settings;
        let key = format!("{}\n{}\n{}", s.replay, s.seed, s.max_size);
        std::env::temp_dir().join("jtg-check").join(format!(
            "{:016x}",
            jtg_engine::class::stable_hash(key.as_bytes())
        ))
    }
}

/// Writes a shrunk input into `dir`, where a replay command can find it.
fn save_input(dir: &std::path::Path, m: &MethodId, name: &str, text: &str) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).ok()?;
    let slug: String = format!("{}.{}.{name}", m.class, m.name)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let path = dir.join(format!("{slug}.state"));
    std::fs::write(&path, text).ok()?;
    Some(path)
}
