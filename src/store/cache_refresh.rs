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
    /// Bytes of (decompressed) text read by all passes.
    pub bytes_read: u64,
}

/// One file after a refresh.
#[derive(Debug, Clone)]
pub struct Scanned {
    pub file: RolloutFile,
    pub state: ScanState,
    /// The state differs from the cached one (new, grown, rewritten, or read further).
    pub changed: bool,
}

/// Files a thread takes at a time.
const CHUNK: usize = 64;

#[derive(Default)]
struct Counts {
    reused: AtomicUsize,
    resumed: AtomicUsize,
    rescanned: AtomicUsize,
    bytes: AtomicU64,
}

/// Bring `files` up to date against `cache` on `threads` threads, reading each only as far as
/// `until` needs: unchanged files are not opened, grown ones are read on from their offset.
/// The results are in the order of `files`. The cache is updated in memory (save it
/// afterwards). Files that are not sessions come back as issues.
pub fn refresh(
    cache: &mut RowCache,
    files: &[RolloutFile],
    until: Until,
    threads: usize,
) -> (Vec<Scanned>, Vec<FileIssue>, RefreshStats) {
    let opts = ScanOptions::new(until);
    let counts = Counts::default();
    // One slot per file, filled in place: the results are large, and collecting then sorting
    // them would move each one twice more.
    let mut slots: Vec<Option<Result<Scanned, FileIssue>>> = Vec::new();
    slots.resize_with(files.len(), || None);
    {
        let cache = &*cache;
        let chunks = Mutex::new(slots.chunks_mut(CHUNK).enumerate());
        let work = || loop {
            let next = chunks.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((c, chunk)) = next else { break };
            for (j, slot) in chunk.iter_mut().enumerate() {
                *slot = Some(settle_one(cache, &files[c * CHUNK + j], &opts, &counts));
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
    let mut scanned = Vec::with_capacity(slots.len());
    let mut issues = Vec::new();
    for (i, result) in slots.into_iter().enumerate() {
        match result {
            None => {}
            Some(Ok(s)) => {
                if s.changed {
                    cache.put(&s.file, s.state.clone());
                }
                scanned.push(s);
            }
            Some(Err(issue)) => {
                // Not a session (yet): forget it so a later run looks again.
                cache.entries.remove(&files[i].path);
                issues.push(issue);
            }
        }
    }
    let stats = RefreshStats {
        reused: counts.reused.into_inner(),
        resumed: counts.resumed.into_inner(),
        rescanned: counts.rescanned.into_inner(),
        removed: 0,
        bytes_read: counts.bytes.into_inner(),
    };
    (scanned, issues, stats)
}

/// One file brought up to date: from the cache when that is enough, else read.
fn settle_one(
    cache: &RowCache,
    file: &RolloutFile,
    opts: &ScanOptions,
    counts: &Counts,
) -> Result<Scanned, FileIssue> {
    let (mut state, fresh) = cache.start_state(file);
    if fresh && (opts.until != Until::End || state.complete) {
        counts.reused.fetch_add(1, Ordering::Relaxed);
        return settle(file, state, false);
    }
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
    settle(file, state, true)
}

/// A file's state after a refresh: a row, or the issue of a file that is not a session.
fn settle(file: &RolloutFile, state: ScanState, changed: bool) -> Result<Scanned, FileIssue> {
    match crate::store::not_a_session(file, &state) {
        Some(issue) => Err(issue),
        None => Ok(Scanned {
            file: file.clone(),
            state,
            changed,
        }),
    }
}
