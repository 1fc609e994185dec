//! The persistent index cache: what earlier runs learnt about each rollout file, kept outside
//! the store (`$XDG_CACHE_HOME/codex-picker/`, else `~/.cache/codex-picker/`).
//!
//! Owns the rows cache (its file layout and the invalidation rules) and the cache folder. One
//! file per store home (the canonical home path is hashed into the name). Each entry is keyed
//! by path and holds the file's size, mtime and the resumable [`ScanState`] of the pass made
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
//! trusted alone; then every entry. The format version joins [`ROWS_VERSION`] and the layout of
//! [`ScanState`], so a build whose `ScanState` differs never reads another's cache. A missing,
//! corrupt, truncated, old-format or foreign cache is ignored and rebuilt, never trusted and
//! never fatal. States are kept as they were read (bytes) and decoded only when a row or a
//! pass needs them; unchanged entries are written back as they were read.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use super::cache_codec::Bytes;
use super::cache_codec::{self as codec, RecordRef};
use super::walk::RolloutFile;
use super::Store;
use crate::rollout::summary::ScanState;
use crate::timefmt::Millis;

#[path = "cache_envelope.rs"]
mod envelope;
pub use envelope::{
    map_envelope, read_envelope, write_envelope, write_envelope_unsynced, write_envelope_with,
    MappedBody,
};

#[path = "cache_refresh.rs"]
mod refresh;
pub use refresh::{refresh, RefreshStats};

/// Bumped whenever the body's shape, or the meaning of a [`ScanState`] field, changes. A change
/// to `ScanState`'s fields or their types needs no bump: it changes the layout part of the
/// version by itself.
// 6: `response` counts of a role are kept until its first event (per-role transcript source);
// 5 was given to caches of the postcard body before that rule, and must not be trusted.
pub const ROWS_VERSION: u32 = 6;

/// Rows in the cache's first section: the newest sessions, a screenful and more.
pub const HEAD_ROWS: usize = 256;

/// The version word of a rows cache header: `v<ROWS_VERSION>.<hash of ScanState's layout>`.
pub fn rows_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        // A layout that cannot be traced cannot be held in postcard either: every state would
        // fail to decode, so such caches are only ever rebuilt.
        let layout = codec::layout().unwrap_or_else(|why| why);
        format!("v{ROWS_VERSION}.{:016x}", fnv64(layout.as_bytes()))
    })
}

/// 64-bit FNV-1a, the home-path hash.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The canonical form of a store home (the path itself when it cannot be resolved).
pub fn canonical_home(home: &Path) -> PathBuf {
    home.canonicalize().unwrap_or_else(|_| home.to_path_buf())
}

/// The cache file of `kind` (`rows`, `content`) for a store home, inside `cache_dir`.
pub fn cache_file(cache_dir: &Path, home: &Path, kind: &str) -> PathBuf {
    let home = canonical_home(home);
    let hash = fnv64(home.to_string_lossy().as_bytes());
    cache_dir.join(format!("{kind}-{hash:016x}.cache"))
}

/// A cache file may be used for this home: it is not inside the Codex home.
pub fn allowed(cache_file: &Path, home: &Path) -> bool {
    let home = canonical_home(home);
    let dir = cache_file.parent().map(canonical_home).unwrap_or_default();
    !dir.starts_with(&home)
}

/// The cache file of `kind` for a store home, when caching is on (`cache_dir` is set) and the
/// file would not be inside the Codex home: the one lookup every user of a cache goes through.
pub fn located(cache_dir: Option<&Path>, home: &Path, kind: &str) -> Option<PathBuf> {
    let file = cache_file(cache_dir?, home, kind);
    allowed(&file, home).then_some(file)
}

/// A hasher for byte strings (paths as bytes, ids), eight bytes at a time: hashing a `Path`
/// parses it into components, and SipHash over tens of thousands of paths shows in a warm
/// start. Not proof against chosen collisions (the keys are the user's own file names).
#[derive(Default)]
pub struct BytesHasher(u64);

