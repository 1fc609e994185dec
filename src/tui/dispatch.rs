//! The picker's side of the workers: the app's requests sent to the workers, and what the
//! workers send back applied to the app through its own `apply_*` functions. The search, the
//! conversation reader and the store changes are [`SingleJob`]s, which keep the newest request
//! and drop stale answers; this owns the two hand-over rules left: indexer batches that arrive
//! together are taken together (the first one alone), and a conversation is held while the top
//! row is still changing. Never blocks. The workers ring the loop's [`Wakeup`] after each
//! message; which of them rang tells whether the indexer has news. The store's thread locks
//! come from their own thread when they change, and are read here only just before an action on
//! a session (a folder and `/proc/locks`).

use std::sync::mpsc::{Receiver, TryRecvError};

use crate::workers::locks;
use std::time::{Duration, Instant};

use crate::codex::{Codex, CodexError};
use crate::store::engine::{self, Held, Row};
use crate::store::Store;
use crate::tui::app::App;
use crate::workers::changes::{self, Changes, Done};
use crate::workers::conversation_reader::{Job, Loaded, Reader};
use crate::workers::indexer::Event;
use crate::workers::job::{Answered, SingleJob};
use crate::workers::search::{Answer, Search};
use crate::workers::wake::{Source, Wakeup};
use crate::workers::watch::Changed;

/// The longest the event loop spends taking in indexer events before it looks at the keyboard
/// and the screen again.
const DRAIN_BUDGET: Duration = Duration::from_millis(8);

/// How long the top row must stay the same, while the first index streams in, before its
/// conversation is read.
const TOP_SETTLE: Duration = Duration::from_millis(120);

/// The indexer's channel, the jobs, the watchers, and the conversation held back from the
/// reader.
pub struct Workers {
    /// What the workers ring.
    wakeup: Wakeup,
    index: Indexer,
    search: SingleJob<Search>,
    reader: SingleJob<Reader>,
    /// The conversation asked for last, not sent yet, and since when it waits.
    held: Option<(Job, Instant)>,
    /// codex, and the thread that runs its store changes (`None`: changes are refused).
    codex: Option<(Codex, SingleJob<Changes>)>,
    /// The store read again when it changes (`None`: it is read once).
    live: Option<Live>,
    /// The store whose open sessions are read, and their thread.
    locks: Option<(Store, locks::Watch)>,
}

/// The indexer's channel, as the loop reads it.
struct Indexer {
    events: Receiver<Event>,
    /// The indexer is still sending.
    open: bool,
    /// The indexer rang since its channel was last read empty.
    news: bool,
}

impl Indexer {
    fn new(events: Receiver<Event>) -> Indexer {
        Indexer {
            events,
            open: true,
            news: true,
        }
    }
}

/// Reading the store again: the watcher (started once the first rows phase has ended, so it
/// takes nothing from the first start), its ticks, how to start the indexer again, and whether
/// a new run is due (it starts when the current one has ended).
struct Live {
    watch: Option<Box<dyn FnOnce() -> Receiver<Changed> + Send>>,
    ticks: Option<Receiver<Changed>>,
    restart: Box<dyn Fn(Held) -> Receiver<Event> + Send>,
    due: bool,
}

/// What [`Workers::drain_index`] did.
pub struct Drained {
    /// Something was applied: draw.
    pub applied: bool,
    /// The first rows or the end of the rows phase: draw without waiting for the next frame.
    pub urgent: bool,
    /// More may be waiting: come back without sleeping.
    pub backlog: bool,
    /// The indexer is still sending.
    pub open: bool,
}

impl Workers {
    /// The picker's end of the indexer's channel, the search and conversation jobs, as their
    /// `spawn` functions return them, and what they ring.
    pub fn new(
        wakeup: Wakeup,
        index: Receiver<Event>,
        search: SingleJob<Search>,
        reader: SingleJob<Reader>,
    ) -> Workers {
        Workers {
            wakeup,
            index: Indexer::new(index),
            search,
            reader,
            held: None,
            codex: None,
            live: None,
            locks: None,
        }
    }

    /// Watch which sessions of `store` are open elsewhere, for the app.
    pub fn with_locks(mut self, store: Store) -> Workers {
        let watch = locks::spawn(store.clone());
        self.locks = Some((store, watch));
        self
    }

