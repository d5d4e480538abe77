//! The positions of the specific state `s'`, enumerated along paths that are simple in the
//! lock-step sense, each tagged with its maximal realized prefix (MRP) in `s` and the suffix
//! below it; the relations of two positions (same, cycle, DAG) for conditions (f)–(m).

use super::control::{Root, RootName};
use super::{Explain, Mismatch, MAX_POSITIONS};
use crate::state::access::{child_at, object_children, AccessStep};
use crate::state::{FieldKey, Ref, State};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::{BTreeMap, BTreeSet};

/// A position of `s'` holding an object reference, as a node of the position trie.
pub(super) struct PositionNode<'a> {
    pub(super) parent: Option<usize>,
    /// Root index for roots, the step from the parent otherwise.
    pub(super) root: usize,
    pub(super) step: Option<AccessStep<'a>>,
    pub(super) depth: usize,
    /// The reference of `s'` here.
    pub(super) r2: Ref,
    /// The reference of `s` here, when `s` realizes the position.
    pub(super) sref: Option<Ref>,
    /// The node of the maximal realized prefix (the node itself when realized).
    pub(super) mrp: usize,
    /// The reference of `s` at the maximal realized prefix.
    pub(super) t: Ref,
    /// The steps from the maximal realized prefix down to here, as a node of
    /// [`Positions::suffixes`] (0: none, the position is realized).
    pub(super) sfx: u32,
}

/// A suffix (steps below a maximal realized prefix) as a node of a trie: the suffix one step
/// shorter, the last step, and the length.
pub(super) struct Suffix<'a> {
    pub(super) up: u32,
    pub(super) step: Option<AccessStep<'a>>,
    pub(super) len: u32,
}

/// Field names borrowed from the states.
pub(super) type Fields<'a> = BTreeSet<&'a FieldKey>;

/// Prints like [`crate::state::fmt_fields`].
pub(super) fn fmt_names(f: &Fields) -> String {
    let names: Vec<String> = f.iter().map(|k| k.to_string()).collect();
    format!("{{{}}}", names.join(","))
}

/// How two positions with the same MRP reference relate (for (g)–(m)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Relation {
    /// Same MRP reference, same suffix: the same object in every instance of `s`.
    Same,
    /// Same MRP reference, one suffix a proper prefix of the other: a cycle below it. The
    /// payload is the node whose suffix is longer and the length of the shorter suffix.
    Cycle(usize, usize),
    /// Same MRP reference, diverging suffixes: DAG sharing below it.
    Dag,
    /// Different MRP references.
    Apart,
}

pub(super) struct Positions<'a> {
    pub(super) explain: Explain,
    pub(super) g: &'a State,
    pub(super) sp: &'a State,
    pub(super) roots: Vec<RootName<'a>>,
    pub(super) nodes: Vec<PositionNode<'a>>,
    /// The nodes holding each object reference of `s'`.
    pub(super) by_ref: BTreeMap<Ref, Vec<usize>>,
    /// The first node of each distinct (MRP reference, suffix) among `by_ref[x]`: the
    /// predicate conditions look at these once per pair of predicates, so they are kept.
    pub(super) tags: HashMap<Ref, Vec<usize>>,
    /// The distinct MRP references of the tags of each `x`, sorted.
    pub(super) mrps: HashMap<Ref, Vec<Ref>>,
    /// Per root: every node below it has an MRP reference with `♦` in `s`, and one with
    /// `⟲∅` in `s` (then (l), resp. (m), cannot fail there).
    pub(super) root_non_tree: Vec<bool>,
    pub(super) root_any_cycle: Vec<bool>,
    /// The suffixes of the nodes, interned: equal suffixes have one number, so the relations
    /// of positions below one reference of `s` (same, cycle, DAG) need no step vectors.
    pub(super) suffixes: Vec<Suffix<'a>>,
    pub(super) suffix_ids: HashMap<(u32, AccessStep<'a>), u32>,
}

