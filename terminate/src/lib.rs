//! jtg-terminate: termination of a termination graph, the room where the graph meets the ITS
//! prover and the JVM. [`run`] walks one graph the whole way and returns a typed
//! [`ProveReport`]; the command line (`jtg prove`, `jtg corpus --prove`) only prints it.
//!
//! * `from_graph/`: the graph as an integer transition system ([`encode`]), with the map back
//!   to nodes and the quantities ([`Quantity`]: sizes of references, distances along `→!F`,
//!   lengths of arrays and strings) each ITS variable stands for.
//! * the prover is `jtg-prove` (engine-free: it knows ITSs, never graphs).
//! * `nonterm.rs`: NO witnesses confirmed in the JVM (a recurrent set's input replayed, or a
//!   run whose full state repeats).
//! * `crosscheck.rs`, `crosscheck_runs.rs`: the concrete meaning of every ITS variable on a
//!   JVM heap, and the cross-check of encoding and certificate on concrete runs; `shrink.rs`
//!   shrinks a failing input, `breaks.rs` breaks a certificate by hand (`--break-certificate`)
//!   to show the check catches it.
//! * `initializers.rs`: the class initializers a run may start, each proved to end before a
//!   YES stands (the graphs do not enter them).
//! * `reason.rs`: why a verdict is MAYBE; `model.rs`: what a verdict assumes (the integer model
//!   and the start state's heap shape), in words.
//!
//! Dependencies go one way: the command line → this crate → `jtg-prove`, `jtg-check`,
//! `jtg-engine`, `jtg-jvm`.

#![deny(unreachable_pub)]

mod breaks;
mod crosscheck;
mod crosscheck_runs;
mod from_graph;
mod initializers;
mod model;
mod nonterm;
mod reason;
mod shrink;
mod witness_input;

pub use from_graph::{encode, EncodeError, EncodeOptions, Encoding, Quantity, RuleOrigin};
pub use model::Assumptions;

use crate::from_graph::readable;
use jtg_engine::state::{IntSemantics, MethodId};
use jtg_engine::{Graph, Program};
use jtg_prove::{prove, Certificate, Options};
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a verdict is sought and checked.
#[derive(Clone, Debug)]
pub struct ProveConfig {
    pub classpath: String,
    /// The `--start` file the graph was built from (for replay commands).
    pub start_file: Option<PathBuf>,
    pub ints: IntSemantics,
    pub seed: u64,
    /// Concrete runs of the cross-check (0: none).
    pub check: u64,
    /// Step budget of a JVM run.
    pub max_steps: u64,
    /// Inputs searched for a repeating state.
    pub nonterm_inputs: u64,
    pub max_size: usize,
    /// The prover's deterministic budget (simplex work, `jtg_prove::Options::max_work`).
    pub max_work: u64,
    /// The prover's wall-clock safety net (a MAYBE it causes says so in the notes).
    pub timeout: Duration,
    pub witness_out: Option<PathBuf>,
    pub break_certificate: Option<BreakKind>,
    /// ITSs with more rules, or a location with more variables, are not given to the prover.
    pub max_rules: usize,
    pub max_arity: usize,
    /// Graphs with more nodes are not encoded.
    pub max_graph: usize,
    /// The cross-check runs this one input instead of generated ones (`--input FILE`).
    pub input: Option<GivenInput>,
    /// JVM runs spent shrinking one failing input of the cross-check.
    pub shrink_runs: usize,
}

impl ProveConfig {
    /// The input generator of the graph's start state with this configuration's seed, sizes
    /// and integer semantics (the NO search's and the cross-check's inputs).
    fn generator<'a>(
        &self,
        prog: &'a Program,
        m: &MethodId,
        graph: &Graph,
    ) -> Result<jtg_check::gen::Generator<'a>, jtg_check::gen::GenError> {
        jtg_check::gen::Generator::new(
            prog,
            m,
            &graph.nodes[graph.start].state,
            jtg_check::gen::GenConfig {
                seed: self.seed,
                max_size: self.max_size,
                ints: self.ints,
            },
        )
    }
}