    /// The thread locks: as their thread last sent them, or read now when `now` (just before
    /// an action on a session); whether what the app shows changed.
    pub fn refresh_locks(&mut self, app: &mut App, now: bool) -> bool {
        let Some((store, watch)) = &self.locks else {
            return false;
        };
        let newest = if now {
            Some(crate::store::locks::read(store))
        } else {
            watch.snapshots.try_iter().last()
        };
        newest.is_some_and(|locks| app.apply_locks(locks))
    }

    /// Read the store again whenever the watcher `watch` starts says it changed, or the user
    /// asks (Ctrl+R), with a new indexer from `restart` (its rows cache makes that a re-stat
    /// plus what changed).
    pub fn with_live(
        mut self,
        watch: impl FnOnce() -> Receiver<Changed> + Send + 'static,
        restart: impl Fn(Held) -> Receiver<Event> + Send + 'static,
    ) -> Workers {
        self.live = Some(Live {
            watch: Some(Box::new(watch)),
            ticks: None,
            restart: Box::new(restart),
            due: false,
        });
        self
    }

    /// Start the indexer again when the store changed or the user asked, once the current run
    /// has ended.
    fn reread(&mut self, app: &mut App, asked: bool) {
        let Some(live) = &mut self.live else {
            if asked {
                app.notify("the store is read once here");
            }
            return;
        };
        if app.index().finished() {
            if let Some(watch) = live.watch.take() {
                live.ticks = Some(watch());
            }
        }
        let changed = live
            .ticks
            .as_ref()
            .is_some_and(|t| t.try_iter().count() > 0);
        live.due |= asked || changed;
        if live.due && !self.index.open {
            live.due = false;
            self.index = Indexer::new((live.restart)(app.held_files()));
            app.index_restarted();
        }
    }

    /// Run codex for the picker: the launches that end it, and the store changes, on a thread
    /// of their own, on `store`.
    pub fn with_codex(mut self, codex: Codex, store: Store) -> Workers {
        let changes = changes::spawn(codex.clone(), store, self.wakeup.waker(Source::Answer));
        self.codex = Some((codex, changes));
        self
    }

    /// Whether codex can be run, or why not.
    /// Whether the agent of `source` can be run: codex as the workers know it, `claude` as
    /// the environment finds it.
    pub fn can_run(&self, source: crate::sources::Source) -> Result<(), String> {
        match source {
            crate::sources::Source::Codex => self.codex().map(|_| ()).map_err(|e| e.to_string()),
            crate::sources::Source::Claude => {
                let home = self.locks.as_ref().and_then(|(s, _)| s.claude.as_deref());
                let claude = crate::sources::claude::command::Claude::locate(home);
                claude.found().map_err(str::to_owned)
            }
        }
    }

    pub fn codex(&self) -> Result<&Codex, CodexError> {
        let (codex, _) = self.codex.as_ref().ok_or(CodexError::NotFound)?;
        codex.program()?;
        Ok(codex)
    }

    /// What the workers ring: the event loop sleeps on it.
    pub fn wakeup(&self) -> &Wakeup {
        &self.wakeup
    }

    /// Take the rings since the last call (the loop has woken).
    pub fn woken(&mut self) {
        self.index.news |= self.wakeup.take().has(Source::Index);
    }

    /// The indexer has sent something not taken in yet (or has ended).
    pub fn index_news(&self) -> bool {
        self.index.news && self.index.open
    }

    /// When the conversation held back is to be sent, if one is.
    pub fn held_until(&self, app: &App) -> Option<Instant> {
        let (_, since) = self.held.as_ref()?;
        Some(if app.follows_top() {
            *since + TOP_SETTLE
        } else {
            Instant::now()
        })
    }

    /// An answer the app asked for is still to come: a search, a conversation (held back or
    /// being read), or a change.
    pub fn awaiting(&self, app: &App) -> bool {
        app.searching()
            || self.held.is_some()
            || self.reader.awaiting()
            || self
                .codex
                .as_ref()
                .is_some_and(|(_, changes)| changes.awaiting())
    }

