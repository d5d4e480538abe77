//! An append-only JSON-lines journal, so that a long run (`jtg check`, `jtg corpus`) that is
//! interrupted keeps every result it finished, and `--resume` continues it.
//!
//! The file is one JSON value per line:
//!
//! ```text
//! {"jtg_journal":1,"params":{"classpath":"build/fixtures","seed":7}}
//! {"key":"List.get#0","record":{"verdict":"ok","steps":12}}
//! {"key":"List.get#1","record":{"verdict":"violation","node":4}}
//! ```
//!
//! The first line is the header: the parameters of the run. A resumed run must have the same
//! parameters (compared as JSON values), otherwise [`Journal::open`] refuses the journal: its
//! results would not be results of this run. Every further line is one finished unit of work,
//! identified by its key. [`Journal::append`] writes a whole line, flushes it and `fsync`s
//! the file before it returns, so a record that was appended survives a kill or a power loss.
//! A kill during `append` can leave a torn last line (no newline, or not JSON); resuming drops
//! it (the file is truncated to its last complete record) and that unit is simply done again.
//!
//! ```no_run
//! # fn main() -> Result<(), jtg_check::journal::JournalError> {
//! use jtg_check::journal::Journal;
//! let params = serde_json::json!({"classpath": "build/fixtures", "seed": 7});
//! let journal = Journal::open("results.jsonl".as_ref(), &params, true)?;
//! for unit in ["List.get#0", "List.get#1"] {
//!     if journal.is_done(unit) {
//!         continue;
//!     }
//!     // … do the work …
//!     journal.append(unit, &serde_json::json!({"verdict": "ok"}))?;
//! }
//! # Ok(()) }
//! ```

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Format version written into the header line.
pub const JOURNAL_VERSION: u64 = 1;

/// Why a journal could not be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    #[error("journal {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `--resume` on a journal of a run with other parameters.
    #[error(
        "journal {} was written by a run with other parameters ({differences}); \
         resume with the same parameters, or remove the journal to start over",
        path.display()
    )]
    Mismatch {
        path: PathBuf,
        /// This run's parameters (JSON).
        expected: String,
        /// The journal's parameters (JSON).
        found: String,
        /// The parameters that differ, `name: X in the journal, Y now`, `; `-separated.
        differences: String,
    },
    /// A line other than the last is not a journal record, or the header is missing.
    #[error("journal {} is corrupt at line {line}: {what}", path.display())]
    Corrupt {
        path: PathBuf,
        line: usize,
        what: String,
    },
    /// A record could not be serialized or deserialized.
    #[error("journal {}: record: {source}", path.display())]
    Record {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// `--resume` without a journal to continue.
    #[error("--resume needs --journal FILE (the journal of the run to continue)")]
    ResumeWithoutJournal,
    /// A journal of some run, and no `--resume`.
    #[error(
        "journal {} exists: pass --resume to continue that run, or remove the file to start over",
        path.display()
    )]
    Exists { path: PathBuf },
    /// A record of a unit the run does not have: the journal is not of this run.
    #[error(
        "journal {} has a record of `{key}`, which is not a unit of this run \
         (remove the journal to start over)",
        path.display()
    )]
    Foreign { path: PathBuf, key: String },
}

/// One finished unit of work.
#[derive(Serialize, serde::Deserialize)]
struct Line<T> {
    key: String,
    record: T,
}

/// An open journal. [`Journal::append`] takes `&self` (the file is behind a mutex), so worker
/// threads can share one journal.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
    /// Keys and records read back on resume, then every appended one.
    done: Mutex<Vec<(String, Value)>>,
}

