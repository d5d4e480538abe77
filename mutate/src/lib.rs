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
//!   only its larger cases (every 8th, up to 64) can kill it; equivalent only by the interval
//!   invariant, as `narrow-interval`;
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
//! # Equivalent mutants
//!
//! A mutant that no trace kills is either a gap of the check or *equivalent* (its graph is
//! still sound). A survivor is listed as equivalent only with one of these reasons, each a
//! proof rather than an observation:
//!
//! * **weakening**: `drop-label` and dropping a `→!F` only remove conditions the check
//!   verifies; every trace that matched the original matches the mutant along the same path.
//!   So does a `replace-label` of `a < b` by `a ≤ b` (or `>` by `≥`): the new label holds
//!   wherever the old one does.
//! * **instance-preserving**: a retargeted instance edge whose source state is an instance of
//!   the new target by the engine's `⊑` (`instance_of::is_instance`) is a correct instance
//!   edge, so the mutant graph is as sound as the original. (This trusts the engine's `⊑`,
//!   which the differential test in `tests/check.rs` keeps honest against the concrete one.)
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
//!
//! * **redundant**: dropping one of `r♦` and `r %$ r` while the other stays: the check reads
//!   both as the one self-sharing permission (j), as the engine's `⊑` does.
//! * **vacuous-realized**: dropping `♦`, `⟲F` or `%$` on references that are realized objects
//!   with every field listed: such a reference has no hidden region (all its edges are shown),
//!   so under the check's reading of the predicates (see `instance`) the permission applies to
//!   nothing; the structure below is governed by the predicates of its children. (The
//!   engine's `⊑` is stricter here — condition (m) wants `⟲` on every reference of a cycle —
//!   which is sound for the engine and does not matter for concrete states.)
//! * **acyclic join**: dropping `a %$ b` where `b` is a realized object listing every field of
//!   its class and the state shows a path of realized fields from `b` to `a`, and `a` is
//!   `C(?)` or `C(…)` without `⟲`. `b` has no hidden region (`H(b) = ∅`), so the check's
//!   condition (h) can only fail by `b`'s object lying in `H(a)`, everything reachable from
//!   `a`'s object; with the explicit path back from `b` to `a` (which the check walks) that
//!   is a cycle through `a`'s object inside its hidden region, which condition (k) rejects at
//!   the same node. So every state the original node takes, the mutant's takes (e.g. `cur.next
//!   = prev` in an in-place reversal).
//! * **interval invariant**: `narrow-interval` of `r` at node `n` to `J` when the forward
//!   interval invariant of the graph ([`Invariant`], module `invariant`) puts `r`'s witness
//!   at `n` inside `J` on every path the check can match from the start node. The invariant
//!   uses only what the check verifies on such a path (node intervals, edge labels whose
//!   operands it binds) and what the JVM guarantees (a refinement, split or instance edge keeps
//!   the concrete state; an instruction changes only the locals, stack entries and heap it
//!   writes). So on a trace the original accepts, every node of its path still takes the
//!   concrete state — `n` included, with the same witness — and every label is evaluated
//!   on the same witnesses: the mutant accepts it along the same path. One fact of the JVM
//!   beyond the labels (module `selfcmp`): a comparison (`lcmp`, `fcmpl`, `dcmpg`, …) of one
//!   reference with itself compares a value with itself, since the check binds a reference to
//!   one value by its bits: `lcmp` gives 0, the `l` forms 0 or -1 (NaN), the `g` forms 0 or 1
//!   (e.g. `if (d != d)`, whose `dcmpl d d` is never 1: the refinement to 1 is a dead edge).
//!   Another (module `ushr`): `iushr`/`lushr` by a distance within `[1, 31]`/`[1, 63]` fills
//!   the sign bit with 0, so its result is not negative (`x >>> 1` in a loop over the bits of
//!   a `long`: its negative case is never taken after the first round).
//!   `long` values have intervals as `int` ones do (a `long` is one stack entry, so `lload`
//!   and `lsub` carry positions like their `int` forms: a `long` counter's `x > 0L` before
//!   `x = x − 1L` leaves `x ≥ 0` at the loop head, and its `x < 0` case is never taken).
//!   An integer static field the start state lists is a position too (module `positions`):
//!   only a `putstatic` of it or a class initializer (which the tracer does not see) writes it,
//!   so it keeps its value across every edge that runs neither — not across a call, `new`, or
//!   a static access of a class that may still be uninitialised. The check knows it from step
//!   0 but may lose it after an unseen initializer, so it is read like a position below an
//!   object: a conditional fact (`i < limit` with `i ≥ 0` gives `limit ≥ 1` at every later
//!   node of the loop, where only the static holds it).
//! * **relational invariant**: `narrow-interval` of `r` at node `n` to `J` when the
//!   difference constraints `x − y ≤ c` between the node's integer references (module
//!   `relations`) bound `r`'s witness inside `J` on every matchable path — e.g. `x = i − 1`
//!   taken before the loop test `i ≥ 1`, which the interval invariant's hull at the join
//!   forgets. The facts and their reading are the interval invariant's (node intervals, the
//!   invariant itself, labels with surely bound operands, positions carried along edges),
//!   plus `res = a ± b` as an exact difference when the operands' intervals rule out
//!   wrapping (and `res = a − b` bounded by the constraints between `a` and `b`: after
//!   `a > b`, `a − b ≥ 1`, as in a subtractive gcd); so the argument above applies unchanged. The length of an array that a
//!   surely read root holds is surely read too (the check walks an array's length wherever it
//!   walks the array, and an array is never uninitialized), and it is carried across any edge
//!   that keeps the root (an array's length never changes): `i < args.length` still holds at
//!   `args[i]` after a `new` or a call in between. The constraints also make nodes
//!   **unreachable** and edges **dead** (a relation label or target interval that contradicts
//!   them), and narrow the source state of **instance-preserving under the interval
//!   invariant** further.
//! * **implied label**: a `replace-label` mutant whose new label holds on every matchable path
//!   that takes the edge: the difference constraints at the edge's source (module
//!   `relations`, the facts above) together with the edge's own labels — the replaced one
//!   included, since a trace the original accepts satisfies it — imply the new relation
//!   (e.g. `k ≥ n` replaced by `n ≥ k` at a counted loop's exit, where `k ≤ n` holds on every
//!   path into the test), or the new arithmetic label differs from the replaced one only in
//!   operands the constraints show equal (the same operation on the same values). Only
//!   references the check surely binds in the source are variables, so the new label is
//!   evaluated on the values the constraints speak of: the mutant accepts every trace the
//!   original does, along the same path.
//! * **distinct positions**: dropping `a =? b` at a node where the must-distinct analysis
//!   (module `distinct`) shows that every position of `a` and every position of `b` never
//!   hold one object on a matchable path: the check's condition (f) never needs the
//!   predicate there. The analysis starts from the nodes' own distinctness (two references
//!   without `=?` are different objects, which the check verifies at every node of a path)
//!   and carries it along edges by positions, like the interval invariant. It also starts
//!   from the pairs that **reach and acyclicity** give (module `reach`): where position `q`'s
//!   object is reachable from `p`'s in at least one step on every matchable path (a must
//!   analysis over explicit fields, equal references, heap-preserving edges, transitivity and
//!   classes with a single reference field), and `p`'s or `q`'s reference is `C(?)`/`C(…)`
//!   without `⟲`, one object at both would put a cycle in that reference's hidden region,
//!   which the check's condition (k) rejects at the node itself (e.g. `fast` always ahead of
//!   `slow` in Floyd's loop over an acyclic list). These pairs also make edges **dead** and
//!   nodes **unreachable** (an equality refinement `slow = fast`, or `slow = fast.next`: a
//!   position below a root, which the check binds in a graph that allocates nothing).
//! * **back links**: a node is also **unreachable**, and an edge **dead**, where the state
//!   contradicts a field-path equality that holds on every matchable path (module
//!   `backlinks`): `o.f.g == o` for a reference `o` the check binds (`e.next.previous == e` of
//!   a doubly linked list). A node's own state gives the facts it shows (a realized `o` whose
//!   realized `o.f` has `g = o`: the check binds `o` once); edges carry them by positions
//!   (refinement, split and instance edges keep the concrete state; an instruction changes the
//!   heap only as it does: `putfield x.h = v` changes field `h` of `x`'s object, which breaks
//!   a fact only when `o` or `o.f` may be `x` — two references the check binds are one object
//!   only with `=?` —; a `new` whose class initialisation runs no code, `Object.<init>`, an
//!   inlined call or return change no field). A target that shows `o.f` realized with `g` a
//!   reference other than `o` and not `=? o` makes the check bind that reference to `o`'s
//!   object (or to an object where it has `null`), which conditions (e)/(f) reject. The
//!   references a fact may name are those below roots that surely hold an initialised
//!   object, by the verifier's initialization tags per pc (module `uninit`: not a `new`'s
//!   object before its `invokespecial <init>`, in any local or stack word it was copied to,
//!   nor a constructor's `this` before `super()`; the check accepts an uninitialized value
//!   unwalked). E.g. `Dll.buildAndRemove`: a one-entry list whose entry's
//!   `previous` is a fresh object instead of the header.
//! * **disjoint types**: dropping `a =? b` where no class is a subtype of both declared types:
//!   two classes neither of which is an interface or a subclass of the other (a class has one
//!   superclass chain), or an array and a class other than `Object` that is no interface. The
//!   check's `c ⊑ s` requires the object at a reference to be of its type (of exactly its
//!   class, for a realized object), so it never binds one object to both, and condition (f)
//!   never needs the predicate.
//! * **unread static**: `narrow-interval`, `narrow-counter` or `drop-predicate` of a node
//!   where the changed reference (one of the pair, for `=?` and `%$`) is reachable only from
//!   static fields that no code a run can execute accesses and no input sets (module `statics`:
//!   a static the start state lists, or the entry class's own `$assertionsDisabled`, is known
//!   from step 0; the methods of the graph's frames, every method an `invoke` of them may
//!   reach by name and descriptor, and the class initialisers of the classes they name). The check compares a static only
//!   from the run's first traced `getstatic`/`putstatic` of it on, so it never binds that
//!   reference: the mutant's changed fact is never read (e.g. a graph whose states list the
//!   statics of every class on the class path, most of which the method never touches).
//! * **under construction**: the same for a reference that only the fields of an object under
//!   construction reach (and unread statics): the run holds that object uninitialized, and
//!   the check accepts it without walking its fields (module `construction`: the top frame's
//!   `this` in a constructor before its first `invokespecial <init>`; e.g. the outer object
//!   of `o.new Cell()`, stored in `this$0` before `super()`).
//! * **unreachable**: a node-state mutant of a node that no path the check can match from the
//!   start node reaches (only dead edges lead to it, see below).
//! * **dead edge**: `drop-refinement`, `flip-label`, `replace-label` or `retarget-instance` of
//!   an edge, or `swap-refinement` among edges, that no
//!   matchable path takes — its source is unreachable, a relation label contradicts the
//!   source's interval invariant, a value the check surely reads (a stack entry, a live
//!   local) falls outside the target's interval, the target puts one existing object at two
//!   surely read positions that the source shows distinct (e.g. `cur = head` after a step
//!   along an acyclic list), or the target puts `null` at a surely read local or stack entry
//!   that holds an object on every matchable path, or an existing object at one that holds
//!   `null` on every matchable path (module `nullness`: e.g. `tail == null` tested again after
//!   a loop iteration set `tail` to a new object; Floyd's loop head that `ListOps.hasCycle`'s
//!   graph enters only with `fast` run off the list, whose `fast ≠ null` case is never taken,
//!   so no run reaches the cyclic-list nodes behind it). A reference with `r →!F t` towards
//!   an object holds an object too, in a graph that allocates nothing (the check's condition
//!   (n) fails a `null` start before a non-null end: `current` of `Ring.iterate`, which must
//!   reach `this`, is never `null`). The original's accepted
//!   paths avoid the edge, so they are
//!   paths of the mutant too (for a flipped label: the mutant accepts at least as much).
//!
//! The analyses read a local only where the method's bytecode keeps it live (module
//! `liveness`): the check skips a local the recorder shows untyped, and a live local never is.
//! * **instance-preserving under the interval invariant**: a retargeted instance edge whose
//!   source state, with its intervals narrowed to the invariant, is an instance of the new
//!   target by the engine's `⊑`: every concrete state the check meets at the source is an
//!   instance of that narrowed state, so the edge is correct for all of them (the same trust
//!   in the engine's `⊑` as instance-preserving).
//!
//! * **single run** (module `single`, decided when the runs are in): a mutant the traced run
//!   does not kill, of a static method without parameters started from a state without inputs
//!   whose code calls nothing, reads and writes no static, allocates no object with `new`,
//!   takes no monitor and loads no method handle; the run is traced again to its end (a
//!   budget of a million steps; nothing is claimed if it is cut) and the mutant accepts it.
//!   Such a run depends on nothing: every run is that run (e.g. `Grid.fill`, two constant
//!   loops over an array it allocates).
//!
//! With `jtg mutate --enumerate`, a survivor is re-checked on ten times as many inputs of
//! another seed and larger structures; one that survives that too is listed as equivalent by
//! **bounded enumeration** — evidence, not proof (e.g. `x = Z` narrowed to `[≥0]` on a node
//! only reached after `x > 0` was tested and `x` decremented: the engine's interval is wider
//! than the values that occur, so the narrower graph is still sound). Reports show that
//! category separately.
//!
//! Every other survivor counts against the mutation score, which is
//! `killed / (mutants − equivalent)`.
//!
//! All mutants are checked on the same runs, drawn from the *original* start state: a mutant is
//! a wrong graph for the same question (a start node narrowed by a mutant is killed by the
//! inputs it no longer covers).

#![warn(unreachable_pub)]

mod analyses;
mod analysis;
mod backlinks;
mod construction;
mod derive;
mod distinct;
mod invariant;
mod labels;
mod liveness;
mod must;
mod mutant;
mod nullness;
mod positions;
mod reach;
mod relations;
mod run;
mod selfcmp;
mod single;
mod statics;
mod uninit;
mod ushr;

pub use analyses::Analyses;
pub use analysis::{analyse, Analysis, MutateError, Plan};
pub use derive::mutants;
pub use invariant::Invariant;
pub use mutant::{Change, Mutant, Operator};
pub use run::{run_mutants, sample, Fate, MutationReport};
pub use single::single_run;
