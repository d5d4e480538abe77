//! Differences between two graphs of one method, for reviewing a change without reading two
//! whole graphs (`jtg diff OLD.json NEW.json`).
//!
//! The comparison is **textual**: it reads the JSON form ([`super::json::read_text_graph`])
//! and compares state texts and edge labels as strings, without parsing states. Parsing would
//! need the class path for local-variable names and would fail on graphs of classes that
//! changed since; two renderings of the same state are equal strings anyway, because the text
//! form is canonical.
//!
//! # Matching nodes
//!
//! Node ids are construction order, so an inserted node shifts every later id and ids alone
//! cannot be compared. Nodes are matched in three rounds, each only among nodes not matched
//! yet, and every round pairs candidates in construction order (the k-th unmatched old node
//! with a key goes with the k-th unmatched new node with that key):
//!
//! 1. **identical**: same method, pc, end flag and state text (each graph's own method counts
//!    as the same, so two classes' versions of a method compare);
//! 2. **renamed**: the same up to a renaming of references — the texts are equal after
//!    numbering `o…` and `i…` references by first occurrence (a change upstream that allocates
//!    one more fresh reference renames everything below it, and such nodes are not news);
//! 3. **shifted**: the same up to a renaming at another pc — an edit above shifted the code
//!    ([`super::align`]);
//! 4. **changed**: by structure ([`super::align`]) — the start nodes stand for each other;
//!    then, from every matched pair, each unmatched node a few edges below the old one is
//!    paired with the most similar unmatched node a few edges below the new one (states as
//!    token multisets, references renamed, pcs left out), if similar enough; nodes only one
//!    side has are stepped over.
//!
//! Old nodes left over were **removed**, new ones **added**. An edge is identified by its
//! matched endpoints and kind; its labels are compared after the renaming of its source state,
//! so edges between renamed nodes compare equal when only reference numbers changed.

use super::json::{JsonGraph, JsonNode};
use super::rename::canonical;
use super::word_diff::mark_changes;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;

/// How an old node corresponds to a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Match {
    Identical,
    Renamed,
    /// The same state up to a renaming at another pc (an edit above it shifted the code).
    Shifted,
    Changed,
}

/// An edge of one graph, by index into its `edges`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EdgeChange {
    /// An old edge without counterpart.
    Removed(usize),
    /// A new edge without counterpart.
    Added(usize),
    /// Same endpoints and kind, other labels: (old edge, new edge).
    Relabelled(usize, usize),
}

/// The differences between two graphs.
pub struct GraphDiff<'a> {
    pub old: &'a JsonGraph,
    pub new: &'a JsonGraph,
    /// Matched nodes: old id → (new id, how).
    pub matched: BTreeMap<usize, (usize, Match)>,
    pub removed: Vec<usize>,
    pub added: Vec<usize>,
    pub edges: Vec<EdgeChange>,
}

/// The renaming that canonicalizes a node's state, and the canonical text.
fn canonical_state(n: &JsonNode) -> (String, HashMap<String, String>) {
    let mut names = HashMap::new();
    let text = canonical(&n.state, &mut names);
    (text, names)
}

type Key = (Option<String>, Option<u32>, bool, String);

/// A node's place and state; the graph's own method is `None`, so that two classes' versions
/// of a method compare.
fn key(g: &JsonGraph, n: &JsonNode, text: &str) -> Key {
    let method = (n.method != g.method).then(|| n.method.clone());
    (method, n.pc, n.end, text.to_string())
}

/// Pairs unmatched nodes with equal keys, in construction order.
fn pair_by_key(
    old: &[Key],
    new: &[Key],
    how: Match,
    matched: &mut BTreeMap<usize, (usize, Match)>,
    taken: &mut BTreeSet<usize>,
) {
    let mut free: HashMap<&Key, VecDeque<usize>> = HashMap::new();
    for (k, key) in new.iter().enumerate() {
        if !taken.contains(&k) {
            free.entry(key).or_default().push_back(k);
        }
    }
    for (k, key) in old.iter().enumerate() {
        if matched.contains_key(&k) {
            continue;
        }
        if let Some(n) = free.get_mut(key).and_then(VecDeque::pop_front) {
            matched.insert(k, (n, how));
            taken.insert(n);
        }
    }
}

