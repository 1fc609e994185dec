//! The background indexer: the index engine's stream (`store::engine`), run on a thread of its
//! own and sent to the picker over a channel, then the content index.
//!
//! The rows phase is one engine run in preview mode (each file read up to its first real user
//! message), cached rows first: the rows the cache knows arrive before any walking (not in a
//! later run: the rows the picker holds are not made again), then what
//! changed as [`Event::Rows`], [`Event::Updated`] and [`Event::Removed`], and
//! [`Event::Finished`]. Then, unless turned off, the content phase builds (or loads and
//! refreshes) the content search index of the sessions the run found, on the same walk, and
//! hands it over with [`Event::ContentReady`]. The content build reads each session it indexes
//! whole, and the row summary's pass is made in that same read: those rows are sent whole
//! (counts, changed files, tokens) as the build reaches them ([`Event::Updated`]). Last, the
//! whole phase reads on to the end of every file the preview left unfinished and the content
//! build did not read (its index was kept, or the content phase is off), keeps every whole
//! pass in the rows cache, and says every row is whole ([`Event::Updated`], then
//! [`Event::Whole`]). The indexer stops as soon as its receiver is dropped; a problem with one
//! file is an [`Event::Issue`], never the end of the run.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rayon::prelude::*;

use crate::rollout::summary::Until;
use crate::search::fulltext::build::WholePass;
use crate::search::fulltext::{self, ContentIndex};
use crate::session::SessionRow;
use crate::store::engine::{self, Passes, Row};
use crate::store::walk::RolloutFile;
use crate::store::{self, fork, reader, CacheSetup, FileIssue, Store};

/// What the indexer tells the picker, in this order: cached `Rows` (when a cache exists and
/// the run is not a later one: then only those the picker does not hold, after the walk),
/// `Found`, then `Rows` / `Updated` / `Removed` / `Issue` / `Progress` in any mix, `Finished`;
/// then the content phase: `Updated` / `ContentReady` / `ContentProgress`..., `ContentReady`;
/// then the whole phase: `Updated` / `Removed`..., `Whole`. The channel closes after that.
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
    fn default() -> Self {
        IndexOptions {
            archived: true,
            threads: store::default_threads(),
            batch: 256,
            flush_every: Duration::from_millis(30),
            held: None,
        }
    }
}

/// Start indexing `store` on background threads, with the user's cache and the content phase.
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

/// The rows phase (the engine's stream, passed on), then the content phase.
fn run(store: &Store, opts: IndexOptions, setup: &CacheSetup, tx: &Sender<Event>) {
    let run_opts = engine::Options {
        cache: cache_path(store, setup, "rows"),
        cached: match &opts.held {
            Some(held) => engine::Cached::Known(held.clone()),
            None => engine::Cached::First,
        },
        threads: opts.threads,
        background: true,
        batch: opts.batch,
        flush_every: opts.flush_every,
        ..engine::Options::new(opts.archived, Until::FirstPrompt)
    };
    let mut walked = None;
    let finished = engine::run(store, &run_opts, &mut |event| {
        let event = match event {
            // Both copies are listed: nothing is passed over.
            engine::Event::Note(_) => return true,
            engine::Event::Found { total } => Event::Found { total },
            engine::Event::Rows(rows) => Event::Rows(made(rows)),
            engine::Event::Updated(rows) => Event::updated(rows),
            engine::Event::Removed(paths) => Event::Removed(paths),
            engine::Event::Issue(issue) => Event::Issue(issue),
            engine::Event::Progress { done, total } => Event::Progress { done, total },
            engine::Event::Finished(f) => {
                let event = Event::Finished {
                    rows: f.rows,
                    issues: f.issues,
                    elapsed: f.elapsed,
                };
                walked = Some(f.files);
                event
            }
        };
        tx.send(event).is_ok()
    });
    if !finished {
        return;
    }
    let passes = match (setup.content, walked) {
        (true, Some(files)) => content_phase(store, setup, files, &opts, tx),
        _ => Passes::default(),
    };
    whole_phase(store, setup, &opts, passes, tx);
}

