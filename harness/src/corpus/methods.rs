//! `jtg corpus --methods PATTERN`: every method of a corpus entry's class path whose
//! `Class.method` (binary class name, dots) a glob pattern matches is an entry of its own,
//! analysed from its default start state (as `jtg graph CP Class.method(desc)`), instead of
//! the entry's `main(String[])`.

use super::sources::{Entry, Target};
use jtg_engine::class::ClassPath;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Whether `text` matches the glob `pattern`: `*` any run of characters (dots included), `?`
/// one character, every other character itself.
pub fn glob_matches(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // the classic two-pointer match with backtracking to the last `*`
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// The unit an entry belongs to in reports: its name before `:Class` (a jar's or a unit's
/// whole name).
fn unit_of(e: &Entry) -> &str {
    match e.target {
        Target::JarMain | Target::Unit => &e.name,
        _ => e.name.split(':').next().unwrap_or(&e.name),
    }
}

/// The method entries of `entries`' class paths that `patterns` select (each class path once,
/// in the order of `entries`; methods sorted by class, name and descriptor). An entry whose
/// sources did not compile stays as it is. Methods without code, class initializers and
/// constructors (which the JVM side cannot run on their own) are not entries.
pub fn method_entries(entries: &[Entry], patterns: &[String]) -> Vec<Entry> {
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    let mut out = Vec::new();
    for e in entries {
        if let Target::CompileError(_) = e.target {
            out.push(e.clone());
            continue;
        }
        if !seen.insert(e.classpath.clone()) {
            continue;
        }
        let cp = match ClassPath::from_paths(std::slice::from_ref(&e.classpath)) {
            Ok(cp) => cp,
            Err(err) => {
                out.push(Entry {
                    name: unit_of(e).to_string(),
                    classpath: e.classpath.clone(),
                    target: Target::CompileError(err.to_string()),
                });
                continue;
            }
        };
        let mut found = BTreeSet::new();
        for class in cp.class_names() {
            let Ok(c) = cp.load(&class) else { continue };
            let binary = class.replace('/', ".");
            for m in c.methods.iter().filter(|m| m.code.is_some()) {
                let name = format!("{binary}.{}", m.name);
                if !m.name.starts_with('<') && patterns.iter().any(|p| glob_matches(p, &name)) {
                    found.insert(format!("{name}{}", m.desc_str));
                }
            }
        }
        let unit = unit_of(e);
        out.extend(found.into_iter().map(|spec| Entry {
            name: format!("{unit}:{spec}"),
            classpath: e.classpath.clone(),
            target: Target::Method(spec),
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::glob_matches;

    #[test]
    fn globs_match_class_and_method_names() {
        assert!(glob_matches("everyday.Lists.*", "everyday.Lists.sum"));
        assert!(glob_matches("*.sum", "everyday.Lists.sum"));
        assert!(glob_matches("*", "A.b"));
        assert!(glob_matches("A.?", "A.b"));
        assert!(glob_matches("*Li*s.s*m", "everyday.Lists.sum"));
        assert!(!glob_matches("everyday.Lists.*", "everyday.ListsX"));
        assert!(!glob_matches("Lists.*", "everyday.Lists.sum"));
        assert!(!glob_matches("A.?", "A.bc"));
        assert!(!glob_matches("*.sum", "everyday.Lists.sumRec"));
    }
}
