//! jtg-arch: the module structure of the workspace's crates, read from their sources, and the
//! architecture rules of `ARCHITECTURE.md` checked against it.
//!
//! A crate's modules are found from its root (`src/lib.rs` or `src/main.rs`) by following
//! `mod` declarations (test-only modules, `#[cfg(test)]`, are left out: they may use anything).
//! An *import* is a `use` item or a path in code that names an item of the same crate; it is
//! resolved, through re-exports, to the module that **defines** the item, so a folder's
//! `mod.rs` that only re-exports its children is not a hub that every import runs through.
//!
//! Circles are looked for at every folder level: at module `m`, each child module of `m` (a
//! file, or a folder with everything below it) is one node, and an import from a file below
//! child `a` to a file below child `b ≠ a` is an arrow `a → b`. A module and its own ancestors
//! are never compared (a folder is made of its children, and children share the vocabulary
//! their folder defines), so the circles found are between siblings at some level: files
//! that import each other, or folders whose contents do.
//!
//! ```no_run
//! let ws = jtg_arch::Workspace::load(std::path::Path::new(".")).unwrap();
//! for c in ws.circles() {
//!     println!("{c}");
//! }
//! ```

#![deny(unreachable_pub)]

mod resolve;
mod scan;

pub use scan::{CrateModules, Module, ModuleId, ScanError};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// A crate of the workspace, scanned.
pub struct CrateInfo {
    /// The package name (`jtg-engine`).
    pub package: String,
    /// The crate root's directory (`engine`), relative to the workspace root.
    pub dir: PathBuf,
    pub modules: CrateModules,
    /// Resolved imports between modules of this crate: (importer, defining module, the name).
    pub imports: Vec<Import>,
    /// Paths that name another crate of the workspace (`jtg_engine::instance_of::…`), as
    /// written, by module.
    pub external: Vec<(ModuleId, Vec<String>)>,
}

/// One resolved import of a name between two modules of one crate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Import {
    pub from: ModuleId,
    pub to: ModuleId,
    pub name: String,
}

/// The workspace's crates (those whose sources are under the root).
pub struct Workspace {
    pub root: PathBuf,
    pub crates: Vec<CrateInfo>,
}

