//! A run of the engine, phase by phase: the cached rows first (when asked), the walk beside the
//! cache's loading, the plan, the files settled on the pool while this thread sends what they
//! give, then forks, duplicate ids and the cache saved.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use rayon::prelude::*;
use rayon::ThreadPool;

use super::out::{Id, Learned, Out};
use super::plan::{self, Todo, Work};
use super::settled::{Made, Pass, Settled};
use super::{Event, Finished, Has, Kind, Options, Row};
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::store::cache::{self, LoadOutcome, Plan, RowCache, Stamp};
use crate::store::walk::RolloutFile;
use crate::store::{fork, issues, reader, FileIssue, Store};

/// Files a reader takes at a time.
const CHUNK: usize = 8;

pub(super) struct Run<'a> {
    store: &'a Store,
    opts: &'a Options,
    pool: &'a ThreadPool,
    started: Instant,
    names: OnceLock<HashMap<String, String>>,
    stamp: Stamp,
    stop: AtomicBool,
    /// Nothing is cached: the files are listed by name only and each reader looks at its file
    /// first, so reading starts as soon as the names are listed.
    cold: bool,
}

impl<'a> Run<'a> {
    pub(super) fn new(store: &'a Store, opts: &'a Options, pool: &'a ThreadPool) -> Self {
        Run {
            store,
            opts,
            pool,
            started: Instant::now(),
            names: OnceLock::new(),
            stamp: opts.lines().map_or(Stamp::default(), |l| l.stamp),
            stop: AtomicBool::new(false),
            cold: false,
        }
    }

    fn names(&self) -> &HashMap<String, String> {
        self.names.get_or_init(|| self.store.names())
    }

    /// Whether a cached entry's state is a session this run lists.
    fn wanted(&self, key: cache::Key) -> bool {
        key.session && (self.opts.archived || !key.archived)
    }

    pub(super) fn go(mut self, sink: &mut dyn FnMut(Event) -> bool) -> bool {
        let file = self.opts.cache.as_deref();
        let head = match (file, &self.opts.kind) {
            (Some(file), Kind::First) => RowCache::head(file, &self.store.cache_home()),
            _ => RowCache::empty(&self.store.cache_home()),
        };
        if !head.is_empty() && !sink(Event::Rows(self.rows_of(&head, None))) {
            return false;
        }
        // With no cache file the files are listed by name only: each reader looks at its file
        // first, so reading starts as soon as the names are listed. A tap compares what it has
        // with each file as it is: they are looked at while walked.
        self.cold = head.is_empty() && file.is_none_or(|f| !f.is_file()) && self.opts.tap.is_none();
        let ((files, walk_issues), (mut rc, outcome)) = self.walk_and_load();
        let mut in_head: Vec<Vec<u8>> = head
            .entries()
            .iter()
            .filter(|e| self.wanted(e.key()))
            .map(|e| head.path(e).to_vec())
            .collect();
        in_head.sort_unstable();
        rc.adopt(head);
        let sent = self.sent(&rc);
        if matches!(self.opts.kind, Kind::First) {
            let rest = self.rows_of(&rc, Some(&in_head));
            if !rest.is_empty() && !sink(Event::Rows(rest)) {
                return false;
            }
        }
        let rc = Arc::new(rc);
        let ignored = match outcome {
            LoadOutcome::Ignored(why) if file.is_some() => Some(why),
            _ => None,
        };
        let mut out = Out::new(sink, self.opts, ignored);
        out.found(files.len(), walk_issues);
        let work = self.plan(&files, &rc, &sent);
        out.begin(&rc, &files, &work, &sent, self.cold);
        self.settle_all(&rc, &files, &work, &sent, &mut out);
        if !out.alive() {
            return false;
        }
        let mut learned = out.learned();
        let files = if self.cold {
            // Each file as its reader looked at it.
            files
                .into_iter()
                .zip(std::mem::take(&mut learned.looked))
                .map(|(f, looked)| looked.unwrap_or(f))
                .collect()
        } else {
            files
        };
        self.finish(rc, files, &work, learned, out)
    }

