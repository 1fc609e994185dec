//! The persistent index cache: what earlier runs learnt about each rollout file, kept outside
//! the store (`$XDG_CACHE_HOME/codex-picker/`, else `~/.cache/codex-picker/`).
//!
//! Owns the cache file format, its validation and the invalidation rules. One file per store
//! home (the canonical home path is hashed into the name). Each entry is keyed by path and holds
//! the file's size, mtime and the resumable [`ScanState`] of the pass made over it:
//! - same size and mtime: the state is reused (an incomplete pass is read on when counts are
//!   needed);
//! - a plain file that grew: read on from the state's `offset`, never from the start;
//! - a `.zst` file that changed, a file that shrank, or one whose mtime changed at the same size
//!   (truncated then rewritten): scanned again from 0;
//! - a file that is gone: dropped.
//!
//! The file is one header line (`codex-picker-cache <kind> v<N> <body length> <checksum>`) and a
//! compact binary body (`cache_codec`). A missing, corrupt, truncated, old-format or foreign cache is ignored and rebuilt,
//! never trusted and never fatal. Writes go to a temporary file in the same folder, renamed into
//! place, so two processes at once each leave a whole file (the last rename wins).

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::cache_codec::{path_bytes, path_from, Dec, Enc};
use super::walk::RolloutFile;
use super::Store;
use crate::rollout::summary::ScanState;
use crate::timefmt::Millis;

#[path = "cache_refresh.rs"]
mod refresh;
pub use refresh::{refresh, refresh_lending, RefreshStats, Scanned};

/// Bumped whenever the body's shape or the meaning of a [`ScanState`] changes.
// 4: `response` counts of a role are kept until its first event (per-role transcript source).
pub const ROWS_VERSION: u32 = 4;

/// 64-bit FNV-1a, the checksum and the home-path hash.
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

/// A fast streaming checksum of the cache body: four 64-bit lanes over little-endian words
/// (the tail zero-padded), mixed at the end. Not cryptographic; it catches torn and corrupt
/// files.
#[derive(Debug, Clone)]
pub struct Checksum {
    lanes: [u64; 4],
    pending: Vec<u8>,
    len: u64,
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum {
            lanes: [
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ],
            pending: Vec::with_capacity(32),
            len: 0,
        }
    }
}

impl Checksum {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;

    fn block(lanes: &mut [u64; 4], block: &[u8]) {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
            *lane = (*lane ^ w).wrapping_mul(Self::K).rotate_left(29);
        }
    }

    pub fn update(&mut self, mut data: &[u8]) {
        self.len += data.len() as u64;
        if !self.pending.is_empty() {
            let take = (32 - self.pending.len()).min(data.len());
            self.pending.extend_from_slice(&data[..take]);
            data = &data[take..];
            if self.pending.len() < 32 {
                return;
            }
            let block = std::mem::take(&mut self.pending);
            Self::block(&mut self.lanes, &block);
            self.pending = block;
            self.pending.clear();
        }
        let mut chunks = data.chunks_exact(32);
        for c in &mut chunks {
            Self::block(&mut self.lanes, c);
        }
        self.pending.extend_from_slice(chunks.remainder());
    }

    pub fn finish(&self) -> u64 {
        let mut lanes = self.lanes;
        if !self.pending.is_empty() {
            let mut last = [0u8; 32];
            last[..self.pending.len()].copy_from_slice(&self.pending);
            Self::block(&mut lanes, &last);
        }
        let mut h = self.len.wrapping_mul(Self::K);
        for l in lanes {
            h = (h ^ l).wrapping_mul(Self::K).rotate_left(31);
        }
        h
    }

    pub fn of(data: &[u8]) -> u64 {
        let mut c = Checksum::default();
        c.update(data);
        c.finish()
    }
}

