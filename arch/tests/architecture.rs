//! The architecture rules of ARCHITECTURE.md, checked on the workspace's sources.

use jtg_arch::{packages, Workspace};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Circles that exist today and are being taken apart (issue #24). The test fails when a new
/// circle appears, and when one of these is gone (then delete its line here).
const KNOWN_CIRCLES: &[(&str, &str)] = &[];

#[test]
fn no_new_module_circles() {
    let ws = Workspace::load(&root()).expect("scan the workspace");
    let circles = ws.circles();
    let new: Vec<String> = circles
        .iter()
        .filter(|c| {
            !KNOWN_CIRCLES
                .iter()
                .any(|(p, l)| c.package == *p && c.level == *l)
        })
        .map(|c| c.to_string())
        .collect();
    assert!(new.is_empty(), "new module circles:\n{}", new.join("\n"));
    let gone: Vec<String> = KNOWN_CIRCLES
        .iter()
        .filter(|(p, l)| !circles.iter().any(|c| c.package == *p && c.level == *l))
        .map(|(p, l)| format!("{p} at `{l}`"))
        .collect();
    assert!(
        gone.is_empty(),
        "these circles are gone, delete them from KNOWN_CIRCLES: {}",
        gone.join(", ")
    );
}

/// The workspace crates each crate may depend on (normal, dev or build dependencies): the
/// layers of ARCHITECTURE.md. A crate not listed here fails the test until it is placed.
const LAYERS: &[(&str, &[&str])] = &[
    ("jtg-arch", &[]),
    // the fixture locations and the suite, for every crate's integration tests (dev only)
    ("jtg-testkit", &[]),
    ("jtg-engine", &["jtg-testkit"]),
    // the JVM side records what the JVM does and knows nothing of the abstraction it checks
    ("jtg-jvm", &["jtg-testkit"]),
    // the checker leans on the engine's vocabulary (states, graphs) and the JVM side; never on
    // the mutation analysis or the CLI
    ("jtg-check", &["jtg-engine", "jtg-jvm", "jtg-testkit"]),
    // the mutation analysis runs mutants through the checker's session
    (
        "jtg-mutate",
        &["jtg-engine", "jtg-jvm", "jtg-check", "jtg-testkit"],
    ),
    // the CLI: nothing depends on it
    (
        "jtg-harness",
        &[
            "jtg-engine",
            "jtg-jvm",
            "jtg-check",
            "jtg-mutate",
            "jtg-prove",
            "jtg-terminate",
            "jtg-testkit",
        ],
    ),
    // proofs over integer transition systems: engine-free, it knows no graph
    ("jtg-prove", &[]),
    // termination of a graph: graph → ITS, the prover, NO witnesses and the cross-check in
    // the JVM; below the CLI, above the prover, the checker, the engine and the JVM side
    (
        "jtg-terminate",
        &[
            "jtg-engine",
            "jtg-jvm",
            "jtg-check",
            "jtg-prove",
            "jtg-testkit",
        ],
    ),
];

#[test]
fn crate_dependencies_follow_the_layers() {
    let pkgs = packages(&root()).expect("cargo metadata");
    let workspace: Vec<&str> = pkgs.iter().map(|p| p.name.as_str()).collect();
    assert!(
        workspace.contains(&"jtg-engine"),
        "metadata not read: {workspace:?}"
    );
    for p in &pkgs {
        let Some((_, allowed)) = LAYERS.iter().find(|(k, _)| *k == p.name) else {
            panic!("{} is not placed in LAYERS (and ARCHITECTURE.md)", p.name);
        };
        for d in &p.dependencies {
            assert!(
                !workspace.contains(&d.as_str()) || allowed.contains(&d.as_str()),
                "{} depends on {d}, which its layer does not allow",
                p.name
            );
        }
    }
}

/// Workspace paths a crate's modules must not name: (crate, forbidden path prefix, why).
const FORBIDDEN_PATHS: &[(&str, &str, &str)] = &[(
    "jtg-check",
    "jtg_engine::instance_of",
    "the checker decides c ⊑ s by its own reading of the predicates, never with the engine's ⊑",
)];

/// Modules that name a forbidden path today, each with its issue: (crate, module, path,
/// issue). The test fails when one of them stops naming it (then delete its line here). None
/// left: the generator validates its samples with the checker's own `c ⊑ s` (issue #20).
const KNOWN_EXCEPTIONS: &[(&str, &str, &str, &str)] = &[];

#[test]
fn modules_do_not_name_what_they_must_not_lean_on() {
    let ws = Workspace::load(&root()).expect("scan the workspace");
    let mut bad = Vec::new();
    let mut excepted = Vec::new();
    for (krate, forbidden, why) in FORBIDDEN_PATHS {
        let c = ws
            .krate(krate)
            .unwrap_or_else(|| panic!("FORBIDDEN_PATHS names {krate}, which is not scanned"));
        for (m, path) in &c.external {
            if !path.join("::").starts_with(forbidden) {
                continue;
            }
            let exception = KNOWN_EXCEPTIONS.iter().find(|(k, module, p, _)| {
                k == krate && c.modules.is_below(*m, module) && p == forbidden
            });
            match exception {
                Some(e) => excepted.push(*e),
                None => bad.push(format!(
                    "{} names {}: {why}",
                    c.modules.file_of(*m),
                    path.join("::")
                )),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let gone: Vec<String> = KNOWN_EXCEPTIONS
        .iter()
        .filter(|e| !excepted.contains(e))
        .map(|(k, m, p, _)| format!("{k} `{m}` ({p})"))
        .collect();
    assert!(
        gone.is_empty(),
        "these exceptions are gone, delete them from KNOWN_EXCEPTIONS: {}",
        gone.join(", ")
    );
}

/// The command line is scanned too (its binary's modules): no circles among the commands.
#[test]
fn the_cli_binary_is_scanned() {
    let ws = Workspace::load(&root()).expect("scan the workspace");
    let cli = ws.krate("jtg-harness (bin)").expect("the jtg binary");
    assert!(
        cli.modules
            .modules
            .iter()
            .any(|m| m.file.ends_with("harness/src/commands/check.rs")),
        "commands/check.rs not among the binary's modules"
    );
}

/// Every JDK fact lives in `engine/src/models/` (and the classes the JVM specification itself
/// names in `engine/src/class/jvms.rs`): no other source outside tests of the engine or of the
/// analysis crates (the checker, the prover, termination, the mutation analysis, the command
/// line) spells a JDK class name, neither alone nor inside a descriptor. The JVM side
/// (`jvm/`) is not scanned: it names what it calls through JNI.
#[test]
fn jdk_class_names_live_in_the_models() {
    use syn::visit::Visit;
    struct Literals<'a>(&'a mut Vec<String>);
    impl<'ast> Visit<'ast> for Literals<'_> {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            let is_test = m.attrs.iter().any(|a| {
                a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
            });
            if !is_test {
                syn::visit::visit_item_mod(self, m);
            }
        }
        fn visit_lit_str(&mut self, l: &'ast syn::LitStr) {
            self.0.push(l.value());
        }
    }
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "tests") {
                    sources(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs")
                && p.file_name().is_some_and(|n| {
                    // a module's tests: `tests.rs`, or `x_tests.rs` included by `#[path]`
                    let n = n.to_string_lossy();
                    n != "tests.rs" && !n.ends_with("_tests.rs")
                })
            {
                out.push(p);
            }
        }
    }
    const JDK_PACKAGES: [&str; 5] = ["java/", "javax/", "jdk/", "sun/", "com/sun/"];
    // a JDK class name alone (`java/lang/Object`, an array of it), or inside a descriptor:
    // an object type `L…;` opens after `(`, `)`, `[` or the `;` that ends the one before
    let names_jdk_class = |l: &str| {
        let name = l.trim_start_matches('[');
        let name = name.strip_prefix('L').unwrap_or(name);
        JDK_PACKAGES.iter().any(|p| {
            name.starts_with(p)
                || ["(", ")", "[", ";"]
                    .iter()
                    .any(|before| l.contains(&format!("{before}L{p}")))
        })
    };
    // (crate folder, files under its src/ that may name JDK classes)
    const SCANNED: &[(&str, &[&str])] = &[
        ("engine", &["models/", "class/jvms.rs"]),
        ("check", &[]),
        ("prove", &[]),
        ("terminate", &[]),
        ("mutate", &[]),
        ("harness", &[]),
    ];
    let mut bad = Vec::new();
    for (krate, allowed) in SCANNED {
        let src = root().join(krate).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        files.sort();
        assert!(files.len() > 5, "{krate}/src sources not found: {files:?}");
        for f in &files {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if allowed.iter().any(|a| rel.starts_with(a)) {
                continue;
            }
            let file = syn::parse_file(&std::fs::read_to_string(f).unwrap()).expect("parse");
            let mut lits = Vec::new();
            Literals(&mut lits).visit_file(&file);
            for l in lits {
                if names_jdk_class(&l) {
                    bad.push(format!("{krate}/src/{rel}: \"{l}\""));
                }
            }
        }
        if *krate == "engine" {
            assert!(files.len() > 40, "engine sources not found: {files:?}");
        }
    }
    assert!(
        bad.is_empty(),
        "JDK class names outside engine/src/models/ (ask the models instead):\n{}",
        bad.join("\n")
    );
}

