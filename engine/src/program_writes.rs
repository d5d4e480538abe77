//! What the runs of a method may write ([`crate::class::own_writes`]), computed once for the
//! class path and read by the callee checks of `graph/summaries.rs`.

use crate::class::{MethodRef, OwnWrites};
use crate::program::Program;
use crate::state::MethodId;

impl Program {
    /// What the runs of method `m` may write; `None` for a method without code in the class
    /// path.
    pub(crate) fn own_writes(&self, m: &MethodId) -> Option<&OwnWrites> {
        let all = self.own_writes.get_or_init(|| {
            let may_write =
                |r: &MethodRef| crate::models::invocation_may_write(&r.class, &r.name, &r.desc_str);
            crate::class::own_writes(&self.hierarchy, &may_write)
        });
        all.get(&m.key())
    }
}
