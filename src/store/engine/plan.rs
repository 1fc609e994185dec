//! What a run must do with each walked file, found by merging the walk with the rows cache:
//! both are in path order, so each file meets its entry (if any) without a lookup table.
//! Pure: no file is opened here.

use std::cmp::Ordering;

use super::Has;
use crate::rollout::summary::Until;
use crate::store::cache::{self, Plan, RowCache};
use crate::store::walk::RolloutFile;

/// A file a reader must settle, and where it starts.
#[derive(Debug, Clone, Copy)]
pub(super) struct Todo {
    /// Its place among the walked files.
    pub file: usize,
    /// The cache entry it starts from and how (none: read from the start).
    pub entry: Option<(usize, Plan)>,
    /// The run's tap wants its entries: it is read whole.
    pub tapped: bool,
}

/// The plan of a run.
#[derive(Debug, Default)]
pub(super) struct Work {
    /// Files to settle, newest first.
    pub todo: Vec<Todo>,
    /// Unchanged sessions whose output line (or, when the receiver reads them, state) is kept:
    /// (walked file, entry).
    pub kept: Vec<(usize, usize)>,
    /// Unchanged sessions sent already and needing nothing: (walked file, entry).
    pub skipped: Vec<(usize, usize)>,
    /// Entries whose files are gone.
    pub gone: Vec<usize>,
    /// Entries of files not walked this time (archived ones, when archived sessions were not
    /// walked): kept as they are.
    pub unwalked: Vec<usize>,
    /// Each walked file's entry, when the cache has one.
    pub entry_of: Vec<Option<usize>>,
}

/// What the plan needs to know besides the walk and the cache.
pub(super) struct Ask<'a> {
    pub until: Until,
    pub archived: bool,
    /// The cache's output lines are usable (asked for, and made under this run's stamp).
    pub lines: bool,
    /// The receiver reads the cached states of unchanged whole sessions itself.
    pub states: bool,
    /// What the sink has of each entry.
    pub sent: &'a [Has],
    /// A whole read: unchanged files whose cached state is a whole pass need nothing (the
    /// sink has their rows whole already).
    pub whole: bool,
    /// The files the run's tap wants the entries of (empty: no tap): they are read whole.
    pub tapped: &'a [bool],
}

/// Merge `files` (newest name first, as walked) with the entries of `rc` (path order).
pub(super) fn plan(files: &[RolloutFile], rc: &RowCache, ask: &Ask) -> Work {
    let entries = rc.entries();
    let mut work = Work {
        entry_of: vec![None; files.len()],
        ..Work::default()
    };
    let mut next = 0;
    // The walk is in descending path order: merge from its end.
    for (i, file) in files.iter().enumerate().rev() {
        let path = file.path.as_os_str().as_encoded_bytes();
        // One comparison per step: paths share long prefixes.
        let matched = loop {
            match entries.get(next).map(|e| rc.path(e).cmp(path)) {
                Some(Ordering::Less) => {
                    left_behind(rc, next, ask, &mut work);
                    next += 1;
                }
                found => break found == Some(Ordering::Equal),
            }
        };
        let tapped = ask.tapped.get(i).copied().unwrap_or(false);
        if !matched {
            work.todo.push(Todo {
                file: i,
                entry: None,
                tapped,
            });
            continue;
        }
        let e = next;
        next += 1;
        work.entry_of[i] = Some(e);
        let key = entries[e].key();
        let how = cache::plan(&key, file);
        let sent = ask.sent.get(e) == Some(&Has::AsCached);
        if how == Plan::Fresh && key.session && key.complete && ask.whole && !tapped {
            work.skipped.push((i, e));
            continue;
        }
        if how == Plan::Fresh && key.session && !key.fork && !tapped {
            let kept =
                (ask.lines && rc.line(&entries[e]).is_some()) || (ask.states && key.complete);
            if kept {
                work.kept.push((i, e));
                continue;
            }
            // A preview is whole once read (exact counts would need the pass to have ended,
            // which only its state says).
            if sent && ask.until == Until::FirstPrompt {
                work.skipped.push((i, e));
                continue;
            }
        }
        work.todo.push(Todo {
            file: i,
            entry: Some((e, how)),
            tapped,
        });
    }
    for e in next..entries.len() {
        left_behind(rc, e, ask, &mut work);
    }
    // Newest first: the first rows a picker draws are the ones it shows first. Files not looked
    // at yet (nothing cached) keep the walk's order, newest name first.
    work.todo.reverse();
    work.todo
        .sort_by(|a, b| files[b.file].mtime_ms.cmp(&files[a.file].mtime_ms));
    work
}

/// An entry no walked file matched: gone, or kept when its folder was not walked.
fn left_behind(rc: &RowCache, e: usize, ask: &Ask, work: &mut Work) {
    if !ask.archived && rc.entries()[e].key().archived {
        work.unwalked.push(e);
    } else {
        work.gone.push(e);
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
