//! The non-interactive commands: [`list`], [`show`], [`blame`], [`cache`] and [`setup`]
//! (`init`, `completions`, `man`), each in its own file ([`changed`]: the sessions that
//! changed a file, for `list --file` and `blame`), and what they share: messages on stderr
//! (`codex-picker: <path>: <reason>`), exit codes, a broken pipe that is no error. [`output`]
//! formats what they print.

mod blame;
mod cache;
mod changed;
mod list;
pub(crate) mod output;
mod setup;
mod show;
pub mod show_text;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use crate::session::SessionRow;
use crate::store::{FileIssue, Problem};

pub use crate::cli::{EXIT_CANCELLED, EXIT_ERROR, EXIT_OK};
pub use blame::run_blame;
pub use cache::run_cache;
pub use list::run_list;
pub use setup::{run_completions, run_init, run_man};
pub use show::{find_target, run_show, SHOW_TEXT_CAP};

/// One `codex-picker: <message>` line on stderr, neutralised: messages echo paths and arguments.
fn say(err: &mut dyn Write, msg: impl std::fmt::Display) {
    let _ = writeln!(
        err,
        "codex-picker: {}",
        crate::sanitize::one_line(&msg.to_string())
    );
}

fn report(err: &mut dyn Write, issues: &[FileIssue]) {
    for issue in issues {
        let _ = writeln!(err, "{}", crate::sanitize::one_line(&issue.to_string()));
    }
}

fn report_rows(err: &mut dyn Write, rows: &[SessionRow], verbose: bool) {
    if !verbose {
        return;
    }
    for row in rows.iter().filter(|r| r.skipped_lines > 0) {
        let issue = FileIssue::new(&row.path, Problem::SkippedLines(row.skipped_lines));
        report(err, &[issue]);
    }
}

fn normalise_dir(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

fn terminal_columns() -> usize {
    if io::stdout().is_terminal() {
        if let Ok((cols, _)) = ratatui::crossterm::terminal::size() {
            return usize::from(cols);
        }
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(120)
}

fn finish(result: io::Result<()>, err: &mut dyn Write) -> i32 {
    match result {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            say(err, e);
            EXIT_ERROR
        }
    }
}
