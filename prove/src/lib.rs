//! jtg-prove: termination proofs for integer transition systems (ITS).
//!
//! * [`its`]: the model ([`Its`], built programmatically) and its evaluation ([`Its::step`]).
//! * [`ari`] / [`koat`]: the Termination Competition's ARI (LCTRS over `Ints`) format and
//!   KoAT's format, printer and parser each.
//! * [`prove()`]: YES with lexicographic linear ranking functions (Farkas certificates), NO with
//!   a recurrent set and a witness run, MAYBE otherwise. Every certificate is re-checked by
//!   [`verify`] (exact rational arithmetic, no solver) before it is reported.
//! * [`from_graph`]: termination graphs of `jtg-engine` as ITSs, with the map back to nodes
//!   and references (the rest of the crate knows no graph).
//! * [`check::check_transition`]: a concrete transition against a rule and the ranking functions.
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

pub mod ari;
pub mod cert;
pub mod cert_closed;
pub mod chain;
pub mod check;
pub mod farkas;
pub mod from_graph;
pub mod invariant;
pub mod its;
pub mod koat;
pub mod linexpr;
pub mod lp;
pub mod nested;
pub mod prove;
pub mod q;
pub mod rank;
pub mod recur;
pub mod recur_closed;
pub mod refine;
pub mod scc;
mod sexpr;
mod text;
pub mod verify;
pub mod verify_closed;
mod verify_rows;

pub use ari::{parse_ari, to_ari};
pub use cert::{RecurrentSet, TerminationCertificate};
pub use cert_closed::ClosedRecurrentSet;
pub use check::{check_chain, check_invariant, check_transition, TransitionCheck};
pub use its::{Its, ItsError, LocId, Location, Rule, RuleId};
pub use koat::{parse_koat, to_koat};
pub use linexpr::{Constraint, LinExpr, Rel, Var};
pub use num_bigint::BigInt;
pub use prove::{prove, Certificate, Options, Proof, Times, Verdict, DEFAULT_MAX_WORK};
pub use q::Q;

/// A format error: what and where (1-based line of the input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}