/// An input given by hand to the cross-check.
#[derive(Clone, Debug)]
pub struct GivenInput {
    /// The file it was read from, as replay commands name it.
    pub file: String,
    pub state: jtg_engine::state::State,
}

impl Default for ProveConfig {
    fn default() -> Self {
        ProveConfig {
            classpath: String::new(),
            start_file: None,
            ints: IntSemantics::Unbounded,
            seed: 0,
            check: 0,
            max_steps: 100_000,
            nonterm_inputs: 20,
            max_size: 6,
            max_work: jtg_prove::DEFAULT_MAX_WORK,
            timeout: Duration::from_secs(30),
            witness_out: None,
            break_certificate: None,
            max_rules: 5000,
            max_arity: 400,
            max_graph: 50_000,
            input: None,
            shrink_runs: 200,
        }
    }
}

/// A hand-broken certificate, to show that `--check` catches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakKind {
    /// Flip the first guard constraint of an SCC rule (`e ≤ 0` becomes `e > 0`).
    Guard,
    /// Replace a ranking function by its negation (it then increases where it decreased).
    Rank,
    /// Claim that no rule on a cycle ever follows another (every edge of the rule graph cut).
    Chain,
    /// Negate the first bound of the first location invariant of a YES certificate (`x ≥ 1`
    /// becomes `x < 1`): a state the run reaches then violates it.
    Invariant,
    /// Add 1 to the update of the first distance variable (`dist(a, b)` of an `a →!F b`) a
    /// rule out of a graph location sets: a wrong distance transition.
    Dist,
}

impl BreakKind {
    /// The kind as `--break-certificate` spells it.
    pub fn name(self) -> &'static str {
        match self {
            BreakKind::Guard => "guard",
            BreakKind::Rank => "rank",
            BreakKind::Chain => "chain",
            BreakKind::Dist => "dist",
            BreakKind::Invariant => "invariant",
        }
    }
}

/// One ranking function of a YES certificate, readable.
#[derive(Clone, Debug, Serialize)]
pub struct RankingFunction {
    pub scc: usize,
    pub level: usize,
    /// Per location: the node, its function over readable names.
    pub functions: Vec<(usize, String)>,
    /// Rules the level removes (strictly decreasing), by their node chains.
    pub strict: Vec<String>,
}

/// A NO witness: an input that never ends, why, and how to replay it.
#[derive(Clone, Debug, Serialize)]
pub struct NoWitness {
    /// `repeated_state` or `recurrent_set`.
    pub kind: String,
    pub input_file: String,
    pub input: String,
    /// How the JVM run confirms it: `state_repetition` (the JVM's full state repeats: the
    /// deterministic run never ends), `step_budget` (the run passed the step budget inside the
    /// recurrent set, which explains why it goes on), `call_depth` (it recursed past depth 256
    /// inside the set).
    pub evidence: String,
    /// What repeats or the recurrent set, readable.
    pub detail: String,
    pub replay: String,
    /// The integer model the NO is about (`unbounded` or `java`, as `--ints`); the detail says
    /// what that means for the JVM's runs.
    pub int_model: String,
}

/// A violation found by the cross-check.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    pub input: String,
    pub step: usize,
    /// The source line of the step (`List.java:3`; `None` without a line table).
    pub source: Option<String>,
    /// `export` (a rule's guard or update does not hold), `ranking`, `chain` (two rules the
    /// certificate says never follow each other did), or `invariant` (a run's values at a
    /// location break an invariant the certificate assumes).
    pub kind: String,
    pub rule: String,
    pub detail: String,
    pub replay: String,
    /// The smallest input found that fails the same way (absent when no smaller one does).
    pub shrunk: Option<ShrunkViolation>,
    /// Other runs that fail the same way (the same kind and rule, inputs equal up to the
    /// names of references): `case K`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub same_as: Vec<String>,
}

