//! The graph builder (spec §7.2, §7.3): a FIFO worklist expands every leaf that is not a
//! program end.
//!
//! * Evaluation successors reached by a backward jump (a loop head) are compared with the
//!   states at the same program position on the path to them: an instance gets an instance
//!   edge; otherwise it is merged with the nearest such state and the merged state, reached by
//!   an instance edge, is expanded instead. The first merge at a position takes interval hulls,
//!   later ones widen, so every chain of merges stabilizes.
//! * Other evaluation successors reuse an existing node at the same position they are an
//!   instance of.
//! * Refinement successors are always expanded.
//!
//! Merging keeps the subgraph of the state it generalizes (the first loop iteration stays
//! unrolled, as in Fig. 2.13, where B's iteration to F is kept and both B's path and F lead to
//! G): that is sound, because every edge already built is a correct over-approximation, and
//! it keeps node numbers stable.

use super::{EdgeKind, Graph, Label, NodeId};
use crate::class::Insn;
use crate::error::EngineError;
use crate::eval::{self, Ctx, Step};
use crate::instance_of::is_instance;
use crate::merge::{merge, MergeOptions};
use crate::program::{Options, Program};
use crate::refine::Succ;
use crate::state::{MethodId, State};
use std::collections::{HashMap, VecDeque};

/// A construction that did not finish: the error, and the graph built so far.
pub struct BuildFailure {
    pub error: EngineError,
    pub partial: Box<Graph>,
}

impl std::fmt::Debug for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (after {} nodes)",
            self.error,
            self.partial.nodes.len()
        )
    }
}

/// The program position of a state: the methods and pcs of its frames, bottom to top.
type Position = Vec<(MethodId, u32)>;

fn position(s: &State) -> Position {
    s.frames.iter().map(|f| (f.method.clone(), f.pc)).collect()
}

struct Builder<'a> {
    prog: &'a Program,
    opts: &'a Options,
    graph: Graph,
    /// The node each node was created from (its predecessor on the construction path).
    parent: Vec<Option<NodeId>>,
    /// Whether a node is the result of a merge.
    merged: Vec<bool>,
    /// Whether a node has an outgoing instance edge (it is not expanded).
    redirected: Vec<bool>,
    at: HashMap<Position, Vec<NodeId>>,
    queue: VecDeque<NodeId>,
}

/// Builds the termination graph of `method` from `start`.
pub fn build_graph(
    prog: &Program,
    method: &MethodId,
    start: State,
    opts: &Options,
) -> Result<Graph, BuildFailure> {
    let mut b = Builder {
        prog,
        opts,
        graph: Graph::new(method.clone(), start),
        parent: vec![None],
        merged: vec![false],
        redirected: vec![false],
        at: HashMap::new(),
        queue: VecDeque::from([0]),
    };
    let p = position(&b.graph.nodes[0].state);
    b.at.entry(p).or_default().push(0);
    match b.run() {
        Ok(()) => Ok(b.graph),
        Err(error) => Err(BuildFailure {
            error,
            partial: Box::new(b.graph),
        }),
    }
}

