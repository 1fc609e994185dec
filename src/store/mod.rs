//! The Codex session store, read-only: where it is, which files it holds, what each says.
//!
//! Everything here only reads. Nothing is written, renamed, locked or created under the store;
//! per-file problems come back as [`FileIssue`]s and never stop a run.

pub mod cache;
mod cache_codec;
mod cache_setup;
pub mod engine;
pub mod fork;
pub(crate) mod issues;
pub(crate) mod locks;
pub(crate) mod names;
pub(crate) mod open;
pub mod path_bytes;
pub mod reader;
pub mod walk;

pub use cache_setup::CacheSetup;
pub use reader::{not_a_session, row_from_scan, row_from_state, scan_file, summarise};

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use walk::RolloutFile;

/// A file (or folder) that was passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileIssue {
    pub path: PathBuf,
    pub reason: String,
}

impl fmt::Display for FileIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "codex-picker: {}: {}", self.path.display(), self.reason)
    }
}

/// A located store: `<home>/sessions`, `<home>/archived_sessions`, `<home>/session_index.jsonl`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    pub home: PathBuf,
}

impl Store {
    /// `--codex-home`, else `$CODEX_HOME` when set and non-empty, else `~/.codex`. Any bytes
    /// a Unix path may hold are kept as they are.
    pub fn locate(
        flag: Option<&Path>,
        codex_home_env: Option<&std::ffi::OsStr>,
        home_env: Option<&std::ffi::OsStr>,
    ) -> Option<Store> {
        if let Some(dir) = flag {
            return Some(Store {
                home: dir.to_path_buf(),
            });
        }
        if let Some(env) = codex_home_env.filter(|s| !s.is_empty()) {
            return Some(Store {
                home: PathBuf::from(env),
            });
        }
        home_env.filter(|s| !s.is_empty()).map(|h| Store {
            home: Path::new(h).join(".codex"),
        })
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.home.join("sessions")
    }

    pub fn archived_dir(&self) -> PathBuf {
        self.home.join("archived_sessions")
    }

    /// The store has a `sessions/` or `archived_sessions/` folder.
    pub fn exists(&self) -> bool {
        self.sessions_dir().is_dir() || self.archived_dir().is_dir()
    }

    /// Rollout files, archived ones too when asked, with their metadata (read on the current
    /// rayon pool), newest name first.
    pub fn files(&self, archived: bool) -> (Vec<RolloutFile>, Vec<FileIssue>) {
        self.walk(archived, true)
    }

    /// Every rollout, newest name first, walked on the current rayon pool; with `look`, with
    /// its size and modification time (else 0, see [`RolloutFile::look`]).
    pub fn walk(&self, archived: bool, look: bool) -> (Vec<RolloutFile>, Vec<FileIssue>) {
        let archived_dir = self.archived_dir();
        let archived = archived.then_some(archived_dir.as_path());
        if look {
            walk::find_rollouts(&self.sessions_dir(), archived)
        } else {
            walk::list_rollouts(&self.sessions_dir(), archived)
        }
    }

    /// The names file, `session_index.jsonl`.
    pub fn names_file(&self) -> PathBuf {
        self.home.join("session_index.jsonl")
    }

    /// Names from the names file.
    pub fn names(&self) -> HashMap<String, String> {
        names::read_session_index(&self.names_file())
    }
}

/// Why there is no store the program can read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `--demo`: the demo store could not be laid out in the cache folder.
    #[error("cannot lay out the demo store: {0}")]
    Demo(#[source] std::io::Error),
    /// No flag, no `$CODEX_HOME` and no `$HOME`.
    #[error("cannot find a Codex home: set --codex-home DIR or $CODEX_HOME (or try --demo)")]
    NoHome,
    /// The home has no sessions folder.
    #[error(
        "no Codex sessions at {} (use --codex-home DIR or $CODEX_HOME to point at a Codex home, or --demo to try the built-in demo store)",
        crate::sanitize::path_line(.0)
    )]
    NoSessions(PathBuf),
}

/// The store at `codex_home` (else `$CODEX_HOME`, else `~/.codex`), or the demo store laid out
/// in the cache folder when `demo`; or why there is none.
pub fn resolve(codex_home: Option<&Path>, demo: bool) -> Result<Store, StoreError> {
    if demo {
        let home =
            crate::demo::materialize(&crate::paths::cache_dir()).map_err(StoreError::Demo)?;
        return Ok(Store { home });
    }
    let env = std::env::var_os("CODEX_HOME");
    let home = std::env::var_os("HOME");
    let store =
        Store::locate(codex_home, env.as_deref(), home.as_deref()).ok_or(StoreError::NoHome)?;
    if !store.exists() {
        return Err(StoreError::NoSessions(store.home));
    }
    Ok(store)
}

/// Free a large structure on a thread of its own: tens of thousands of small frees are not
/// worth waiting for on the way to the output.
pub fn drop_later<T: Send + 'static>(value: T) {
    // When no thread can be had, the failed spawn frees the value here.
    let _ = std::thread::Builder::new().spawn(move || drop(value));
}

/// Threads worth using for reading: the machine's cores, at most 8.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().min(8))
}
