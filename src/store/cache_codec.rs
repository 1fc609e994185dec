//! The rows cache's body format: what is stored for each rollout file, in postcard (serde's
//! compact, documented binary format).
//!
//! A section is a table, then the bytes the table points into. The table holds the store home,
//! the stamp its lines were made under, and a list of records sorted by path; a record is one
//! file's key (path, size, mtime, flags), the session id, and the lengths of its [`ScanState`]
//! (encoded on its own, by [`encode_state`]) and of the session's line (a caller's bytes, opaque
//! here; 0 when none was made). After the table come every record's state, then every record's line,
//! each in record order, as plain bytes. So the table a run merges the walk with, sorts by and
//! checks ids in lies in a few contiguous pages, not spread between the states and lines; a
//! state is decoded only when its row is wanted; an unchanged entry is written back by copying
//! its bytes; and an unchanged session's line is written out as it is. Postcard is not
//! self-describing: a change to `ScanState` or to this layout must raise the cache's version
//! (`cache::ROWS_VERSION`); tests on the bytes of a known state and of a known section fail
//! until it is raised.
//!
//! A delta is what changed since a rows file was written (the file's length and checksum, the
//! paths gone from it, and a section of the records new or changed since), kept beside it so
//! that a run which changed a few sessions does not write every record again.
//!
//! Nothing here knows about files, checksums or invalidation (that is `cache`).

use serde::de::Visitor;
use serde::{Deserialize, Serialize};
use std::io::{self, Write};
use std::ops::Range;

use crate::rollout::summary::{ScanState, UsageView};
use crate::sources::Source;

/// A borrowed byte string, encoded as postcard bytes (a length and the bytes, not a list of
/// numbers) and decoded without a copy.
#[derive(Debug, Clone, Copy)]
pub struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Bytes<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Borrowed;
        impl<'de> Visitor<'de> for Borrowed {
            type Value = &'de [u8];
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("borrowed bytes")
            }
            fn visit_borrowed_bytes<E>(self, v: &'de [u8]) -> Result<Self::Value, E> {
                Ok(v)
            }
        }
        d.deserialize_bytes(Borrowed).map(Bytes)
    }
}

/// Flag bits of a record.
const COMPRESSED: u8 = 1;
const ARCHIVED: u8 = 2;
/// The state shows a session (a `session_meta` or a message): rows can be chosen without
/// decoding states.
const SESSION: u8 = 4;
/// The session is a paginated fork: its row also depends on its parent's file.
const FORK: u8 = 8;
/// The state is a whole pass (read to the end of the file as it was): its row has exact
/// counts and usage without decoding it.
const COMPLETE: u8 = 16;
/// The file is a Claude Code session (else a Codex rollout).
const CLAUDE: u8 = 32;

/// What the lines of a section were made under, as their maker stamped them (opaque here: the
/// maker knows what its lines depend on besides the row). A line is only used under the same
/// stamp; 0 is no maker's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp(pub u64);

/// A record of a section's table: its state and line are in the bytes after the table.
#[derive(Serialize, Deserialize)]
struct Record<'a> {
    #[serde(borrow)]
    path: Bytes<'a>,
    size: u64,
    mtime_ms: i64,
    flags: u8,
    #[serde(borrow)]
    id: Bytes<'a>,
    state_len: u64,
    line_len: u64,
}

/// A section's table (its states and lines follow it).
#[derive(Serialize, Deserialize)]
struct Section<'a> {
    #[serde(borrow)]
    home: Bytes<'a>,
    stamp: Stamp,
    #[serde(borrow)]
    records: Vec<Record<'a>>,
}

/// The rows file a delta was written against: its body's length and checksum.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct BaseId {
    pub len: u64,
    pub sum: u64,
}

/// What changed since a rows file was written: the paths it holds that are gone, then the table
/// of a section of the records that are new or changed (its states and lines follow).
#[derive(Serialize, Deserialize)]
struct Delta<'a> {
    base: BaseId,
    #[serde(borrow)]
    gone: Vec<Bytes<'a>>,
    #[serde(borrow)]
    section: Section<'a>,
}

/// One file's key and flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Key {
    pub size: u64,
    pub mtime_ms: i64,
    pub compressed: bool,
    pub archived: bool,
    pub session: bool,
    pub fork: bool,
    pub complete: bool,
    /// The agent that wrote the file.
    pub source: Source,
}

