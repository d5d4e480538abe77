//! The ARI format of the Termination Competition's ITS category: LCTRSs over the SMT-LIB
//! theory `Ints`.
//!
//! Followed: the LCTRS grammar of the ARI database (project-coco.uibk.ac.at/ARI/lctrs.php:
//! `(format LCTRS)`, `(theory …)`, `(fun f type)` with `type ::= sort | (-> sort+ sort)`,
//! `(rule lhs rhs :guard term :var (vars))`) and the ITS restrictions of the Termination
//! Portal's category page ("Integer Transition Systems": theory always `Ints`, `lhs ::=
//! (f x₁ … xₙ)` with variables, `rhs ::= (g t₁ … tₘ)`, exactly one `(entrypoint f)`; the
//! question is termination of all start terms `(f c₁ … cₙ)` with integer constants).
//!
//! Printing: one `fun` per location in ITS order (result sort `Int`; a location without
//! variables is the constant `(fun f Int)`, written `f` in rules), one `rule` per ITS rule,
//! the guard as `(and …)` of `<=`, `<`, `=`, `distinct` atoms, the start as `entrypoint` (it
//! has no incoming rules). Parsing accepts more: `>=`, `>`, chained relations, `and`/`or`/
//! `not`/`=>`, `true`/`false`, `:var` declarations, repeated or non-variable left-hand side
//! arguments (made equalities), and an entrypoint with incoming rules (a fresh start is added).
//! Guards with disjunctions become one rule per disjunct. `div`, `mod`, `abs`, `ite` and
//! products of variables are refused with an error naming them.

use crate::its::Its;
use crate::linexpr::{LinExpr, Var};
use crate::q::Q;
use crate::sexpr::{parse as parse_sexprs, Sexpr};
use crate::text::ParseError;
use crate::text::{build, relation, Formula, Op, RawRule, Term};
use num_bigint::BigInt;
use std::fmt::Write;

fn coeff_term(c: &Q, x: &str) -> String {
    if c.is_one() {
        x.to_string()
    } else if (-c).is_one() {
        format!("(- {x})")
    } else {
        format!("(* {} {x})", number(c))
    }
}

fn number(c: &Q) -> String {
    debug_assert!(c.is_integer());
    if c.is_negative() {
        format!("(- {})", -c)
    } else {
        c.to_string()
    }
}

fn term(e: &LinExpr, name: &dyn Fn(Var) -> String) -> String {
    let mut parts: Vec<String> = e
        .terms
        .iter()
        .map(|(v, c)| coeff_term(c, &name(*v)))
        .collect();
    if !e.constant.is_zero() || parts.is_empty() {
        parts.push(number(&e.constant));
    }
    if parts.len() == 1 {
        parts.pop().expect("one")
    } else {
        format!("(+ {})", parts.join(" "))
    }
}

fn app(f: &str, args: &[String]) -> String {
    if args.is_empty() {
        f.to_string()
    } else {
        format!("({f} {})", args.join(" "))
    }
}

/// The ITS in ARI format.
pub fn to_ari(its: &Its) -> String {
    let mut out = String::from("(format LCTRS)\n(theory Ints)\n");
    for l in its.locations() {
        if l.arity() == 0 {
            let _ = writeln!(out, "(fun {} Int)", l.name);
        } else {
            let _ = writeln!(out, "(fun {} (-> {}Int))", l.name, "Int ".repeat(l.arity()));
        }
    }
    let _ = writeln!(out, "(entrypoint {})", its.location(its.start()).name);
    for r in its.rules() {
        let from = its.location(r.from);
        let to = its.location(r.to);
        let name = |v: Var| its.var_name(r, v);
        let lhs = app(&from.name, &from.vars);
        let rhs: Vec<String> = r.args.iter().map(|e| term(e, &name)).collect();
        let _ = write!(out, "(rule {lhs} {}", app(&to.name, &rhs));
        let atoms: Vec<String> = r
            .guard
            .iter()
            .map(|c| {
                let (op, l, rr) = relation(c);
                let op = if op == "!=" { "distinct" } else { op };
                format!("({op} {} {})", term(&l, &name), term(&rr, &name))
            })
            .collect();
        match atoms.len() {
            0 => {}
            1 => {
                let _ = write!(out, " :guard {}", atoms[0]);
            }
            _ => {
                let _ = write!(out, " :guard (and {})", atoms.join(" "));
            }
        }
        out.push_str(")\n");
    }
    out
}

