//! Integer refinement (Def. 2.18): partition the interval of `r` (an int or a long) and rename
//! `r` to a fresh reference per part.

use super::Succ;
use crate::class::Cond;
use crate::state::{HeapValue, Interval, Ref, State};

/// The partition of `v` that decides `v cond c` (spec §5.5); empty parts are left out.
pub(crate) fn partition(v: &Interval, cond: Cond, c: i128) -> Vec<Interval> {
    let parts = match cond {
        Cond::Lt | Cond::Ge => vec![v.below(c), v.at_least_part(c)],
        Cond::Gt | Cond::Le => vec![v.at_most_part(c), v.above(c)],
        Cond::Eq | Cond::Ne => vec![v.below(c), v.intersect(&Interval::literal(c)), v.above(c)],
    };
    parts.into_iter().flatten().collect()
}

/// `R_{r, v1..vn}(s)`: one successor per part, `(s + {r_k ↦ v_k})[r/r_k]`.
pub(crate) fn refine(st: &State, r: Ref, parts: &[Interval]) -> Vec<Succ> {
    parts
        .iter()
        .map(|p| {
            let mut s = st.clone();
            let fresh = s.fresh_int();
            // a long stays a long
            let v = match st.value(r) {
                Some(HeapValue::Long(_)) => HeapValue::Long(*p),
                _ => HeapValue::Int(*p),
            };
            s.heap.insert(fresh, v);
            s.rename(r, fresh);
            Succ::new(s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_cover_and_decide() {
        let z = Interval::TOP;
        assert_eq!(
            partition(&z, Cond::Le, 0),
            vec![Interval::at_most(0), Interval::at_least(1)]
        );
        assert_eq!(partition(&z, Cond::Eq, 0).len(), 3);
        assert_eq!(
            partition(&Interval::at_least(0), Cond::Eq, 0),
            vec![Interval::literal(0), Interval::at_least(1)]
        );
        for cond in [Cond::Eq, Cond::Ne, Cond::Lt, Cond::Ge, Cond::Gt, Cond::Le] {
            for p in partition(&z, cond, 5) {
                assert!(
                    p.decide(cond, &Interval::literal(5)).is_some(),
                    "{cond:?} {p}"
                );
            }
        }
    }
}
