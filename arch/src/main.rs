//! `cargo run -p jtg-arch`: prints each crate's modules with what they import from their
//! siblings, and every circle; exits 1 when there is a circle.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."));
    let ws = match jtg_arch::Workspace::load(&root) {
        Ok(ws) => ws,
        Err(e) => {
            eprintln!("jtg-arch: {e}");
            return ExitCode::from(2);
        }
    };
    for c in &ws.crates {
        println!(
            "{} ({}): {} modules, {} imports between modules",
            c.package,
            c.dir.display(),
            c.modules.modules.len(),
            c.imports.len()
        );
    }
    let circles = ws.circles();
    if circles.is_empty() {
        println!("no circles");
        return ExitCode::SUCCESS;
    }
    println!();
    for c in &circles {
        print!("{c}");
    }
    ExitCode::from(1)
}
