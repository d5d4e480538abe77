//! Random concrete inputs drawn from an abstract start state (`jtg gen`).
//!
//! A [`Generator`] turns an abstract start state `s` into concrete states `c` with `c ⊑ s`
//! (spec §4): the frame of `s`, every integer a literal, every object realized, no
//! predicates. The samples exercise the shapes the predicates of `s` *allow*, not only the
//! trivial ones: with `o1⟲{next}` cyclic and panhandle lists appear, with `o2 =? o1` the
//! aliased case, with `o1 %$ o2` shared tails, with `o1♦` DAGs.
//!
//! # Sampling
//!
//! 1. The realized part of `s` is copied: every realized object of `s` becomes one object of
//!    the sample, every integer reference of `s` one literal reference (so positions sharing
//!    an integer reference in `s` get the same value, as (e) of §4.2 demands). Integers are
//!    drawn as described in [`ints`] (longs likewise, over the long range); array lengths are
//!    kept to the case's size bound (below). Floats and doubles are drawn as described in
//!    [`floats`] (a literal of the start state, `1.5d`, is kept).
//! 2. Every unknown reference ("hole") gets a structure, in order of discovery from the roots
//!    (holes that others must reach first). The plans and their distribution are described
//!    in [`shape`]: uniform among the plans the predicates of the hole allow.
//! 3. The sample is checked with the checker's own `c ⊑ s` on the input the JVM will be given
//!    ([`crate::start_instance`], never the engine's `⊑`); a non-instance (a plan can overshoot, e.g. a
//!    shared tail that also reaches a third structure) is discarded and the case re-drawn
//!    with the next attempt number, up to [`MAX_ATTEMPTS`] times; then
//!    [`GenError::Unsatisfiable`] names the start state. No non-instance is ever returned.
//!
//! # Sizes
//!
//! Every structure of case `k` (a list's length, a tree's node count, an array's length) is
//! drawn up to the case's *size bound* ([`size_bound`]): [`SMALL_SIZE`] (6) for most cases,
//! and `--max-size` (default [`DEFAULT_MAX_SIZE`], 64) for every [`LARGE_EVERY`]-th case
//! (`k % 8 == 7`), so that loops which only misbehave past a few rounds are reached too;
//! `--max-size` caps both.
//!
//! # Classes
//!
//! A value of declared type `T` gets a class drawn among every non-abstract subtype of `T`
//! that the class path holds, as the engine's instance refinement does (spec §5.3): uniformly,
//! except that when both program classes and JDK classes are candidates each kind takes half
//! the draws (for `Object` the JDK's twenty-odd buildable classes would otherwise leave a
//! program class one draw in twenty, and chains of program objects through `Object` fields
//! would hardly occur), and the modelled exception classes together take the share of one
//! class when other classes are candidates too (else they would leave `Object`, `String` and
//! `Integer` one JDK draw in twenty each: an `Integer` key of `Keys.hashAll` was one non-null key in
//! 39),
//! whether or not the analysed method names it: a method on an abstract `Expr` runs on `Lit`,
//! `Add` and `Neg` alike. For `java.lang.Object` (every class is below it) only `Object`,
//! `String`, the program classes the method's class names and the classes nested in the
//! method's top-level class (its source file: `Keys$Content`, whose `equals` an `Object`
//! key dispatches to) are drawn: building an
//! unrelated class runs its static initialiser, which may throw or never end. Of the JDK's classes only those the engine models and the JVM can
//! build without a constructor are drawn ([`Generator::classes`]: `Object`, `String`, `Integer`,
//! the modelled exceptions). An object of an enum class is one of its constants (see
//! [`constants`]). An `Integer` is a fresh box whose value is drawn like an int
//! (the model keeps none, so it is an input-only field, [`models::input_only_field`]; never a
//! cached box, see [`INTEGER`]).
//!
//! # Assertions
//!
//! The assertion status of a class is the JVM's configuration (`-ea`/`-da`), which the class
//! reads once, when it is initialised, into javac's `static final boolean
//! $assertionsDisabled`. To the engine that field is a static like any other: unlisted in the
//! start state, it is most general (`[0,1]`) at its first read, so both sides of every
//! `assert` are in the graph. The tracer's JVM runs with `-ea`; so that the other side runs
//! too, case `k` with `k % 4 == 1` ([`ASSERTIONS_OFF_EVERY`]) sets the entry class's
//! `$assertionsDisabled` to 1 when the class has that field and the start state does not list
//! it (a listed one is drawn like every static). The field is never written: the run's class
//! loader gives the class that assertion status, and the runner checks the value the class
//! got (`jtg_jvm`, `Runner.loaderFor`).
//!
//! Case `k` of seed `S` uses ChaCha12 seeded from the bytes of `(S, k, attempt)`, and every
//! collection iterated here is ordered (`BTreeMap`, `Vec`), so a case is the same on every
//! machine.

