//! The content index in its cache folder, brought up to date with the store: the one way the
//! picker's indexer and `list --content` get it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::build::{self, BuildStats};
use super::ContentIndex;
use crate::store::walk::RolloutFile;

/// The index folder for the cache location `cache` (a `content-<home>.cache` path, as
/// `store::cache::located` names it).
pub(crate) fn index_dir(cache: &Path) -> PathBuf {
    cache.with_extension("index")
}

/// The content index of the sessions among `walked` (every rollout of the store, as the index
/// engine found it, with its session id when it is one; the others are fork parents), named by
/// `names` (session id to name, as `Store::names` reads them), kept in
/// the folder for `cache` when there is one, else built in memory, read on the current rayon
/// pool. `progress(done, total, index)` is called after each committed batch with
/// the index searchable so far; when it returns false the build stops and `None` is returned.
pub(crate) fn refresh(
    cache: Option<&Path>,
    walked: &[(RolloutFile, Option<String>)],
    names: &HashMap<String, String>,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize, &ContentIndex) -> bool,
) -> Option<(ContentIndex, BuildStats)> {
    let (files, ids): (Vec<RolloutFile>, Vec<Option<String>>) = walked.iter().cloned().unzip();
    refresh_summarising(cache, &files, &ids, names, threads, progress, &mut |_| {})
}

/// [`refresh`] of the walked `files`, each with its session id in `ids`, that hands
/// `read_whole` each batch of sessions it read, with the row summary's pass over each
/// ([`build::build_summarising`]).
pub(crate) fn refresh_summarising(
    cache: Option<&Path>,
    files: &[RolloutFile],
    ids: &[Option<String>],
    names: &HashMap<String, String>,
    threads: usize,
    progress: &mut dyn FnMut(usize, usize, &ContentIndex) -> bool,
    read_whole: &mut dyn FnMut(Vec<build::WholePass>),
) -> Option<(ContentIndex, BuildStats)> {
    let targets = build::targets_for(files, ids, names);
    // The in-memory index of earlier versions was one file at the cache location; nothing
    // reads it any more.
    if let Some(old) = cache.filter(|c| c.is_file()) {
        let _ = std::fs::remove_file(old);
    }
    let dir = cache.map(index_dir);
    build::build_summarising(
        dir.as_deref(),
        &targets,
        files,
        threads,
        progress,
        read_whole,
    )
}
