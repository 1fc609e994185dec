//! Where codex-picker keeps its own files: the user's cache folder, never the Codex home.

use std::path::PathBuf;

/// `$XDG_CACHE_HOME/codex-picker`, else `~/.cache/codex-picker`, else a folder in the temp dir.
pub(crate) fn cache_dir() -> PathBuf {
    let xdg = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty());
    if let Some(dir) = xdg {
        return PathBuf::from(dir).join("codex-picker");
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home).join(".cache").join("codex-picker"),
        None => std::env::temp_dir().join("codex-picker"),
    }
}
