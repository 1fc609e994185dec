//! The content index kept up to date as a tap on the index engine's whole read: the engine
//! asks which walked files the index wants (new, changed or renamed sessions), reads each of
//! those whole once, for its row and for the index, and hands the index its messages; gone
//! sessions are deleted. What is read is committed in batches, each searchable at once.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use tantivy::{IndexWriter, Term};

use super::build::{self, BuildStats, BATCH};
use super::table::Session;
use super::{ContentIndex, Engine};
use crate::rollout::transcript::{Transcript, TranscriptOptions};
use crate::session::SessionRow;
use crate::store::engine::{self, Tap};
use crate::store::walk::RolloutFile;
use crate::store::Store;

/// Told after each commit and at the end: sessions indexed so far, of how many, and the index
/// searchable as far as it goes; false stops the run.
pub type Progress = Box<dyn FnMut(usize, usize, &ContentIndex) -> bool + Send>;

/// The content index as a tap (see the module's note).
pub struct ContentTap {
    index: ContentIndex,
    engine: Arc<Engine>,
    /// Session id to name, as the store names them now.
    names: HashMap<String, String>,
    threads: usize,
    /// Made when the index has anything to change; gone when it cannot be.
    writer: RwLock<Option<IndexWriter>>,
    pending: Mutex<Pending>,
    /// Sessions read since the last commit.
    since: AtomicUsize,
    done: AtomicUsize,
    total: AtomicUsize,
    stopped: AtomicBool,
    progress: Mutex<Progress>,
}

/// What the next commit records in the session table.
#[derive(Default)]
struct Pending {
    /// Sessions whose messages are deleted (files gone, or no longer sessions).
    removed: Vec<u64>,
    added: Vec<(u64, Session)>,
    stats: BuildStats,
}

impl ContentTap {
    /// The index in `dir` (in memory when `None`, or when the folder cannot hold one), to be
    /// brought up to date by a run it taps, with sessions named by `names`, written on up to
    /// `threads` threads.
    pub fn open(
        dir: Option<&std::path::Path>,
        names: HashMap<String, String>,
        threads: usize,
        progress: Progress,
    ) -> Option<ContentTap> {
        let (index, rebuilt) = match build::open(dir) {
            Ok(opened) => opened,
            Err(why) => {
                let (index, _) = build::open(None).ok()?;
                (index, Some(why.to_string()))
            }
        };
        let engine = index.engine.clone()?;
        let stats = BuildStats {
            rebuilt,
            ..BuildStats::default()
        };
        Some(ContentTap {
            index,
            engine,
            names,
            threads,
            writer: RwLock::new(None),
            pending: Mutex::new(Pending {
                stats,
                ..Pending::default()
            }),
            since: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            progress: Mutex::new(progress),
        })
    }

    /// The index, searchable as far as it goes.
    pub fn index(&self) -> ContentIndex {
        self.index.clone()
    }

    /// What the refresh did.
    pub fn stats(&self) -> BuildStats {
        self.pending().stats.clone()
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn tell(&self) -> bool {
        let (done, total) = (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        );
        let mut progress = self.progress.lock().unwrap_or_else(PoisonError::into_inner);
        let go_on = (*progress)(done, total, &self.index);
        if !go_on {
            self.stopped.store(true, Ordering::Relaxed);
        }
        go_on
    }

    /// Commit what was read and deleted since the last commit, and record it in the table.
    fn commit(&self) {
        let mut writer = self.writer.write().unwrap_or_else(PoisonError::into_inner);
        let Some(w) = writer.as_mut() else { return };
        let (removed, added) = {
            let mut p = self.pending();
            (std::mem::take(&mut p.removed), std::mem::take(&mut p.added))
        };
        self.since.store(0, Ordering::Relaxed);
        if let Err(err) = build::commit(&self.engine, w, true, &removed, added) {
            // Searches use the index as it is; nothing more is written.
            self.pending().stats.not_updated = Some(err);
            *writer = None;
        }
    }
}

impl Tap for ContentTap {
    fn options(&self) -> TranscriptOptions {
        TranscriptOptions::messages_only()
    }

