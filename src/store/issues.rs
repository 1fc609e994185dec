//! Store-wide problems that are not about reading one line: what went wrong with a file
//! ([`Problem`]: the io error's kind, not a session, lines skipped, a loop, a second copy), and
//! session ids that more than one file claims. Pure; the callers print the [`FileIssue`]s.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A file (or folder) that was passed over or read in part, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    pub path: PathBuf,
    pub problem: Problem,
}

impl FileIssue {
    pub fn new(path: impl Into<PathBuf>, problem: Problem) -> FileIssue {
        FileIssue {
            path: path.into(),
            problem,
        }
    }

    /// An io error met opening or reading `path`.
    pub fn io(path: impl Into<PathBuf>, err: &io::Error) -> FileIssue {
        FileIssue::new(path, Problem::io(err))
    }
}

impl fmt::Display for FileIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "codex-picker: {}: {}", self.path.display(), self.problem)
    }
}

/// What went wrong with a file, as a caller can tell the cases apart; shown as one line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// Opening, reading or looking at it failed: the error's kind, and its words.
    #[error("{message}")]
    Io {
        kind: io::ErrorKind,
        message: String,
    },
    /// The walk came back to a folder it was already inside of (a link that loops).
    #[error("{message}")]
    Loop { ancestor: PathBuf, message: String },
    /// A symbolic link where a rollout was looked for: not followed.
    #[error("symbolic link, not followed")]
    Symlink,
    /// Named like a rollout but not a regular file.
    #[error("not a regular file")]
    NotAFile,
    /// Neither session metadata nor a message: passed over.
    #[error("{}", not_a_session_reason(*size, *skipped_lines))]
    NotASession { size: u64, skipped_lines: u32 },
    /// Listed, but lines of it could not be read (said with `--verbose`).
    #[error("{}", skipped_lines_note(*.0))]
    SkippedLines(u32),
    /// Another file, earlier by path, has the same session id; both are listed.
    #[error("session id {id} is also in {}; both are listed", first.display())]
    SameId { id: String, first: PathBuf },
    /// This file has the id of the session being shown, which is `shown`.
    #[error("session id {id} is also in this file; showing {}", shown.display())]
    AlsoShown { id: String, shown: PathBuf },
    /// The store could not be read at all (its reading threads did not start).
    #[error("cannot start reading threads: {0}")]
    NoThreads(String),
}

impl Problem {
    pub fn io(err: &io::Error) -> Problem {
        Problem::Io {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

/// Why a file with no `session_meta` and no message is passed over.
fn not_a_session_reason(size: u64, skipped_lines: u32) -> String {
    match (size, skipped_lines) {
        (0, _) => "empty file".to_owned(),
        (_, 0) => "no session metadata and no message".to_owned(),
        (_, 1) => "no session metadata and no message (1 unreadable line)".to_owned(),
        (_, n) => format!("no session metadata and no message ({n} unreadable lines)"),
    }
}

/// The `--verbose` note for a listed file with lines that could not be read.
fn skipped_lines_note(skipped_lines: u32) -> String {
    match skipped_lines {
        1 => "listed; skipped 1 unreadable line".to_owned(),
        n => format!("listed; skipped {n} unreadable lines"),
    }
}

/// One warning for every file whose session id an earlier file (by path) already has. Both are
/// still listed: a copied or half-archived rollout is the user's data too, and each row keeps its
/// own path. Takes each session's (id, path).
pub(crate) fn duplicate_ids<'a, S: AsRef<str>>(
    sessions: impl IntoIterator<Item = (S, &'a Path)>,
) -> Vec<FileIssue> {
    let mut all: Vec<(S, &Path)> = sessions.into_iter().collect();
    // Telling that no id is there twice is cheap; naming the copies is not.
    let mut ids = std::collections::HashSet::with_capacity_and_hasher(
        all.len(),
        foldhash::fast::RandomState::default(),
    );
    if all.iter().all(|(id, _)| ids.insert(id.as_ref())) {
        return Vec::new();
    }
    drop(ids);
    all.sort_unstable_by(|a, b| (a.0.as_ref(), a.1).cmp(&(b.0.as_ref(), b.1)));
    let mut issues = Vec::new();
    for group in all
        .chunk_by(|a, b| a.0.as_ref() == b.0.as_ref())
        .filter(|g| g.len() > 1)
    {
        let (id, first) = (group[0].0.as_ref(), group[0].1);
        for (_, path) in &group[1..] {
            let problem = Problem::SameId {
                id: id.to_owned(),
                first: first.to_path_buf(),
            };
            issues.push(FileIssue::new(*path, problem));
        }
    }
    issues.sort_by(|a, b| a.path.cmp(&b.path));
    issues
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn row(id: &'static str, path: &'static str) -> (&'static str, &'static Path) {
        (id, Path::new(path))
    }

    #[test]
    fn reasons_read_well() {
        assert_eq!(not_a_session_reason(0, 0), "empty file");
        assert_eq!(
            not_a_session_reason(9, 1),
            "no session metadata and no message (1 unreadable line)"
        );
        assert_eq!(skipped_lines_note(1), "listed; skipped 1 unreadable line");
        assert_eq!(skipped_lines_note(2), "listed; skipped 2 unreadable lines");
        assert_eq!(
            not_a_session_reason(9, 3),
            "no session metadata and no message (3 unreadable lines)"
        );
    }

    #[test]
    fn each_extra_copy_is_named_once() {
        let rows = [
            row("a", "/s/2"),
            row("b", "/s/3"),
            row("a", "/s/1"),
            row("a", "/s/0"),
        ];
        let issues = duplicate_ids(rows);
        let paths: Vec<_> = issues.iter().map(|i| i.path.clone()).collect();
        assert_eq!(paths, [PathBuf::from("/s/1"), PathBuf::from("/s/2")]);
        assert_eq!(
            issues[0].problem.to_string(),
            "session id a is also in /s/0; both are listed"
        );
    }
}
