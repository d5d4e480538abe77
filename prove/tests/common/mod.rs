//! Random ITSs for the property tests.
#![allow(dead_code)]

use jtg_prove::{Constraint, Its, LinExpr, Rel, Rule, Var, Q};
use quickcheck::{Arbitrary, Gen};

const NAMES: &[&str] = &["a", "b", "c", "i", "n", "x", "y", "z"];
const TEMPS: &[&str] = &["t", "u", "w"];

#[derive(Clone, Copy)]
pub struct Shape {
    pub max_locs: usize,
    pub max_vars: usize,
    pub max_rules: usize,
    pub max_guard: usize,
    pub coeff: i64,
    pub temps: bool,
    pub ne: bool,
}

fn small(g: &mut Gen, k: i64) -> i64 {
    (i64::arbitrary(g).rem_euclid(2 * k + 1)) - k
}

fn pick(g: &mut Gen, n: usize) -> usize {
    usize::arbitrary(g) % n.max(1)
}

fn expr(g: &mut Gen, nvars: usize, k: i64) -> LinExpr {
    let mut e = LinExpr::constant(small(g, k));
    for v in 0..nvars {
        if bool::arbitrary(g) {
            e.add_term(Var(v as u32), &Q::int(small(g, k)));
        }
    }
    e
}

/// A random well-formed ITS whose locations are numbered by first appearance in its rules and
/// whose temporaries are numbered by first use (the forms both parsers produce), so that
/// printing and parsing give the same value back.
pub fn random_its(g: &mut Gen, s: Shape) -> Its {
    let nlocs = 1 + pick(g, s.max_locs);
    let arity: Vec<usize> = (0..=nlocs).map(|_| pick(g, s.max_vars + 1)).collect();
    let nrules = 1 + pick(g, s.max_rules);
    // (from, to) over abstract locations 0..=nlocs; 0 is the start, first rule leaves it.
    let mut edges = vec![(0usize, 1 + pick(g, nlocs))];
    for _ in 1..nrules {
        edges.push((pick(g, nlocs + 1), 1 + pick(g, nlocs)));
    }
    let mut order = vec![0usize];
    for &(a, b) in &edges {
        for l in [a, b] {
            if !order.contains(&l) {
                order.push(l);
            }
        }
    }
    let has_out = |l: usize| edges.iter().any(|(a, _)| *a == l);
    let var_names = |g: &mut Gen, l: usize| -> Vec<String> {
        if has_out(l) {
            let mut pool: Vec<&str> = NAMES.to_vec();
            (0..arity[l])
                .map(|_| pool.remove(pick(g, pool.len())).to_string())
                .collect()
        } else {
            (1..=arity[l]).map(|i| format!("x{i}")).collect()
        }
    };
    let start_vars = var_names(g, 0);
    let refs: Vec<&str> = start_vars.iter().map(String::as_str).collect();
    let mut its = Its::new("start", &refs).unwrap();
    let mut ids = vec![its.start(); nlocs + 1];
    for &l in &order[1..] {
        let vs = var_names(g, l);
        let refs: Vec<&str> = vs.iter().map(String::as_str).collect();
        ids[l] = its.add_location(&format!("l{l}"), &refs).unwrap();
    }
    for &(a, b) in &edges {
        let n = arity[a];
        let nt = if s.temps { pick(g, 2) } else { 0 };
        let nv = n + nt;
        let args: Vec<LinExpr> = (0..arity[b]).map(|_| expr(g, nv, s.coeff)).collect();
        let guard: Vec<Constraint> = (0..pick(g, s.max_guard + 1))
            .map(|_| {
                let rels = if s.ne {
                    &[Rel::Le, Rel::Lt, Rel::Eq, Rel::Ne][..]
                } else {
                    &[Rel::Le, Rel::Lt, Rel::Eq][..]
                };
                Constraint::new(expr(g, nv, s.coeff), *g.choose(rels).unwrap())
            })
            .collect();
        // Renumber temporaries by first use (args, then guard); drop unused ones.
        let mut used: Vec<usize> = Vec::new();
        for e in args.iter().chain(guard.iter().map(|c| &c.expr)) {
            for v in e.vars() {
                if v.index() >= n && !used.contains(&v.index()) {
                    used.push(v.index());
                }
            }
        }
        let ren = |v: Var| {
            if v.index() < n {
                v
            } else {
                Var((n + used.iter().position(|&u| u == v.index()).unwrap()) as u32)
            }
        };
        let from_vars = its.location(ids[a]).vars.clone();
        let temps: Vec<String> = TEMPS
            .iter()
            .filter(|t| !from_vars.iter().any(|v| v == *t))
            .take(used.len())
            .map(|t| t.to_string())
            .collect();
        let rule = Rule {
            from: ids[a],
            to: ids[b],
            temps,
            args: args.iter().map(|e| e.rename(&ren)).collect(),
            guard: guard.iter().map(|c| c.rename(&ren)).collect(),
        };
        its.add_rule(rule).unwrap();
    }
    its
}

/// Simple ITSs for soundness checks: a start rule into one or two looping locations.
pub fn random_loop(g: &mut Gen) -> Its {
    random_its(
        g,
        Shape {
            max_locs: 2,
            max_vars: 2,
            max_rules: 4,
            max_guard: 2,
            coeff: 2,
            temps: false,
            ne: true,
        },
    )
}
