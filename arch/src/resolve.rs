//! Name resolution, as far as imports need it: a path is followed from the module that writes
//! it through child modules, `use` items (re-exports included) and glob imports, to the module
//! that defines the item it names. Paths into other crates are kept apart; std and external
//! crates resolve to nothing.

use crate::scan::{CrateModules, ModuleId};
use crate::Import;
use std::collections::BTreeSet;

/// What a name denotes in a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookup {
    /// A module of the crate.
    Module(ModuleId),
    /// An item, defined in this module.
    Item(ModuleId),
}

const MAX_DEPTH: usize = 48;

/// The crate's resolved imports, and the paths that name other workspace crates.
pub(crate) fn imports(
    cm: &CrateModules,
    ws_crates: &BTreeSet<String>,
) -> (Vec<Import>, Vec<(ModuleId, Vec<String>)>) {
    let mut out = BTreeSet::new();
    let mut external = Vec::new();
    for (id, m) in cm.modules.iter().enumerate() {
        let record = |path: &[String], out: &mut BTreeSet<Import>| {
            if let Some((Lookup::Item(def), name)) = resolve(cm, id, path, 0) {
                if def != id {
                    out.insert(Import {
                        from: id,
                        to: def,
                        name,
                    });
                }
            }
        };
        for u in &m.uses {
            if u.path.first().is_some_and(|s| ws_crates.contains(s)) {
                external.push((id, u.path.clone()));
                continue;
            }
            match &u.name {
                Some(_) => record(&u.path, &mut out),
                None => {
                    // a glob: the names of the globbed module that this module's code uses
                    let Some((Lookup::Module(g), _)) = resolve(cm, id, &u.path, 0) else {
                        continue;
                    };
                    for ident in &m.idents {
                        if let Some(Lookup::Item(def)) = lookup_in(cm, g, ident, 0) {
                            if def != id {
                                out.insert(Import {
                                    from: id,
                                    to: def,
                                    name: ident.clone(),
                                });
                            }
                        }
                    }
                }
            }
        }
        for p in &m.paths {
            if p.first().is_some_and(|s| ws_crates.contains(s)) {
                external.push((id, p.clone()));
                continue;
            }
            record(p, &mut out);
        }
    }
    external.sort();
    external.dedup();
    (out.into_iter().collect(), external)
}

/// Resolves `path` as written in module `from`; with the segment that named the item (the
/// rest of the path names its associated items or variants).
fn resolve(
    cm: &CrateModules,
    from: ModuleId,
    path: &[String],
    depth: usize,
) -> Option<(Lookup, String)> {
    if depth > MAX_DEPTH {
        return None;
    }
    let (first, rest) = path.split_first()?;
    let mut cur = match first.as_str() {
        "crate" => Lookup::Module(0),
        "self" => Lookup::Module(from),
        "super" => Lookup::Module(cm.get(from).parent?),
        name => lookup_in(cm, from, name, depth + 1)?,
    };
    let mut named = first.clone();
    for seg in rest {
        match cur {
            Lookup::Item(_) => break,
            Lookup::Module(m) => {
                cur = match seg.as_str() {
                    "super" => Lookup::Module(cm.get(m).parent?),
                    "self" => Lookup::Module(m),
                    name => lookup_in(cm, m, name, depth + 1)?,
                };
                named = seg.clone();
            }
        }
    }
    Some((cur, named))
}

/// What `name` denotes inside module `m` (its children, items, uses and globs).
fn lookup_in(cm: &CrateModules, m: ModuleId, name: &str, depth: usize) -> Option<Lookup> {
    if depth > MAX_DEPTH {
        return None;
    }
    let module = cm.get(m);
    if let Some(&c) = module.children.get(name) {
        return Some(Lookup::Module(c));
    }
    if module.items.contains(name) {
        return Some(Lookup::Item(m));
    }
    for u in &module.uses {
        if u.name.as_deref() == Some(name) {
            if let Some((l, _)) = resolve(cm, m, &u.path, depth + 1) {
                return Some(l);
            }
        }
    }
    for u in module.uses.iter().filter(|u| u.name.is_none()) {
        if let Some((Lookup::Module(g), _)) = resolve(cm, m, &u.path, depth + 1) {
            if g != m {
                if let Some(l) = lookup_in(cm, g, name, depth + 1) {
                    return Some(l);
                }
            }
        }
    }
    None
}
