//! Changed tokens of a changed line (`jtg diff`): both lines are split into tokens
//! (identifiers and numbers, and single other characters), compared with Myers' diff
//! (`similar`), and the tokens only one side has are enclosed in [`OPEN`] … [`CLOSE`]; changed
//! tokens next to each other (or separated only by unchanged punctuation inside one change)
//! form one marked span.

use similar::{capture_diff_slices, Algorithm, DiffOp};
use std::ops::Range;

/// Opens a span of changed tokens.
pub const OPEN: char = '«';
/// Closes a span of changed tokens.
pub const CLOSE: char = '»';

/// Byte ranges of the tokens of `line`.
fn tokens(line: &str) -> Vec<Range<usize>> {
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '#' | '-' | '.');
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut in_word = false;
    for (k, c) in line.char_indices() {
        let end = k + c.len_utf8();
        match out.last_mut() {
            Some(r) if in_word && word(c) => r.end = end,
            _ => out.push(k..end),
        }
        in_word = word(c);
    }
    out
}

/// `line` with the tokens in `changed` (indices into its tokens) marked; adjacent ones share
/// a span.
fn mark(line: &str, toks: &[Range<usize>], changed: &[bool]) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut open = false;
    for (k, r) in toks.iter().enumerate() {
        if changed[k] && !open {
            out.push(OPEN);
            open = true;
        } else if !changed[k] && open {
            out.push(CLOSE);
            open = false;
        }
        out.push_str(&line[r.clone()]);
    }
    if open {
        out.push(CLOSE);
    }
    out
}

/// The two lines with the tokens only one of them has marked: (old marked, new marked).
pub fn mark_changes(old: &str, new: &str) -> (String, String) {
    let (ta, tb) = (tokens(old), tokens(new));
    let sa: Vec<&str> = ta.iter().map(|r| &old[r.clone()]).collect();
    let sb: Vec<&str> = tb.iter().map(|r| &new[r.clone()]).collect();
    let (mut ca, mut cb) = (vec![false; ta.len()], vec![false; tb.len()]);
    for op in capture_diff_slices(Algorithm::Myers, &sa, &sb) {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            } => ca[old_index..old_index + old_len].fill(true),
            DiffOp::Insert {
                new_index, new_len, ..
            } => cb[new_index..new_index + new_len].fill(true),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
                ca[old_index..old_index + old_len].fill(true);
                cb[new_index..new_index + new_len].fill(true);
            }
        }
    }
    (mark(old, &ta, &ca), mark(new, &tb, &cb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_changed_tokens_are_marked() {
        let (a, b) = mark_changes("i1: Z", "i1: [-2147483648,2147483647]");
        assert_eq!(a, "i1: «Z»");
        assert_eq!(b, "i1: «[-2147483648,2147483647]»");
        let (a, b) = mark_changes("o2: List(next=o3, val=i2)", "o2: List(next=o4, val=i2)");
        assert_eq!(a, "o2: List(next=«o3», val=i2)");
        assert_eq!(b, "o2: List(next=«o4», val=i2)");
        // a token only one side has
        let (a, b) = mark_changes("00 | x: i1 | ε", "00 | x: i1, y: i2 | ε");
        assert_eq!(a, "00 | x: i1 | ε");
        assert_eq!(b, "00 | x: i1«, y: i2» | ε");
    }

    #[test]
    fn equal_lines_have_no_marks() {
        let (a, b) = mark_changes("o1: A(f=o2)", "o1: A(f=o2)");
        assert_eq!((a.as_str(), b.as_str()), ("o1: A(f=o2)", "o1: A(f=o2)"));
    }
}
