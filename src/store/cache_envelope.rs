//! The envelope every cache file is written in: one header line
//! (`codex-picker-cache <kind> <version> <body length> <checksum>`) and the body, checked whole
//! on reading, written to a temporary file in the same folder and renamed into place (so two
//! processes at once each leave a whole file; the last rename wins).
//!
//! Owns the header, the checksum and the atomic write. A body may also start with a checked
//! prefix ([`read_prefix`]): a part with its own length and checksum that is read and trusted
//! without reading the rest of the file.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The checksum of a cache body: CRC-32 (`crc32fast`, the one tantivy and zstd already
/// bring). Not proof against tampering; it catches torn and corrupt files.
fn checksum(data: &[u8]) -> u64 {
    u64::from(crc32fast::hash(data))
}

struct Summing<W> {
    inner: W,
    sum: crc32fast::Hasher,
    len: u64,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sum.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Why a cache file cannot be used. Never fatal: the cache is built anew.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    #[error("no cache yet")]
    Missing,
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("header not text")]
    HeaderNotText,
    #[error("bad header")]
    BadHeader,
    #[error("no header")]
    NoHeader,
    #[error("not a cache of this kind")]
    OtherKind,
    #[error("old format {0}")]
    OldFormat(String),
    #[error("length mismatch (cut short or being written)")]
    Length,
    #[error("too large")]
    TooLarge,
    #[error("checksum mismatch")]
    Checksum,
    #[error("no prefix")]
    NoPrefix,
    #[error("bad prefix")]
    BadPrefix,
    #[error("prefix checksum mismatch")]
    PrefixChecksum,
    /// The body is whole but says something this build cannot take (another home, records
    /// out of order, bytes that do not decode).
    #[error("{0}")]
    Body(&'static str),
}

fn header(kind: &str, version: &str, len: u64, sum: u64) -> String {
    format!("codex-picker-cache {kind} {version} {len:020} {sum:016x}\n")
}

/// Write a checked envelope atomically, not synced to disk, to `path`, its body streamed by
/// `body` (so a large body is never held twice in memory): for a cache that is cheap to lose
/// (a file torn by a crash fails its checksum and is written anew). `version` is the whole
/// version word of the header (`v3`).
pub fn write_envelope_unsynced(
    path: &Path,
    kind: &str,
    version: &str,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_atomically(path, kind, version, false, body)
}

/// A temporary file in the same folder as `path`, renamed into place, synced first when `sync`.
fn write_atomically(
    path: &Path,
    kind: &str,
    version: &str,
    sync: bool,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
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
            sum: crc32fast::Hasher::new(),
            len: 0,
        };
        body(&mut w)?;
        let sum = u64::from(w.sum.clone().finalize());
        let len = w.len;
        let mut file = w
            .inner
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        file.write_all(header(kind, version, len, sum).as_bytes())?;
        if sync {
            file.sync_data()?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Write a checked envelope of `body` atomically to `path`, synced to disk before it is renamed
/// into place.
pub fn write_envelope(path: &Path, kind: &str, version: &str, body: &[u8]) -> io::Result<()> {
    write_atomically(path, kind, version, true, |w| w.write_all(body))
}

/// The header line `line` (without its newline) of a cache of `kind` at `version`: the body's
/// length and checksum, or why the file cannot be used.
fn parse_header(line: &[u8], kind: &str, version: &str) -> Result<(u64, u64), Unusable> {
    let header = std::str::from_utf8(line).map_err(|_| Unusable::HeaderNotText)?;
    let parts: Vec<&str> = header.split(' ').collect();
    let [magic, k, v, len, sum] = parts.as_slice() else {
        return Err(Unusable::BadHeader);
    };
    if *magic != "codex-picker-cache" || *k != kind {
        return Err(Unusable::OtherKind);
    }
    if *v != version {
        return Err(Unusable::OldFormat((*v).to_owned()));
    }
    let len = len.parse::<u64>().map_err(|_| Unusable::BadHeader)?;
    let sum = u64::from_str_radix(sum, 16).map_err(|_| Unusable::BadHeader)?;
    Ok((len, sum))
}

fn open_error(e: io::Error) -> Unusable {
    match e.kind() {
        io::ErrorKind::NotFound => Unusable::Missing,
        _ => Unusable::Io(e),
    }
}

/// The longest header line read before giving up on a file.
const HEADER_MAX: usize = 256;

/// An envelope opened and its header checked against the file's length, the body not read yet.
struct Opened {
    file: std::fs::File,
    /// The body's length and checksum, as the header gives them.
    len: u64,
    sum: u64,
    /// The first bytes of the body, read with the header.
    start: Vec<u8>,
}

/// Open the envelope at `path` and check its header; `first` bytes are read with it (at least
/// the header, as much of the body as fits).
fn open(path: &Path, kind: &str, version: &str, first: usize) -> Result<Opened, Unusable> {
    let mut file = std::fs::File::open(path).map_err(open_error)?;
    let size = file.metadata()?.len();
    let mut start = Vec::with_capacity(first.max(HEADER_MAX));
    (&mut file)
        .take(first.max(HEADER_MAX) as u64)
        .read_to_end(&mut start)?;
    let head = &start[..start.len().min(HEADER_MAX)];
    let nl = memchr::memchr(b'\n', head).ok_or(Unusable::NoHeader)?;
    let (len, sum) = parse_header(&start[..nl], kind, version)?;
    let at = nl as u64 + 1;
    if Some(size) != len.checked_add(at) {
        return Err(Unusable::Length);
    }
    start.drain(..=nl);
    Ok(Opened {
        file,
        len,
        sum,
        start,
    })
}

/// Read and check an envelope: the body, or why it cannot be trusted. The body is read into a
/// buffer of its own size (a large body is never moved or copied again).
pub fn read_envelope(path: &Path, kind: &str, version: &str) -> Result<Vec<u8>, Unusable> {
    let opened = open(path, kind, version, 0)?;
    let len = usize::try_from(opened.len).map_err(|_| Unusable::TooLarge)?;
    let mut body = Vec::with_capacity(len);
    body.extend_from_slice(&opened.start);
    let rest = opened.len.saturating_sub(body.len() as u64);
    opened.file.take(rest).read_to_end(&mut body)?;
    if body.len() != len {
        return Err(Unusable::Length);
    }
    if opened.sum != checksum(&body) {
        return Err(Unusable::Checksum);
    }
    Ok(body)
}

/// A checked envelope's body, mapped from its file instead of read: nothing is copied into
/// the heap, and the pages are the page cache's own.
pub struct MappedBody {
    map: memmap2::Mmap,
    /// Where the body starts in the file (after the header line).
    at: usize,
    sum: u64,
}

impl MappedBody {
    /// The body's checksum, as its header gives it (and as checked).
    pub fn sum(&self) -> u64 {
        self.sum
    }
}

impl std::ops::Deref for MappedBody {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.map[self.at..]
    }
}

