//! Ctrl-C (SIGINT). A long `check` or `corpus` polls [`interrupted`] after each unit of work
//! (a case, a jar): it stops there, prints the summary so far and the exact `--resume`
//! command, and exits with [`EXIT_INTERRUPTED`] (128 + SIGINT, the shell's convention). Every
//! finished unit is in the journal already (written and fsync'ed before the run goes on), so
//! the resumed run loses nothing. Commands that do not poll end at once on Ctrl-C, with the
//! same exit code; a second Ctrl-C ends any command at once.
//!
//! The embedded JVM is started with `-Xrs` (`jtg_jvm`), so it leaves SIGINT to this handler.

use jtg_check::report::shell_quote;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of an interrupted run.
pub const EXIT_INTERRUPTED: u8 = 130;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static POLLED: AtomicBool = AtomicBool::new(false);

/// Installs the SIGINT handler (once, at start-up).
pub fn install() {
    // Fails only when another handler was set by this process; then Ctrl-C keeps its default.
    let _ = ctrlc::set_handler(|| {
        if !POLLED.load(Ordering::SeqCst) || INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED.into());
        }
    });
}

/// From now on Ctrl-C only sets the flag [`interrupted`] reads (the caller polls it).
pub fn poll() {
    POLLED.store(true, Ordering::SeqCst);
}

/// Whether Ctrl-C was pressed since [`poll`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// The error of a run stopped by Ctrl-C; `main` exits with [`EXIT_INTERRUPTED`] on it.
#[derive(Debug, thiserror::Error)]
#[error("interrupted (Ctrl-C)")]
pub struct Interrupted;

/// This process's command line with `--resume` (unless it has it), quoted for a POSIX shell.
pub fn resume_command() -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--resume") {
        args.push("--resume".into());
    }
    args.iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Says on stderr how to continue an interrupted run: the `--resume` command when it has a
/// journal, else that it cannot be continued.
pub fn print_resume_hint(journal: Option<&Path>) {
    match journal {
        Some(_) => eprintln!("jtg: continue the run with: {}", resume_command()),
        None => eprintln!(
            "jtg: the run had no --journal, so it cannot be continued: start it again with --journal FILE to be able to resume"
        ),
    }
}
