//! Shrinking an input the cross-check fails on: the generator's smaller candidates (each still
//! an instance of the start state), each run in the JVM again, kept while the run still fails
//! the cross-check the same way (same kind: a shrunk `ranking` failure is still a wrong
//! ranking function, not some other fault the smaller input happens to show).

use crate::crosscheck::{Checker, Failure};
use anyhow::{Context, Result};
use jtg_check::gen::Generator;
use jtg_engine::class::stable_hash;
use jtg_engine::state::{MethodId, State};

/// Greedy shrinking of `input`, which fails with `kind`: repeatedly replaces it by the first
/// smaller candidate that still fails with `kind`, until none does or `max_runs` JVM runs were
/// spent. `None` when no smaller failing input was found (the input is its own shrink).
pub(crate) fn shrink(
    checker: &Checker<'_>,
    gen: &Generator<'_>,
    input: &State,
    kind: &str,
    max_runs: usize,
) -> Result<Option<(State, Failure)>> {
    let mut best: Option<(State, Failure)> = None;
    let mut runs = 0usize;
    'outer: while runs < max_runs {
        let current = best.as_ref().map_or(input, |(s, _)| s);
        for cand in gen.shrink(current) {
            if runs >= max_runs {
                break 'outer;
            }
            runs += 1;
            // an input the JVM cannot build is no counterexample
            let Ok(c) = checker.check_input(&cand) else {
                continue;
            };
            if let Some(f) = c.failure.filter(|f| f.kind == kind) {
                best = Some((cand, f));
                continue 'outer;
            }
        }
        break;
    }
    Ok(best)
}

/// Writes a shrunk input where a replay command can name it: a file in the system's temp
/// directory named after the method and a hash of the input (the same input, the same file).
pub(crate) fn save_input(m: &MethodId, text: &str) -> Result<String> {
    let dir = std::env::temp_dir().join("jtg-prove");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    let path = dir.join(format!(
        "{}.{}.{:016x}.shrunk.state",
        m.class.replace('/', "."),
        m.name.replace(['<', '>'], ""),
        stable_hash(text.as_bytes())
    ));
    std::fs::write(&path, text)
        .with_context(|| format!("cannot write the shrunk input {}", path.display()))?;
    Ok(path.display().to_string())
}
