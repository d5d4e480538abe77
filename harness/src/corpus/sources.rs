//! Corpus entries beyond jars: directories of `.java` sources and directories of class files.
//! Every class with a `public static void main(String[])` is an entry (or, with `--methods`,
//! every method the patterns select: `methods.rs`).
//!
//! Sources are compiled with `javac -g` (by default `--release 8`, see [`Javac`]) into a
//! scratch folder outside the corpus (`$TMPDIR/jtg-javac/<hash>`, keyed by the options and the
//! sources' paths and contents, so a second run reuses it). What a compile unit is follows what
//! javac needs:
//!
//! * a folder with `.java` files of its own is one program: its files and those of its
//!   subfolders (packages, as in `multi-test/SatIssue88/{Main.java, MinePumpSystem/…}`, or
//!   several default-package files that use each other) are compiled together;
//! * unless javac refuses that: the folder is then taken as a set of programs, one per file,
//!   each compiled with the folder as `-sourcepath` (so a file may still use a class of
//!   another file named after it); a file's entries are the classes compiled from that file
//!   (`SourceFile`). Folders of programs that reuse class names (`class A` in many files,
//!   javac: "duplicate class") need this, and a file javac refuses then hides no other.
//!
//! A unit javac refuses is one entry with status `error` naming javac's first error line (and
//! `jtg corpus` then exits with status 2). A directory given on the command line that holds
//! class files (and no sources) is one class path; its classes with `main` are entries.

use jtg_engine::class::stable_hash;
use jtg_engine::class::ClassPath;
use jtg_engine::models::MAIN_DESCRIPTOR;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What to analyse for one corpus entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A jar's `Main-Class`.
    JarMain,
    /// `main(String[])` of this class (binary name with dots).
    Main(String),
    /// This method (`Class.name(descriptor)`, binary class name), from its default start
    /// state (`--methods`).
    Method(String),
    /// The sources did not compile: javac's message.
    CompileError(String),
    /// A compiled unit or class folder, not yet split into entries (`--methods`).
    Unit,
}

/// One program of a corpus run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name in reports: the path below the corpus root (`dir/Prog.jar`,
    /// `dir/Prog.java:Prog`, `dir/Folder:Main`).
    pub name: String,
    /// The class path: the jar, or the folder of compiled classes.
    pub classpath: PathBuf,
    pub target: Target,
}

impl Entry {
    /// The entry of a jar found below `root`.
    pub fn jar(root: &Path, jar: &Path) -> Entry {
        Entry {
            name: super::jar_name(root, jar),
            classpath: jar.to_path_buf(),
            target: Target::JarMain,
        }
    }

    /// The key of the entry in a journal: its class path and target.
    pub fn key(&self) -> String {
        match &self.target {
            Target::JarMain => self.classpath.to_string_lossy().into_owned(),
            _ => format!("{}#{}", self.classpath.to_string_lossy(), self.name),
        }
    }
}

/// How `javac` compiles corpus sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Javac {
    /// `--release N`; `None`: javac's default (the running JDK's version). The default is 8:
    /// javac 9+ compiles every string concatenation to `invokedynamic`, which programs like
    /// JayHorn's `main`s use and the engine models only where `invokedynamic` is modelled.
    pub release: Option<u32>,
    /// List every compiled unit and class folder as one [`Target::Unit`] entry instead of its
    /// classes with `main` (for `--methods`, `methods.rs`).
    pub units: bool,
}

impl Default for Javac {
    fn default() -> Javac {
        Javac {
            release: Some(8),
            units: false,
        }
    }
}

impl Javac {
    fn args(&self) -> Vec<String> {
        let mut v = vec!["-g".to_string()];
        if let Some(r) = self.release {
            v.extend(["--release".to_string(), r.to_string()]);
        }
        v.extend(["-nowarn", "-Xlint:-options", "-implicit:class"].map(String::from));
        v
    }
}