impl Journal {
    /// Opens the journal at `path` for a run with parameters `params`.
    ///
    /// Without `resume`, a new journal is started: an existing file is replaced. With
    /// `resume`, an existing journal is read back: its header must equal `params`, a torn
    /// last line is dropped (the file is truncated after the last complete record) and new
    /// records are appended after the old ones; a missing or empty file starts a new journal.
    pub fn open(
        path: &Path,
        params: &impl Serialize,
        resume: bool,
    ) -> Result<Journal, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let params = serde_json::to_value(params).map_err(|source| JournalError::Record {
            path: path.to_path_buf(),
            source,
        })?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let mut done = Vec::new();
        let mut text = Vec::new();
        if resume {
            file.read_to_end(&mut text).map_err(io)?;
        }
        let keep = if text.is_empty() {
            0
        } else {
            read_back(path, &text, &params, &mut done)?
        };
        if keep == 0 {
            // A new journal: replace whatever was there by the header.
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            let header = serde_json::json!({"jtg_journal": JOURNAL_VERSION, "params": params});
            write_line(&mut file, &header.to_string()).map_err(io)?;
        } else {
            if keep < text.len() {
                file.set_len(keep as u64).map_err(io)?;
                file.sync_data().map_err(io)?;
            }
            file.seek(SeekFrom::End(0)).map_err(io)?;
        }
        Ok(Journal {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            done: Mutex::new(done),
        })
    }

    /// The journal of a run's `--journal FILE [--resume]` (`None` without a file), for a run
    /// with parameters `params`:
    ///
    /// * `resume` without a file is refused ([`JournalError::ResumeWithoutJournal`]);
    /// * without `resume`, an existing non-empty file is refused ([`JournalError::Exists`]:
    ///   it is the result of some run, to be continued with `--resume` or removed); a missing
    ///   or empty file starts a journal;
    /// * with `resume`, the journal must have been written with the same `params`
    ///   ([`JournalError::Mismatch`] otherwise); a missing or empty file starts a journal, so
    ///   the same command line can be repeated until the run is through.
    pub fn for_run(
        path: Option<&Path>,
        resume: bool,
        params: &impl Serialize,
    ) -> Result<Option<Journal>, JournalError> {
        let Some(path) = path else {
            return if resume {
                Err(JournalError::ResumeWithoutJournal)
            } else {
                Ok(None)
            };
        };
        if !resume && std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(JournalError::Exists {
                path: path.to_path_buf(),
            });
        }
        Journal::open(path, params, resume).map(Some)
    }

    /// The finished records by key; `known` says which keys are units of this run (a record of
    /// any other unit means the journal is not of this run, whatever its header says:
    /// [`JournalError::Foreign`]). A key recorded twice keeps its last record.
    pub fn records_of_run<T: DeserializeOwned>(
        &self,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<BTreeMap<String, T>, JournalError> {
        let mut out = BTreeMap::new();
        for (key, record) in self.records::<T>()? {
            if !known(&key) {
                return Err(JournalError::Foreign {
                    path: self.path.clone(),
                    key,
                });
            }
            out.insert(key, record);
        }
        Ok(out)
    }

    /// The journal's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the record of one finished unit of work, identified by `key`; when this
    /// returns, the line is on disk (written, flushed, `fsync`ed).
    pub fn append(&self, key: &str, record: &impl Serialize) -> Result<(), JournalError> {
        let record = serde_json::to_value(record).map_err(|source| JournalError::Record {
            path: self.path.clone(),
            source,
        })?;
        let line = serde_json::to_string(&Line {
            key: key.to_string(),
            record: &record,
        })
        .map_err(|source| JournalError::Record {
            path: self.path.clone(),
            source,
        })?;
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        write_line(&mut file, &line).map_err(|source| JournalError::Io {
            path: self.path.clone(),
            source,
        })?;
        drop(file);
        self.lock_done().push((key.to_string(), record));
        Ok(())
    }

    /// Keys of all finished units: read back on resume, and appended since.
    pub fn completed_keys(&self) -> BTreeSet<String> {
        self.lock_done().iter().map(|(k, _)| k.clone()).collect()
    }

    /// Whether the unit `key` is finished.
    pub fn is_done(&self, key: &str) -> bool {
        self.lock_done().iter().any(|(k, _)| k == key)
    }

    /// All finished records in journal order (e.g. for a summary over a resumed run). A key
    /// appended twice appears twice.
    pub fn records<T: DeserializeOwned>(&self) -> Result<Vec<(String, T)>, JournalError> {
        self.lock_done()
            .iter()
            .map(|(k, v)| {
                let t = T::deserialize(v).map_err(|source| JournalError::Record {
                    path: self.path.clone(),
                    source,
                })?;
                Ok((k.clone(), t))
            })
            .collect()
    }

    fn lock_done(&self) -> std::sync::MutexGuard<'_, Vec<(String, Value)>> {
        // Entries are pushed whole; a panic elsewhere cannot leave the list inconsistent.
        self.done.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn write_line(file: &mut File, line: &str) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(line.len() + 1);
    buf.extend_from_slice(line.as_bytes());
    buf.push(b'\n');
    file.write_all(&buf)?;
    file.flush()?;
    file.sync_data()
}

