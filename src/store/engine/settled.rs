//! What a reader hands back for each file it settles, and the account of a run's work: the
//! plain records the readers (`settle`) and the calling thread's side (`out`) share.

use crate::session::SessionRow;
use crate::store::walk::RolloutFile;
use crate::store::FileIssue;

use super::plan::Todo;

/// What a run did: the test-visible account of the work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Files whose cached state (or line) was used without reading.
    pub reused: usize,
    /// Files read on from a cached offset (grown, or incomplete when counts were needed).
    pub resumed: usize,
    /// Files read from the start (new or rewritten).
    pub rescanned: usize,
    /// Cached files that are gone.
    pub removed: usize,
    /// Walked files the cache had an entry for.
    pub cached: usize,
    /// Bytes of (decompressed) text read by all passes.
    pub bytes_read: u64,
    /// States written into the cache (files read, new or changed).
    pub stored: usize,
    /// Entries dropped for files that are not sessions (yet).
    pub forgotten: usize,
    /// Output lines made (and kept in the cache).
    pub lines: usize,
}

impl Stats {
    /// Whether the run changed the cache (so it is worth saving). A file that is not a session
    /// and was not cached either is read each time but changes nothing.
    pub fn changed_cache(&self) -> bool {
        self.stored + self.forgotten + self.removed + self.lines > 0
    }
}

/// How a file's pass went.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pass {
    /// The file could not be looked at.
    Unread,
    Reused,
    Resumed(u64),
    Rescanned(u64),
}

/// A session a reader made, and what the cache keeps of it anew.
pub(super) struct Made {
    pub(super) row: SessionRow,
    /// The state's bytes, when the file was read.
    pub(super) state: Option<Vec<u8>>,
    /// The output line, when one was made.
    pub(super) line: Option<String>,
    pub(super) fork: bool,
    /// The state is a whole pass.
    pub(super) complete: bool,
}

/// One settled file.
pub(super) struct Settled {
    pub(super) todo: Todo,
    /// The file as looked at by its reader (a start with nothing cached), when it could be.
    pub(super) looked: Option<RolloutFile>,
    pub(super) pass: Pass,
    pub(super) made: Result<Made, FileIssue>,
}

/// What the cache keeps anew for one walked file.
pub(super) struct Fresh {
    /// Where its state's bytes wait (see `spill`), when it was read.
    pub(super) state: Option<std::ops::Range<u64>>,
    pub(super) line: Option<String>,
    pub(super) id: String,
    pub(super) fork: bool,
    pub(super) complete: bool,
}