/// ARCHITECTURE.md is the map: it names every crate of the layers above (and so every
/// workspace package) with its folder, and every top-level folder.
#[test]
fn the_architecture_page_names_every_crate() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let ws = Workspace::load(&root()).expect("scan the workspace");
    let mut missing = Vec::new();
    for (package, _) in LAYERS {
        let krate = ws
            .krate(package)
            .unwrap_or_else(|| panic!("{package} of LAYERS is not in the workspace"));
        let folder = krate
            .dir
            .strip_prefix(root())
            .unwrap_or(&krate.dir)
            .to_string_lossy()
            .replace('\\', "/");
        let row = format!("| `{package}` | `{folder}/` |");
        if !text.contains(&row) {
            missing.push(row);
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md's crate table lacks these rows (crate, folder):\n{}",
        missing.join("\n")
    );
    // every top-level folder of the repository (not the git-ignored build outputs)
    let mut unnamed = Vec::new();
    for e in std::fs::read_dir(root())
        .expect("read the workspace root")
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        let ignored = name.starts_with('.') || name == "target" || name == "build";
        if e.path().is_dir() && !ignored && !text.contains(&format!("`{name}/`")) {
            unnamed.push(name);
        }
    }
    unnamed.sort();
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md does not name these top-level folders: {unnamed:?}"
    );
}