impl Key {
    fn flags(&self) -> u8 {
        [
            (self.compressed, COMPRESSED),
            (self.archived, ARCHIVED),
            (self.session, SESSION),
            (self.fork, FORK),
            (self.complete, COMPLETE),
            (self.source == Source::Claude, CLAUDE),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |acc, (_, bit)| acc | bit)
    }

    fn from_parts(size: u64, mtime_ms: i64, flags: u8) -> Key {
        Key {
            size,
            mtime_ms,
            compressed: flags & COMPRESSED != 0,
            archived: flags & ARCHIVED != 0,
            session: flags & SESSION != 0,
            fork: flags & FORK != 0,
            complete: flags & COMPLETE != 0,
            source: if flags & CLAUDE == 0 {
                Source::Codex
            } else {
                Source::Claude
            },
        }
    }
}

/// One file's record, its parts as encoded bytes (the state by [`encode_state`]; the line
/// empty when there is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordRef<'a> {
    pub path: &'a [u8],
    pub key: Key,
    pub state: &'a [u8],
    pub id: &'a [u8],
    pub line: &'a [u8],
}

/// A record read from a section: each part is a byte range of the section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Decoded {
    pub path: Range<usize>,
    pub key: Key,
    pub state: Range<usize>,
    pub id: Range<usize>,
    pub line: Range<usize>,
}

/// A state's bytes.
pub fn encode_state(state: &ScanState) -> Vec<u8> {
    // Plain structs of strings, numbers and options: serialising into memory cannot fail.
    postcard::to_stdvec(state).unwrap_or_default()
}

/// A state from its bytes; `None` when they do not decode to exactly one state.
pub fn decode_state(bytes: &[u8]) -> Option<ScanState> {
    match postcard::take_from_bytes::<ScanState>(bytes) {
        Ok((state, [])) => Some(state),
        _ => None,
    }
}

/// The first fields of a state from its bytes (see [`UsageView`]), the rest not read; `None`
/// when they do not decode.
pub fn decode_usage(bytes: &[u8]) -> Option<UsageView<'_>> {
    postcard::take_from_bytes::<UsageView>(bytes)
        .ok()
        .map(|(view, _)| view)
}

/// The table of a section of `records`.
fn section<'a>(home: &'a [u8], stamp: Stamp, records: &[RecordRef<'a>]) -> Section<'a> {
    Section {
        home: Bytes(home),
        stamp,
        records: records
            .iter()
            .map(|r| Record {
                path: Bytes(r.path),
                size: r.key.size,
                mtime_ms: r.key.mtime_ms,
                flags: r.key.flags(),
                id: Bytes(r.id),
                state_len: r.state.len() as u64,
                line_len: r.line.len() as u64,
            })
            .collect(),
    }
}

/// What follows a section's table: every record's state, then every line.
fn write_parts(w: &mut dyn Write, records: &[RecordRef]) -> io::Result<()> {
    for r in records {
        w.write_all(r.state)?;
    }
    for r in records {
        w.write_all(r.line)?;
    }
    Ok(())
}

/// Append a section (the table of the home, the stamp and `records`, then their states and
/// lines) to `out`.
pub(super) fn encode_section(
    mut out: Vec<u8>,
    home: &[u8],
    stamp: Stamp,
    records: &[RecordRef],
) -> Option<Vec<u8>> {
    write_section(&mut out, home, stamp, records).ok()?;
    Some(out)
}

/// Write a section, as [`encode_section`] encodes it, to `w`: only its table is made in
/// memory; the states and lines go out from the records as they are.
pub(super) fn write_section(
    w: &mut dyn Write,
    home: &[u8],
    stamp: Stamp,
    records: &[RecordRef],
) -> io::Result<()> {
    let table = postcard::to_stdvec(&section(home, stamp, records))
        .map_err(|_| io::Error::other("a cache entry cannot be encoded"))?;
    w.write_all(&table)?;
    write_parts(w, records)
}

/// A delta's bytes: the rows file it is written against, the paths gone from it, and a section
/// of the records new or changed since.
pub(super) fn encode_delta(
    base: BaseId,
    gone: &[&[u8]],
    home: &[u8],
    stamp: Stamp,
    records: &[RecordRef],
) -> Option<Vec<u8>> {
    let delta = Delta {
        base,
        gone: gone.iter().map(|g| Bytes(g)).collect(),
        section: section(home, stamp, records),
    };
    let mut out = postcard::to_stdvec(&delta).ok()?;
    write_parts(&mut out, records).ok()?;
    Some(out)
}

/// A decoded section: its home, stamp and records.
pub(super) struct DecodedSection<'a> {
    pub home: &'a [u8],
    pub stamp: Stamp,
    pub records: Vec<Decoded>,
}