/// A circle at one folder level of one crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circle {
    pub package: String,
    /// The module whose children form the circle (`crate` for the crate root).
    pub level: String,
    /// The children in the circle (file or folder paths relative to the workspace root).
    pub members: Vec<String>,
    /// The imports that tie them: `a.rs -> b.rs: Name`.
    pub ties: Vec<String>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "circle in {} at `{}`: {}",
            self.package,
            self.level,
            self.members.join(", ")
        )?;
        for t in &self.ties {
            writeln!(f, "  {t}")?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ArchError {
    #[error("cargo metadata: {0}")]
    Metadata(String),
    #[error(transparent)]
    Scan(#[from] ScanError),
}

/// A package of `cargo metadata`: name, manifest directory, the names of its dependencies
/// (normal, dev and build), and its library and binary roots.
#[derive(Clone, Debug)]
pub struct Package {
    pub name: String,
    pub dir: PathBuf,
    pub dependencies: Vec<String>,
    /// (target kind, root source file)
    pub targets: Vec<(String, PathBuf)>,
}

/// The workspace's packages, read with `cargo metadata --no-deps`.
pub fn packages(root: &Path) -> Result<Vec<Package>, ArchError> {
    let out = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .map_err(|e| ArchError::Metadata(e.to_string()))?;
    if !out.status.success() {
        return Err(ArchError::Metadata(
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| ArchError::Metadata(e.to_string()))?;
    let mut pkgs = Vec::new();
    for p in v["packages"].as_array().into_iter().flatten() {
        let manifest = PathBuf::from(p["manifest_path"].as_str().unwrap_or_default());
        let dir = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
        let dependencies = p["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|d| d["name"].as_str().map(String::from))
            .collect();
        let targets = p["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let kind = t["kind"].as_array()?.first()?.as_str()?.to_string();
                Some((kind, PathBuf::from(t["src_path"].as_str()?)))
            })
            .collect();
        pkgs.push(Package {
            name: p["name"].as_str().unwrap_or_default().to_string(),
            dir,
            dependencies,
            targets,
        });
    }
    pkgs.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(pkgs)
}

impl Workspace {
    /// Scans the library crate of every workspace package (or its binary, for a package
    /// without a library), and the binary `src/main.rs` of a package that has both (a command
    /// line over its own library: package name `NAME (bin)`). Other targets (further
    /// binaries, tests, benches, build scripts) are not part of the module structure.
    pub fn load(root: &Path) -> Result<Workspace, ArchError> {
        let root = root
            .canonicalize()
            .map_err(|e| ArchError::Metadata(format!("{}: {e}", root.display())))?;
        let pkgs = packages(&root)?;
        let names: BTreeSet<String> = pkgs.iter().map(|p| p.name.replace('-', "_")).collect();
        let mut crates = Vec::new();
        for p in &pkgs {
            let lib = p.targets.iter().find(|(k, _)| k == "lib");
            let main = p.dir.join("src").join("main.rs");
            let bin = p.targets.iter().find(|(k, src)| k == "bin" && *src == main);
            let roots = match (lib, bin) {
                (Some(l), Some(b)) => vec![(p.name.clone(), l), (format!("{} (bin)", p.name), b)],
                (Some(l), None) => vec![(p.name.clone(), l)],
                (None, _) => p
                    .targets
                    .iter()
                    .find(|(k, _)| k == "bin")
                    .map(|b| (p.name.clone(), b))
                    .into_iter()
                    .collect(),
            };
            for (package, (_, src)) in roots {
                let modules = scan::scan_crate(src, &root)?;
                let (imports, external) = resolve::imports(&modules, &names);
                crates.push(CrateInfo {
                    package,
                    dir: p.dir.strip_prefix(&root).unwrap_or(&p.dir).to_path_buf(),
                    modules,
                    imports,
                    external,
                });
            }
        }
        Ok(Workspace { root, crates })
    }

    pub fn krate(&self, package: &str) -> Option<&CrateInfo> {
        self.crates.iter().find(|c| c.package == package)
    }

    /// Every circle of every crate, in a stable order.
    pub fn circles(&self) -> Vec<Circle> {
        self.crates.iter().flat_map(CrateInfo::circles).collect()
    }
}

impl CrateInfo {
    /// The circles of this crate at every folder level.
    pub fn circles(&self) -> Vec<Circle> {
        let m = &self.modules;
        // level → (child → child → names)
        type Arrows = BTreeMap<ModuleId, BTreeMap<ModuleId, BTreeSet<String>>>;
        let mut levels: BTreeMap<ModuleId, Arrows> = BTreeMap::new();
        for imp in &self.imports {
            let Some(lca) = m.common_ancestor(imp.from, imp.to) else {
                continue;
            };
            if lca == imp.from || lca == imp.to {
                continue;
            }
            let a = m.child_towards(lca, imp.from);
            let b = m.child_towards(lca, imp.to);
            levels
                .entry(lca)
                .or_default()
                .entry(a)
                .or_default()
                .entry(b)
                .or_default()
                .insert(format!(
                    "{} -> {}: {}",
                    m.file_of(imp.from),
                    m.file_of(imp.to),
                    imp.name
                ));
        }
        let mut out = Vec::new();
        for (level, arrows) in &levels {
            let nodes: BTreeSet<ModuleId> = arrows
                .iter()
                .flat_map(|(a, bs)| std::iter::once(*a).chain(bs.keys().copied()))
                .collect();
            for scc in strongly_connected(&nodes, |a| {
                arrows
                    .get(&a)
                    .map(|bs| bs.keys().copied().collect())
                    .unwrap_or_default()
            }) {
                if scc.len() < 2 {
                    continue;
                }
                let set: BTreeSet<ModuleId> = scc.iter().copied().collect();
                let mut ties = Vec::new();
                for a in &scc {
                    for (b, names) in arrows.get(a).into_iter().flatten() {
                        if set.contains(b) {
                            // one line per pair of files, names joined
                            let mut by_files: BTreeMap<String, Vec<String>> = BTreeMap::new();
                            for n in names {
                                if let Some((files, name)) = n.rsplit_once(": ") {
                                    by_files
                                        .entry(files.to_string())
                                        .or_default()
                                        .push(name.to_string());
                                }
                            }
                            for (files, names) in by_files {
                                ties.push(format!("{files}: {}", names.join(", ")));
                            }
                        }
                    }
                }
                ties.sort();
                let mut members: Vec<String> = scc.iter().map(|c| m.display_path(*c)).collect();
                members.sort();
                out.push(Circle {
                    package: self.package.clone(),
                    level: m.module_path(*level),
                    members,
                    ties,
                });
            }
        }
        out
    }

    /// Imports from modules below `from` (a module path like `eval`) to modules below `to`.
    pub fn imports_between(&self, from: &str, to: &str) -> Vec<&Import> {
        let m = &self.modules;
        self.imports
            .iter()
            .filter(|i| m.is_below(i.from, from) && m.is_below(i.to, to))
            .collect()
    }
}

/// Tarjan's strongly connected components, each in discovery order; components in an order
/// that depends only on `nodes`' order.
fn strongly_connected(
    nodes: &BTreeSet<ModuleId>,
    succ: impl Fn(ModuleId) -> Vec<ModuleId>,
) -> Vec<Vec<ModuleId>> {
    struct T<'a, F> {
        succ: &'a F,
        index: BTreeMap<ModuleId, usize>,
        low: BTreeMap<ModuleId, usize>,
        stack: Vec<ModuleId>,
        on: BTreeSet<ModuleId>,
        out: Vec<Vec<ModuleId>>,
    }
    fn visit<F: Fn(ModuleId) -> Vec<ModuleId>>(t: &mut T<'_, F>, v: ModuleId) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in (t.succ)(v) {
            if !t.index.contains_key(&w) {
                visit(t, w);
                let lw = t.low[&w];
                let lv = t.low.get_mut(&v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(&w) {
                let iw = t.index[&w];
                let lv = t.low.get_mut(&v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[&v] == t.index[&v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(&w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            t.out.push(comp);
        }
    }
    let mut t = T {
        succ: &succ,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for &n in nodes {
        if !t.index.contains_key(&n) {
            visit(&mut t, n);
        }
    }
    t.out
}
