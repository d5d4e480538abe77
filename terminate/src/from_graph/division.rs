//! Division, remainder and unsigned shift results whose bounds depend on the sign of the
//! dividend (JLS §15.17.2–3, §15.19): the bounds for a known sign, and the split of a rule's
//! guard by the sign where the guard does not imply it.

use jtg_engine::state::IntOp;
use jtg_prove::BigInt;
use jtg_prove::{Constraint, Entailment, LinExpr, Rel, Var, Q};

/// A division whose dividend's sign the state's interval does not give: its bounds need the
/// sign, which the rule's whole guard may imply (`x / y` under `x ≥ y ≥ 2`). Kept until the
/// guard is complete ([`Division::constraints`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Division {
    pub(super) op: IntOp,
    pub(super) x: LinExpr,
    pub(super) divisor: Divisor,
    pub(super) r: LinExpr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Divisor {
    Literal(i128),
    /// `x >>> k`, `1 ≤ k < bits`, of a `bits`-wide `x` (JLS §15.19): `x >> k` for `x ≥ 0`,
    /// `(x + 2^bits) >> k` for `x < 0`. "Non-positive" means negative here (the split's side
    /// is `x < 0`, and a guard must imply `x ≤ −1`).
    UnsignedShift {
        k: u32,
        bits: u32,
    },
    Unknown {
        y: LinExpr,
        interval: Option<(Option<i128>, Option<i128>)>,
    },
}

/// The sign of a dividend, as implied by a guard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sign {
    NonNegative,
    NonPositive,
}

impl Division {
    /// The dividend.
    pub(super) fn dividend(&self) -> &LinExpr {
        &self.x
    }

    /// The dividend and the result (carried through chaining like a rule's arguments).
    pub(super) fn exprs(&self) -> [LinExpr; 2] {
        [self.x.clone(), self.r.clone()]
    }

    /// The same division with these dividend and result expressions.
    pub(super) fn with_exprs(&self, x: LinExpr, r: LinExpr) -> Division {
        Division {
            x,
            r,
            ..self.clone()
        }
    }

    pub(super) fn substitute(&self, sub: &dyn Fn(Var) -> LinExpr) -> Division {
        self.with_exprs(self.x.substitute(sub), self.r.substitute(sub))
    }

    pub(super) fn rename(&self, f: &dyn Fn(Var) -> Var) -> Division {
        self.with_exprs(self.x.rename(f), self.r.rename(f))
    }

    /// The division's bounds for a dividend of sign `sign` (which the caller proved from the
    /// rule's guard).
    pub(super) fn constraints(&self, sign: Sign, out: &mut Vec<Constraint>) {
        let sign = Some(match sign {
            Sign::NonNegative => (Some(0), None),
            Sign::NonPositive => (None, Some(0)),
        });
        match &self.divisor {
            Divisor::UnsignedShift { k, bits } => {
                let x = match sign {
                    Some((Some(0), None)) => self.x.clone(),
                    _ => self
                        .x
                        .plus(&LinExpr::constant(Q::from(BigInt::from(1) << *bits))),
                };
                floor_shift(&x, *k, &self.r, out)
            }
            Divisor::Literal(k) => truncating_division(self.op, &self.x, *k, &self.r, sign, out),
            Divisor::Unknown { y, interval } => {
                division_by_unknown(self.op, &self.x, y, *interval, &self.r, sign, out)
            }
        }
    }
}

/// `r = ⌊x / 2ᵏ⌋` (`x >> k`): `2ᵏ·r ≤ x ≤ 2ᵏ·r + 2ᵏ − 1`.
pub(super) fn floor_shift(x: &LinExpr, k: u32, r: &LinExpr, out: &mut Vec<Constraint>) {
    let p = Q::from(BigInt::from(1) << k);
    let pr = r.scaled(&p);
    out.push(Constraint::le(&pr, x));
    out.push(Constraint::le(
        x,
        &pr.plus(&LinExpr::constant(&p - &Q::one())),
    ));
}