struct Summing<W> {
    inner: W,
    sum: Checksum,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sum.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

fn header(kind: &str, version: u32, len: u64, sum: u64) -> String {
    format!("codex-picker-cache {kind} v{version} {len:020} {sum:016x}\n")
}

/// Write a checked envelope atomically to `path`, its body streamed by `body` (so a large body
/// is never held twice in memory): a temporary file in the same folder, renamed into place.
pub fn write_envelope_with(
    path: &Path,
    kind: &str,
    version: u32,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let dir = path
        .parent()
        .ok_or_else(|| io::Error::other("cache path has no folder"))?;
    std::fs::create_dir_all(dir)?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{}.{}.{nanos}.tmp",
        name.unwrap_or_default(),
        std::process::id()
    ));
    let result = (|| {
        let placeholder = header(kind, version, 0, 0);
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(placeholder.as_bytes())?;
        let mut w = Summing {
            inner: io::BufWriter::with_capacity(1 << 20, file),
            sum: Checksum::default(),
        };
        body(&mut w)?;
        let sum = w.sum.finish();
        let len = w.sum.len;
        let mut file = w.inner.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(header(kind, version, len, sum).as_bytes())?;
        file.sync_data()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// [`write_envelope_with`] for a body already in memory.
pub fn write_envelope(path: &Path, kind: &str, version: u32, body: &[u8]) -> io::Result<()> {
    write_envelope_with(path, kind, version, |w| w.write_all(body))
}

/// Read and check an envelope: the body, or why it cannot be trusted.
pub fn read_envelope(path: &Path, kind: &str, version: u32) -> Result<Vec<u8>, String> {
    let mut data = match std::fs::read(path) {
        Ok(d) => d,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err("no cache yet".into()),
        Err(e) => return Err(e.to_string()),
    };
    let nl = memchr::memchr(b'\n', &data).ok_or("no header")?;
    let header = String::from_utf8(data[..nl].to_vec()).map_err(|_| "header not text")?;
    let header = header.as_str();
    let parts: Vec<&str> = header.split(' ').collect();
    let [magic, k, v, len, sum] = parts.as_slice() else {
        return Err("bad header".into());
    };
    if *magic != "codex-picker-cache" || *k != kind {
        return Err("not a cache of this kind".into());
    }
    if *v != format!("v{version}") {
        return Err(format!("old format {v}"));
    }
    if len.parse::<usize>().ok() != Some(data.len() - nl - 1) {
        return Err("length mismatch (cut short or being written)".into());
    }
    if u64::from_str_radix(sum, 16).ok() != Some(Checksum::of(&data[nl + 1..])) {
        return Err("checksum mismatch".into());
    }
    // Keep one buffer: move the body to the front rather than copying it out.
    data.drain(..=nl);
    Ok(data)
}

/// What the cache knows about one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub size: u64,
    pub mtime_ms: Millis,
    pub compressed: bool,
    pub archived: bool,
    pub state: ScanState,
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
    pub entries: HashMap<PathBuf, Entry>,
}

/// What the cache says to do with one walked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Unchanged: use this state as is.
    Fresh(ScanState),
    /// A plain file that grew: read on from `state.offset`.
    Resume(ScanState),
    /// Unknown or rewritten: scan from 0.
    Rescan,
}

impl RowCache {
    pub fn empty(home: &Path) -> Self {
        RowCache {
            home: canonical_home(home),
            entries: HashMap::new(),
        }
    }

    /// Load the cache at `path` for `home`; an unusable one gives an empty cache and the reason.
    pub fn load(path: &Path, home: &Path) -> (RowCache, LoadOutcome) {
        let mut cache = RowCache::empty(home);
        let body = match read_envelope(path, "rows", ROWS_VERSION) {
            Ok(b) => b,
            Err(why) => return (cache, LoadOutcome::Ignored(why)),
        };
        match decode(&body, &cache.home) {
            Ok(entries) => cache.entries = entries,
            Err(why) => return (cache, LoadOutcome::Ignored(why.into())),
        }
        (cache, LoadOutcome::Loaded)
    }

