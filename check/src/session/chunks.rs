//! The cases of a session in chunks: the journal's records that come before a chunk's cases,
//! then up to [`CHUNK`] cases to trace in one JVM batch.

use super::{CaseId, Inputs, Session, SessionError, CHUNK};
use crate::summary::TraceRecord;
use jtg_engine::state::State;
use std::collections::BTreeMap;

/// One case to run: its id, its name in reports, the arguments that replay it, the input.
pub(super) struct Case {
    pub id: CaseId,
    pub name: String,
    pub replay: String,
    pub state: State,
}

/// A chunk of the cases: the journal's records that come before its cases, the cases, and
/// the error that ended it (a case the generator could not draw; the cases before it are in
/// the chunk).
#[derive(Default)]
pub(super) struct Chunk {
    pub records: Vec<TraceRecord>,
    pub cases: Vec<Case>,
    pub failed: Option<SessionError>,
}

impl Chunk {
    pub(super) fn is_empty(&self) -> bool {
        self.records.is_empty() && self.cases.is_empty() && self.failed.is_none()
    }
}

/// The cases of a session, chunk after chunk.
pub(super) struct Chunks<'s, 'a> {
    session: &'s Session<'a>,
    /// The index of the next case (`0..inputs.len()`).
    next: u64,
    /// The journal's records not taken yet, by key.
    done: BTreeMap<String, TraceRecord>,
}

impl<'s, 'a> Chunks<'s, 'a> {
    pub(super) fn new(session: &'s Session<'a>, done: BTreeMap<String, TraceRecord>) -> Self {
        Chunks {
            session,
            next: 0,
            done,
        }
    }

    fn id(&self, k: u64) -> CaseId {
        match generated_case(&self.session.inputs, k) {
            Some(case) => CaseId::Generated(case),
            None => CaseId::Input,
        }
    }

    /// The next chunk: in case order, a case of the journal is taken as its record (after the
    /// chunk before it, so that the reports are those of an uninterrupted session), the
    /// others are drawn.
    pub(super) fn next_chunk(&mut self) -> Chunk {
        let mut chunk = Chunk::default();
        let total = self.session.inputs.len();
        while self.next < total && chunk.cases.len() < CHUNK {
            let id = self.id(self.next);
            if let Some(r) = self.done.get(&id.to_string()) {
                if !chunk.cases.is_empty() {
                    break;
                }
                chunk.records.push(r.clone());
                self.done.remove(&id.to_string());
                self.next += 1;
                continue;
            }
            match self.case(self.next) {
                Ok(c) => {
                    chunk.cases.push(c);
                    self.next += 1;
                }
                Err(e) => {
                    chunk.failed = Some(e);
                    self.next = total;
                }
            }
        }
        chunk
    }

    /// Every case, drawn; the first that cannot be drawn is the error.
    pub(super) fn all_cases(&self) -> Result<Vec<Case>, SessionError> {
        let total = self.session.inputs.len();
        (0..total).map(|k| self.case(k)).collect()
    }

    /// Case number `k` of the session (`0..inputs.len()`).
    fn case(&self, k: u64) -> Result<Case, SessionError> {
        let s = self.session;
        let Some(case) = generated_case(&s.inputs, k) else {
            let Inputs::Given {
                name,
                replay,
                state,
            } = &s.inputs
            else {
                unreachable!("only a given input has no case number")
            };
            return Ok(Case {
                id: CaseId::Input,
                name: name.clone(),
                replay: replay.clone(),
                state: State::clone(state),
            });
        };
        let g = s
            .generator
            .as_ref()
            .map_err(|e| SessionError::Generator { error: e.clone() })?;
        let sample = g
            .case(case)
            .map_err(|error| SessionError::Generate { case, error })?;
        let (seed, max_size) = (s.settings.seed, s.settings.max_size);
        Ok(Case {
            id: CaseId::Generated(case),
            name: format!("seed {seed} case {case}"),
            replay: format!("--seed {seed} --case {case} --max-size {max_size}"),
            state: sample.state,
        })
    }
}

/// The generator's case number of the `k`-th input (`None` for an input given by hand).
fn generated_case(inputs: &Inputs, k: u64) -> Option<u64> {
    match inputs {
        Inputs::Given { .. } => None,
        Inputs::Generated { first, .. } => Some(first + k),
        Inputs::Sharded { shard, .. } => Some(shard.nth(k)),
    }
}
