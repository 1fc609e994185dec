//! The content index kept in its cache file: loaded when it is there, brought up to date with
//! the store (unchanged files copied, the rest read), and saved when anything changed. The
//! picker's indexer and `list --content` both get their index here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::build::{self, BuildStats};
use super::ContentIndex;
use crate::store::walk::RolloutFile;

/// What [`refresh`] did besides building.
#[derive(Debug, Default)]
pub struct Refreshed {
    pub stats: BuildStats,
    /// Saving the cache failed (the index is still right).
    pub save_error: Option<String>,
}

/// The content index of the sessions `ids` (path -> session id) among `files` (every rollout
/// of the store, for fork parents), through the cache file `cache` when there is one.
/// `progress(done, total)` is called now and then; when it returns false the build stops and
/// `None` is returned.
pub fn refresh(
    cache: Option<&Path>,
    ids: &HashMap<PathBuf, String>,
    files: &[RolloutFile],
    threads: usize,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Option<(ContentIndex, Refreshed)> {
    let targets = build::targets_for(files, ids);
    let previous = cache.and_then(|c| build::load(c).ok());
    let previous_len = previous.as_ref().map(ContentIndex::len);
    let (index, stats) = build::build(previous, &targets, files, threads, progress)?;
    let unchanged = stats.read == 0 && previous_len == Some(index.len());
    let mut save_error = None;
    if let (Some(file), false) = (cache, unchanged) {
        save_error = build::save(&index, file).err().map(|e| e.to_string());
    }
    Some((index, Refreshed { stats, save_error }))
}