/// Reads an existing journal: checks the header against `params`, collects the records and
/// returns the length of the valid prefix (the end of the last complete line); 0 if not even
/// the header line is complete.
fn read_back(
    path: &Path,
    text: &[u8],
    params: &Value,
    done: &mut Vec<(String, Value)>,
) -> Result<usize, JournalError> {
    read_lines(path, text, Some(params), done).map(|(keep, _)| keep)
}

/// [`read_back`], and the header's parameters; `params: None` accepts any.
fn read_lines(
    path: &Path,
    text: &[u8],
    params: Option<&Value>,
    done: &mut Vec<(String, Value)>,
) -> Result<(usize, Value), JournalError> {
    let mut header = Value::Null;
    let corrupt = |line: usize, what: String| JournalError::Corrupt {
        path: path.to_path_buf(),
        line,
        what,
    };
    let mut keep = 0usize;
    let mut rest = text;
    let mut line_no = 0usize;
    while !rest.is_empty() {
        line_no += 1;
        let (line, complete) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], true),
            None => (rest, false),
        };
        let parsed: Option<Value> = std::str::from_utf8(line)
            .ok()
            .and_then(|s| serde_json::from_str(s).ok());
        let is_last = !complete || line.len() + 1 == rest.len();
        let Some(value) = parsed.filter(|_| complete) else {
            if is_last {
                // A torn write: the run was killed during `append`. Drop the line.
                break;
            }
            return Err(corrupt(line_no, "not a JSON line".into()));
        };
        if line_no == 1 {
            let version = value.get("jtg_journal").and_then(Value::as_u64);
            if version != Some(JOURNAL_VERSION) {
                return Err(corrupt(1, "not a jtg journal header".into()));
            }
            let found = value.get("params").cloned().unwrap_or(Value::Null);
            if let Some(params) = params.filter(|p| **p != found) {
                return Err(JournalError::Mismatch {
                    path: path.to_path_buf(),
                    expected: params.to_string(),
                    found: found.to_string(),
                    differences: differences(&found, params),
                });
            }
            header = found;
        } else {
            let l: Line<Value> = serde_json::from_value(value)
                .map_err(|e| corrupt(line_no, format!("not a journal record: {e}")))?;
            done.push((l.key, l.record));
        }
        keep += line.len() + 1;
        rest = &rest[line.len() + 1..];
    }
    Ok((keep, header))
}

/// A journal read whole without writing to it (`jtg merge`): its parameters and its records
/// in file order (a torn last line is left out, as `--resume` would drop it).
#[derive(Debug)]
pub struct JournalContents {
    pub path: PathBuf,
    /// The header's parameters.
    pub params: Value,
    records: Vec<(String, Value)>,
}