impl<'a> Positions<'a> {
    pub(super) fn enumerate(
        sp: &'a State,
        g: &'a State,
        roots: &[Root<'a>],
        explain: Explain,
    ) -> Result<Self, Mismatch> {
        let mut p = Positions {
            explain,
            g,
            sp,
            roots: roots.iter().map(|r| r.0).collect(),
            nodes: Vec::new(),
            by_ref: BTreeMap::new(),
            tags: HashMap::default(),
            mrps: HashMap::default(),
            root_non_tree: Vec::new(),
            root_any_cycle: Vec::new(),
            suffixes: vec![Suffix {
                up: 0,
                step: None,
                len: 0,
            }],
            suffix_ids: HashMap::default(),
        };
        for (k, (_, r, r2)) in roots.iter().enumerate() {
            if !r2.is_obj() {
                continue;
            }
            let id = p.nodes.len();
            p.nodes.push(PositionNode {
                parent: None,
                root: k,
                step: None,
                depth: 0,
                r2: *r2,
                sref: Some(*r),
                mrp: id,
                t: *r,
                sfx: 0,
            });
            p.expand(id)?;
        }
        for (i, n) in p.nodes.iter().enumerate() {
            p.by_ref.entry(n.r2).or_default().push(i);
        }
        let mut seen = HashSet::default();
        for (&x, ids) in &p.by_ref {
            seen.clear();
            let nodes = &p.nodes;
            let tags: Vec<usize> = ids
                .iter()
                .copied()
                .filter(|&i| seen.insert((nodes[i].t, nodes[i].sfx)))
                .collect();
            let mut mrps: Vec<Ref> = tags.iter().map(|&i| nodes[i].t).collect();
            mrps.sort_unstable();
            mrps.dedup();
            p.tags.insert(x, tags);
            p.mrps.insert(x, mrps);
        }
        p.root_non_tree = vec![true; roots.len()];
        p.root_any_cycle = vec![true; roots.len()];
        let mut seen = HashSet::default();
        for n in &p.nodes {
            if seen.insert((n.root, n.t)) {
                p.root_non_tree[n.root] &= g.preds.is_non_tree(n.t);
                p.root_any_cycle[n.root] &= p.any_cycle(n.t);
            }
        }
        Ok(p)
    }

    /// Depth-first extension of the trie below `start`.
    pub(super) fn expand(&mut self, start: usize) -> Result<(), Mismatch> {
        let mut todo = vec![start];
        while let Some(id) = todo.pop() {
            let (r2, sref, mrp, depth, root) = {
                let n = &self.nodes[id];
                (n.r2, n.sref, n.mrp, n.depth, n.root)
            };
            let gval = sref.and_then(|r| self.g.value(r));
            // the object-valued children of s' (null and integers carry no sharing), with
            // what s has at the same step
            let kids: Vec<(AccessStep<'a>, Ref, Option<Ref>)> = self
                .sp
                .value(r2)
                .map(|v| {
                    object_children(v)
                        .map(|(step, c2)| (step, c2, gval.and_then(|g| child_at(g, step))))
                        .collect()
                })
                .unwrap_or_default();
            for (step, c2, c) in kids.into_iter().rev() {
                // A realized child of s is an object too ((c)–(e) hold); anything else is
                // treated as unrealized, which only asks for more predicates.
                let c = c.filter(|c| c.is_obj());
                let cid = self.nodes.len();
                let (cmrp, ct) = match c {
                    Some(c) => (cid, c),
                    None if sref.is_some() => (id, self.nodes[id].t),
                    None => (mrp, self.nodes[mrp].t),
                };
                // an unrealized child extends the suffix of its parent (empty when the parent
                // is realized: it is the child's maximal realized prefix)
                let csfx = if c.is_some() {
                    0
                } else {
                    let up = if sref.is_some() {
                        0
                    } else {
                        self.nodes[id].sfx
                    };
                    self.suffix_id(up, step)
                };
                if cid >= MAX_POSITIONS {
                    return Err(self.explain.no('l', || {
                        format!(
                            "s' has more than {MAX_POSITIONS} positions; refusing to decide \
                             the sharing conditions"
                        )
                    }));
                }
                self.nodes.push(PositionNode {
                    parent: Some(id),
                    root,
                    step: Some(step),
                    depth: depth + 1,
                    r2: c2,
                    sref: c,
                    mrp: cmrp,
                    t: ct,
                    sfx: csfx,
                });
                if !self.repeats_on_path(cid) {
                    todo.push(cid);
                }
            }
        }
        Ok(())
    }

    /// Whether the (s-side tag, s'-reference) pair of `id` already occurs above it: then the
    /// positions below repeat ones already enumerated.
    pub(super) fn repeats_on_path(&self, id: usize) -> bool {
        let n = &self.nodes[id];
        let key = |m: &PositionNode| (m.sref, if m.sref.is_some() { 0 } else { m.mrp + 1 }, m.r2);
        let k = key(n);
        let mut cur = n.parent;
        while let Some(a) = cur {
            if key(&self.nodes[a]) == k {
                return true;
            }
            cur = self.nodes[a].parent;
        }
        false
    }

    pub(super) fn name(&self, id: usize) -> String {
        let mut steps = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            let n = &self.nodes[c];
            match &n.step {
                Some(s) => steps.push(s.to_string()),
                None => steps.push(self.roots[n.root].to_string()),
            }
            cur = n.parent;
        }
        steps.reverse();
        steps.concat()
    }

    /// The nodes from the MRP of `id` (inclusive) down to `id`.
    pub(super) fn path_from_mrp(&self, id: usize) -> Vec<usize> {
        let stop = self.nodes[id].mrp;
        let mut v = vec![id];
        let mut cur = id;
        while cur != stop {
            match self.nodes[cur].parent {
                Some(p) => {
                    v.push(p);
                    cur = p;
                }
                None => break,
            }
        }
        v.reverse();
        v
    }

    pub(super) fn suffix_id(&mut self, up: u32, step: AccessStep<'a>) -> u32 {
        let next = self.suffixes.len() as u32;
        let id = *self.suffix_ids.entry((up, step)).or_insert(next);
        if id == next {
            let len = self.suffixes[up as usize].len + 1;
            self.suffixes.push(Suffix {
                up,
                step: Some(step),
                len,
            });
        }
        id
    }

    /// The steps from the MRP of `id` down to `id`.
    pub(super) fn suffix(&self, id: usize) -> Vec<AccessStep<'a>> {
        let mut out = Vec::new();
        let mut k = self.nodes[id].sfx;
        while k != 0 {
            let sf = &self.suffixes[k as usize];
            out.extend(sf.step);
            k = sf.up;
        }
        out.reverse();
        out
    }

