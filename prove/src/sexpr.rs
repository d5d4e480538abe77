//! S-expressions with line numbers (for the ARI format).

use crate::text::ParseError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sexpr {
    Atom(String, usize),
    List(Vec<Sexpr>, usize),
}

impl Sexpr {
    pub(crate) fn line(&self) -> usize {
        match self {
            Sexpr::Atom(_, l) | Sexpr::List(_, l) => *l,
        }
    }

    pub(crate) fn atom(&self) -> Option<&str> {
        match self {
            Sexpr::Atom(a, _) => Some(a),
            Sexpr::List(..) => None,
        }
    }
}

/// Most nesting accepted (deeper input is refused, never a stack overflow).
const MAX_DEPTH: usize = 500;

/// Parses a sequence of S-expressions; `;` starts a comment, `|…|` quotes a symbol.
pub(crate) fn parse(text: &str) -> Result<Vec<Sexpr>, ParseError> {
    let mut stack: Vec<(Vec<Sexpr>, usize)> = vec![(Vec::new(), 1)];
    let mut line = 1;
    let mut chars = text.chars().peekable();
    let err = |line: usize, msg: &str| ParseError {
        line,
        msg: msg.to_string(),
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            c if c.is_whitespace() => {}
            ';' => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                        break;
                    }
                }
            }
            '(' => {
                if stack.len() > MAX_DEPTH {
                    return Err(err(line, "nesting too deep"));
                }
                stack.push((Vec::new(), line));
            }
            ')' => {
                if stack.len() == 1 {
                    return Err(err(line, "unbalanced ')'"));
                }
                let (items, l) = stack.pop().expect("nonempty");
                stack
                    .last_mut()
                    .expect("outer")
                    .0
                    .push(Sexpr::List(items, l));
            }
            '|' => {
                let mut s = String::new();
                let start = line;
                loop {
                    match chars.next() {
                        Some('|') => break,
                        Some(d) => {
                            if d == '\n' {
                                line += 1;
                            }
                            s.push(d);
                        }
                        None => return Err(err(start, "unterminated |symbol|")),
                    }
                }
                stack.last_mut().expect("top").0.push(Sexpr::Atom(s, start));
            }
            _ => {
                let mut s = String::from(c);
                while let Some(&d) = chars.peek() {
                    if d.is_whitespace() || d == '(' || d == ')' || d == ';' || d == '|' {
                        break;
                    }
                    s.push(d);
                    chars.next();
                }
                stack.last_mut().expect("top").0.push(Sexpr::Atom(s, line));
            }
        }
    }
    if stack.len() != 1 {
        let open = stack.last().map_or(line, |s| s.1);
        return Err(err(open, "unbalanced '(' (opened here)"));
    }
    Ok(stack.pop().expect("top").0)
}