/// `r = x / k` or `r = x % k` for a literal `k ∉ {0, −1}`, as Java computes them (JLS
/// §15.17.2–3: the quotient is truncated towards zero, `x = k·(x/k) + x%k`, and the remainder
/// has the sign of `x` and a smaller magnitude than `k`): with `m = x − k·r` (division) or
/// `m = r` (remainder), `0 ≤ m ≤ |k| − 1` when `x ≥ 0` by its interval, `−(|k| − 1) ≤ m ≤ 0`
/// when `x ≤ 0`, `|m| ≤ |k| − 1` otherwise; a remainder also lies between 0 and `x`.
pub(super) fn truncating_division(
    op: IntOp,
    x: &LinExpr,
    k: i128,
    r: &LinExpr,
    sign: Option<(Option<i128>, Option<i128>)>,
    out: &mut Vec<Constraint>,
) {
    let kq = Q::from(BigInt::from(k));
    let m = match op {
        IntOp::Div => x.minus(&r.scaled(&kq)),
        _ => r.clone(),
    };
    let bound = LinExpr::constant(Q::from(BigInt::from(k.unsigned_abs() - 1)));
    let zero = LinExpr::zero();
    let nonneg = sign.is_some_and(|(lo, _)| lo.is_some_and(|l| l >= 0));
    let nonpos = sign.is_some_and(|(_, hi)| hi.is_some_and(|h| h <= 0));
    let lower = if nonneg {
        zero.clone()
    } else {
        zero.minus(&bound)
    };
    let upper = if nonpos { zero.clone() } else { bound };
    out.push(Constraint::ge(&m, &lower));
    out.push(Constraint::le(&m, &upper));
    if matches!(op, IntOp::Rem) {
        if nonneg {
            out.push(Constraint::le(r, x));
        }
        if nonpos {
            out.push(Constraint::ge(r, x));
        }
    }
}

/// `r = x / y` or `r = x % y` for a divisor `y` whose interval excludes `(−d, d)` for some
/// `d ≥ 1` and a dividend of known sign (JLS §15.17.2–3, as [`truncating_division`]): the
/// quotient has the sign of `x·y` and `|r| ≤ |x| / d`, so `d·|r| ≤ |x|`; the remainder has the
/// sign of `x`, `|r| ≤ |x|` and `|r| ≤ |y| − 1`. All of these are linear once `d` and the signs
/// are fixed. Nothing is said when a sign is unknown.
pub(super) fn division_by_unknown(
    op: IntOp,
    x: &LinExpr,
    y: &LinExpr,
    divisor: Option<(Option<i128>, Option<i128>)>,
    r: &LinExpr,
    sign: Option<(Option<i128>, Option<i128>)>,
    out: &mut Vec<Constraint>,
) {
    let nonneg = sign.is_some_and(|(lo, _)| lo.is_some_and(|l| l >= 0));
    let nonpos = sign.is_some_and(|(_, hi)| hi.is_some_and(|h| h <= 0));
    let (positive, d) = match divisor {
        Some((Some(lo), _)) if lo >= 1 => (true, lo),
        Some((_, Some(hi))) if hi <= -1 => (false, -hi),
        _ => return,
    };
    if !(nonneg || nonpos) {
        return;
    }
    let zero = LinExpr::zero();
    // |x| and |r| as expressions, by the known signs
    let abs_x = if nonneg { x.clone() } else { zero.minus(x) };
    let r_sign_positive = match op {
        IntOp::Div => nonneg == positive,
        _ => nonneg,
    };
    let abs_r = if r_sign_positive {
        r.clone()
    } else {
        zero.minus(r)
    };
    out.push(Constraint::ge(&abs_r, &zero));
    match op {
        IntOp::Div => {
            let dq = Q::from(BigInt::from(d));
            out.push(Constraint::le(&abs_r.scaled(&dq), &abs_x));
        }
        _ => {
            out.push(Constraint::le(&abs_r, &abs_x));
            let abs_y = if positive { y.clone() } else { zero.minus(y) };
            out.push(Constraint::le(
                &abs_r,
                &abs_y.minus(&LinExpr::constant(Q::one())),
            ));
        }
    }
}