fn err<T>(line: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        msg: msg.into(),
    })
}

fn parse_term(s: &Sexpr) -> Result<Term, ParseError> {
    match s {
        Sexpr::Atom(a, l) => {
            if let Ok(n) = a.parse::<BigInt>() {
                if a.starts_with('-') || a.starts_with('+') {
                    return err(*l, format!("{a}: SMT-LIB writes negative numbers as (- n)"));
                }
                return Ok(Term::Num(n));
            }
            if a == "true" || a == "false" {
                return err(*l, format!("Boolean {a} where an integer is expected"));
            }
            Ok(Term::Var(a.clone()))
        }
        Sexpr::List(items, l) => {
            let Some(head) = items.first().and_then(Sexpr::atom) else {
                return err(*l, "expected an operator application");
            };
            let args: Vec<Term> = items[1..]
                .iter()
                .map(parse_term)
                .collect::<Result<_, _>>()?;
            if args.is_empty() {
                return err(*l, format!("({head}) without arguments"));
            }
            Ok(match head {
                "+" => Term::Add(args),
                "-" if args.len() == 1 => {
                    Term::Neg(Box::new(args.into_iter().next().expect("one")))
                }
                "-" => Term::Sub(args),
                "*" => Term::Mul(args),
                other => Term::Unsupported(other.to_string()),
            })
        }
    }
}

fn parse_formula(s: &Sexpr) -> Result<Formula, ParseError> {
    match s {
        Sexpr::Atom(a, l) => match a.as_str() {
            "true" => Ok(Formula::True),
            "false" => Ok(Formula::False),
            other => err(
                *l,
                format!("{other:?} is not a formula (Boolean variables are not supported)"),
            ),
        },
        Sexpr::List(items, l) => {
            let Some(head) = items.first().and_then(Sexpr::atom) else {
                return err(*l, "expected a formula");
            };
            let args = &items[1..];
            let rel = |op: Op| -> Result<Formula, ParseError> {
                if args.len() < 2 {
                    return err(*l, format!("({head} …) needs two arguments"));
                }
                let ts: Vec<Term> = args.iter().map(parse_term).collect::<Result<_, _>>()?;
                if op == Op::Ne {
                    // pairwise distinct
                    let mut atoms = Vec::new();
                    for i in 0..ts.len() {
                        for j in i + 1..ts.len() {
                            atoms.push(Formula::Atom(ts[i].clone(), Op::Ne, ts[j].clone()));
                        }
                    }
                    return Ok(Formula::And(atoms));
                }
                Ok(Formula::And(
                    ts.windows(2)
                        .map(|w| Formula::Atom(w[0].clone(), op, w[1].clone()))
                        .collect(),
                ))
            };
            match head {
                "and" => Ok(Formula::And(
                    args.iter().map(parse_formula).collect::<Result<_, _>>()?,
                )),
                "or" => Ok(Formula::Or(
                    args.iter().map(parse_formula).collect::<Result<_, _>>()?,
                )),
                "not" if args.len() == 1 => Ok(Formula::Not(Box::new(parse_formula(&args[0])?))),
                "=>" if args.len() == 2 => Ok(Formula::Or(vec![
                    Formula::Not(Box::new(parse_formula(&args[0])?)),
                    parse_formula(&args[1])?,
                ])),
                "<" => rel(Op::Lt),
                "<=" => rel(Op::Le),
                "=" => rel(Op::Eq),
                ">=" => rel(Op::Ge),
                ">" => rel(Op::Gt),
                "distinct" => rel(Op::Ne),
                other => err(*l, format!("unsupported connective or relation {other:?}")),
            }
        }
    }
}

/// Arity of a `fun` type: `Int` (0) or `(-> Int … Int)`.
fn fun_arity(t: &Sexpr) -> Result<usize, ParseError> {
    match t {
        Sexpr::Atom(a, l) if a == "Int" => Ok(0),
        Sexpr::List(items, l) if items.first().and_then(Sexpr::atom) == Some("->") => {
            if items.len() < 2 || items.iter().skip(1).any(|s| s.atom() != Some("Int")) {
                return err(*l, "only Int sorts are supported in an ITS");
            }
            Ok(items.len() - 2)
        }
        other => err(other.line(), "expected a type Int or (-> Int … Int)"),
    }
}