impl Hasher for BytesHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
            h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        }
        let mut tail = [0u8; 8];
        tail[..words.remainder().len()].copy_from_slice(words.remainder());
        self.0 = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    }

    fn write_usize(&mut self, n: usize) {
        self.write(&n.to_le_bytes());
    }

    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weak, and the table indexes by them.
        let h = self.0 ^ (self.0 >> 31);
        h.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (h >> 29)
    }
}

pub type BytesHash = BuildHasherDefault<BytesHasher>;

fn path_bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// A path from its bytes as [`Path::as_os_str`] gives them (cache files store paths so).
pub fn path_from(b: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(OsStr::from_bytes(b))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(b).into_owned())
    }
}

/// A path in a cache file as its bytes (`#[serde(with = ...)]`), read back without a copy of
/// the bytes before the path is made.
pub mod path_as_bytes {
    use super::{path_from, Bytes};
    use serde::{Deserialize, Deserializer, Serializer};
    use std::path::{Path, PathBuf};

    pub fn serialize<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(super::path_bytes(path))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        Bytes::deserialize(d).map(|b| path_from(b.0))
    }
}

/// Where an entry's state is.
#[derive(Debug, Clone)]
enum Stored {
    /// Encoded, at this range of the body it was read from.
    Read { start: u32, len: u32 },
    /// Set by this run.
    Owned(Box<ScanState>),
}

/// What the cache knows about one file.
#[derive(Debug, Clone)]
pub struct Entry {
    pub size: u64,
    pub mtime_ms: Millis,
    pub compressed: bool,
    pub archived: bool,
    /// The state shows a session (a `session_meta` or a message).
    pub session: bool,
    state: Stored,
}

impl Entry {
    /// The file as it was when this entry was written.
    pub fn file(&self, path: &Path) -> RolloutFile {
        RolloutFile {
            path: path.to_path_buf(),
            archived: self.archived,
            compressed: self.compressed,
            size: self.size,
            mtime_ms: self.mtime_ms,
        }
    }
}

/// The entries of a rows cache, by path, and the body the unchanged ones were read from.
#[derive(Debug, Clone, Default)]
pub struct Entries {
    map: HashMap<OsString, Entry, BytesHash>,
    body: Vec<u8>,
}

impl Entries {
    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn get(&self, path: &Path) -> Option<&Entry> {
        self.map.get(path.as_os_str())
    }

    pub fn remove(&mut self, path: &Path) -> Option<Entry> {
        self.map.remove(path.as_os_str())
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Path, &Entry)> {
        self.map.iter().map(|(p, e)| (Path::new(p), e))
    }

    /// An entry's state; `None` when its bytes do not decode (a cache that cannot be read is
    /// never trusted: the file is read again).
    pub fn state(&self, entry: &Entry) -> Option<ScanState> {
        match &entry.state {
            Stored::Read { start, len } => {
                let start = *start as usize;
                codec::decode_state(self.body.get(start..start + *len as usize)?)
            }
            Stored::Owned(state) => Some(ScanState::clone(state)),
        }
    }

    /// The entries of a rows cache body (checked by its envelope) written for `home`.
    fn from_body(body: Vec<u8>, home: &Path) -> Result<Entries, &'static str> {
        let (_, full) = envelope::split_prefix(&body).ok_or("unreadable")?;
        let full_at = body.len() - full.len();
        if u32::try_from(body.len()).is_err() {
            return Err("too large");
        }
        let (h, records) = codec::decode_section(full).ok_or("unreadable")?;
        if path_from(h) != home {
            return Err("another store home");
        }
        let mut map = HashMap::with_capacity_and_hasher(records.len(), BytesHash::default());
        for r in records {
            let entry = Entry {
                size: r.size,
                mtime_ms: r.mtime_ms,
                compressed: r.compressed,
                archived: r.archived,
                session: r.session,
                state: Stored::Read {
                    start: (full_at + r.state.start) as u32,
                    len: r.state.len() as u32,
                },
            };
            map.insert(path_from(r.path).into_os_string(), entry);
        }
        Ok(Entries { map, body })
    }
}