/// Computes the differences (see the module docs for the matching).
pub fn diff<'a>(old: &'a JsonGraph, new: &'a JsonGraph) -> GraphDiff<'a> {
    let mut matched = BTreeMap::new();
    let mut taken = BTreeSet::new();
    let exact =
        |g: &JsonGraph| -> Vec<Key> { g.nodes.iter().map(|n| key(g, n, &n.state)).collect() };
    pair_by_key(
        &exact(old),
        &exact(new),
        Match::Identical,
        &mut matched,
        &mut taken,
    );
    let renamed = |g: &JsonGraph| -> Vec<Key> {
        g.nodes
            .iter()
            .map(|n| key(g, n, &canonical_state(n).0))
            .collect()
    };
    pair_by_key(
        &renamed(old),
        &renamed(new),
        Match::Renamed,
        &mut matched,
        &mut taken,
    );
    // structure: shifted states, then along edges from matched pairs ([`super::align`])
    let mut plain: BTreeMap<usize, usize> = matched.iter().map(|(&o, &(n, _))| (o, n)).collect();
    for (o, n, same) in super::align::align(old, new, &mut plain, &mut taken) {
        let how = if same { Match::Shifted } else { Match::Changed };
        matched.insert(o, (n, how));
    }
    let removed = (0..old.nodes.len())
        .filter(|k| !matched.contains_key(k))
        .collect();
    let added = (0..new.nodes.len())
        .filter(|k| !taken.contains(k))
        .collect();
    let edges = edge_changes(old, new, &matched);
    GraphDiff {
        old,
        new,
        matched,
        removed,
        added,
        edges,
    }
}

/// Edge labels of `g`'s edge `k`, renamed like its source state.
fn canonical_labels(g: &JsonGraph, k: usize) -> Vec<String> {
    let e = &g.edges[k];
    let (_, mut names) = canonical_state(&g.nodes[e.from]);
    e.labels
        .iter()
        .map(|l| canonical(&l.to_string(), &mut names))
        .collect()
}

fn edge_changes(
    old: &JsonGraph,
    new: &JsonGraph,
    matched: &BTreeMap<usize, (usize, Match)>,
) -> Vec<EdgeChange> {
    let mut new_edges: HashMap<(usize, usize, &str), VecDeque<usize>> = HashMap::new();
    for (k, e) in new.edges.iter().enumerate() {
        new_edges
            .entry((e.from, e.to, e.kind.as_str()))
            .or_default()
            .push_back(k);
    }
    let mut out = Vec::new();
    for (k, e) in old.edges.iter().enumerate() {
        let found = match (matched.get(&e.from), matched.get(&e.to)) {
            (Some(&(f, _)), Some(&(t, _))) => new_edges
                .get_mut(&(f, t, e.kind.as_str()))
                .and_then(VecDeque::pop_front),
            _ => None,
        };
        match found {
            None => out.push(EdgeChange::Removed(k)),
            Some(n) if canonical_labels(old, k) != canonical_labels(new, n) => {
                out.push(EdgeChange::Relabelled(k, n))
            }
            Some(_) => {}
        }
    }
    let mut rest: Vec<usize> = new_edges.into_values().flatten().collect();
    rest.sort_unstable();
    out.extend(rest.into_iter().map(EdgeChange::Added));
    out
}

/// Line by line (frames, heap and predicate lines keep their places in the text form):
/// unchanged lines with a blank, others as `-` old and `+` new, the tokens that changed
/// between a `-` line and its `+` line marked `«…»`.
fn line_diff(out: &mut String, old: &str, new: &str) {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    for k in 0..a.len().max(b.len()) {
        match (a.get(k), b.get(k)) {
            (Some(x), Some(y)) if x == y => {
                let _ = writeln!(out, "    {x}");
            }
            (Some(x), Some(y)) => {
                let (x, y) = mark_changes(x, y);
                let _ = writeln!(out, "  - {x}\n  + {y}");
            }
            (x, y) => {
                if let Some(x) = x {
                    let _ = writeln!(out, "  - {x}");
                }
                if let Some(y) = y {
                    let _ = writeln!(out, "  + {y}");
                }
            }
        }
    }
}

