//! Finding rollout files: `sessions/` at any depth and, on request, the flat `archived_sessions/`.
//!
//! walkdir traverses the folders (links below the roots never followed, so a link loop or a
//! link out of the store is reported and passed over); each subfolder of a root (codex files
//! sessions by year) is walked by its own walkdir on the caller's rayon pool. As the walk leaves a
//! folder, the rollouts it listed there are handed to the pool, which reads their size and
//! modification time through the open folder (one name looked up per file, not its whole path)
//! while the walk goes on: with a warm page cache a walk is mostly these system calls. Each
//! folder's rollouts are put in order by the thread that looked at them; the folders are then
//! put in order and their files laid end to end, which is the order of the whole paths unless
//! folders nest (then the whole list is sorted). A `.zst` file whose plain twin lies beside it
//! is left out (the plain file wins). Problems are reported, never fatal.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::UNIX_EPOCH;

use rayon::slice::ParallelSliceMut;
use walkdir::WalkDir;

use super::issues::{FileIssue, Problem};
use super::path_bytes::{path_bytes, path_from};
use crate::sources::Source;
use crate::timefmt::Millis;

/// One rollout file found by the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RolloutFile {
    pub path: PathBuf,
    pub archived: bool,
    pub compressed: bool,
    pub size: u64,
    pub mtime_ms: Millis,
    /// The agent that wrote it.
    pub source: Source,
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
            source: source_of_name(path),
        })
    }

    /// A session file of `source` a walk listed, not looked at yet (see [`RolloutFile::look`]).
    pub fn listed_from(path: PathBuf, source: Source) -> RolloutFile {
        RolloutFile {
            source,
            ..RolloutFile::listed(path, false)
        }
    }

    /// A file the walk listed, before it is looked at: its size and modification time unknown
    /// (0) until [`RolloutFile::look`].
    fn listed(path: PathBuf, archived: bool) -> RolloutFile {
        RolloutFile {
            compressed: path_bytes(&path).ends_with(b".zst"),
            path,
            archived,
            size: 0,
            mtime_ms: 0,
            source: Source::Codex,
        }
    }

    /// Read the size and modification time of a file the walk listed (links not followed).
    pub fn look(self) -> Result<RolloutFile, FileIssue> {
        let meta = std::fs::symlink_metadata(&self.path);
        self.looked(meta.map(Looked::Meta))
    }

    /// The file, described by its metadata (as read with links not followed).
    fn looked(self, meta: std::io::Result<Looked>) -> Result<RolloutFile, FileIssue> {
        match meta {
            Ok(meta) => Ok(RolloutFile {
                size: meta.size(),
                mtime_ms: meta.mtime_ms(),
                ..self
            }),
            // Worded as walkdir words a failed metadata call.
            Err(err) => {
                let problem = Problem::Io {
                    kind: err.kind(),
                    message: format!("IO error for operation on {}: {err}", self.path.display()),
                };
                Err(FileIssue::new(self.path, problem))
            }
        }
    }
}

