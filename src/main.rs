//! The `codex-picker` binary: parse the command line, run, and turn the result into an exit code
//! (0 picked or listed, 130 cancelled, 2 error).

use clap::Parser;
use codex_picker::cli::{Cli, Command};
use codex_picker::commands;

fn main() {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = match &cli.command {
        Some(Command::List(args)) => commands::run_list(&cli.store, args, &mut out, &mut err),
        Some(Command::Show(args)) => commands::run_show(&cli.store, args, &mut out, &mut err),
        Some(Command::Cache(args)) => commands::run_cache(&cli.store, args, &mut out, &mut err),
        None => {
            drop(out);
            drop(err);
            codex_picker::picker::run(&cli)
        }
    };
    std::process::exit(code);
}
