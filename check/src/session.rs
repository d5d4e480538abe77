//! A check session: generate → trace → match → shrink → journal, for one method's graph.
//!
//! `jtg check`, the corpus runner (`jtg corpus --check`) and the mutation analysis all check
//! runs this way, through one [`Session`]:
//!
//! * the inputs ([`Inputs`]) are cases of the generator (`--seed S`, cases `0..n` or one
//!   `--case K`) or one input written by hand (`--input FILE`);
//! * they are traced in chunks of [`CHUNK`] cases, one JVM batch each, on a thread of its
//!   own that runs one chunk ahead of the matching (the JVM traces the next chunk while this
//!   one is matched), and matched by [`Settings::jobs`] threads ([`check_runs`]); results do
//!   not depend on the number of threads;
//! * the first [`Settings::max_reports`] violations get a report, with the input shrunk
//!   ([`crate::shrink`]) and a replay command;
//! * with a [`Journal`], every checked case is recorded (keyed by [`CaseId`]) before the next
//!   one counts, and a resumed session ([`Session::resume`]) takes the journal's record in
//!   place of a case, in case order, so that its totals and reports are those of an
//!   uninterrupted session.
//!
//! A session stops at the first case it cannot check (an input the generator cannot draw, a
//! run the JVM cannot trace, a journal that cannot be written): the cases before it are
//! checked (and recorded), and [`Checked::stopped`] says why.

mod chunks;
mod failure;

use crate::error::CheckError;
use crate::gen::{GenConfig, GenError, Generator};
use crate::journal::{Journal, JournalError};
use crate::path::Matcher;
use crate::report::FailureReport;
use crate::shard::Shard;
use crate::summary::{Summary, TraceRecord};
use crate::target::Target;
use crate::verdict::{check_run, check_runs, Verdict};
use chunks::{Chunk, Chunks};
use jtg_engine::state::{IntSemantics, MethodId, State};
use jtg_engine::{Graph, Program};
use jtg_jvm::{JvmError, Trace};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Inputs traced per JVM batch (each batch is one JNI session and one Java thread).
pub const CHUNK: usize = 64;

/// How a session draws, runs, reports and shrinks.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The integer semantics of the graph (and of the generated ints' ranges).
    pub ints: IntSemantics,
    /// The generator's seed.
    pub seed: u64,
    /// The generator's largest structure.
    pub max_size: usize,
    /// Step budget of one run; a longer run is checked as a prefix and counted as cut.
    pub max_steps: u64,
    /// Violations reported (and shrunk) in detail; the rest are only counted.
    pub max_reports: usize,
    /// JVM runs spent on shrinking one failing input.
    pub shrink_runs: usize,
    /// Threads that match runs against the graph.
    pub jobs: usize,
    /// The command that replays this session's runs, without the case's own arguments
    /// (`jtg check CP M --ints I --max-steps N`): a report's replay command is this plus
    /// `--seed S --case K --max-size Z`, or plus `--input FILE` for a shrunk input.
    pub replay: String,
}

/// The inputs of a session.
#[derive(Clone, Debug)]
pub enum Inputs {
    /// Cases `first`, `first + 1`, … of the generator, `count` of them (`-n N`: from 0;
    /// `--case K`: one from K).
    Generated { first: u64, count: u64 },
    /// The cases of `0..count` that belong to `shard` (`-n N --shard K/N`): case `K-1`,
    /// `K-1+N`, … ([`Shard`]).
    Sharded { count: u64, shard: Shard },
    /// One concrete input (`--input FILE`): its name in reports, the arguments that replay
    /// it, the state.
    Given {
        name: String,
        replay: String,
        state: Box<State>,
    },
}

