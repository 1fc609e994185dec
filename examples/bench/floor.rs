//! The walk-and-stat floor: what any warm start must at least do to see which files changed.
//! Every folder of the store is listed (`sessions/` at any depth, `archived_sessions/` flat, and
//! when the store has a Claude Code part, `claude/projects/` and each project folder in it) and
//! every session file in it is looked at (its size and mtime, links not followed, through the
//! open folder: a rollout of Codex's, a `<id>.jsonl` of Claude Code's), on the benchmark's
//! threads, each folder whole by one of them. Nothing else: no path kept, no list built,
//! nothing sorted.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

/// What a folder of the store holds.
#[derive(Clone, Copy, PartialEq)]
enum Folder {
    /// Codex's `sessions/` and its year, month and day folders.
    Sessions,
    /// Codex's `archived_sessions/`.
    Archived,
    /// Claude Code's `projects/`: a folder for each project.
    Projects,
    /// One project's folder: its sessions (its `<id>/` folders are not walked).
    Project,
}

impl Folder {
    /// What a subfolder of this one holds, if it is walked.
    fn below(self) -> Option<Folder> {
        match self {
            Folder::Sessions => Some(Folder::Sessions),
            Folder::Projects => Some(Folder::Project),
            Folder::Archived | Folder::Project => None,
        }
    }

    /// Whether a file of this folder named `name` is a session.
    fn session(self, name: &[u8]) -> bool {
        match self {
            Folder::Sessions | Folder::Archived => {
                name.starts_with(b"rollout-")
                    && (name.ends_with(b".jsonl") || name.ends_with(b".jsonl.zst"))
            }
            Folder::Project => name.ends_with(b".jsonl") && !name.starts_with(b"agent-"),
            Folder::Projects => false,
        }
    }
}

struct Queue {
    /// Folders to list, and what they hold.
    dirs: Vec<(PathBuf, Folder)>,
    busy: usize,
}

/// Walk the store of `home` (and its Claude Code part under `claude`) on `threads` threads;
/// returns the session files looked at and their bytes (so that nothing is optimised away).
pub fn walk_and_stat(home: &Path, claude: &Path, threads: usize) -> (usize, u64) {
    let queue = Mutex::new(Queue {
        dirs: vec![
            (home.join("sessions"), Folder::Sessions),
            (home.join("archived_sessions"), Folder::Archived),
            (claude.join("projects"), Folder::Projects),
        ],
        busy: 0,
    });
    let more = Condvar::new();
    let work = || {
        let (mut files, mut bytes) = (0, 0);
        let mut subdirs = Vec::new();
        loop {
            let mut q = queue.lock().unwrap();
            let (dir, folder) = loop {
                if let Some(d) = q.dirs.pop() {
                    q.busy += 1;
                    break d;
                }
                if q.busy == 0 {
                    more.notify_all();
                    return (files, bytes);
                }
                q = more.wait(q).unwrap();
            };
            drop(q);
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                if kind.is_dir() {
                    if let Some(below) = folder.below() {
                        subdirs.push((entry.path(), below));
                    }
                } else if kind.is_file() && folder.session(entry.file_name().as_encoded_bytes()) {
                    if let Ok(meta) = entry.metadata() {
                        files += 1;
                        bytes += meta.len();
                    }
                }
            }
            let mut q = queue.lock().unwrap();
            q.busy -= 1;
            q.dirs.append(&mut subdirs);
            drop(q);
            more.notify_all();
        }
    };
    std::thread::scope(|s| {
        let others: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let (mut files, mut bytes) = work();
        for o in others {
            let (f, b) = o.join().unwrap();
            files += f;
            bytes += b;
        }
        (files, bytes)
    })
}
