//! The background indexer: rollout files -> session rows, streamed to the picker over a channel.
//!
//! One coordinator thread first sends the rows it knows from the rows cache (one [`Event::Rows`]
//! before any walking), then walks the store, sends the number of files found, and reads only
//! what is new or changed since the cache was written, newest first on worker threads (preview
//! only: each file is read up to its first real user message; a grown file is read on from where
//! the cache stopped). New rows arrive as [`Event::Rows`], changed ones as [`Event::Updated`],
//! vanished ones as [`Event::Removed`]. Paginated forks are titled from their parents once every
//! row is known; the cache is saved; [`Event::Finished`] ends the rows phase. Then, unless turned
//! off, the content phase builds (or loads and refreshes) the content search index and hands it
//! over with [`Event::ContentReady`]. The indexer stops as soon as its receiver is dropped; a
//! problem with one file is an [`Event::Issue`], never the end of the run.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

mod reading;

use crate::fulltext::{self, ContentIndex};
use crate::rollout::summary::ScanState;
use crate::session::SessionRow;
use crate::store::cache::{self, Plan, RowCache};
use crate::store::walk::RolloutFile;
use crate::store::{self, FileIssue, Store};
use reading::{Batch, Collect, Todo, Workers};

/// What the indexer tells the picker, in this order: cached `Rows` (when a cache exists),
/// `Found`, then `Rows` / `Updated` / `Removed` / `Issue` / `Progress` in any mix, `Finished`;
/// then the content phase: `ContentProgress`..., `ContentReady`. The channel closes after that.
#[derive(Debug, Clone)]
pub enum Event {
    /// The walk finished: this many rollout files are in the store (cached or not).
    Found { total: usize },
    /// New rows, in no particular order. The first batch may come from the cache, before the
    /// walk; later events correct it.
    Rows(Vec<SessionRow>),
    /// Rows that replace earlier ones with the same path (a file that changed since the cache,
    /// or a fork titled from its parent).
    Updated(Vec<SessionRow>),
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
}

#[derive(Debug, Clone, Copy)]
pub struct IndexOptions {
    pub archived: bool,
    pub threads: usize,
    /// Rows per batch sent to the picker (a batch is also sent when `flush_every` passes).
    pub batch: usize,
    pub flush_every: Duration,
}

impl Default for IndexOptions {
    fn default() -> Self {
        IndexOptions {
            archived: true,
            threads: store::default_threads(),
            batch: 256,
            flush_every: Duration::from_millis(30),
        }
    }
}

/// Where the caches are and whether the content phase runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheSetup {
    /// The cache folder; `None` reads everything afresh and writes nothing (`--no-cache`).
    pub dir: Option<PathBuf>,
    /// Build the content index after the rows.
    pub content: bool,
}

impl CacheSetup {
    /// The user's cache folder, content phase on.
    pub fn user() -> Self {
        CacheSetup {
            dir: Some(crate::paths::cache_dir()),
            content: true,
        }
    }

    /// From the command line: `--no-cache` turns the cache off.
    pub fn from_args(args: &crate::cli::StoreArgs) -> Self {
        CacheSetup {
            dir: (!args.no_cache).then(crate::paths::cache_dir),
            content: true,
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
            background_priority();
            run(&store, opts, &setup, &tx);
        })
        .expect("spawn the indexer thread");
    rx
}

/// What the coordinator keeps of a row it sent: the session id (for the content phase) and,
/// for a paginated fork still without a title, the row itself (titled from its parent at the
/// end). Keeping whole rows would copy every first message once more.
struct Known {
    id: String,
    /// Boxed: most sessions are not untitled forks, and a row inline would make every entry of
    /// the map (tens of thousands) the size of a row.
    untitled_fork: Option<Box<SessionRow>>,
}

impl Known {
    fn of(row: &SessionRow) -> Known {
        let untitled = row.history_base.is_some() && row.first_user_message.is_none();
        Known {
            id: row.id.clone(),
            untitled_fork: untitled.then(|| Box::new(row.clone())),
        }
    }
}

