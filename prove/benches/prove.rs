//! Prover timings (`cargo bench -p jtg-prove --bench prove`, also run by `make bench`).
//!
//! Times `prove` (synthesis, certification, exact re-verification) on the hand examples of the
//! tests and on generated families: nested loops needing `d` lexicographic levels, rings of
//! `L` locations, and 200 seeded random ITSs. Prints per family the verdicts, the median and
//! p90 of one `prove` call, LP solves and pivots. `JTG_BENCH_REPS=N` sets repetitions.

use jtg_prove::{
    parse_koat, prove, Constraint, Its, LinExpr, Options, Proof, Rule, Var, Verdict, Q,
};
use std::time::Instant;

fn koat(vars: &str, rules: &str) -> Its {
    parse_koat(&format!(
        "(GOAL COMPLEXITY) (STARTTERM (FUNCTIONSYMBOLS start)) (VAR {vars}) (RULES {rules})"
    ))
    .expect("bench ITS parses")
}

fn v(i: usize) -> LinExpr {
    LinExpr::var(Var(i as u32))
}

/// `d` nested counters: rule i decrements x_i and havocs x_{i+1..d}.
fn nested(d: usize) -> Its {
    let names: Vec<String> = (1..=d).map(|i| format!("x{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut its = Its::new("start", &refs).unwrap();
    let f = its.add_location("f", &refs).unwrap();
    its.add_rule(Rule {
        from: its.start(),
        to: f,
        temps: vec![],
        args: (0..d).map(v).collect(),
        guard: vec![],
    })
    .unwrap();
    for i in 0..d {
        let temps: Vec<String> = (i + 1..d).map(|j| format!("t{j}")).collect();
        let args = (0..d)
            .map(|j| match j.cmp(&i) {
                std::cmp::Ordering::Less => v(j),
                std::cmp::Ordering::Equal => v(j).minus(&LinExpr::constant(1)),
                std::cmp::Ordering::Greater => v(d + j - i - 1),
            })
            .collect();
        its.add_rule(Rule {
            from: f,
            to: f,
            temps,
            args,
            guard: vec![Constraint::gt(&v(i), &LinExpr::zero())],
        })
        .unwrap();
    }
    its
}

/// A ring of `l` locations with `k` variables; one step decrements x1 under x1 > 0, the
/// others copy, and each location also has a side exit.
fn ring(l: usize, k: usize) -> Its {
    let names: Vec<String> = (1..=k).map(|i| format!("x{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut its = Its::new("start", &refs).unwrap();
    let locs: Vec<_> = (0..l)
        .map(|i| its.add_location(&format!("r{i}"), &refs).unwrap())
        .collect();
    let exit = its.add_location("exit", &[]).unwrap();
    let id: Vec<LinExpr> = (0..k).map(v).collect();
    its.add_rule(Rule {
        from: its.start(),
        to: locs[0],
        temps: vec![],
        args: id.clone(),
        guard: vec![],
    })
    .unwrap();
    for i in 0..l {
        let mut args = id.clone();
        let mut guard = vec![Constraint::ge(&v(i % k), &v((i + 1) % k))];
        if i == l - 1 {
            args[0] = v(0).minus(&LinExpr::constant(1));
            guard = vec![Constraint::gt(&v(0), &LinExpr::zero())];
        }
        its.add_rule(Rule {
            from: locs[i],
            to: locs[(i + 1) % l],
            temps: vec![],
            args,
            guard,
        })
        .unwrap();
        its.add_rule(Rule {
            from: locs[i],
            to: exit,
            temps: vec![],
            args: vec![],
            guard: vec![Constraint::le(&v(0), &LinExpr::zero())],
        })
        .unwrap();
    }
    its
}

/// A seeded random ITS (xorshift), shaped like the property tests' loops.
fn random(seed: u64) -> Its {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let nlocs = 1 + next(3) as usize;
    let arity = 1 + next(3) as usize;
    let names: Vec<String> = (1..=arity).map(|i| format!("x{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut its = Its::new("start", &refs).unwrap();
    let locs: Vec<_> = (0..nlocs)
        .map(|i| its.add_location(&format!("l{i}"), &refs).unwrap())
        .collect();
    let expr = |next: &mut dyn FnMut(u64) -> u64| {
        let mut e = LinExpr::constant(next(5) as i64 - 2);
        for j in 0..arity {
            if next(2) == 0 {
                e.add_term(Var(j as u32), &Q::int(next(5) as i64 - 2));
            }
        }
        e
    };
    its.add_rule(Rule {
        from: its.start(),
        to: locs[0],
        temps: vec![],
        args: (0..arity).map(v).collect(),
        guard: vec![],
    })
    .unwrap();
    for _ in 0..2 + next(5) {
        let from = locs[next(nlocs as u64) as usize];
        let to = locs[next(nlocs as u64) as usize];
        let args = (0..arity)
            .map(|j| {
                if next(3) == 0 {
                    expr(&mut next)
                } else {
                    v(j).plus(&LinExpr::constant(next(3) as i64 - 1))
                }
            })
            .collect();
        let guard = (0..next(3))
            .map(|_| Constraint::le(&expr(&mut next), &LinExpr::zero()))
            .collect();
        its.add_rule(Rule {
            from,
            to,
            temps: vec![],
            args,
            guard,
        })
        .unwrap();
    }
    its
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn run(family: &str, itss: &[Its], reps: usize) {
    let opts = Options::default();
    let mut times = Vec::new();
    let (mut yes, mut no, mut maybe) = (0, 0, 0);
    let (mut solves, mut pivots) = (0u64, 0u64);
    for its in itss {
        let mut best: Option<Proof> = None;
        let mut ts = Vec::new();
        for _ in 0..reps {
            let t = Instant::now();
            let p = prove(its, &opts);
            ts.push(t.elapsed().as_secs_f64() * 1e3);
            best = Some(p);
        }
        ts.sort_by(f64::total_cmp);
        times.push(ts[ts.len() / 2]);
        let p = best.expect("reps > 0");
        assert!(
            p.notes.iter().all(|n| !n.contains("internal error")),
            "{family}: {:?}",
            p.notes
        );
        solves += p.lp.solves;
        pivots += p.lp.pivots;
        match p.verdict {
            Verdict::Yes => yes += 1,
            Verdict::No => no += 1,
            Verdict::Maybe => maybe += 1,
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{family:<28} {:>4} ITS  YES {yes:>3} NO {no:>3} MAYBE {maybe:>3}  median {:>8.3} ms  p90 {:>8.3} ms  max {:>8.3} ms  LPs/ITS {:>6.1}  pivots/ITS {:>8.1}",
        itss.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.9),
        times.last().copied().unwrap_or(0.0),
        solves as f64 / itss.len() as f64,
        pivots as f64 / itss.len() as f64,
    );
}

fn main() {
    // `cargo test` runs bench targets once with --bench absent; keep that fast.
    let reps: usize = std::env::var("JTG_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if std::env::args().any(|a| a == "--bench") {
            5
        } else {
            1
        });
    println!("jtg-prove bench: median of {reps} runs per ITS (wall clock)");
    let examples = vec![
        koat("x", "start(x) -> f(x)  f(x) -> f(x - 1) :|: x > 0"),
        koat("x y t", "start(x, y) -> f(x, y)  f(x, y) -> f(x - 1, t) :|: x > 0  f(x, y) -> f(x, y - 1) :|: y > 0"),
        koat("i n", "start(i, n) -> h(i, n)  h(i, n) -> b(i, n) :|: i < n  b(i, n) -> h(i + 1, n)  h(i, n) -> e(i, n) :|: i >= n"),
        koat("x", "start(x) -> f(x)  f(x) -> f(x - 2) :|: x != 0"),
        koat("x", "start(x) -> f(x)  f(x) -> f(x + 1) :|: x > 0"),
        koat("x y", "start(x, y) -> f(x, y)  f(x, y) -> f(x + 1, y + 1) :|: x >= y"),
        koat("x y", "start(x, y) -> f(x, y)  f(x, y) -> f(x + y, y) :|: x > 0"),
    ];
    run("examples", &examples, reps);
    for d in [2, 4, 8] {
        run(&format!("nested loops d={d}"), &[nested(d)], reps);
    }
    for (l, k) in [(4, 2), (16, 4), (32, 6)] {
        run(&format!("ring L={l} k={k}"), &[ring(l, k)], reps);
    }
    let randoms: Vec<Its> = (1..=200).map(random).collect();
    run("random (200, seeded)", &randoms, reps);
}
