//! `jtg`: termination graphs for Java bytecode, and their soundness check against a real JVM.
//!
//! The binary only parses arguments and prints; the work is in the engine and harness crates.
//! Exit codes: 0 success; 1 violations found (`check`); 2 bad input (arguments, class path,
//! class files, start state); 3 unsupported program feature; 4 node budget exceeded;
//! 5 JVM or tracing failure; 70 internal error.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "jtg", version, about = "Termination graphs for Java bytecode")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the termination graph of a method.
    Graph(commands::graph::Args),
    /// Run a method in the real JVM on a concrete input and print every state.
    Trace(commands::trace::Args),
    /// Print random concrete instances of a start state.
    Gen(commands::gen::Args),
    /// Check that every concrete run on generated inputs is a path of the graph.
    Check(commands::check::Args),
    /// Derive graph mutants and report how many the check kills.
    Mutate(commands::mutate::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Graph(a) => commands::graph::run(a),
        Command::Trace(a) => commands::trace::run(a),
        Command::Gen(a) => commands::gen::run(a),
        Command::Check(a) => commands::check::run(a),
        Command::Mutate(a) => commands::mutate::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("jtg: {e:#}");
            ExitCode::from(commands::exit_code(&e))
        }
    }
}
