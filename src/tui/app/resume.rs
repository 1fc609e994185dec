//! The resume command a picked session turns into, quoted for a POSIX shell.

use crate::session::SessionRow;

pub use crate::shell::quote as shell_quote;

/// `cd <cwd> && codex resume <id>` (just the resume when the cwd is unknown).
pub fn resume_command(row: &SessionRow) -> String {
    let resume = format!("codex resume {}", shell_quote(&row.id));
    match row.cwd.as_deref() {
        Some(cwd) if !cwd.is_empty() => format!("cd {} && {resume}", shell_quote(cwd)),
        _ => resume,
    }
}
