//! jtg-mutate: mutation testing of the check (`jtg mutate`, `make mutants`): small unsound-looking changes to a correct graph, each of
//! which the check should catch ("kill") with some concrete trace.
//!
//! Mutation operators (one change per mutant):
//!
//! * `drop-refinement`: remove one successor edge of a refinement or split with several;
//! * `narrow-interval`: shrink one non-literal interval of one node by its lowest or highest
//!   value (`Z` becomes `[≥0]` or `[≤0]`, `[a, b]` becomes `[a+1, b]` or `[a, b-1]`);
//! * `narrow-counter`: bound one non-negative interval `[a, ∞)` of a loop head (the target of
//!   an instance edge) to `[a, a + 7]`, just past the generator's small sizes (6), so that
//!   only its larger cases (every 8th, up to 64) can kill it;
//! * `drop-predicate`: remove one `=?`, `%$`, `♦`, `⟲F` or `→!F` of one node;
//! * `flip-label`: negate a relation label (`<` becomes `≥`) or change an arithmetic label's
//!   operation (`+` ↔ `-`, `*` ↔ `/`, `%` → `/`, negation → identity by `+ 0`);
//! * `drop-label`: remove one label;
//! * `replace-label`: replace an arithmetic or relation label by another well-formed label over
//!   the edge's references (another operation, a constant, a copy, an added constant, another
//!   reference; the strict/non-strict and swapped relations: module `labels`);
//! * `swap-refinement`: exchange the `r = p` / `r ≠ p` labels of an equality refinement's
//!   cases, or move `r = null` to another case of its refinement (module `labels`);
//! * `retarget-instance`: point an instance edge at another node of the same program position.
//!
//! # Fates
//!
//! All mutants are checked on the same runs, drawn from the *original* start state (a mutant is
//! a wrong graph for the same question: a start node narrowed by a mutant is killed by the
//! inputs it no longer covers). Each mutant gets one fate:
//!
//! * **killed**: some run is no path of the mutant graph;
//! * **not covered**: no run's path in the original graph enters the changed node or takes
//!   the changed edge (module `coverage`), so every run is still a path of the mutant: these
//!   inputs cannot kill it (PIT's and cargo-mutants' "no coverage");
//! * **equivalent**: a local argument below shows that the mutant accepts every run the
//!   original does, whatever the inputs;
//! * **survived**: covered, not killed, not shown equivalent — a gap of the check or of the
//!   inputs.
//!
//! The score is `killed / (killed + survived)`, over the covered mutants not proven equivalent.
//! With `--enumerate` the mutants neither killed nor proven are matched against ten times
//! more inputs of another seed and larger structures too, whose runs kill and cover like the
//! first ones.
//!
//! # Equivalent mutants
//!
//! Each proof but the interval invariant looks at the changed node or edge alone (and the class
//! hierarchy):
//!
//! * **weakening**: `drop-label` and dropping a `→!F` only remove conditions the check
//!   verifies; every trace that matched the original matches the mutant along the same path.
//!   So does a `replace-label` of `a < b` by `a ≤ b` (or `>` by `≥`): the new label holds
//!   wherever the old one does.
//! * **instance-preserving**: a retargeted instance edge whose source state is an instance of
//!   the new target by the engine's `⊑` (`instance_of::instance_holds`) is a correct instance
//!   edge, so the mutant graph is as sound as the original. (This trusts the engine's `⊑`,
//!   which the differential test in `tests/check.rs` keeps honest against the concrete one.)
//! * **redundant**: dropping one of `r♦` and `r %$ r` while the other stays: the check reads
//!   both as the one self-sharing permission (j), as the engine's `⊑` does.
//! * **vacuous-shape**: dropping `♦` or a self-join `r %$ r` on a reference all of whose
//!   reachable classes have at most one reference field. With one successor per object, the
//!   paths from an object form one chain (possibly ending in a cycle), so two paths never meet
//!   without one being a prefix of the other: the permission (j) allows nothing a tree-or-cycle
//!   heap does not already have. Likewise dropping `r⟲F` where no class `r`'s object can be
//!   (its type, which has no subclass on the class path, and the classes its fields lead to)
//!   has a reference field, e.g. a JDK `PrintStream` (the engine models it, and the tracer
//!   records it, without fields): the object's region is the object alone, and a cycle needs
//!   a field, so condition (k) has nothing to check. And dropping `a %$ b` where each of `a`
//!   and `b` is either such an object or realized with every field listed: condition (h)
//!   compares the hidden regions `H(a)` and `H(b)` (what is reachable through fields the state
//!   does not show), and both are empty, so it has nothing to reject (e.g. `System.out %$ s`
//!   for a string `s` a library call may have returned: `Lib.report`).
//! * **vacuous-realized**: dropping `♦`, `⟲F` or `%$` on references that are realized objects
//!   with every field listed: such a reference has no hidden region (all its edges are shown),
//!   so under the check's reading of the predicates (see `instance`) the permission applies to
//!   nothing; the structure below is governed by the predicates of its children.
//! * **acyclic join**: dropping `a %$ b` where `b` is a realized object listing every field of
//!   its class and the state shows a path of realized fields from `b` to `a`, and `a` is
//!   `C(?)` or `C(…)` without `⟲`. `b` has no hidden region (`H(b) = ∅`), so the check's
//!   condition (h) can only fail by `b`'s object lying in `H(a)`, everything reachable from
//!   `a`'s object; with the explicit path back from `b` to `a` (which the check walks) that
//!   is a cycle through `a`'s object inside its hidden region, which condition (k) rejects at
//!   the same node (e.g. `cur.next = prev` in an in-place reversal).
//! * **disjoint types**: dropping `a =? b` where no class is a subtype of both declared types:
//!   two classes neither of which is an interface or a subclass of the other (a class has one
//!   superclass chain), or an array and a class other than `Object` that is no interface. The
//!   check's `c ⊑ s` requires the object at a reference to be of its type, so it never binds
//!   one object to both, and condition (f) never needs the predicate.
//! * **interval invariant** (module `intervals`): `narrow-interval` or `narrow-counter` of `r`
//!   at node `n` to `J` when the forward interval invariant puts `r` inside `J` on every path
//!   from the start node: a run the original accepts along a path has `r`'s witness in `J` at
//!   `n`, so the mutant accepts it along the same path. It is the one graph analysis kept: the
//!   graph's own intervals are often wider than any run's values (a loop head merging the
//!   first iterations), and without it the score over covered mutants falls from 92.9 % to
//!   84.3 % on the fixture suite's first 173 entries (docs/mutants.md). Its facts are the graph's as the engine reads it (node intervals,
//!   labels, the engine's `⊑` witness between refined and general states) and two facts of
//!   single instructions (module `results`: `dcmpl d d` is never 1, `x >>> 1` never
//!   negative); it trusts the graph's intervals where the check binds nothing (a static before
//!   its first access), and a claim a run kills is reported as refuted. (It proves no
//!   retargeted instance edge: the retarget adds paths to the graph, along which the
//!   original's invariant need not hold — `everyday.Strings.joinDigits`' edge 117 → 118
//!   retargeted to 74 closes a loop whose second lap leaves `i ≤ 44`.)
//! * **single run** (module `single`, decided when the runs are in): a mutant the traced run
//!   does not kill, of a static method without parameters started from a state without inputs
//!   whose code calls nothing, reads and writes no static, allocates no object with `new`,
//!   takes no monitor and loads no method handle; the run is traced again to its end (a
//!   budget of a million steps; nothing is claimed if it is cut) and the mutant accepts it.
//!   Such a run depends on nothing: every run is that run (e.g. `Grid.fill`).

#![deny(unreachable_pub)]

mod analysis;
mod coverage;
mod derive;
mod intervals;
mod labels;
mod mutant;
mod results;
mod run;
mod single;

pub use analysis::{analyse, fates, Analysis, MutateError, Plan};
pub use coverage::Coverage;
pub use derive::mutants;
pub use intervals::Intervals;
pub use mutant::{Change, Mutant, Operator};
pub use run::{run_mutants, sample, Fate, MutationReport};
pub use single::single_run;
