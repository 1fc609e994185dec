//! The indexer's reading: worker threads that read the files they are handed (each file up to
//! its first real prompt, a grown one from where the cache stopped), and the coordinator's side
//! that takes their results, keeps the rows cache and sends rows to the picker in batches.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::{newest_first, Event, IndexOptions, Known};
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::session::SessionRow;
use crate::store::cache::RowCache;
use crate::store::walk::{Listed, RolloutFile};
use crate::store::{self, FileIssue};

/// A file for a worker to read.
pub(super) enum Todo {
    /// Looked at by the walk: read on from this state.
    Known(RolloutFile, Box<ScanState>),
    /// Listed by name only (a start with nothing cached): the worker reads its metadata first,
    /// so reading starts as soon as the names are listed.
    Listed(Listed),
}

/// A worker's result, with the file as it was looked at (`None` when it could not be). The row
/// is not boxed: its box would be freed on the coordinator's thread (see [`work`]).
#[allow(
    clippy::large_enum_variant,
    reason = "boxing the row would free it on the coordinator thread, which the workers avoid"
)]
pub(super) enum Found {
    /// The state is sent only when the cache keeps it.
    Row(SessionRow, Option<Box<ScanState>>, RolloutFile),
    Issue(FileIssue, Option<RolloutFile>),
}

/// The reading threads and the channel their results come back on.
pub(super) struct Workers {
    handles: Vec<thread::JoinHandle<()>>,
    stop: Arc<AtomicBool>,
    pub(super) results: Receiver<Vec<Found>>,
}

impl Workers {
    pub(super) fn start(
        todo: Vec<Todo>,
        names: &HashMap<String, String>,
        keep_states: bool,
        threads: usize,
    ) -> Workers {
        let todo = Arc::new(todo);
        let stop = Arc::new(AtomicBool::new(false));
        let next = Arc::new(AtomicUsize::new(0));
        let (wtx, results) = mpsc::channel::<Vec<Found>>();
        let handles = (0..threads.max(1))
            .map(|_| {
                let (todo, stop, next, wtx, names) = (
                    todo.clone(),
                    stop.clone(),
                    next.clone(),
                    wtx.clone(),
                    names.clone(),
                );
                thread::spawn(move || work(&todo, &names, keep_states, &stop, &next, &wtx))
            })
            .collect();
        Workers {
            handles,
            stop,
            results,
        }
    }

    /// Wait for every thread, telling them to stop first when `stop` (the picker went away).
    pub(super) fn stop_and_join(self, stop: bool) {
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        for handle in self.handles {
            // A worker that panicked has lost only its own files.
            let _ = handle.join();
        }
    }
}

/// The coordinator's state while the workers read: the cache to update, the rows sent, the
/// batch waiting to go.
pub(super) struct Collect<'a> {
    pub(super) tx: &'a Sender<Event>,
    pub(super) rc: RowCache,
    pub(super) all: HashMap<OsString, Known>,
    pub(super) files: Vec<RolloutFile>,
    pub(super) cold: bool,
    pub(super) batch: Batch,
    pub(super) done: usize,
    pub(super) total: usize,
    pub(super) issues: usize,
    /// The picker still listens.
    pub(super) alive: bool,
    /// The rows cache was changed (a state stored, an entry dropped): it is worth saving.
    pub(super) changed_cache: bool,
}