/// A violation's input after shrinking, and how it fails.
#[derive(Clone, Debug, Serialize)]
pub struct ShrunkViolation {
    pub input: String,
    /// Where the shrunk input is saved (a file of the system's temp directory).
    pub input_file: String,
    pub step: usize,
    pub rule: String,
    pub detail: String,
    /// `jtg prove … --input FILE`: the shrunk input alone.
    pub replay: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProveReport {
    pub method: String,
    pub verdict: String,
    /// What the verdict assumes: the integer model and the start state's heap shape.
    pub assumptions: model::Assumptions,
    /// `ranking` (YES), `repeated_state` / `recurrent_set` (NO), `none` (MAYBE).
    pub certificate: String,
    pub ranking: Vec<RankingFunction>,
    /// The source line of every node the ranking functions and invariants name
    /// (`List.java:12`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub sources: std::collections::BTreeMap<usize, String>,
    /// The interval invariants the ranking functions assume (YES only): per location, its
    /// node and the conjunction over readable names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub invariants: Vec<(usize, String)>,
    /// Pairs of rules that never run one directly after the other (the rule graph's cut
    /// edges, YES only): `first  then  second`, by their node chains.
    pub never_follow: Vec<String>,
    pub witness: Option<NoWitness>,
    pub its_locations: usize,
    pub its_rules: usize,
    pub sccs: usize,
    pub encode_ms: f64,
    pub prove_ms: f64,
    pub nonterm_ms: f64,
    pub check_ms: f64,
    pub notes: Vec<String>,
    /// Why the verdict is MAYBE (always set for a MAYBE, absent otherwise): the limit hit, or
    /// the loops and recursions without a ranking function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Concrete runs checked, transitions checked, transitions skipped (a value the run did
    /// not bind).
    pub checked_runs: u64,
    pub checked_transitions: u64,
    pub skipped_transitions: u64,
    /// Checked runs the JVM did not finish within `--max-steps` (or the recording budget):
    /// only their prefixes were checked.
    pub cut_runs: u64,
    pub violations: Vec<Violation>,
}

/// Proves `enc`'s ITS. Under Java ints a ranking proof is first sought without the bounds
/// every 32-bit int satisfies (`from_graph::without_weak_bounds`): they rank few loops (one
/// that ends by overflow, `while (x > 0) x++`), but their constants (`2³¹`) make the exact
/// LPs slow enough to hit the work limit (`juLinkedListCreate*`, `Diff`). That ITS has every
/// run of the full one, so its YES is one of the full ITS; the encoding then carries it, for
/// the certificate's rules and the cross-check. Otherwise the full ITS, NO search included.
fn prove_encoding(
    enc: &mut Encoding,
    ints: IntSemantics,
    opts: &Options,
) -> anyhow::Result<jtg_prove::Proof> {
    if ints == IntSemantics::Java {
        let light = from_graph::without_weak_bounds(&enc.its)?;
        if light.rules() != enc.its.rules() {
            let yes_only = Options {
                nontermination: false,
                ..opts.clone()
            };
            let proof = prove(&light, &yes_only);
            if proof.verdict == jtg_prove::Verdict::Yes {
                enc.its = light;
                return Ok(proof);
            }
        }
    }
    Ok(prove(&enc.its, opts))
}

/// A MAYBE whose LPs hit their pivot limit, of an encoding with greatest element lengths: the same
/// graph encoded without them (fewer columns; what those variables bound becomes unbounded,
/// still sound for YES) and proved again; the lighter encoding and its proof where it is YES.
fn without_element_lengths(
    graph: &Graph,
    prog: &Program,
    cfg: &ProveConfig,
    enc: &Encoding,
    proof: &jtg_prove::Proof,
    opts: &Options,
) -> anyhow::Result<Option<(Encoding, jtg_prove::Proof)>> {
    // an LP stopped at its pivot limit while the proof's work budget had room (one that
    // spent the budget or met the wall-clock net would only spend it again)
    let limit =
        proof.lp.unknown > 0 && proof.lp.deadline_hits == 0 && proof.lp.work < opts.max_work;
    let has_element_lengths = enc
        .loc_vars
        .iter()
        .flatten()
        .any(|q| matches!(q, Quantity::ElemLen(_)));
    if proof.verdict != jtg_prove::Verdict::Maybe || !limit || !has_element_lengths {
        return Ok(None);
    }
    let options = EncodeOptions {
        element_lengths: false,
        ..EncodeOptions::new(cfg.ints)
    };
    let mut lighter = encode(graph, prog, &options)?;
    let p = prove_encoding(&mut lighter, cfg.ints, opts)?;
    Ok((p.verdict == jtg_prove::Verdict::Yes).then_some((lighter, p)))
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// Encodes, proves, confirms a NO in the JVM, and cross-checks (see the module docs).
pub fn run(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    cfg: &ProveConfig,
) -> anyhow::Result<ProveReport> {
    if graph.nodes.len() > cfg.max_graph {
        // encoding time grows with the graph (an instance check per refinement edge); such
        // graphs are MAYBE unless a run of theirs repeats its state
        return too_large_graph(prog, m, graph, cfg);
    }
    let t = Instant::now();
    let mut enc = encode(graph, prog, &EncodeOptions::new(cfg.ints))?;
    let encode_ms = ms(t.elapsed());
    let t = Instant::now();
    let opts = Options {
        timeout: cfg.timeout,
        max_work: cfg.max_work,
        ..Options::default()
    };
    // the dense exact simplex does not scale to the largest ITSs (docs/proving.md): those are
    // MAYBE without a proof attempt rather than a run out of memory
    let arity = enc
        .its
        .locations()
        .iter()
        .map(|l| l.arity())
        .max()
        .unwrap_or(0);
    let too_large = enc.its.rules().len() > cfg.max_rules || arity > cfg.max_arity;
    let mut proof = if too_large {
        jtg_prove::Proof {
            verdict: jtg_prove::Verdict::Maybe,
            certificate: Certificate::Unproven { rule_sets: vec![] },
            times: Default::default(),
            lp: Default::default(),
            notes: vec![format!(
                "ITS too large to prove: {} rules, a location with {arity} variables (limits {}, {})",
                enc.its.rules().len(),
                cfg.max_rules,
                cfg.max_arity
            )],
        }
    } else {
        let proof = prove_encoding(&mut enc, cfg.ints, &opts)?;
        match without_element_lengths(graph, prog, cfg, &enc, &proof, &opts)? {
            Some((lighter, p)) => {
                enc = lighter;
                p
            }
            None => proof,
        }
    };
    let prove_ms = ms(t.elapsed());
    let mut report = ProveReport {
        method: m.to_string(),
        verdict: "MAYBE".into(),
        assumptions: model::Assumptions::new(cfg.ints, &graph.nodes[graph.start].state),
        certificate: "none".into(),
        ranking: Vec::new(),
        sources: Default::default(),
        invariants: Vec::new(),
        never_follow: Vec::new(),
        witness: None,
        its_locations: enc.its.locations().len(),
        its_rules: enc.its.rules().len(),
        sccs: cyclic_sccs(&enc.its),
        encode_ms,
        prove_ms,
        nonterm_ms: 0.0,
        check_ms: 0.0,
        notes: proof.notes.clone(),
        reason: None,
        checked_runs: 0,
        checked_transitions: 0,
        skipped_transitions: 0,
        cut_runs: 0,
        violations: Vec::new(),
    };
    let t = Instant::now();
    match &proof.certificate {
        Certificate::Termination(cert) => {
            report.verdict = "YES".into();
            report.certificate = "ranking".into();
            let origins = Origins::new(&enc, cert);
            report.ranking = ranking_functions(graph, prog, &enc, cert, &origins);
            report.invariants = invariant_texts(graph, prog, &enc, cert);
            let named = report
                .ranking
                .iter()
                .flat_map(|f| f.functions.iter().map(|(n, _)| *n))
                .chain(report.invariants.iter().map(|(n, _)| *n));
            for n in named {
                if let Some(l) = jtg_engine::render::node_source_line(graph, n, prog) {
                    report.sources.insert(n, l.to_string());
                }
            }
            report.never_follow = cert
                .chains
                .iter()
                .map(|c| {
                    format!(
                        "{}  then  {}",
                        origins.rule_text(graph, prog, &enc, c.first.rule),
                        origins.rule_text(graph, prog, &enc, c.second.rule)
                    )
                })
                .collect();
            report.never_follow.dedup();
        }
        Certificate::NonTermination(_) | Certificate::ClosedNonTermination(_) => {
            let set = match &proof.certificate {
                Certificate::NonTermination(rs) => nonterm::NoSet::Cycle(rs),
                Certificate::ClosedNonTermination(cs) => nonterm::NoSet::Closed(cs),
                _ => unreachable!("a NO certificate"),
            };
            match nonterm::confirm_recurrent(prog, m, graph, &enc, set, cfg) {
                Ok(w) => {
                    report.verdict = "NO".into();
                    report.certificate = "recurrent_set".into();
                    report.witness = Some(w);
                }
                Err(why) => report
                    .notes
                    .push(format!("recurrent set not confirmed in the JVM: {why}")),
            }
        }
        Certificate::Unproven { .. } => {}
    }
    if report.verdict == "YES" {
        // the graph's runs end, but a class initializer they start is no part of the graph
        if let Some(why) = initializers::unproven(prog, m, graph, cfg) {
            report.verdict = "MAYBE".into();
            report.certificate = "none".into();
            report.ranking.clear();
            report.invariants.clear();
            report.never_follow.clear();
            report.sources.clear();
            report.reason = Some(why);
        }
    }
    if report.verdict == "MAYBE" {
        match nonterm::repeated_state(prog, m, graph, cfg) {
            Ok(Some(w)) => {
                report.verdict = "NO".into();
                report.certificate = "repeated_state".into();
                report.witness = Some(w);
                report.reason = None;
            }
            Ok(None) => {}
            Err(e) if is_jvm_failure(&e) => return Err(e),
            Err(e) => report.notes.push(format!("state repetition search: {e}")),
        }
    }
    report.nonterm_ms = ms(t.elapsed());
    if report.verdict == "MAYBE" && report.reason.is_none() {
        report.reason = Some(reason::why_maybe(graph, prog, &enc, &proof, &report.notes));
    }
    if cfg.check > 0 || cfg.input.is_some() {
        let t = Instant::now();
        let mut enc = enc;
        if let Some(kind) = cfg.break_certificate {
            breaks::break_certificate(&mut enc, &mut proof, kind);
        }
        let cert = match &proof.certificate {
            Certificate::Termination(c) => Some(c),
            _ => None,
        };
        crosscheck_runs::run(prog, m, graph, &enc, cert, cfg, &mut report)?;
        report.check_ms = ms(t.elapsed());
    }
    model::explain(
        &mut report,
        cfg.max_steps.min(crosscheck::MAX_CHECKED_STEPS),
    );
    Ok(report)
}

/// The node of location `l` (none for the start) and a readable name for each of its
/// variables (`b (i2)`).
fn location_names<'a>(
    graph: &'a Graph,
    prog: &'a Program,
    enc: &'a Encoding,
    l: jtg_prove::LocId,
) -> Option<(usize, impl Fn(jtg_prove::Var) -> String + 'a)> {
    let node = enc.loc_node[l.index()]?;
    let vars = &enc.loc_vars[l.index()];
    let name = move |v: jtg_prove::Var| {
        vars.get(v.index())
            .map(|q| readable(graph, node, *q, prog))
            .unwrap_or_else(|| format!("v{}", v.0))
    };
    Some((node, name))
}

/// The invariants of `cert` over readable names, per location with a node.
fn invariant_texts(
    graph: &Graph,
    prog: &Program,
    enc: &Encoding,
    cert: &jtg_prove::TerminationCertificate,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for li in &cert.invariants.locations {
        let Some((node, name)) = location_names(graph, prog, enc, li.location) else {
            continue;
        };
        // a constant bound is `false` (a constant `true` is never kept): no run gets there
        if li.bounds.iter().any(|c| c.expr.terms.is_empty()) {
            out.push((node, "false (no run reaches it)".to_string()));
            continue;
        }
        let text: Vec<String> = li.bounds.iter().map(|c| c.display_with(&name)).collect();
        out.push((node, text.join(" && ")));
    }
    out
}

/// The ranking functions of `cert` over readable names.
fn ranking_functions(
    graph: &Graph,
    prog: &Program,
    enc: &Encoding,
    cert: &jtg_prove::TerminationCertificate,
    origins: &Origins,
) -> Vec<RankingFunction> {
    let mut out = Vec::new();
    for (si, scc) in cert.sccs.iter().enumerate() {
        for (li, level) in scc.levels.iter().enumerate() {
            let mut functions = Vec::new();
            for (loc, f) in &level.functions {
                let Some((node, name)) = location_names(graph, prog, enc, origins.loc(*loc)) else {
                    continue;
                };
                // a nested level's phases at the location: ⟨f₁, f₂, …⟩
                let text = match level.phases(*loc) {
                    Some(ps) if ps.len() > 1 => format!(
                        "⟨{}⟩",
                        ps.iter()
                            .map(|p| p.display_with(&name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    _ => f.display_with(&name),
                };
                let part = origins.part(*loc);
                let text = if part.is_empty() {
                    text
                } else {
                    let cond: Vec<String> = part.iter().map(|c| c.display_with(&name)).collect();
                    format!("{text} where {}", cond.join(" && "))
                };
                functions.push((node, text));
            }
            let mut strict: Vec<String> = level
                .removed()
                .map(|inst| origins.rule_text(graph, prog, enc, inst.rule))
                .collect();
            // a rule split by its `≠` sides (or copied by a location split) is listed once
            let mut seen = std::collections::BTreeSet::new();
            strict.retain(|s| seen.insert(s.clone()));
            out.push(RankingFunction {
                scc: si,
                level: li,
                functions,
                strict,
            });
        }
    }
    out
}

/// The encoding's locations and rules behind a certificate's: those of the ITS refined by
/// its location splits (`jtg_prove::refine`), when it has any.
struct Origins(Option<jtg_prove::Refined>);

impl Origins {
    fn new(enc: &Encoding, cert: &jtg_prove::TerminationCertificate) -> Origins {
        let refined = (!cert.splits.is_empty())
            .then(|| jtg_prove::refine(&enc.its, &cert.splits).ok())
            .flatten();
        Origins(refined)
    }

    fn loc(&self, l: jtg_prove::LocId) -> jtg_prove::LocId {
        self.0.as_ref().map_or(l, |r| r.loc_origin[l.index()])
    }

    fn rule(&self, r: jtg_prove::RuleId) -> jtg_prove::RuleId {
        self.0.as_ref().map_or(r, |rf| rf.rule_origin[r.index()])
    }

    /// The split conditions that hold at `l` (none without splits).
    fn part(&self, l: jtg_prove::LocId) -> &[jtg_prove::Constraint] {
        self.0.as_ref().map_or(&[], |r| &r.loc_parts[l.index()])
    }

    /// `r` as its chain of nodes, with the part of a split location it leaves or enters:
    /// `[0] → [3] → [0] (from b <= -1, into 0 <= b)`.
    fn rule_text(
        &self,
        graph: &Graph,
        prog: &Program,
        enc: &Encoding,
        r: jtg_prove::RuleId,
    ) -> String {
        let text = chain_text(enc, self.rule(r));
        let Some(rf) = &self.0 else {
            return text;
        };
        let rule = rf.its.rule(r);
        let mut parts = Vec::new();
        for (word, l) in [("from", rule.from), ("into", rule.to)] {
            let cond = self.part(l);
            if cond.is_empty() {
                continue;
            }
            let Some((_, name)) = location_names(graph, prog, enc, self.loc(l)) else {
                continue;
            };
            let cond: Vec<String> = cond.iter().map(|c| c.display_with(&name)).collect();
            parts.push(format!("{word} {}", cond.join(" && ")));
        }
        if parts.is_empty() {
            text
        } else {
            format!("{text} ({})", parts.join(", "))
        }
    }
}

/// A rule as its chain of nodes: `[3] → [5] → [0]`.
pub(crate) fn chain_text(enc: &Encoding, r: jtg_prove::RuleId) -> String {
    let o = &enc.origins[r.index()];
    if o.nodes.len() == 1 {
        return format!("start → [{}]", o.nodes[0]);
    }
    o.nodes
        .iter()
        .map(|n| format!("[{n}]"))
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The number of SCCs of the ITS's location graph that have a cycle.
fn cyclic_sccs(its: &jtg_prove::Its) -> usize {
    let edges: Vec<(usize, usize)> = its
        .rules()
        .iter()
        .map(|r| (r.from.index(), r.to.index()))
        .collect();
    jtg_prove::sccs(its.locations().len(), &edges)
        .iter()
        .filter(|c| c.len() > 1 || edges.iter().any(|&(a, b)| a == b && a == c[0]))
        .count()
}

/// The report of a graph too large to encode: MAYBE, or NO by a repeated state.
fn too_large_graph(
    prog: &Program,
    m: &MethodId,
    graph: &Graph,
    cfg: &ProveConfig,
) -> anyhow::Result<ProveReport> {
    let t = Instant::now();
    let mut report = ProveReport {
        method: m.to_string(),
        verdict: "MAYBE".into(),
        assumptions: model::Assumptions::new(cfg.ints, &graph.nodes[graph.start].state),
        certificate: "none".into(),
        ranking: Vec::new(),
        sources: Default::default(),
        invariants: Vec::new(),
        never_follow: Vec::new(),
        witness: None,
        its_locations: 0,
        its_rules: 0,
        sccs: 0,
        encode_ms: 0.0,
        prove_ms: 0.0,
        nonterm_ms: 0.0,
        check_ms: 0.0,
        notes: vec![format!(
            "graph of {} nodes not encoded (limit {})",
            graph.nodes.len(),
            cfg.max_graph
        )],
        reason: None,
        checked_runs: 0,
        checked_transitions: 0,
        skipped_transitions: 0,
        cut_runs: 0,
        violations: Vec::new(),
    };
    match nonterm::repeated_state(prog, m, graph, cfg) {
        Ok(Some(w)) => {
            report.verdict = "NO".into();
            report.certificate = "repeated_state".into();
            report.witness = Some(w);
        }
        Ok(None) => {}
        Err(e) if is_jvm_failure(&e) => return Err(e),
        Err(e) => report.notes.push(format!("state repetition search: {e}")),
    }
    if report.verdict == "MAYBE" {
        report.reason = Some(format!("a limit was hit: {}", report.notes[0]));
    }
    report.nonterm_ms = ms(t.elapsed());
    model::explain(&mut report, cfg.max_steps);
    Ok(report)
}

/// Whether `e` is the JVM's failure to run the program at all (no JVM, a class it cannot
/// load): an error of the command (exit code 5), not a note of a MAYBE.
fn is_jvm_failure(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<jtg_jvm::JvmError>()
            .is_some_and(jtg_jvm::JvmError::is_environment)
            || matches!(
                c.downcast_ref::<jtg_check::CheckError>(),
                Some(jtg_check::CheckError::Jvm(e)) if e.is_environment()
            )
    })
}
