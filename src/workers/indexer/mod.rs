//! The background indexer: the index engine's runs (`store::engine`), on a thread of its own,
//! sent to the picker over a channel.
//!
//! First the rows run ([`Event::Run`]): the picker's first (each file read up to its first real
//! user message, the rows the cache knows sent before any walking) or a later one (only what
//! changed since the rows the picker holds). Then the whole read ([`Event::Whole`]): every file
//! the rows run left unfinished is read on to its end and its row sent again whole (counts,
//! changed files, tokens); its end says every row is whole. Unless turned off, the content
//! search index is the whole read's tap: the sessions it wants are read whole once, for their
//! rows and their messages, and the index is handed over as it grows
//! ([`Event::ContentReady`], [`Event::ContentProgress`]). Each run's events are the engine's,
//! as it tells them. The indexer stops as soon as its receiver is dropped; a problem with one
//! file is an issue among the events, never the end of the run.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crate::search::fulltext::tap::ContentTap;
use crate::search::fulltext::{self, ContentIndex};
use crate::session::SessionRow;
use crate::store::engine::{self, Kind, Row, Tap};
use crate::store::{CacheSetup, Store};

/// What the indexer tells the picker: each of its two engine runs as the engine tells it, then
/// the content index's news. In this order: the rows run (`Run`: cached `Rows` when a cache
/// exists and the run is not a later one, `Found`, then `Rows` / `Updated` / `Removed` /
/// `Issue` / `Progress` in any mix, `Finished`), then the whole read (`Whole`: `Rows` /
/// `Updated` / `Removed`, with `ContentReady` / `ContentProgress` among them, then its
/// `Finished`, which says every row is whole). The channel closes after that.
#[derive(Debug)]
pub enum Event {
    /// The rows run, the picker's first or a later one (its notes left out: both copies of a
    /// session id are listed). Its rows are all made, shared: the receiver keeps each row as
    /// it was made.
    Run(engine::Event),
    /// The whole read after it: its rows (whole: exact counts, files, tokens), what is gone,
    /// and its end. What the rows run said already (walk, progress, problems) is left out.
    Whole(engine::Event),
    /// Sessions whose text is indexed so far.
    ContentProgress { done: usize, total: usize },
    /// The content search index of every row, ready to query.
    ContentReady(Arc<ContentIndex>),
}

/// How the indexer runs: on how many threads, and for a receiver that holds which rows.
/// Archived sessions are always read (the picker's filter hides them), in batches at the
/// engine's pace.
#[derive(Debug, Clone)]
pub struct IndexOptions {
    pub threads: usize,
    /// A later run of a receiver that holds these rows: the cached rows it has are not made
    /// again, only what changed (or what it never had) is sent.
    pub held: Option<Arc<engine::Held>>,
}

impl Event {
    /// The rows run's new rows, not shared yet.
    pub fn rows(rows: Vec<SessionRow>) -> Event {
        let rows = rows.into_iter().map(|r| Row::Made(Arc::new(r))).collect();
        Event::Run(engine::Event::Rows(rows))
    }

    /// The rows run's updated rows.
    pub fn updated(rows: Vec<SessionRow>) -> Event {
        Event::Run(engine::Event::Updated(rows))
    }

    /// The rows run's end.
    pub fn finished(rows: usize, issues: usize, elapsed: Duration) -> Event {
        let finished = engine::Finished {
            rows,
            issues,
            elapsed,
            ..engine::Finished::default()
        };
        Event::Run(engine::Event::Finished(Box::new(finished)))
    }
}

impl Default for IndexOptions {
    /// On the engine's number of threads.
    fn default() -> Self {
        IndexOptions {
            threads: crate::store::default_threads(),
            held: None,
        }
    }
}

/// Start indexing `store` on background threads, with the caches (and the content index) as
/// `setup` says.
pub fn spawn(store: Store, opts: IndexOptions, setup: CacheSetup) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("codex-picker-index".into())
        .spawn(move || {
            crate::platform::lower_thread_priority();
            run(&store, opts, &setup, &tx);
        })
        .expect("spawn the indexer thread");
    rx
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
        // Both copies are listed: nothing is passed over.
        matches!(event, engine::Event::Note(_)) || tx.send(Event::Run(event)).is_ok()
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
        cache: setup.store_file(store, "rows"),
        threads: opts.threads,
        background: true,
        ..engine::Options::new(kind, true)
    }
}

/// Read on to the end every file the rows run left unfinished, so each row has its exact
/// counts, the files it changed and its tokens (for the `file:` filter and the sort by
/// tokens), sent as [`Event::Whole`]; files whose cached state is whole already are not
/// looked at, unless the content index wants them. The content index is the run's tap: the
/// sessions it wants (new, changed, renamed) are read whole once, for their rows and their
/// messages, and it is handed over as it grows ([`Event::ContentReady`]).
fn whole_read(store: &Store, setup: &CacheSetup, opts: &IndexOptions, tx: &Sender<Event>) {
    let mut whole = run_options(store, setup, opts, Kind::Whole);
    if setup.content {
        whole.tap = content_tap(store, setup, opts, tx).map(|tap| Arc::new(tap) as Arc<dyn Tap>);
    }
    engine::run(store, &whole, &mut |event| {
        let news = matches!(
            event,
            engine::Event::Rows(_)
                | engine::Event::Updated(_)
                | engine::Event::Removed(_)
                | engine::Event::Finished(_)
        );
        // The rows run said the rest already.
        !news || tx.send(Event::Whole(event)).is_ok()
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
    let file = setup.store_file(store, "content");
    fulltext::cached::tap(
        file.as_deref(),
        store.names(),
        opts.threads,
        Box::new(report),
    )
}
