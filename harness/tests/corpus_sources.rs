//! `jtg corpus` on folders of `.java` sources: a folder of default-package files that use
//! each other compiles as one unit; a folder that does not compile fails loudly (status
//! `error` in the report, exit code 2); `--methods` makes every matching method an entry.

mod common;

use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jtg-corpus-src-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn write(dir: &Path, file: &str, text: &str) {
    std::fs::write(dir.join(file), text).expect("write source");
}

#[test]
fn a_folder_of_default_package_files_is_one_unit() {
    let d = scratch("unit");
    write(
        &d,
        "Main.java",
        "public class Main { public static void main(String[] a) { int n = Helper.twice(a.length); while (n > 0) n--; } }",
    );
    write(
        &d,
        "Helper.java",
        "class Helper { static int twice(int x) { return 2 * x; } }",
    );
    let path = d.to_string_lossy().into_owned();
    let (code, out, err) = common::jtg(&["corpus", &path, "--quiet", "--no-times"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let unit = d.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        out.contains(&format!("| {unit}:Main | complete |")),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_folder_that_does_not_compile_fails_loudly() {
    let d = scratch("bad");
    write(
        &d,
        "Bad.java",
        "public class Bad { public static void main(String[] a) { Missing.f(); } }",
    );
    write(
        &d,
        "Good.java",
        "class Good { static int one() { return 1; } }",
    );
    let path = d.to_string_lossy().into_owned();
    let (code, out, err) = common::jtg(&["corpus", &path, "--quiet", "--no-times"]);
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(
        out.contains("| error | 0 | javac: Bad.java:1: error: cannot find symbol"),
        "{out}"
    );
    assert!(
        err.contains("1 source units do not compile (exit 2)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn files_that_reuse_class_names_are_units_of_their_own() {
    let d = scratch("dups");
    for p in ["P", "Q"] {
        write(
            &d,
            &format!("{p}.java"),
            &format!(
                "class A {{ static int f() {{ return Util.g(); }} }} public class {p} {{ public static void main(String[] a) {{ A.f(); }} }}"
            ),
        );
    }
    // a class of the folder that both use: found through the folder as source path
    write(
        &d,
        "Util.java",
        "class Util { static int g() { return 7; } }",
    );
    let path = d.to_string_lossy().into_owned();
    let (code, out, err) = common::jtg(&["corpus", &path, "--quiet", "--no-times"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("| P.java:P | complete |"), "{out}");
    assert!(out.contains("| Q.java:Q | complete |"), "{out}");
    assert!(out.contains("**total** | 2 |"), "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn methods_selects_every_matching_method() {
    let d = scratch("methods");
    write(
        &d,
        "Loops.java",
        "class Loops { static int down(int x) { while (x > 0) x--; return x; } static int twice(int x) { return 2 * x; } int inst() { return 1; } }",
    );
    write(
        &d,
        "Other.java",
        "class Other { static int one() { return 1; } }",
    );
    let path = d.to_string_lossy().into_owned();
    let (code, out, err) = common::jtg(&[
        "corpus",
        &path,
        "--methods",
        "Loops.*",
        "--quiet",
        "--no-times",
        "--check",
        "10",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    let unit = d.file_name().unwrap().to_string_lossy().into_owned();
    for m in ["Loops.down(I)I", "Loops.inst()I", "Loops.twice(I)I"] {
        assert!(
            out.contains(&format!("| {unit}:{m} | complete |")),
            "{m}: {out}"
        );
    }
    assert!(
        !out.contains("Other.one") && !out.contains("<init>"),
        "{out}"
    );
    assert!(out.contains("**total** | 3 |"), "{out}");
    assert!(err.contains("0 violations"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}
