//! A located store: its home folder, the folders and names file under it, and its rollouts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::issues::FileIssue;
use super::names;
use super::walk::{self, RolloutFile};

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
