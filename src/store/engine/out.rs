//! The calling thread's side of a run: what goes to the sink, in batches, and what the run
//! learns of each walked file as the readers settle it.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::plan::Work;
use super::settled::{Fresh, Pass, Settled, Stats};
use super::spill::Spill;
use super::tap::Tap;
use super::{Event, Has, Kept, Options, Row};
use crate::session::SessionRow;
use crate::store::cache::Unusable;
use crate::store::cache::{self, RowCache};
use crate::store::walk::RolloutFile;
use crate::store::FileIssue;

/// A walked file's session id, as far as the run knows it.
#[derive(Debug, Clone)]
pub(super) enum Id {
    /// Not a session (or not settled).
    None,
    /// The id of a cache entry.
    Cached(usize),
    Made(String),
}

/// What the run learned of each walked file as the readers settled it, handed over once they
/// are done.
#[derive(Default)]
pub(super) struct Learned {
    pub(super) ids: Vec<Id>,
    /// Each file as its reader looked at it (a start with nothing cached; empty otherwise).
    pub(super) looked: Vec<Option<RolloutFile>>,
    /// Boxed: a warm run has one slot for every walked file and fills few of them.
    pub(super) fresh: Vec<Option<Box<Fresh>>>,
    /// The states of `fresh`, waiting for the save.
    pub(super) spill: Spill,
    /// Forks to title from their parents.
    pub(super) forks: Vec<SessionRow>,
    pub(super) stats: Stats,
    /// Files and folders passed over.
    pub(super) issues: usize,
    /// Why an existing cache was not used.
    pub(super) ignored: Option<Unusable>,
}

/// Rows per batch sent to the sink (a batch is also sent when [`FLUSH_EVERY`] passes).
const BATCH: usize = 256;

/// The longest a settled row waits in its batch before the batch is sent.
const FLUSH_EVERY: Duration = Duration::from_millis(30);

/// The calling thread's side of a run: the sink, the batch waiting to go, and what the run
/// learns of each walked file.
pub(super) struct Out<'s> {
    sink: &'s mut dyn FnMut(Event) -> bool,
    alive: bool,
    rows: Vec<Row>,
    updated: Vec<SessionRow>,
    removed: Vec<PathBuf>,
    done: usize,
    total: usize,
    learned: Learned,
    last_flush: Option<Instant>,
    /// Told after each batch of settled files.
    tap: Option<Arc<dyn Tap>>,
}

impl<'s> Out<'s> {
    /// The calling thread's side of a run whose cache was not used because of `ignored`.
    pub(super) fn new(
        sink: &'s mut dyn FnMut(Event) -> bool,
        opts: &Options,
        ignored: Option<Unusable>,
    ) -> Self {
        Out {
            sink,
            alive: true,
            rows: Vec::new(),
            updated: Vec::new(),
            removed: Vec::new(),
            done: 0,
            total: 0,
            learned: Learned {
                ignored,
                spill: spill(opts),
                ..Learned::default()
            },
            last_flush: None,
            tap: opts.tap.clone(),
        }
    }

    /// The sink still listens.
    pub(super) fn alive(&self) -> bool {
        self.alive
    }

    /// The walk found `total` files, and these problems.
    pub(super) fn found(&mut self, total: usize, issues: Vec<FileIssue>) {
        self.total = total;
        self.send(Event::Found { total });
        self.learned.issues += issues.len();
        for issue in issues {
            self.send(Event::Issue(issue));
        }
    }

    /// What the run learned of the walked files (taken: asked once, after the readers).
    pub(super) fn learned(&mut self) -> Learned {
        std::mem::take(&mut self.learned)
    }

    pub(super) fn send(&mut self, event: Event) {
        self.alive = self.alive && (self.sink)(event);
    }

    /// What the plan settles at once: gone entries, kept lines, sessions sent already.
    pub(super) fn begin(
        &mut self,
        rc: &Arc<RowCache>,
        files: &[RolloutFile],
        work: &Work,
        sent: &[Has],
        cold: bool,
    ) {
        let learned = &mut self.learned;
        learned.ids = vec![Id::None; files.len()];
        if cold {
            learned.looked = vec![None; files.len()];
        }
        learned.fresh = (0..files.len()).map(|_| None).collect();
        self.removed.extend(
            work.gone
                .iter()
                .filter(|&&e| sent[e] != Has::Nothing)
                .map(|&e| cache::path_from(rc.path(&rc.entries()[e]))),
        );
        for &(i, e) in work.kept.iter().chain(&work.skipped) {
            learned.ids[i] = Id::Cached(e);
        }
        learned.stats.reused = work.kept.len() + work.skipped.len();
        self.done = learned.stats.reused;
        let kept = work.kept.iter().map(|&(_, e)| {
            Row::Kept(Kept {
                cache: Arc::clone(rc),
                entry: e,
            })
        });
        self.rows.extend(kept);
        self.flush();
    }