mod constants;
mod floats;
mod ints;
pub mod qc;
mod shape;
mod shrink;
pub mod stats;

pub use stats::{classify, Stats};

use crate::start_instance::input_of_start;
use jtg_engine::class::FieldType;
use jtg_engine::state::text::{print_state, TextContext};
use jtg_engine::state::{
    FieldKey, Frame, HeapValue, IntSemantics, Interval, MethodId, Ref, State, StaticField,
};
use jtg_engine::{models, Program};
use jtg_jvm::ASSERTIONS_DISABLED;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

/// Re-draws of one case before giving up with [`GenError::Unsatisfiable`].
pub const MAX_ATTEMPTS: u64 = 64;

/// The size bound of most cases.
pub const SMALL_SIZE: usize = 6;
/// Every this many cases one (case `k` with `k % LARGE_EVERY == LARGE_EVERY - 1`) draws its
/// sizes up to `max_size` instead of [`SMALL_SIZE`].
pub const LARGE_EVERY: u64 = 8;
/// `java.lang.Integer`, whose model keeps no value: an instance the JVM allocates without a
/// constructor, its `value` drawn like an int and set through JNI
/// ([`models::input_only_field`]), is one of its instances. It is never a cached box
/// (`Integer.valueOf` shares the boxes of -128..127): two references the state keeps apart
/// stay two objects even when their values are equal, and a box the state holds is not the
/// one `valueOf` returns, which the model allows (its result may or may not be a box the state
/// holds).
const INTEGER: &str = models::INTEGER;

/// The default `max_size`: the size bound of the large cases.
pub const DEFAULT_MAX_SIZE: usize = 64;

/// Every this many cases one (case `k` with `k % ASSERTIONS_OFF_EVERY == 1`, never a large
/// case) runs with the entry class's assertions disabled (*Assertions* in the module docs).
pub const ASSERTIONS_OFF_EVERY: u64 = 4;

/// The size bound of case `k` under the cap `max_size` (the size schedule of the module docs).
pub fn size_bound(k: u64, max_size: usize) -> usize {
    if k % LARGE_EVERY == LARGE_EVERY - 1 {
        max_size
    } else {
        SMALL_SIZE.min(max_size)
    }
}

/// How samples are drawn.
#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    pub seed: u64,
    /// Maximum number of objects of one generated structure (a list's length, a tree's size,
    /// an array's length): the cap of the size schedule ([`size_bound`]).
    pub max_size: usize,
    /// The integer semantics: the value range of unconstrained `int` fields. Samples are Java
    /// ints in either semantics, since they run in the JVM.
    pub ints: IntSemantics,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            seed: 0,
            max_size: DEFAULT_MAX_SIZE,
            ints: IntSemantics::Unbounded,
        }
    }
}

#[derive(Clone, Debug, thiserror::Error)]
pub enum GenError {
    /// The start state uses something the generator cannot build (several frames, static
    /// fields, a class without a runnable concrete subtype).
    #[error("cannot generate inputs: {0}")]
    Unsupported(String),
    /// No instance was found: the start state admits none, or none the plans reach.
    #[error("no concrete instance found: {0}")]
    Unsatisfiable(String),
}

/// A shape family of a sample (see [`classify`] for the exact definitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// A reference root is null.
    Null,
    /// An acyclic, unshared chain (every object has at most one non-null object child).
    Acyclic,
    /// A root lies on a cycle (a full cycle, e.g. a ring through `this`).
    Cyclic,
    /// A cycle is reachable from a root that is not on it (a lasso).
    Panhandle,
    /// The structures of two different roots share an object.
    SharedTail,
    /// An acyclic, unshared structure with branching (some object has two object children).
    Tree,
    /// Two different paths from one root meet, without a cycle.
    Dag,
    /// Two roots are the same object.
    Aliased,
    /// A root is an array.
    Array,
}

impl Family {
    pub const ALL: [Family; 9] = [
        Family::Null,
        Family::Acyclic,
        Family::Cyclic,
        Family::Panhandle,
        Family::SharedTail,
        Family::Tree,
        Family::Dag,
        Family::Aliased,
        Family::Array,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Null => "null",
            Family::Acyclic => "acyclic",
            Family::Cyclic => "cyclic",
            Family::Panhandle => "panhandle",
            Family::SharedTail => "shared-tail",
            Family::Tree => "tree",
            Family::Dag => "dag",
            Family::Aliased => "aliased",
            Family::Array => "array",
        }
    }
}

