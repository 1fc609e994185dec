//! The calling thread's side of a run: what goes to the sink, in batches, and what the run
//! learns of each walked file as the readers settle it.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::Instant;

use super::plan::Work;
use super::settle::{Fresh, Pass, Settled, Stats};
use super::{Event, Has, Kept, Options, Row};
use crate::session::SessionRow;
use crate::store::cache::{self, RowCache};
use crate::store::walk::RolloutFile;

/// A walked file's session id, as far as the run knows it.
#[derive(Debug, Clone)]
pub(super) enum Id {
    /// Not a session (or not settled).
    None,
    /// The id of a cache entry.
    Cached(usize),
    Made(String),
}

/// The calling thread's side of a run: the sink, the batch waiting to go, and what the run
/// learns of each walked file.
pub(super) struct Out<'s> {
    pub(super) sink: &'s mut dyn FnMut(Event) -> bool,
    pub(super) batch_size: usize,
    pub(super) flush_every: std::time::Duration,
    pub(super) alive: bool,
    pub(super) rows: Vec<Row>,
    pub(super) updated: Vec<SessionRow>,
    pub(super) removed: Vec<PathBuf>,
    pub(super) done: usize,
    pub(super) total: usize,
    pub(super) issues: usize,
    pub(super) ids: Vec<Id>,
    /// Each file as its reader looked at it (a start with nothing cached; empty otherwise).
    pub(super) looked: Vec<Option<RolloutFile>>,
    /// Files that could not be looked at.
    pub(super) unread: Vec<bool>,
    /// Boxed: a warm run has one slot for every walked file and fills few of them.
    pub(super) fresh: Vec<Option<Box<Fresh>>>,
    pub(super) forks: Vec<SessionRow>,
    pub(super) stats: Stats,
    pub(super) ignored: Option<String>,
    pub(super) last_flush: Option<Instant>,
}

impl<'s> Out<'s> {
    pub(super) fn new(sink: &'s mut dyn FnMut(Event) -> bool, opts: &Options) -> Self {
        Out {
            sink,
            batch_size: opts.batch.max(1),
            flush_every: opts.flush_every,
            alive: true,
            rows: Vec::new(),
            updated: Vec::new(),
            removed: Vec::new(),
            done: 0,
            total: 0,
            issues: 0,
            ids: Vec::new(),
            looked: Vec::new(),
            unread: Vec::new(),
            fresh: Vec::new(),
            forks: Vec::new(),
            stats: Stats::default(),
            ignored: None,
            last_flush: None,
        }
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
        self.ids = vec![Id::None; files.len()];
        if cold {
            self.looked = vec![None; files.len()];
        }
        self.unread = vec![false; files.len()];
        self.fresh = (0..files.len()).map(|_| None).collect();
        self.removed.extend(
            work.gone
                .iter()
                .filter(|&&e| sent[e] != Has::Nothing)
                .map(|&e| cache::path_from(rc.path(&rc.entries()[e]))),
        );
        for &(i, e) in work.kept.iter().chain(&work.skipped) {
            self.ids[i] = Id::Cached(e);
        }
        self.stats.reused = work.kept.len() + work.skipped.len();
        self.done = self.stats.reused;
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
    /// they fill or as `flush_every` passes; the first rows go out as soon as there are any.
    pub(super) fn receive(
        &mut self,
        rx: &Receiver<Vec<Settled>>,
        files: &[RolloutFile],
        sent: &[Has],
    ) {
        loop {
            match rx.recv_timeout(self.flush_every) {
                Ok(settled) => settled.into_iter().for_each(|s| self.take(s, files, sent)),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let due = match self.last_flush {
                None => true,
                Some(t) => t.elapsed() >= self.flush_every,
            };
            let pending = self.rows.len() + self.updated.len() + self.removed.len();
            if pending >= self.batch_size || (due && pending > 0) {
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
        if let Some(slot) = self.looked.get_mut(i) {
            *slot = s.looked;
        }
        match s.pass {
            Pass::Unread => self.unread[i] = true,
            Pass::Reused => self.stats.reused += 1,
            Pass::Passed => self.stats.passed += 1,
            Pass::Resumed(b) => {
                self.stats.resumed += 1;
                self.stats.bytes_read += b;
            }
            Pass::Rescanned(b) => {
                self.stats.rescanned += 1;
                self.stats.bytes_read += b;
            }
        }
        let has = s.todo.entry.map_or(Has::Nothing, |(e, _)| sent[e]);
        let made = match s.made {
            Ok(made) => made,
            Err(issue) => {
                // Not a session (yet): forget it so a later run looks again.
                self.stats.forgotten += usize::from(s.todo.entry.is_some());
                if has != Has::Nothing {
                    self.removed.push(files[i].path.clone());
                }
                self.issues += 1;
                self.send(Event::Issue(issue));
                return;
            }
        };
        let row = made.row;
        self.stats.stored += usize::from(made.state.is_some());
        self.stats.lines += usize::from(made.line.is_some());
        if made.state.is_some() || made.line.is_some() {
            self.fresh[i] = Some(Box::new(Fresh {
                state: made.state,
                line: made.line,
                id: row.id.clone(),
                fork: made.fork,
                complete: made.complete,
            }));
        }
        self.ids[i] = Id::Made(row.id.clone());
        let titled = row.first_user_message.is_some();
        // A fork's row made by the caller from its pass was titled and counted then.
        let passed = matches!(s.pass, Pass::Passed);
        if made.fork && !passed && (!titled || row.user_messages.is_some()) {
            self.forks.push(row.clone());
        }
        match (has, s.pass) {
            (Has::AsCached, Pass::Reused) | (_, Pass::Passed) => {}
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