    /// Take results until every reader is done (or the sink stops the run), sending batches as
    /// they fill or as [`FLUSH_EVERY`] passes; the first rows go out as soon as there are any.
    pub(super) fn receive(
        &mut self,
        rx: &Receiver<Vec<Settled>>,
        files: &[RolloutFile],
        sent: &[Has],
    ) {
        loop {
            match rx.recv_timeout(FLUSH_EVERY) {
                Ok(settled) => {
                    settled.into_iter().for_each(|s| self.take(s, files, sent));
                    self.alive = self.alive && self.tap.as_ref().is_none_or(|tap| tap.settled());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let due = match self.last_flush {
                None => true,
                Some(t) => t.elapsed() >= FLUSH_EVERY,
            };
            let pending = self.rows.len() + self.updated.len() + self.removed.len();
            if pending >= BATCH || (due && pending > 0) {
                self.flush();
            }
            if !self.alive {
                break;
            }
        }
    }

    fn take(&mut self, s: Settled, files: &[RolloutFile], sent: &[Has]) {
        self.done += 1;
        let i = s.todo.file;
        if let Some(slot) = self.learned.looked.get_mut(i) {
            *slot = s.looked;
        }
        match s.pass {
            Pass::Unread => {}
            Pass::Reused => self.learned.stats.reused += 1,
            Pass::Resumed(b) => {
                self.learned.stats.resumed += 1;
                self.learned.stats.bytes_read += b;
            }
            Pass::Rescanned(b) => {
                self.learned.stats.rescanned += 1;
                self.learned.stats.bytes_read += b;
            }
        }
        let has = s.todo.entry.map_or(Has::Nothing, |(e, _)| sent[e]);
        let made = match s.made {
            Ok(made) => made,
            Err(issue) => {
                // Not a session (yet): forget it so a later run looks again.
                self.learned.stats.forgotten += usize::from(s.todo.entry.is_some());
                if has != Has::Nothing {
                    self.removed.push(files[i].path.clone());
                }
                self.learned.issues += 1;
                self.send(Event::Issue(issue));
                return;
            }
        };
        let row = made.row;
        self.learned.stats.stored += usize::from(made.state.is_some());
        self.learned.stats.lines += usize::from(made.line.is_some());
        if made.state.is_some() || made.line.is_some() {
            let state = made.state.map(|s| self.learned.spill.push(&s));
            self.learned.fresh[i] = Some(Box::new(Fresh {
                state,
                line: made.line,
                id: row.id.clone(),
                fork: made.fork,
                complete: made.complete,
            }));
        }
        self.learned.ids[i] = Id::Made(row.id.clone());
        let titled = row.first_user_message.is_some();
        if made.fork && (!titled || row.user_messages.is_some()) {
            self.learned.forks.push(row.clone());
        }
        match (has, s.pass) {
            (Has::AsCached, Pass::Reused) => {}
            (Has::Nothing, _) => self.rows.push(Row::Made(Arc::new(row))),
            _ => self.updated.push(row),
        }
    }

    /// Send what is pending and the progress.
    pub(super) fn flush(&mut self) {
        let rows = std::mem::take(&mut self.rows);
        let updated = std::mem::take(&mut self.updated);
        let removed = std::mem::take(&mut self.removed);
        if !rows.is_empty() {
            self.send(Event::Rows(rows));
        }
        if !updated.is_empty() {
            self.send(Event::Updated(updated));
        }
        if !removed.is_empty() {
            self.send(Event::Removed(removed));
        }
        let (done, total) = (self.done, self.total);
        self.send(Event::Progress { done, total });
        self.last_flush = Some(Instant::now());
    }
}

/// Where the states a run reads wait for the save: a whole read's in a file beside the rows
/// cache (it runs beside the picker's content index build), any other run's in memory.
fn spill(opts: &Options) -> Spill {
    match (&opts.kind, opts.cache.as_deref()) {
        (super::Kind::Whole, Some(cache)) => Spill::beside(cache.parent()),
        _ => Spill::default(),
    }
}