/// A compile unit: a source file, or a folder of sources compiled together.
struct Unit {
    /// The name of the unit below the corpus root.
    name: String,
    /// The sources, sorted, absolute (javac runs in the scratch folder).
    files: Vec<PathBuf>,
    /// The corpus root, absolute (left out of javac's messages).
    root: PathBuf,
    /// The folder javac may take further sources from (`-sourcepath`); `None`: only `files`.
    sourcepath: Option<PathBuf>,
    /// The folder of a unit of all its files: javac refusing them together makes it one unit
    /// per file of the folder instead.
    folder: Option<PathBuf>,
}

/// Every entry below `paths`: jars (as [`super::find_jars`]), source units compiled with
/// `jobs` javac processes at a time, class-file directories. Sorted by name within each path.
pub fn find_entries(paths: &[PathBuf], jobs: usize) -> Vec<Entry> {
    find_entries_with(paths, jobs, &Javac::default())
}

/// [`find_entries`] with sources compiled as `javac` says.
pub fn find_entries_with(paths: &[PathBuf], jobs: usize, javac: &Javac) -> Vec<Entry> {
    let mut out = Vec::new();
    for p in paths {
        let root = if p.is_dir() {
            p.clone()
        } else {
            p.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        let abs_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        // a source file given directly is a compile unit, not a jar
        let is_source = !p.is_dir() && p.extension().is_some_and(|x| x == "java");
        let mut entries: Vec<Entry> = if is_source {
            Vec::new()
        } else {
            super::find_jars(std::slice::from_ref(p))
                .iter()
                .map(|(r, j)| Entry::jar(r, j))
                .collect()
        };
        if p.is_dir() {
            let mut units = Vec::new();
            source_units(&abs_root, &abs_root, &mut units);
            if units.is_empty() && has_class_files(p) {
                entries.extend(class_dir_entries(p, &dir_name(p), None, javac.units));
            }
            entries.extend(compile_all(&units, jobs, javac));
        } else if p.extension().is_some_and(|x| x == "java") {
            let file = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
            let unit = Unit {
                name: super::jar_name(&abs_root, &file),
                files: vec![file],
                root: abs_root.clone(),
                sourcepath: None,
                folder: None,
            };
            entries.extend(compile_all(&[unit], jobs, javac));
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        out.extend(entries);
    }
    out
}

fn dir_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string_lossy().into_owned())
}

fn sorted_dir(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

fn is_java(p: &Path) -> bool {
    p.is_file() && p.extension().is_some_and(|x| x == "java")
}

fn java_below(dir: &Path, out: &mut Vec<PathBuf>) {
    for p in sorted_dir(dir) {
        if p.is_dir() {
            java_below(&p, out);
        } else if is_java(&p) {
            out.push(p);
        }
    }
}

fn has_class_files(dir: &Path) -> bool {
    sorted_dir(dir).iter().any(|p| {
        if p.is_dir() {
            has_class_files(p)
        } else {
            p.extension().is_some_and(|x| x == "class")
        }
    })
}

/// The compile units below `dir` (see the module documentation).
fn source_units(root: &Path, dir: &Path, out: &mut Vec<Unit>) {
    let items = sorted_dir(dir);
    let own: Vec<PathBuf> = items.iter().filter(|p| is_java(p)).cloned().collect();
    if !own.is_empty() {
        let mut files = Vec::new();
        java_below(dir, &mut files);
        out.push(Unit {
            // the corpus root itself is named after its folder
            name: if dir == root {
                dir_name(root)
            } else {
                super::jar_name(root, dir)
            },
            files,
            root: root.to_path_buf(),
            sourcepath: None,
            folder: Some(dir.to_path_buf()),
        });
        return;
    }
    for d in items.iter().filter(|p| p.is_dir()) {
        source_units(root, d, out);
    }
}

/// The units of the flat folder `dir` of `u`: one per own file, the folder as source path.
fn per_file_units(u: &Unit, dir: &Path) -> Vec<Unit> {
    sorted_dir(dir)
        .into_iter()
        .filter(|p| is_java(p))
        .map(|f| Unit {
            name: super::jar_name(&u.root, &f),
            files: vec![f],
            root: u.root.clone(),
            sourcepath: Some(dir.to_path_buf()),
            folder: None,
        })
        .collect()
}

/// Compiles every unit (`jobs` at a time) and lists their entries, in the order of `units`.
fn compile_all(units: &[Unit], jobs: usize, javac: &Javac) -> Vec<Entry> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<(usize, Vec<Entry>)>> = Default::default();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(u) = units.get(k) else { break };
                let e = unit_entries(u, javac);
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((k, e));
            });
        }
    });
    let mut r = results.into_inner().unwrap_or_else(|p| p.into_inner());
    r.sort_by_key(|(k, _)| *k);
    r.into_iter().flat_map(|(_, e)| e).collect()
}