    /// Write the cache to `path` (atomically).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut entries: Vec<(&PathBuf, &Entry)> = self.entries.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut enc = Enc(Vec::with_capacity(entries.len() * 512));
        enc.0
            .extend_from_slice(&(path_bytes(&self.home).len() as u32).to_le_bytes());
        enc.0.extend_from_slice(&path_bytes(&self.home));
        enc.0
            .extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for (p, e) in entries {
            enc.entry(&path_bytes(p), e);
        }
        write_envelope(path, "rows", ROWS_VERSION, &enc.0)
    }

    /// The invalidation rule for one walked file.
    pub fn plan(&self, file: &RolloutFile) -> Plan {
        let Some(e) = self.entries.get(&file.path) else {
            return Plan::Rescan;
        };
        if e.compressed != file.compressed {
            return Plan::Rescan;
        }
        if e.size == file.size && e.mtime_ms == file.mtime_ms {
            return Plan::Fresh(e.state.clone());
        }
        if !file.compressed && file.size > e.size && e.state.offset <= file.size {
            return Plan::Resume(e.state.clone());
        }
        Plan::Rescan
    }

    /// [`RowCache::plan`], moving an unchanged file's state out of the cache instead of copying
    /// it (the entry is left with an empty state: put it back before saving).
    fn plan_lending(&mut self, file: &RolloutFile) -> Plan {
        let Some(e) = self.entries.get_mut(&file.path) else {
            return Plan::Rescan;
        };
        if e.compressed != file.compressed {
            return Plan::Rescan;
        }
        if e.size == file.size && e.mtime_ms == file.mtime_ms {
            return Plan::Fresh(std::mem::take(&mut e.state));
        }
        if !file.compressed && file.size > e.size && e.state.offset <= file.size {
            return Plan::Resume(e.state.clone());
        }
        Plan::Rescan
    }

    /// Give back the states [`refresh_lending`] moved out (those of unchanged files).
    pub fn put_back(&mut self, scanned: &[Scanned]) {
        for s in scanned.iter().filter(|s| !s.changed) {
            if let Some(e) = self.entries.get_mut(&s.file.path) {
                e.state = s.state.clone();
            }
        }
    }

    /// Record the state of a file after a pass.
    pub fn put(&mut self, file: &RolloutFile, state: ScanState) {
        self.entries.insert(
            file.path.clone(),
            Entry {
                size: file.size,
                mtime_ms: file.mtime_ms,
                compressed: file.compressed,
                archived: file.archived,
                state,
            },
        );
    }

    /// Drop entries of files that are gone. Archived entries are kept when the walk did not look
    /// at archived sessions. Returns the removed paths.
    pub fn retain_walked(&mut self, files: &[RolloutFile], walked_archived: bool) -> Vec<PathBuf> {
        let seen: std::collections::HashSet<&Path> =
            files.iter().map(|f| f.path.as_path()).collect();
        let gone: Vec<PathBuf> = self
            .entries
            .iter()
            .filter(|(p, e)| !seen.contains(p.as_path()) && (walked_archived || !e.archived))
            .map(|(p, _)| p.clone())
            .collect();
        for p in &gone {
            self.entries.remove(p);
        }
        gone
    }
}

/// The entries of a rows cache body written for `home`.
fn decode(body: &[u8], home: &Path) -> Result<HashMap<PathBuf, Entry>, &'static str> {
    let mut d = Dec { b: body, i: 0 };
    let h = d.bytes().ok_or("unreadable")?;
    if path_from(h) != home {
        return Err("another store home");
    }
    let n = d.u64().ok_or("unreadable")?;
    let mut entries = HashMap::with_capacity(usize::try_from(n).unwrap_or(0).min(1 << 20));
    for _ in 0..n {
        let (p, e) = d.entry().ok_or("unreadable entry")?;
        entries.insert(p, e);
    }
    if d.i != body.len() {
        return Err("trailing bytes");
    }
    Ok(entries)
}

/// Where a store's caches live, or `None` when caching is off for it (the folder would be
/// inside the Codex home).
pub fn cache_dir_for(store: &Store, cache_dir: &Path) -> Option<PathBuf> {
    let probe = cache_dir.join("probe");
    allowed(&probe, &store.home).then(|| cache_dir.to_path_buf())
}

/// Remove every cache file in `cache_dir` (rows and content of every home, and stray temporary
/// files); returns the paths removed.
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
        if ours && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    removed.sort();
    Ok(removed)
}
