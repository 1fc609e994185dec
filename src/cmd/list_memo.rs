//! The last whole `list --json` output of a store, remembered in the cache folder beside the
//! rows cache, with what it was made from. A `list --json` that finds the store as it was then
//! (after its walk: the same rollouts, by path, kind, size and mtime, the same walk problems,
//! the same names file, the same program) writes the remembered bytes again instead of making
//! every row anew: the rows cache still decodes, builds and renders 10,000 rows, which is most
//! of a warm listing once the walk is done.
//!
//! Owns the memo file (an envelope of kind `list`, checked whole before a byte of it is
//! written out) and the fingerprint of a walk. The same trust as the rows cache: a file
//! rewritten in place to the same size within the same millisecond is not seen.
//!
//! When it is written is the caller's choice (`cmd::list`): after a run in which the rows
//! cache had nothing to change, so the store held still between two runs; while a session is
//! being written every run would otherwise write megabytes for nothing.

use std::hash::{BuildHasher, Hash, Hasher};
use std::io;
use std::path::Path;
use std::time::UNIX_EPOCH;

use crate::store::cache;
use crate::store::walk::RolloutFile;
use crate::store::{FileIssue, Store};

/// The envelope kind of the memo file.
const KIND: &str = "list";

/// The layout of the memo's body; raised when it changes.
const FORMAT: u32 = 1;

/// What a listing was made from, as far as its output can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    archived: bool,
    files: u64,
    /// Two independent sums of a hash of each file: the walk's order does not matter.
    sums: [u64; 2],
    /// Size and mtime (ns) of `session_index.jsonl`; zeros when it is not a file.
    names: (u64, u64),
}

/// The seeds of the two sums' hashes (any two different numbers).
const SEEDS: [u64; 2] = [0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b];

/// Bytes of a fingerprint in the memo file.
const FINGERPRINT_LEN: usize = 1 + 8 * 5;

impl Fingerprint {
    /// The fingerprint of a walk of `store` (`archived`: whether archived sessions were walked).
    pub fn of(store: &Store, archived: bool, files: &[RolloutFile], issues: &[FileIssue]) -> Self {
        let mut sums = [0u64; 2];
        let seeds = SEEDS.map(foldhash::fast::FixedState::with_seed);
        let mut add = |item: &dyn Fn(&mut foldhash::fast::FoldHasher)| {
            for (seed, sum) in seeds.iter().zip(&mut sums) {
                let mut h = seed.build_hasher();
                item(&mut h);
                *sum = sum.wrapping_add(h.finish());
            }
        };
        for f in files {
            add(&|h| {
                f.path.as_os_str().as_encoded_bytes().hash(h);
                (f.archived, f.compressed, f.size, f.mtime_ms).hash(h);
            });
        }
        for issue in issues {
            add(&|h| {
                issue.path.as_os_str().as_encoded_bytes().hash(h);
                issue.reason.hash(h);
            });
        }
        let names = std::fs::metadata(store.home.join("session_index.jsonl"))
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map_or((0, 0), |m| (m.len(), mtime_ns(&m)));
        Fingerprint {
            archived,
            files: (files.len() + issues.len()) as u64,
            sums,
            names,
        }
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.push(u8::from(self.archived));
        for n in [
            self.files,
            self.sums[0],
            self.sums[1],
            self.names.0,
            self.names.1,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }

    fn decode(b: &[u8]) -> Option<Self> {
        let b = b.get(..FINGERPRINT_LEN)?;
        let n = |i: usize| {
            let at = 1 + 8 * i;
            b[at..at + 8].try_into().ok().map(u64::from_le_bytes)
        };
        Some(Fingerprint {
            archived: b[0] == 1,
            files: n(0)?,
            sums: [n(1)?, n(2)?],
            names: (n(3)?, n(4)?),
        })
    }
}

fn mtime_ns(m: &std::fs::Metadata) -> u64 {
    m.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The envelope's version word: the body's layout and the program that wrote it (its version,
/// size and mtime), since another build may list the same store otherwise. `None` when the
/// program cannot be looked at: then nothing is remembered.
fn version() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let m = std::fs::metadata(exe).ok()?;
    Some(format!(
        "v{FORMAT}.{}.{}.{}",
        env!("CARGO_PKG_VERSION"),
        m.len(),
        mtime_ns(&m)
    ))
}

/// A remembered listing: its fingerprint, then what it wrote to standard error and output.
pub struct Memo {
    fingerprint: Fingerprint,
    body: cache::MappedBody,
    /// Where the standard-output part of `body` starts.
    out_at: usize,
}

impl Memo {
    /// The memo at `file`, when there is a whole one written by this program.
    pub fn load(file: &Path) -> Option<Memo> {
        let body = cache::map_envelope(file, KIND, &version()?).ok()?;
        let fingerprint = Fingerprint::decode(&body)?;
        let len = body.get(FINGERPRINT_LEN..FINGERPRINT_LEN + 8)?;
        let err_len = usize::try_from(u64::from_le_bytes(len.try_into().ok()?)).ok()?;
        let out_at = (FINGERPRINT_LEN + 8).checked_add(err_len)?;
        (out_at <= body.len()).then_some(Memo {
            fingerprint,
            body,
            out_at,
        })
    }

    /// Whether the memo was made from a walk with this fingerprint.
    pub fn made_from(&self, fingerprint: &Fingerprint) -> bool {
        self.fingerprint == *fingerprint
    }

    /// What the listing wrote to standard error (the files passed over).
    pub fn stderr(&self) -> &[u8] {
        &self.body[FINGERPRINT_LEN + 8..self.out_at]
    }

    /// What the listing wrote to standard output: one JSON line per session.
    pub fn stdout(&self) -> &[u8] {
        &self.body[self.out_at..]
    }
}

/// Remember a listing at `file`. Not synced to disk: a file torn by a crash fails its
/// checksum and is only written anew.
pub fn save(
    file: &Path,
    fingerprint: &Fingerprint,
    stderr: &[u8],
    stdout: &[u8],
) -> io::Result<()> {
    let version = version().ok_or_else(|| io::Error::other("the program cannot be looked at"))?;
    let mut head = Vec::with_capacity(FINGERPRINT_LEN + 8);
    fingerprint.encode(&mut head);
    head.extend_from_slice(&(stderr.len() as u64).to_le_bytes());
    let parts: [&[u8]; 3] = [&head, stderr, stdout];
    cache::write_envelope_unsynced(file, KIND, &version, &parts)
}

/// The first `n` lines of `text` (all of it when it has fewer).
pub fn first_lines(text: &[u8], n: usize) -> &[u8] {
    if n == 0 {
        return &[];
    }
    match memchr::memchr_iter(b'\n', text).nth(n - 1) {
        Some(i) => &text[..=i],
        None => text,
    }
}

#[cfg(test)]
#[path = "list_memo_tests.rs"]
mod tests;
