//! The persistent index cache: what earlier runs learnt about each rollout file, kept outside
//! the store (`$XDG_CACHE_HOME/codex-picker/`, else `~/.cache/codex-picker/`).
//!
//! Owns the rows cache (its file layout and the invalidation rules) and the cache folder. One
//! file per store home (the canonical home path is hashed into the name, with Claude Code's
//! folder when its sessions are read: `Store::cache_home`). Each entry is keyed
//! by path and holds the file's size, mtime and the resumable [`ScanState`](crate::rollout::summary::ScanState) of the pass made
//! over it:
//! - same size and mtime: the state is reused (an incomplete pass is read on when counts are
//!   needed);
//! - a plain file that grew: read on from the state's `offset`, never from the start;
//! - a `.zst` file that changed, a file that shrank, or one whose mtime changed at the same size
//!   (truncated then rewritten): scanned again from 0;
//! - a file that is gone: dropped.
//!
//! The file is an envelope (`cache_envelope`: a header line with the kind, the format version,
//! the body's length and checksum) around a body of two sections (`cache_codec`): first a
//! checked prefix holding the newest rows, enough for a first screen, which can be read and
//! trusted alone; then every entry, in path order, so a walk is settled against it by merging
//! two sorted lists. The format version is [`ROWS_VERSION`], raised with every change of layout
//! (a test on the encoded bytes of a known state fails until it is). A missing, corrupt,
//! truncated, old-format or foreign cache is ignored and rebuilt, never trusted and never fatal.
//! States are kept as they were read (bytes) and decoded only when a row or a pass needs them;
//! unchanged entries are written back as they were read. A caller's line of each session (bytes
//! opaque here: `list --json` keeps its output lines so) is kept beside its state, valid under
//! the section's [`Stamp`], which the caller makes. A run that changed a few entries writes them to a delta beside the
//! file (`cache_delta`), merged on loading; the file is written whole again once the delta
//! would be more than a sixteenth of it.

use std::io;
use std::path::{Path, PathBuf};

use super::cache_codec::{self as codec, Decoded};
pub use super::cache_codec::{
    decode_state, decode_usage, encode_state, rows_version, Bytes, Key, RecordRef, Stamp,
    ROWS_VERSION,
};
pub use super::path_bytes::{path_bytes, path_from};
use super::row_cache::{Base, Body};
pub use super::row_cache::{Entry, RowCache};
use super::walk::RolloutFile;

#[path = "cache_delta.rs"]
mod delta;
use super::cache_envelope as envelope;
pub use super::cache_envelope::{
    map_envelope, read_envelope, write_envelope, write_envelope_unsynced, MappedBody, Unusable,
};

/// Rows in the cache's first section: the newest sessions, a screenful and more.
pub const HEAD_ROWS: usize = 256;

/// The hash of every fingerprint (a store home in a cache file's name, a line format): foldhash,
/// the hash the standard maps here use, with a fixed seed so that it is the same from run to
/// run. A newer foldhash may hash differently: a cache is then only built anew.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x0c0d_e8a1_c4e5_7a11).hash_one(bytes)
}

/// The canonical form of a store home (the path itself when it cannot be resolved).
pub fn canonical_home(home: &Path) -> PathBuf {
    home.canonicalize().unwrap_or_else(|_| home.to_path_buf())
}

/// The cache file of `kind` (`rows`, `content`) for a store home, inside `cache_dir`.
pub fn cache_file(cache_dir: &Path, home: &Path, kind: &str) -> PathBuf {
    let home = canonical_home(home);
    let hash = fingerprint(home.as_os_str().as_encoded_bytes());
    cache_dir.join(format!("{kind}-{hash:016x}.cache"))
}

/// The file beside the rows cache `rows` that holds what changed since it was written (see
/// `cache_delta`).
pub fn delta_file(rows: &Path) -> PathBuf {
    delta::file(rows)
}

/// A cache file may be used for this home: it is not inside the Codex home.
pub fn allowed(cache_file: &Path, home: &Path) -> bool {
    let home = canonical_home(home);
    let dir = cache_file.parent().map(canonical_home).unwrap_or_default();
    !dir.starts_with(&home)
}

/// A path in a cache file as its bytes (`#[serde(with = ...)]`), read back without a copy of
/// the bytes before the path is made.
pub(crate) mod path_as_bytes {
    use super::{path_from, Bytes};
    use serde::{Deserialize, Deserializer, Serializer};
    use std::path::{Path, PathBuf};

