//! The content index's session table: which file each session number stands for, and the size
//! and mtime its messages were read at, so a later build reads only new and changed files.
//!
//! Saved beside the index after each commit, in the checked cache envelope; one that is
//! missing, damaged, of another version, or that disagrees with the index (another number of
//! messages) makes the build start over.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::store::cache::{read_envelope, write_envelope, Unusable};
use crate::timefmt::Millis;

const FILE: &str = "sessions.table";
const KIND: &str = "content-table";

/// One indexed session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Session {
    #[serde(with = "crate::store::cache::path_as_bytes")]
    pub path: PathBuf,
    pub id: String,
    pub size: u64,
    pub mtime_ms: Millis,
    /// Documents indexed for it (its messages and its labels).
    pub messages: u64,
    /// The name it was indexed with (a rename is read again).
    pub name: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Table {
    /// The next session number to give (numbers are never reused).
    next: u64,
    sessions: HashMap<u64, Session>,
    /// Session numbers by path, keyed by the path's bytes (paths come from the walk, written
    /// the same way every time) with foldhash: a `Path` key hashes each component with SipHash,
    /// a good part of opening a large index.
    #[serde(skip)]
    by_path: foldhash::HashMap<OsString, u64>,
}

impl Table {
    pub(super) fn len(&self) -> usize {
        self.sessions.len()
    }

    pub(super) fn get(&self, number: u64) -> Option<&Session> {
        self.sessions.get(&number)
    }

    pub(super) fn number_of(&self, path: &Path) -> Option<u64> {
        self.by_path.get(path.as_os_str()).copied()
    }

    /// Messages of every session: what the index must hold.
    pub(super) fn messages(&self) -> u64 {
        self.sessions.values().map(|s| s.messages).sum()
    }

    /// A new session number.
    pub(super) fn take_number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    pub(super) fn insert(&mut self, number: u64, session: Session) {
        if let Some(old) = self
            .by_path
            .insert(session.path.clone().into_os_string(), number)
        {
            self.sessions.remove(&old);
        }
        self.sessions.insert(number, session);
    }

    pub(super) fn remove(&mut self, number: u64) {
        if let Some(s) = self.sessions.remove(&number) {
            self.by_path.remove(s.path.as_os_str());
        }
    }

    /// Every (number, session).
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, &Session)> {
        self.sessions.iter().map(|(n, s)| (*n, s))
    }

    pub(super) fn save(&self, dir: &Path) -> std::io::Result<()> {
        let body = postcard::to_stdvec(self).map_err(std::io::Error::other)?;
        write_envelope(&dir.join(FILE), KIND, &version(), &body)
    }

    /// The table saved in `dir`, or why it cannot be used.
    pub(super) fn load(dir: &Path) -> Result<Table, TableError> {
        let body = read_envelope(&dir.join(FILE), KIND, &version())?;
        let mut table: Table = postcard::from_bytes(&body).map_err(|_| TableError::Unreadable)?;
        table.by_path = table
            .sessions
            .iter()
            .map(|(n, s)| (s.path.clone().into_os_string(), *n))
            .collect();
        if table.by_path.len() != table.sessions.len()
            || table.sessions.keys().any(|&n| n > table.next)
        {
            return Err(TableError::Inconsistent);
        }
        Ok(table)
    }
}

/// Why a saved table cannot be used (the index is then built anew).
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    File(#[from] Unusable),
    #[error("unreadable table")]
    Unreadable,
    #[error("inconsistent table")]
    Inconsistent,
}

fn version() -> String {
    format!("v{}", super::schema::SCHEMA_VERSION)
}
