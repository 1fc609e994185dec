//! Bringing a list of walked files up to date against the rows cache, on worker threads.
//!
//! Every file is settled where it lies in the list, by whichever thread takes its chunk:
//! unchanged files from their cached state (decoded, not read), new, grown or rewritten ones by
//! reading them (from their cached offset when they only grew).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use super::RowCache;
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::store::walk::RolloutFile;
use crate::store::{scan_file, FileIssue};

/// What a refresh did: the test-visible account of the work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefreshStats {
    /// Files whose cached state was used without reading.
    pub reused: usize,
    /// Files read on from a cached offset (grown, or incomplete when counts were needed).
    pub resumed: usize,
    /// Files read from the start (new or rewritten).
    pub rescanned: usize,
    /// Cached files that are gone.
    pub removed: usize,
    /// Walked files the cache had an entry for (when this is the number of entries, none is
    /// gone).
    pub cached: usize,
    /// Bytes of (decompressed) text read by all passes.
    pub bytes_read: u64,
    /// States written into the cache (files read, new or changed).
    pub stored: usize,
    /// Entries dropped for files that are not sessions (yet).
    pub forgotten: usize,
}

impl RefreshStats {
    /// Whether the refresh changed the cache in memory (so it is worth saving). A file that is
    /// not a session and was not cached either is read each time but changes nothing.
    pub fn changed_cache(&self) -> bool {
        self.stored + self.forgotten + self.removed > 0
    }
}

/// Files a thread takes at a time.
const CHUNK: usize = 64;

#[derive(Default)]
struct Counts {
    cached: AtomicUsize,
    reused: AtomicUsize,
    resumed: AtomicUsize,
    rescanned: AtomicUsize,
    bytes: AtomicU64,
}

/// A file's result and, when it was read, its new state for the cache.
type Slot<T> = Option<Result<(T, Option<Box<ScanState>>), FileIssue>>;

/// Bring `files` up to date against `cache` on `threads` threads, reading each only as far as
/// `until` needs: unchanged files are not opened, grown ones are read on from their offset.
/// Each file's state is handed to `make` on the thread that settled it; the results are in the
/// order of `files`. The cache is updated in memory (save it afterwards). Files that are not
/// sessions come back as issues.
pub fn refresh<T: Send>(
    cache: &mut RowCache,
    files: &[RolloutFile],
    until: Until,
    threads: usize,
    make: impl Fn(&RolloutFile, ScanState) -> T + Sync,
) -> (Vec<T>, Vec<FileIssue>, RefreshStats) {
    let opts = ScanOptions::new(until);
    let counts = Counts::default();
    // One slot per file, filled in place by whichever thread takes its chunk.
    let mut slots: Vec<Slot<T>> = Vec::new();
    slots.resize_with(files.len(), || None);
    {
        let cache = &*cache;
        let make = &make;
        let chunks = Mutex::new(slots.chunks_mut(CHUNK).enumerate());
        let work = || loop {
            let next = chunks
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .next();
            let Some((c, chunk)) = next else { break };
            for (j, slot) in chunk.iter_mut().enumerate() {
                let file = &files[c * CHUNK + j];
                *slot = Some(
                    settle_one(cache, file, &opts, &counts).map(|(state, changed)| {
                        let keep = changed.then(|| Box::new(state.clone()));
                        (make(file, state), keep)
                    }),
                );
            }
        };
        let threads = threads.clamp(1, 16).min(files.len().div_ceil(CHUNK).max(1));
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    }
    let mut made = Vec::with_capacity(slots.len());
    let mut issues = Vec::new();
    let (mut stored, mut forgotten) = (0, 0);
    for (file, slot) in files.iter().zip(slots) {
        match slot {
            None => {}
            Some(Ok((value, changed))) => {
                if let Some(state) = changed {
                    cache.put(file, *state);
                    stored += 1;
                }
                made.push(value);
            }
            Some(Err(issue)) => {
                // Not a session (yet): forget it so a later run looks again.
                forgotten += usize::from(cache.entries.remove(&file.path).is_some());
                issues.push(issue);
            }
        }
    }
    let stats = RefreshStats {
        reused: counts.reused.into_inner(),
        resumed: counts.resumed.into_inner(),
        rescanned: counts.rescanned.into_inner(),
        removed: 0,
        cached: counts.cached.into_inner(),
        bytes_read: counts.bytes.into_inner(),
        stored,
        forgotten,
    };
    (made, issues, stats)
}

/// One file brought up to date, from the cache when that is enough, else read: its state and
/// whether it was read; an issue for a file that is not a session.
fn settle_one(
    cache: &RowCache,
    file: &RolloutFile,
    opts: &ScanOptions,
    counts: &Counts,
) -> Result<(ScanState, bool), FileIssue> {
    let (mut state, fresh) = match cache.start_state(file) {
        Some(start) => {
            counts.cached.fetch_add(1, Ordering::Relaxed);
            start
        }
        None => (ScanState::default(), false),
    };
    let read = !fresh || (opts.until == Until::End && !state.complete);
    if read {
        let from = state.offset;
        let count = if from == 0 {
            &counts.rescanned
        } else {
            &counts.resumed
        };
        count.fetch_add(1, Ordering::Relaxed);
        scan_file(file, &mut state, opts)?;
        counts
            .bytes
            .fetch_add(state.offset.saturating_sub(from), Ordering::Relaxed);
    } else {
        counts.reused.fetch_add(1, Ordering::Relaxed);
    }
    match crate::store::not_a_session(file, &state) {
        Some(issue) => Err(issue),
        None => Ok((state, read)),
    }
}
