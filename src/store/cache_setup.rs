//! The cache folder's policy: where a run keeps its caches (if anywhere) and whether the
//! picker builds its content index. Every caller of the store's caches goes through it.

use std::path::PathBuf;

use super::Store;

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

    /// The cache file of `kind` for `store` (named by [`Store::cache_home`]), if caching is on
    /// and the file would not be inside the Codex home.
    pub fn store_file(&self, store: &Store, kind: &str) -> Option<PathBuf> {
        let file = super::cache::cache_file(self.dir.as_deref()?, &store.cache_home(), kind);
        super::cache::allowed(&file, &store.home).then_some(file)
    }
}
