//! Loads every class of every corpus jar (`$JTG_CORPUS`, default `../shared/corpus`),
//! decoding every method, and checks each jar's `Main-Class`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use jtg_engine::class::{jar_main_class, ClassPath, Hierarchy};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("JTG_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| jtg_testkit::repo_dir().join("../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("corpus {} absent; skipping", dir.display());
        None
    }
}

fn jars(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.flatten() {
        let path = entry.path();
        if path.is_dir() {
            jars(&path, out);
        } else if path.extension().is_some_and(|e| e == "jar") {
            out.push(path);
        }
    }
}

fn all_jars() -> Option<Vec<PathBuf>> {
    let dir = corpus()?;
    let mut out = Vec::new();
    jars(&dir, &mut out);
    out.sort();
    Some(out)
}

#[test]
fn every_corpus_class_loads_and_decodes() {
    let Some(jars) = all_jars() else { return };
    assert!(!jars.is_empty(), "no jars in the corpus");
    let mut failures = Vec::new();
    let (mut classes, mut methods) = (0usize, 0usize);
    for jar in &jars {
        let cp = match ClassPath::from_paths(std::slice::from_ref(jar)) {
            Ok(cp) => cp,
            Err(e) => {
                failures.push(format!("{}: {e}", jar.display()));
                continue;
            }
        };
        for name in cp.class_names() {
            match cp.load(&name) {
                Ok(c) => {
                    classes += 1;
                    methods += c.methods.len();
                    for m in &c.methods {
                        if m.code.is_none() && !m.is_abstract && !m.is_native {
                            failures.push(format!(
                                "{}: {name}.{} has no code",
                                jar.display(),
                                m.name
                            ));
                        }
                    }
                }
                Err(e) => failures.push(format!("{}: {name}: {e}", jar.display())),
            }
        }
    }
    println!("{} jars, {classes} classes, {methods} methods", jars.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_jar_names_a_loadable_main_class() {
    let Some(jars) = all_jars() else { return };
    let mut failures = Vec::new();
    for jar in &jars {
        let main = match jar_main_class(jar) {
            Ok(Some(m)) => m,
            Ok(None) => {
                failures.push(format!("{}: no Main-Class", jar.display()));
                continue;
            }
            Err(e) => {
                failures.push(format!("{}: {e}", jar.display()));
                continue;
            }
        };
        let loaded = ClassPath::from_paths(std::slice::from_ref(jar)).and_then(|cp| {
            let c = cp.load(&main)?;
            c.method("main", Some("([Ljava/lang/String;)V")).map(|_| ())
        });
        if let Err(e) = loaded {
            failures.push(format!("{}: main class {main}: {e}", jar.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Not an assertion of absence: records how the hierarchy copes with the corpus, and checks
/// that every failure is one of the explicit, documented kinds.
#[test]
fn corpus_hierarchy_queries_are_total_or_explicit() {
    let Some(jars) = all_jars() else { return };
    let mut unexpected = Vec::new();
    let mut shadowing = 0usize;
    let mut not_found = std::collections::BTreeSet::new();
    for jar in &jars {
        let Ok(cp) = ClassPath::from_paths(std::slice::from_ref(jar)) else {
            continue;
        };
        let h = Hierarchy::new(Arc::new(cp), jtg_engine::models::JDK_CLASSES);
        for name in h.classpath().class_names() {
            match h.instance_fields(&name) {
                Ok(_) => {}
                Err(jtg_engine::class::ClassError::Unsupported { .. }) => shadowing += 1,
                Err(jtg_engine::class::ClassError::NotFound { class }) => {
                    not_found.insert(class);
                }
                Err(e) => unexpected.push(format!("{}: {name}: {e}", jar.display())),
            }
            match h.non_abstract_subtypes(&name) {
                Ok(subs) => {
                    let mut sorted = subs.clone();
                    sorted.sort();
                    assert_eq!(subs, sorted);
                }
                Err(jtg_engine::class::ClassError::NotFound { class }) => {
                    not_found.insert(class);
                }
                Err(e) => unexpected.push(format!("{}: {name}: {e}", jar.display())),
            }
        }
    }
    println!("classes with shadowed fields: {shadowing}; unknown JDK ancestors: {not_found:?}");
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

#[test]
#[ignore = "diagnostic: prints the shadowing errors found in the corpus"]
fn print_corpus_shadowing() {
    let Some(jars) = all_jars() else { return };
    let mut seen = std::collections::BTreeSet::new();
    for jar in &jars {
        let Ok(cp) = ClassPath::from_paths(std::slice::from_ref(jar)) else {
            continue;
        };
        let h = Hierarchy::new(Arc::new(cp), jtg_engine::models::JDK_CLASSES);
        for name in h.classpath().class_names() {
            if let Err(e) = h.instance_fields(&name) {
                seen.insert(e.to_string());
            }
        }
    }
    for s in seen {
        println!("{s}");
    }
}