impl Inputs {
    /// Number of cases.
    pub fn len(&self) -> u64 {
        match self {
            Inputs::Generated { count, .. } => *count,
            Inputs::Sharded { count, shard } => shard.count(*count),
            Inputs::Given { .. } => 1,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` is the journal key of one of these cases (exactly as [`CaseId`] writes
    /// it: `case 7`, not `case 07`).
    pub fn has_key(&self, key: &str) -> bool {
        match self {
            Inputs::Given { .. } => key == "input",
            Inputs::Generated { first, count } => key
                .strip_prefix("case ")
                .and_then(|c| c.parse::<u64>().ok())
                .is_some_and(|c| {
                    c >= *first && c - first < *count && key == CaseId::Generated(c).to_string()
                }),
            Inputs::Sharded { count, shard } => key
                .strip_prefix("case ")
                .and_then(|c| c.parse::<u64>().ok())
                .is_some_and(|c| {
                    c < *count && shard.has(c) && key == CaseId::Generated(c).to_string()
                }),
        }
    }
}

/// One case of a session: its journal key is its [`fmt::Display`] form (`input`, `case 7`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum CaseId {
    /// The input given by hand.
    Input,
    /// Case `k` of the generator.
    Generated(u64),
}

impl fmt::Display for CaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseId::Input => f.write_str("input"),
            CaseId::Generated(k) => write!(f, "case {k}"),
        }
    }
}

/// Why a session could not start, or stopped before its last case. Each names what it
/// could not do; the CLI maps all of them to exit code 2 (bad input), and so the first three
/// say `bad input:` as a `jtg_jvm::JvmError::BadInput` does.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// A label the checker cannot evaluate (a reference in neither state, …): an error of the
    /// graph, refused before any run.
    #[error("bad input: the graph's labels: {0}")]
    Labels(String),
    /// The generator cannot draw instances of the start state at all.
    #[error("bad input: {error}")]
    Generator { error: GenError },
    /// An input given by hand is not an instance of the graph's start state (decided with the
    /// checker's own `c ⊑ s`, [`crate::start_instance`]): refused before any run, since the
    /// graph says nothing about such a run.
    #[error("bad input: input is not an instance of the start state: {0}")]
    NotInstance(String),
    /// The generator could not draw one case.
    #[error("bad input: {error}")]
    Generate { case: u64, error: GenError },
    /// The JVM could not run one case.
    #[error("tracing {name}")]
    Trace {
        case: CaseId,
        /// The case's name in reports (`seed S case K`, the input's file).
        name: String,
        #[source]
        source: CheckError,
    },
    /// The JVM cannot trace at all, whatever the input: no JVM, no ASM, a JVM that does not
    /// start, a class the tracer cannot instrument. Not a fault of the case it happened on,
    /// so the message does not name one (the CLI's exit code 5).
    #[error(transparent)]
    Environment(JvmError),
    /// A run of the checker itself failed (shrinking, a journal record of another graph).
    #[error(transparent)]
    Check(#[from] CheckError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The tracing thread ended before the matching did.
    #[error("the tracing thread stopped")]
    TracerStopped,
}

/// The journal's records of a session's cases, read back by [`Session::resume`].
#[derive(Default)]
pub struct Resumed(BTreeMap<String, TraceRecord>);

impl Resumed {
    /// Number of finished cases.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What a session found.
#[derive(Debug)]
pub struct Checked {
    /// Totals over every case checked (journal records included).
    pub summary: Summary,
    /// The detailed reports, in case order (at most [`Settings::max_reports`]).
    pub reports: Vec<FailureReport>,
    /// The first case whose run violates the graph (checked in this session, not resumed).
    pub first_violation: Option<CaseId>,
    /// Why the session stopped before its last case; the totals are those of the cases
    /// before.
    pub stopped: Option<SessionError>,
}

/// One method's graph, checked against runs of the method in the JVM.
pub struct Session<'a> {
    prog: &'a Program,
    graph: &'a Graph,
    method: MethodId,
    target: Target<'a>,
    matcher: Matcher<'a>,
    /// Draws the cases, and shrinks failing inputs (given ones too); without a generator
    /// there is no shrinking.
    generator: Result<Generator<'a>, GenError>,
    settings: Settings,
    inputs: Inputs,
}

impl<'a> Session<'a> {
    /// A session checking `graph` (of a method of `prog`, run from the class path entries
    /// `classpath`) on `inputs`. Refuses a graph whose labels the checker cannot evaluate,
    /// and generated inputs from a start state the generator cannot draw from.
    pub fn new(
        prog: &'a Program,
        graph: &'a Graph,
        classpath: Vec<PathBuf>,
        settings: Settings,
        inputs: Inputs,
    ) -> Result<Session<'a>, SessionError> {
        let method = graph.method.clone();
        let target = Target::new(prog, method.clone(), classpath)?;
        let matcher = Matcher::new(graph, prog, settings.ints);
        if let Some(e) = matcher.label_error() {
            return Err(SessionError::Labels(e.to_string()));
        }
        let cfg = GenConfig {
            seed: settings.seed,
            max_size: settings.max_size,
            ints: settings.ints,
        };
        let start = &graph.nodes[graph.start].state;
        let generator = Generator::new(prog, &method, start, cfg);
        if let Inputs::Given { state, .. } = &inputs {
            crate::start_instance::input_of_start(state, start, &target.arg_slots, prog)
                .map_err(SessionError::NotInstance)?;
        }
        if let (Inputs::Generated { .. } | Inputs::Sharded { .. }, Err(e)) = (&inputs, &generator) {
            if !inputs.is_empty() {
                return Err(SessionError::Generator { error: e.clone() });
            }
        }
        Ok(Session {
            prog,
            graph,
            method,
            target,
            matcher,
            generator,
            settings,
            inputs,
        })
    }

    /// The matcher of the session's graph.
    pub fn matcher(&self) -> &Matcher<'a> {
        &self.matcher
    }

    /// The records of this session's cases in `journal` (refused if it has a record of a case
    /// the session does not have: then it is not this session's journal).
    pub fn resume(&self, journal: &Journal) -> Result<Resumed, SessionError> {
        let records = journal.records_of_run(&|key| self.inputs.has_key(key))?;
        Ok(Resumed(records))
    }

    /// Checks every case (those in `resumed` by their record), appending the record of each
    /// case checked to `journal`; `progress` is called after every case with the totals so
    /// far.
    pub fn run(
        &self,
        journal: Option<&Journal>,
        resumed: Resumed,
        progress: &mut dyn FnMut(&Summary),
    ) -> Checked {
        let mut out = Checked {
            summary: Summary::new(self.graph),
            reports: Vec::new(),
            first_violation: None,
            stopped: None,
        };
        let mut chunks = Chunks::new(self, resumed.0);
        // Tracing runs on a thread of its own, one chunk ahead of the checks: the JVM traces
        // the next chunk while this one is matched.
        let r = std::thread::scope(|scope| -> Result<(), SessionError> {
            let (want, wanted) = std::sync::mpsc::sync_channel::<Vec<State>>(1);
            let (give, given) = std::sync::mpsc::sync_channel(1);
            let target = &self.target;
            let max_steps = self.settings.max_steps;
            scope.spawn(move || {
                for states in wanted {
                    if give.send(target.trace_batch(&states, max_steps)).is_err() {
                        break;
                    }
                }
            });
            let request = |c: &Chunk| -> Result<(), SessionError> {
                if !c.cases.is_empty() {
                    let states = c.cases.iter().map(|c| c.state.clone()).collect();
                    want.send(states).map_err(|_| SessionError::TracerStopped)?;
                }
                Ok(())
            };
            let mut cur = chunks.next_chunk();
            request(&cur)?;
            while !cur.is_empty() {
                let ahead = if cur.failed.is_none() {
                    let c = chunks.next_chunk();
                    request(&c)?;
                    c
                } else {
                    Chunk::default()
                };
                for r in cur.records.drain(..) {
                    out.summary.add_record(&r)?;
                    out.reports.extend(r.report);
                    progress(&out.summary);
                }
                let traces = if cur.cases.is_empty() {
                    Vec::new()
                } else {
                    given.recv().map_err(|_| SessionError::TracerStopped)?
                };
                self.check_chunk(&mut cur, traces, journal, &mut out, progress)?;
                // a case the generator could not draw ends the session after the cases
                // before it
                if let Some(e) = cur.failed.take() {
                    return Err(e);
                }
                cur = ahead;
            }
            Ok(())
        });
        out.stopped = r.err();
        out
    }

    /// Checks the cases of `chunk` on their `traces` (in case order; a tracing error stops
    /// the session at its case, after the cases before it).
    fn check_chunk(
        &self,
        chunk: &mut Chunk,
        traces: Vec<Result<Trace, CheckError>>,
        journal: Option<&Journal>,
        out: &mut Checked,
        progress: &mut dyn FnMut(&Summary),
    ) -> Result<(), SessionError> {
        let (prog, sem) = (self.prog, self.settings.ints);
        let ok = traces.iter().take_while(|t| t.is_ok()).count();
        let runs: Vec<&Trace> = traces[..ok].iter().flatten().collect();
        let mut checks =
            check_runs(&self.matcher, prog, &runs, sem, self.settings.jobs).into_iter();
        drop(runs);
        for (case, trace) in chunk.cases.drain(..).zip(traces) {
            let trace = trace.map_err(|source| trace_error(case.id, case.name.clone(), source))?;
            let c = checks
                .next()
                .unwrap_or_else(|| check_run(&self.matcher, prog, &trace, sem));
            out.summary.add(&c);
            let mut record = journal.map(|_| TraceRecord::of(&c));
            if let Verdict::Violation(stuck) = &c.verdict {
                out.first_violation.get_or_insert(case.id);
                if out.reports.len() < self.settings.max_reports {
                    let r = self.report(&case, &trace, stuck)?;
                    if let Some(rec) = &mut record {
                        rec.report = Some(r.clone());
                    }
                    out.reports.push(r);
                }
            }
            if let (Some(j), Some(rec)) = (journal, &record) {
                j.append(&case.id.to_string(), rec)?;
            }
            progress(&out.summary);
        }
        Ok(())
    }

    /// Every case's run, in case order, as [`Session::run`] traces them but all in one JVM
    /// batch and without matching (the mutation analysis matches them against many graphs).
    /// The first case that cannot be drawn or traced is the error.
    pub fn traces(&self) -> Result<Vec<Trace>, SessionError> {
        let cases = Chunks::new(self, BTreeMap::new()).all_cases()?;
        let states: Vec<State> = cases.iter().map(|c| c.state.clone()).collect();
        let traces = self.target.trace_batch(&states, self.settings.max_steps);
        cases
            .into_iter()
            .zip(traces)
            .map(|(case, t)| t.map_err(|source| trace_error(case.id, case.name, source)))
            .collect()
    }
}

/// The error of a case the JVM could not trace: the environment's failure as it is (no case
/// in it: it is not the case's fault), any other with the case's name.
fn trace_error(case: CaseId, name: String, source: CheckError) -> SessionError {
    match source {
        CheckError::Jvm(e) if e.is_environment() => SessionError::Environment(e),
        source => SessionError::Trace { case, name, source },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    quickcheck::quickcheck! {
        /// The journal keys of generated inputs are exactly `case K` for their cases, written
        /// as [`CaseId`] writes them.
        fn sharded_keys_are_exactly_the_shards_cases(count: u16, total: u8, c: u16) -> bool {
            let total = u64::from(total % 8) + 1;
            let (count, c) = (u64::from(count), u64::from(c));
            (1..=total).all(|k| {
                let shard = Shard::new(k, total).unwrap();
                let inputs = Inputs::Sharded { count, shard };
                let key = CaseId::Generated(c).to_string();
                inputs.has_key(&key) == (c < count && shard.has(c))
                    && inputs.len() == shard.count(count)
            })
        }

        fn keys_are_exactly_the_cases(first: u64, count: u16, offset: u16) -> bool {
            let inputs = Inputs::Generated { first, count: u64::from(count) };
            let c = first.wrapping_add(u64::from(offset));
            let inside = c >= first && c - first < u64::from(count);
            inputs.has_key(&CaseId::Generated(c).to_string()) == inside
                && !inputs.has_key(&format!("case 0{c}"))
                && !inputs.has_key(&format!("case {c} "))
                && !inputs.has_key("input")
                && inputs.len() == u64::from(count)
        }
    }

    #[test]
    fn a_given_input_has_the_key_input() {
        let inputs = Inputs::Given {
            name: "x".into(),
            replay: String::new(),
            state: Box::default(),
        };
        assert!(inputs.has_key("input"));
        assert!(!inputs.has_key("case 0"));
        assert_eq!(inputs.len(), 1);
        assert_eq!(CaseId::Input.to_string(), "input");
        assert_eq!(CaseId::Generated(7).to_string(), "case 7");
    }
}