/// One generated input.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Concrete: the single frame of the start state at its pc, literal ints, realized objects,
    /// no predicates.
    pub state: State,
    /// The families the sample shows, sorted, without repeats.
    pub families: Vec<Family>,
}

/// An instance field as the engine models it: name, type, range override.
type FieldSpec = (FieldKey, FieldType, Option<Interval>);

/// Whether the sample `c` is an instance of `start`, by the checker's relation.
fn check_input(
    c: &State,
    start: &State,
    arg_slots: &[usize],
    types: &Program,
) -> Result<(), String> {
    input_of_start(c, start, arg_slots, types).map(|_| ())
}

/// Draws concrete instances of one start state of one method.
pub struct Generator<'a> {
    prog: &'a Program,
    method: MethodId,
    start: State,
    cfg: GenConfig,
    /// The method's compared constants (integer boundaries).
    compared: Vec<i128>,
    /// The local slots of the method's arguments ([`crate::concrete::arg_slots`]).
    arg_slots: Vec<usize>,
    classes: RefCell<BTreeMap<String, Vec<String>>>,
    fields: RefCell<BTreeMap<String, Vec<FieldSpec>>>,
    named: RefCell<Option<BTreeSet<String>>>,
}

impl<'a> Generator<'a> {
    pub fn new(
        prog: &'a Program,
        method: &MethodId,
        start: &State,
        cfg: GenConfig,
    ) -> Result<Generator<'a>, GenError> {
        let [frame] = start.frames.as_slice() else {
            return Err(GenError::Unsupported(format!(
                "a start state has one frame; this one has {}",
                start.frames.len()
            )));
        };
        if &frame.method != method {
            return Err(GenError::Unsupported(format!(
                "the start state's frame is of {}, not of {method}",
                frame.method
            )));
        }
        start
            .validate()
            .map_err(|e| GenError::Unsupported(format!("malformed start state: {e}")))?;
        let m = prog
            .method(method)
            .map_err(|e| GenError::Unsupported(format!("{method}: {e}")))?;
        let arg_slots = crate::concrete::arg_slots(m.is_static, &m.desc.params);
        Ok(Generator {
            prog,
            method: method.clone(),
            start: start.clone(),
            cfg,
            compared: prog.compared_constants(method),
            arg_slots,
            classes: RefCell::new(BTreeMap::new()),
            fields: RefCell::new(BTreeMap::new()),
            named: RefCell::new(None),
        })
    }

    pub fn start(&self) -> &State {
        &self.start
    }
    pub fn program(&self) -> &'a Program {
        self.prog
    }
    pub fn method(&self) -> &MethodId {
        &self.method
    }
    pub fn config(&self) -> &GenConfig {
        &self.cfg
    }

    /// Case `k`. Deterministic in `(cfg.seed, k)`.
    pub fn case(&self, k: u64) -> Result<Sample, GenError> {
        let mut last = String::new();
        for attempt in 0..MAX_ATTEMPTS {
            let state = self.draw(k, attempt)?;
            match check_input(&state, &self.start, &self.arg_slots, self.prog) {
                Ok(()) => {
                    let families = classify(&state);
                    return Ok(Sample { state, families });
                }
                Err(m) => last = m,
            }
        }
        Err(GenError::Unsatisfiable(format!(
            "case {k}: {MAX_ATTEMPTS} draws were no instance of the start state\n{}\n\
             (last: {last})",
            self.print(&self.start)
        )))
    }

    /// Whether a concrete input (given by hand) is an instance of the start state, by the
    /// checker's own `c ⊑ s` ([`crate::start_instance`]); otherwise why not, one line.
    pub fn admits(&self, concrete: &State) -> Result<(), String> {
        check_input(concrete, &self.start, &self.arg_slots, self.prog)
    }

    /// Smaller candidates that are still instances of the start state, most aggressive first.
    pub fn shrink(&self, concrete: &State) -> Vec<State> {
        shrink::candidates(concrete)
            .into_iter()
            .filter(|c| check_input(c, &self.start, &self.arg_slots, self.prog).is_ok())
            .collect()
    }

    /// A state in the text form, with the method's local names.
    pub fn print(&self, st: &State) -> String {
        print_state(st, &TextContext::for_method(self.method.clone(), self.prog))
    }

    fn rng(&self, k: u64, attempt: u64) -> ChaCha12Rng {
        let mut seed = [0u8; 32];
        seed[..8].copy_from_slice(&self.cfg.seed.to_le_bytes());
        seed[8..16].copy_from_slice(&k.to_le_bytes());
        seed[16..24].copy_from_slice(&attempt.to_le_bytes());
        ChaCha12Rng::from_seed(seed)
    }

    /// One draw (not yet checked).
    fn draw(&self, k: u64, attempt: u64) -> Result<State, GenError> {
        let mut b = shape::Build {
            g: self,
            rng: self.rng(k, attempt),
            max: size_bound(k, self.cfg.max_size),
            out: State::default(),
            map: BTreeMap::new(),
            drawn: Vec::new(),
        };
        let sf = &self.start.frames[0];
        // Discovery order: depth-first from the roots, realized children in field order.
        let mut order: Vec<Ref> = Vec::new();
        let mut lengths: Vec<Ref> = Vec::new();
        // the frame's references first, then the static fields' (`static:` lines are roots
        // like locals: their values are drawn like arguments, predicates between them honoured)
        let mut todo: Vec<Ref> = sf
            .refs()
            .chain(self.start.statics.values().copied())
            .collect();
        todo.reverse();
        while let Some(r) = todo.pop() {
            if r.is_null() || order.contains(&r) {
                continue;
            }
            order.push(r);
            if let Some(HeapValue::Array { len, .. }) = self.start.value(r) {
                lengths.push(*len);
            }
            if let Some(v) = self.start.value(r) {
                let mut kids: Vec<Ref> = v.children().collect();
                kids.reverse();
                todo.extend(kids);
            }
        }
        // 1. Integers and the realized objects (fields filled in at the end).
        let mut holes = Vec::new();
        for &r in &order {
            let Some(v) = self.start.value(r) else {
                return Err(GenError::Unsupported(format!("{r} has no heap value")));
            };
            match v {
                HeapValue::Int(iv) => {
                    let c = b.start_int(iv, lengths.contains(&r))?;
                    b.map.insert(r, c);
                }
                HeapValue::Long(iv) => {
                    let c = b.long_in(iv)?;
                    b.map.insert(r, c);
                }
                HeapValue::Float(_) | HeapValue::Double(_) => {
                    let c = b.float_like(v);
                    b.map.insert(r, c);
                }
                HeapValue::Object { class, .. } => {
                    let c = b.out.new_obj(HeapValue::Object {
                        class: class.clone(),
                        fields: BTreeMap::new(),
                    });
                    b.map.insert(r, c);
                }
                HeapValue::Array {
                    ty, elems: Some(_), ..
                } => {
                    let c =
                        b.out
                            .new_obj(HeapValue::array(ty.clone(), Ref::Null, Some(vec![]), true));
                    b.map.insert(r, c);
                }
                _ => holes.push(r),
            }
        }
        // 2. Holes; one whose must-reach target is a hole not built yet waits for it.
        while !holes.is_empty() {
            let ready = holes
                .iter()
                .position(|h| {
                    self.start
                        .preds
                        .must_reach_from(*h)
                        .iter()
                        .all(|m| m.to.is_null() || b.map.contains_key(&m.to) || m.to == *h)
                })
                .unwrap_or(0);
            let h = holes.remove(ready);
            let v = self.start.value(h).cloned().unwrap_or(HeapValue::Unknown {
                ty: models::OBJECT.into(),
            });
            let c = b.hole(h, &v)?;
            b.map.insert(h, c);
        }
        // 3. Realized objects' fields and arrays' elements.
        let m = |r: &Ref| b.map.get(r).copied().unwrap_or(Ref::Null);
        let mut fills = Vec::new();
        for &r in &order {
            let c = m(&r);
            match self.start.value(r) {
                Some(HeapValue::Object { class, fields }) => fills.push((
                    c,
                    HeapValue::Object {
                        class: class.clone(),
                        fields: fields.iter().map(|(f, x)| (f.clone(), m(x))).collect(),
                    },
                )),
                Some(HeapValue::Array {
                    ty,
                    len,
                    elems: Some(e),
                    ..
                }) => fills.push((
                    c,
                    HeapValue::array(ty.clone(), m(len), Some(e.iter().map(m).collect()), true),
                )),
                _ => {}
            }
        }
        let mut frame = Frame::new(sf.method.clone(), sf.locals.len());
        frame.pc = sf.pc;
        frame.locals = sf.locals.iter().map(|l| l.as_ref().map(m)).collect();
        frame.stack = sf.stack.iter().map(m).collect();
        frame.exception = sf.exception.as_ref().map(m);
        let built: Vec<Ref> = order.iter().map(m).collect();
        let statics = self
            .start
            .statics
            .iter()
            .map(|(k, r)| (k.clone(), m(r)))
            .collect();
        for (c, v) in fills {
            b.out.heap.insert(c, v);
        }
        // a realized collection of the start state gets drawn elements too
        for c in built {
            b.add_elements(c)?;
        }
        let mut out = b.out;
        out.statics = statics;
        if let Some(key) = self.assertion_status() {
            if !out.statics.contains_key(&key) && k % ASSERTIONS_OFF_EVERY == 1 {
                let off = out.new_int(Interval::literal(1));
                out.statics.insert(key, off);
            }
        }
        out.frames.push(frame);
        constants::canonical_constants(&mut out, self.prog);
        out.gc();
        Ok(out)
    }

    /// The entry class's assertion status field, javac's `static final boolean
    /// $assertionsDisabled` (`!desiredAssertionStatus()` when the class is initialised), if it
    /// has one (see *Assertions* in the module docs).
    fn assertion_status(&self) -> Option<StaticField> {
        let class = &self.method.class;
        let fields = self.prog.hierarchy.static_fields(class).ok()?;
        fields
            .into_iter()
            .find(|(_, name, t)| name == ASSERTIONS_DISABLED && *t == FieldType::Boolean)
            .map(|(decl, name, _)| (decl, name))
    }

    /// The concrete classes a value of declared type `ty` may have: every non-abstract subtype
    /// of `ty` the class hierarchy knows (the class path and the engine's modelled JDK classes,
    /// as the engine's instance refinement takes them), less the JDK classes the JVM cannot
    /// build without running a constructor: of those only `ty` itself, `Object`, `String`,
    /// `Integer` (a fresh box of a drawn value: the model keeps no value, the tracer records none), the
    /// modelled exception classes (whose model has no fields) and the collections the JVM side
    /// builds (`models::collections::is_generated`; one that no input of a wider type has, a
    /// `Stack` or a `LinkedHashMap`, only as `ty` itself) are drawn. A class whose
    /// fields the engine cannot represent is left out.
    pub(crate) fn classes(&self, ty: &str) -> Result<Vec<String>, GenError> {
        if let Some(v) = self.classes.borrow().get(ty) {
            return Ok(v.clone());
        }
        let all = self
            .prog
            .hierarchy
            .non_abstract_subtypes(ty)
            .map_err(|e| GenError::Unsupported(format!("subtypes of {ty}: {e}")))?;
        let mut v = Vec::new();
        for c in all {
            let modelled = models::is_modelled_class(&c);
            let buildable = c == ty
                || c == models::OBJECT
                || c == models::STRING
                || c == INTEGER
                || models::is_modelled_throwable(&c)
                || models::collections::is_generated(&c)
                    && !models::collections::made_by_calls_only(&c);
            if modelled && !buildable {
                continue;
            }
            // every class is below `Object`: for it only the classes the program names (an
            // unrelated class's static initialiser may throw or never end when it is built)
            if ty == models::OBJECT && !modelled && !self.named().contains(&c) && !self.nested(&c) {
                continue;
            }
            if self.fields(&c).is_ok() {
                v.push(c);
            }
        }
        self.classes.borrow_mut().insert(ty.to_string(), v.clone());
        Ok(v)
    }

    /// Whether `class` is nested in the analysed method's top-level class (`Keys$Content` for
    /// `Keys.find`): the method's own source file, whose classes its dispatch may reach even
    /// where its code names none of them (`equals` on an `Object` key).
    fn nested(&self, class: &str) -> bool {
        let top = self.method.class.split('$').next().unwrap_or_default();
        class
            .strip_prefix(top)
            .is_some_and(|rest| rest.starts_with('$'))
    }

    /// The classes the analysed program can name ([`Program::named_classes`]).
    fn named(&self) -> std::cell::Ref<'_, BTreeSet<String>> {
        if self.named.borrow().is_none() {
            *self.named.borrow_mut() = Some(self.prog.named_classes(&self.method.class));
        }
        std::cell::Ref::map(self.named.borrow(), |n| n.as_ref().expect("just set"))
    }

    fn fields(&self, class: &str) -> Result<Vec<FieldSpec>, GenError> {
        if let Some(v) = self.fields.borrow().get(class) {
            return Ok(v.clone());
        }
        let v = self
            .prog
            .instance_fields(class)
            .map_err(|e| GenError::Unsupported(format!("fields of {class}: {e}")))?;
        self.fields
            .borrow_mut()
            .insert(class.to_string(), v.clone());
        Ok(v)
    }

    fn ref_slot_count(&self, class: &str) -> Result<usize, GenError> {
        Ok(self
            .fields(class)?
            .iter()
            .filter(|(_, t, _)| matches!(t, FieldType::Object(_)))
            .count())
    }
}
