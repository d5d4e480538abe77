//! What a verdict assumes (`jtg prove`, `jtg corpus --prove`): the integer model it was
//! proved under and the shape of the start state's heap. A YES under mathematical integers
//! says nothing about runs that overflow; a YES from a start state without `⟲` says nothing
//! about cyclic inputs. Every verdict carries these, in the text and the JSON form.

use jtg_engine::state::{fmt_fields, HeapValue, IntSemantics, State};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The integer model of a verdict (`--ints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IntModel {
    /// `--ints unbounded`: ints and longs are mathematical integers, no overflow exists.
    Mathematical,
    /// `--ints java`: 32-bit ints and 64-bit longs with wrap-around.
    Java,
}

impl From<IntSemantics> for IntModel {
    fn from(s: IntSemantics) -> IntModel {
        match s {
            IntSemantics::Unbounded => IntModel::Mathematical,
            IntSemantics::Java => IntModel::Java,
        }
    }
}

impl fmt::Display for IntModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IntModel::Mathematical => {
                "mathematical integers (no overflow; `--ints java` for 32/64-bit wrap-around)"
            }
            IntModel::Java => "Java integers (32-bit int, 64-bit long, wrap-around)",
        })
    }
}

/// The heap shapes the start state admits: by the thesis' rules, references are acyclic,
/// not shared and distinct unless a predicate of the start state says otherwise (spec §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartShape {
    /// Whether the start state has references at all (else the rest says nothing).
    pub references: bool,
    /// No cycle is reachable (no `⟲` predicate).
    pub acyclic: bool,
    /// No two references share an object and every structure is a tree (no `%$`, no `♦`).
    pub unshared: bool,
    /// Distinct references are distinct objects (no `=?`).
    pub distinct: bool,
    /// The start state's predicates that lift these assumptions, in the state text form.
    pub predicates: Vec<String>,
}

impl StartShape {
    pub fn of(start: &State) -> StartShape {
        let p = &start.preds;
        let mut predicates = vec![];
        predicates.extend(
            p.cyclic
                .iter()
                .map(|(r, f)| format!("{r}⟲{}", fmt_fields(f))),
        );
        predicates.extend(p.joins.iter().map(|(a, b)| format!("{a}%${b}")));
        predicates.extend(p.non_tree.iter().map(|r| format!("{r}♦")));
        predicates.extend(p.may_equal.iter().map(|(a, b)| format!("{a}=?{b}")));
        StartShape {
            references: start.heap.values().any(|v| {
                matches!(
                    v,
                    HeapValue::Unknown { .. }
                        | HeapValue::Abstract { .. }
                        | HeapValue::Object { .. }
                        | HeapValue::Array { .. }
                )
            }),
            acyclic: p.cyclic.is_empty(),
            unshared: p.joins.is_empty() && p.non_tree.is_empty(),
            distinct: p.may_equal.is_empty(),
            predicates,
        }
    }
}

impl fmt::Display for StartShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.references {
            return f.write_str("no references");
        }
        let mut parts = vec![];
        parts.push(if self.acyclic {
            "acyclic"
        } else {
            "cycles allowed"
        });
        parts.push(if self.unshared {
            "unshared parameters (trees)"
        } else {
            "sharing allowed"
        });
        if !self.distinct {
            parts.push("aliases allowed");
        }
        write!(f, "{}", parts.join(", "))?;
        if self.predicates.is_empty() {
            f.write_str(" (no heap predicates; `--start` with ⟲, %$, ♦, =? to allow more)")
        } else {
            write!(f, " ({})", self.predicates.join("  "))
        }
    }
}

/// What a verdict assumes: its integer model and its start state's shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assumptions {
    pub ints: IntModel,
    pub start: StartShape,
}

impl Assumptions {
    pub fn new(ints: IntSemantics, start: &State) -> Assumptions {
        Assumptions {
            ints: ints.into(),
            start: StartShape::of(start),
        }
    }
}

/// The notes every verdict needs to be read right, added last: a MAYBE without a reason gets
/// the general one, and cut runs of the cross-check (each checked for `checked_steps` steps
/// at most) say that they were cut and what a YES then rests on.
pub(crate) fn explain(report: &mut crate::ProveReport, checked_steps: u64) {
    if report.verdict == "MAYBE" && report.notes.is_empty() {
        report.notes.push(
            "no ranking function found within the prover's budget, and no input tried ran \
             forever (no recurrent set, no repeated state within --max-steps)"
                .into(),
        );
    }
    if report.cut_runs > 0 {
        let mut note = format!(
            "{} of {} checked runs did not end within {checked_steps} steps (the cross-check's \
             bound: --max-steps, at most 10 000) or the recording budget: only their prefixes \
             were checked",
            report.cut_runs, report.checked_runs
        );
        if report.verdict == "YES" && report.assumptions.ints == IntModel::Mathematical {
            note.push_str(
                "; the YES is under mathematical integers, where no int overflows: such a \
                 run may not end in Java (`--ints java` proves under wrap-around)",
            );
        }
        report.notes.push(note);
    }
}

/// `text` (a state in the text form) with its references renamed in the order they first
/// appear (`o7`, `o3` → `o1`, `o2`; integers apart from objects): two states that differ only
/// in the names of references have the same canonical text.
pub(crate) fn canonical_names(text: &str) -> String {
    let mut names: std::collections::HashMap<String, String> = Default::default();
    let mut counts: std::collections::HashMap<char, usize> = Default::default();
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let starts_word = k == 0 || !(chars[k - 1].is_alphanumeric() || chars[k - 1] == '_');
        let digits = chars[k + 1..]
            .iter()
            .take_while(|d| d.is_ascii_digit())
            .count();
        let ends_word = chars
            .get(k + 1 + digits)
            .is_none_or(|n| !(n.is_alphanumeric() || *n == '_'));
        if matches!(c, 'o' | 'i') && starts_word && digits > 0 && ends_word {
            let word: String = chars[k..k + 1 + digits].iter().collect();
            let renamed = names.entry(word).or_insert_with(|| {
                let count = counts.entry(c).or_insert(0);
                *count += 1;
                format!("{c}{count}")
            });
            out.push_str(renamed);
            k += 1 + digits;
        } else {
            out.push(c);
            k += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_rename_in_order_of_appearance() {
        let a = "00 | cur: o7, x: i4 | ε\no7: List(next=o3, val=i4)  o3: List(?)  i4: 2\n";
        let b = "00 | cur: o1, x: i2 | ε\no1: List(next=o2, val=i2)  o2: List(?)  i2: 2\n";
        assert_eq!(canonical_names(a), canonical_names(b));
        assert_eq!(canonical_names(a), b.to_string().replace("i2", "i1"));
        // another shape is another failure
        let c = "00 | cur: o1, x: i2 | ε\no1: List(next=o1, val=i2)  i2: 2\n";
        assert_ne!(canonical_names(a), canonical_names(c));
        // words that merely start like references stay
        assert_eq!(canonical_names("info o12x"), "info o12x");
    }
}
