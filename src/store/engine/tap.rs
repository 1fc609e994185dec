//! Taps on a whole read: whoever wants the entries of the sessions a run reads whole (the
//! content index is one) asks the run for them, and the run reads each such session once, for
//! its row and for the tap together.

use std::fmt;

use crate::rollout::transcript::{Transcript, TranscriptOptions};
use crate::session::SessionRow;
use crate::store::walk::RolloutFile;

/// A taker of the entries of sessions a run reads whole. Asked on the run's thread
/// ([`Tap::wants`], [`Tap::settled`], [`Tap::end`]) and on its readers ([`Tap::take`]).
pub trait Tap: Send + Sync {
    /// How the entries are read (a paginated fork's start with its parent's history).
    fn options(&self) -> TranscriptOptions;

    /// The walk found `files` (every rollout the run lists, looked at): which of them the tap
    /// wants the entries of as they are now (it has none of them, or of them as they were).
    /// Asked once, before any file is read.
    fn wants(&self, files: &[RolloutFile]) -> Vec<bool>;

    /// A file the tap wanted, read whole (on a reader): its row and its transcript, or `None`
    /// when it could not be read or is not a session.
    fn take(&self, file: &RolloutFile, read: Option<(&SessionRow, Transcript)>);

    /// Between batches of settled files, on the run's thread: false stops the run.
    fn settled(&self) -> bool;

    /// The run read every file it was going to (not called when it was stopped).
    fn end(&self);
}

impl fmt::Debug for dyn Tap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tap")
    }
}
