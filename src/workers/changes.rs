//! The store-change thread: runs codex's own `archive`, `unarchive` and `delete`, and renames
//! through codex's app-server, for the picker, one at a time and off the event loop (codex
//! takes a few hundred milliseconds to start), and says where the session's file is
//! afterwards (or the name codex stored), so the list can follow it without a re-read. It
//! never touches a file itself: it only looks where codex put it. It is a
//! [`job`](crate::workers::job): the picker allows one change at a time, so no change waiting
//! is ever replaced by a newer one.

use std::path::{Path, PathBuf};

use crate::codex::{Change, Codex, CodexError};
use crate::store::Store;
use crate::workers::job::{Reply, SingleJob, Work};
use crate::workers::wake::Waker;

/// A change asked for by the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub change: Change,
    pub id: String,
    /// The session's file when asked.
    pub path: PathBuf,
}

/// Where the session is once codex has done the change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    /// Archived or unarchived: its file is now here.
    Moved(PathBuf),
    /// Deleted: its file is gone.
    Gone,
    /// codex said it was done, but the file is not where codex keeps such files.
    Lost,
    /// Renamed: the name codex stored.
    Named(String),
}

/// Why a change was not done.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChangeError {
    /// codex could not be run, or said no.
    #[error(transparent)]
    Codex(#[from] CodexError),
    /// codex said it deleted the session, and its file is still there.
    #[error("codex said it deleted the session, but {} is still there", crate::sanitize::path_line(.0))]
    StillThere(PathBuf),
}

/// A change done, or codex's reason why not.
#[derive(Debug, Clone)]
pub struct Done {
    pub request: Request,
    pub result: Result<After, ChangeError>,
}

/// The store-change thread's state: codex, and the store it changes.
pub(crate) struct Changes {
    codex: Codex,
    store: Store,
}

impl Work for Changes {
    type Note = std::convert::Infallible;
    type Ask = Request;
    type Answer = Done;

    fn note(&mut self, note: Self::Note) {
        match note {}
    }

    fn run(&mut self, request: Request, reply: &mut Reply<'_, Self>) {
        let result = run(&self.codex, &self.store, &request);
        reply.send(Done { request, result });
    }
}

/// Start the thread; each change done wakes the loop through `waker`. It stops when the job
/// is dropped.
pub(crate) fn spawn(codex: Codex, store: Store, waker: Waker) -> SingleJob<Changes> {
    SingleJob::spawn("store-changes", Changes { codex, store }, waker)
}

/// Run one change and find the session's file (or its name) afterwards.
pub(crate) fn run(codex: &Codex, store: &Store, req: &Request) -> Result<After, ChangeError> {
    let change = &req.change;
    match change {
        Change::Rename(name) => Ok(codex.rename(&req.id, name).map(After::Named)?),
        Change::Delete => {
            codex.change(change, &req.id)?;
            if req.path.exists() {
                return Err(ChangeError::StillThere(req.path.clone()));
            }
            Ok(After::Gone)
        }
        Change::Archive => {
            codex.change(change, &req.id)?;
            Ok(archived_file(store, &req.path).map_or(After::Lost, After::Moved))
        }
        Change::Unarchive => {
            codex.change(change, &req.id)?;
            Ok(active_file(store, &req.path).map_or(After::Lost, After::Moved))
        }
    }
}

/// An archived rollout keeps its name in the flat `archived_sessions/`.
fn archived_file(store: &Store, was: &Path) -> Option<PathBuf> {
    let path = store.archived_dir().join(was.file_name()?);
    path.is_file().then_some(path)
}

/// An unarchived rollout goes back under `sessions/`, in the folder of its creation date
/// (`sessions/2026/11/30/rollout-2026-11-30T...`); anywhere else under it is looked for by name.
fn active_file(store: &Store, was: &Path) -> Option<PathBuf> {
    let name = was.file_name()?;
    let text = name.to_str()?;
    let dated = text
        .strip_prefix("rollout-")
        .and_then(|rest| rest.get(..10))
        .and_then(|date| {
            let mut parts = date.split('-');
            Some(
                store
                    .sessions_dir()
                    .join(parts.next()?)
                    .join(parts.next()?)
                    .join(parts.next()?)
                    .join(name),
            )
        });
    if let Some(path) = dated.filter(|p| p.is_file()) {
        return Some(path);
    }
    let (listed, _) = crate::store::walk::list_rollouts(&store.sessions_dir(), None);
    listed
        .into_iter()
        .map(|l| l.path)
        .find(|p| p.file_name() == Some(name))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    const NAME: &str = "rollout-2026-11-30T10-02-23-01a22be7-d5e8-7403-838f-ec0f2a043a4c.jsonl";
    const ID: &str = "01a22be7-d5e8-7403-838f-ec0f2a043a4c";

    /// A stand-in codex that moves and removes files as codex 0.171 does.
    fn stand_in(dir: &Path) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let script = dir.join("codex");
        std::fs::write(
            &script,
            r#"#!/bin/sh
[ "$1" = --version ] && { echo 'codex-cli 0.171.0'; exit 0; }
h="$CODEX_HOME"
case "$1" in
archive) f=$(find "$h/sessions" -name "*$2.jsonl"); [ -n "$f" ] || { echo 'Error: failed to archive session' >&2; exit 1; }
  mkdir -p "$h/archived_sessions"; mv "$f" "$h/archived_sessions/" ;;
unarchive) f=$(find "$h/archived_sessions" -name "*$2.jsonl"); [ -n "$f" ] || exit 1
  n=$(basename "$f"); d=$(echo "$n" | sed 's/^rollout-\(....\)-\(..\)-\(..\).*/\1\/\2\/\3/')
  mkdir -p "$h/sessions/$d"; mv "$f" "$h/sessions/$d/" ;;
delete) rm -f $(find "$h" -name "*$3.jsonl") ;;
esac
"#,
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        script
    }

    #[test]
    fn the_session_is_followed_through_archive_unarchive_and_delete() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::codex(dir.path().join("home"));
        let day = store.sessions_dir().join("2026/11/30");
        std::fs::create_dir_all(&day).unwrap();
        std::fs::write(day.join(NAME), "{}\n").unwrap();
        let codex = Codex::new(Some(stand_in(dir.path())), &store.home, None);
        let ask = |change, path: &Path| Request {
            change,
            id: ID.into(),
            path: path.to_path_buf(),
        };

        let archived = store.archived_dir().join(NAME);
        let after = run(&codex, &store, &ask(Change::Archive, &day.join(NAME)));
        assert_eq!(after.unwrap(), After::Moved(archived.clone()));

        let again = run(&codex, &store, &ask(Change::Archive, &day.join(NAME)));
        assert_eq!(
            again.unwrap_err().to_string(),
            "codex archive failed: failed to archive session"
        );

        let after = run(&codex, &store, &ask(Change::Unarchive, &archived));
        assert_eq!(after.unwrap(), After::Moved(day.join(NAME)));

        let after = run(&codex, &store, &ask(Change::Delete, &day.join(NAME)));
        assert_eq!(after.unwrap(), After::Gone);
        assert!(!day.join(NAME).exists());
    }
}
