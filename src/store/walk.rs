//! Finding rollout files: `sessions/` at any depth and, on request, the flat `archived_sessions/`.
//!
//! Owns the file-name rule (`rollout-*.jsonl` and `rollout-*.jsonl.zst`, the plain file winning
//! over its `.zst` twin) and the walk's safety: symbolic links below the store root are never
//! followed, so a link loop or a link out of the store is reported and passed over.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
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
        let meta = std::fs::symlink_metadata(&self.path);
        self.stat_with(meta)
    }

    /// The file, described by its metadata (as read with links not followed).
    fn stat_with(self, meta: std::io::Result<std::fs::Metadata>) -> Result<RolloutFile, FileIssue> {
        match meta {
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

/// What the walk found for one rollout: its name, or (when the walk reads metadata) the file or
/// the failure to look at it.
enum Walked {
    Listed(Listed),
    Looked(Result<RolloutFile, FileIssue>),
}

/// A folder waiting to be read.
struct Dir {
    path: PathBuf,
    archived: bool,
    /// Its subfolders are not walked (`archived_sessions/` is flat).
    flat: bool,
}

/// The folders not read yet and how many are being read: the walk ends when both are zero.
struct Pending {
    dirs: Vec<Dir>,
    busy: usize,
}

struct Shared {
    pending: Mutex<Pending>,
    more: Condvar,
}

fn lock(shared: &Shared) -> MutexGuard<'_, Pending> {
    shared
        .pending
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// Threads of a walk. With a warm page cache a walk is mostly system calls (listing folders,
/// and the metadata of every file), which two threads share well.
const WALK_THREADS: usize = 2;

/// Every rollout under `sessions` (at any depth) and, when given, directly in `archived`, with
/// problems reported, not fatal; with `look`, each file's metadata too. Folders are read by
/// [`WALK_THREADS`] threads, each folder whole by one of them, its files' metadata read
/// through the open folder (no walk down the path from the root for each file). In no
/// particular order.
fn walk(sessions: &Path, archived: Option<&Path>, look: bool) -> (Vec<Walked>, Vec<FileIssue>) {
    let roots = [(Some(sessions), false), (archived, true)];
    let dirs = roots
        .into_iter()
        .filter_map(|(dir, archived)| Some((dir?, archived)))
        // The root itself may be a link; below it, links are never followed.
        .filter(|(dir, _)| dir.is_dir())
        .map(|(dir, archived)| Dir {
            path: dir.to_path_buf(),
            archived,
            flat: archived,
        })
        .collect();
    let shared = Shared {
        pending: Mutex::new(Pending { dirs, busy: 0 }),
        more: Condvar::new(),
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..WALK_THREADS)
            .map(|_| scope.spawn(|| walk_worker(&shared, look)))
            .collect();
        let (mut found, mut issues) = walk_worker(&shared, look);
        for other in others {
            match other.join() {
                Ok((f, i)) => {
                    found.extend(f);
                    issues.extend(i);
                }
                Err(payload) => std::panic::resume_unwind(payload),
            }
        }
        issues.sort_by(|a, b| a.path.cmp(&b.path));
        (found, issues)
    })
}

/// Read folders until none is left to read.
fn walk_worker(shared: &Shared, look: bool) -> (Vec<Walked>, Vec<FileIssue>) {
    let mut found = Vec::new();
    let mut issues = Vec::new();
    let mut subdirs = Vec::new();
    loop {
        let mut pending = lock(shared);
        let dir = loop {
            if let Some(dir) = pending.dirs.pop() {
                pending.busy += 1;
                break dir;
            }
            if pending.busy == 0 {
                drop(pending);
                shared.more.notify_all();
                return (found, issues);
            }
            pending = shared
                .more
                .wait(pending)
                .unwrap_or_else(PoisonError::into_inner);
        };
        drop(pending);
        read_folder(&dir, look, &mut found, &mut issues, &mut subdirs);
        let mut pending = lock(shared);
        pending.busy -= 1;
        let wake = !subdirs.is_empty() || pending.busy == 0;
        pending.dirs.extend(subdirs.drain(..).map(|path| Dir {
            path,
            archived: dir.archived,
            flat: false,
        }));
        drop(pending);
        if wake {
            shared.more.notify_all();
        }
    }
}

/// A rollout file name as bytes (see [`is_rollout_name`]).
fn is_rollout_bytes(name: &[u8]) -> bool {
    name.starts_with(b"rollout-") && (name.ends_with(b".jsonl") || name.ends_with(b".jsonl.zst"))
}