pub fn mtime_ms(meta: &std::fs::Metadata) -> Millis {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A rollout file name: `rollout-` prefix, `.jsonl` or `.jsonl.zst` suffix.
fn is_rollout_bytes(name: &[u8]) -> bool {
    name.starts_with(b"rollout-") && (name.ends_with(b".jsonl") || name.ends_with(b".jsonl.zst"))
}

/// The folder part and the name part of a path, as bytes (`Path::parent` and
/// `Path::file_name` parse the path into components).
fn split_name(path: &Path) -> (&[u8], &[u8]) {
    let p = path_bytes(path);
    match memchr::memrchr(b'/', p) {
        Some(i) => (&p[..i], &p[i + 1..]),
        None => (&[], p),
    }
}

/// What a walk found, gathered from the pool's threads: the rollouts of each folder (or part of
/// one) in descending path order.
#[derive(Default)]
struct Found {
    folders: Mutex<Vec<Vec<RolloutFile>>>,
    issues: Mutex<Vec<FileIssue>>,
}

impl Found {
    fn add(&self, looked: Vec<Result<RolloutFile, FileIssue>>) {
        let mut issues = Vec::new();
        let mut files: Vec<RolloutFile> = looked
            .into_iter()
            .filter_map(|l| match l {
                Ok(file) => Some(file),
                Err(issue) => {
                    issues.push(issue);
                    None
                }
            })
            .collect();
        if !files.is_empty() {
            files.sort_unstable_by(descending);
            let mut all = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
            all.push(files);
        }
        self.problems(issues);
    }

    /// Every rollout found, in descending path order, and the problems met, by path.
    fn sorted(self) -> (Vec<RolloutFile>, Vec<FileIssue>) {
        let mut issues = self
            .issues
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        issues.sort_by(|a, b| a.path.cmp(&b.path));
        let mut folders = self
            .folders
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        // Each folder's first file is its last by path.
        folders.sort_unstable_by(|a, b| descending(&a[0], &b[0]));
        let mut files: Vec<RolloutFile> = folders.into_iter().flatten().collect();
        let ordered = files
            .windows(2)
            .all(|w| path_bytes(&w[0].path) > path_bytes(&w[1].path));
        if !ordered {
            // Folders with rollouts inside folders with rollouts: laid end to end they
            // interleave. On the pool: once the walk has ended this is all there is to do.
            files.par_sort_unstable_by(descending);
        }
        (files, issues)
    }

    fn problems(&self, issues: Vec<FileIssue>) {
        if !issues.is_empty() {
            let mut all = self.issues.lock().unwrap_or_else(PoisonError::into_inner);
            all.extend(issues);
        }
    }
}

/// How a walk treats each folder's rollouts.
#[derive(Clone, Copy)]
struct How {
    archived: bool,
    /// Read each file's metadata (else the files are listed by name only).
    look: bool,
}

/// Walk one root (`flat`: its rollouts directly in it), its subfolders each by a walkdir of
/// their own, on the pool of `scope`.
fn walk_root<'s>(scope: &rayon::Scope<'s>, root: &Path, flat: bool, how: How, found: &'s Found) {
    // The root itself may be a link; below it, links are never followed.
    if !root.is_dir() {
        return;
    }
    let top = WalkDir::new(root).min_depth(1).max_depth(1);
    let subfolders = walk_tree(scope, top, how, found);
    if !flat {
        for dir in subfolders {
            scope.spawn(move |scope| {
                walk_tree(scope, WalkDir::new(dir).min_depth(1), how, found);
            });
        }
    }
}

/// Take the rollouts `walk` yields, a folder's at a time, handing each folder's to the pool;
/// returns the folders it yielded.
fn walk_tree<'s>(
    scope: &rayon::Scope<'s>,
    walk: WalkDir,
    how: How,
    found: &'s Found,
) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut issues = Vec::new();
    let mut folder: Vec<RolloutFile> = Vec::new();
    let hand_over = |files: Vec<RolloutFile>| {
        if how.look && !files.is_empty() {
            scope.spawn(move |_| found.add(look_in_folder(files)));
        } else {
            found.add(files.into_iter().map(Ok).collect());
        }
    };
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().map(Path::to_path_buf).unwrap_or_default();
                issues.push(FileIssue::new(path, walk_problem(&err)));
                continue;
            }
        };
        let kind = entry.file_type();
        let path = entry.into_path();
        let rollout = is_rollout_bytes(split_name(&path).1);
        if kind.is_dir() {
            dirs.push(path.clone());
        }
        if !rollout {
            continue;
        }
        // A folder named like a rollout is walked too, and reported.
        if kind.is_symlink() {
            issues.push(FileIssue::new(path, Problem::Symlink));
        } else if !kind.is_file() {
            issues.push(FileIssue::new(path, Problem::NotAFile));
        } else {
            if folder
                .last()
                .is_some_and(|f| split_name(&f.path).0 != split_name(&path).0)
            {
                hand_over(std::mem::take(&mut folder));
            }
            folder.push(RolloutFile::listed(path, how.archived));
        }
    }
    hand_over(folder);
    found.problems(issues);
    dirs
}

/// The source a session file's name says: Claude Code names its sessions `<uuid>.jsonl`,
/// codex `rollout-<time>-<uuid>.jsonl[.zst]`.
pub fn source_of_name(path: &Path) -> Source {
    let name = path.file_name().map_or(&[][..], OsStr::as_encoded_bytes);
    if crate::sources::claude::names::is_session_name(name) {
        Source::Claude
    } else {
        Source::Codex
    }
}

impl FileIssue {
    /// What went wrong walking below `root`, at the path walkdir names (else `root`).
    pub fn walk(root: &Path, err: &walkdir::Error) -> FileIssue {
        let path = err.path().unwrap_or(root).to_path_buf();
        FileIssue::new(path, walk_problem(err))
    }
}

