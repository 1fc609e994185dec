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

/// What the walk met, in walk order: a rollout file still to be looked at, or a problem.
enum Met {
    File { path: PathBuf, compressed: bool },
    Issue(FileIssue),
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
    let mut met = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().unwrap_or(dir).to_path_buf();
                let reason = err
                    .io_error()
                    .map_or_else(|| err.to_string(), ToString::to_string);
                met.push(Met::Issue(FileIssue { path, reason }));
                continue;
            }
        };
        let name = entry.file_name().to_string_lossy();
        if !is_rollout_name(&name) {
            continue;
        }
        let kind = entry.file_type();
        if kind.is_symlink() {
            met.push(Met::Issue(FileIssue {
                path: entry.path().to_path_buf(),
                reason: "symbolic link, not followed".into(),
            }));
            continue;
        }
        if !kind.is_file() {
            met.push(Met::Issue(FileIssue {
                path: entry.path().to_path_buf(),
                reason: "not a regular file".into(),
            }));
            continue;
        }
        let compressed = name.ends_with(".zst");
        met.push(Met::File {
            path: entry.into_path(),
            compressed,
        });
    }
    let stats = stat_all(&met);
    for (m, stat) in met.into_iter().zip(stats) {
        match (m, stat) {
            (Met::Issue(issue), _) => issues.push(issue),
            (Met::File { path, compressed }, Some(Ok(meta))) => out.push(RolloutFile {
                path,
                archived,
                compressed,
                size: meta.len(),
                mtime_ms: mtime_ms(&meta),
            }),
            // Worded as walkdir words a failed metadata call.
            (Met::File { path, .. }, Some(Err(err))) => issues.push(FileIssue {
                reason: format!("IO error for operation on {}: {err}", path.display()),
                path,
            }),
            (Met::File { .. }, None) => {}
        }
    }
}

/// The metadata (links not followed) of every file met, on two threads when there are many:
/// with a warm page cache the walk is mostly these calls.
fn stat_all(met: &[Met]) -> Vec<Option<std::io::Result<std::fs::Metadata>>> {
    let stat = |part: &[Met]| -> Vec<_> {
        part.iter()
            .map(|m| match m {
                Met::File { path, .. } => Some(std::fs::symlink_metadata(path)),
                Met::Issue(_) => None,
            })
            .collect()
    };
    if met.len() < 512 {
        return stat(met);
    }
    let (a, b) = met.split_at(met.len() / 2);
    std::thread::scope(|scope| {
        let other = scope.spawn(|| stat(b));
        let mut first = stat(a);
        match other.join() {
            Ok(rest) => first.extend(rest),
            Err(_) => first.extend(stat(b)),
        }
        first
    })
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
