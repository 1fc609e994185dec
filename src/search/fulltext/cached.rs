//! The content index in its cache folder, brought up to date with the store: the one way the
//! picker's indexer and `list --content` get it, as a tap on the index engine's run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::tap::{ContentTap, Progress};

/// The index folder for the cache location `cache` (a `content-<home>.cache` path, as
/// `store::cache::located` names it).
pub(crate) fn index_dir(cache: &Path) -> PathBuf {
    cache.with_extension("index")
}

/// The content index kept in the folder for `cache` when there is one, else in memory, as a
/// tap for a run that reads the store's sessions whole: it is brought up to date with the
/// sessions the run walks, named by `names` (session id to name, as `Store::names` reads them),
/// written on up to `threads` threads. `progress(done, total, index)` is told at the start
/// and after each committed batch, with the index searchable so far; when it returns false
/// the run stops.
pub(crate) fn tap(
    cache: Option<&Path>,
    names: HashMap<String, String>,
    threads: usize,
    progress: Progress,
) -> Option<ContentTap> {
    // The in-memory index of earlier versions was one file at the cache location; nothing
    // reads it any more.
    if let Some(old) = cache.filter(|c| c.is_file()) {
        let _ = std::fs::remove_file(old);
    }
    let dir = cache.map(index_dir);
    ContentTap::open(dir.as_deref(), names, threads, progress)
}
