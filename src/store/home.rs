//! A located store: Codex's home folder (the folders and names file under it) and, beside it,
//! Claude Code's config folder; the session files of both, each marked with its source.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use super::issues::FileIssue;
use super::names;
use super::path_bytes::path_bytes;
use super::walk::{self, RolloutFile};
use crate::sources::claude;

/// A located store: `<home>/sessions`, `<home>/archived_sessions`, `<home>/session_index.jsonl`,
/// and Claude Code's `<claude>/projects` when it is read too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    pub home: PathBuf,
    /// Claude Code's config folder (the one holding `projects/`), when its sessions are read
    /// beside Codex's.
    pub claude: Option<PathBuf>,
}

impl Store {
    /// Codex's store at `home` alone.
    pub fn codex(home: PathBuf) -> Store {
        Store { home, claude: None }
    }

    /// This store with Claude Code's sessions under `claude` read beside it.
    #[must_use]
    pub fn with_claude(self, claude: Option<PathBuf>) -> Store {
        Store { claude, ..self }
    }

    /// What names this store's caches (and is written inside them): the Codex home, with
    /// Claude Code's `projects/` folder when there is one, so that a store read with another
    /// Claude Code folder (another `$CLAUDE_CONFIG_DIR`) keeps caches of its own instead of
    /// reading the other's sessions again on every switch. Not a path to open.
    pub fn cache_home(&self) -> PathBuf {
        let Some(projects) = self.claude_projects().filter(|p| p.is_dir()) else {
            return self.home.clone();
        };
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let mut key = canonical(&self.home).into_os_string();
        // A NUL is in no path: the key is never a real folder's.
        key.push("\0claude:");
        key.push(canonical(&projects));
        PathBuf::from(key)
    }

    /// Claude Code's `projects/` folder, when its sessions are read.
    pub fn claude_projects(&self) -> Option<PathBuf> {
        self.claude.as_deref().map(claude::projects_dir)
    }

    /// `--codex-home`, else `$CODEX_HOME` when set and non-empty, else `~/.codex`. Any bytes
    /// a Unix path may hold are kept as they are.
    pub fn locate(
        flag: Option<&Path>,
        codex_home_env: Option<&std::ffi::OsStr>,
        home_env: Option<&std::ffi::OsStr>,
    ) -> Option<Store> {
        if let Some(dir) = flag {
            return Some(Store::codex(dir.to_path_buf()));
        }
        if let Some(env) = codex_home_env.filter(|s| !s.is_empty()) {
            return Some(Store::codex(PathBuf::from(env)));
        }
        home_env
            .filter(|s| !s.is_empty())
            .map(|h| Store::codex(Path::new(h).join(".codex")))
    }

    pub fn sessions_dir(&self) -> PathBuf {
        self.home.join("sessions")
    }

    pub fn archived_dir(&self) -> PathBuf {
        self.home.join("archived_sessions")
    }

    /// The store has a `sessions/` or `archived_sessions/` folder, or Claude Code's
    /// `projects/` folder.
    pub fn exists(&self) -> bool {
        self.codex_exists() || self.claude_projects().is_some_and(|p| p.is_dir())
    }

    /// Codex's part has a `sessions/` or `archived_sessions/` folder.
    pub fn codex_exists(&self) -> bool {
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
        let walk_codex = || {
            if look {
                walk::find_rollouts(&self.sessions_dir(), archived)
            } else {
                walk::list_rollouts(&self.sessions_dir(), archived)
            }
        };
        let Some(projects) = self.claude_projects() else {
            return walk_codex();
        };
        let ((mut files, mut issues), (claude_files, claude_issues)) =
            rayon::join(walk_codex, || claude::walk::walk(&projects, look));
        issues.extend(claude_issues);
        if !claude_files.is_empty() {
            files.extend(claude_files);
            // One list in descending path order, as the engine merges it with the cache.
            files.par_sort_unstable_by(|a, b| path_bytes(&b.path).cmp(path_bytes(&a.path)));
        }
        (files, issues)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_claude_code_folder_beside_a_codex_home_has_caches_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let codex = dir.path().join("codex");
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for claude in [&a, &b] {
            std::fs::create_dir_all(claude.join("projects")).unwrap();
        }
        let alone = Store::codex(codex.clone());
        // No Claude Code sessions: the caches are Codex's alone, named as they always were.
        assert_eq!(alone.cache_home(), codex);
        let missing = alone.clone().with_claude(Some(dir.path().join("none")));
        assert_eq!(missing.cache_home(), codex);
        let with_a = alone.clone().with_claude(Some(a)).cache_home();
        let with_b = alone.with_claude(Some(b)).cache_home();
        assert_ne!(with_a, codex);
        assert_ne!(with_a, with_b);
    }
}