/// Work budget of the LPs that find a dividend's sign in one rule's guard (deterministic).
const SIGN_WORK: u64 = 2_000_000;

/// At most this many divisions of one rule are split by sign (two: four rules).
const MAX_SIGN_SPLIT: usize = 2;

/// The guards of a rule with the divisions `divisions` (over `nvars` variables): the bounds of
/// every division whose dividend's sign `guard` implies (`guard ⇒ x ≥ 0` or `guard ⇒ x ≤ 0`
/// over the rationals, the guard tightened for integers: `farkas::implication`) are added to
/// it; for up to [`MAX_SIGN_SPLIT`] others by an unknown divisor the guard is split by the
/// dividend's sign (`x ≥ 0` with the bounds of that case, `x < 0` with the others), one guard
/// per combination. A literal divisor is not split on (its sign-free bounds are in the guard
/// already, and a split here would keep the chain's middle location): it is returned, to be
/// given its sign once chaining has brought the rest of the loop's guard ([`resolve_signs`]).
/// Sound whatever the LP answers: a sign it cannot show only costs a split, the sides of a
/// split cover every value, and every concrete transition is checked against the guard of its
/// side by the JVM cross-check. Divisions beyond the split bound get no bounds.
pub(super) fn signed_divisions(
    divisions: &[Division],
    nvars: usize,
    guard: &mut Vec<Constraint>,
) -> (Vec<Vec<Constraint>>, Vec<Division>) {
    if divisions.is_empty() {
        return (vec![std::mem::take(guard)], Vec::new());
    }
    let premises: Vec<Constraint> = guard.iter().filter(|c| c.rel != Rel::Ne).cloned().collect();
    let mut lp = Entailment::new(SIGN_WORK);
    let mut added = Vec::new();
    let mut unsigned = Vec::new();
    let mut pending = Vec::new();
    for d in divisions {
        match implied_sign(&mut lp, &premises, d, nvars) {
            Some(sign) => d.constraints(sign, &mut added),
            None if matches!(d.divisor, Divisor::Literal(_)) => pending.push(d.clone()),
            None if unsigned.len() < MAX_SIGN_SPLIT => unsigned.push(d),
            None => {}
        }
    }
    guard.extend(added);
    let mut out = vec![std::mem::take(guard)];
    let zero = LinExpr::zero();
    for d in unsigned {
        let x = d.dividend();
        out = out
            .into_iter()
            .flat_map(|g| {
                let mut pos = g.clone();
                pos.push(Constraint::ge(x, &zero));
                d.constraints(Sign::NonNegative, &mut pos);
                let mut neg = g;
                neg.push(Constraint::lt(x, &zero));
                d.constraints(Sign::NonPositive, &mut neg);
                [pos, neg]
            })
            .collect();
    }
    (out, pending)
}

/// The bounds of the divisions `pending` whose dividend's sign the (chained) rule's `guard`
/// over `nvars` variables implies, added to it. Why: a `do { n /= 10; } while (n != 0)` tests
/// the quotient's sign only after the division, in the next chain of the loop; once the two
/// chains are one rule, `q ≥ 1` and `10·q ≤ n + 9` give `n ≥ 1`, and with it `n ≥ 10·q`,
/// which `|n|` needs to fall. The others keep their sign-free bounds.
pub(super) fn resolve_signs(pending: &[Division], nvars: usize, guard: &mut Vec<Constraint>) {
    if pending.is_empty() {
        return;
    }
    let premises: Vec<Constraint> = guard.iter().filter(|c| c.rel != Rel::Ne).cloned().collect();
    let mut lp = Entailment::new(SIGN_WORK);
    for d in pending {
        if let Some(sign) = implied_sign(&mut lp, &premises, d, nvars) {
            d.constraints(sign, guard);
        }
    }
}