/// A decoded delta: the rows file it was written against, the paths gone from it (as ranges of
/// the delta's bytes) and its section.
pub(super) struct DecodedDelta<'a> {
    pub base: BaseId,
    pub gone: Vec<Range<usize>>,
    pub section: DecodedSection<'a>,
}

/// Where a part borrowed from `bytes` lies in them, as a range.
fn place(bytes: &[u8], part: &[u8]) -> Range<usize> {
    let start = part.as_ptr() as usize - bytes.as_ptr() as usize;
    start..start + part.len()
}

/// A section from its table and `rest`, the bytes after the table (in `bytes`), which must be
/// its states and lines exactly; `None` when they are not.
fn decoded<'a>(bytes: &'a [u8], section: &Section<'a>, rest: &[u8]) -> Option<DecodedSection<'a>> {
    let at = |b: &[u8]| place(bytes, b);
    let len = |n: u64| usize::try_from(n).ok();
    // States from where the table ends, lines after the last state.
    let mut state = bytes.len() - rest.len();
    let mut line = section
        .records
        .iter()
        .try_fold(state, |end, r| end.checked_add(len(r.state_len)?))?;
    let mut records = Vec::with_capacity(section.records.len());
    for r in &section.records {
        let (state_end, line_end) = (
            state + len(r.state_len)?,
            line.checked_add(len(r.line_len)?)?,
        );
        records.push(Decoded {
            path: at(r.path.0),
            key: Key::from_parts(r.size, r.mtime_ms, r.flags),
            state: state..state_end,
            id: at(r.id.0),
            line: line..line_end,
        });
        (state, line) = (state_end, line_end);
    }
    (line == bytes.len()).then_some(DecodedSection {
        home: section.home.0,
        stamp: section.stamp,
        records,
    })
}

/// Read a section that fills `bytes` exactly, or `None` when it does not decode (the states are
/// not looked at). Ranges are relative to `bytes`.
pub(super) fn decode_section(bytes: &[u8]) -> Option<DecodedSection<'_>> {
    let (section, rest) = postcard::take_from_bytes::<Section>(bytes).ok()?;
    decoded(bytes, &section, rest)
}

/// Read a delta that fills `bytes` exactly, or `None` when it does not decode. Ranges are
/// relative to `bytes`.
pub(super) fn decode_delta(bytes: &[u8]) -> Option<DecodedDelta<'_>> {
    let (delta, rest) = postcard::take_from_bytes::<Delta>(bytes).ok()?;
    Some(DecodedDelta {
        base: delta.base,
        gone: delta.gone.iter().map(|g| place(bytes, g.0)).collect(),
        section: decoded(bytes, &delta.section, rest)?,
    })
}

#[cfg(test)]
#[path = "cache_codec_tests.rs"]
mod tests;

/// Raised whenever the body's layout (`cache_codec`), the layout of [`ScanState`] or the meaning
/// of one of its fields changes (a test on the encoded bytes of a known state fails until it
/// is). 7: the session id and output line of each record, records in path order. 8: each
/// state's changed files, tokens and models, and a flag for a state read to the end. 9: a
/// section's records as a table, their states and lines after it. 10: the stamp is one word,
/// the lines' maker's. 11: a record's key says its agent. 12: a state's automatic title and
/// what a pass over a Claude Code transcript leaves for the next. 13: a state's tokens over
/// time, its current model and its rate-limit readings. 14: a state's fields in a new order,
/// what a usage report reads first.
pub const ROWS_VERSION: u32 = 14;

/// The version word of a rows cache header: `v<ROWS_VERSION>`.
pub fn rows_version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| format!("v{ROWS_VERSION}"))
}
