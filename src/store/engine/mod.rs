//! The index engine: the one path from the rollouts on disk to session rows, which the picker
//! streams and `list` collects.
//!
//! ```text
//!  rows cache ──load──┐                       names file (read when a row is made)
//!  (first section     │                                │
//!   sent at once when ▼                                ▼
//!   asked)        RowCache ─┐   ┌─ walk (walkdir) ─ stat (rayon) ─┐
//!                           ▼   ▼                                 │
//!                 plan: merge the walked files with the cache     │ Found, Issue
//!                 entries, both in path order                     │
//!                   ├─ unchanged, its output line kept ─► Kept ───┤
//!                   ├─ unchanged, sent already ─────────► (none)  │
//!                   ├─ gone ─────────────────────────────► Removed│
//!                   └─ new, grown, rewritten, to decode ─► settle (reader, on the rayon pool)
//!                                                          ├─ not a session ─► Issue
//!                                                          └─ row ───────────► Rows / Updated
//!                 forks titled from their parents ─────────────────────────► Updated
//!                 duplicate ids ───────────────────────────────────────────► Issue
//!                 the cache saved when anything in it changed ─────────────► Finished
//! ```
//!
//! Owns, once: the walk, settling files against the rows cache (path, size, mtime; a grown
//! file read on from where it was left), the not-a-session rule (through [`super::reader`]),
//! fork titling (through [`super::fork`]), duplicate ids, file problems and saving only what
//! changed. Parallel work runs on one rayon pool per run; events go to the caller's sink on
//! the calling thread, in batches; a sink that returns false stops the run.

mod out;
mod plan;
mod settle;
mod settled;
mod spill;
mod tap;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::rollout::summary::Until;
use crate::session::SessionRow;
use crate::timefmt::Millis;

use super::cache::{RowCache, Stamp};
use super::{FileIssue, Store};

pub use settled::Stats;
pub use tap::Tap;

/// A caller's line of each session, kept in the rows cache beside its state and handed out
/// again while the session is unchanged ([`Row::Kept`]); its bytes are the caller's. `stamp`
/// says what the lines are made under besides the row (their format, the names file): a kept
/// line is used only under the same stamp.
#[derive(Debug, Clone, Copy)]
pub struct Lines {
    pub render: fn(&SessionRow) -> String,
    pub stamp: Stamp,
}

/// The files a receiver holds rows of, each as its row was made of it (path, size, mtime).
/// Hashed, not kept: a wrong answer would need two 64-bit hashes to agree.
#[derive(Debug, Default)]
pub struct Held {
    files: foldhash::HashSet<u64>,
    paths: foldhash::HashSet<u64>,
    hasher: foldhash::fast::RandomState,
}

/// What a receiver has of a cached session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Has {
    Nothing,
    /// A row of the same path, made of the file as it was at another time: told when it goes.
    Path,
    /// Its row as the cache has it: nothing to send while the file stays so.
    AsCached,
}

impl Held {
    /// Held rows of `files`: each file's path, size and modification time.
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a Path, u64, Millis)>) -> Held {
        use std::hash::BuildHasher;
        let mut held = Held::default();
        for (path, size, mtime_ms) in files {
            let path = path.as_os_str().as_encoded_bytes();
            held.files
                .insert(held.hasher.hash_one((path, size, mtime_ms)));
            held.paths.insert(held.hasher.hash_one(path));
        }
        held
    }

    /// What the receiver has of the file at `path` (its bytes), cached with `size` and
    /// `mtime_ms`.
    pub(crate) fn has(&self, path: &[u8], size: u64, mtime_ms: Millis) -> Has {
        use std::hash::BuildHasher;
        if self
            .files
            .contains(&self.hasher.hash_one((path, size, mtime_ms)))
        {
            Has::AsCached
        } else if self.paths.contains(&self.hasher.hash_one(path)) {
            Has::Path
        } else {
            Has::Nothing
        }
    }
}