    pub(crate) fn serialize<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(super::path_bytes(path))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        Bytes::deserialize(d).map(|b| path_from(b.0))
    }
}

/// How loading went.
#[derive(Debug)]
pub enum LoadOutcome {
    Loaded,
    /// No usable cache: why (missing, corrupt, old format, another home).
    Ignored(Unusable),
}

impl LoadOutcome {
    /// There is no cache file yet.
    pub fn missing() -> LoadOutcome {
        LoadOutcome::Ignored(Unusable::Missing)
    }
}

/// What the cache says to do with one walked file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Unchanged: use the cached state as is.
    Fresh,
    /// A plain file that grew: read on from the cached state's `offset`.
    Resume,
    /// Unknown or rewritten: scan from 0.
    Rescan,
}

impl RowCache {
    pub fn empty(home: &Path) -> Self {
        RowCache {
            home: canonical_home(home),
            ..RowCache::default()
        }
    }

    /// Load the cache at `path` for `home`; an unusable one gives an empty cache and the reason.
    pub fn load(path: &Path, home: &Path) -> (RowCache, LoadOutcome) {
        let mut cache = RowCache::empty(home);
        // Mapped: most of a warm `list` is walking the store, and a copy of the cache would
        // add to it.
        let loaded = map_envelope(path, "rows", rows_version()).and_then(|body| {
            let (_, full) = envelope::split_prefix(&body).ok_or(Unusable::Body("unreadable"))?;
            let at = body.len() - full.len();
            let id = codec::BaseId {
                len: body.len() as u64,
                sum: body.sum(),
            };
            cache.adopt_section(Body::Mapped(body), at, false)?;
            Ok(id)
        });
        match loaded {
            Ok(id) => {
                let paths = cache.entries.iter().map(|e| e.record.path.clone());
                cache.base = Some(Base {
                    id,
                    paths: paths.collect(),
                });
                delta::merge(&mut cache, path);
                (cache, LoadOutcome::Loaded)
            }
            Err(why) => (RowCache::empty(home), LoadOutcome::Ignored(why)),
        }
    }

    /// The newest sessions of the cache at `path` (at most [`HEAD_ROWS`], newest first), read
    /// from the cache's first section alone and its delta; empty when there is no usable cache.
    pub fn head(path: &Path, home: &Path) -> RowCache {
        let mut cache = RowCache::empty(home);
        let Ok(prefix) = envelope::read_prefix(path, "rows", rows_version()) else {
            return cache;
        };
        let base = codec::BaseId {
            len: prefix.body_len,
            sum: prefix.body_sum,
        };
        if cache
            .adopt_section(Body::Read(prefix.bytes), 0, true)
            .is_err()
        {
            return RowCache::empty(home);
        }
        delta::merge_head(&mut cache, path, base, HEAD_ROWS);
        cache
    }

    /// Take the section at `at` of `body` as this cache's entries (in its order when `as_is`,
    /// else checked to be in path order).
    fn adopt_section(&mut self, body: Body, at: usize, as_is: bool) -> Result<(), Unusable> {
        let section = codec::decode_section(&body[at..]).ok_or(Unusable::Body("unreadable"))?;
        if path_from(section.home) != self.home {
            return Err(Unusable::Body("another store home"));
        }
        let shift = |r: std::ops::Range<usize>| r.start + at..r.end + at;
        let entries: Vec<Entry> = section
            .records
            .into_iter()
            .map(|r| Entry {
                body: 0,
                record: Decoded {
                    path: shift(r.path),
                    state: shift(r.state),
                    id: shift(r.id),
                    line: shift(r.line),
                    key: r.key,
                },
            })
            .collect();
        let sorted = entries
            .windows(2)
            .all(|w| body[w[0].record.path.clone()] < body[w[1].record.path.clone()]);
        if !as_is && !sorted {
            return Err(Unusable::Body("unreadable"));
        }
        self.stamp = section.stamp;
        self.entries = entries;
        self.bodies = vec![body];
        Ok(())
    }

