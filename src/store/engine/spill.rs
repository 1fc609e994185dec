//! The states a run read, waiting for the cache to be saved. A whole read of a large store
//! makes tens of megabytes of them (about 25 MB at 30,000 sessions), and the picker's whole
//! read runs beside its content index's build: there they wait in an unnamed temporary file
//! beside the rows cache (gone when it is closed) and are mapped when the cache is saved, so
//! they are written from the file's pages instead of being held in memory. Elsewhere, or when
//! no such file can be made or written, they wait in memory, one block for all.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::{Deref, Range};
use std::path::Path;

/// Where a run's states wait (see the module's note).
#[derive(Debug, Default)]
pub(super) struct Spill {
    file: Option<File>,
    /// Bytes in the file: states that start below this are there, the others in `memory`.
    in_file: u64,
    /// The file could not take more: the rest waits in memory.
    full: bool,
    memory: Vec<u8>,
}

impl Spill {
    /// States that wait in a temporary file in `dir`, else in the system's temporary folder,
    /// else in memory.
    pub(super) fn beside(dir: Option<&Path>) -> Spill {
        let file = dir
            .and_then(|dir| tempfile::tempfile_in(dir).ok())
            .or_else(|| tempfile::tempfile().ok());
        Spill {
            file,
            ..Spill::default()
        }
    }

    /// Keep `state`; where it is, to be found again in [`Spill::view`].
    pub(super) fn push(&mut self, state: &[u8]) -> Range<u64> {
        let len = state.len() as u64;
        if let (Some(file), false) = (&mut self.file, self.full) {
            let start = self.in_file;
            if file.write_all(state).is_ok() {
                self.in_file += len;
                return start..start + len;
            }
            // A part written before the failure lies past `in_file`, where nothing is read.
            self.full = true;
        }
        let start = self.in_file + self.memory.len() as u64;
        self.memory.extend_from_slice(state);
        start..start + len
    }

    /// Every state kept, to read them by where they are; `None` when the file's bytes cannot
    /// be read back.
    pub(super) fn view(&self) -> Option<View<'_>> {
        let file = match &self.file {
            Some(file) if self.in_file > 0 => Some(file_bytes(file, self.in_file)?),
            _ => None,
        };
        Some(View {
            file,
            in_file: self.in_file,
            memory: &self.memory,
        })
    }
}

/// The states of a [`Spill`], readable.
pub(super) struct View<'a> {
    file: Option<FileBytes>,
    in_file: u64,
    memory: &'a [u8],
}

impl View<'_> {
    /// The state kept at `at` (as [`Spill::push`] said).
    pub(super) fn get(&self, at: &Range<u64>) -> &[u8] {
        let range = |base: u64| (at.start - base) as usize..(at.end - base) as usize;
        match &self.file {
            Some(file) if at.start < self.in_file => &file[range(0)],
            _ => &self.memory[range(self.in_file)],
        }
    }
}

/// A temporary file's bytes: mapped, else read.
enum FileBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

/// The first `len` bytes of `file`.
fn file_bytes(file: &File, len: u64) -> Option<FileBytes> {
    // SAFETY: the file is unnamed and this run's own: nothing else can reach it to change its
    // bytes, and this run writes no more to it once it is mapped (the view borrows the spill).
    if let Ok(map) = unsafe { memmap2::Mmap::map(file) } {
        if map.len() as u64 >= len {
            return Some(FileBytes::Mapped(map));
        }
    }
    let mut bytes = vec![0; usize::try_from(len).ok()?];
    let mut reader = file;
    reader.seek(SeekFrom::Start(0)).ok()?;
    reader.read_exact(&mut bytes).ok()?;
    Some(FileBytes::Read(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of place the states can wait gives each back as it was kept.
    #[test]
    fn each_state_comes_back_as_it_was_kept_wherever_it_waits() {
        let dir = std::env::temp_dir();
        let mut full = Spill::beside(Some(&dir));
        let kept: Vec<Vec<u8>> = (0..300).map(|i| vec![i as u8; i % 37]).collect();
        let mut at = Vec::new();
        for (i, state) in kept.iter().enumerate() {
            // Half way, the file takes no more: the rest waits in memory.
            full.full |= i == 150;
            at.push(full.push(state));
        }
        let view = full.view().unwrap();
        for (state, at) in kept.iter().zip(&at) {
            assert_eq!(view.get(at), &state[..], "file, then memory");
        }
        let mut memory = Spill::default();
        let at: Vec<_> = kept.iter().map(|s| memory.push(s)).collect();
        let view = memory.view().unwrap();
        for (state, at) in kept.iter().zip(&at) {
            assert_eq!(view.get(at), &state[..], "memory");
        }
    }
}