impl JournalContents {
    /// Reads the journal at `path`.
    pub fn read(path: &Path) -> Result<JournalContents, JournalError> {
        let text = std::fs::read(path).map_err(|source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut records = Vec::new();
        let (keep, params) = read_lines(path, &text, None, &mut records)?;
        if keep == 0 {
            return Err(JournalError::Corrupt {
                path: path.to_path_buf(),
                line: 1,
                what: "no journal header".into(),
            });
        }
        Ok(JournalContents {
            path: path.to_path_buf(),
            params,
            records,
        })
    }

    /// The records by key (a key recorded twice keeps its last record).
    pub fn records<T: DeserializeOwned>(&self) -> Result<BTreeMap<String, T>, JournalError> {
        self.records
            .iter()
            .map(|(k, v)| {
                let t = T::deserialize(v).map_err(|source| JournalError::Record {
                    path: self.path.clone(),
                    source,
                })?;
                Ok((k.clone(), t))
            })
            .collect()
    }
}

/// The differing parameters of two headers, one `name: X in the journal, Y now` per
/// top-level key of objects (the whole values otherwise), `; `-separated.
fn differences(journal: &Value, now: &Value) -> String {
    let (Value::Object(a), Value::Object(b)) = (journal, now) else {
        return format!("{journal} in the journal, {now} now");
    };
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    let show = |v: Option<&Value>| v.map_or_else(|| "absent".to_string(), Value::to_string);
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            format!(
                "{k}: {} in the journal, {} now",
                show(a.get(k)),
                show(b.get(k))
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("jtg-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        let _ = std::fs::remove_file(&p);
        p
    }

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Rec {
        verdict: String,
        steps: u64,
    }

    fn rec(v: &str, steps: u64) -> Rec {
        Rec {
            verdict: v.into(),
            steps,
        }
    }

    #[test]
    fn append_then_resume_keeps_everything() {
        let p = temp("resume.jsonl");
        let params = json!({"seed": 7, "classpath": "fx"});
        {
            let j = Journal::open(&p, &params, false).unwrap();
            j.append("a", &rec("ok", 1)).unwrap();
            j.append("b", &rec("violation", 2)).unwrap();
            assert!(j.is_done("a") && !j.is_done("c"));
        }
        let j = Journal::open(&p, &params, true).unwrap();
        assert_eq!(
            j.completed_keys().into_iter().collect::<Vec<_>>(),
            ["a", "b"]
        );
        j.append("c", &rec("ok", 3)).unwrap();
        let recs: Vec<(String, Rec)> = j.records().unwrap();
        assert_eq!(
            recs,
            vec![
                ("a".into(), rec("ok", 1)),
                ("b".into(), rec("violation", 2)),
                ("c".into(), rec("ok", 3)),
            ]
        );
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.starts_with(r#"{"jtg_journal":1,"params":"#), "{text}");
    }

    #[test]
    fn without_resume_starts_over() {
        let p = temp("fresh.jsonl");
        let params = json!({"seed": 1});
        Journal::open(&p, &params, false)
            .unwrap()
            .append("a", &rec("ok", 1))
            .unwrap();
        let j = Journal::open(&p, &params, false).unwrap();
        assert!(j.completed_keys().is_empty());
        assert_eq!(std::fs::read_to_string(&p).unwrap().lines().count(), 1);
    }

    #[test]
    fn resume_of_missing_or_empty_file_starts_a_journal() {
        let p = temp("missing.jsonl");
        let j = Journal::open(&p, &json!({"x": 1}), true).unwrap();
        assert!(j.completed_keys().is_empty());
        drop(j);
        std::fs::write(&p, "").unwrap();
        let j = Journal::open(&p, &json!({"x": 1}), true).unwrap();
        j.append("k", &1).unwrap();
        let again = Journal::open(&p, &json!({"x": 1}), true).unwrap();
        assert_eq!(again.completed_keys().len(), 1);
    }

    #[test]
    fn torn_last_line_is_dropped_and_truncated() {
        let p = temp("torn.jsonl");
        let params = json!({"seed": 3});
        {
            let j = Journal::open(&p, &params, false).unwrap();
            j.append("a", &rec("ok", 1)).unwrap();
            j.append("b", &rec("ok", 2)).unwrap();
        }
        let good = std::fs::read(&p).unwrap();
        // Simulate a kill in the middle of writing record "c".
        let full = serde_json::to_string(&Line {
            key: "c".into(),
            record: rec("ok", 3),
        })
        .unwrap();
        let mut torn = good.clone();
        torn.extend_from_slice(&full.as_bytes()[..full.len() / 2]);
        std::fs::write(&p, &torn).unwrap();

        let j = Journal::open(&p, &params, true).unwrap();
        assert_eq!(
            j.completed_keys().into_iter().collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(std::fs::read(&p).unwrap(), good, "torn tail not truncated");
        j.append("c", &rec("ok", 3)).unwrap();
        drop(j);
        let j = Journal::open(&p, &params, true).unwrap();
        assert_eq!(j.completed_keys().len(), 3);
        for l in std::fs::read_to_string(&p).unwrap().lines() {
            serde_json::from_str::<Value>(l).unwrap();
        }

        // A complete JSON value without its newline is torn too (the newline is part of the
        // write), and so is a torn header: the journal starts over.
        let mut no_newline = good.clone();
        no_newline.extend_from_slice(full.as_bytes());
        std::fs::write(&p, &no_newline).unwrap();
        assert_eq!(
            Journal::open(&p, &params, true)
                .unwrap()
                .completed_keys()
                .len(),
            2
        );
        std::fs::write(&p, &good[..10]).unwrap();
        let j = Journal::open(&p, &params, true).unwrap();
        assert!(j.completed_keys().is_empty());
        assert_eq!(std::fs::read_to_string(&p).unwrap().lines().count(), 1);
    }

    #[test]
    fn other_parameters_are_refused() {
        let p = temp("mismatch.jsonl");
        Journal::open(&p, &json!({"seed": 1}), false)
            .unwrap()
            .append("a", &1)
            .unwrap();
        let e = Journal::open(&p, &json!({"seed": 2}), true).unwrap_err();
        assert!(matches!(e, JournalError::Mismatch { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("seed: 1 in the journal, 2 now"), "{msg}");
        let e = Journal::open(&p, &json!({"seed": 1, "n": 5}), true).unwrap_err();
        assert!(
            e.to_string().contains("n: absent in the journal, 5 now"),
            "{e}"
        );
        assert!(!msg.contains('\n'));
        // The refused journal is untouched.
        assert_eq!(std::fs::read_to_string(&p).unwrap().lines().count(), 2);
    }

    #[test]
    fn corrupt_middle_line_or_foreign_file_is_an_error() {
        let p = temp("corrupt.jsonl");
        let params = json!({});
        std::fs::write(
            &p,
            "{\"jtg_journal\":1,\"params\":{}}\ngarbage\n{\"key\":\"a\",\"record\":1}\n",
        )
        .unwrap();
        let e = Journal::open(&p, &params, true).unwrap_err();
        assert!(matches!(e, JournalError::Corrupt { line: 2, .. }), "{e}");
        std::fs::write(&p, "{\"some\":\"other file\"}\n").unwrap();
        let e = Journal::open(&p, &params, true).unwrap_err();
        assert!(matches!(e, JournalError::Corrupt { line: 1, .. }), "{e}");
    }

    #[test]
    fn a_run_opens_its_journal_by_the_rules_of_resume() {
        let p = temp("for-run.jsonl");
        let params = json!({"seed": 4});
        assert!(matches!(
            Journal::for_run(None, true, &params),
            Err(JournalError::ResumeWithoutJournal)
        ));
        assert!(Journal::for_run(None, false, &params).unwrap().is_none());
        // a missing file starts a journal, with or without resume
        let j = Journal::for_run(Some(&p), false, &params).unwrap().unwrap();
        j.append("a", &1).unwrap();
        j.append("b", &2).unwrap();
        drop(j);
        let e = Journal::for_run(Some(&p), false, &params).unwrap_err();
        assert!(matches!(e, JournalError::Exists { .. }), "{e}");
        assert!(e.to_string().contains("pass --resume"), "{e}");
        let j = Journal::for_run(Some(&p), true, &params).unwrap().unwrap();
        let known: BTreeMap<String, u32> = j.records_of_run(&|k| k != "c").unwrap();
        assert_eq!(
            known.into_iter().collect::<Vec<_>>(),
            [("a".into(), 1), ("b".into(), 2)]
        );
        let e = j.records_of_run::<u32>(&|k| k == "a").unwrap_err();
        assert!(
            matches!(&e, JournalError::Foreign { key, .. } if key == "b"),
            "{e}"
        );
    }

    #[test]
    fn shared_between_threads() {
        let p = temp("threads.jsonl");
        let j = Journal::open(&p, &json!(null), false).unwrap();
        std::thread::scope(|s| {
            for t in 0..4 {
                let j = &j;
                s.spawn(move || {
                    for i in 0..25 {
                        j.append(&format!("{t}-{i}"), &i).unwrap();
                    }
                });
            }
        });
        drop(j);
        let j = Journal::open(&p, &json!(null), true).unwrap();
        assert_eq!(j.completed_keys().len(), 100);
    }
}
