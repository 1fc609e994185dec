//! The background indexer: the index engine's runs (`store::engine`), on a thread of its own,
//! sent to the picker over a channel.
//!
//! First the rows run: the picker's first (each file read up to its first real user message,
//! the rows the cache knows sent before any walking) or a later one (only what changed since
//! the rows the picker holds), as [`Event::Rows`], [`Event::Updated`] and [`Event::Removed`],
//! then [`Event::Finished`]. Then the whole read: every file the rows run left unfinished is
//! read on to its end and its row sent again whole (counts, changed files, tokens) as
//! [`Event::Updated`], and every row is whole at [`Event::Whole`]. Unless turned off, the
//! content search index is the whole read's tap: the sessions it wants are read whole once, for
//! their rows and their messages, and the index is handed over as it grows
//! ([`Event::ContentReady`], [`Event::ContentProgress`]). The indexer stops as soon as its
//! receiver is dropped; a problem with one file is an [`Event::Issue`], never the end of the
//! run.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crate::search::fulltext::tap::ContentTap;
use crate::search::fulltext::{self, ContentIndex};
use crate::session::SessionRow;
use crate::store::engine::{self, Kind, Row, Tap};
use crate::store::{CacheSetup, FileIssue, Store};

/// What the indexer tells the picker, in this order: cached `Rows` (when a cache exists and
/// the run is not a later one: then only those the picker does not hold, after the walk),
/// `Found`, then `Rows` / `Updated` / `Removed` / `Issue` / `Progress` in any mix, `Finished`;
/// then the whole read: `Updated` / `Removed` / `ContentReady` / `ContentProgress` in any mix,
/// `Whole`. The channel closes after that.
#[derive(Debug, Clone)]
pub enum Event {
    /// The walk finished: this many rollout files are in the store (cached or not).
    Found { total: usize },
    /// New rows, in no particular order. The first batch may come from the cache, before the
    /// walk; later events correct it. Shared: the receiver keeps each row as it was made.
    Rows(Vec<Arc<SessionRow>>),
    /// Rows that replace earlier ones with the same path (a file that changed since the cache,
    /// or a fork titled from its parent).
    Updated(Vec<Arc<SessionRow>>),
    /// Rows sent earlier whose files are gone (or are no longer sessions): drop them.
    Removed(Vec<PathBuf>),
    /// A file or folder passed over.
    Issue(FileIssue),
    /// Files known so far (unchanged cached files count as done at once).
    Progress { done: usize, total: usize },
    /// The rows phase ended.
    Finished {
        rows: usize,
        issues: usize,
        elapsed: Duration,
    },
    /// Content phase: sessions whose text is indexed so far.
    ContentProgress { done: usize, total: usize },
    /// The content search index of every row, ready to query.
    ContentReady(Arc<ContentIndex>),
    /// Every row is whole: read to the end, with its exact counts, files and tokens.
    Whole,
}

#[derive(Debug, Clone)]
pub struct IndexOptions {
    pub archived: bool,
    pub threads: usize,
    /// Rows per batch sent to the picker (a batch is also sent when `flush_every` passes).
    pub batch: usize,
    pub flush_every: Duration,
    /// A later run of a receiver that holds these rows: the cached rows it has are not made
    /// again, only what changed (or what it never had) is sent.
    pub held: Option<Arc<engine::Held>>,
}

impl Event {
    /// [`Event::Rows`] of rows not shared yet.
    pub fn rows(rows: Vec<SessionRow>) -> Event {
        Event::Rows(rows.into_iter().map(Arc::new).collect())
    }

    /// [`Event::Updated`] of rows not shared yet.
    pub fn updated(rows: Vec<SessionRow>) -> Event {
        Event::Updated(rows.into_iter().map(Arc::new).collect())
    }
}

impl Default for IndexOptions {
    /// Archived sessions too, at the engine's pace.
    fn default() -> Self {
        let pace = engine::Options::new(Kind::First, true);
        IndexOptions {
            archived: pace.archived,
            threads: pace.threads,
            batch: pace.batch,
            flush_every: pace.flush_every,
            held: None,
        }
    }
}

/// Start indexing `store` on background threads, with the user's cache and the content index.
pub fn spawn(store: Store, opts: IndexOptions) -> Receiver<Event> {
    spawn_with(store, opts, CacheSetup::user())
}

/// [`spawn`] with an explicit cache setup.
pub fn spawn_with(store: Store, opts: IndexOptions, setup: CacheSetup) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("codex-picker-index".into())
        .spawn(move || {
            engine::background_priority();
            run(&store, opts, &setup, &tx);
        })
        .expect("spawn the indexer thread");
    rx
}

