//! Linear bounds of a product `r = a · b` of two unknowns, which an ITS cannot state exactly:
//! from the operands' intervals (McCormick's envelope: `(a − lₐ)(b − l_b) ≥ 0` gives
//! `r ≥ l_b·a + lₐ·b − lₐ·l_b`, and likewise for the other corners), and for a square
//! `r = a · a`, `r ≥ a` and `r ≥ −a` (an integer and its square: `a(a − 1) ≥ 0`). Each is true
//! of every pair of mathematical integers in the intervals, so the rule over-approximates the
//! step (under Java ints only where the product cannot wrap: the caller's check).

use jtg_prove::BigInt;
use jtg_prove::Q;
use jtg_prove::{Constraint, LinExpr};

/// One operand: its value as an expression of the rule's variables and its interval.
pub(super) struct Factor {
    pub value: LinExpr,
    pub lo: Option<i128>,
    pub hi: Option<i128>,
}

fn q(v: i128) -> Q {
    Q::from(BigInt::from(v))
}

/// `r ⋈ k_b·a + k_a·b − k_a·k_b`, from `(a − k_a)(b − k_b)` of sign `≥ 0` (`above`) or `≤ 0`.
fn corner(r: &LinExpr, a: &Factor, ka: i128, b: &Factor, kb: i128, above: bool) -> Constraint {
    let mut e = a.value.scaled(&q(kb));
    e.add_scaled(&b.value, &q(ka));
    e.constant -= &(q(ka) * q(kb));
    if above {
        Constraint::ge(r, &e)
    } else {
        Constraint::le(r, &e)
    }
}

/// Bounds of `r = a · b`; `same` when both operands are one value (a square).
pub(super) fn product_bounds(r: &LinExpr, a: &Factor, b: &Factor, same: bool) -> Vec<Constraint> {
    let mut out = Vec::new();
    if let (Some(la), Some(lb)) = (a.lo, b.lo) {
        out.push(corner(r, a, la, b, lb, true));
    }
    if let (Some(ha), Some(hb)) = (a.hi, b.hi) {
        out.push(corner(r, a, ha, b, hb, true));
    }
    if let (Some(la), Some(hb)) = (a.lo, b.hi) {
        out.push(corner(r, a, la, b, hb, false));
    }
    if let (Some(ha), Some(lb)) = (a.hi, b.lo) {
        out.push(corner(r, a, ha, b, lb, false));
    }
    if same {
        out.push(Constraint::ge(r, &a.value));
        out.push(Constraint::ge(r, &a.value.scaled(&-Q::one())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtg_prove::Var;

    fn holds(cs: &[Constraint], vals: &[i64]) -> bool {
        let vals: Vec<Q> = vals.iter().map(|&v| Q::int(v)).collect();
        cs.iter()
            .all(|c| c.holds(&|v: Var| vals.get(v.index()).cloned()) == Some(true))
    }

    fn factor(v: u32, lo: Option<i128>, hi: Option<i128>) -> Factor {
        Factor {
            value: LinExpr::var(Var(v)),
            lo,
            hi,
        }
    }

    #[test]
    fn every_product_in_the_intervals_satisfies_its_bounds() {
        let r = LinExpr::var(Var(2));
        let (a, b) = (factor(0, Some(-3), Some(4)), factor(1, Some(2), None));
        let cs = product_bounds(&r, &a, &b, false);
        assert_eq!(cs.len(), 2);
        for x in -3..=4 {
            for y in 2..=9 {
                assert!(holds(&cs, &[x, y, x * y]), "{x} * {y}");
            }
        }
        // exact at the corner the two bounds share
        assert!(!holds(&cs, &[-3, 2, -5]) && !holds(&cs, &[-3, 2, -7]));
    }

    #[test]
    fn a_square_grows_past_its_root() {
        // y ≥ 1: y·y ≥ 2y − 1 and y·y ≥ y, tight at y = 1
        let r = LinExpr::var(Var(1));
        let y = factor(0, Some(1), None);
        let cs = product_bounds(&r, &y, &y, true);
        for v in -5..=20 {
            assert!(holds(&cs, &[v, v * v]) || v < 1);
        }
        assert!(!holds(&cs, &[2, 2]));
        // without an interval, only |y| ≤ y·y
        let free = factor(0, None, None);
        let cs = product_bounds(&r, &free, &free, true);
        assert_eq!(cs.len(), 2);
        for v in -5..=5 {
            assert!(holds(&cs, &[v, v * v]));
        }
    }
}