impl Builder<'_> {
    fn run(&mut self) -> Result<(), EngineError> {
        let cx = Ctx {
            prog: self.prog,
            sem: self.opts.ints,
        };
        while let Some(n) = self.queue.pop_front() {
            let st = &self.graph.nodes[n].state;
            if st.is_end() {
                continue;
            }
            match eval::step(st, &cx)? {
                Step::Refine { kind, succs } => {
                    for s in succs {
                        let id = self.add(n, s.state, kind, s.labels)?;
                        self.queue.push_back(id);
                    }
                }
                Step::Eval { kind, succ } => self.add_evaluated(n, kind, *succ)?,
            }
        }
        Ok(())
    }

    fn add(
        &mut self,
        from: NodeId,
        mut state: State,
        kind: EdgeKind,
        labels: Vec<Label>,
    ) -> Result<NodeId, EngineError> {
        if self.graph.nodes.len() >= self.opts.max_nodes {
            return Err(EngineError::Budget {
                max: self.opts.max_nodes,
            });
        }
        state.gc();
        state.validate().map_err(|e| {
            EngineError::Internal(format!(
                "ill-formed state after {kind} from node {from}: {e}"
            ))
        })?;
        let id = self.graph.add_node(state);
        self.parent.push(Some(from));
        self.merged.push(false);
        self.redirected.push(false);
        self.graph.add_edge(from, id, kind, labels);
        let p = position(&self.graph.nodes[id].state);
        self.at.entry(p).or_default().push(id);
        Ok(id)
    }

    fn instance_edge(&mut self, from: NodeId, to: NodeId) {
        self.redirected[from] = true;
        self.graph.add_edge(from, to, EdgeKind::Instance, vec![]);
    }

    fn add_evaluated(&mut self, n: NodeId, kind: EdgeKind, succ: Succ) -> Result<(), EngineError> {
        let backward = self.is_backward_jump(n, &succ.state)?;
        let id = self.add(n, succ.state, kind, succ.labels)?;
        if self.graph.nodes[id].is_end() {
            return Ok(());
        }
        if backward {
            self.loop_head(id)
        } else {
            let p = position(&self.graph.nodes[id].state);
            let cands: Vec<NodeId> = self.at.get(&p).cloned().unwrap_or_default();
            for m in cands {
                if m != id && self.is_inner(m) && self.instance_of(id, m) {
                    self.instance_edge(id, m);
                    return Ok(());
                }
            }
            self.queue.push_back(id);
            Ok(())
        }
    }

    /// Nodes that are expanded (not themselves redirected by an instance edge).
    fn is_inner(&self, m: NodeId) -> bool {
        !self.redirected[m]
    }

    fn instance_of(&self, specific: NodeId, general: NodeId) -> bool {
        is_instance(
            &self.graph.nodes[specific].state,
            &self.graph.nodes[general].state,
            self.prog,
        )
        .is_ok()
    }

    /// Whether the step from `n` to `succ` was a jump to an earlier instruction of the same
    /// method.
    fn is_backward_jump(&self, n: NodeId, succ: &State) -> Result<bool, EngineError> {
        let st = &self.graph.nodes[n].state;
        let (Some(f), Some(g)) = (st.top(), succ.top()) else {
            return Ok(false);
        };
        if f.method != g.method || st.frames.len() != succ.frames.len() || g.pc > f.pc {
            return Ok(false);
        }
        let class = self.prog.hierarchy.classpath().load(&f.method.class)?;
        let method = class.method(&f.method.name, Some(&f.method.desc))?;
        let insn = method.code.as_ref().and_then(|c| c.at(f.pc));
        Ok(matches!(
            insn,
            Some(
                Insn::Goto(_)
                    | Insn::If { .. }
                    | Insn::IfICmp { .. }
                    | Insn::IfACmp { .. }
                    | Insn::IfNull { .. }
                    | Insn::IfNonNull { .. }
                    | Insn::TableSwitch { .. }
                    | Insn::LookupSwitch { .. }
            )
        ))
    }

    /// A state `id` at a loop head: instance edge to an ancestor at the same position, or
    /// merge with the nearest one.
    fn loop_head(&mut self, id: NodeId) -> Result<(), EngineError> {
        let p = position(&self.graph.nodes[id].state);
        let mut ancestors = Vec::new();
        let mut cur = self.parent[id];
        while let Some(a) = cur {
            if position(&self.graph.nodes[a].state) == p && self.is_inner(a) {
                ancestors.push(a);
            }
            cur = self.parent[a];
        }
        for &m in &ancestors {
            if self.instance_of(id, m) {
                self.instance_edge(id, m);
                return Ok(());
            }
        }
        let Some(&m) = ancestors.first() else {
            // first visit of this position on this path
            self.queue.push_back(id);
            return Ok(());
        };
        let method = &p
            .last()
            .map(|(m, _)| m.clone())
            .ok_or_else(|| EngineError::Internal("loop head without frames".into()))?;
        let opts = MergeOptions {
            widen: self.merged[m],
            thresholds: self.prog.compared_constants(method),
            sem: self.opts.ints,
        };
        let g = merge(
            &self.graph.nodes[m].state,
            &self.graph.nodes[id].state,
            self.prog,
            &opts,
        )
        .map_err(|e| EngineError::Internal(e.to_string()))?;
        if self.graph.nodes.len() >= self.opts.max_nodes {
            return Err(EngineError::Budget {
                max: self.opts.max_nodes,
            });
        }
        let gid = self.graph.add_node(g);
        self.parent.push(Some(id));
        self.merged.push(true);
        self.redirected.push(false);
        self.at.entry(p).or_default().push(gid);
        self.instance_edge(id, gid);
        self.queue.push_back(gid);
        Ok(())
    }
}