fn unit_entries(u: &Unit, javac: &Javac) -> Vec<Entry> {
    match compile(u, javac) {
        Ok(dir) => {
            let own = u.sourcepath.is_some().then(|| {
                u.files
                    .iter()
                    .filter_map(|f| f.file_name())
                    .map(|n| n.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
            });
            class_dir_entries(&dir, &u.name, own.as_deref(), javac.units)
        }
        // a refused folder of several files: one program per file (see the module comment)
        Err(_) if u.folder.is_some() && u.files.len() > 1 => {
            let dir = u.folder.as_deref().unwrap_or(&u.root);
            let mut out = Vec::new();
            for f in per_file_units(u, dir) {
                out.extend(unit_entries(&f, javac));
            }
            out
        }
        Err(failure) => vec![Entry {
            name: u.name.clone(),
            classpath: PathBuf::new(),
            target: Target::CompileError(failure.message),
        }],
    }
}

/// Why javac refused a unit.
struct CompileFailure {
    /// javac's first error line.
    message: String,
}

impl From<String> for CompileFailure {
    fn from(message: String) -> CompileFailure {
        CompileFailure { message }
    }
}

/// The scratch folder of `u`'s classes, compiled now unless an earlier run did.
fn compile(u: &Unit, javac: &Javac) -> Result<PathBuf, CompileFailure> {
    let args = javac.args();
    let mut key = format!("javac {}\n", args.join(" ")).into_bytes();
    if let Some(sp) = &u.sourcepath {
        // the other files of the source path may be compiled in: they are part of the key
        let mut others = Vec::new();
        java_below(sp, &mut others);
        for f in others {
            key.extend(
                f.strip_prefix(&u.root)
                    .unwrap_or(&f)
                    .to_string_lossy()
                    .as_bytes(),
            );
            key.push(0);
            key.extend(std::fs::read(&f).unwrap_or_default());
            key.push(0);
        }
        key.push(1);
    }
    for f in &u.files {
        // the name below the root: the same sources elsewhere share the folder
        key.extend(
            f.strip_prefix(&u.root)
                .unwrap_or(f)
                .to_string_lossy()
                .as_bytes(),
        );
        key.push(0);
        key.extend(std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?);
        key.push(0);
    }
    let base = std::env::temp_dir().join("jtg-javac");
    let dir = base.join(format!("{:016x}", stable_hash(&key)));
    let ok = dir.join(".ok");
    let failed = dir.join(".error");
    if ok.exists() {
        return Ok(dir);
    }
    if let Ok(message) = std::fs::read_to_string(&failed) {
        return Err(CompileFailure { message });
    }
    // compile beside the final folder and rename it into place, so a crash leaves no half
    // folder that a later run would take for a finished one
    let tmp = base.join(format!(
        "{:016x}.{}.tmp",
        stable_hash(&key),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let out = Command::new(std::env::var("JAVAC").unwrap_or_else(|_| "javac".into()))
        .args(&args)
        .arg("-encoding")
        .arg("UTF-8")
        .arg("-d")
        .arg(&tmp)
        // the unit's source path, or none but its own files: nothing outside is compiled in
        .arg("-sourcepath")
        .arg(u.sourcepath.as_ref().unwrap_or(&tmp))
        .args(&u.files)
        .current_dir(&tmp)
        .output()
        .map_err(|e| format!("cannot run javac: {e}"))?;
    let result = if out.status.success() {
        std::fs::write(tmp.join(".ok"), "").map_err(|e| e.to_string())?;
        Ok(())
    } else {
        let text = String::from_utf8_lossy(&out.stderr);
        let first = text
            .lines()
            .find(|l| l.contains("error:"))
            .or_else(|| text.lines().next())
            .unwrap_or("javac failed")
            .to_string();
        // the message names the source below the corpus root, not the scratch path
        let root = format!("{}/", u.root.display());
        let msg = format!("javac: {}", first.trim().replace(&root, ""));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| e.to_string())?;
        std::fs::write(tmp.join(".error"), &msg).map_err(|e| e.to_string())?;
        Err(CompileFailure { message: msg })
    };
    if std::fs::rename(&tmp, &dir).is_err() {
        // another process finished the same unit first: its folder is as good
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result.map(|()| dir)
}

/// The entries of a folder of classes: every class with `public static void main(String[])`
/// (with `own`, only of the classes compiled from those source files).
fn class_dir_entries(dir: &Path, unit: &str, own: Option<&[String]>, units: bool) -> Vec<Entry> {
    if units {
        return vec![Entry {
            name: unit.to_string(),
            classpath: dir.to_path_buf(),
            target: Target::Unit,
        }];
    }
    let cp = match ClassPath::from_paths(&[dir.to_path_buf()]) {
        Ok(cp) => cp,
        Err(e) => {
            return vec![Entry {
                name: unit.to_string(),
                classpath: dir.to_path_buf(),
                target: Target::CompileError(e.to_string()),
            }]
        }
    };
    cp.class_names()
        .into_iter()
        .filter(|c| {
            cp.load(c).is_ok_and(|class| {
                let from_own = own
                    .is_none_or(|own| class.source_file.as_ref().is_some_and(|f| own.contains(f)));
                from_own
                    && class
                        .methods
                        .iter()
                        .any(|m| m.name == "main" && m.desc_str == MAIN_DESCRIPTOR && m.is_static)
            })
        })
        .map(|c| Entry {
            name: format!("{unit}:{}", c.replace('/', ".")),
            classpath: dir.to_path_buf(),
            target: Target::Main(c.replace('/', ".")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("jtg-sources-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Flat folders are one unit per file (they reuse class names); a folder with package
    /// subfolders is one unit; a source javac refuses is an error entry naming javac's message.
    #[test]
    fn units_follow_what_javac_needs() {
        let d = scratch("units");
        let flat = d.join("flat");
        std::fs::create_dir_all(&flat).unwrap();
        std::fs::write(
            flat.join("P.java"),
            "class A {} public class P { public static void main(String[] a) {} }",
        )
        .unwrap();
        std::fs::write(
            flat.join("Q.java"),
            "class A {} public class Q { public static void main(String[] a) {} }",
        )
        .unwrap();
        std::fs::write(flat.join("Bad.java"), "public class Bad { int x = ; }").unwrap();
        let prog = d.join("prog");
        std::fs::create_dir_all(prog.join("lib")).unwrap();
        std::fs::write(
            prog.join("Main.java"),
            "public class Main { public static void main(String[] a) { lib.L.f(); } }",
        )
        .unwrap();
        std::fs::write(
            prog.join("lib/L.java"),
            "package lib; public class L { public static void f() {} }",
        )
        .unwrap();
        let e = find_entries(std::slice::from_ref(&d), 2);
        let names: Vec<&str> = e.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "flat/Bad.java",
                "flat/P.java:P",
                "flat/Q.java:Q",
                "prog:Main"
            ]
        );
        match &e[0].target {
            Target::CompileError(m) => assert!(m.starts_with("javac: ") && m.contains("Bad.java")),
            t => panic!("{t:?}"),
        }
        assert_eq!(e[3].target, Target::Main("Main".into()));
        assert!(e[3].classpath.join("lib/L.class").exists());
        // a folder of class files: its classes with main
        let c = find_entries(std::slice::from_ref(&e[3].classpath), 1);
        assert!(c.iter().all(|e| e.target != Target::Unit));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].target, Target::Main("Main".into()));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
