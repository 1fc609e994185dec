//! What every command shares when it ends: messages on stderr (`codex-picker: <path>:
//! <reason>`, neutralised), the exit code, and a broken pipe that is no error.

use std::io::{self, Write};

use crate::cli::{EXIT_ERROR, EXIT_OK};
use crate::session::SessionRow;
use crate::store::{FileIssue, Problem};

/// One `codex-picker: <message>` line on stderr, neutralised: messages echo paths and arguments.
pub(super) fn say(err: &mut dyn Write, msg: impl std::fmt::Display) {
    let _ = writeln!(
        err,
        "codex-picker: {}",
        crate::sanitize::one_line(&msg.to_string())
    );
}

pub(super) fn report(err: &mut dyn Write, issues: &[FileIssue]) {
    for issue in issues {
        let _ = writeln!(err, "{}", crate::sanitize::one_line(&issue.to_string()));
    }
}

pub(super) fn report_rows(err: &mut dyn Write, rows: &[SessionRow], verbose: bool) {
    if !verbose {
        return;
    }
    for row in rows.iter().filter(|r| r.skipped_lines > 0) {
        let issue = FileIssue::new(&row.path, Problem::SkippedLines(row.skipped_lines));
        report(err, &[issue]);
    }
}

pub(super) fn finish(result: io::Result<()>, err: &mut dyn Write) -> i32 {
    match result {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            say(err, e);
            EXIT_ERROR
        }
    }
}