    fn wants(&self, files: &[RolloutFile]) -> Vec<bool> {
        let table = self.engine.table();
        // Keyed by the paths' bytes, as the table keys them; the same path twice: the later
        // one counts.
        let walked: foldhash::HashMap<&OsStr, usize> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_os_str(), i))
            .collect();
        let gone: Vec<u64> = table
            .iter()
            .filter(|(_, s)| !walked.contains_key(s.path.as_os_str()))
            .map(|(n, _)| n)
            .collect();
        let wants: Vec<bool> = files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let same = table
                    .number_of(&f.path)
                    .and_then(|n| table.get(n))
                    .is_some_and(|s| {
                        s.size == f.size
                            && s.mtime_ms == f.mtime_ms
                            && s.name.as_deref() == self.names.get(&s.id).map(String::as_str)
                    });
                walked.get(f.path.as_os_str()) == Some(&i) && !same
            })
            .collect();
        drop(table);
        let read = wants.iter().filter(|w| **w).count();
        let reused = files.len() - read;
        self.done.store(reused, Ordering::Relaxed);
        self.total.store(files.len(), Ordering::Relaxed);
        let mut p = self.pending();
        p.stats.reused = reused;
        if !gone.is_empty() || read > 0 {
            match build::writer(&self.engine.index, self.threads) {
                Ok(w) => {
                    for &n in &gone {
                        w.delete_term(Term::from_field_u64(self.engine.fields.session, n));
                    }
                    p.stats.removed = gone.len();
                    p.removed = gone;
                    *self.writer.write().unwrap_or_else(PoisonError::into_inner) = Some(w);
                }
                Err(err) => p.stats.not_updated = Some(err.to_string()),
            }
        }
        drop(p);
        self.tell();
        wants
    }

    fn take(&self, file: &RolloutFile, read: Option<(&SessionRow, Transcript)>) {
        self.done.fetch_add(1, Ordering::Relaxed);
        let writer = self.writer.read().unwrap_or_else(PoisonError::into_inner);
        let Some(w) = writer.as_ref() else { return };
        let (number, old) = {
            let mut table = self
                .engine
                .table
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            (table.take_number(), table.number_of(&file.path))
        };
        let fields = &self.engine.fields;
        if let Some(old) = old {
            w.delete_term(Term::from_field_u64(fields.session, old));
        }
        let Some((row, transcript)) = read else {
            self.pending().removed.extend(old);
            return;
        };
        let name = self.names.get(&row.id).map(String::as_str);
        let messages = build::messages(transcript, name);
        for (ordinal, (place, text)) in messages.iter().enumerate() {
            // Fails only when the writer is gone; the commit then says so.
            let _ = w.add_document(build::message_doc(fields, number, ordinal, *place, text));
        }
        let session = Session {
            path: file.path.clone(),
            id: row.id.clone(),
            size: file.size,
            mtime_ms: file.mtime_ms,
            messages: messages.len() as u64,
            name: name.map(str::to_owned),
        };
        let mut p = self.pending();
        p.added.push((number, session));
        p.stats.read += 1;
        drop(p);
        self.since.fetch_add(1, Ordering::Relaxed);
    }

    fn settled(&self) -> bool {
        if self.since.load(Ordering::Relaxed) >= BATCH {
            self.commit();
            return self.tell();
        }
        !self.stopped.load(Ordering::Relaxed)
    }

    fn end(&self) {
        let pending = {
            let p = self.pending();
            !p.added.is_empty() || !p.removed.is_empty()
        };
        if pending {
            self.commit();
        }
        let writer = self
            .writer
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // No writer: nothing changed (the start said so), or the index could not be written.
        let Some(writer) = writer else { return };
        self.done
            .store(self.total.load(Ordering::Relaxed), Ordering::Relaxed);
        self.tell();
        let _ = writer.wait_merging_threads();
        // The merges that ended since the last commit replaced segments the reader still maps
        // (see `build::build`): seeing the merged ones lets those pages go.
        let _ = self.engine.reader.reload();
    }
}

/// The content index of every session of `store`, archived ones too, kept in `dir` (in memory
/// when `None`) and brought up to date by a listing of the store that it taps (with no rows
/// cache), on `threads` threads; `None` when `progress` stopped it. For a caller that wants
/// the index alone.
pub fn index_store(
    store: &Store,
    dir: Option<&std::path::Path>,
    threads: usize,
    progress: Progress,
) -> Option<(ContentIndex, BuildStats)> {
    let tap = Arc::new(ContentTap::open(dir, store.names(), threads, progress)?);
    let opts = engine::Options {
        tap: Some(tap.clone()),
        threads,
        ..engine::Options::list(true)
    };
    engine::run(store, &opts, &mut |_| true).then(|| (tap.index(), tap.stats()))
}