    /// Send the app's requests to the workers. While the first index streams in and the
    /// selection follows the top row, a conversation is held until the top has settled (or the
    /// user moves, or the index is complete): reading every session that passes through the
    /// top would take cores from the indexer for conversations nobody sees.
    pub fn send(&mut self, app: &mut App) {
        let outbox = app.take_outbox();
        self.reread(app, outbox.reread);
        for req in outbox.search {
            // A worker that is gone has panicked; the picker goes on without its answers.
            self.search.request(req);
        }
        for req in outbox.changes {
            let refused = match &mut self.codex {
                Some((_, changes)) => changes.submit(req).err(),
                None => Some(req),
            };
            if let Some(request) = refused {
                app.apply_change(Done {
                    request,
                    result: Err(CodexError::NotFound.into()),
                });
            }
        }
        if let Some(job) = outbox.transcripts.into_iter().last() {
            self.held = Some((job, Instant::now()));
        }
        let settled = self
            .held
            .as_ref()
            .is_some_and(|(_, since)| !app.follows_top() || since.elapsed() >= TOP_SETTLE);
        if settled {
            if let Some((job, _)) = self.held.take() {
                self.reader.read(job);
            }
        }
    }

    /// Apply the search answers and the conversations that have arrived; whether there were
    /// any.
    pub fn take_answers(&mut self, app: &mut App) -> bool {
        let mut taken = false;
        for Answered { gen, answer } in self.search.take() {
            match answer {
                Answer::Ranked { titles, hits } => {
                    app.apply_search(gen, titles, hits);
                }
                Answer::Content { hits } => app.apply_content(gen, hits),
            }
            taken = true;
        }
        // A conversation is kept by session, so one read for a row the selection has passed
        // is taken too.
        for Answered { answer, .. } in self.reader.take() {
            let Loaded { id, result } = answer;
            app.apply_transcript(id, result);
            taken = true;
        }
        if let Some((_, changes)) = &mut self.codex {
            for Answered { answer, .. } in changes.take() {
                app.apply_change(answer);
                taken = true;
            }
        }
        taken
    }

    /// Apply what the indexer has sent (see [`drain_index`]).
    pub fn drain_index(&mut self, app: &mut App) -> Drained {
        let drained = drain_index(app, &self.index.events);
        self.index.open &= drained.open;
        self.index.news = drained.backlog;
        drained
    }
}

impl Drop for Workers {
    /// An app-server started for a request does not outlive the picker.
    fn drop(&mut self) {
        if let Some((codex, _)) = &self.codex {
            codex.stop_app_server();
        }
    }
}

/// Apply what the indexer has sent. Batches of new rows that
/// come back to back are applied as one, so a large store costs one sort of the list and one
/// frame per turn of the loop instead of one per batch (a frame per batch fell behind the
/// indexer, and the last rows showed long after they were read). The very first batch is
/// applied alone, so the first screenful is drawn at once.
fn drain_index(app: &mut App, rx: &Receiver<Event>) -> Drained {
    let start = Instant::now();
    let mut rows: Vec<Row> = Vec::new();
    let mut out = Drained {
        applied: false,
        urgent: false,
        backlog: false,
        open: true,
    };
    loop {
        if start.elapsed() >= DRAIN_BUDGET {
            out.backlog = true;
            break;
        }
        match rx.try_recv() {
            Ok(Event::Run(engine::Event::Rows(batch))) => {
                let first = app.rows().is_empty() && rows.is_empty();
                if rows.is_empty() {
                    rows = batch;
                } else {
                    rows.extend(batch);
                }
                if first {
                    out.backlog = true;
                    out.urgent = true;
                    break;
                }
            }
            // Progress only moves a counter: it need not wait for the rows before it.
            Ok(ev @ Event::Run(engine::Event::Progress { .. })) => {
                app.apply_index(ev);
                out.applied = true;
            }
            Ok(ev) => {
                if !rows.is_empty() {
                    let batch = std::mem::take(&mut rows);
                    app.apply_index(Event::Run(engine::Event::Rows(batch)));
                }
                out.urgent |= matches!(ev, Event::Run(engine::Event::Finished(_)));
                app.apply_index(ev);
                out.applied = true;
            }
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Disconnected) => {
                out.open = false;
                break;
            }
        }
    }
    if !rows.is_empty() {
        app.apply_index(Event::Run(engine::Event::Rows(rows)));
        out.applied = true;
    }
    out
}

#[cfg(test)]
#[path = "dispatch_tests.rs"]
mod tests;
