//! The cache folder's policy: where a run keeps its caches (if anywhere) and whether the
//! picker builds its content index. Every caller of the store's caches goes through it.

use std::path::{Path, PathBuf};

/// Where the caches are and whether the picker builds its content index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheSetup {
    /// The cache folder; `None` reads everything afresh and writes nothing (`--no-cache`).
    pub dir: Option<PathBuf>,
    /// Build the content index (the whole read's tap).
    pub content: bool,
}

impl CacheSetup {
    /// The user's cache folder when `cached`, else none; content index on.
    pub fn new(cached: bool) -> Self {
        CacheSetup {
            dir: cached.then(crate::paths::cache_dir),
            content: true,
        }
    }

    /// The cache file of `kind` for the store at `home`, if caching is on and the file would
    /// not be inside the Codex home.
    pub fn file(&self, home: &Path, kind: &str) -> Option<PathBuf> {
        super::cache::located(self.dir.as_deref(), home, kind)
    }
}