/// The engine's folders, lowest layer first (ARCHITECTURE.md, docs/engine.md). A module may
/// import only from lower layers; folders on one layer do not import each other. So the
/// evaluation never builds graph nodes, and the edge vocabulary sits below all its writers.
const ENGINE_LAYERS: &[&[&str]] = &[
    &["class"],
    &["state"],
    &["edge"],
    &["error"],
    &["models"],
    &["program"],
    &["program_shapes", "program_world", "program_writes"],
    &["refine"],
    &["eval"],
    &["instance_of", "merge"],
    &["graph"],
    &["render"],
];

#[test]
fn engine_layers_import_only_downwards() {
    let ws = Workspace::load(&root()).expect("scan the workspace");
    let engine = ws.krate("jtg-engine").expect("the engine crate");
    let mods = &engine.modules;
    // the top-level folder of a module (None: the crate root), and whether it is test code
    let top = |mut id: usize| -> (Option<String>, bool) {
        let mut test = false;
        loop {
            let m = mods.get(id);
            test |= m.name == "tests";
            match m.parent {
                None => return (None, test),
                Some(p) if mods.get(p).parent.is_none() => return (Some(m.name.clone()), test),
                Some(p) => id = p,
            }
        }
    };
    let rank = |name: &str| ENGINE_LAYERS.iter().position(|l| l.contains(&name));
    let mut bad = Vec::new();
    let mut unranked = std::collections::BTreeSet::new();
    for imp in &engine.imports {
        let ((Some(from), from_test), (Some(to), _)) = (top(imp.from), top(imp.to)) else {
            continue;
        };
        if from_test || from == to {
            continue;
        }
        match (rank(&from), rank(&to)) {
            (Some(a), Some(b)) if b < a => {}
            (Some(_), Some(_)) => bad.push(format!(
                "{} imports `{}` from {} (layer of {from} <= layer of {to})",
                mods.get(imp.from).file.display(),
                imp.name,
                mods.get(imp.to).file.display()
            )),
            (a, b) => {
                if a.is_none() {
                    unranked.insert(from);
                }
                if b.is_none() {
                    unranked.insert(to);
                }
            }
        }
    }
    assert!(
        unranked.is_empty(),
        "engine folders missing from ENGINE_LAYERS: {unranked:?}"
    );
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

/// No source file (Rust or Java) over 800 lines: a file that long holds several concerns.
#[test]
fn no_source_file_over_800_lines() {
    const LIMIT: usize = 800;
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir)
            .expect("read a source folder")
            .flatten()
        {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !(name.starts_with('.')
                    || name == "target"
                    || name == "build"
                    || name == "corpus")
                {
                    walk(&p, out);
                }
            } else if p.extension().is_some_and(|x| x == "rs" || x == "java") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root(), &mut files);
    files.sort();
    assert!(
        files.len() > 100,
        "sources not found: {} files",
        files.len()
    );
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).ok()?.lines().count();
            (n > LIMIT).then(|| {
                format!(
                    "{} ({n} lines)",
                    f.strip_prefix(root()).unwrap_or(f).display()
                )
            })
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {LIMIT} lines (split them by concern):\n{}",
        long.join("\n")
    );
}