/// The dividend's sign as `premises` imply it, if they do.
fn implied_sign(
    lp: &mut Entailment,
    premises: &[Constraint],
    d: &Division,
    nvars: usize,
) -> Option<Sign> {
    let x = d.dividend();
    // x ≥ 0 ⟺ −x ≤ 0;  x ≤ 0 for a division; x ≤ −1 (x + 1 ≤ 0) for an unsigned shift, whose
    // negative side differs at 0
    let upper = if matches!(d.divisor, Divisor::UnsignedShift { .. }) {
        x.plus(&LinExpr::constant(Q::one()))
    } else {
        x.clone()
    };
    if lp.implies_nonpositive(premises, &LinExpr::zero().minus(x), nvars) {
        Some(Sign::NonNegative)
    } else if lp.implies_nonpositive(premises, &upper, nvars) {
        Some(Sign::NonPositive)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jtg_prove::Var;

    fn v(i: u32) -> LinExpr {
        LinExpr::var(Var(i))
    }

    /// `r = x / y` with `y ≥ 2` (variables x = 0, y = 1, r = 2).
    fn x_div_y() -> Division {
        Division {
            op: IntOp::Div,
            x: v(0),
            divisor: Divisor::Unknown {
                y: v(1),
                interval: Some((Some(2), None)),
            },
            r: v(2),
        }
    }

    fn holds(guard: &[Constraint], vals: &[i64]) -> bool {
        guard
            .iter()
            .all(|c| c.holds(&|x: Var| vals.get(x.index()).map(|&n| Q::int(n))) == Some(true))
    }

    #[test]
    fn the_guard_gives_the_dividends_sign() {
        // x ≥ y ≥ 2: x ≥ 0, so 0 ≤ r and 2·r ≤ x, in one guard
        let mut guard = vec![
            Constraint::ge(&v(0), &v(1)),
            Constraint::ge(&v(1), &LinExpr::constant(2)),
        ];
        let (out, _) = signed_divisions(&[x_div_y()], 3, &mut guard);
        assert_eq!(out.len(), 1);
        assert!(out[0].contains(&Constraint::le(&v(2).scaled(&Q::int(2)), &v(0))));
        assert!(holds(&out[0], &[9, 4, 2]));
        assert!(!holds(&out[0], &[9, 4, 5]));
    }

    #[test]
    fn an_unknown_sign_splits_the_rule_and_the_sides_cover_java_division() {
        let mut guard = vec![Constraint::ge(&v(1), &LinExpr::constant(2))];
        let (out, _) = signed_divisions(&[x_div_y()], 3, &mut guard);
        assert_eq!(out.len(), 2);
        for x in -20i64..=20 {
            for y in 2i64..=6 {
                // Java's `/` truncates towards zero, as Rust's
                let r = x / y;
                let sides = out.iter().filter(|g| holds(g, &[x, y, r])).count();
                assert!(sides >= 1, "x = {x}, y = {y}: no side holds");
                // quotients of the wrong sign or of x's own magnitude are excluded
                if x != 0 {
                    for wrong in [x, -x.signum()] {
                        assert!(
                            !out.iter().any(|g| holds(g, &[x, y, wrong])),
                            "x = {x}, y = {y}, r = {wrong}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_unsigned_shift_of_unknown_sign_splits_and_the_sides_cover_the_jvm() {
        // r = x >>> 3 of an int x (variables x = 0, r = 1), no guard: x ≥ 0 and x < 0
        let d = Division {
            op: IntOp::Ushr,
            x: v(0),
            divisor: Divisor::UnsignedShift { k: 3, bits: 32 },
            r: v(1),
        };
        let (out, _) = signed_divisions(&[d], 2, &mut Vec::new());
        assert_eq!(out.len(), 2);
        for x in [i32::MIN, -9, -8, -1, 0, 1, 7, 8, 9, i32::MAX] {
            let r = i64::from((x as u32) >> 3);
            let x = i64::from(x);
            assert!(
                out.iter().any(|g| holds(g, &[x, r])),
                "x = {x}: no side holds"
            );
            // the arithmetic shift's value differs for a negative x, and is excluded
            if x < 0 {
                assert!(!out.iter().any(|g| holds(g, &[x, x >> 3])), "x = {x}");
            }
        }
    }
}
