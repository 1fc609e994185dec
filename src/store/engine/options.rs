//! What a run is asked: which run (named by who asks), over what, at what pace; and what a
//! receiver already holds.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::tap::Tap;
use crate::rollout::summary::Until;
use crate::session::SessionRow;
use crate::store::cache::Stamp;
use crate::timefmt::Millis;

/// A caller's line of each session, kept in the rows cache beside its state and handed out
/// again while the session is unchanged (`Row::Kept`); its bytes are the caller's. `stamp`
/// says what the lines are made under besides the row (their format, the names file): a kept
/// line is used only under the same stamp.
#[derive(Debug, Clone, Copy)]
pub struct Lines {
    pub render: fn(&SessionRow) -> String,
    pub stamp: Stamp,
}

/// The files a receiver holds rows of, each as its row was made of it (path, size, mtime).
/// Hashed, not kept: a wrong answer would need two 64-bit hashes to agree.
#[derive(Debug, Default)]
pub struct Held {
    files: foldhash::HashSet<u64>,
    paths: foldhash::HashSet<u64>,
    hasher: foldhash::fast::RandomState,
}

/// What a receiver has of a cached session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Has {
    Nothing,
    /// A row of the same path, made of the file as it was at another time: told when it goes.
    Path,
    /// Its row as the cache has it: nothing to send while the file stays so.
    AsCached,
}

impl Held {
    /// Held rows of `files`: each file's path, size and modification time.
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a Path, u64, Millis)>) -> Held {
        use std::hash::BuildHasher;
        let mut held = Held::default();
        for (path, size, mtime_ms) in files {
            let path = path.as_os_str().as_encoded_bytes();
            held.files
                .insert(held.hasher.hash_one((path, size, mtime_ms)));
            held.paths.insert(held.hasher.hash_one(path));
        }
        held
    }

    /// What the receiver has of the file at `path` (its bytes), cached with `size` and
    /// `mtime_ms`.
    pub(crate) fn has(&self, path: &[u8], size: u64, mtime_ms: Millis) -> Has {
        use std::hash::BuildHasher;
        if self
            .files
            .contains(&self.hasher.hash_one((path, size, mtime_ms)))
        {
            Has::AsCached
        } else if self.paths.contains(&self.hasher.hash_one(path)) {
            Has::Path
        } else {
            Has::Nothing
        }
    }
}

/// Which run, named by who asks: how far each file is read, and which rows are sent.
#[derive(Debug, Clone)]
pub enum Kind {
    /// A listing (`list`, `blame`): every session read to its end and sent as the walk settles
    /// it. With `lines`, each session's output line is made and kept in the cache, and an
    /// unchanged one is handed out as `Row::Kept`.
    List { lines: Option<Lines> },
    /// A listing whose receiver reads the cached states itself: a session unchanged since its
    /// state was cached whole is handed out as `Row::Kept`, its state not decoded (a fork is
    /// not: its row depends on its parent's file); the others are read and made as a listing
    /// makes them, and the cache is kept up to date alike.
    States,
    /// The picker's first run: the rows the cache knows are sent before walking, then what
    /// changed; each file is read up to its first real user message.
    First,
    /// A picker's later run, of a receiver that holds these rows: a cached session whose file
    /// is as the receiver's row was made of is neither made nor sent, so the run sends only
    /// what changed since, and what the receiver never had (a cache another process wrote).
    /// Read as the first run reads.
    Later(Arc<Held>),
    /// A whole read, after the first or a later run: every session the receiver holds a
    /// preview of is read on to its end and sent again whole (exact counts, changed files,
    /// tokens); sessions whose cached state is whole already are not looked at.
    Whole,
}

/// A run: which one, over what, and at what pace.
#[derive(Debug, Clone)]
pub struct Options {
    pub kind: Kind,
    /// Archived sessions are walked too.
    pub archived: bool,
    /// The rows cache file; `None` reads everything and writes nothing.
    pub cache: Option<PathBuf>,
    /// Who takes the entries of the sessions the run reads whole (a listing or a whole read):
    /// a session it wants is read whole once, for its row and for the tap.
    pub tap: Option<Arc<dyn Tap>>,
    /// Threads of the run's pool.
    pub threads: usize,
    /// The pool's threads run at a lower priority (the picker's, so typing keeps a core).
    pub background: bool,
}

impl Options {
    /// A run of `kind` with the default pace, no cache and no tap.
    pub fn new(kind: Kind, archived: bool) -> Self {
        Options {
            kind,
            archived,
            cache: None,
            tap: None,
            threads: crate::store::default_threads(),
            background: false,
        }
    }

    /// A listing that keeps no output lines.
    pub fn list(archived: bool) -> Self {
        Options::new(Kind::List { lines: None }, archived)
    }

    /// How far each file is read: the first prompt (the picker's rows) or to the end.
    pub fn until(&self) -> Until {
        match self.kind {
            Kind::List { .. } | Kind::States | Kind::Whole => Until::End,
            Kind::First | Kind::Later(_) => Until::FirstPrompt,
        }
    }

    /// How output lines are made, when this run keeps them.
    pub fn lines(&self) -> Option<Lines> {
        match self.kind {
            Kind::List { lines } => lines,
            _ => None,
        }
    }
}
