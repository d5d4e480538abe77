//! quickcheck integration: [`Input`] is an `Arbitrary` concrete instance of one start state,
//! and its shrinks stay instances of that start state.
//!
//! quickcheck's `Arbitrary::arbitrary` gets no context, so the start state it draws from is
//! installed per thread with [`with_space`]:
//!
//! ```ignore
//! let space = Arc::new(Space::new(prog, method, start, GenConfig::default())?);
//! with_space(space, || quickcheck::QuickCheck::new().quickcheck(prop as fn(Input) -> bool));
//! ```

use super::{GenConfig, GenError, Generator, Sample};
use jtg_engine::state::{MethodId, State};
use jtg_engine::Program;
use quickcheck::{Arbitrary, Gen};
use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

/// What [`Input`]s are drawn from: a program, a method and its start state.
#[derive(Debug)]
pub struct Space {
    prog: Arc<Program>,
    method: MethodId,
    start: State,
    cfg: GenConfig,
}

impl Space {
    /// Checks the start state once (as [`Generator::new`] does).
    pub fn new(
        prog: Arc<Program>,
        method: MethodId,
        start: State,
        cfg: GenConfig,
    ) -> Result<Space, GenError> {
        Generator::new(&prog, &method, &start, cfg)?;
        Ok(Space {
            prog,
            method,
            start,
            cfg,
        })
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }
    pub fn start(&self) -> &State {
        &self.start
    }

    pub fn generator(&self) -> Result<Generator<'_>, GenError> {
        Generator::new(&self.prog, &self.method, &self.start, self.cfg)
    }
}

thread_local! {
    static SPACE: RefCell<Option<Arc<Space>>> = const { RefCell::new(None) };
}

/// Runs `f` with `space` as the source of [`Input::arbitrary`] on this thread.
pub fn with_space<R>(space: Arc<Space>, f: impl FnOnce() -> R) -> R {
    let old = SPACE.with(|s| s.borrow_mut().replace(space));
    let r = f();
    SPACE.with(|s| *s.borrow_mut() = old);
    r
}

/// A concrete instance of the installed start state.
#[derive(Clone)]
pub struct Input {
    pub sample: Sample,
    space: Arc<Space>,
}

impl Input {
    pub fn state(&self) -> &State {
        &self.sample.state
    }
    /// The space the input was drawn from (properties are plain `fn`s and cannot capture it).
    pub fn space(&self) -> &Space {
        &self.space
    }
}

impl fmt::Debug for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.space.generator() {
            Ok(g) => write!(f, "\n{}", g.print(&self.sample.state)),
            Err(_) => write!(f, "{:?}", self.sample.state),
        }
    }
}

impl Arbitrary for Input {
    /// Panics when no space is installed or the start state has no instances: quickcheck
    /// offers no way to report either, and both are errors of the test, not of a sample.
    fn arbitrary(g: &mut Gen) -> Input {
        let space = SPACE
            .with(|s| s.borrow().clone())
            .expect("jtg_check::gen::qc::Input needs with_space(..) around the property test");
        let k = u64::arbitrary(g);
        let sample = space
            .generator()
            .and_then(|gen| gen.case(k))
            .unwrap_or_else(|e| panic!("{e}"));
        Input { sample, space }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Input>> {
        let Ok(gen) = self.space.generator() else {
            return Box::new(std::iter::empty());
        };
        let space = self.space.clone();
        let v: Vec<Input> = gen
            .shrink(&self.sample.state)
            .into_iter()
            .map(|state| Input {
                sample: Sample {
                    families: super::classify(&state),
                    state,
                },
                space: space.clone(),
            })
            .collect();
        Box::new(v.into_iter())
    }
}
