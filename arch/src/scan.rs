//! The module tree of one crate, read from its sources with `syn`: per module its file, the
//! names it defines, its `use` items, and the multi-segment paths its code names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

pub type ModuleId = usize;

#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("{path}: {err}")]
    Read { path: String, err: std::io::Error },
    #[error("{path}: {err}")]
    Parse { path: String, err: syn::Error },
    #[error("{path}: `mod {name};` has no file ({tried})")]
    MissingModule {
        path: String,
        name: String,
        tried: String,
    },
}

/// One leaf of a `use` tree.
#[derive(Clone, Debug)]
pub struct UseLeaf {
    /// The path as written, leaf included (`crate::state::Ref`); for a glob, the module's path.
    pub path: Vec<String>,
    /// The name it binds here (the alias, or the last segment); `None` for a glob.
    pub name: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub parent: Option<ModuleId>,
    /// The file the module's items are in (relative to the workspace root).
    pub file: PathBuf,
    /// Whether the module is a folder (`x/mod.rs`, or the crate root).
    pub folder: bool,
    pub children: BTreeMap<String, ModuleId>,
    /// Names the module defines (types, functions, constants, traits, macros).
    pub items: BTreeSet<String>,
    pub uses: Vec<UseLeaf>,
    /// Paths of two or more segments, or starting with `crate`/`super`/`self`, in its code.
    pub paths: Vec<Vec<String>>,
    /// Every identifier of its code (to see which names a glob import supplies).
    pub idents: BTreeSet<String>,
}

/// The modules of one crate; module 0 is the root.
#[derive(Clone, Debug, Default)]
pub struct CrateModules {
    pub modules: Vec<Module>,
}

impl CrateModules {
    pub fn get(&self, id: ModuleId) -> &Module {
        &self.modules[id]
    }

    pub fn ancestors(&self, mut id: ModuleId) -> Vec<ModuleId> {
        let mut v = vec![id];
        while let Some(p) = self.modules[id].parent {
            v.push(p);
            id = p;
        }
        v
    }

    pub fn common_ancestor(&self, a: ModuleId, b: ModuleId) -> Option<ModuleId> {
        let aa = self.ancestors(a);
        self.ancestors(b).into_iter().find(|x| aa.contains(x))
    }

    /// The child of `anc` on the way down to `id` (`anc` must be a proper ancestor).
    pub fn child_towards(&self, anc: ModuleId, id: ModuleId) -> ModuleId {
        let mut cur = id;
        while let Some(p) = self.modules[cur].parent {
            if p == anc {
                return cur;
            }
            cur = p;
        }
        cur
    }

    /// `eval::arith` (`crate` for the root).
    pub fn module_path(&self, id: ModuleId) -> String {
        let mut names: Vec<&str> = self
            .ancestors(id)
            .iter()
            .rev()
            .skip(1)
            .map(|&m| self.modules[m].name.as_str())
            .collect();
        if names.is_empty() {
            names.push("crate");
        }
        names.join("::")
    }

    /// Whether module `id` is `path` (`eval`, `eval::arith`) or below it.
    pub fn is_below(&self, id: ModuleId, path: &str) -> bool {
        let p = self.module_path(id);
        p == path || p.starts_with(&format!("{path}::"))
    }

    pub fn file_of(&self, id: ModuleId) -> String {
        self.modules[id].file.display().to_string()
    }

    /// A module as a reader finds it: its folder (`engine/src/eval/`) or file.
    pub fn display_path(&self, id: ModuleId) -> String {
        let m = &self.modules[id];
        if m.folder {
            match m.file.parent() {
                Some(d) => format!("{}/", d.display()),
                None => m.file.display().to_string(),
            }
        } else {
            // an inline module shares its parent's file
            m.file.display().to_string()
        }
    }

    pub fn by_path(&self, path: &str) -> Option<ModuleId> {
        (0..self.modules.len()).find(|&i| self.module_path(i) == path)
    }
}

/// Scans the crate whose root file is `root_file`; paths are stored relative to `ws_root`.
pub(crate) fn scan_crate(root_file: &Path, ws_root: &Path) -> Result<CrateModules, ScanError> {
    let mut cm = CrateModules::default();
    let rel = |p: &Path| p.strip_prefix(ws_root).unwrap_or(p).to_path_buf();
    let file = parse(root_file)?;
    let dir = root_file.parent().unwrap_or(Path::new("")).to_path_buf();
    cm.modules.push(Module {
        name: "crate".into(),
        parent: None,
        file: rel(root_file),
        folder: true,
        children: BTreeMap::new(),
        items: BTreeSet::new(),
        uses: Vec::new(),
        paths: Vec::new(),
        idents: BTreeSet::new(),
    });
    fill(&mut cm, 0, &file.items, root_file, &dir, ws_root)?;
    Ok(cm)
}

