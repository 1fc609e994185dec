//! Running `codex resume <id>` or `codex fork <id>` (Ctrl+O, `--exec`, Alt+F, resume here),
//! after the picker has given the terminal back, with the user's own arguments and on the store
//! the picker showed; the picker exits with codex's status.

use std::path::Path;

use crate::codex::Codex;
use crate::tui::app::Launch;

/// Run codex and return the exit code to leave with.
pub(crate) fn run(codex: &Codex, what: &Launch) -> i32 {
    let mut cmd = match codex.command() {
        Ok(cmd) => cmd,
        Err(why) => {
            eprintln!("codex-picker: {why}");
            return crate::cli::EXIT_ERROR;
        }
    };
    cmd.arg(if what.fork { "fork" } else { "resume" })
        .arg(&what.id)
        .args(&what.args);
    match what.cwd.as_deref().filter(|c| Path::new(c).is_dir()) {
        Some(dir) => {
            cmd.current_dir(dir);
        }
        None => {
            if let Some(c) = &what.cwd {
                eprintln!(
                    "codex-picker: the session's folder {} no longer exists; running codex here",
                    crate::sanitize::one_line(c)
                );
            }
        }
    }
    crate::tui::signals::child_running(true);
    let status = cmd.status();
    crate::tui::signals::child_running(false);
    match status {
        Ok(status) => status.code().unwrap_or(crate::cli::EXIT_ERROR),
        Err(e) => {
            eprintln!("codex-picker: cannot run {}: {e}", codex.program_name());
            crate::cli::EXIT_ERROR
        }
    }
}
