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
//!                   ├─ unchanged, its line or state kept ─► Kept ─┤
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

mod event;
mod options;
mod out;
mod plan;
mod settle;
mod settled;
mod spill;
mod tap;

use std::path::PathBuf;
use std::sync::Arc;

use crate::session::SessionRow;

use super::{FileIssue, Problem, Store};

pub use event::{newest_first, Event, Finished, Kept, Row};
pub(crate) use options::Has;
pub use options::{Held, Kind, Lines, Options};
pub use settled::Stats;
pub use tap::Tap;

/// Run the engine over `store`, telling `sink` what it finds. Returns false when the sink
/// stopped it.
pub fn run(store: &Store, opts: &Options, sink: &mut dyn FnMut(Event) -> bool) -> bool {
    match pool(opts.threads, opts.background) {
        Ok(pool) => settle::Run::new(store, opts, &pool).go(sink),
        // No threads to be had: the run is not possible, and says so.
        Err(e) => sink(Event::Issue(FileIssue::new(
            store.home.clone(),
            Problem::NoThreads(e.to_string()),
        ))),
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
                crate::platform::lower_thread_priority();
            }
        })
        .build()
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

/// [`collect`] for a run that keeps no output lines nor states (a listing's or [`Kind::States`]'s
/// is run as a listing without them): every row made, newest first (in the order of
/// [`SessionRow::cmp_updated_desc`]).
pub fn rows(store: &Store, opts: &Options) -> (Vec<SessionRow>, Vec<FileIssue>, Finished) {
    let mut opts = opts.clone();
    if let Kind::List { .. } | Kind::States = opts.kind {
        opts.kind = Kind::List { lines: None };
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
