//! The resume command a picked session turns into, quoted for a POSIX shell.

use crate::session::SessionRow;

/// Quote for a POSIX shell: bare when safe, else single quotes.
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c));
    if safe {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// `cd <cwd> && codex resume <id>` (just the resume when the cwd is unknown).
pub fn resume_command(row: &SessionRow) -> String {
    let resume = format!("codex resume {}", shell_quote(&row.id));
    match row.cwd.as_deref() {
        Some(cwd) if !cwd.is_empty() => format!("cd {} && {resume}", shell_quote(cwd)),
        _ => resume,
    }
}