    /// The walk, and the rows cache loaded beside it (looked at only when the run is not
    /// cold).
    fn walk_and_load(&self) -> ((Vec<RolloutFile>, Vec<FileIssue>), (RowCache, LoadOutcome)) {
        let home = &self.store.cache_home();
        let look = !self.cold;
        self.pool.install(|| {
            rayon::join(
                || self.store.walk(self.opts.archived, look),
                || match self.opts.cache.as_deref() {
                    Some(file) if look => RowCache::load(file, home),
                    Some(_) => (RowCache::empty(home), LoadOutcome::missing()),
                    None => (RowCache::empty(home), LoadOutcome::Loaded),
                },
            )
        })
    }

    /// What to do with each walked file, the tap asked which it wants.
    fn plan(&self, files: &[RolloutFile], rc: &RowCache, sent: &[Has]) -> Work {
        let tapped = self.opts.tap.as_ref().map(|tap| tap.wants(files));
        let ask = plan::Ask {
            until: self.opts.until(),
            archived: self.opts.archived,
            lines: self.opts.lines().is_some() && rc.stamp() == self.stamp,
            states: matches!(self.opts.kind, Kind::States),
            sent,
            whole: matches!(self.opts.kind, Kind::Whole),
            tapped: tapped.as_deref().unwrap_or_default(),
        };
        plan::plan(files, rc, &ask)
    }

    /// What the sink has of each entry of `rc` (the rows sent first, or those it holds).
    fn sent(&self, rc: &RowCache) -> Vec<Has> {
        let entries = rc.entries().iter();
        let wanted = |e: &cache::Entry, has| {
            if self.wanted(e.key()) {
                has
            } else {
                Has::Nothing
            }
        };
        match &self.opts.kind {
            Kind::List { .. } | Kind::States => vec![Has::Nothing; rc.len()],
            Kind::First => entries.map(|e| wanted(e, Has::AsCached)).collect(),
            // The first or a later run sent a row of every cached session.
            Kind::Whole => entries.map(|e| wanted(e, Has::Path)).collect(),
            Kind::Later(held) => entries
                .map(|e| {
                    let key = e.key();
                    wanted(e, held.has(rc.path(e), key.size, key.mtime_ms))
                })
                .collect(),
        }
    }

    /// Rows made from the cached sessions of `rc` (those whose path is not in `except`),
    /// decoded on the pool.
    fn rows_of(&self, rc: &RowCache, except: Option<&[Vec<u8>]>) -> Vec<Row> {
        let names = self.names();
        self.pool.install(|| {
            rc.entries()
                .par_iter()
                .filter(|e| self.wanted(e.key()))
                .filter(|e| {
                    except.is_none_or(|x| x.binary_search_by(|p| p[..].cmp(rc.path(e))).is_err())
                })
                .filter_map(|e| {
                    let row = reader::row_from_state(&rc.file(e), rc.state(e)?, names);
                    Some(Row::Made(Arc::new(row)))
                })
                .collect()
        })
    }

    /// Settle every file of the plan on the pool; this thread sends what they give.
    fn settle_all(
        &self,
        rc: &RowCache,
        files: &[RolloutFile],
        work: &Work,
        sent: &[Has],
        out: &mut Out,
    ) {
        if work.todo.is_empty() {
            return;
        }
        let (tx, rx) = mpsc::channel::<Vec<Settled>>();
        self.pool.in_place_scope(|scope| {
            scope.spawn(|_| {
                work.todo
                    .chunks(CHUNK)
                    .par_bridge()
                    .for_each_with(tx, |tx, chunk| {
                        if self.stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let settled = chunk.iter().map(|t| self.settle(rc, files, *t)).collect();
                        let _ = tx.send(settled);
                    });
            });
            out.receive(&rx, files, sent);
            if !out.alive() {
                self.stop.store(true, Ordering::Relaxed);
            }
            // The readers end by themselves once told to stop; what they still send is dropped.
            drop(rx);
        });
    }

    /// Settle one file: from the cache when that is enough, else read (on from a cached offset
    /// when it only grew; whole, once, when the tap wants it); its row, or why it is not a
    /// session.
    fn settle(&self, rc: &RowCache, files: &[RolloutFile], todo: Todo) -> Settled {
        if !self.cold {
            return self.settle_file(rc, files, &files[todo.file], todo);
        }
        match files[todo.file].clone().look() {
            Ok(file) => Settled {
                looked: Some(file.clone()),
                ..self.settle_file(rc, files, &file, todo)
            },
            Err(issue) => Settled {
                todo,
                looked: None,
                pass: Pass::Unread,
                made: Err(issue),
            },
        }
    }

