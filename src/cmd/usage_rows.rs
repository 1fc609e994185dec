//! The rows a usage report reads, from one run of the index engine over every session
//! ([`Kind::States`]): a session unchanged since its state was cached whole is made of the
//! first fields of that state alone ([`reader::usage_row`]: its tokens over time, models, rate
//! limits, folder, branch and times), decoded on the pool; the others (new or changed
//! sessions, and forks, whose parent's part is taken off) are read and made whole by the run,
//! which keeps the cache up to date as `list` does. The rows a report shows more of are made
//! whole: those of a report by session once its groups are known (their titles), and every
//! row under a `file:` filter (the files each session changed).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rayon::prelude::*;

use crate::rollout::summary::Until;
use crate::session::SessionRow;
use crate::store::cache::path_from;
use crate::store::engine::{self, Kept, Kind, Row};
use crate::store::{reader, FileIssue, Store};
use crate::timefmt::Millis;

/// `rows` in the order of [`SessionRow::cmp_updated_desc`] (updated newest first, ties by id
/// descending, then by path), each row's keys read once (a kept row's are in the cache's table).
fn sort(rows: &mut Vec<Row>) {
    let mut keyed: Vec<(Millis, &[u8], usize)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.updated_ms(), r.id(), i))
        .collect();
    // Ties in time and id are rare (a session id in two files): their paths are made only then.
    let path = |i: usize| match &rows[i] {
        Row::Made(row) => row.path.clone(),
        Row::Kept(kept) => path_from(kept.path()),
    };
    keyed.sort_unstable_by(|a, b| {
        (b.0, b.1)
            .cmp(&(a.0, a.1))
            .then_with(|| path(a.2).cmp(&path(b.2)))
    });
    let order: Vec<usize> = keyed.into_iter().map(|(_, _, i)| i).collect();
    let mut slots: Vec<Option<Row>> = std::mem::take(rows).into_iter().map(Some).collect();
    *rows = order.into_iter().filter_map(|i| slots[i].take()).collect();
}

/// The rows of a report, newest first (in the order of [`SessionRow::cmp_updated_desc`]).
pub(super) struct Rows<'a> {
    pub rows: Vec<SessionRow>,
    /// The cache entry of each row made of part of its state, to make it whole from.
    kept: Vec<Option<Kept>>,
    make: Make<'a>,
}

/// How a row is made of a kept session.
struct Make<'a> {
    store: &'a Store,
    names: OnceLock<HashMap<String, String>>,
}

impl<'a> Rows<'a> {
    /// The sessions of `store` that `keep` keeps, from a run of `opts` (its kind is made
    /// [`Kind::States`]), each row made whole when `whole`; and the problems met, by path.
    pub(super) fn collect(
        store: &'a Store,
        opts: &engine::Options,
        whole: bool,
        keep: &(dyn Fn(&SessionRow) -> bool + Sync),
    ) -> (Self, Vec<FileIssue>) {
        let opts = engine::Options {
            kind: Kind::States,
            ..opts.clone()
        };
        let (mut found, mut issues, _) = engine::collect(store, &opts);
        sort(&mut found);
        let mut rows = Rows {
            rows: Vec::new(),
            kept: found
                .iter()
                .map(|row| match row {
                    Row::Kept(kept) if !whole => Some(kept.clone()),
                    _ => None,
                })
                .collect(),
            make: Make {
                store,
                names: OnceLock::new(),
            },
        };
        // Made in place, in order; a row that cannot be made leaves an empty one, dropped below.
        let failed = Mutex::new(Vec::new());
        let make = &rows.make;
        rows.rows = found
            .into_par_iter()
            .enumerate()
            .map(|(i, row)| {
                let made = match row {
                    Row::Made(row) => Ok(Arc::unwrap_or_clone(row)),
                    Row::Kept(kept) if whole => make.whole(&kept),
                    Row::Kept(kept) => make.part(&kept),
                };
                made.unwrap_or_else(|issue| {
                    failed
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((i, issue));
                    SessionRow::default()
                })
            })
            .collect();
        let failed = failed.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut wanted: Vec<bool> = rows.rows.par_iter().map(keep).collect();
        for (i, issue) in failed {
            wanted[i] = false;
            issues.push(issue);
        }
        if wanted.contains(&false) {
            let mut at = wanted.iter();
            rows.rows.retain(|_| at.next() == Some(&true));
            let mut at = wanted.iter();
            rows.kept.retain(|_| at.next() == Some(&true));
        }
        issues.sort_by(|a, b| a.path.cmp(&b.path));
        (rows, issues)
    }

    /// Make whole the rows at `at` (those made of part of their state), in place.
    pub(super) fn make_whole(&mut self, at: impl Iterator<Item = usize>) {
        let mut wanted = vec![false; self.rows.len()];
        for i in at {
            if let Some(w) = wanted.get_mut(i) {
                *w = true;
            }
        }
        let make = &self.make;
        self.rows
            .par_iter_mut()
            .zip(&self.kept)
            .zip(&wanted)
            .for_each(|((row, kept), &wanted)| {
                if let (Some(kept), true) = (kept, wanted) {
                    if let Ok(whole) = make.whole(kept) {
                        *row = whole;
                    }
                }
            });
    }

    /// Drop the rows on another thread: tens of thousands of them are not worth waiting for
    /// on the way out.
    pub(super) fn drop_later(self) {
        crate::store::drop_later((self.rows, self.kept));
    }
}

impl Make<'_> {
    fn names(&self) -> &HashMap<String, String> {
        self.names.get_or_init(|| self.store.names())
    }

    /// The row of a kept session made of the first fields of its state.
    fn part(&self, kept: &Kept) -> Result<SessionRow, FileIssue> {
        match kept.usage() {
            Some(view) => {
                let id = String::from_utf8_lossy(kept.id()).into_owned();
                Ok(reader::usage_row(kept.file(), id, view))
            }
            None => self.read(kept),
        }
    }

    /// The whole row of a kept session, as the run would have made it from its state.
    fn whole(&self, kept: &Kept) -> Result<SessionRow, FileIssue> {
        match kept.state() {
            Some(state) => Ok(reader::row_from_state(&kept.file(), state, self.names())),
            None => self.read(kept),
        }
    }

    /// A kept session whose cached state does not decode, read from its file.
    fn read(&self, kept: &Kept) -> Result<SessionRow, FileIssue> {
        reader::summarise(&kept.file(), Until::End, self.names()).map(|(row, _)| row)
    }
}
