//! Finding rollout files: `sessions/` at any depth and, on request, the flat `archived_sessions/`.
//!
//! Owns the file-name rule (`rollout-*.jsonl` and `rollout-*.jsonl.zst`, the plain file winning
//! over its `.zst` twin) and the walk's safety: symbolic links below the store root are never
//! followed, so a link loop or a link out of the store is reported and passed over.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use super::FileIssue;
use crate::timefmt::Millis;

/// One rollout file found by the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolloutFile {
    pub path: PathBuf,
    pub archived: bool,
    pub compressed: bool,
    pub size: u64,
    pub mtime_ms: Millis,
}

impl RolloutFile {
    /// A rollout named directly (a path given on the command line, a row's path), described as
    /// the walk describes the files it finds.
    pub fn at(path: &Path) -> std::io::Result<RolloutFile> {
        let meta = std::fs::metadata(path)?;
        Ok(RolloutFile {
            path: path.to_path_buf(),
            archived: false,
            compressed: path.extension().is_some_and(|e| e == "zst"),
            size: meta.len(),
            mtime_ms: mtime_ms(&meta),
        })
    }
}

/// A rollout file name: `rollout-` prefix, `.jsonl` or `.jsonl.zst` suffix.
pub fn is_rollout_name(name: &str) -> bool {
    name.starts_with("rollout-") && (name.ends_with(".jsonl") || name.ends_with(".jsonl.zst"))
}

pub fn mtime_ms(meta: &std::fs::Metadata) -> Millis {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A rollout file the walk listed, before its metadata is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub path: PathBuf,
    pub archived: bool,
    pub compressed: bool,
}

impl Listed {
    /// Read the file's size and modification time (links not followed).
    pub fn stat(self) -> Result<RolloutFile, FileIssue> {
        match std::fs::symlink_metadata(&self.path) {
            Ok(meta) => Ok(RolloutFile {
                size: meta.len(),
                mtime_ms: mtime_ms(&meta),
                path: self.path,
                archived: self.archived,
                compressed: self.compressed,
            }),
            // Worded as walkdir words a failed metadata call.
            Err(err) => Err(FileIssue {
                reason: format!("IO error for operation on {}: {err}", self.path.display()),
                path: self.path,
            }),
        }
    }
}

/// Every rollout under `dir` (at any depth unless `flat`), with problems reported, not fatal.
/// Only names and types are read: no file's metadata.
fn list_dir(
    dir: &Path,
    archived: bool,
    flat: bool,
    out: &mut Vec<Listed>,
    issues: &mut Vec<FileIssue>,
) {
    if !dir.is_dir() {
        return;
    }
    let mut walker = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .follow_root_links(true);
    if flat {
        walker = walker.max_depth(1);
    }
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().unwrap_or(dir).to_path_buf();
                let reason = err
                    .io_error()
                    .map_or_else(|| err.to_string(), ToString::to_string);
                issues.push(FileIssue { path, reason });
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        if !is_rollout_name(&name) {
            continue;
        }
        let kind = entry.file_type();
        if kind.is_symlink() {
            issues.push(FileIssue {
                path: entry.path().to_path_buf(),
                reason: "symbolic link, not followed".into(),
            });
            continue;
        }
        if !kind.is_file() {
            issues.push(FileIssue {
                path: entry.path().to_path_buf(),
                reason: "not a regular file".into(),
            });
            continue;
        }
        let compressed = name.ends_with(".zst");
        out.push(Listed {
            path: entry.into_path(),
            archived,
            compressed,
        });
    }
}

/// The metadata of every file listed, on two threads when there are many: with a warm page
/// cache a walk is mostly these calls.
fn stat_all(listed: Vec<Listed>) -> Vec<Result<RolloutFile, FileIssue>> {
    let stat = |part: Vec<Listed>| -> Vec<_> { part.into_iter().map(Listed::stat).collect() };
    if listed.len() < 512 {
        return stat(listed);
    }
    let mut first = listed;
    let second = first.split_off(first.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| stat(second));
        let mut done = stat(first);
        match other.join() {
            Ok(rest) => done.extend(rest),
            Err(payload) => std::panic::resume_unwind(payload),
        }
        done
    })
}

fn path_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// Drop every `.zst` file whose plain twin was also listed. Paths are compared as bytes:
/// hashing a `Path` parses it into components, which costs more than the walk itself.
fn plain_wins(files: &mut Vec<Listed>) {
    let plain: HashSet<&[u8]> = files
        .iter()
        .filter(|f| !f.compressed)
        .map(|f| path_bytes(&f.path))
        .collect();
    let keep: Vec<bool> = files
        .iter()
        .map(|f| {
            let bytes = path_bytes(&f.path);
            !f.compressed || !plain.contains(&bytes[..bytes.len().saturating_sub(4)])
        })
        .collect();
    let mut keep = keep.into_iter();
    files.retain(|_| keep.next().unwrap_or(true));
}

/// Every rollout of a store by name (active ones, and archived ones when asked), in descending
/// path order: rollouts are filed by creation date and named by creation time, so this is
/// close to newest first before any file is looked at (active ones before archived ones).
pub fn list_rollouts(sessions: &Path, archived: Option<&Path>) -> (Vec<Listed>, Vec<FileIssue>) {
    let mut files = Vec::new();
    let mut issues = Vec::new();
    list_dir(sessions, false, false, &mut files, &mut issues);
    if let Some(dir) = archived {
        list_dir(dir, true, true, &mut files, &mut issues);
    }
    plain_wins(&mut files);
    // As bytes: comparing `Path`s parses them into components.
    files.sort_unstable_by(|a, b| path_bytes(&b.path).cmp(path_bytes(&a.path)));
    (files, issues)
}

/// All rollouts of a store (active ones, and archived ones when asked), with their metadata.
pub fn find_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let (listed, mut issues) = list_rollouts(sessions, archived);
    let mut files = Vec::with_capacity(listed.len());
    for found in stat_all(listed) {
        match found {
            Ok(file) => files.push(file),
            Err(issue) => issues.push(issue),
        }
    }
    (files, issues)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gone_after_the_listing_is_an_issue_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout-2025-01-01T00-00-00-x.jsonl");
        let listed = Listed {
            path: path.clone(),
            archived: false,
            compressed: false,
        };
        let issue = listed.stat().unwrap_err();
        assert_eq!(issue.path, path);
        assert!(
            issue.reason.starts_with("IO error for operation on"),
            "{}",
            issue.reason
        );
    }

    #[test]
    fn listing_is_newest_name_first_with_plain_twins_winning() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        let names = [
            "2025/01/02/rollout-2025-01-02T09-00-00-b.jsonl",
            "2025/01/02/rollout-2025-01-02T09-00-00-b.jsonl.zst",
            "2025/01/01/rollout-2025-01-01T10-00-00-a.jsonl.zst",
            "2025/02/01/rollout-2025-02-01T08-00-00-c.jsonl",
            "2025/02/01/notes.txt",
        ];
        for name in names {
            let path = sessions.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, b"{}\n").unwrap();
        }
        let (listed, issues) = list_rollouts(&sessions, None);
        assert!(issues.is_empty(), "{issues:?}");
        let got: Vec<String> = listed
            .iter()
            .map(|l| {
                l.path
                    .strip_prefix(&sessions)
                    .unwrap()
                    .display()
                    .to_string()
            })
            .collect();
        assert_eq!(got, [names[3], names[0], names[2]]);
        assert!(listed[2].compressed && !listed[1].compressed);
    }
}