    /// Take the entries of `head` that this cache does not hold as they are (the rest of the
    /// file may not be what the first section was read from: damaged, or rewritten in between),
    /// so that the walk judges the rows made from them by what they were made of.
    pub fn adopt(&mut self, mut head: RowCache) {
        // The head's bodies follow this cache's: its first section and, when a delta was
        // merged into it, the delta's.
        let first = self.bodies.len();
        self.bodies.append(&mut head.bodies);
        for e in head.entries {
            let body = first + e.body;
            let path = &self.bodies[body][e.record.path.clone()];
            let at = self.find(path);
            if at.is_ok_and(|i| self.entries[i].record.key == e.record.key) {
                continue;
            }
            let entry = Entry {
                body,
                record: Decoded {
                    line: 0..0,
                    ..e.record
                },
            };
            match at {
                Ok(i) => self.entries[i] = entry,
                Err(i) => self.entries.insert(i, entry),
            }
        }
    }
}

/// The invalidation rule for one walked file against what the cache knew of it.
pub fn plan(key: &Key, file: &RolloutFile) -> Plan {
    if key.compressed != file.compressed {
        Plan::Rescan
    } else if key.size == file.size && key.mtime_ms == file.mtime_ms {
        Plan::Fresh
    } else if !file.compressed && file.size > key.size {
        Plan::Resume
    } else {
        Plan::Rescan
    }
}

/// Save the rows cache of `rc` to `path`: `records` in path order, each with whether it is
/// unchanged from the rows file `rc` was loaded from ([`RowCache::in_base`]). When the changes
/// are few, they are written as a delta beside that file; otherwise the file is written whole
/// (atomically, not synced: a cache torn by a crash fails its checksum and is only built anew),
/// the newest sessions first, then every record, and the delta is removed.
pub fn save(
    path: &Path,
    rc: &RowCache,
    stamp: Stamp,
    records: &[(RecordRef, bool)],
) -> io::Result<()> {
    if let Some(changes) = delta::changes(rc, stamp, records) {
        return delta::write(path, &rc.home, stamp, &changes);
    }
    let records: Vec<RecordRef> = records.iter().map(|(r, _)| *r).collect();
    save_whole(path, &rc.home, stamp, &records)?;
    delta::remove(path);
    Ok(())
}

/// Write a whole rows file (see [`save`]): the first section made in memory (it is small),
/// the second streamed from the records, so that a large store's cache is not held a second
/// time while it is written.
fn save_whole(path: &Path, home: &Path, stamp: Stamp, records: &[RecordRef]) -> io::Result<()> {
    let home = path_bytes(home);
    let head = newest_sessions(records);
    let unwritable = || io::Error::other("a cache entry cannot be encoded");
    let head = codec::encode_section(Vec::with_capacity(head.len() * 1024), home, stamp, &head)
        .ok_or_else(unwritable)?;
    envelope::write_envelope_unsynced(path, "rows", rows_version(), |w| {
        w.write_all(&envelope::frame_prefix(&head))?;
        w.write_all(&head)?;
        codec::write_section(w, home, stamp, records)
    })
}

/// The records of the newest sessions, newest first (ties in path order), at most
/// [`HEAD_ROWS`], without their lines (the first section is for the picker).
fn newest_sessions<'a>(records: &[RecordRef<'a>]) -> Vec<RecordRef<'a>> {
    let newest = |a: &RecordRef, b: &RecordRef| {
        b.key
            .mtime_ms
            .cmp(&a.key.mtime_ms)
            .then_with(|| a.path.cmp(b.path))
    };
    let mut head: Vec<RecordRef> = records.iter().filter(|r| r.key.session).copied().collect();
    if head.len() > HEAD_ROWS {
        head.select_nth_unstable_by(HEAD_ROWS, newest);
        head.truncate(HEAD_ROWS);
    }
    head.sort_unstable_by(newest);
    for r in &mut head {
        r.line = &[];
    }
    head
}

/// The file every content index folder holds (see `search::fulltext::build`).
pub const INDEX_MARK: &str = "codex-picker-index-version";

/// Remove every cache file in `cache_dir` (rows and content index of every home, and stray
/// temporary files); returns the paths removed.
pub fn clear(cache_dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let entries = match std::fs::read_dir(cache_dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(removed),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name.ends_with(".cache") || (name.starts_with('.') && name.ends_with(".tmp"));
        let kind = entry.file_type()?;
        if ours && kind.is_file() {
            std::fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
        // A content index folder, known by the version file the program writes into it.
        let index = name.ends_with(".index") && entry.path().join(INDEX_MARK).is_file();
        if index && kind.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
            removed.push(entry.path());
        }
    }
    removed.sort();
    Ok(removed)
}
