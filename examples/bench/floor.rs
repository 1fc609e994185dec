//! The walk-and-stat floor: what any warm start must at least do to see which files changed.
//! Every folder of the store is listed (`sessions/` at any depth, `archived_sessions/` flat) and
//! every rollout in it is looked at (its size and mtime, links not followed, through the open
//! folder), on the benchmark's threads, each folder whole by one of them. Nothing else: no path
//! kept, no list built, nothing sorted.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

struct Queue {
    /// Folders to list, and whether their subfolders are walked.
    dirs: Vec<(PathBuf, bool)>,
    busy: usize,
}

/// Walk the store of `home` on `threads` threads; returns the rollouts looked at and their
/// bytes (so that nothing is optimised away).
pub fn walk_and_stat(home: &Path, threads: usize) -> (usize, u64) {
    let queue = Mutex::new(Queue {
        dirs: vec![
            (home.join("sessions"), true),
            (home.join("archived_sessions"), false),
        ],
        busy: 0,
    });
    let more = Condvar::new();
    let work = || {
        let (mut files, mut bytes) = (0, 0);
        let mut subdirs = Vec::new();
        loop {
            let mut q = queue.lock().unwrap();
            let (dir, deep) = loop {
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
                if kind.is_dir() && deep {
                    subdirs.push((entry.path(), true));
                } else if kind.is_file() {
                    let name = entry.file_name();
                    let name = name.as_encoded_bytes();
                    let rollout = name.starts_with(b"rollout-")
                        && (name.ends_with(b".jsonl") || name.ends_with(b".jsonl.zst"));
                    if let (true, Ok(meta)) = (rollout, entry.metadata()) {
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