/// Read on to the end every file the preview left unfinished, so each row has its exact
/// counts, the files it changed and its tokens (for the `file:` filter and the sort by
/// tokens), sent as [`Event::Updated`]. Files whose cached state is whole already are not
/// looked at, nor are those the content phase read whole (`passes`: their rows were sent
/// then); what this run reads or was given is kept in the rows cache, so the next start has
/// it.
fn whole_phase(
    store: &Store,
    setup: &CacheSetup,
    opts: &IndexOptions,
    passes: Passes,
    tx: &Sender<Event>,
) {
    let run_opts = engine::Options {
        cache: cache_path(store, setup, "rows"),
        threads: opts.threads,
        background: true,
        batch: opts.batch,
        flush_every: opts.flush_every,
        incomplete_only: true,
        passes: (!passes.is_empty()).then(|| Arc::new(passes)),
        ..engine::Options::new(opts.archived, Until::End)
    };
    engine::run(store, &run_opts, &mut |event| {
        let event = match event {
            engine::Event::Rows(rows) => Event::Updated(made(rows)),
            engine::Event::Updated(rows) => Event::updated(rows),
            engine::Event::Removed(paths) => Event::Removed(paths),
            engine::Event::Finished(_) => Event::Whole,
            // The preview run said these already.
            _ => return true,
        };
        tx.send(event).is_ok()
    });
}

/// The rows of a preview run: all made (only `list` asks for kept output lines).
fn made(rows: Vec<Row>) -> Vec<Arc<SessionRow>> {
    rows.into_iter()
        .filter_map(|row| match row {
            Row::Made(row) => Some(row),
            Row::Kept(_) => None,
        })
        .collect()
}

/// Build the content index of the sessions among `files` (each with its session id, from the
/// rows phase; from its cache where files are unchanged) and send it. The store is not walked
/// a second time. Each session the build reads is read whole, and its row made whole from that
/// same read is sent as it goes ([`Event::Updated`]); the passes are returned for the whole
/// phase.
fn content_phase(
    store: &Store,
    setup: &CacheSetup,
    files: Vec<(RolloutFile, Option<String>)>,
    opts: &IndexOptions,
    tx: &Sender<Event>,
) -> Passes {
    let file = cache_path(store, setup, "content");
    // The index is searchable from its first committed batch (or at once, when it was kept):
    // it is handed over each time, and the progress after it says how far it goes.
    let mut report = |done, total, index: &ContentIndex| {
        // An index with nothing in it yet answers nothing: it is handed over once it holds
        // something, or at the end.
        let ready = (index.is_empty() && done < total)
            || tx
                .send(Event::ContentReady(Arc::new(index.clone())))
                .is_ok();
        ready && (done == total || tx.send(Event::ContentProgress { done, total }).is_ok())
    };
    // The readers of the rows phase's kind: few, and at a lower priority.
    let Ok(pool) = engine::pool(opts.threads, true) else {
        return Passes::default();
    };
    let names = store.names();
    // Taken apart, not copied: a large store's list of files is held once.
    let (all, ids): (Vec<RolloutFile>, Vec<Option<String>>) = files.into_iter().unzip();
    // They wait beside the rows cache (in the system's temporary folder with no cache).
    let rows_cache = cache_path(store, setup, "rows");
    let mut passes = Passes::new(rows_cache.as_deref().and_then(Path::parent));
    let mut read_whole = |read: Vec<WholePass>| {
        let rows = whole_rows(read, store, &all, &mut passes);
        // A receiver that is gone stops the build at its next progress report.
        if !rows.is_empty() {
            let _ = tx.send(Event::updated(rows));
        }
    };
    pool.install(|| {
        fulltext::cached::refresh_summarising(
            file.as_deref(),
            &all,
            &ids,
            &names,
            opts.threads,
            &mut report,
            &mut read_whole,
        )
    });
    passes
}

/// The rows of sessions read whole (a fork's title and tokens from its parent, as the whole
/// phase would), on the current pool; their passes are kept in `passes`. Only files still as
/// they were read give a row, named as the store names them now: a session archived, deleted,
/// renamed or grown since (by the user, from the picker) is not sent back as it was; the next
/// run, or the whole phase, reads it as it is.
fn whole_rows(
    read: Vec<WholePass>,
    store: &Store,
    files: &[RolloutFile],
    passes: &mut Passes,
) -> Vec<SessionRow> {
    passes.add(read.iter().map(|(file, state)| (file, state)));
    let names = store.names();
    let names = &names;
    let as_read = |file: &RolloutFile| {
        RolloutFile::at(&file.path)
            .is_ok_and(|now| now.size == file.size && now.mtime_ms == file.mtime_ms)
    };
    read.into_par_iter()
        .filter(|(file, state)| reader::not_a_session(file, state).is_none() && as_read(file))
        .map(|(file, state)| {
            let fork = state
                .meta
                .as_ref()
                .is_some_and(|m| m.history_base.is_some());
            let mut row = reader::row_from_state(&file, state, names);
            if fork {
                fork::fill_from_parent(&mut row, &mut { files });
            }
            row
        })
        .collect()
}
