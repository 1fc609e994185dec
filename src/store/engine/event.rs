//! What a run hands out: rows (made, or kept lines), and the events its sink is told.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::settled::Stats;
use crate::rollout::summary::{ScanState, UsageView};
use crate::session::SessionRow;
use crate::store::cache::{RowCache, Unusable};
use crate::store::walk::RolloutFile;
use crate::store::FileIssue;
use crate::timefmt::Millis;

/// A session's row as a run hands it out.
#[derive(Debug, Clone)]
pub enum Row {
    /// Made in this run (read, or decoded from the cache). Behind a pointer: most rows of a
    /// warm `list` are [`Row::Kept`], a few words each; shared, so the picker keeps (and hands
    /// its search thread) the row as made instead of copies of it.
    Made(Arc<SessionRow>),
    /// Unchanged since the cache kept its output line (only with [`Kind::List`]'s lines), or
    /// its whole state (only with [`Kind::States`]).
    Kept(Kept),
}

/// An unchanged session of the rows cache: what it sorts by, its output line and its state.
#[derive(Debug, Clone)]
pub struct Kept {
    pub(super) cache: Arc<RowCache>,
    pub(super) entry: usize,
}

impl Kept {
    pub fn updated_ms(&self) -> Millis {
        self.cache.entries()[self.entry].key().mtime_ms
    }

    pub fn id(&self) -> &[u8] {
        self.cache.id(&self.cache.entries()[self.entry])
    }

    pub fn path(&self) -> &[u8] {
        self.cache.path(&self.cache.entries()[self.entry])
    }

    /// The output line (no newline).
    pub fn line(&self) -> &[u8] {
        self.cache
            .line(&self.cache.entries()[self.entry])
            .unwrap_or_default()
    }

    /// The file as it was when its state was cached (as it is now: it is unchanged).
    pub fn file(&self) -> RolloutFile {
        self.cache.file(&self.cache.entries()[self.entry])
    }

    /// The cached state; `None` when it does not decode.
    pub fn state(&self) -> Option<ScanState> {
        self.cache.state(&self.cache.entries()[self.entry])
    }

    /// The first fields of the cached state, the rest not read; `None` when they do not
    /// decode.
    pub fn usage(&self) -> Option<UsageView<'_>> {
        self.cache.usage(&self.cache.entries()[self.entry])
    }
}

impl Row {
    /// The row when it was made (a picker's runs make every row).
    pub fn made(self) -> Option<Arc<SessionRow>> {
        match self {
            Row::Made(row) => Some(row),
            Row::Kept(_) => None,
        }
    }

    pub fn updated_ms(&self) -> Millis {
        match self {
            Row::Made(r) => r.updated_ms,
            Row::Kept(k) => k.updated_ms(),
        }
    }

    pub fn id(&self) -> &[u8] {
        match self {
            Row::Made(r) => r.id.as_bytes(),
            Row::Kept(k) => k.id(),
        }
    }

    pub fn path(&self) -> &[u8] {
        match self {
            Row::Made(r) => r.path.as_os_str().as_encoded_bytes(),
            Row::Kept(k) => k.path(),
        }
    }
}

/// `rows` in the order of a listing: updated newest first, ties by id descending, then by path
/// (the order of [`SessionRow::cmp_updated_desc`]). Each row's keys are read once (a kept
/// row's keys are in the cache, a lookup each).
pub fn newest_first(rows: &[Row]) -> Vec<&Row> {
    use std::cmp::Reverse;
    let mut keyed: Vec<_> = rows
        .iter()
        .map(|r| ((Reverse(r.updated_ms()), Reverse(r.id()), r.path()), r))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// What a run tells its sink, in this order: cached `Rows` (the picker's first run),
/// `Found`, then `Rows` / `Updated` / `Removed` / `Issue` / `Progress` in any mix, `Note`s,
/// `Finished`.
#[derive(Debug)]
pub enum Event {
    /// The walk finished: this many rollout files are in the store.
    Found { total: usize },
    /// Sessions not sent before in this run.
    Rows(Vec<Row>),
    /// Rows that replace earlier ones with the same path (a file that changed since the cache,
    /// or a fork titled from its parent).
    Updated(Vec<SessionRow>),
    /// Rows sent earlier whose files are gone (or are no longer sessions): drop them.
    Removed(Vec<PathBuf>),
    /// A file or folder passed over.
    Issue(FileIssue),
    /// A file listed, with a warning about it (its session id is in another file too).
    Note(FileIssue),
    /// Files settled so far (unchanged cached files count as done at once).
    Progress { done: usize, total: usize },
    /// The run ended.
    Finished(Box<Finished>),
}

impl Event {
    /// The rows of `Rows` (those made) and of `Updated`, shared, for a receiver that takes
    /// both alike; `None` for the other events.
    pub fn into_rows(self) -> Option<Vec<Arc<SessionRow>>> {
        match self {
            Event::Rows(rows) => Some(rows.into_iter().filter_map(Row::made).collect()),
            Event::Updated(rows) => Some(rows.into_iter().map(Arc::new).collect()),
            _ => None,
        }
    }
}

/// The end of a run: what it found and what it did with the cache.
#[derive(Debug, Default)]
pub struct Finished {
    pub rows: usize,
    /// Files and folders passed over.
    pub issues: usize,
    pub elapsed: Duration,
    pub stats: Stats,
    /// Why an existing cache was not used (missing, corrupt, old format...).
    pub cache_ignored: Option<Unusable>,
    /// The cache had anything to change (and was saved, unless saving is not allowed).
    pub changed: bool,
    /// Saving the cache failed (the rows are still right).
    pub save_error: Option<std::io::Error>,
}
