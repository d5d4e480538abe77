//! `jtg`: termination graphs for Java bytecode, and their soundness check against a real JVM.
//!
//! The binary only parses arguments and prints; the work is in the crates (jtg-engine,
//! jtg-check, jtg-mutate, jtg-jvm) and the corpus runner of this package.
//! Exit codes: 0 success; 1 violations found (`check`, `corpus --check`) or an `--expect`
//! regression (`corpus`); 2 bad input (arguments, class path, class files, start state, a
//! refused journal; `corpus`: sources that do not compile); 3 unsupported program feature; 4 node budget exceeded; 5 JVM or tracing
//! failure (`corpus --check`: a check stopped early); 70 internal error; 130 interrupted
//! (Ctrl-C) after printing the summary so far and the `--resume` command.

/// The engine clones and drops many small heap maps per node; jemalloc makes that markedly
/// cheaper than the system allocator (see `make bench`, corpus graphs). Its symbols are
/// prefixed, so the embedded JVM keeps the system `malloc`.
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "jtg", version, about = "Termination graphs for Java bytecode")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour errors, violations and diffs: `auto` on terminals unless `NO_COLOR` is set.
    #[arg(long, global = true, value_enum, default_value_t = commands::paint::ColorWhen::Auto)]
    color: commands::paint::ColorWhen,
}

#[derive(Subcommand)]
enum Command {
    /// Build the termination graph of a method.
    Graph(commands::graph::Args),
    /// Compare two graphs (JSON form): added, removed and changed nodes and edges.
    Diff(commands::diff::Args),
    /// Run a method in the real JVM on a concrete input and print every state.
    Trace(commands::trace::Args),
    /// Print random concrete instances of a start state.
    Gen(commands::gen::Args),
    /// Check that every concrete run on generated inputs is a path of the graph.
    Check(commands::check::Args),
    /// Derive graph mutants and report how many the check kills.
    Mutate(commands::mutate::Args),
    /// Termination graphs of every jar of a corpus: status, nodes, time, totals.
    Corpus(commands::corpus::Args),
    /// Termination verdict: the graph as an integer transition system, YES / NO / MAYBE.
    Prove(commands::prove::Args),
    /// The report of a whole run from the journals of its shards (`--shard K/N --journal F`).
    Merge(commands::merge::Args),
}

/// Exit code of a panic (an internal error).
const EXIT_INTERNAL: u8 = 70;

/// A panic anywhere in jtg is a bug: print one line, `jtg: internal error: …` with the panic
/// message and its location, instead of the default multi-line report (set
/// `RUST_BACKTRACE=1` for a backtrace too). `main` turns the unwound panic into exit code 70.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        // `print!` panics when the reader of standard output has gone (`jtg … | head`):
        // the output was not wanted any more, which is no error.
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        let at = info
            .location()
            .map(|l| format!(" (at {}:{})", l.file(), l.line()))
            .unwrap_or_default();
        let msg = msg.replace('\n', " ");
        commands::paint::error_line(&format!("internal error: {msg}{at}"));
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            eprintln!("{}", std::backtrace::Backtrace::force_capture());
        }
    }));
}

fn main() -> ExitCode {
    install_panic_hook();
    let cli = Cli::parse();
    commands::paint::init(cli.color);
    commands::interrupt::install();
    let result = std::panic::catch_unwind(move || {
        // Debug builds only: lets the CLI tests check the panic path (one line, exit 70).
        #[cfg(debug_assertions)]
        if std::env::var_os("JTG_TEST_PANIC").is_some() {
            panic!("JTG_TEST_PANIC is set\n(a second line)");
        }
        match cli.command {
            Command::Graph(a) => commands::graph::run(a),
            Command::Trace(a) => commands::trace::run(a),
            Command::Gen(a) => commands::gen::run(a),
            Command::Diff(a) => commands::diff::run(a),
            Command::Corpus(a) => commands::corpus::run(a),
            Command::Check(a) => commands::check::run(a),
            Command::Mutate(a) => commands::mutate::run(a),
            Command::Prove(a) => commands::prove::run(a),
            Command::Merge(a) => commands::merge::run(a),
        }
    });
    let Ok(result) = result else {
        // The hook has printed the message.
        return ExitCode::from(EXIT_INTERNAL);
    };
    match result {
        Ok(code) => code,
        // `jtg … | head`: the reader of standard output has gone; end quietly.
        Err(e) if commands::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            commands::paint::error_line(&format!("{e:#}"));
            ExitCode::from(commands::exit_code(&e))
        }
    }
}