    /// [`Run::settle`] of a file looked at.
    fn settle_file(
        &self,
        rc: &RowCache,
        files: &[RolloutFile],
        file: &RolloutFile,
        todo: Todo,
    ) -> Settled {
        let entry = todo.entry.map(|(e, how)| (&rc.entries()[e], how));
        if todo.tapped {
            if let Some(settled) = self.settle_tapped(files, file, todo) {
                return settled;
            }
        }
        let (mut state, fresh) = match entry {
            Some((e, how)) if how != Plan::Rescan => match rc.state(e) {
                // A grown file is read on from the state's offset, which must lie within it.
                Some(s) if how == Plan::Fresh || s.offset <= file.size => (s, how == Plan::Fresh),
                _ => (ScanState::default(), false),
            },
            _ => (ScanState::default(), false),
        };
        let until = self.opts.until();
        let read = !fresh || (until == Until::End && !state.complete);
        let from = state.offset;
        let mut pass = Pass::Reused;
        if read {
            let scanned = reader::scan_file(file, &mut state, &ScanOptions::new(until));
            let bytes = state.offset.saturating_sub(from);
            pass = if from == 0 {
                Pass::Rescanned(bytes)
            } else {
                Pass::Resumed(bytes)
            };
            if let Err(issue) = scanned {
                return Settled {
                    todo,
                    looked: None,
                    pass,
                    made: Err(issue),
                };
            }
        }
        let kept_line =
            entry.is_some_and(|(e, _)| rc.line(e).is_some() && rc.stamp() == self.stamp);
        Settled {
            todo,
            looked: None,
            pass,
            made: self.made(file, state, read, kept_line),
        }
    }

    /// A file the tap wants, read whole once: for its row and for the tap. `None` when it
    /// could not be read so (it is then read as any other file; the tap is told).
    fn settle_tapped(
        &self,
        files: &[RolloutFile],
        file: &RolloutFile,
        todo: Todo,
    ) -> Option<Settled> {
        let tap = self.opts.tap.as_deref()?;
        let read = fork::read_transcript_summarised(file, &mut { files }, &tap.options());
        let Ok((transcript, state)) = read else {
            tap.take(file, None);
            return None;
        };
        let pass = Pass::Rescanned(state.offset);
        let made = self.made(file, state, true, false);
        tap.take(file, made.as_ref().ok().map(|m| (&m.row, transcript)));
        Some(Settled {
            todo,
            looked: None,
            pass,
            made,
        })
    }

    /// The row of a file's `state` (`read` in this run, or as cached, with its output line
    /// kept when `kept_line`), and what the cache keeps of it anew; or why it is not a session.
    fn made(
        &self,
        file: &RolloutFile,
        state: ScanState,
        read: bool,
        kept_line: bool,
    ) -> Result<Made, FileIssue> {
        if let Some(issue) = reader::not_a_session(file, &state) {
            return Err(issue);
        }
        let keep = read && self.opts.cache.is_some();
        let encoded = keep.then(|| cache::encode_state(&state));
        let fork = state
            .meta
            .as_ref()
            .is_some_and(|m| m.history_base.is_some());
        let complete = state.complete;
        let row = reader::row_from_state(file, state, self.names());
        let want_line = !fork && (read || !kept_line);
        let line = match self.opts.lines() {
            Some(lines) if want_line => Some((lines.render)(&row)),
            _ => None,
        };
        Ok(Made {
            row,
            state: encoded,
            line,
            fork,
            complete,
        })
    }