impl GraphDiff<'_> {
    /// No node or edge differs, not even by a renaming.
    pub fn is_empty(&self) -> bool {
        self.removed.is_empty()
            && self.added.is_empty()
            && self.edges.is_empty()
            && self.matched.values().all(|(_, m)| *m == Match::Identical)
    }

    /// New nodes to highlight: added, changed and renamed ones.
    pub fn highlight_nodes(&self) -> BTreeSet<usize> {
        let mut s: BTreeSet<usize> = self.added.iter().copied().collect();
        s.extend(
            self.matched
                .values()
                .filter(|(_, m)| *m != Match::Identical)
                .map(|(n, _)| *n),
        );
        s
    }

    /// New edges to highlight: added and relabelled ones.
    pub fn highlight_edges(&self) -> BTreeSet<usize> {
        self.edges
            .iter()
            .filter_map(|c| match c {
                EdgeChange::Removed(_) => None,
                EdgeChange::Added(n) | EdgeChange::Relabelled(_, n) => Some(*n),
            })
            .collect()
    }

    /// The state text of new node `n` for a picture: for a changed or renamed node, the
    /// tokens that differ from its old partner's line at the same place marked `«…»`.
    pub fn marked_new_state(&self, n: usize) -> String {
        let text = &self.new.nodes[n].state;
        let Some((&o, _)) = self
            .matched
            .iter()
            .find(|(_, &(m, how))| m == n && how != Match::Identical)
        else {
            return text.clone();
        };
        let old: Vec<&str> = self.old.nodes[o].state.lines().collect();
        text.lines()
            .enumerate()
            .map(|(k, line)| match old.get(k) {
                Some(was) if *was != line => mark_changes(was, line).1,
                None => mark_changes("", line).1,
                Some(_) => line.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn count(&self, how: Match) -> usize {
        self.matched.values().filter(|(_, m)| *m == how).count()
    }

    /// The report: a summary line, then changed and renamed nodes (line diff of their states:
    /// `-` old, `+` new, blank unchanged), removed and added nodes, then edge changes.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "diff {}: old {} nodes, {} edges; new {} nodes, {} edges",
            self.new.method,
            self.old.nodes.len(),
            self.old.edges.len(),
            self.new.nodes.len(),
            self.new.edges.len()
        );
        if self.old.method != self.new.method {
            let _ = writeln!(out, "note: the old graph is of {}", self.old.method);
        }
        let _ = writeln!(
            out,
            "{} identical, {} renamed, {} shifted, {} changed, {} removed, {} added nodes; {} edge changes",
            self.count(Match::Identical),
            self.count(Match::Renamed),
            self.count(Match::Shifted),
            self.count(Match::Changed),
            self.removed.len(),
            self.added.len(),
            self.edges.len()
        );
        if !self.is_empty() {
            let _ = writeln!(out, "{LEGEND}");
        }
        let block = |out: &mut String, sign: char, text: &str| {
            for line in text.lines() {
                let _ = writeln!(out, "  {sign} {line}");
            }
        };
        for (&o, &(n, how)) in &self.matched {
            let word = match how {
                Match::Identical => continue,
                Match::Renamed => "renamed",
                Match::Shifted => "shifted",
                Match::Changed => "changed",
            };
            let _ = writeln!(out, "\n{word} [{o}] → [{n}]");
            line_diff(&mut out, &self.old.nodes[o].state, &self.new.nodes[n].state);
        }
        for &o in &self.removed {
            let _ = writeln!(out, "\nremoved [{o}]");
            block(&mut out, '-', &self.old.nodes[o].state);
        }
        for &n in &self.added {
            let _ = writeln!(out, "\nadded [{n}]");
            block(&mut out, '+', &self.new.nodes[n].state);
        }
        if !self.edges.is_empty() {
            out.push_str("\nedges (old ids for removed edges, new ids otherwise):\n");
        }
        let edge = |g: &JsonGraph, k: usize| {
            let e = &g.edges[k];
            format!(
                "[{}] → [{}] {}  {}",
                e.from,
                e.to,
                e.kind,
                labels_text(&e.labels)
            )
            .trim_end()
            .to_string()
        };
        for c in &self.edges {
            let _ = match *c {
                EdgeChange::Removed(k) => writeln!(out, "  - {}", edge(self.old, k)),
                EdgeChange::Added(k) => writeln!(out, "  + {}", edge(self.new, k)),
                EdgeChange::Relabelled(o, n) => writeln!(
                    out,
                    "  ~ {}  (was: {})",
                    edge(self.new, n),
                    labels_text(&self.old.edges[o].labels)
                ),
            };
        }
        out
    }
}

/// The legend line of the text report.
pub const LEGEND: &str =
    "legend: - old line, + new line, «…» changed tokens, ~ relabelled edge (was: old labels)";

