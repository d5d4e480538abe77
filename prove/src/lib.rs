//! jtg-prove: termination proofs for integer transition systems.
pub mod its;
pub mod linexpr;
pub mod lp;
pub mod q;
