//! KoAT's input format for integer programs:
//!
//! ```text
//! (GOAL COMPLEXITY)
//! (STARTTERM (FUNCTIONSYMBOLS start))
//! (VAR x y)
//! (RULES
//!   start(x, y) -> f(x, y)
//!   f(x, y) -> f(x - 1, y) :|: x > 0 && y >= 0
//! )
//! ```
//!
//! Followed: KoAT's ANTLR grammar (`Koat.g4`: `goal? start vardecl transs`, `lhs: fs (var,…)`,
//! `rhs: fs (expr,…)`, `to: -> | -{lb,ub}> | -{lb}>`, `cond: :|: formula | [ formula ]`) and its
//! examples (`Com_1(f(…))` right-hand sides, `&&` or `/\` conjunctions, `#` comments). Variables
//! of a rule that are not on its left-hand side are temporaries (KoAT reads them so too).
//! Printing: `(GOAL COMPLEXITY)`, every variable name in `VAR`, one rule per line; KoAT has no
//! `≠`, so a rule with `k` disequalities is printed as `2^k` rules (`<` / `>` per side).
//! Parsing also accepts `(GOAL TERMINATION)`, costs on arrows (ignored), `==`, `=<`, `!=`,
//! `||` (one rule per disjunct) and parentheses in guards are not needed by the format and not
//! accepted. `Com_k` with `k > 1` (non-tail recursion) is refused.