    /// Whether suffix `short` is a prefix of suffix `long`.
    pub(super) fn is_prefix(&self, short: u32, long: u32) -> bool {
        let (ls, mut k) = (self.suffixes[short as usize].len, long);
        while self.suffixes[k as usize].len > ls {
            k = self.suffixes[k as usize].up;
        }
        k == short
    }

    pub(super) fn relation(&self, a: usize, b: usize) -> Relation {
        if self.nodes[a].t != self.nodes[b].t {
            return Relation::Apart;
        }
        let (sa, sb) = (self.nodes[a].sfx, self.nodes[b].sfx);
        if sa == sb {
            Relation::Same
        } else if self.is_prefix(sa, sb) {
            Relation::Cycle(b, self.suffixes[sa as usize].len as usize)
        } else if self.is_prefix(sb, sa) {
            Relation::Cycle(a, self.suffixes[sb as usize].len as usize)
        } else {
            Relation::Dag
        }
    }

    /// The field names on the suffix of `long` after its first `skip` steps.
    pub(super) fn cycle_fields(&self, long: usize, skip: usize) -> Fields<'a> {
        self.suffix(long)
            .into_iter()
            .skip(skip)
            .filter_map(|s| match s {
                AccessStep::Field(f) => Some(f),
                AccessStep::Elem(_) => None,
            })
            .collect()
    }

    /// `t⟲F` in `s` with `F ⊆ fields`.
    pub(super) fn cycle_allowed(&self, t: Ref, fields: &Fields) -> bool {
        self.g
            .preds
            .cyclic(t)
            .is_some_and(|f| f.iter().all(|x| fields.contains(x)))
    }

    /// Self-sharing permission of `t`: `t %$ t` or `t♦`.
    pub(super) fn self_share(&self, t: Ref) -> bool {
        self.g.preds.joins(t, t) || self.g.preds.is_non_tree(t)
    }

    pub(super) fn realized(&self, id: usize) -> bool {
        self.nodes[id].sref.is_some()
    }
}