/// The cache file of `kind` for this store, if caching is on and allowed.
fn cache_path(store: &Store, setup: &CacheSetup, kind: &str) -> Option<PathBuf> {
    setup.file(&store.home, kind)
}

/// The rows run (the engine's stream, passed on), then the whole read with the content index
/// as its tap.
fn run(store: &Store, opts: IndexOptions, setup: &CacheSetup, tx: &Sender<Event>) {
    let kind = match &opts.held {
        Some(held) => Kind::Later(held.clone()),
        None => Kind::First,
    };
    let rows = run_options(store, setup, &opts, kind);
    let finished = engine::run(store, &rows, &mut |event| {
        let event = match event {
            // Both copies are listed: nothing is passed over.
            engine::Event::Note(_) => return true,
            engine::Event::Found { total } => Event::Found { total },
            engine::Event::Rows(rows) => Event::Rows(made(rows)),
            engine::Event::Updated(rows) => Event::updated(rows),
            engine::Event::Removed(paths) => Event::Removed(paths),
            engine::Event::Issue(issue) => Event::Issue(issue),
            engine::Event::Progress { done, total } => Event::Progress { done, total },
            engine::Event::Finished(f) => Event::Finished {
                rows: f.rows,
                issues: f.issues,
                elapsed: f.elapsed,
            },
        };
        tx.send(event).is_ok()
    });
    if finished {
        whole_read(store, setup, &opts, tx);
    }
}

/// The engine's options for a run of `kind` by this indexer.
fn run_options(
    store: &Store,
    setup: &CacheSetup,
    opts: &IndexOptions,
    kind: Kind,
) -> engine::Options {
    engine::Options {
        cache: cache_path(store, setup, "rows"),
        threads: opts.threads,
        background: true,
        batch: opts.batch,
        flush_every: opts.flush_every,
        ..engine::Options::new(kind, opts.archived)
    }
}

/// Read on to the end every file the rows run left unfinished, so each row has its exact
/// counts, the files it changed and its tokens (for the `file:` filter and the sort by
/// tokens), sent as [`Event::Updated`]; files whose cached state is whole already are not
/// looked at, unless the content index wants them. The content index is the run's tap: the
/// sessions it wants (new, changed, renamed) are read whole once, for their rows and their
/// messages, and it is handed over as it grows ([`Event::ContentReady`]).
fn whole_read(store: &Store, setup: &CacheSetup, opts: &IndexOptions, tx: &Sender<Event>) {
    let mut whole = run_options(store, setup, opts, Kind::Whole);
    if setup.content {
        whole.tap = content_tap(store, setup, opts, tx).map(|tap| Arc::new(tap) as Arc<dyn Tap>);
    }
    engine::run(store, &whole, &mut |event| {
        let event = match event {
            engine::Event::Rows(rows) => Event::Updated(made(rows)),
            engine::Event::Updated(rows) => Event::updated(rows),
            engine::Event::Removed(paths) => Event::Removed(paths),
            engine::Event::Finished(_) => Event::Whole,
            // The rows run said these already.
            _ => return true,
        };
        tx.send(event).is_ok()
    });
}

/// The content index of this store as a tap, reporting to `tx`: the index is searchable from
/// its first committed batch (or at once, when it was kept), so it is handed over each time,
/// and the progress after it says how far it goes.
fn content_tap(
    store: &Store,
    setup: &CacheSetup,
    opts: &IndexOptions,
    tx: &Sender<Event>,
) -> Option<ContentTap> {
    let tx = tx.clone();
    let report = move |done, total, index: &ContentIndex| {
        // An index with nothing in it yet answers nothing: it is handed over once it holds
        // something, or at the end.
        let ready = (index.is_empty() && done < total)
            || tx
                .send(Event::ContentReady(Arc::new(index.clone())))
                .is_ok();
        ready && (done == total || tx.send(Event::ContentProgress { done, total }).is_ok())
    };
    let file = cache_path(store, setup, "content");
    fulltext::cached::tap(
        file.as_deref(),
        store.names(),
        opts.threads,
        Box::new(report),
    )
}

/// The rows of a picker's run: all made (only `list` asks for kept output lines).
fn made(rows: Vec<Row>) -> Vec<Arc<SessionRow>> {
    rows.into_iter()
        .filter_map(|row| match row {
            Row::Made(row) => Some(row),
            Row::Kept(_) => None,
        })
        .collect()
}
