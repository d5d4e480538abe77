//! The options of a traced run: how far it may go (steps, recorded heap) and how it runs.

/// The default recording budget ([`TraceOptions::max_heap`]): a million heap values, about
/// 16 MB decoded.
pub const DEFAULT_MAX_HEAP: u64 = 1_000_000;

/// Options of a traced run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceOptions {
    /// Step budget; the run is cut (and the prefix kept) when it is exhausted.
    pub max_steps: u64,
    /// Recording budget: the values the run's heap log may hold, one per object plus one per
    /// field or array element (at first sight; later writes are replayed from the steps, at no
    /// cost here). The step that would see an object past the budget ends the run as cut
    /// ([`crate::Budget::Heap`]), with the steps before it kept: an array of 10^8 elements
    /// costs the recorder nothing beyond the budget.
    pub max_heap: u64,
    /// Test mode: with `Some(seed)` the recorder takes full heap snapshots at pseudo-random
    /// steps and the decoder checks the replayed heap against each (`ReplayMismatch` if not).
    pub verify_replay: Option<u64>,
    /// Stack size of the Java thread the method runs on (0 = the JVM default, 1 MiB on
    /// x86-64 Linux). Deep recursion ends as `Threw java/lang/StackOverflowError`.
    pub thread_stack_bytes: u64,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            max_steps: 100_000,
            max_heap: DEFAULT_MAX_HEAP,
            verify_replay: None,
            thread_stack_bytes: 0,
        }
    }
}
