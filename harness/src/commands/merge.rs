//! `jtg merge JOURNAL…`: the report of a whole run from the journals of its shards
//! (`jtg check … --shard K/N --journal F`, `jtg corpus … --shard K/N --journal F`).
//!
//! The journals must be of one run: the same parameters but for `shard`, the shards 1..N
//! each once, every unit of the run recorded. The report is computed from the records as the
//! unsharded run computes it (case order, the first `--max-reports` violations in detail; jars
//! in path order), so it is that run's report, except the times, which journals do not all
//! hold (a merged `jtg check` report has no `time`, a merged corpus report the jars' own).

use super::check::{self, print_report};
use super::corpus::{self, Report};
use anyhow::{bail, Context, Result};
use jtg_check::journal::JournalContents;
use jtg_check::shard::Shard;
use jtg_check::{Summary, TraceRecord};
use jtg_harness::corpus::JarResult;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `jtg check` journals (default for them).
    Text,
    /// `jtg corpus` journals (default for them).
    Md,
    Json,
    /// `jtg corpus` journals only.
    Csv,
    Junit,
}

#[derive(clap::Args)]
pub struct Args {
    /// The journals of the shards of one run (or the one journal of an unsharded run).
    #[arg(required = true)]
    pub journals: Vec<PathBuf>,
    /// text, json or junit for `jtg check` journals; md, json, csv or junit for `jtg corpus`
    /// journals.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Leave the times out (corpus reports).
    #[arg(long)]
    pub no_times: bool,
    /// Write to this file instead of standard output (corpus reports).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<ExitCode> {
    let journals = a
        .journals
        .iter()
        .map(|p| JournalContents::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let params = one_run(&journals)?;
    match params.get("command").and_then(Value::as_str) {
        Some("check") => merge_check(&a, &journals, &params),
        Some("corpus") => merge_corpus(&a, &journals, &params),
        _ => bail!(
            "{}: not a journal of `jtg check` or `jtg corpus`",
            journals[0].path.display()
        ),
    }
}

/// The parameters the journals share (without `shard`); refused unless they are the shards
/// 1..N of one run, each once.
fn one_run(journals: &[JournalContents]) -> Result<Value> {
    let mut common: Option<(Value, &JournalContents)> = None;
    let mut shards = BTreeSet::new();
    let mut total = None;
    for j in journals {
        let mut params = j.params.clone();
        let shard: Shard = match params.as_object_mut().and_then(|o| o.remove("shard")) {
            Some(s) => serde_json::from_value(s)
                .with_context(|| format!("{}: the header's shard", j.path.display()))?,
            None => bail!(
                "{}: the journal names no shard (written by a jtg without --shard): run it again",
                j.path.display()
            ),
        };
        match &common {
            None => common = Some((params, j)),
            Some((c, first)) if *c != params => bail!(
                "{} and {} are journals of different runs ({})",
                first.path.display(),
                j.path.display(),
                differing_keys(c, &params)
            ),
            Some(_) => {}
        }
        if *total.get_or_insert(shard.total()) != shard.total() {
            bail!(
                "{} is shard {shard}, the journals before it are of {} shards",
                j.path.display(),
                total.unwrap_or(0)
            );
        }
        if !shards.insert(shard.index()) {
            bail!("shard {shard} is given twice ({})", j.path.display());
        }
    }
    let total = total.unwrap_or(1);
    if let Some(k) = (1..=total).find(|k| !shards.contains(k)) {
        bail!("shard {k}/{total} is missing: merge the journals of all {total} shards");
    }
    Ok(common.map(|(c, _)| c).unwrap_or(Value::Null))
}

/// The top-level keys whose values differ, for the message.
fn differing_keys(a: &Value, b: &Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return "different parameters".into();
    };
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let differ: Vec<String> = keys
        .into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| format!("`{k}` differs"))
        .collect();
    differ.join(", ")
}

fn merge_check(a: &Args, journals: &[JournalContents], params: &Value) -> Result<ExitCode> {
    let format = match a.format.unwrap_or(Format::Text) {
        Format::Text => check::Format::Text,
        Format::Json => check::Format::Json,
        Format::Junit => check::Format::Junit,
        f => bail!("--format {f:?} is for corpus journals; a check report is text, json or junit"),
    };
    let get = |k: &str| {
        params
            .get(k)
            .and_then(Value::as_u64)
            .with_context(|| format!("the journal's header has no `{k}`"))
    };
    let (n, graph_nodes, max_reports) = (get("n")?, get("graph_nodes")?, get("max_reports")?);
    let method = params
        .get("method")
        .and_then(Value::as_str)
        .context("the journal's header has no `method`")?;
    if !params.get("case").is_none_or(Value::is_null)
        || !params.get("input").is_none_or(Value::is_null)
    {
        bail!("a journal of one --case or --input is not a shard of a run: nothing to merge");
    }
    let mut records: BTreeMap<u64, TraceRecord> = BTreeMap::new();
    for j in journals {
        for (key, r) in j.records::<TraceRecord>()? {
            let case = key
                .strip_prefix("case ")
                .and_then(|c| c.parse::<u64>().ok())
                .filter(|&c| c < n)
                .with_context(|| {
                    format!("{}: `{key}` is not a case of the run", j.path.display())
                })?;
            records.insert(case, r);
        }
    }
    if let Some(missing) = (0..n).find(|c| !records.contains_key(c)) {
        bail!(
            "the journals hold {} of the run's {n} cases (case {missing} is missing): finish the shards (--resume) before merging",
            records.len()
        );
    }
    let mut summary = Summary::of_nodes(usize::try_from(graph_nodes)?);
    let mut reports = Vec::new();
    for r in records.values() {
        summary.add_record(r)?;
        if let Some(rep) = &r.report {
            if (reports.len() as u64) < max_reports {
                reports.push(rep.clone());
            }
        }
    }
    print_report(&method, &summary, &reports, format, None)
}

fn merge_corpus(a: &Args, journals: &[JournalContents], params: &Value) -> Result<ExitCode> {
    let format = match a.format.unwrap_or(Format::Md) {
        Format::Md => corpus::Format::Md,
        Format::Json => corpus::Format::Json,
        Format::Csv => corpus::Format::Csv,
        Format::Junit => corpus::Format::Junit,
        Format::Text => {
            bail!("--format text is for check journals; a corpus report is md, json, csv or junit")
        }
    };
    let jars = params
        .get("jars")
        .and_then(Value::as_u64)
        .context("the journal's header has no `jars`")?;
    let mut results: BTreeMap<PathBuf, JarResult> = BTreeMap::new();
    for j in journals {
        for (key, r) in j.records::<JarResult>()? {
            results.insert(PathBuf::from(key), r);
        }
    }
    if results.len() as u64 != jars {
        bail!(
            "the journals hold {} of the run's {jars} jars: finish the shards (--resume) before merging",
            results.len()
        );
    }
    let paths: Vec<PathBuf> =
        serde_json::from_value(params.get("paths").cloned().unwrap_or_default())
            .context("the journal's header has no `paths`")?;
    let present = |k: &str| params.get(k).is_some_and(|v| !v.is_null());
    // jars in path order, as `find_jars` orders them
    let results: Vec<JarResult> = results.into_values().collect();
    Report {
        format,
        no_times: a.no_times,
        output: a.output.as_deref(),
        checked: present("check"),
        proved: present("prove"),
        paths: &paths,
        expect: None,
        save_expected: None,
        seconds: None,
    }
    .print(&results)
}
