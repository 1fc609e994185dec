//! Finding rollout files: `sessions/` at any depth and, on request, the flat `archived_sessions/`.
//!
//! The folders are listed by walkdir (links below the roots never followed, so a link loop or a
//! link out of the store is reported and passed over), then every rollout's metadata is read
//! in parallel on the caller's rayon pool: with a warm page cache a walk is mostly system calls,
//! and the metadata of each file is most of them. A `.zst` file whose plain twin lies beside
//! it is left out (the plain file wins). Problems are reported, never fatal.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use rayon::prelude::*;
use walkdir::WalkDir;

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

impl RolloutFile {
    /// Read the size and modification time of a file the walk listed (links not followed).
    pub fn look(self) -> Result<RolloutFile, FileIssue> {
        Listed {
            path: self.path,
            archived: self.archived,
            compressed: self.compressed,
        }
        .stat()
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
    /// The file before it is looked at: its size and modification time unknown (0) until
    /// [`RolloutFile::look`].
    pub fn unlooked(self) -> RolloutFile {
        RolloutFile {
            path: self.path,
            archived: self.archived,
            compressed: self.compressed,
            size: 0,
            mtime_ms: 0,
        }
    }

    /// Read the file's size and modification time (links not followed).
    pub fn stat(self) -> Result<RolloutFile, FileIssue> {
        let meta = std::fs::symlink_metadata(&self.path);
        self.stat_with(meta.map(Looked::Meta))
    }

    /// The file, described by its metadata (as read with links not followed).
    fn stat_with(self, meta: std::io::Result<Looked>) -> Result<RolloutFile, FileIssue> {
        match meta {
            Ok(meta) => Ok(RolloutFile {
                size: meta.size(),
                mtime_ms: meta.mtime_ms(),
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

/// A rollout file name as bytes (see [`is_rollout_name`]).
fn is_rollout_bytes(name: &[u8]) -> bool {
    name.starts_with(b"rollout-") && (name.ends_with(b".jsonl") || name.ends_with(b".jsonl.zst"))
}

fn path_bytes(path: &Path) -> &[u8] {
    path.as_os_str().as_encoded_bytes()
}

/// What a walk found: rollouts by name, and the problems met.
type Found = (Vec<Listed>, Vec<FileIssue>);

/// List one root: every rollout below it (`flat`: directly in it), by name only. The root's
/// subfolders (codex files sessions by year) are walked in parallel, each by walkdir.
fn list_root(root: &Path, archived: bool, flat: bool) -> Found {
    // The root itself may be a link; below it, links are never followed.
    if !root.is_dir() {
        return Found::default();
    }
    let mut subfolders = Vec::new();
    let top = WalkDir::new(root).min_depth(1).max_depth(1);
    let (mut found, mut issues) = walk_tree(top, archived, (!flat).then_some(&mut subfolders));
    let below: Vec<Found> = subfolders
        .par_iter()
        .map(|dir| walk_tree(WalkDir::new(dir).min_depth(1), archived, None))
        .collect();
    for (f, i) in below {
        found.extend(f);
        issues.extend(i);
    }
    (found, issues)
}

/// The rollouts `walk` yields, and the folders it yields into `subfolders` when given.
fn walk_tree(walk: WalkDir, archived: bool, mut subfolders: Option<&mut Vec<PathBuf>>) -> Found {
    let (mut found, mut issues) = Found::default();
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().map(Path::to_path_buf).unwrap_or_default();
                let reason = err
                    .io_error()
                    .map_or_else(|| err.to_string(), ToString::to_string);
                issues.push(FileIssue { path, reason });
                continue;
            }
        };
        let kind = entry.file_type();
        let rollout = is_rollout_bytes(entry.file_name().as_encoded_bytes());
        if let (true, Some(dirs)) = (kind.is_dir(), subfolders.as_deref_mut()) {
            dirs.push(entry.path().to_path_buf());
        }
        if !rollout {
            continue;
        }
        let issue = |reason: &str| FileIssue {
            path: entry.path().to_path_buf(),
            reason: reason.to_owned(),
        };
        // A folder named like a rollout is walked too, and reported.
        if kind.is_symlink() {
            issues.push(issue("symbolic link, not followed"));
        } else if !kind.is_file() {
            issues.push(issue("not a regular file"));
        } else {
            let path = entry.into_path();
            found.push(Listed {
                compressed: path_bytes(&path).ends_with(b".zst"),
                path,
                archived,
            });
        }
    }
    (found, issues)
}

/// Every rollout of a store by name (active ones, and archived ones when asked), in descending
/// path order: rollouts are filed by creation date and named by creation time, so this is
/// close to newest first before any file is looked at (active ones before archived ones).
pub fn list_rollouts(sessions: &Path, archived: Option<&Path>) -> (Vec<Listed>, Vec<FileIssue>) {
    let (mut files, mut issues) = list_root(sessions, false, false);
    if let Some(dir) = archived {
        let (more, problems) = list_root(dir, true, true);
        files.extend(more);
        issues.extend(problems);
    }
    // The plain file wins over its `.zst` twin.
    let mut plain: Vec<&[u8]> = files
        .iter()
        .filter(|l| !l.compressed)
        .map(|l| path_bytes(&l.path))
        .collect();
    plain.sort_unstable();
    let twin = |l: &Listed| {
        let p = path_bytes(&l.path);
        l.compressed && plain.binary_search(&&p[..p.len() - 4]).is_ok()
    };
    let twins: Vec<bool> = files.iter().map(twin).collect();
    let mut twins = twins.into_iter();
    files.retain(|_| !twins.next().unwrap_or(false));
    // As bytes: comparing `Path`s parses them into components.
    files.sort_unstable_by(|a, b| path_bytes(&b.path).cmp(path_bytes(&a.path)));
    issues.sort_by(|a, b| a.path.cmp(&b.path));
    (files, issues)
}

/// Read the metadata of listed files in parallel (on the current rayon pool), keeping their
/// order; a file that cannot be looked at is an issue. The files of one folder are looked at
/// through the open folder (no walk down the path from the root for each file: a third of a
/// warm start's system time went on those walks).
pub fn stat_all(listed: Vec<Listed>) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let folders: Vec<&[Listed]> = listed
        .chunk_by(|a, b| folder_of(a) == folder_of(b))
        .collect();
    let looked: Vec<Result<RolloutFile, FileIssue>> = folders
        .into_par_iter()
        .with_min_len(4)
        .flat_map_iter(stat_folder)
        .collect();
    drop(listed);
    let mut files = Vec::with_capacity(looked.len());
    let mut issues = Vec::new();
    for l in looked {
        match l {
            Ok(file) => files.push(file),
            Err(issue) => issues.push(issue),
        }
    }
    (files, issues)
}

/// The folder part of a listed file's path, as bytes (`Path::parent` parses the path into
/// components).
fn folder_of(l: &Listed) -> &[u8] {
    let p = path_bytes(&l.path);
    &p[..memchr::memrchr(b'/', p).unwrap_or(0)]
}

/// Look at files of one folder through the open folder (each by path when it cannot be
/// opened).
fn stat_folder(files: &[Listed]) -> Vec<Result<RolloutFile, FileIssue>> {
    let folder = files
        .first()
        .and_then(|f| f.path.parent())
        .and_then(|dir| std::fs::File::open(dir).ok());
    files
        .iter()
        .map(|f| match (&folder, f.path.file_name()) {
            (Some(dir), Some(name)) => {
                let stat = rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
                f.clone()
                    .stat_with(stat.map(Looked::Stat).map_err(Into::into))
            }
            _ => f.clone().stat(),
        })
        .collect()
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
/// in descending path order.
pub fn find_rollouts(
    sessions: &Path,
    archived: Option<&Path>,
) -> (Vec<RolloutFile>, Vec<FileIssue>) {
    let (listed, mut issues) = list_rollouts(sessions, archived);
    let (files, more) = stat_all(listed);
    if !more.is_empty() {
        issues.extend(more);
        issues.sort_by(|a, b| a.path.cmp(&b.path));
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

    #[test]
    fn looking_through_the_folder_reads_what_a_plain_metadata_call_reads() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        let day = sessions.join("2025/01/01");
        std::fs::create_dir_all(&day).unwrap();
        for (i, secs) in [0u64, 1, 1_700_000_000].iter().enumerate() {
            let path = day.join(format!("rollout-{i}.jsonl"));
            std::fs::write(&path, vec![b'x'; i * 7 + 1]).unwrap();
            let t = UNIX_EPOCH + std::time::Duration::from_millis(secs * 1000 + 123);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(t)
                .unwrap();
        }
        let (found, issues) = find_rollouts(&sessions, None);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(found.len(), 3);
        for f in found {
            let meta = std::fs::symlink_metadata(&f.path).unwrap();
            assert_eq!((f.size, f.mtime_ms), (meta.len(), mtime_ms(&meta)), "{f:?}");
        }
    }
}