/// What a walk error was: a folder loop, or an io error (worded as walkdir words it).
fn walk_problem(err: &walkdir::Error) -> Problem {
    if let Some(ancestor) = err.loop_ancestor() {
        return Problem::Loop {
            ancestor: ancestor.to_path_buf(),
            message: err.to_string(),
        };
    }
    match err.io_error() {
        Some(io) => Problem::io(io),
        None => Problem::Io {
            kind: std::io::ErrorKind::Other,
            message: err.to_string(),
        },
    }
}

/// Look at files of one folder through the open folder (each by its path when the folder
/// cannot be opened).
pub(crate) fn look_in_folder(files: Vec<RolloutFile>) -> Vec<Result<RolloutFile, FileIssue>> {
    let folder = files
        .first()
        .map(|f| split_name(&f.path).0)
        .and_then(|dir| std::fs::File::open(path_from(dir)).ok());
    files
        .into_iter()
        .map(|f| match &folder {
            Some(dir) => {
                // SAFETY: the bytes after the last `/` of an `OsStr`'s encoded bytes are a
                // whole name, as valid an encoding as the path they were cut from.
                let name = unsafe { OsStr::from_encoded_bytes_unchecked(split_name(&f.path).1) };
                let stat = rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
                f.looked(stat.map(Looked::Stat).map_err(Into::into))
            }
            None => f.look(),
        })
        .collect()
}

/// Walk the store's roots on the current rayon pool: every rollout, newest name first.
fn walk(
    sessions: &Path,
    archived: Option<&Path>,
    look: bool,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let found = Found::default();
    rayon::in_place_scope(|scope| {
        let how = How {
            archived: false,
            look,
        };
        walk_root(scope, sessions, false, how, &found);
        if let Some(dir) = archived {
            let how = How {
                archived: true,
                look,
            };
            walk_root(scope, dir, true, how, &found);
        }
    });
    let (mut files, issues) = found.sorted();
    drop_twins(&mut files);
    (files, issues)
}

/// Descending path order, as bytes (comparing `Path`s parses them into components).
fn descending(a: &RolloutFile, b: &RolloutFile) -> std::cmp::Ordering {
    path_bytes(&b.path).cmp(path_bytes(&a.path))
}

/// Leave out each `.zst` file whose plain twin was found too (the plain file wins). `files` is
/// in descending path order.
fn drop_twins(files: &mut Vec<RolloutFile>) {
    let twin = |f: &RolloutFile| {
        let p = path_bytes(&f.path);
        let plain = &p[..p.len() - 4];
        f.compressed
            && files
                .binary_search_by(|g| plain.cmp(path_bytes(&g.path)))
                .is_ok()
    };
    let twins: Vec<bool> = files.iter().map(twin).collect();
    if twins.contains(&true) {
        let mut twins = twins.into_iter();
        files.retain(|_| !twins.next().unwrap_or(false));
    }
}

/// Every rollout of a store by name (active ones, and archived ones when asked), in descending
/// path order, their size and modification time not read (0, see [`RolloutFile::look`]):
/// rollouts are filed by creation date and named by creation time, so this is close to newest
/// first before any file is looked at (active ones before archived ones). On the current rayon
/// pool.
pub fn list_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    walk(sessions, archived, false)
}

/// A file's size and modification time, as the walk reads them.
enum Looked {
    Meta(std::fs::Metadata),
    Stat(rustix::fs::Stat),
}

impl Looked {
    fn size(&self) -> u64 {
        match self {
            Looked::Meta(m) => m.len(),
            Looked::Stat(s) => u64::try_from(s.st_size).unwrap_or(0),
        }
    }

    fn mtime_ms(&self) -> Millis {
        match self {
            Looked::Meta(m) => mtime_ms(m),
            // As `mtime_ms` reads it: whole milliseconds since the epoch, 0 before it.
            #[allow(
                clippy::unnecessary_cast,
                reason = "the field types differ between targets"
            )]
            Looked::Stat(s) => {
                let (secs, nanos) = (s.st_mtime as i64, s.st_mtime_nsec as i64);
                if secs < 0 {
                    0
                } else {
                    secs.saturating_mul(1000).saturating_add(nanos / 1_000_000)
                }
            }
        }
    }
}

/// All rollouts of a store (active ones, and archived ones when asked), with their metadata,
/// in descending path order. On the current rayon pool.
pub fn find_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    walk(sessions, archived, true)
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
