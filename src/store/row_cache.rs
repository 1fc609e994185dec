//! The rows cache of one store home as loaded: its entries in path order, each a set of byte
//! ranges of the bodies it was read from, and the rows file a delta is written against. What
//! the cache file says, read-only; loading and saving it are `cache`'s, a delta `cache_delta`'s.

use std::ops::Range;
use std::path::PathBuf;

use super::cache_codec::{self as codec, BaseId, Decoded, Key, RecordRef, Stamp};
use super::cache_envelope::MappedBody;
use super::path_bytes::path_from;
use super::walk::RolloutFile;
use crate::rollout::summary::{ScanState, UsageView};

/// The bytes a cache's entries are read from: its file mapped, or a part read into memory.
#[derive(Debug)]
pub(super) enum Body {
    Mapped(MappedBody),
    Read(Vec<u8>),
}

impl std::ops::Deref for Body {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Body::Mapped(m) => m,
            Body::Read(v) => v,
        }
    }
}

/// One cached file, its parts as byte ranges of one of the cache's bodies.
#[derive(Debug, Clone)]
pub struct Entry {
    pub(super) body: usize,
    pub(super) record: Decoded,
}

impl Entry {
    pub fn key(&self) -> Key {
        self.record.key
    }
}

/// The rows file a cache's entries were loaded from: what a delta is written against.
#[derive(Debug)]
pub(super) struct Base {
    pub(super) id: BaseId,
    /// The paths the rows file holds (ranges of body 0), in path order.
    pub(super) paths: Vec<Range<usize>>,
}

/// The rows cache of one store home as loaded: its entries in path order (as bytes), read-only.
/// A run settles the walked files against it and saves what it ends with ([`save`]).
#[derive(Debug, Default)]
pub struct RowCache {
    pub home: PathBuf,
    pub(super) stamp: Stamp,
    pub(super) bodies: Vec<Body>,
    pub(super) entries: Vec<Entry>,
    /// The rows file body 0 was loaded from whole, which a save may write a delta against.
    pub(super) base: Option<Base>,
}

impl RowCache {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry, in path order (in newest-first order for a [`RowCache::head`]).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// What the output lines were made under.
    pub fn stamp(&self) -> Stamp {
        self.stamp
    }

    /// A part of an entry's body; empty when the entry is not of this cache (its body or range
    /// is not here), so that what is read from it decodes to nothing and the file is read
    /// again, never a panic.
    fn bytes(&self, e: &Entry, part: &std::ops::Range<usize>) -> &[u8] {
        self.bodies
            .get(e.body)
            .and_then(|b| b.get(part.clone()))
            .unwrap_or_default()
    }

    pub fn path(&self, e: &Entry) -> &[u8] {
        self.bytes(e, &e.record.path)
    }

    pub fn id(&self, e: &Entry) -> &[u8] {
        self.bytes(e, &e.record.id)
    }

    /// The entry's output line, when one was kept (valid under [`RowCache::stamp`] only).
    pub fn line(&self, e: &Entry) -> Option<&[u8]> {
        Some(self.bytes(e, &e.record.line)).filter(|l| !l.is_empty())
    }

    /// An entry's state; `None` when its bytes do not decode (a cache that cannot be read is
    /// never trusted: the file is read again).
    pub fn state(&self, e: &Entry) -> Option<ScanState> {
        codec::decode_state(self.bytes(e, &e.record.state))
    }

    /// The first fields of an entry's state (see [`UsageView`]); `None` when they do not
    /// decode.
    pub fn usage(&self, e: &Entry) -> Option<UsageView<'_>> {
        codec::decode_usage(self.bytes(e, &e.record.state))
    }

    /// The file as it was when the entry was written.
    pub fn file(&self, e: &Entry) -> RolloutFile {
        let key = e.record.key;
        RolloutFile {
            path: path_from(self.path(e)),
            archived: key.archived,
            compressed: key.compressed,
            size: key.size,
            mtime_ms: key.mtime_ms,
            source: key.source,
        }
    }

    /// The entry is in the rows file this cache was loaded from, as it is there.
    pub fn in_base(&self, e: &Entry) -> bool {
        e.body == 0 && self.base.is_some()
    }

    /// The entry as a record to save again unchanged.
    pub fn record<'a>(&'a self, e: &Entry, keep_line: bool) -> RecordRef<'a> {
        RecordRef {
            path: self.path(e),
            key: e.record.key,
            state: self.bytes(e, &e.record.state),
            id: self.id(e),
            line: if keep_line {
                self.bytes(e, &e.record.line)
            } else {
                &[]
            },
        }
    }

    /// The place of `path` among the entries (as `binary_search` gives it).
    pub fn find(&self, path: &[u8]) -> Result<usize, usize> {
        self.entries.binary_search_by(|e| self.path(e).cmp(path))
    }
}