/// Lower this thread's scheduling priority (nice 10); the threads it starts inherit it. On a
/// machine with few cores the readers would otherwise keep the event loop and the terminal
/// itself waiting for a core, and the first rows would be drawn late. Linux only: elsewhere the
/// call would renice the whole process, picker included.
fn background_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions; setpriority on our own thread id only changes its
    // scheduling weight, and a failure (an unusual sandbox) is harmless.
    unsafe {
        let tid = libc::gettid();
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// The cache file of `kind` for this store, if caching is on and allowed.
fn cache_path(store: &Store, setup: &CacheSetup, kind: &str) -> Option<PathBuf> {
    cache::located(setup.dir.as_deref(), &store.home, kind)
}

/// Send the cached rows before any walking, and load the rows cache: first the newest rows from
/// the cache's first section (a screenful, read without the rest of the cache, so the first
/// frame does not wait for a large store), then every other cached row. `None` when the
/// receiver is gone.
fn send_cached(
    store: &Store,
    opts: IndexOptions,
    file: Option<&Path>,
    names: &HashMap<String, String>,
    all: &mut HashMap<OsString, Known>,
    tx: &Sender<Event>,
) -> Option<RowCache> {
    let Some(file) = file else {
        return Some(RowCache::empty(&store.home));
    };
    let wanted = |archived: bool, session: bool| session && (opts.archived || !archived);
    let head: Vec<(RolloutFile, ScanState)> = RowCache::head(file, &store.home)
        .into_iter()
        .filter(|(f, s)| wanted(f.archived, s.meta.is_some() || s.saw_message))
        .collect();
    let rows = head
        .iter()
        .map(|(f, s)| store::row_from_scan(f, s, names))
        .collect();
    send_known(rows, all, tx)?;
    let mut rc = RowCache::load(file, &store.home).0;
    // The rest of the cache may not be what the first section was read from (damaged, or
    // rewritten in between): the walk must then judge the rows sent by what they were made of.
    for (f, state) in head {
        let same = rc.entries.get(&f.path).is_some_and(|e| {
            (e.size, e.mtime_ms, e.compressed, e.archived)
                == (f.size, f.mtime_ms, f.compressed, f.archived)
        });
        if !same {
            rc.put(&f, state);
        }
    }
    let rows = rc
        .entries
        .iter()
        .filter(|(p, e)| wanted(e.archived, e.session) && !all.contains_key(p.as_os_str()))
        .filter_map(|(p, e)| {
            Some(store::row_from_state(
                &e.file(p),
                rc.entries.state(e)?,
                names,
            ))
        })
        .collect();
    send_known(rows, all, tx)?;
    Some(rc)
}

/// Send rows (unless there are none) and remember them; `None` when the receiver is gone.
fn send_known(
    rows: Vec<SessionRow>,
    all: &mut HashMap<OsString, Known>,
    tx: &Sender<Event>,
) -> Option<()> {
    if rows.is_empty() {
        return Some(());
    }
    all.reserve(rows.len());
    for row in &rows {
        all.insert(row.path.clone().into_os_string(), Known::of(row));
    }
    tx.send(Event::Rows(rows)).ok()
}

fn run(store: &Store, opts: IndexOptions, setup: &CacheSetup, tx: &Sender<Event>) {
    let started = Instant::now();
    let cache_file = cache_path(store, setup, "rows");
    let names = store.names();
    // Keyed by the path's bytes: hashing a `Path` parses it into components first.
    let mut all: HashMap<OsString, Known> = HashMap::new();
    let Some(mut rc) = send_cached(store, opts, cache_file.as_deref(), &names, &mut all, tx) else {
        return;
    };
    let (files, todo, issues, cold) = plan(store, opts, &rc, &all);
    let total = if cold { todo.len() } else { files.len() };
    all.reserve(total.saturating_sub(all.len()));
    if tx.send(Event::Found { total }).is_err() {
        return;
    }
    let issue_count = issues.len();
    if issues
        .into_iter()
        .any(|i| tx.send(Event::Issue(i)).is_err())
    {
        return;
    }
    let gone: Vec<PathBuf> = rc
        .retain_walked(&files, opts.archived)
        .into_iter()
        .filter(|p| all.remove(p.as_os_str()).is_some())
        .collect();
    let removed = !gone.is_empty();
    if !gone.is_empty() && tx.send(Event::Removed(gone)).is_err() {
        return;
    }
    let mut collect = Collect {
        tx,
        rc,
        all,
        files,
        cold,
        batch: Batch::default(),
        done: total - todo.len(),
        total,
        issues: issue_count,
        alive: true,
        changed_cache: false,
    };
    let workers = Workers::start(todo, &names, cache_file.is_some(), opts.threads);
    collect.receive(&workers.results, opts);
    workers.stop_and_join(!collect.alive);
    if !collect.finish_walk() {
        return;
    }
    let dirty = removed || collect.changed_cache;
    let saved = dirty.then_some(cache_file.as_deref()).flatten();
    if let Some(finished) = finish_rows(collect, saved, started, tx) {
        if setup.content {
            content_phase(store, setup, &finished.ids, &finished.files, opts, tx);
        }
    }
}

/// What the rows phase leaves for the content phase.
struct RowsDone {
    /// Path -> session id of every row.
    ids: HashMap<PathBuf, String>,
    /// Every rollout walked, newest first.
    files: Vec<RolloutFile>,
}

/// End the rows phase: title paginated forks from their parents, save the rows cache (to
/// `saved`, when anything changed) and say `Finished`. `None` when the picker has gone away.
fn finish_rows(
    collect: Collect,
    saved: Option<&Path>,
    started: Instant,
    tx: &Sender<Event>,
) -> Option<RowsDone> {
    let Collect {
        rc,
        all,
        files,
        issues,
        ..
    } = collect;
    let rows = all.len();
    let mut forks: Vec<SessionRow> = Vec::new();
    let ids: HashMap<PathBuf, String> = all
        .into_iter()
        .map(|(path, known)| {
            forks.extend(known.untitled_fork.map(|r| *r));
            (PathBuf::from(path), known.id)
        })
        .collect();
    let updated = title_forks(&mut forks, &files);
    if !updated.is_empty() {
        tx.send(Event::Updated(updated)).ok()?;
    }
    if let Some(file) = saved {
        // A cache that cannot be saved costs the next start its speed, not its rows.
        let _ = rc.save(file);
    }
    let elapsed = started.elapsed();
    tx.send(Event::Finished {
        rows,
        issues,
        elapsed,
    })
    .ok()?;
    Some(RowsDone { ids, files })
}

/// What to read. With nothing cached every file is read whole, so the walk only lists names
/// (newest name first) and the workers read each file's metadata as they go; otherwise the walk
/// looks at every file and only the new or changed ones are read, newest first. Returns the
/// walked files (none yet when cold), the work, the problems met and whether the start is cold.
fn plan(
    store: &Store,
    opts: IndexOptions,
    rc: &RowCache,
    sent: &HashMap<OsString, Known>,
) -> (Vec<RolloutFile>, Vec<Todo>, Vec<FileIssue>, bool) {
    if rc.entries.is_empty() {
        let (listed, issues) = store.listing(opts.archived);
        let todo: Vec<Todo> = listed.into_iter().map(Todo::Listed).collect();
        return (Vec::with_capacity(todo.len()), todo, issues, true);
    }
    let (mut files, issues) = store.files(opts.archived);
    files.sort_unstable_by(newest_first);
    let mut todo = Vec::new();
    for f in &files {
        if rc.plan(f) == Plan::Fresh && sent.contains_key(f.path.as_os_str()) {
            continue;
        }
        let state = rc
            .start_state(f)
            .map(|(state, _)| state)
            .unwrap_or_default();
        todo.push(Todo::Known(f.clone(), Box::new(state)));
    }
    (files, todo, issues, false)
}

/// Build the content index of the sessions `ids` (path -> session id; from its cache where
/// files are unchanged) and send it. `files` is the walk the rows came from; the store is not
/// walked a second time.
fn content_phase(
    store: &Store,
    setup: &CacheSetup,
    ids: &HashMap<PathBuf, String>,
    files: &[RolloutFile],
    opts: IndexOptions,
    tx: &Sender<Event>,
) {
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
    let _ = fulltext::cached::refresh(file.as_deref(), ids, files, opts.threads, &mut report);
}

/// Most recently modified first; ties in path order, so the order is the same from run to run.
fn newest_first(a: &RolloutFile, b: &RolloutFile) -> std::cmp::Ordering {
    b.mtime_ms
        .cmp(&a.mtime_ms)
        .then_with(|| a.path.cmp(&b.path))
}

/// Title paginated forks from their parents; returns the rows that changed.
fn title_forks(rows: &mut [SessionRow], files: &[RolloutFile]) -> Vec<SessionRow> {
    let mut changed = Vec::new();
    for row in rows
        .iter_mut()
        .filter(|r| r.history_base.is_some() && r.first_user_message.is_none())
    {
        store::fork::fill_from_parent(row, &mut { files });
        if row.first_user_message.is_some() {
            changed.push(row.clone());
        }
    }
    changed
}
