//! jtg-prove: termination proofs for integer transition systems (ITS).
//!
//! * [`Its`]: the model ([`Its`], built programmatically) and its evaluation ([`Its::step`]).
//! * [`parse_ari`] / [`parse_koat`]: the Termination Competition's ARI (LCTRS over `Ints`) format and
//!   KoAT's format, printer and parser each.
//! * [`prove()`]: YES with lexicographic linear ranking functions (Farkas certificates), NO with
//!   a recurrent set and a witness run, MAYBE otherwise. Every certificate is re-checked by
//!   [`verify_termination`] (exact rational arithmetic, no solver) before it is reported.
//! * [`check_transition`]: a concrete transition against a rule and the ranking functions.
//!
//! The crate knows no termination graph: `jtg-terminate` encodes graphs as ITSs and asks this
//! crate for the verdict. Its modules are private; what other crates use is re-exported here.
//!
//! ```
//! use jtg_prove::{prove, parse_koat, Options, Verdict};
//! let its = parse_koat("(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR x y)
//!   (RULES start(x, y) -> f(x, y)
//!          f(x, y) -> f(x - 1, y + 1) :|: x > 0)").unwrap();
//! let proof = prove(&its, &Options::default());
//! assert_eq!(proof.verdict, Verdict::Yes);
//! // The ITS in the competition's format, read back:
//! let text = jtg_prove::to_ari(&its);
//! assert_eq!(jtg_prove::parse_ari(&text).unwrap(), its);
//! ```
//!
//! docs/proving.md describes the model, the formats, the methods and their measurements.

#![deny(unreachable_pub)]

mod affine;
mod ari;
mod carried;
mod cert;
mod cert_closed;
mod chain;
mod check;
mod farkas;
mod invariant;
mod its;
mod koat;
mod linexpr;
pub mod lp;
mod lp_float;
mod nested;
mod prove;
mod q;
mod rank;
mod recur;
mod recur_closed;
mod refine;
mod scc;
mod sexpr;
mod simplex;
mod start_bounds;
mod text;
mod verify;
mod verify_closed;
mod verify_rows;

// the model and its formats
pub use affine::{start_relations, AffineSpace};
pub use ari::{parse_ari, to_ari};
pub use its::{Its, ItsError, LocId, Location, Rule, RuleId};
pub use koat::{parse_koat, to_koat};
pub use linexpr::{Constraint, LinExpr, Rel, Var};
pub use num_bigint::BigInt;
pub use q::Q;
pub use start_bounds::{start_bounds, FormBounds};
pub use text::ParseError;
// the prover and its certificates
pub use cert::{in_set, InfeasibleChain, RecurrentSet, RuleCert, TerminationCertificate};
pub use cert_closed::{ClosedRecurrentSet, IntProof, StepProof as ClosedStepProof};
pub use farkas::{Entailment, Farkas, NeSide, RuleInstance};
pub use invariant::{infer as infer_invariants, Invariants, StepProof as InvariantStepProof};
pub use prove::{prove, Certificate, Options, Proof, Times, Verdict, DEFAULT_MAX_WORK};
pub use recur::composed_update;
pub use refine::{refine, Refined, Split, SplitError};
pub use scc::sccs;
// certificates re-checked, and held against concrete transitions
pub use check::{
    check_chain, check_invariant, check_transition, instance_matches, TransitionCheck,
};
pub use verify::{verify_invariants, verify_nontermination, verify_termination};
pub use verify_closed::verify_closed;
