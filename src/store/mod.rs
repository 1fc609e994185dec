//! The Codex session store, read-only: where it is, which files it holds, what each says.
//!
//! Everything here only reads. Nothing is written, renamed, locked or created under the store;
//! per-file problems come back as [`FileIssue`]s and never stop a run.

pub mod cache;
mod cache_codec;
mod cache_envelope;
mod cache_setup;
pub mod engine;
pub mod fork;
mod home;
pub(crate) mod issues;
pub(crate) mod locks;
pub(crate) mod names;
pub(crate) mod open;
pub mod path_bytes;
pub mod reader;
mod row_cache;
pub mod walk;

pub use cache_setup::CacheSetup;
pub use home::Store;
pub use issues::{FileIssue, Problem};
pub use reader::{not_a_session, row_from_scan, row_from_state, scan_file, summarise};

use std::path::{Path, PathBuf};

/// Why there is no store the program can read.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// `--demo`: the demo store could not be laid out in the cache folder.
    #[error("cannot lay out the demo store: {0}")]
    Demo(#[source] std::io::Error),
    /// No flag, no `$CODEX_HOME` and no `$HOME`.
    #[error("cannot find a Codex home: set --codex-home DIR or $CODEX_HOME (or try --demo)")]
    NoHome,
    /// The home has no sessions folder, and there are no Claude Code sessions either (at the
    /// second path, when there is one to look in).
    #[error(
        "no Codex sessions at {}{} (use --codex-home DIR or $CODEX_HOME to point at a Codex home, --claude-home DIR for Claude Code's, or --demo to try the built-in demo store)",
        crate::sanitize::path_line(.0),
        .1.as_deref().map(|c| format!(" nor Claude Code sessions at {}", crate::sanitize::path_line(c))).unwrap_or_default()
    )]
    NoSessions(PathBuf, Option<PathBuf>),
}

/// The store at `codex_home` (else `$CODEX_HOME`, else `~/.codex`) with Claude Code's at
/// `claude_home` (else `$CLAUDE_CONFIG_DIR`, else `~/.claude`) beside it, or the demo store laid
/// out in the cache folder when `demo`; or why there is none. Either part may be missing, not
/// both.
pub fn resolve(
    codex_home: Option<&Path>,
    claude_home: Option<&Path>,
    demo: bool,
) -> Result<Store, StoreError> {
    if demo {
        let home =
            crate::demo::materialize(&crate::paths::cache_dir()).map_err(StoreError::Demo)?;
        return Ok(Store::codex(home));
    }
    let env = std::env::var_os("CODEX_HOME");
    let home = std::env::var_os("HOME");
    let claude_env = std::env::var_os("CLAUDE_CONFIG_DIR");
    let claude =
        crate::sources::claude::locate(claude_home, claude_env.as_deref(), home.as_deref());
    let store = Store::locate(codex_home, env.as_deref(), home.as_deref())
        .ok_or(StoreError::NoHome)?
        .with_claude(claude);
    if !store.exists() {
        let projects = store.claude_projects();
        return Err(StoreError::NoSessions(store.home, projects));
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
