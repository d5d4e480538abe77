//! Coverage: the nodes and edges of the original graph that the runs' matched paths reach.
//!
//! A mutant changes one node's state or some edges. If no accepted run's path enters the node
//! or takes the edge, every such path is still a path of the mutant graph (its nodes' states
//! and its edges' labels and targets are unchanged), and the matcher, which searches every
//! path, accepts the run again: no run of these inputs can kill the mutant. It is *not
//! covered* — a fact about the inputs, not about the mutant.

use crate::mutant::{Change, Mutant};
use jtg_check::{check_run, ConcreteRun, Matcher, Verdict};
use jtg_engine::graph::{EdgeKind, NodeId};
use jtg_engine::state::IntSemantics;
use jtg_engine::{Graph, Program};

/// The nodes and edges some run's matched path enters or takes.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub nodes: Vec<bool>,
    pub edges: Vec<bool>,
    /// Per node, its outgoing edges.
    out: Vec<Vec<usize>>,
    /// Per node, the `return` edges into it.
    returns_into: Vec<Vec<usize>>,
}

impl Coverage {
    /// Nothing covered yet.
    pub fn new(g: &Graph) -> Coverage {
        let mut out = vec![Vec::new(); g.nodes.len()];
        let mut returns_into = vec![Vec::new(); g.nodes.len()];
        for (k, e) in g.edges.iter().enumerate() {
            out[e.from].push(k);
            if e.kind == EdgeKind::Return {
                returns_into[e.to].push(k);
            }
        }
        Coverage {
            nodes: vec![false; g.nodes.len()],
            edges: vec![false; g.edges.len()],
            out,
            returns_into,
        }
    }

    /// The coverage of `runs` in `g`, and how many of them `g` does not accept.
    pub fn of_runs(
        g: &Graph,
        prog: &Program,
        sem: IntSemantics,
        runs: &[&dyn ConcreteRun],
    ) -> (Coverage, usize) {
        let matcher = Matcher::new(g, prog, sem);
        let mut cover = Coverage::new(g);
        let mut broken = 0;
        for r in runs {
            let c = check_run(&matcher, prog, *r, sem);
            match c.verdict {
                Verdict::Violation(_) => broken += 1,
                _ => cover.add_path(g, &c.path),
            }
        }
        (cover, broken)
    }

    /// Adds the path of one accepted run (its nodes in order, as the matcher gives them).
    /// Every edge between two consecutive nodes counts as taken; where none joins them, the
    /// run left an abstracted callee's end for a target of the call node's `return` edges,
    /// and every `return` edge into that target counts. (Counting more edges covered than
    /// the run took only claims less.)
    pub fn add_path(&mut self, g: &Graph, path: &[NodeId]) {
        for &n in path {
            self.nodes[n] = true;
        }
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            let mut joined = false;
            for &k in &self.out[a] {
                if g.edges[k].to == b {
                    self.edges[k] = true;
                    joined = true;
                }
            }
            if !joined {
                for &k in &self.returns_into[b] {
                    self.edges[k] = true;
                }
            }
        }
    }

    /// Why no run can kill `m` (`None`: some run reaches what it changes).
    pub fn uncovered(&self, g: &Graph, m: &Mutant) -> Option<String> {
        let node = |n: NodeId| (!self.nodes[n]).then(|| format!("no run reaches node {n}"));
        let edge = |k: usize| {
            let e = &g.edges[k];
            (!self.edges[k]).then(|| format!("no run takes the edge {} → {}", e.from, e.to))
        };
        match &m.change {
            Change::SetInt(n, ..)
            | Change::RemoveMayEqual(n, ..)
            | Change::RemoveJoin(n, ..)
            | Change::RemoveNonTree(n, ..)
            | Change::RemoveCyclic(n, ..)
            | Change::RemoveMustReach(n, ..) => node(*n),
            Change::RemoveEdge(k)
            | Change::SetLabel(k, ..)
            | Change::RemoveLabel(k, ..)
            | Change::Retarget(k, ..) => edge(*k),
            // an edge that only loses labels accepts what it did: only the others count
            Change::SetLabels(ls) => {
                let why: Option<Vec<String>> = ls
                    .iter()
                    .filter(|(k, new)| !new.iter().all(|l| g.edges[*k].labels.contains(l)))
                    .map(|(k, _)| edge(*k))
                    .collect();
                why.map(|w| w.join(", "))
            }
        }
    }
}
