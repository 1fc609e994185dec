//! The sessions known so far, as the indexer sent them. Rows are appended and replaced in place,
//! never moved, so an index into them stays valid for the list and for the search worker's copy;
//! a row whose file vanished is marked gone instead of removed. Each row is shared with the
//! search worker (which keeps it only until its haystack is made), never copied.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::session::SessionRow;
use crate::store::engine::Held;

#[derive(Debug, Clone, Default)]
pub struct Rows {
    rows: Vec<Arc<SessionRow>>,
    /// Row index by path, keyed by the path's bytes (hashing a `Path` parses it).
    by_path: HashMap<OsString, usize>,
    /// Rows whose files vanished.
    gone: HashSet<usize>,
    /// Paths the picker's own changes (archive, delete) took a session away from while an
    /// index run that may have walked before the change was going: that run's rows for them
    /// are stale and not taken (they would bring the session back where it was).
    left: HashSet<OsString>,
}

impl Rows {
    /// Every row, gone ones included, in the order they came.
    pub fn all(&self) -> &[Arc<SessionRow>] {
        &self.rows
    }

    /// How many sessions are known and not gone.
    pub fn live(&self) -> usize {
        self.rows.len() - self.gone.len()
    }

    /// Append new rows.
    pub fn add(&mut self, rows: Vec<Arc<SessionRow>>) {
        // At once: the cached rows come as one batch of every session.
        self.rows.reserve(rows.len());
        self.by_path.reserve(rows.len());
        for row in rows {
            self.by_path
                .insert(row.path.clone().into_os_string(), self.rows.len());
            self.rows.push(row);
        }
    }

    /// Rows of an index run that may know some already (the store read again): the new ones
    /// are appended and returned, the known ones replace theirs (and are no longer gone); the
    /// indices replaced, with whether the file changed (size or time) since.
    pub fn upsert(
        &mut self,
        rows: Vec<Arc<SessionRow>>,
    ) -> (Vec<Arc<SessionRow>>, Vec<(usize, bool)>) {
        let mut new = Vec::new();
        let mut replaced = Vec::new();
        for row in rows {
            if self.left.contains(row.path.as_os_str()) {
                continue;
            }
            match self.by_path.get(row.path.as_os_str()) {
                Some(&i) => {
                    let was = &self.rows[i];
                    let changed = was.size != row.size || was.updated_ms != row.updated_ms;
                    self.rows[i] = row;
                    self.gone.remove(&i);
                    replaced.push((i, changed));
                }
                None => new.push(row),
            }
        }
        self.add(new.clone());
        (new, replaced)
    }

    /// Mark the rows of these paths gone.
    pub fn remove(&mut self, paths: &[PathBuf]) {
        for path in paths {
            if let Some(&i) = self.by_path.get(path.as_os_str()) {
                self.gone.insert(i);
            }
        }
    }

    /// The session of `from` now lives at `to`, archived or not (codex moved its file); its
    /// index, when known.
    pub fn relocate(&mut self, from: &Path, to: PathBuf, archived: bool) -> Option<usize> {
        let i = self.by_path.remove(from.as_os_str())?;
        // Back where it once was (unarchived during the same run): that path is its own again.
        self.left.remove(to.as_os_str());
        self.by_path.insert(to.clone().into_os_string(), i);
        let row = Arc::make_mut(&mut self.rows[i]);
        row.path = to;
        row.archived = archived;
        Some(i)
    }

    /// The session of `path` is now named `name` (codex stored it); its index, when known.
    pub fn rename(&mut self, path: &Path, name: String) -> Option<usize> {
        let i = self.index_of(path)?;
        Arc::make_mut(&mut self.rows[i]).name = Some(name).filter(|n| !n.trim().is_empty());
        Some(i)
    }

    /// A change of the picker's took the session away from `path` while an index run is going:
    /// until [`Rows::run_ended`], rows for that path are stale.
    pub fn left_behind(&mut self, path: &Path) {
        self.left.insert(path.as_os_str().to_owned());
    }

    /// The index run going at the last changes has ended: later runs walk after them.
    pub fn run_ended(&mut self) {
        self.left.clear();
    }

    /// The row of the file at `path`.
    pub fn index_of(&self, path: &Path) -> Option<usize> {
        self.by_path.get(path.as_os_str()).copied()
    }

    /// Row `i`'s file vanished.
    pub fn is_gone(&self, i: usize) -> bool {
        self.gone.contains(&i)
    }

    /// The files of the rows held (gone ones not), as each row was made of its file: what a
    /// later index run need not send again.
    pub fn held(&self) -> Held {
        let live = self
            .rows
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.gone.contains(i));
        Held::of(live.map(|(_, r)| (r.path.as_path(), r.size, r.updated_ms)))
    }
}
