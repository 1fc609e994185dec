//! The background indexer: rollout files -> session rows, streamed to the picker over a channel.
//!
//! One coordinator thread walks the store, sends the number of files found, then summarises the
//! files newest first on worker threads (preview only: each file is read up to its first real
//! user message) and forwards rows in small batches with progress. Paginated forks are titled
//! from their parents once every row is known. The indexer stops as soon as its receiver is
//! dropped; a problem with one file is an [`Event::Issue`], never the end of the run.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::session::SessionRow;
use crate::store::summary::Until;
use crate::store::walk::RolloutFile;
use crate::store::{self, FileIssue, Store};

/// What the indexer tells the picker.
#[derive(Debug, Clone)]
pub enum Event {
    /// The walk finished: this many rollout files will be read.
    Found { total: usize },
    /// New rows, in no particular order.
    Rows(Vec<SessionRow>),
    /// Rows that replace earlier ones with the same path (a fork titled from its parent).
    Updated(Vec<SessionRow>),
    /// A file or folder passed over.
    Issue(FileIssue),
    /// Files read so far.
    Progress { done: usize, total: usize },
    /// Indexing ended.
    Finished {
        rows: usize,
        issues: usize,
        elapsed: Duration,
    },
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

/// Start indexing `store` on background threads.
pub fn spawn(store: Store, opts: IndexOptions) -> Receiver<Event> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("codex-picker-index".into())
        .spawn(move || run(&store, opts, &tx))
        .expect("spawn the indexer thread");
    rx
}

enum Found {
    Row(Box<SessionRow>),
    Issue(FileIssue),
}

fn run(store: &Store, opts: IndexOptions, tx: &Sender<Event>) {
    let started = Instant::now();
    let (mut files, issues) = store.files(opts.archived);
    // Newest first, so the rows a user most likely wants arrive first.
    files.sort_by_key(|f| std::cmp::Reverse(f.mtime_ms));
    let total = files.len();
    if tx.send(Event::Found { total }).is_err() {
        return;
    }
    let mut issue_count = issues.len();
    for issue in issues {
        if tx.send(Event::Issue(issue)).is_err() {
            return;
        }
    }
    let names = store.names();
    let files = Arc::new(files);
    let stop = Arc::new(AtomicBool::new(false));
    let next = Arc::new(AtomicUsize::new(0));
    let (wtx, wrx) = mpsc::channel::<Found>();
    let workers: Vec<_> = (0..opts.threads.max(1))
        .map(|_| {
            let (files, stop, next, wtx, names) = (
                files.clone(),
                stop.clone(),
                next.clone(),
                wtx.clone(),
                names.clone(),
            );
            thread::spawn(move || work(&files, &names, &stop, &next, &wtx))
        })
        .collect();
    drop(wtx);

    let mut rows: Vec<SessionRow> = Vec::with_capacity(total);
    let mut pending = Vec::new();
    let mut done = 0usize;
    let mut last_flush = Instant::now();
    let mut alive = true;
    loop {
        let msg = wrx.recv_timeout(opts.flush_every);
        match msg {
            Ok(Found::Row(row)) => {
                done += 1;
                pending.push(*row);
            }
            Ok(Found::Issue(issue)) => {
                done += 1;
                issue_count += 1;
                alive &= tx.send(Event::Issue(issue)).is_ok();
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if alive && (pending.len() >= opts.batch || last_flush.elapsed() >= opts.flush_every) {
            alive = flush(tx, &mut pending, &mut rows, done, total);
            last_flush = Instant::now();
        }
        if !alive {
            stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    if !alive || !flush(tx, &mut pending, &mut rows, done, total) {
        return;
    }
    let updated = title_forks(&mut rows, &files);
    if !updated.is_empty() && tx.send(Event::Updated(updated)).is_err() {
        return;
    }
    let _ = tx.send(Event::Finished {
        rows: rows.len(),
        issues: issue_count,
        elapsed: started.elapsed(),
    });
}

fn work(
    files: &[RolloutFile],
    names: &HashMap<String, String>,
    stop: &AtomicBool,
    next: &AtomicUsize,
    tx: &Sender<Found>,
) {
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(file) = files.get(i) else { return };
        let found = match store::summarise(file, Until::FirstPrompt, names) {
            Ok((row, _)) => Found::Row(Box::new(row)),
            Err(issue) => Found::Issue(issue),
        };
        if tx.send(found).is_err() {
            return;
        }
    }
}

/// Send pending rows and progress; false when the receiver is gone.
fn flush(
    tx: &Sender<Event>,
    pending: &mut Vec<SessionRow>,
    all: &mut Vec<SessionRow>,
    done: usize,
    total: usize,
) -> bool {
    if !pending.is_empty() {
        all.extend(pending.iter().cloned());
        if tx.send(Event::Rows(std::mem::take(pending))).is_err() {
            return false;
        }
    }
    tx.send(Event::Progress { done, total }).is_ok()
}

/// Title paginated forks from their parents; returns the rows that changed.
fn title_forks(rows: &mut [SessionRow], files: &[RolloutFile]) -> Vec<SessionRow> {
    let mut changed = Vec::new();
    for row in rows
        .iter_mut()
        .filter(|r| r.history_base.is_some() && r.first_user_message.is_none())
    {
        store::fill_from_parent(row, files);
        if row.first_user_message.is_some() {
            changed.push(row.clone());
        }
    }
    changed
}
