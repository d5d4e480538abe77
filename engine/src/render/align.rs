//! Structural alignment of two graphs' nodes for `jtg diff` ([`super::diff`]): a small edit of
//! the source (hoisting `a.length` into a local) shifts the pcs of every later instruction
//! and adds or removes a few states, so nodes are matched by their states, not their pcs.
//!
//! * **shifted**: equal states up to a renaming of references and the frames' pcs;
//! * **aligned**: walking both graphs from pairs already matched (the start nodes first),
//!   each unmatched successor of one side is paired with the most similar unmatched node a
//!   few edges below the partner on the other side (states compared as token multisets,
//!   references renamed, pcs left out), when they are similar enough. Nodes one side has
//!   and the other not (the hoisting's own states) are stepped over, so the walk goes on
//!   below them.
//!
//! Every choice is deterministic: candidates are taken nearest first, then by id.

use super::json::{JsonGraph, JsonNode};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// How far below a matched partner a counterpart is looked for (edges): the states an edit
/// inserts or removes between two matched ones.
const REACH: usize = 4;

/// The least similarity (Dice coefficient of the token multisets) of two aligned states.
const LEAST_SIMILARITY: f64 = 0.6;

/// The state text of `n` with its frames' pcs left out and its references renamed by first
/// occurrence: equal for states an edit only shifted.
pub(super) fn pc_free(n: &JsonNode) -> String {
    let mut names = HashMap::new();
    let renamed = super::rename::canonical(&n.state, &mut names);
    renamed
        .lines()
        .map(|line| match line.split_once(" | ") {
            // a frame line: `[T: ][Class.method(desc) ]PC | locals | stack`
            Some((head, rest)) => {
                let head = head.trim_end_matches(|c: char| c.is_ascii_digit());
                format!("{head}_ | {rest}")
            }
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tokens of a state text: words and single punctuation characters.
fn tokens(text: &str) -> BTreeMap<&str, usize> {
    let mut out = BTreeMap::new();
    let mut start = None;
    let word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '#' | '$' | '.');
    for (k, c) in text.char_indices() {
        match (word(c), start) {
            (true, None) => start = Some(k),
            (false, Some(s)) => {
                *out.entry(&text[s..k]).or_insert(0) += 1;
                start = None;
            }
            _ => {}
        }
        if !word(c) && !c.is_whitespace() {
            *out.entry(&text[k..k + c.len_utf8()]).or_insert(0) += 1;
        }
    }
    if let Some(s) = start {
        *out.entry(&text[s..]).or_insert(0) += 1;
    }
    out
}

/// The Dice coefficient of two texts' token multisets, in [0, 1].
pub(super) fn similarity(a: &str, b: &str) -> f64 {
    let (ta, tb) = (tokens(a), tokens(b));
    let common: usize = ta
        .iter()
        .map(|(t, n)| (*n).min(tb.get(t).copied().unwrap_or(0)))
        .sum();
    let total: usize = ta.values().sum::<usize>() + tb.values().sum::<usize>();
    if total == 0 {
        return 1.0;
    }
    2.0 * common as f64 / total as f64
}

/// The successors of each node.
fn successors(g: &JsonGraph) -> Vec<Vec<usize>> {
    let mut v = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        if !v[e.from].contains(&e.to) {
            v[e.from].push(e.to);
        }
    }
    v
}

/// The nodes within [`REACH`] edges below `from` (not `from` itself), nearest first, each with
/// its distance.
fn below(succ: &[Vec<usize>], from: usize) -> Vec<(usize, usize)> {
    let mut seen = BTreeSet::from([from]);
    let mut out = vec![];
    let mut layer = vec![from];
    for d in 1..=REACH {
        let mut next = vec![];
        for &n in &layer {
            for &s in &succ[n] {
                if seen.insert(s) {
                    out.push((s, d));
                    next.push(s);
                }
            }
        }
        layer = next;
    }
    out
}

/// Whether two nodes may stand for each other at all: both program ends or neither, and of
/// the same method (each graph's own method counts as the same: a diff may compare two
/// classes' versions of one method).
pub(super) fn same_kind(old: &JsonGraph, a: &JsonNode, new: &JsonGraph, b: &JsonNode) -> bool {
    let own = |g: &JsonGraph, n: &JsonNode| (n.method != g.method).then(|| n.method.clone());
    a.end == b.end && own(old, a) == own(new, b)
}

/// Pairs nodes left unmatched by [`super::diff`]'s exact rounds (module docs): `pairs` gets
/// (old, new, equal up to pcs) for every new pair.
pub(super) fn align(
    old: &JsonGraph,
    new: &JsonGraph,
    matched: &mut BTreeMap<usize, usize>,
    taken: &mut BTreeSet<usize>,
) -> Vec<(usize, usize, bool)> {
    let texts_old: Vec<String> = old.nodes.iter().map(pc_free).collect();
    let texts_new: Vec<String> = new.nodes.iter().map(pc_free).collect();
    let mut pairs = vec![];
    // shifted: the same state at other pcs, paired in construction order
    let mut free: HashMap<(&str, bool), VecDeque<usize>> = HashMap::new();
    for (k, t) in texts_new.iter().enumerate() {
        if !taken.contains(&k) {
            free.entry((t.as_str(), new.nodes[k].end))
                .or_default()
                .push_back(k);
        }
    }
    for (k, t) in texts_old.iter().enumerate() {
        if matched.contains_key(&k) {
            continue;
        }
        let key = (t.as_str(), old.nodes[k].end);
        if let Some(n) = free.get_mut(&key).and_then(VecDeque::pop_front) {
            if same_kind(old, &old.nodes[k], new, &new.nodes[n]) {
                matched.insert(k, n);
                taken.insert(n);
                pairs.push((k, n, true));
            }
        }
    }
    // the start nodes stand for each other whatever their states
    if !matched.contains_key(&old.start) && !taken.contains(&new.start) {
        matched.insert(old.start, new.start);
        taken.insert(new.start);
        pairs.push((
            old.start,
            new.start,
            texts_old[old.start] == texts_new[new.start],
        ));
    }
    let (succ_old, succ_new) = (successors(old), successors(new));
    let mut work: VecDeque<(usize, usize)> = matched.iter().map(|(&o, &n)| (o, n)).collect();
    while let Some((o, n)) = work.pop_front() {
        // each unmatched node below `o` (nearest first) looks for its counterpart below `n`
        let cands_new: Vec<(usize, usize)> = below(&succ_new, n);
        for (t, dt) in below(&succ_old, o) {
            if matched.contains_key(&t) {
                continue;
            }
            let best = cands_new
                .iter()
                .filter(|(c, _)| !taken.contains(c))
                .filter(|(c, _)| same_kind(old, &old.nodes[t], new, &new.nodes[*c]))
                .map(|&(c, dc)| {
                    let s = similarity(&texts_old[t], &texts_new[c]);
                    // nearer counterparts first: an edit moves states by few edges
                    let penalty = 0.02 * dt.abs_diff(dc) as f64;
                    (s - penalty, s, c)
                })
                .filter(|&(_, s, _)| s >= LEAST_SIMILARITY)
                .fold(None::<(f64, f64, usize)>, |acc, x| match acc {
                    Some(a) if a.0 >= x.0 => Some(a),
                    _ => Some(x),
                });
            if let Some((_, _, c)) = best {
                matched.insert(t, c);
                taken.insert(c);
                pairs.push((t, c, texts_old[t] == texts_new[c]));
                work.push_back((t, c));
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarity_of_token_multisets() {
        assert_eq!(similarity("a b c", "a b c"), 1.0);
        assert_eq!(similarity("a b", "c d"), 0.0);
        let s = similarity("05 | a: o1, i: i2 | ε", "05 | a: o1, n: i3, i: i2 | ε");
        assert!(s > 0.8 && s < 1.0, "{s}");
    }

    #[test]
    fn pc_free_leaves_out_pcs_and_reference_names() {
        let node = |state: &str| JsonNode {
            id: 0,
            method: "A.m()V".into(),
            pc: Some(0),
            end: false,
            state: state.into(),
            source: None,
        };
        let a = pc_free(&node("07 | a: o3, i: i4 | i4\no3: int[](?)  i4: 0"));
        let b = pc_free(&node("10 | a: o1, i: i2 | i2\no1: int[](?)  i2: 0"));
        assert_eq!(a, b);
        assert!(a.starts_with("_ | "), "{a}");
        let c = pc_free(&node("A.f()V 07 | x: i1 | ε\n03 | ε | ε"));
        assert_eq!(c, "A.f()V _ | x: i#1 | ε\n_ | ε | ε");
    }
}