/// How loading went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadOutcome {
    Loaded,
    /// No usable cache: the reason (missing, corrupt, old format, another home).
    Ignored(String),
}

/// The rows cache of one store home.
#[derive(Debug, Clone, Default)]
pub struct RowCache {
    pub home: PathBuf,
    pub entries: Entries,
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
            entries: Entries::default(),
        }
    }

    /// Load the cache at `path` for `home`; an unusable one gives an empty cache and the reason.
    pub fn load(path: &Path, home: &Path) -> (RowCache, LoadOutcome) {
        let mut cache = RowCache::empty(home);
        let body = match read_envelope(path, "rows", rows_version()) {
            Ok(b) => b,
            Err(why) => return (cache, LoadOutcome::Ignored(why)),
        };
        match Entries::from_body(body, &cache.home) {
            Ok(entries) => cache.entries = entries,
            Err(why) => return (cache, LoadOutcome::Ignored(why.into())),
        }
        (cache, LoadOutcome::Loaded)
    }

    /// The newest sessions of the cache at `path` (at most [`HEAD_ROWS`], newest first), each as
    /// the file was when cached and its state, read from the cache's first section alone; empty
    /// when there is no usable cache.
    pub fn head(path: &Path, home: &Path) -> Vec<(RolloutFile, ScanState)> {
        let home = canonical_home(home);
        let Ok(prefix) = envelope::read_prefix(path, "rows", rows_version()) else {
            return Vec::new();
        };
        let Some((h, records)) = codec::decode_section(&prefix) else {
            return Vec::new();
        };
        if path_from(h) != home {
            return Vec::new();
        }
        records
            .into_iter()
            .filter_map(|r| {
                let state = codec::decode_state(&prefix[r.state.clone()])?;
                let file = RolloutFile {
                    path: path_from(r.path),
                    archived: r.archived,
                    compressed: r.compressed,
                    size: r.size,
                    mtime_ms: r.mtime_ms,
                };
                Some((file, state))
            })
            .collect()
    }

    /// Write the cache to `path` (atomically): the newest sessions first, then every entry.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let map = &self.entries.map;
        let encoded: Vec<Option<Vec<u8>>> = map
            .values()
            .map(|e| match &e.state {
                Stored::Owned(state) => Some(codec::encode_state(state)),
                Stored::Read { .. } => None,
            })
            .collect();
        let mut records: Vec<RecordRef> = map
            .iter()
            .zip(&encoded)
            .map(|((p, e), own)| RecordRef {
                path: p.as_encoded_bytes(),
                size: e.size,
                mtime_ms: e.mtime_ms,
                compressed: e.compressed,
                archived: e.archived,
                session: e.session,
                state: match (&e.state, own) {
                    (Stored::Read { start, len }, _) => {
                        let start = *start as usize;
                        &self.entries.body[start..start + *len as usize]
                    }
                    (Stored::Owned(_), own) => own.as_deref().unwrap_or_default(),
                },
            })
            .collect();
        let home = path_bytes(&self.home);
        let head = newest_sessions(&records);
        let unwritable = || io::Error::other("a cache entry cannot be encoded");
        let head = codec::encode_section(Vec::with_capacity(head.len() * 512), home, &head)
            .ok_or_else(unwritable)?;
        records.sort_unstable_by(|a, b| a.path.cmp(b.path));
        let mut body = Vec::with_capacity(head.len() + records.len() * 512 + 64);
        body.extend_from_slice(&envelope::frame_prefix(&head));
        body.extend_from_slice(&head);
        let body = codec::encode_section(body, home, &records).ok_or_else(unwritable)?;
        write_envelope(path, "rows", rows_version(), &body)
    }

    /// The invalidation rule for one walked file.
    pub fn plan(&self, file: &RolloutFile) -> Plan {
        match self.entries.get(&file.path) {
            Some(e) => plan_for(e, file),
            None => Plan::Rescan,
        }
    }

    /// For a walked file the cache knows, the state a pass over it starts from and whether it
    /// is the unchanged file's whole state: the cached one when the file is unchanged or only
    /// grew, else an empty state (the file is read from the start). `None` for a file the
    /// cache does not know.
    pub fn start_state(&self, file: &RolloutFile) -> Option<(ScanState, bool)> {
        let e = self.entries.get(&file.path)?;
        let fresh = match plan_for(e, file) {
            Plan::Fresh => true,
            Plan::Resume => false,
            Plan::Rescan => return Some((ScanState::default(), false)),
        };
        Some(match self.entries.state(e) {
            // A grown file is read on from the state's offset, which must lie within it.
            Some(state) if fresh || state.offset <= file.size => (state, fresh),
            _ => (ScanState::default(), false),
        })
    }

    /// Record the state of a file after a pass.
    pub fn put(&mut self, file: &RolloutFile, state: ScanState) {
        let entry = Entry {
            size: file.size,
            mtime_ms: file.mtime_ms,
            compressed: file.compressed,
            archived: file.archived,
            session: codec::is_session(&state),
            state: Stored::Owned(Box::new(state)),
        };
        self.entries
            .map
            .insert(file.path.clone().into_os_string(), entry);
    }

    /// Drop entries of files that are gone. Archived entries are kept when the walk did not look
    /// at archived sessions. Returns the removed paths.
    pub fn retain_walked(&mut self, files: &[RolloutFile], walked_archived: bool) -> Vec<PathBuf> {
        // Walked paths are distinct: when as many of them are cached as there are entries,
        // every entry was walked (the usual case, found without building a set).
        let map = &self.entries.map;
        let cached = files
            .iter()
            .filter(|f| map.contains_key(f.path.as_os_str()))
            .count();
        if cached == map.len() {
            return Vec::new();
        }
        let mut seen: HashSet<&OsStr, BytesHash> =
            HashSet::with_capacity_and_hasher(files.len(), BytesHash::default());
        seen.extend(files.iter().map(|f| f.path.as_os_str()));
        let mut gone = Vec::new();
        self.entries.map.retain(|p, e| {
            let keep = seen.contains(p.as_os_str()) || (!walked_archived && e.archived);
            if !keep {
                gone.push(PathBuf::from(p.clone()));
            }
            keep
        });
        gone
    }
}