/// Which run, named by who asks: how far each file is read, and which rows are sent.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A listing (`list`, `blame`): every session read to its end and sent as the walk settles
    /// it. With `lines`, each session's output line is made and kept in the cache, and an
    /// unchanged one is handed out as [`Row::Kept`].
    List { lines: Option<Lines> },
    /// The picker's first run: the rows the cache knows are sent before walking, then what
    /// changed; each file is read up to its first real user message.
    First,
    /// A picker's later run, of a receiver that holds these rows: a cached session whose file
    /// is as the receiver's row was made of is neither made nor sent, so the run sends only
    /// what changed since, and what the receiver never had (a cache another process wrote).
    /// Read as the first run reads.
    Later(Arc<Held>),
    /// A whole read, after the first or a later run: every session the receiver holds a
    /// preview of is read on to its end and sent again whole (exact counts, changed files,
    /// tokens); sessions whose cached state is whole already are not looked at.
    Whole,
}

/// A run: which one, over what, and at what pace.
#[derive(Debug, Clone)]
pub struct Options {
    pub kind: Kind,
    /// Archived sessions are walked too.
    pub archived: bool,
    /// The rows cache file; `None` reads everything and writes nothing.
    pub cache: Option<PathBuf>,
    /// Who takes the entries of the sessions the run reads whole (a listing or a whole read):
    /// a session it wants is read whole once, for its row and for the tap.
    pub tap: Option<Arc<dyn Tap>>,
    /// Threads of the run's pool.
    pub threads: usize,
    /// The pool's threads run at a lower priority (the picker's, so typing keeps a core).
    pub background: bool,
    /// Rows per batch (a batch is also sent when `flush_every` passes).
    pub batch: usize,
    pub flush_every: Duration,
}

impl Options {
    /// A run of `kind` with the default pace, no cache and no tap.
    pub fn new(kind: Kind, archived: bool) -> Self {
        Options {
            kind,
            archived,
            cache: None,
            tap: None,
            threads: super::default_threads(),
            background: false,
            batch: 256,
            flush_every: Duration::from_millis(30),
        }
    }

    /// A listing that keeps no output lines.
    pub fn list(archived: bool) -> Self {
        Options::new(Kind::List { lines: None }, archived)
    }

    /// How far each file is read: the first prompt (the picker's rows) or to the end.
    pub fn until(&self) -> Until {
        match self.kind {
            Kind::List { .. } | Kind::Whole => Until::End,
            Kind::First | Kind::Later(_) => Until::FirstPrompt,
        }
    }

    /// How output lines are made, when this run keeps them.
    pub fn lines(&self) -> Option<Lines> {
        match self.kind {
            Kind::List { lines } => lines,
            _ => None,
        }
    }
}

/// A session's row as a run hands it out.
#[derive(Debug, Clone)]
pub enum Row {
    /// Made in this run (read, or decoded from the cache). Behind a pointer: most rows of a
    /// warm `list` are [`Row::Kept`], a few words each; shared, so the picker keeps (and hands
    /// its search thread) the row as made instead of copies of it.
    Made(Arc<SessionRow>),
    /// Unchanged since the cache kept its output line (only with [`Kind::List`]'s lines).
    Kept(Kept),
}

/// An unchanged session of the rows cache: what it sorts by and its output line.
#[derive(Debug, Clone)]
pub struct Kept {
    cache: Arc<RowCache>,
    entry: usize,
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
}

impl Row {
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

    /// The order of a listing: updated newest first, ties by id descending, then by path (the
    /// order of [`SessionRow::cmp_updated_desc`]).
    pub fn cmp_updated_desc(a: &Row, b: &Row) -> std::cmp::Ordering {
        b.updated_ms()
            .cmp(&a.updated_ms())
            .then_with(|| b.id().cmp(a.id()))
            .then_with(|| a.path().cmp(b.path()))
    }
}