/// Labels as the graph text prints them.
fn labels_text(labels: &[crate::graph::Label]) -> String {
    labels
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(states: &[&str], edges: &[(usize, usize, &str, &str)]) -> JsonGraph {
        JsonGraph {
            format_version: super::super::json::FORMAT_VERSION,
            method: "A.m()V".into(),
            start: 0,
            complete: true,
            nodes: states
                .iter()
                .enumerate()
                .map(|(k, s)| JsonNode {
                    id: k,
                    method: "A.m()V".into(),
                    pc: s.get(..2).and_then(|p| p.parse().ok()),
                    end: s.starts_with("end"),
                    state: s.to_string(),
                    source: None,
                })
                .collect(),
            edges: edges
                .iter()
                .map(|(f, t, k, l)| super::super::json::JsonEdge {
                    from: *f,
                    to: *t,
                    kind: k.to_string(),
                    labels: if l.is_empty() {
                        vec![]
                    } else {
                        vec![crate::graph::Label::parse(l).unwrap()]
                    },
                })
                .collect(),
        }
    }

    #[test]
    fn identical_renamed_changed_added_removed() {
        let old = graph(
            &[
                "00 | x: i1 | ε",
                "01 | x: i1 | i1",
                "02 | x: i2 | ε",
                "end: return",
            ],
            &[
                (0, 1, "eval", ""),
                (1, 2, "eval", "i2 = i1 + 1"),
                (2, 3, "eval", ""),
            ],
        );
        // a new node 1 shifts ids; 01 keeps its text up to renaming; 02 changes (the new node
        // has a local more, so it is not old 02's state at another pc: that would be 'shifted')
        let new = graph(
            &[
                "00 | x: i1 | ε",
                "05 | x: i1, y: i1 | ε",
                "01 | x: i3 | i3",
                "02 | x: i4 | i4",
                "end: return",
            ],
            &[
                (0, 1, "eval", ""),
                (1, 2, "eval", ""),
                (2, 3, "eval", "i4 = i3 + 1"),
                (3, 4, "eval", ""),
            ],
        );
        let d = diff(&old, &new);
        assert_eq!(d.matched[&0], (0, Match::Identical));
        assert_eq!(d.matched[&3], (4, Match::Identical));
        assert_eq!(d.matched[&1], (2, Match::Renamed));
        assert_eq!(d.matched[&2], (3, Match::Changed));
        assert_eq!(d.added, vec![1]);
        assert!(d.removed.is_empty());
        // 0→1 became 0→1→2; the relabelled-by-renaming edge 1→2 is unchanged
        assert_eq!(
            d.edges,
            vec![
                EdgeChange::Removed(0),
                EdgeChange::Added(0),
                EdgeChange::Added(1)
            ]
        );
        assert_eq!(d.highlight_nodes(), BTreeSet::from([1, 2, 3]));
        let report = d.render();
        assert!(
            report.contains("added [1]\n  + 05 | x: i1, y: i1 | ε"),
            "{report}"
        );
        assert!(report.contains("changed [2] → [3]"), "{report}");
    }

    /// Every state changed (as between the two integer models) and none is equal up to
    /// renaming: the start nodes anchor the structural round, so all nodes pair as changed
    /// and no edge is reported.
    #[test]
    fn a_change_of_every_state_pairs_from_the_start() {
        let old = graph(
            &[
                "00 | x: i1 | ε\ni1: Z",
                "01 | x: i1 | i1\ni1: Z",
                "end: return",
            ],
            &[(0, 1, "eval", ""), (1, 2, "eval", "")],
        );
        let new = graph(
            &[
                "00 | x: i1 | ε\ni1: [-2147483648,2147483647]",
                "01 | x: i1 | i1\ni1: [-2147483648,2147483647]",
                "end: return",
            ],
            &[(0, 1, "eval", ""), (1, 2, "eval", "")],
        );
        let d = diff(&old, &new);
        assert_eq!(d.matched[&0], (0, Match::Changed));
        assert_eq!(d.matched[&1], (1, Match::Changed));
        assert_eq!(d.matched[&2], (2, Match::Identical));
        assert!(d.removed.is_empty() && d.added.is_empty() && d.edges.is_empty());
        let report = d.render();
        assert!(
            report.contains("  - i1: «Z»\n  + i1: «[-2147483648,2147483647]»"),
            "{report}"
        );
        assert_eq!(
            d.marked_new_state(1),
            "01 | x: i1 | i1\ni1: «[-2147483648,2147483647]»"
        );
        assert_eq!(d.marked_new_state(2), "end: return");
    }

    #[test]
    fn a_graph_has_no_differences_with_itself() {
        let g = graph(&["00 | ε | ε", "end: return"], &[(0, 1, "eval", "")]);
        let d = diff(&g, &g);
        assert!(d.is_empty());
        assert!(d.highlight_nodes().is_empty() && d.highlight_edges().is_empty());
    }
}
