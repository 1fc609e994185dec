//! Whole passes over files made before a run, outside it (the picker's content index reads
//! every session whole for its messages and makes the row summary's pass on the way), handed
//! to a later run so that it settles those files from them instead of reading them again.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::rollout::summary::ScanState;
use crate::store::cache;
use crate::store::walk::RolloutFile;
use crate::timefmt::Millis;

/// Whole passes by path, each with the size and mtime of the file it was made of. Held as the
/// rows cache holds a state (its bytes), so that the passes of a large store take little room
/// while they wait.
#[derive(Debug, Default)]
pub struct Passes {
    by_path: HashMap<PathBuf, Made>,
}

#[derive(Debug)]
struct Made {
    size: u64,
    mtime_ms: Millis,
    compressed: bool,
    /// Boxed: exactly as long as the encoding (a `Vec` keeps room to grow).
    state: Box<[u8]>,
}

impl Passes {
    /// Keep `state`, a pass over `file` from its start to its end, as of `file`'s size and
    /// mtime. A pass that did not reach the end of the file is not kept.
    pub fn add(&mut self, file: &RolloutFile, state: &ScanState) {
        if !state.complete {
            return;
        }
        let made = Made {
            size: file.size,
            mtime_ms: file.mtime_ms,
            compressed: file.compressed,
            state: cache::encode_state(state).into_boxed_slice(),
        };
        self.by_path.insert(file.path.clone(), made);
    }

    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// The pass over `file`, when it was made of the file as it is now (the same size, mtime
    /// and compression).
    pub fn of(&self, file: &RolloutFile) -> Option<ScanState> {
        let made = self.by_path.get(&file.path)?;
        let same = made.size == file.size
            && made.mtime_ms == file.mtime_ms
            && made.compressed == file.compressed;
        same.then(|| cache::decode_state(&made.state)).flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(size: u64, mtime_ms: Millis) -> RolloutFile {
        RolloutFile {
            path: PathBuf::from("/s/a.jsonl"),
            archived: false,
            compressed: false,
            size,
            mtime_ms,
        }
    }

    #[test]
    fn a_pass_serves_only_the_file_as_it_was_read_and_only_when_whole() {
        let state = ScanState {
            offset: 40,
            complete: true,
            event_user: 2,
            ..ScanState::default()
        };
        let mut passes = Passes::default();
        passes.add(&file(40, 7), &state);
        assert_eq!(passes.of(&file(40, 7)), Some(state.clone()));
        assert_eq!(passes.of(&file(41, 7)), None, "grown since");
        assert_eq!(passes.of(&file(40, 8)), None, "rewritten since");
        let mut other = file(40, 7);
        other.path = PathBuf::from("/s/b.jsonl");
        assert_eq!(passes.of(&other), None);
        let mut partial = Passes::default();
        let cut = ScanState {
            complete: false,
            ..state
        };
        partial.add(&file(40, 7), &cut);
        assert!(partial.is_empty());
    }
}