use crate::its::Its;
use crate::linexpr::{Constraint, Rel, Var};
use crate::q::Q;
use crate::text::ParseError;
use crate::text::{build, relation, Formula, Op, RawRule, Term};
use num_bigint::BigInt;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The ITS in KoAT's format.
pub fn to_koat(its: &Its) -> String {
    let mut names: BTreeSet<String> = BTreeSet::new();
    for l in its.locations() {
        names.extend(l.vars.iter().cloned());
    }
    for r in its.rules() {
        names.extend(r.temps.iter().cloned());
    }
    let mut out = String::from("(GOAL COMPLEXITY)\n");
    let _ = writeln!(
        out,
        "(STARTTERM (FUNCTIONSYMBOLS {}))",
        its.location(its.start()).name
    );
    let _ = writeln!(
        out,
        "(VAR {})",
        names.into_iter().collect::<Vec<_>>().join(" ")
    );
    out.push_str("(RULES\n");
    for r in its.rules() {
        let from = its.location(r.from);
        let to = its.location(r.to);
        let name = |v: Var| its.var_name(r, v);
        let args: Vec<String> = r.args.iter().map(|e| e.display_with(&name)).collect();
        let head = format!(
            "{}({}) -> {}({})",
            from.name,
            from.vars.join(", "),
            to.name,
            args.join(", ")
        );
        let ne = r.ne_count();
        for bits in 0..1usize << ne {
            let mut k = 0;
            let atoms: Vec<String> = r
                .guard
                .iter()
                .map(|c| {
                    let c = if c.rel == Rel::Ne {
                        let side = bits >> k & 1;
                        k += 1;
                        let e = if side == 0 {
                            c.expr.clone()
                        } else {
                            c.expr.scaled(&-Q::one())
                        };
                        Constraint::new(e, Rel::Lt)
                    } else {
                        c.clone()
                    };
                    let (op, l, rr) = relation(&c);
                    format!("{} {op} {}", l.display_with(&name), rr.display_with(&name))
                })
                .collect();
            if atoms.is_empty() {
                let _ = writeln!(out, "  {head}");
            } else {
                let _ = writeln!(out, "  {head} :|: {}", atoms.join(" && "));
            }
        }
    }
    out.push_str(")\n");
    out
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    LPar,
    RPar,
    Comma,
    Arrow,
    Cond,
    LBrack,
    RBrack,
    And,
    Or,
    Rel(Op),
    Plus,
    Minus,
    Times,
    Ident(String),
    Num(BigInt),
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut line = 1;
    let mut out = Vec::new();
    let err = |line: usize, msg: String| ParseError { line, msg };
    while i < cs.len() {
        let c = cs[i];
        let rest = |k: usize| cs.get(i + k).copied().unwrap_or('\0');
        let (tok, len) = match c {
            '\n' => {
                line += 1;
                i += 1;
                continue;
            }
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '#' => {
                while i < cs.len() && cs[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '(' => (Tok::LPar, 1),
            ')' => (Tok::RPar, 1),
            ',' => (Tok::Comma, 1),
            '[' => (Tok::LBrack, 1),
            ']' => (Tok::RBrack, 1),
            '+' => (Tok::Plus, 1),
            '*' => (Tok::Times, 1),
            '-' if rest(1) == '>' => (Tok::Arrow, 2),
            '-' if rest(1) == '{' => {
                // cost annotation -{ … }>
                let mut j = i + 2;
                while j + 1 < cs.len() && !(cs[j] == '}' && cs[j + 1] == '>') {
                    if cs[j] == '\n' {
                        line += 1;
                    }
                    j += 1;
                }
                if j + 1 >= cs.len() {
                    return Err(err(line, "unterminated cost arrow -{…}>".into()));
                }
                (Tok::Arrow, j + 2 - i)
            }
            '-' => (Tok::Minus, 1),
            ':' if rest(1) == '|' && rest(2) == ':' => (Tok::Cond, 3),
            '&' if rest(1) == '&' => (Tok::And, 2),
            '/' if rest(1) == '\\' => (Tok::And, 2),
            '|' if rest(1) == '|' => (Tok::Or, 2),
            '\\' if rest(1) == '/' => (Tok::Or, 2),
            '<' if rest(1) == '=' => (Tok::Rel(Op::Le), 2),
            '<' => (Tok::Rel(Op::Lt), 1),
            '>' if rest(1) == '=' => (Tok::Rel(Op::Ge), 2),
            '>' => (Tok::Rel(Op::Gt), 1),
            '=' if rest(1) == '<' => (Tok::Rel(Op::Le), 2),
            '=' if rest(1) == '=' => (Tok::Rel(Op::Eq), 2),
            '=' => (Tok::Rel(Op::Eq), 1),
            '!' if rest(1) == '=' => (Tok::Rel(Op::Ne), 2),
            c if c.is_ascii_digit() => {
                let mut j = i;
                while j < cs.len() && cs[j].is_ascii_digit() {
                    j += 1;
                }
                let s: String = cs[i..j].iter().collect();
                (Tok::Num(s.parse().expect("digits")), j - i)
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut j = i;
                while j < cs.len()
                    && (cs[j].is_alphanumeric() || matches!(cs[j], '_' | '\'' | '.' | '^' | '!'))
                {
                    // `!=` after a name is the relation, not part of it
                    if cs[j] == '!' && cs.get(j + 1) == Some(&'=') {
                        break;
                    }
                    j += 1;
                }
                (Tok::Ident(cs[i..j].iter().collect()), j - i)
            }
            other => return Err(err(line, format!("unexpected character {other:?}"))),
        };
        out.push((tok, line));
        i += len;
    }
    Ok(out)
}

struct P {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

impl P {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.pos + 1).map(|t| &t.0)
    }
    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.1)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line(),
            msg: msg.into(),
        })
    }
    fn expect(&mut self, t: Tok, what: &str) -> Result<(), ParseError> {
        if self.peek() == Some(&t) {
            self.pos += 1;
            Ok(())
        } else {
            self.err(format!("expected {what}"))
        }
    }
    fn ident(&mut self, what: &str) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => self.err(format!("expected {what}")),
        }
    }
    fn keyword(&mut self, kw: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == kw => {
                self.pos += 1;
                Ok(())
            }
            _ => self.err(format!("expected {kw}")),
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Term, ParseError> {
        if depth > 200 {
            return self.err("expression nested too deeply");
        }
        let mut t = self.term(depth)?;
        loop {
            match self.peek() {
                Some(Tok::Plus) => {
                    self.pos += 1;
                    t = Term::Add(vec![t, self.term(depth)?]);
                }
                Some(Tok::Minus) => {
                    self.pos += 1;
                    t = Term::Sub(vec![t, self.term(depth)?]);
                }
                _ => return Ok(t),
            }
        }
    }
    fn term(&mut self, depth: usize) -> Result<Term, ParseError> {
        let mut t = self.factor(depth)?;
        while self.peek() == Some(&Tok::Times) {
            self.pos += 1;
            t = Term::Mul(vec![t, self.factor(depth)?]);
        }
        Ok(t)
    }
    fn factor(&mut self, depth: usize) -> Result<Term, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(Term::Num(n))
            }
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                if self.peek() == Some(&Tok::LPar) {
                    return self.err(format!(
                        "function {s}(…) inside an expression is not supported"
                    ));
                }
                Ok(Term::Var(s))
            }
            Some(Tok::Minus) => {
                self.pos += 1;
                Ok(Term::Neg(Box::new(self.factor(depth + 1)?)))
            }
            Some(Tok::LPar) => {
                self.pos += 1;
                let e = self.expr(depth + 1)?;
                self.expect(Tok::RPar, "')'")?;
                Ok(e)
            }
            _ => self.err("expected an expression"),
        }
    }
    fn app(&mut self) -> Result<(String, Vec<Term>), ParseError> {
        let f = self.ident("a function symbol")?;
        self.expect(Tok::LPar, "'('")?;
        let mut args = Vec::new();
        if self.peek() != Some(&Tok::RPar) {
            loop {
                args.push(self.expr(0)?);
                if self.peek() == Some(&Tok::Comma) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        self.expect(Tok::RPar, "')'")?;
        Ok((f, args))
    }
    fn atom(&mut self) -> Result<Formula, ParseError> {
        let a = self.expr(0)?;
        let Some(Tok::Rel(op)) = self.peek().cloned() else {
            return self.err("expected a relation (<, <=, =, >=, >)");
        };
        self.pos += 1;
        let b = self.expr(0)?;
        Ok(Formula::Atom(a, op, b))
    }
    fn formula(&mut self) -> Result<Formula, ParseError> {
        let mut disj = Vec::new();
        loop {
            let mut conj = vec![self.atom()?];
            while self.peek() == Some(&Tok::And) {
                self.pos += 1;
                conj.push(self.atom()?);
            }
            disj.push(Formula::And(conj));
            if self.peek() == Some(&Tok::Or) {
                self.pos += 1;
            } else {
                return Ok(Formula::Or(disj));
            }
        }
    }
}

/// Parses an ITS in KoAT's format.
pub fn parse_koat(text: &str) -> Result<Its, ParseError> {
    let mut p = P {
        toks: lex(text)?,
        pos: 0,
    };
    // (GOAL …) is optional
    if p.peek() == Some(&Tok::LPar) && p.peek2() == Some(&Tok::Ident("GOAL".into())) {
        p.pos += 2;
        let g = p.ident("COMPLEXITY or TERMINATION")?;
        if g != "COMPLEXITY" && g != "TERMINATION" {
            return p.err(format!("unknown goal {g}"));
        }
        p.expect(Tok::RPar, "')'")?;
    }
    p.expect(Tok::LPar, "'(STARTTERM'")?;
    p.keyword("STARTTERM")?;
    p.expect(Tok::LPar, "'(FUNCTIONSYMBOLS'")?;
    p.keyword("FUNCTIONSYMBOLS")?;
    let start = p.ident("the start symbol")?;
    p.expect(Tok::RPar, "')'")?;
    p.expect(Tok::RPar, "')'")?;
    p.expect(Tok::LPar, "'(VAR'")?;
    p.keyword("VAR")?;
    while let Some(Tok::Ident(_)) = p.peek() {
        p.pos += 1;
    }
    p.expect(Tok::RPar, "')'")?;
    p.expect(Tok::LPar, "'(RULES'")?;
    p.keyword("RULES")?;
    let mut order: Vec<(String, usize)> = Vec::new();
    let mut rules = Vec::new();
    let note = |name: &str, n: usize, order: &mut Vec<(String, usize)>| {
        if !order.iter().any(|(m, _)| m == name) {
            order.push((name.to_string(), n));
        }
    };
    while p.peek() != Some(&Tok::RPar) {
        let line = p.line();
        let (from, lhs) = p.app()?;
        p.expect(Tok::Arrow, "'->'")?;
        let (to, rhs) = match p.peek() {
            Some(Tok::Ident(s)) if s.starts_with("Com_") => {
                let k = s[4..].parse::<usize>().unwrap_or(0);
                if k != 1 {
                    return p.err(format!("{s}: only Com_1 (one successor) is supported"));
                }
                p.pos += 1;
                p.expect(Tok::LPar, "'('")?;
                let a = p.app()?;
                p.expect(Tok::RPar, "')'")?;
                a
            }
            _ => p.app()?,
        };
        let guard = match p.peek() {
            Some(Tok::Cond) => {
                p.pos += 1;
                p.formula()?
            }
            Some(Tok::LBrack) => {
                p.pos += 1;
                let f = p.formula()?;
                p.expect(Tok::RBrack, "']'")?;
                f
            }
            _ => Formula::True,
        };
        note(&from, lhs.len(), &mut order);
        note(&to, rhs.len(), &mut order);
        rules.push(RawRule {
            line,
            from,
            lhs,
            to,
            rhs,
            guard,
        });
    }
    p.expect(Tok::RPar, "')'")?;
    if p.peek().is_some() {
        return p.err("text after (RULES …)");
    }
    if !order.iter().any(|(m, _)| *m == start) {
        order.insert(0, (start.clone(), 0));
    }
    build(&start, &order, &rules)
}