/// `rows` in the order of [`Row::cmp_updated_desc`], each row's keys read once (a kept row's
/// keys are in the cache, a lookup each).
pub fn newest_first(rows: &[Row]) -> Vec<&Row> {
    use std::cmp::Reverse;
    let mut keyed: Vec<_> = rows
        .iter()
        .map(|r| ((Reverse(r.updated_ms()), Reverse(r.id()), r.path()), r))
        .collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// What a run tells its sink, in this order: cached `Rows` (with [`Kind::First`]),
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

/// The end of a run: what it found and what it did with the cache.
#[derive(Debug, Default)]
pub struct Finished {
    pub rows: usize,
    /// Files and folders passed over.
    pub issues: usize,
    pub elapsed: Duration,
    pub stats: Stats,
    /// Why an existing cache was not used (missing, corrupt, old format...).
    pub cache_ignored: Option<String>,
    /// The cache had anything to change (and was saved, unless saving is not allowed).
    pub changed: bool,
    /// Saving the cache failed (the rows are still right).
    pub save_error: Option<String>,
}

/// Run the engine over `store`, telling `sink` what it finds. Returns false when the sink
/// stopped it.
pub fn run(store: &Store, opts: &Options, sink: &mut dyn FnMut(Event) -> bool) -> bool {
    match pool(opts.threads, opts.background) {
        Ok(pool) => settle::Run::new(store, opts, &pool).go(sink),
        // No threads to be had: the run is not possible, and says so.
        Err(e) => sink(Event::Issue(FileIssue {
            path: store.home.clone(),
            reason: format!("cannot start reading threads: {e}"),
        })),
    }
}

/// The pool a run reads on: `threads` threads (at most 16), at a lower priority when
/// `background`.
pub fn pool(
    threads: usize,
    background: bool,
) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.clamp(1, 16))
        .thread_name(|i| format!("codex-picker-read-{i}"))
        .start_handler(move |_| {
            if background {
                background_priority();
            }
        })
        .build()
}

/// Lower this thread's scheduling priority (nice 10). On a machine with few cores the readers
/// would otherwise keep the event loop and the terminal itself waiting for a core, and the
/// first rows would be drawn late. Linux only: elsewhere the call would renice the whole
/// process, picker included.
pub fn background_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no preconditions; setpriority on our own thread id only changes its
    // scheduling weight, and a failure (an unusual sandbox) is harmless.
    unsafe {
        let tid = libc::gettid();
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

/// Every event of a run over `store`, collected: the rows (updates applied, removals dropped,
/// in no particular order), the problems met (by path) and the end.
pub fn collect(store: &Store, opts: &Options) -> (Vec<Row>, Vec<FileIssue>, Finished) {
    let mut rows: Vec<Row> = Vec::new();
    let mut updated: Vec<SessionRow> = Vec::new();
    let mut removed: Vec<PathBuf> = Vec::new();
    let mut issues = Vec::new();
    let mut finished = Finished::default();
    run(store, opts, &mut |event| {
        match event {
            Event::Rows(r) => rows.extend(r),
            Event::Found { total } => rows.reserve(total),
            Event::Updated(r) => updated.extend(r),
            Event::Removed(p) => removed.extend(p),
            Event::Issue(i) | Event::Note(i) => issues.push(i),
            Event::Finished(f) => finished = *f,
            Event::Progress { .. } => {}
        }
        true
    });
    if !updated.is_empty() || !removed.is_empty() {
        apply(&mut rows, updated, &removed);
    }
    issues.sort_by(|a, b| a.path.cmp(&b.path));
    (rows, issues, finished)
}

/// [`collect`] for a run that keeps no output lines: every row made, newest first (in the
/// order of [`SessionRow::cmp_updated_desc`]).
pub fn rows(store: &Store, opts: &Options) -> (Vec<SessionRow>, Vec<FileIssue>, Finished) {
    let mut opts = opts.clone();
    if let Kind::List { lines } = &mut opts.kind {
        *lines = None;
    }
    let (rows, issues, finished) = collect(store, &opts);
    let mut rows: Vec<SessionRow> = rows
        .into_iter()
        .filter_map(|row| match row {
            Row::Made(row) => Some(Arc::unwrap_or_clone(row)),
            Row::Kept(_) => None,
        })
        .collect();
    SessionRow::sort_updated_desc(&mut rows);
    (rows, issues, finished)
}

/// Replace rows by their updates (same path) and drop the removed ones.
fn apply(rows: &mut Vec<Row>, updated: Vec<SessionRow>, removed: &[PathBuf]) {
    let mut by_path: std::collections::HashMap<Vec<u8>, SessionRow> = updated
        .into_iter()
        .map(|r| (r.path.as_os_str().as_encoded_bytes().to_vec(), r))
        .collect();
    let gone: std::collections::HashSet<&[u8]> = removed
        .iter()
        .map(|p| p.as_os_str().as_encoded_bytes())
        .collect();
    rows.retain(|r| !gone.contains(r.path()));
    for row in rows.iter_mut() {
        if let Some(new) = by_path.remove(row.path()) {
            *row = Row::Made(Arc::new(new));
        }
    }
}