fn parse(path: &Path) -> Result<syn::File, ScanError> {
    let text = std::fs::read_to_string(path).map_err(|err| ScanError::Read {
        path: path.display().to_string(),
        err,
    })?;
    syn::parse_file(&text).map_err(|err| ScanError::Parse {
        path: path.display().to_string(),
        err,
    })
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Records `items` into module `id` (whose file is `file`), descending into its modules;
/// `dir` is where the module's `mod x;` files are.
fn fill(
    cm: &mut CrateModules,
    id: ModuleId,
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    ws_root: &Path,
) -> Result<(), ScanError> {
    let mut code = CodeVisitor::default();
    for item in items {
        if let Some(name) = defined_name(item) {
            cm.modules[id].items.insert(name);
        }
        match item {
            syn::Item::Use(u) => {
                let mut leaves = Vec::new();
                flatten_use(&u.tree, &mut Vec::new(), &mut leaves);
                cm.modules[id].uses.extend(leaves);
            }
            syn::Item::Mod(m) => {
                if is_test_only(&m.attrs) {
                    continue;
                }
                let name = m.ident.to_string();
                let (child_file, child_dir, folder, child_items) = match &m.content {
                    Some((_, inner)) => (file.to_path_buf(), dir.join(&name), false, inner.clone()),
                    None => {
                        let candidates: Vec<PathBuf> = match path_attr(&m.attrs) {
                            Some(p) => vec![file.parent().unwrap_or(Path::new("")).join(p)],
                            None => vec![
                                dir.join(format!("{name}.rs")),
                                dir.join(&name).join("mod.rs"),
                            ],
                        };
                        let Some(f) = candidates.iter().find(|c| c.is_file()) else {
                            return Err(ScanError::MissingModule {
                                path: file.display().to_string(),
                                name,
                                tried: candidates
                                    .iter()
                                    .map(|c| c.display().to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                            });
                        };
                        let is_mod_rs = f.file_name().is_some_and(|n| n == "mod.rs");
                        let child_dir = if is_mod_rs {
                            f.parent().unwrap_or(Path::new("")).to_path_buf()
                        } else {
                            dir.join(&name)
                        };
                        // a folder: `x/mod.rs`, or `x.rs` beside a folder `x/` of submodules
                        let folder = is_mod_rs || child_dir.is_dir();
                        (f.clone(), child_dir, folder, parse(f)?.items)
                    }
                };
                let child = cm.modules.len();
                cm.modules.push(Module {
                    name: name.clone(),
                    parent: Some(id),
                    file: child_file
                        .strip_prefix(ws_root)
                        .unwrap_or(&child_file)
                        .to_path_buf(),
                    folder,
                    children: BTreeMap::new(),
                    items: BTreeSet::new(),
                    uses: Vec::new(),
                    paths: Vec::new(),
                    idents: BTreeSet::new(),
                });
                cm.modules[id].children.insert(name, child);
                fill(cm, child, &child_items, &child_file, &child_dir, ws_root)?;
            }
            other => code.visit_item(other),
        }
    }
    let m = &mut cm.modules[id];
    m.paths.extend(code.paths);
    m.idents.extend(code.idents);
    Ok(())
}

fn defined_name(item: &syn::Item) -> Option<String> {
    Some(match item {
        syn::Item::Const(i) => i.ident.to_string(),
        syn::Item::Enum(i) => i.ident.to_string(),
        syn::Item::Fn(i) => i.sig.ident.to_string(),
        syn::Item::Macro(i) => i.ident.as_ref()?.to_string(),
        syn::Item::Static(i) => i.ident.to_string(),
        syn::Item::Struct(i) => i.ident.to_string(),
        syn::Item::Trait(i) => i.ident.to_string(),
        syn::Item::TraitAlias(i) => i.ident.to_string(),
        syn::Item::Type(i) => i.ident.to_string(),
        syn::Item::Union(i) => i.ident.to_string(),
        _ => return None,
    })
}

fn flatten_use(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseLeaf>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten_use(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push(UseLeaf {
                    path: prefix.clone(),
                    name: prefix.last().cloned(),
                });
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push(UseLeaf {
                    path,
                    name: Some(name),
                });
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push(UseLeaf {
                path,
                name: Some(r.rename.to_string()),
            });
        }
        syn::UseTree::Glob(_) => out.push(UseLeaf {
            path: prefix.clone(),
            name: None,
        }),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix, out);
            }
        }
    }
}

/// Collects the paths and identifiers of code (not of nested modules, which are their own).
#[derive(Default)]
struct CodeVisitor {
    paths: Vec<Vec<String>>,
    idents: BTreeSet<String>,
}

impl<'ast> Visit<'ast> for CodeVisitor {
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}
    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        let rooted = segs
            .first()
            .is_some_and(|s| s == "crate" || s == "super" || s == "self");
        if p.leading_colon.is_none() && (segs.len() >= 2 || rooted) {
            self.paths.push(segs);
        }
        syn::visit::visit_path(self, p);
    }
    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        self.idents.insert(i.to_string());
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // identifiers inside macro calls (`format!("{}", foo(x))`) count for globs
        for tt in m.tokens.clone() {
            collect_idents(tt, &mut self.idents);
        }
        syn::visit::visit_macro(self, m);
    }
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_item(&mut self, i: &'ast syn::Item) {
        // test-only items may use anything
        let attrs = match i {
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(f) => &f.attrs,
            syn::Item::Struct(f) => &f.attrs,
            syn::Item::Enum(f) => &f.attrs,
            _ => return syn::visit::visit_item(self, i),
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, i);
        }
    }
}

fn collect_idents(tt: proc_macro2::TokenTree, out: &mut BTreeSet<String>) {
    match tt {
        proc_macro2::TokenTree::Ident(i) => {
            out.insert(i.to_string());
        }
        proc_macro2::TokenTree::Group(g) => {
            for t in g.stream() {
                collect_idents(t, out);
            }
        }
        _ => {}
    }
}