    /// Forks titled from their parents, duplicate ids, the cache saved, `Finished`.
    fn finish(
        self,
        rc: Arc<RowCache>,
        files: Vec<RolloutFile>,
        work: &Work,
        mut learned: Learned,
        mut out: Out,
    ) -> bool {
        // Every row goes before the updates that title forks.
        out.flush();
        let forks = std::mem::take(&mut learned.forks);
        let titled = self.pool.install(|| {
            forks
                .into_par_iter()
                .filter_map(|mut row| {
                    let before = row.clone();
                    fork::fill_from_parent(&mut row, &mut files.as_slice());
                    (row != before).then_some(row)
                })
                .collect::<Vec<_>>()
        });
        if !titled.is_empty() {
            out.send(Event::Updated(titled));
        }
        // Each id read once, as it is hashed: most are the cache's own bytes, scattered
        // through its map, and reading one is mostly waiting for memory.
        let known = std::mem::take(&mut learned.ids);
        let id_of = |id| id_of(&rc, id);
        let dups = issues::duplicate_ids(
            known
                .iter()
                .zip(&files)
                .filter_map(|(id, f)| Some((id_of(id)?, f.path.as_path()))),
        );
        for note in dups {
            out.send(Event::Note(note));
        }
        out.flush();
        // Every row is sent: the tap's end comes after them.
        if let (Some(tap), true) = (&self.opts.tap, out.alive()) {
            tap.end();
        }
        let mut stats = std::mem::take(&mut learned.stats);
        stats.removed = work.gone.len();
        stats.cached = work.entry_of.iter().flatten().count();
        let changed = stats.changed_cache() || learned.ignored.is_some();
        let mut save_error = None;
        if let (true, Some(file)) = (changed, self.opts.cache.as_deref()) {
            if cache::allowed(file, &self.store.home) {
                save_error = self.save(file, &rc, &files, work, &learned, &known).err();
            }
        }
        let rows = known.iter().filter(|id| !matches!(id, Id::None)).count();
        // Tens of thousands of paths: not worth waiting for on the way to the output.
        crate::store::drop_later(files);
        let finished = Finished {
            rows,
            issues: learned.issues,
            elapsed: self.started.elapsed(),
            stats,
            cache_ignored: learned.ignored.take(),
            changed,
            save_error,
        };
        out.send(Event::Finished(Box::new(finished)));
        out.alive()
    }

    /// Save what the run ends with: the walked sessions (kept as read, or anew) and the entries
    /// of folders not walked.
    fn save(
        &self,
        file: &std::path::Path,
        rc: &RowCache,
        files: &[RolloutFile],
        work: &Work,
        learned: &Learned,
        ids: &[Id],
    ) -> std::io::Result<()> {
        let spilled = learned
            .spill
            .view()
            .ok_or_else(|| std::io::Error::other("the states read could not be read back"))?;
        let stamp = if self.opts.lines().is_some() {
            self.stamp
        } else {
            rc.stamp()
        };
        let keep_lines = stamp == rc.stamp();
        let entries = rc.entries();
        let kept = |e: &cache::Entry| (rc.record(e, keep_lines), keep_lines && rc.in_base(e));
        let mut records = Vec::with_capacity(files.len() + work.unwalked.len());
        for (i, f) in files.iter().enumerate().rev() {
            let old = work.entry_of[i].map(|e| &entries[e]);
            match (&learned.fresh[i], old) {
                (Some(new), _) => records.push((
                    cache::RecordRef {
                        path: f.path.as_os_str().as_encoded_bytes(),
                        key: cache::Key {
                            size: f.size,
                            mtime_ms: f.mtime_ms,
                            compressed: f.compressed,
                            archived: f.archived,
                            session: true,
                            fork: new.fork,
                            complete: new.complete,
                            source: f.source,
                        },
                        state: match (&new.state, old) {
                            (Some(state), _) => spilled.get(state),
                            (None, Some(e)) => rc.record(e, false).state,
                            (None, None) => continue,
                        },
                        id: new.id.as_bytes(),
                        line: new.line.as_deref().unwrap_or_default().as_bytes(),
                    },
                    false,
                )),
                (None, Some(e)) if !matches!(ids[i], Id::None) => records.push(kept(e)),
                _ => {}
            }
        }
        if !work.unwalked.is_empty() {
            records.extend(work.unwalked.iter().map(|&e| kept(&entries[e])));
            records.sort_unstable_by(|a, b| a.0.path.cmp(b.0.path));
        }
        cache::save(file, rc, stamp, &records)
    }
}

/// A walked file's session id as text, when it has one.
fn id_of<'a>(rc: &'a RowCache, id: &'a Id) -> Option<Cow<'a, str>> {
    match id {
        Id::None => None,
        Id::Cached(e) => Some(id_text(rc.id(&rc.entries()[*e]))),
        Id::Made(s) => Some(Cow::Borrowed(s.as_str())),
    }
}

/// A cached session id as text (`from_utf8_lossy` alone checks a valid id several times
/// slower).
fn id_text(id: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(id) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(id),
    }
}
