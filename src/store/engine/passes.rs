//! Whole passes over files made before a run, outside it (the picker's content index reads
//! every session whole for its messages and makes the row summary's pass on the way), handed
//! to a later run so that it settles those files from them instead of reading them again.
//!
//! The passes wait as the rows cache keeps a state (its bytes), in an unnamed temporary file
//! (gone when it is closed), not in memory: at 30,000 sessions they are about 25 MB, which the
//! picker held beside the content index's build until its whole phase wrote them into the rows
//! cache. Where no such file can be made they wait in memory.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::rollout::summary::ScanState;
use crate::store::cache;
use crate::store::walk::RolloutFile;
use crate::timefmt::Millis;

/// Whole passes by path, each with the size and mtime of the file it was made of. The default
/// keeps them in memory.
#[derive(Debug, Default)]
pub struct Passes {
    by_path: HashMap<PathBuf, Made>,
    bytes: Bytes,
}

#[derive(Debug)]
struct Made {
    size: u64,
    mtime_ms: Millis,
    compressed: bool,
    /// Where its state's bytes are.
    at: u64,
    len: u32,
}

/// Where the states' bytes wait: a file when one could be made.
#[derive(Debug)]
enum Bytes {
    File { file: File, end: u64 },
    Memory(Vec<u8>),
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::Memory(Vec::new())
    }
}

impl Passes {
    /// Passes whose states wait in a file in `dir`, else in the system's temporary folder,
    /// else in memory.
    pub fn new(dir: Option<&Path>) -> Passes {
        let file = dir
            .and_then(|dir| tempfile::tempfile_in(dir).ok())
            .or_else(|| tempfile::tempfile().ok());
        let bytes = match file {
            Some(file) if cfg!(unix) => Bytes::File { file, end: 0 },
            _ => Bytes::Memory(Vec::new()),
        };
        Passes {
            by_path: HashMap::new(),
            bytes,
        }
    }

    /// Keep each state, a pass over its file from its start to its end, as of the file's size
    /// and mtime. A pass that did not reach the end of its file is not kept.
    pub fn add<'a>(&mut self, read: impl IntoIterator<Item = (&'a RolloutFile, &'a ScanState)>) {
        let mut block = Vec::new();
        let mut made = Vec::new();
        for (file, state) in read.into_iter().filter(|(_, s)| s.complete) {
            let start = block.len();
            block.extend_from_slice(&cache::encode_state(state));
            let len = u32::try_from(block.len() - start).unwrap_or(u32::MAX);
            made.push((file, start as u64, len));
        }
        let Some(base) = self.append(&block) else {
            return; // not kept: those files are read again
        };
        for (file, start, len) in made {
            let m = Made {
                size: file.size,
                mtime_ms: file.mtime_ms,
                compressed: file.compressed,
                at: base + start,
                len,
            };
            self.by_path.insert(file.path.clone(), m);
        }
    }

    /// Store `block` after what is kept; where it starts, `None` when it could not be written.
    fn append(&mut self, block: &[u8]) -> Option<u64> {
        match &mut self.bytes {
            Bytes::File { file, end } => {
                let at = *end;
                file.write_all(block).ok()?;
                *end += block.len() as u64;
                Some(at)
            }
            Bytes::Memory(kept) => {
                kept.extend_from_slice(block);
                Some((kept.len() - block.len()) as u64)
            }
        }
    }

    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// The pass over `file`, when it was made of the file as it is now (the same size, mtime
    /// and compression), with its bytes (what the rows cache keeps of it).
    pub fn of(&self, file: &RolloutFile) -> Option<(ScanState, Vec<u8>)> {
        let made = self.by_path.get(&file.path)?;
        let same = made.size == file.size
            && made.mtime_ms == file.mtime_ms
            && made.compressed == file.compressed;
        if !same {
            return None;
        }
        let bytes = self.read(made.at, made.len as usize)?;
        Some((cache::decode_state(&bytes)?, bytes))
    }

    fn read(&self, at: u64, len: usize) -> Option<Vec<u8>> {
        match &self.bytes {
            #[cfg(unix)]
            Bytes::File { file, .. } => {
                use std::os::unix::fs::FileExt;
                let mut bytes = vec![0; len];
                file.read_exact_at(&mut bytes, at).ok()?;
                Some(bytes)
            }
            Bytes::Memory(kept) => {
                let at = usize::try_from(at).ok()?;
                kept.get(at..at.checked_add(len)?).map(<[u8]>::to_vec)
            }
            // Never made where positioned reads are not to be had (see `new`).
            #[cfg(not(unix))]
            Bytes::File { .. } => None,
        }
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

    fn state(offset: u64, prompt: &str) -> ScanState {
        ScanState {
            offset,
            complete: true,
            event_user: 2,
            event_prompt: Some(prompt.to_owned()),
            ..ScanState::default()
        }
    }

    /// Every kind of place the bytes can wait gives back each state as it was added.
    fn kinds() -> Vec<(&'static str, Passes)> {
        let dir = std::env::temp_dir();
        vec![
            ("file", Passes::new(Some(&dir))),
            ("temporary folder", Passes::new(None)),
            ("memory", Passes::default()),
        ]
    }

    #[test]
    fn a_pass_serves_only_the_file_as_it_was_read_and_only_when_whole() {
        for (kind, mut passes) in kinds() {
            let s = state(40, "first");
            passes.add([(&file(40, 7), &s)]);
            let bytes = cache::encode_state(&s);
            assert_eq!(passes.of(&file(40, 7)), Some((s.clone(), bytes)), "{kind}");
            assert_eq!(passes.of(&file(41, 7)), None, "grown since ({kind})");
            assert_eq!(passes.of(&file(40, 8)), None, "rewritten since ({kind})");
            let mut other = file(40, 7);
            other.path = PathBuf::from("/s/b.jsonl");
            assert_eq!(passes.of(&other), None, "{kind}");
            let cut = ScanState {
                complete: false,
                ..s
            };
            let mut partial = Passes::default();
            partial.add([(&file(40, 7), &cut)]);
            assert!(partial.is_empty(), "{kind}");
        }
    }

    #[test]
    fn many_passes_added_in_batches_each_come_back_as_they_were() {
        for (kind, mut passes) in kinds() {
            let files: Vec<RolloutFile> = (0..300)
                .map(|i| RolloutFile {
                    path: PathBuf::from(format!("/s/{i}.jsonl")),
                    ..file(100 + i, 7)
                })
                .collect();
            let states: Vec<ScanState> = (0..300)
                .map(|i| state(100 + i, &"é".repeat(i as usize)))
                .collect();
            for batch in files.iter().zip(&states).collect::<Vec<_>>().chunks(64) {
                passes.add(batch.iter().copied());
            }
            assert_eq!(passes.len(), 300, "{kind}");
            for (f, s) in files.iter().zip(&states).rev() {
                assert_eq!(passes.of(f).map(|p| p.0).as_ref(), Some(s), "{kind}");
            }
            // A file read again later: its newer pass counts.
            let newer = state(100, "again");
            passes.add([(&files[0], &newer)]);
            assert_eq!(passes.of(&files[0]).map(|p| p.0), Some(newer), "{kind}");
        }
    }
}
