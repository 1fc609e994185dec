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

/// Every rollout under `dir` (at any depth unless `flat`), with problems reported, not fatal.
fn walk_dir(
    dir: &Path,
    archived: bool,
    flat: bool,
    out: &mut Vec<RolloutFile>,
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
        match entry.metadata() {
            Ok(meta) => out.push(RolloutFile {
                path: entry.path().to_path_buf(),
                archived,
                compressed: name.ends_with(".zst"),
                size: meta.len(),
                mtime_ms: mtime_ms(&meta),
            }),
            Err(err) => issues.push(FileIssue {
                path: entry.path().to_path_buf(),
                reason: err.to_string(),
            }),
        }
    }
}

/// Drop every `.zst` file whose plain twin was also found.
fn plain_wins(files: &mut Vec<RolloutFile>) {
    let plain: HashSet<PathBuf> = files
        .iter()
        .filter(|f| !f.compressed)
        .map(|f| f.path.clone())
        .collect();
    files.retain(|f| !f.compressed || !plain.contains(&f.path.with_extension("")));
}

/// All rollouts of a store: active ones, and archived ones when asked.
pub fn find_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let mut files = Vec::new();
    let mut issues = Vec::new();
    walk_dir(sessions, false, false, &mut files, &mut issues);
    if let Some(dir) = archived {
        walk_dir(dir, true, true, &mut files, &mut issues);
    }
    plain_wins(&mut files);
    (files, issues)
}
