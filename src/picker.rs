//! The interactive picker's entry point.

use crate::cli::Cli;

/// Run the picker; returns the exit code.
pub fn run(_cli: &Cli) -> i32 {
    eprintln!("codex-picker: the interactive picker is not available yet; use `codex-picker list` or `codex-picker show ID`");
    crate::commands::EXIT_ERROR
}
