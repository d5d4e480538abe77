//! Measurement behind docs/proving.md "Solver choice": seeded random LPs shaped like the Farkas
//! systems of the prover (equality rows over nonnegative multipliers plus free template
//! coefficients), solved by our exact simplex; each is also written as SMT-LIB
//! (`QF_LRA` with `maximize`) to `$OUT_DIR_SMT` (default /tmp/jtg-lp) for timing z3 on it:
//! `for f in /tmp/jtg-lp/*.smt2; do /usr/bin/time -f %e z3 $f; done`.

use jtg_prove::lp::{solve, Cmp, Limits, Lp, LpResult, LpStats, VarKind};
use jtg_prove::Q;
use std::fmt::Write;
use std::time::Instant;

fn lp(seed: u64, rows: usize, free: usize, nonneg: usize) -> Lp {
    let mut s = seed | 1;
    let mut next = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let mut lp = Lp::new();
    for _ in 0..free {
        lp.var(VarKind::Free);
    }
    for _ in 0..nonneg {
        lp.var(VarKind::NonNeg);
    }
    let n = free + nonneg;
    for r in 0..rows {
        let mut coeffs: Vec<(usize, Q)> = Vec::new();
        for j in 0..n {
            if next(4) == 0 {
                coeffs.push((j, Q::int(next(7) as i64 - 3)));
            }
        }
        let cmp = if r % 3 == 0 { Cmp::Le } else { Cmp::Eq };
        lp.row(coeffs, cmp, Q::int(next(5) as i64 - 2));
    }
    for j in 0..n {
        lp.row(vec![(j, Q::one())], Cmp::Le, Q::int(10));
        lp.row(vec![(j, Q::one())], Cmp::Ge, Q::int(-10));
    }
    lp.objective = (0..n.min(8)).map(|j| (j, Q::one())).collect();
    lp
}

fn smt(lp: &Lp) -> String {
    let mut s = String::from("(set-logic QF_LRA)\n");
    for (j, k) in lp.kinds.iter().enumerate() {
        let _ = writeln!(s, "(declare-fun v{j} () Real)");
        if *k == VarKind::NonNeg {
            let _ = writeln!(s, "(assert (>= v{j} 0))");
        }
    }
    let num = |q: &Q| {
        if q.is_negative() {
            format!("(- {})", -q)
        } else {
            q.to_string()
        }
    };
    for r in &lp.rows {
        let terms: Vec<String> = r
            .coeffs
            .iter()
            .map(|(j, c)| format!("(* {} v{j})", num(c)))
            .collect();
        let lhs = if terms.is_empty() {
            "0".into()
        } else {
            format!("(+ 0 {})", terms.join(" "))
        };
        let op = match r.cmp {
            Cmp::Le => "<=",
            Cmp::Eq => "=",
            Cmp::Ge => ">=",
        };
        let _ = writeln!(s, "(assert ({op} {lhs} {}))", num(&r.rhs));
    }
    let obj: Vec<String> = lp.objective.iter().map(|(j, _)| format!("v{j}")).collect();
    let _ = writeln!(
        s,
        "(maximize (+ 0 {}))\n(check-sat)\n(get-objectives)",
        obj.join(" ")
    );
    s
}

fn main() {
    let dir = std::env::var("OUT_DIR_SMT").unwrap_or_else(|_| "/tmp/jtg-lp".into());
    std::fs::create_dir_all(&dir).unwrap();
    for (name, rows, free, nonneg) in [
        ("small", 8, 4, 8),
        ("medium", 40, 20, 40),
        ("large", 150, 60, 150),
    ] {
        let mut times = Vec::new();
        let (mut opt, mut inf, mut unknown) = (0, 0, 0);
        for seed in 1..=20u64 {
            let p = lp(seed * 7919, rows, free, nonneg);
            let mut st = LpStats::default();
            let t = Instant::now();
            let limits = Limits {
                max_pivots: 20_000,
                max_work: u64::MAX,
                max_cells: u64::MAX,
                deadline: Some(Instant::now() + std::time::Duration::from_secs(5)),
            };
            let r = solve(&p, &limits, &mut st);
            eprintln!(
                "{name} {seed}: {:?} pivots {} {:.1} ms",
                std::mem::discriminant(&r),
                st.pivots,
                t.elapsed().as_secs_f64() * 1e3
            );
            times.push(t.elapsed().as_secs_f64() * 1e3);
            match r {
                LpResult::Optimal { .. } => opt += 1,
                LpResult::Infeasible => inf += 1,
                _ => unknown += 1,
            }
            std::fs::write(format!("{dir}/{name}-{seed:02}.smt2"), smt(&p)).unwrap();
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<7} {rows:>4} rows {:>4} vars: optimal {opt:>2} infeasible {inf:>2} unknown {unknown:>2}  median {:.3} ms  max {:.3} ms",
            free + nonneg,
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
}
