//! Bringing a list of walked files up to date against the rows cache, on worker threads.
//!
//! Unchanged files are settled on the calling thread from their cached state; new, grown or
//! rewritten ones are read (from their cached offset when they only grew).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::{Plan, RowCache};
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

/// Bring `files` up to date against `cache` on `threads` threads, reading each only as far as
/// `until` needs: unchanged files are not opened, grown ones are read on from their offset.
/// The cache is updated in memory (save it afterwards). Files that are not sessions come back
/// as issues.
pub fn refresh(
    cache: &mut RowCache,
    files: &[RolloutFile],
    until: Until,
    threads: usize,
) -> (Vec<Scanned>, Vec<FileIssue>, RefreshStats) {
    refresh_with(cache, files, until, threads, false)
}

/// [`refresh`] that moves the states of unchanged files out of `cache` rather than copying
/// them: their entries are left with empty states, so the cache must get them back
/// ([`RowCache::put_back`]) before it is saved.
pub fn refresh_lending(
    cache: &mut RowCache,
    files: &[RolloutFile],
    until: Until,
    threads: usize,
) -> (Vec<Scanned>, Vec<FileIssue>, RefreshStats) {
    refresh_with(cache, files, until, threads, true)
}

fn refresh_with(
    cache: &mut RowCache,
    files: &[RolloutFile],
    until: Until,
    threads: usize,
    lend: bool,
) -> (Vec<Scanned>, Vec<FileIssue>, RefreshStats) {
    let opts = ScanOptions::new(until);
    let mut reused = 0;
    // Unchanged files that need no reading are settled here, their cached state moved (not
    // copied again); only the others go to the reading threads.
    // One slot per file, filled in place: the results are large, and collecting then sorting
    // them would move each one twice more (and touch megabytes of fresh memory).
    let mut slots: Vec<Option<Result<Scanned, FileIssue>>> = Vec::with_capacity(files.len());
    let mut todo: Vec<(usize, ScanState)> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let plan = if lend {
            cache.plan_lending(file)
        } else {
            cache.plan(file)
        };
        let slot = match plan {
            Plan::Fresh(state) if until != Until::End || state.complete => {
                reused += 1;
                Some(settle(file, state, false))
            }
            Plan::Fresh(state) | Plan::Resume(state) => {
                todo.push((i, state));
                None
            }
            Plan::Rescan => {
                todo.push((i, ScanState::default()));
                None
            }
        };
        slots.push(slot);
    }
    let next = AtomicUsize::new(0);
    let bytes = AtomicU64::new(0);
    let (resumed, rescanned) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let work = || {
        let mut out: Vec<(usize, Result<Scanned, FileIssue>)> = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some((i, state)) = todo.get(k) else { break };
            let (i, mut state, file) = (*i, state.clone(), &files[*i]);
            let from = state.offset;
            if from == 0 {
                rescanned.fetch_add(1, Ordering::Relaxed);
            } else {
                resumed.fetch_add(1, Ordering::Relaxed);
            }
            if let Err(issue) = scan_file(file, &mut state, &opts) {
                out.push((i, Err(issue)));
                continue;
            }
            bytes.fetch_add(state.offset.saturating_sub(from), Ordering::Relaxed);
            out.push((i, settle(file, state, true)));
        }
        out
    };
    let threads = threads.clamp(1, 16).min(todo.len().max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mut place = |done: Vec<(usize, Result<Scanned, FileIssue>)>| {
            for (i, result) in done {
                slots[i] = Some(result);
            }
        };
        place(work());
        for h in handles {
            if let Ok(done) = h.join() {
                place(done);
            }
        }
    });
    let mut scanned = Vec::with_capacity(slots.len());
    let mut issues = Vec::new();
    for (i, result) in slots.into_iter().enumerate() {
        let Some(result) = result else { continue };
        match result {
            Ok(s) => {
                if s.changed {
                    cache.put(&s.file, s.state.clone());
                }
                scanned.push(s);
            }
            Err(issue) => {
                // Not a session (yet): forget it so a later run looks again.
                cache.entries.remove(&files[i].path);
                issues.push(issue);
            }
        }
    }
    let stats = RefreshStats {
        reused,
        resumed: resumed.into_inner(),
        rescanned: rescanned.into_inner(),
        removed: 0,
        bytes_read: bytes.into_inner(),
    };
    (scanned, issues, stats)
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
