//! Compiles the Java side of the tracer (`java/tracer/*.java`) with `javac` against Debian's
//! ASM 9.4 jars and generates `tracer_classes.rs`, which embeds the resulting `.class` files
//! (`include_bytes!`) so the `jtg` binary is self-contained; at run time they are defined
//! through JNI into a dedicated class loader whose parent (the system loader) sees ASM.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// ASM jars the tracer is compiled and run against (Debian package `libasm-java`).
const ASM_JARS: [&str; 4] = [
    "/usr/share/java/asm.jar",
    "/usr/share/java/asm-tree.jar",
    "/usr/share/java/asm-commons.jar",
    "/usr/share/java/asm-analysis.jar",
];

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    println!("cargo:warning={msg}");
    std::process::exit(1);
}

fn javac() -> PathBuf {
    if let Some(j) = env::var_os("JAVAC") {
        return PathBuf::from(j);
    }
    if let Some(home) = env::var_os("JAVA_HOME") {
        let j = Path::new(&home).join("bin/javac");
        if j.is_file() {
            return j;
        }
    }
    PathBuf::from("javac")
}

fn main() {
    println!("cargo:rerun-if-changed=java/tracer");
    println!("cargo:rerun-if-env-changed=JAVAC");
    println!("cargo:rerun-if-env-changed=JAVA_HOME");
    for jar in ASM_JARS {
        if !Path::new(jar).is_file() {
            fail(&format!(
                "{jar} is missing: the tracer needs ASM 9.4 (Debian package libasm-java); run `make deps` \
                 (or `apt-get install libasm-java`)"
            ));
        }
    }
    let src_dir = Path::new("java/tracer");
    let mut sources: Vec<PathBuf> = fs::read_dir(src_dir)
        .unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", src_dir.display())))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    sources.sort();
    let out = PathBuf::from(env::var_os("OUT_DIR").unwrap_or_else(|| fail("OUT_DIR not set")));
    let classes = out.join("tracer-classes");
    let _ = fs::remove_dir_all(&classes);
    fs::create_dir_all(&classes)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", classes.display())));
    let javac = javac();
    let output = Command::new(&javac)
        .args(["--release", "11", "-nowarn", "-encoding", "UTF-8", "-cp"])
        .arg(ASM_JARS.join(":"))
        .arg("-d")
        .arg(&classes)
        .args(&sources)
        .output()
        .unwrap_or_else(|e| {
            fail(&format!(
                "cannot run {} ({e}): a JDK 17 javac is needed to build the tracer; run `make deps` \
                 (or `apt-get install openjdk-17-jdk-headless`), or set JAVAC",
                javac.display()
            ))
        });
    if !output.status.success() {
        fail(&format!(
            "javac failed on jvm/java/tracer:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut files: Vec<PathBuf> = fs::read_dir(classes.join("tracer"))
        .unwrap_or_else(|e| fail(&format!("javac produced no classes: {e}")))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "class"))
        .collect();
    files.sort();
    let mut gen = String::from(
        "/// Tracer classes compiled by build.rs: (internal name, class file bytes).\n\
         pub(super) static TRACER_CLASSES: &[(&str, &[u8])] = &[\n",
    );
    for f in &files {
        let stem = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_else(|| fail("bad class file name"));
        gen.push_str(&format!(
            "    (\"tracer/{stem}\", include_bytes!({:?})),\n",
            f.display().to_string()
        ));
    }
    gen.push_str("];\n");
    let asm = ASM_JARS
        .iter()
        .map(|j| format!("{j:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    gen.push_str(&format!(
        "/// ASM jars the tracer classes were compiled against (needed at run time).\n\
         pub(super) static ASM_JARS: &[&str] = &[{asm}];\n"
    ));
    fs::write(out.join("tracer_classes.rs"), gen)
        .unwrap_or_else(|e| fail(&format!("cannot write tracer_classes.rs: {e}")));
}
