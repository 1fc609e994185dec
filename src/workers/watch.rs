//! The store watcher: while the picker is open, says when the store has changed, so it is read
//! again (new sessions, grown, rewritten, archived and deleted ones). It watches `sessions/`
//! (every depth), `archived_sessions/` and the home itself for `session_index.jsonl` (the
//! names), through the `notify` crate (inotify, FSEvents, kqueue), and passes over everything
//! else codex writes there (its databases, logs, locks). A burst of changes is one tick, at
//! most one every [`SETTLE`]. Where watching cannot be set up (no such support, no watches
//! left), it ticks every [`FALLBACK`] instead: the indexer's re-read is a re-stat that reads only
//! what changed.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};

use crate::store::Store;
use crate::workers::wake::{self, Waker};

/// How long the store must stay quiet after a change before the tick (a session being
/// written changes many times a second).
pub(crate) const SETTLE: Duration = Duration::from_millis(250);

/// How often the store is looked at again when it cannot be watched.
pub(crate) const FALLBACK: Duration = Duration::from_secs(2);

/// A tick: the store changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Changed;

/// Watch `store`: the ticks, each waking the loop through `waker`. The watches are set up on
/// the thread (a recursive watch walks every folder), which then ticks once, for what changed
/// before they were in place; it stops when the receiver is dropped.
pub(crate) fn spawn(store: &Store, waker: Waker) -> Receiver<Changed> {
    let (tx, rx) = wake::channel(waker);
    let home = store.home.clone();
    let _ = thread::Builder::new()
        .name("store-watch".into())
        .spawn(move || {
            let (raw_tx, raw) = mpsc::channel::<()>();
            // The watcher lives as long as the thread: dropping it stops the watching.
            let watcher = start(&home, raw_tx);
            if tx.send(Changed).is_err() {
                return;
            }
            match watcher {
                Some(_watcher) => debounce(&raw, &tx),
                None => loop {
                    thread::sleep(FALLBACK);
                    if tx.send(Changed).is_err() {
                        return;
                    }
                },
            }
        });
    rx
}

/// A watcher of the store's session folders and its names file, sending `()` for each change
/// that matters; `None` when none can be set up.
fn start(home: &Path, tx: Sender<()>) -> Option<notify::RecommendedWatcher> {
    let sessions = home.join("sessions");
    let archived = home.join("archived_sessions");
    let filter = Filter {
        sessions: sessions.clone(),
        archived: archived.clone(),
        home: home.to_path_buf(),
    };
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Opening and reading (the picker's own reads among them) change nothing.
        let change = event.is_ok_and(|e| {
            !matches!(e.kind, notify::EventKind::Access(_))
                && e.paths.iter().any(|p| filter.matters(p))
        });
        if change {
            let _ = tx.send(());
        }
    })
    .ok()?;
    // The home non-recursively: the names file, and the session folders appearing.
    watcher.watch(home, RecursiveMode::NonRecursive).ok()?;
    if sessions.is_dir() {
        watcher.watch(&sessions, RecursiveMode::Recursive).ok()?;
    }
    if archived.is_dir() {
        watcher.watch(&archived, RecursiveMode::NonRecursive).ok()?;
    }
    Some(watcher)
}

/// Which changed paths are the store's.
struct Filter {
    sessions: PathBuf,
    archived: PathBuf,
    home: PathBuf,
}

impl Filter {
    fn matters(&self, path: &Path) -> bool {
        if path.starts_with(&self.sessions) || path.starts_with(&self.archived) {
            return true;
        }
        path.parent() == Some(self.home.as_path())
            && path.file_name().is_some_and(|n| n == "session_index.jsonl")
    }
}

/// One tick per burst: after a change, wait until the store has been quiet for [`SETTLE`].
fn debounce(raw: &Receiver<()>, tx: &wake::Sender<Changed>) {
    while raw.recv().is_ok() {
        loop {
            match raw.recv_timeout(SETTLE) {
                Ok(()) => continue,
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        if tx.send(Changed).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn only_the_stores_own_paths_matter() {
        let f = Filter {
            sessions: "/h/sessions".into(),
            archived: "/h/archived_sessions".into(),
            home: "/h".into(),
        };
        assert!(f.matters(Path::new("/h/sessions/2026/11/30/rollout-x.jsonl")));
        assert!(f.matters(Path::new("/h/sessions")));
        assert!(f.matters(Path::new("/h/archived_sessions/rollout-x.jsonl")));
        assert!(f.matters(Path::new("/h/session_index.jsonl")));
        assert!(!f.matters(Path::new("/h/logs_2.sqlite-wal")));
        assert!(!f.matters(Path::new("/h/state_5.sqlite")));
        assert!(!f.matters(Path::new("/h/sub/session_index.jsonl")));
    }

    #[test]
    fn a_new_session_file_is_one_tick() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::codex(dir.path().to_path_buf());
        let day = dir.path().join("sessions/2026/11/30");
        std::fs::create_dir_all(&day).unwrap();
        let ticks = spawn(&store, Waker::noop());
        assert_eq!(
            ticks.recv_timeout(Duration::from_secs(5)),
            Ok(Changed),
            "one tick once the watches are set up"
        );
        // A new day folder and a file in it, written in several steps: one tick.
        let later = dir.path().join("sessions/2026/12/01");
        std::fs::create_dir_all(&later).unwrap();
        thread::sleep(Duration::from_millis(50));
        for i in 0..5 {
            std::fs::write(later.join("rollout-a.jsonl"), format!("{i}\n")).unwrap();
        }
        let start = Instant::now();
        assert_eq!(ticks.recv_timeout(Duration::from_secs(5)), Ok(Changed));
        assert!(
            start.elapsed() < FALLBACK / 2,
            "watched: the tick follows the change, not the fallback's clock"
        );
        assert!(
            ticks.recv_timeout(SETTLE * 3).is_err(),
            "a burst of changes is one tick"
        );
        // codex's own databases beside the sessions do not count, nor reading a session.
        std::fs::write(dir.path().join("logs_2.sqlite"), "x").unwrap();
        std::fs::read(later.join("rollout-a.jsonl")).unwrap();
        assert!(
            ticks.recv_timeout(SETTLE * 3).is_err(),
            "watched, not looked at every 2 s"
        );
    }
}
