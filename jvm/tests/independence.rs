//! The architecture invariant "the JVM side knows nothing of the engine": `jtg-jvm` depends on
//! no other crate of the workspace (normal, dev or build dependency), as cargo's own metadata
//! says, and no source of it names one.

use std::path::Path;
use std::process::Command;

const WORKSPACE_CRATES: [&str; 2] = ["jtg-engine", "jtg-harness"];

#[test]
fn jtg_jvm_depends_on_no_other_workspace_crate() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    for c in WORKSPACE_CRATES {
        assert!(
            names.contains(&c),
            "{c} is no longer in the workspace: update this test"
        );
    }
    let jvm = packages
        .iter()
        .find(|p| p["name"] == "jtg-jvm")
        .expect("jtg-jvm in the metadata");
    let deps: Vec<&str> = jvm["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert!(
        deps.contains(&"jni"),
        "the dependency list was not read: {deps:?}"
    );
    for c in WORKSPACE_CRATES {
        assert!(!deps.contains(&c), "jtg-jvm depends on {c}: {deps:?}");
    }
}

#[test]
fn no_source_of_jtg_jvm_names_another_workspace_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("build.rs")];
    let mut dirs = vec![root.join("src"), root.join("tests")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    assert!(
        files.len() > 10,
        "sources not found under {}",
        root.display()
    );
    for f in files {
        if f.ends_with("independence.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).expect("read source");
        for c in WORKSPACE_CRATES {
            let ident = c.replace('-', "_");
            assert!(
                !text.contains(&format!("{ident}::")) && !text.contains(&format!("use {ident}")),
                "{} names {ident}",
                f.display()
            );
        }
    }
}