fn plan_for(e: &Entry, file: &RolloutFile) -> Plan {
    if e.compressed != file.compressed {
        Plan::Rescan
    } else if e.size == file.size && e.mtime_ms == file.mtime_ms {
        Plan::Fresh
    } else if !file.compressed && file.size > e.size {
        Plan::Resume
    } else {
        Plan::Rescan
    }
}

/// The records of the newest sessions, newest first (ties in path order), at most
/// [`HEAD_ROWS`].
fn newest_sessions<'a>(records: &[RecordRef<'a>]) -> Vec<RecordRef<'a>> {
    let newest =
        |a: &RecordRef, b: &RecordRef| b.mtime_ms.cmp(&a.mtime_ms).then_with(|| a.path.cmp(b.path));
    let mut head: Vec<RecordRef> = records.iter().filter(|r| r.session).copied().collect();
    if head.len() > HEAD_ROWS {
        head.select_nth_unstable_by(HEAD_ROWS, newest);
        head.truncate(HEAD_ROWS);
    }
    head.sort_unstable_by(newest);
    head
}

/// Where a store's caches live, or `None` when caching is off for it (the folder would be
/// inside the Codex home).
pub fn cache_dir_for(store: &Store, cache_dir: &Path) -> Option<PathBuf> {
    let probe = cache_dir.join("probe");
    allowed(&probe, &store.home).then(|| cache_dir.to_path_buf())
}

/// The file every content index folder holds (see `fulltext::build`).
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