impl Collect<'_> {
    /// Take results until every worker is done (or the picker goes away), sending batches as
    /// they fill or as `flush_every` passes; the first rows go out as soon as there are any.
    pub(super) fn receive(&mut self, results: &Receiver<Vec<Found>>, opts: IndexOptions) {
        let mut last_flush: Option<Instant> = None;
        loop {
            match results.recv_timeout(opts.flush_every) {
                Ok(found) => found.into_iter().for_each(|f| self.take(f)),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let due = match last_flush {
                None => self.batch.len() > 0,
                Some(t) => t.elapsed() >= opts.flush_every,
            };
            if self.alive && (self.batch.len() >= opts.batch || due) {
                self.alive = self.batch.flush(self.tx, self.done, self.total);
                last_flush = Some(Instant::now());
            }
            if !self.alive {
                break;
            }
        }
    }

    fn take(&mut self, found: Found) {
        self.done += 1;
        match found {
            Found::Row(row, state, file) => {
                if let Some(state) = state {
                    self.rc.put(&file, *state);
                    self.changed_cache = true;
                }
                if self.cold {
                    self.files.push(file);
                }
                let key = row.path.clone().into_os_string();
                if self.all.insert(key, Known::of(&row)).is_some() {
                    self.batch.updated.push(row);
                } else {
                    self.batch.rows.push(row);
                }
            }
            Found::Issue(issue, file) => {
                self.issues += 1;
                // A file that is not a session and was not cached changes nothing.
                self.changed_cache |= self.rc.entries.remove(&issue.path).is_some();
                if let (true, Some(file)) = (self.cold, file) {
                    self.files.push(file);
                }
                if self.all.remove(issue.path.as_os_str()).is_some() {
                    self.batch.removed.push(issue.path.clone());
                }
                self.alive &= self.tx.send(Event::Issue(issue)).is_ok();
            }
        }
    }

    /// The walk is over: the files in order, the last batch sent. False when the picker has
    /// gone away.
    pub(super) fn finish_walk(&mut self) -> bool {
        if self.cold {
            self.files.sort_unstable_by(newest_first);
        }
        self.alive && self.batch.flush(self.tx, self.done, self.total)
    }
}

/// Read the files of `todo` the shared counter `next` hands out. A state is sent back only when
/// `keep_states` (the cache keeps it); otherwise it is dropped here: memory freed on another
/// thread than the one that allocated it waits on the allocator's locks.
fn work(
    todo: &[Todo],
    names: &HashMap<String, String>,
    keep_states: bool,
    stop: &AtomicBool,
    next: &AtomicUsize,
    tx: &Sender<Vec<Found>>,
) {
    let opts = ScanOptions::new(Until::FirstPrompt);
    // Results go to the coordinator a few at a time: one wake-up per file costs more than a
    // preview read on a busy machine.
    let mut out = Vec::with_capacity(WORK_BATCH);
    let mut since = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let (file, mut state) = match todo.get(i) {
            None => break,
            Some(Todo::Known(file, state)) => (file.clone(), ScanState::clone(state)),
            Some(Todo::Listed(listed)) => match listed.clone().stat() {
                Ok(file) => (file, ScanState::default()),
                Err(issue) => {
                    out.push(Found::Issue(issue, None));
                    continue;
                }
            },
        };
        let found = match store::scan_file(&file, &mut state, &opts) {
            Ok(()) => match store::not_a_session(&file, &state) {
                Some(issue) => Found::Issue(issue, Some(file)),
                None => Found::Row(
                    store::row_from_scan(&file, &state, names),
                    keep_states.then(|| Box::new(state)),
                    file,
                ),
            },
            Err(issue) => Found::Issue(issue, Some(file)),
        };
        out.push(found);
        if out.len() >= WORK_BATCH || since.elapsed() >= WORK_FLUSH {
            if tx.send(std::mem::take(&mut out)).is_err() {
                return;
            }
            since = Instant::now();
        }
    }
    if !out.is_empty() {
        let _ = tx.send(out);
    }
}

/// Most results a worker holds back, and for how long at most.
const WORK_BATCH: usize = 32;
const WORK_FLUSH: Duration = Duration::from_millis(5);

/// Rows waiting to be sent.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) rows: Vec<SessionRow>,
    pub(super) updated: Vec<SessionRow>,
    pub(super) removed: Vec<PathBuf>,
}

impl Batch {
    fn len(&self) -> usize {
        self.rows.len() + self.updated.len() + self.removed.len()
    }

    /// Send what is pending and the progress; false when the receiver is gone.
    fn flush(&mut self, tx: &Sender<Event>, done: usize, total: usize) -> bool {
        let sends = [
            (!self.rows.is_empty()).then(|| Event::Rows(std::mem::take(&mut self.rows))),
            (!self.updated.is_empty()).then(|| Event::Updated(std::mem::take(&mut self.updated))),
            (!self.removed.is_empty()).then(|| Event::Removed(std::mem::take(&mut self.removed))),
            Some(Event::Progress { done, total }),
        ];
        sends.into_iter().flatten().all(|e| tx.send(e).is_ok())
    }
}