impl std::fmt::Debug for MappedBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MappedBody({} bytes)", self.len())
    }
}

/// [`read_envelope`] through a memory map: the body, checked whole, or why it cannot be
/// trusted.
pub fn map_envelope(path: &Path, kind: &str, version: &str) -> Result<MappedBody, Unusable> {
    let opened = open(path, kind, version, 0)?;
    // SAFETY: a cache file is never written in place: every writer (this program) writes a
    // temporary file and renames it over the old one, so the mapped file keeps its bytes for
    // as long as the map lives. Only a process truncating the cache file itself could change
    // them under the map.
    // Populated: every page is read at once (the checksum reads them all), in one call
    // instead of a page fault for each.
    let map = unsafe { memmap2::MmapOptions::new().populate().map(&opened.file) }?;
    let len = usize::try_from(opened.len).map_err(|_| Unusable::TooLarge)?;
    let at = map.len().checked_sub(len).ok_or(Unusable::Length)?;
    let body = MappedBody {
        map,
        at,
        sum: opened.sum,
    };
    if opened.sum != checksum(&body) {
        return Err(Unusable::Checksum);
    }
    Ok(body)
}

/// Bytes before a prefix: its length and its checksum (little-endian).
pub(super) const PREFIX_FRAME: usize = 16;

/// A body that starts with a checked prefix: `frame(prefix)`, the prefix, then the rest.
pub(super) fn frame_prefix(prefix: &[u8]) -> [u8; PREFIX_FRAME] {
    let mut frame = [0; PREFIX_FRAME];
    frame[..8].copy_from_slice(&(prefix.len() as u64).to_le_bytes());
    frame[8..].copy_from_slice(&checksum(prefix).to_le_bytes());
    frame
}

/// Split a whole (checked) body into its prefix and the rest.
pub(super) fn split_prefix(body: &[u8]) -> Option<(&[u8], &[u8])> {
    let len = u64::from_le_bytes(body.get(..8)?.try_into().ok()?);
    let end = PREFIX_FRAME.checked_add(usize::try_from(len).ok()?)?;
    Some((body.get(PREFIX_FRAME..end)?, body.get(end..)?))
}

/// A checked prefix, and the length and checksum its header gives the whole body.
pub(super) struct Prefix {
    pub bytes: Vec<u8>,
    pub body_len: u64,
    pub body_sum: u64,
}

/// Read only the checked prefix of an envelope's body (see [`frame_prefix`]), checked against
/// its own checksum, without reading the rest of the file: the header and the file's length
/// are checked as [`read_envelope`] checks them, the rest of the body is not.
pub(super) fn read_prefix(path: &Path, kind: &str, version: &str) -> Result<Prefix, Unusable> {
    // The header and a first screenful of rows, most often all that is needed.
    let mut opened = open(path, kind, version, 64 << 10)?;
    let data = &mut opened.start;
    let frame = data.get(..PREFIX_FRAME).ok_or(Unusable::NoPrefix)?;
    let plen = u64::from_le_bytes(frame[..8].try_into().unwrap_or_default());
    let psum = u64::from_le_bytes(frame[8..].try_into().unwrap_or_default());
    let end = (PREFIX_FRAME as u64)
        .checked_add(plen)
        .filter(|&e| e <= opened.len)
        .ok_or(Unusable::BadPrefix)?;
    let end = usize::try_from(end).map_err(|_| Unusable::BadPrefix)?;
    if data.len() < end {
        let more = end - data.len();
        data.reserve_exact(more);
        // The file is read up to here: read on.
        (&mut opened.file).take(more as u64).read_to_end(data)?;
    }
    data.truncate(end);
    data.drain(..PREFIX_FRAME);
    if data.len() as u64 != plen || checksum(data) != psum {
        return Err(Unusable::PrefixChecksum);
    }
    Ok(Prefix {
        bytes: std::mem::take(data),
        body_len: opened.len,
        body_sum: opened.sum,
    })
}
