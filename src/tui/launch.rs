//! Running `codex resume <id>` or `codex fork <id>` (Ctrl+O, `--exec`, Alt+F, resume here), or
//! `claude --resume <id> [--fork-session]` for a Claude Code session, after the picker has
//! given the terminal back, with the user's own arguments and on the store the picker showed;
//! the picker exits with the agent's status.

use std::path::Path;

use crate::codex::Codex;
use crate::sources::claude::command::{resume_words, Claude};
use crate::sources::Source;
use crate::tui::app::Launch;

/// Run codex and return the exit code to leave with.
pub(crate) fn run(codex: &Codex, claude: &Claude, what: &Launch) -> i32 {
    let command = match what.source {
        Source::Codex => codex.command().map_err(|e| e.to_string()).map(|mut cmd| {
            cmd.arg(if what.fork { "fork" } else { "resume" })
                .arg(&what.id);
            cmd
        }),
        Source::Claude => claude.command().map_err(str::to_owned).map(|mut cmd| {
            cmd.args(resume_words(&what.id, what.fork));
            cmd
        }),
    };
    let mut cmd = match command {
        Ok(cmd) => cmd,
        Err(why) => {
            eprintln!("codex-picker: {why}");
            return crate::cli::EXIT_ERROR;
        }
    };
    cmd.args(&what.args);
    match what.cwd.as_deref().filter(|c| Path::new(c).is_dir()) {
        Some(dir) => {
            cmd.current_dir(dir);
        }
        None => {
            if let Some(c) = &what.cwd {
                eprintln!(
                    "codex-picker: the session's folder {} no longer exists; running {} here",
                    crate::sanitize::one_line(c),
                    what.source.program()
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
            let program = match what.source {
                Source::Codex => codex.program_name(),
                Source::Claude => "claude".to_owned(),
            };
            eprintln!("codex-picker: cannot run {program}: {e}");
            crate::cli::EXIT_ERROR
        }
    }
}
