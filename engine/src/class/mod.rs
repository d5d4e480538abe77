//! The class-loading room: class files, bytecode, class paths and the class hierarchy. Its
//! public face is the re-exports below; the files are:
//!
//! - `descriptor`: field and method descriptors;
//! - `insn`: our decoded instruction set;
//! - `member`: field and method references, invoke kinds (what instructions and handles name);
//! - `mnemonic`: the mnemonics, opcodes and text form of instructions;
//! - `decode`: the bounds-checked bytecode decoder;
//! - `pool`: bounds-checked constant-pool access;
//! - `indy`: `invokedynamic` call sites: bootstrap methods, string concatenation recipes, lambda
//!   sites;
//! - `lambda`: the class the engine makes for a lambda call site;
//! - `classfile`: the [`Class`] model built from class-file bytes;
//! - `classpath`: finding and caching classes in directories and jars;
//! - `hierarchy`: subtyping, fields and method resolution over the class path and a table of
//!   library classes (given by `models`);
//! - `cfg`: the control-flow graph of a method's code (successors with handlers' catch types,
//!   predecessors, index ↔ pc, a backward solver);
//! - `stack_effect`: the words each instruction pops and pushes;
//! - `frames`: the frame interpreter, a forward analysis of locals and stack words generic over
//!   a value lattice (ASM's `Analyzer<V>`);
//! - `liveness`: the live locals of a method's code;
//! - `reachable`: rapid type analysis (the methods a run may execute, the classes it may
//!   instantiate);
//! - `flow`: variable type analysis (the classes each field can hold);
//! - `own_writes`: which objects a method's run may write (those it allocated, its
//!   parameters', or elsewhere);
//! - `world`: the closed world of a run (its classes, its fields' narrowed types);
//! - `stable_hash`: a hash the same on every machine (FNV-1a), for the member shuffle and for
//!   the names and seeds of the crates above;
//! - `jvms`: the classes the JVM specification itself names (`java/lang/Object`);
//! - `error`: the [`ClassError`] type shared by all of them.

mod cfg;
mod classfile;
mod classpath;
mod decode;
mod descriptor;
mod error;
mod flow;
mod frames;
mod hierarchy;
pub mod indy;
mod insn;
pub(crate) mod jvms;
pub mod lambda;
mod liveness;
mod loop_free;
mod loop_reads;
mod member;
mod mnemonic;
mod own_writes;
mod pool;
mod reachable;
mod stable_hash;
mod stack_effect;
mod world;

pub use cfg::{falls_through, Cfg, Edge, EdgeKind};
pub use classfile::{parse_class, Class, Code, Field, Handler, LocalName, Method};
pub use classpath::{jar_main_class, ClassPath};
pub use decode::decode_code;
pub use descriptor::{FieldType, MethodDescriptor};
pub use error::ClassError;
pub use flow::{field_types, FieldId, FieldTypes, FlowSeeds, Types};
pub use frames::{interpret_frames, Frame, Interpreter, Unfollowed};
pub use hierarchy::{Hierarchy, InstanceField, LibraryClass, ResolvedField, ResolvedMethod};
pub use insn::{ArithOp, ArrayKind, Cond, Constant, Insn, Kind};
pub use liveness::Liveness;
pub use loop_free::loop_free;
pub use loop_reads::{invariant_receivers, InvariantReceivers};
pub use member::{FieldRef, InvokeKind, MethodRef};
pub use own_writes::{own_writes, OwnWrites};
pub use pool::ConstantPool;
pub use reachable::{
    rapid_type_analysis, rapid_type_analysis_with, LibraryNews, MethodKey, Reachable,
};
pub use stable_hash::stable_hash;
pub use world::World;