/// The scanner itself: a circle written on purpose is found, with its ties.
#[test]
fn a_planted_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("jtg-arch-{}", std::process::id()));
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"planted\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "mod a;\nmod b;\npub use a::Thing;\npub fn top() {}\n",
    )
    .unwrap();
    // a/mod.rs re-exports a/x.rs; b.rs imports through the re-export; a/x.rs calls into b
    std::fs::write(src.join("a").join("mod.rs"), "mod x;\npub use x::Thing;\n").unwrap();
    std::fs::write(
        src.join("a").join("x.rs"),
        "pub struct Thing;\npub fn f() { crate::b::g(); }\n",
    )
    .unwrap();
    std::fs::write(
        src.join("b.rs"),
        "use crate::a::Thing;\npub fn g() -> Option<Thing> { crate::top(); None }\n",
    )
    .unwrap();
    let ws = Workspace::load(&dir).expect("scan");
    let circles = ws.circles();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(circles.len(), 1, "{circles:?}");
    let c = &circles[0];
    assert_eq!(c.level, "crate");
    assert_eq!(c.members.len(), 2);
    assert!(c.members[0].ends_with("src/a/"), "{:?}", c.members);
    assert!(c.members[1].ends_with("src/b.rs"), "{:?}", c.members);
    // the import through a/mod.rs's re-export is resolved to the defining file
    assert!(
        c.ties
            .iter()
            .any(|t| t.contains("b.rs -> ") && t.contains("a/x.rs: Thing")),
        "{:?}",
        c.ties
    );
    // b.rs -> lib.rs (`crate::top`) is an import of an ancestor: not part of a circle
    assert!(!c.ties.iter().any(|t| t.contains("lib.rs")), "{:?}", c.ties);
}
