//! State split (§5.6): when `a cond b` between two integers cannot be decided and neither is a
//! literal, copy the state twice with the outcome fixed (`T:`/`F:`); the equal side renames one
//! reference to the other (as `F:` in Fig. 2.11).

use super::Succ;
use crate::class::Cond;
use crate::edge::{Label, Operand};
use crate::state::{HeapValue, Outcome, Ref, State};

pub(crate) fn split(st: &State, a: Ref, cond: Cond, b: Ref) -> Vec<Succ> {
    let mut out = Vec::new();
    for outcome in [true, false] {
        let holds = if outcome { cond } else { cond.negate() };
        let mut s = st.clone();
        s.split = Some(Outcome::of(outcome));
        if holds == Cond::Eq {
            let (Some(ia), Some(ib)) = (st.int(a), st.int(b)) else {
                continue;
            };
            let Some(both) = ia.intersect(ib) else {
                continue;
            };
            // the first operand becomes the second, as in the thesis (`F:` of Fig. 2.11: i2 ↦ i1)
            s.rename(a, b);
            s.heap.insert(b, HeapValue::Int(both));
        }
        out.push(Succ::labelled(
            s,
            vec![Label::Rel {
                a: Operand::Ref(a),
                cond: holds,
                b: Operand::Ref(b),
            }],
        ));
    }
    out
}