fn app_parts(s: &Sexpr) -> Result<(String, Vec<Term>), ParseError> {
    match s {
        Sexpr::Atom(a, _) => Ok((a.clone(), vec![])),
        Sexpr::List(items, l) => {
            let Some(f) = items.first().and_then(Sexpr::atom) else {
                return err(*l, "expected a function symbol application");
            };
            let args = items[1..]
                .iter()
                .map(parse_term)
                .collect::<Result<_, _>>()?;
            Ok((f.to_string(), args))
        }
    }
}

/// Parses an ITS in ARI format.
pub fn parse_ari(text: &str) -> Result<Its, ParseError> {
    let items = parse_sexprs(text)?;
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut rules: Vec<RawRule> = Vec::new();
    let mut entry: Option<String> = None;
    let mut saw_format = false;
    let mut saw_ints = false;
    for item in &items {
        let Sexpr::List(parts, l) = item else {
            return err(item.line(), "expected a top-level (…) declaration");
        };
        let l = *l;
        match parts.first().and_then(Sexpr::atom) {
            Some("format") => {
                if parts.get(1).and_then(Sexpr::atom) != Some("LCTRS") {
                    return err(l, "expected (format LCTRS)");
                }
                saw_format = true;
            }
            Some("theory") => match parts.get(1).and_then(Sexpr::atom) {
                Some("Ints") => saw_ints = true,
                other => return err(l, format!("unsupported theory {other:?}: an ITS uses Ints")),
            },
            Some("fun") => {
                let (Some(name), Some(ty)) = (parts.get(1).and_then(Sexpr::atom), parts.get(2))
                else {
                    return err(l, "expected (fun NAME TYPE)");
                };
                if order.iter().any(|(n, _)| n == name) {
                    return err(l, format!("function symbol {name} declared twice"));
                }
                order.push((name.to_string(), fun_arity(ty)?));
            }
            Some("entrypoint") => {
                let Some(name) = parts.get(1).and_then(Sexpr::atom) else {
                    return err(l, "expected (entrypoint NAME)");
                };
                if entry.is_some() {
                    return err(l, "more than one entrypoint");
                }
                entry = Some(name.to_string());
            }
            Some("rule") => {
                if parts.len() < 3 {
                    return err(l, "expected (rule LHS RHS …)");
                }
                let (from, lhs) = app_parts(&parts[1])?;
                let (to, rhs) = app_parts(&parts[2])?;
                let mut guard = Formula::True;
                let mut i = 3;
                while i < parts.len() {
                    match parts[i].atom() {
                        Some(":guard") if i + 1 < parts.len() => {
                            guard = parse_formula(&parts[i + 1])?
                        }
                        Some(":var") if i + 1 < parts.len() => check_vars(&parts[i + 1])?,
                        _ => return err(parts[i].line(), "expected :guard TERM or :var (…)"),
                    }
                    i += 2;
                }
                rules.push(RawRule {
                    line: l,
                    from,
                    lhs,
                    to,
                    rhs,
                    guard,
                });
            }
            Some(other @ ("sort" | "define-fun")) => {
                return err(l, format!("({other} …) is not supported in an ITS"));
            }
            other => return err(l, format!("unknown declaration {other:?}")),
        }
    }
    if !saw_format || !saw_ints {
        return err(1, "expected (format LCTRS) and (theory Ints)");
    }
    let Some(start) = entry else {
        return err(1, "no (entrypoint …): an ITS has exactly one");
    };
    build(&start, &order, &rules)
}

fn check_vars(s: &Sexpr) -> Result<(), ParseError> {
    let Sexpr::List(decls, _) = s else {
        return err(s.line(), "expected :var ((x Int) …)");
    };
    for d in decls {
        match d {
            Sexpr::List(p, _) if p.len() == 2 && p[1].atom() == Some("Int") => {}
            other => {
                return err(
                    other.line(),
                    "only (NAME Int) variable declarations are supported",
                )
            }
        }
    }
    Ok(())
}
