//! The edge vocabulary of termination graphs: what kind an edge is ([`EdgeKind`]) and what its
//! labels say ([`Label`], [`Operand`]). It sits below everything that writes labels (`eval`,
//! `refine`, the graph builder) and everything that reads them (`render`, the checker, the
//! prover), and knows nothing of them.
//!
//! Every label is a typed value with one meaning (see [`Label`]); its text form
//! (`Display`, [`Label::parse`]) is what graph texts and pictures print, and its JSON form
//! (serde, `docs/json.md`) is what `jtg graph --format json` writes. Where a label's
//! references are read is fixed per kind ([`Label::reads`]).

mod kind;
mod label;
mod parse;
mod serial;

pub use kind::EdgeKind;
pub use label::{Label, Narrowing, Operand, Side};
pub use parse::LabelParseError;

#[cfg(test)]
mod tests;