/// Read one folder: its rollouts (each `.zst` file whose plain twin is beside it left out),
/// looked at when `look`; its subfolders, to walk (unless the folder is flat).
fn read_folder(
    dir: &Dir,
    look: bool,
    found: &mut Vec<Walked>,
    issues: &mut Vec<FileIssue>,
    subdirs: &mut Vec<PathBuf>,
) {
    let issue = |path: PathBuf, reason: String| FileIssue { path, reason };
    let entries = match std::fs::read_dir(&dir.path) {
        Ok(entries) => entries,
        Err(err) => return issues.push(issue(dir.path.clone(), err.to_string())),
    };
    let mut rollouts = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                issues.push(issue(dir.path.clone(), err.to_string()));
                continue;
            }
        };
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(err) => {
                issues.push(issue(entry.path(), err.to_string()));
                continue;
            }
        };
        // The entry's path is built once (its name is its tail).
        let path = entry.path();
        let rollout = is_rollout_bytes(name_of(&path));
        if kind.is_dir() && !dir.flat {
            // A folder named like a rollout is walked too, and reported.
            if rollout {
                issues.push(issue(path.clone(), "not a regular file".into()));
            }
            subdirs.push(path);
            continue;
        }
        if !rollout {
            continue;
        }
        if kind.is_symlink() {
            issues.push(issue(path, "symbolic link, not followed".into()));
        } else if !kind.is_file() {
            issues.push(issue(path, "not a regular file".into()));
        } else {
            rollouts.push((path, entry));
        }
    }
    // The plain file wins over its `.zst` twin; twins lie in one folder.
    let mut plain: Vec<&[u8]> = rollouts
        .iter()
        .map(|(path, _)| name_of(path))
        .filter(|n| !n.ends_with(b".zst"))
        .collect();
    plain.sort_unstable();
    let twin_of =
        |n: &[u8]| n.ends_with(b".zst") && plain.binary_search(&&n[..n.len() - 4]).is_ok();
    let twins: Vec<bool> = rollouts.iter().map(|(p, _)| twin_of(name_of(p))).collect();
    for ((path, entry), twin) in rollouts.into_iter().zip(twins) {
        if twin {
            continue;
        }
        let listed = Listed {
            compressed: name_of(&path).ends_with(b".zst"),
            path,
            archived: dir.archived,
        };
        found.push(if look {
            Walked::Looked(listed.stat_with(entry.metadata()))
        } else {
            Walked::Listed(listed)
        });
    }
}

/// The file name of a path the walk built (a folder's path and a name) as bytes.
fn name_of(path: &Path) -> &[u8] {
    let bytes = path_bytes(path);
    let start = memchr::memrchr(b'/', bytes).map_or(0, |i| i + 1);
    &bytes[start..]
}

fn path_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// Every rollout of a store by name (active ones, and archived ones when asked), in descending
/// path order: rollouts are filed by creation date and named by creation time, so this is
/// close to newest first before any file is looked at (active ones before archived ones).
pub fn list_rollouts(sessions: &Path, archived: Option<&Path>) -> (Vec<Listed>, Vec<FileIssue>) {
    let (walked, issues) = walk(sessions, archived, false);
    let mut files: Vec<Listed> = walked
        .into_iter()
        .filter_map(|w| match w {
            Walked::Listed(listed) => Some(listed),
            Walked::Looked(_) => None,
        })
        .collect();
    // As bytes: comparing `Path`s parses them into components.
    files.sort_unstable_by(|a, b| path_bytes(&b.path).cmp(path_bytes(&a.path)));
    (files, issues)
}

/// All rollouts of a store (active ones, and archived ones when asked), with their metadata,
/// in descending path order.
pub fn find_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let (walked, mut issues) = walk(sessions, archived, true);
    let mut files = Vec::with_capacity(walked.len());
    for w in walked {
        match w {
            Walked::Looked(Ok(file)) => files.push(file),
            Walked::Looked(Err(issue)) => issues.push(issue),
            Walked::Listed(_) => {}
        }
    }
    files.sort_unstable_by(|a, b| path_bytes(&b.path).cmp(path_bytes(&a.path)));
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

    #[test]
    fn walk_reads_sizes_reports_odd_entries_and_keeps_archived_flat() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        let archived = dir.path().join("archived_sessions");
        let files = [
            (sessions.join("2025/01/01/rollout-a.jsonl"), 3),
            (
                sessions.join("2025/01/01/rollout-odd.jsonl/rollout-inner.jsonl"),
                5,
            ),
            (archived.join("rollout-b.jsonl.zst"), 7),
            (archived.join("deeper/rollout-c.jsonl"), 9),
        ];
        for (path, len) in &files {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, vec![b'x'; *len]).unwrap();
        }
        std::os::unix::fs::symlink(
            "rollout-a.jsonl",
            sessions.join("2025/01/01/rollout-l.jsonl"),
        )
        .unwrap();
        let (found, issues) = find_rollouts(&sessions, Some(&archived));
        let got: Vec<(PathBuf, u64, bool, bool)> = found
            .into_iter()
            .map(|f| (f.path, f.size, f.archived, f.compressed))
            .collect();
        assert_eq!(
            got,
            [
                (files[1].0.clone(), 5, false, false),
                (files[0].0.clone(), 3, false, false),
                (files[2].0.clone(), 7, true, true),
            ]
        );
        let reasons: Vec<(PathBuf, &str)> = issues
            .iter()
            .map(|i| (i.path.clone(), i.reason.as_str()))
            .collect();
        assert_eq!(
            reasons,
            [
                (
                    sessions.join("2025/01/01/rollout-l.jsonl"),
                    "symbolic link, not followed"
                ),
                (
                    files[1].0.parent().unwrap().to_path_buf(),
                    "not a regular file"
                ),
            ]
        );
    }
}
