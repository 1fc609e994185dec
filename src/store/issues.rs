//! Store-wide problems that are not about reading one line: why a file is not a session, and
//! session ids that more than one file claims. Pure; the callers print the [`FileIssue`]s.

use std::fmt;
use std::path::{Path, PathBuf};

/// A file (or folder) that was passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    pub path: PathBuf,
    pub reason: String,
}

impl fmt::Display for FileIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "codex-picker: {}: {}", self.path.display(), self.reason)
    }
}

/// Why a file with no `session_meta` and no message is passed over.
pub(crate) fn not_a_session_reason(size: u64, skipped_lines: u32) -> String {
    match (size, skipped_lines) {
        (0, _) => "empty file".to_owned(),
        (_, 0) => "no session metadata and no message".to_owned(),
        (_, 1) => "no session metadata and no message (1 unreadable line)".to_owned(),
        (_, n) => format!("no session metadata and no message ({n} unreadable lines)"),
    }
}

/// The `--verbose` note for a listed file with lines that could not be read.
pub(crate) fn skipped_lines_note(skipped_lines: u32) -> String {
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
        let first = first.display().to_string();
        for (_, path) in &group[1..] {
            issues.push(FileIssue {
                path: path.to_path_buf(),
                reason: format!("session id {id} is also in {first}; both are listed"),
            });
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
            issues[0].reason,
            "session id a is also in /s/0; both are listed"
        );
    }
}
