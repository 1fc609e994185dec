//! The rows cache's delta: what changed since the rows file was written, in a small file
//! beside it (`rows-<home>.delta.cache`), so that a run which read a few sessions writes those
//! few records, not every record again.
//!
//! A delta names the rows file it was written against (its body's length and checksum) and
//! holds the paths gone from it and the records new or changed since, all of them (each save
//! writes the whole delta again, atomically). It is merged into the rows file's entries on
//! loading, and used only when it is whole (its own checksum), was written against the rows file
//! there now, for the same home and under the same stamp; otherwise it is passed over, which
//! costs the next run the reading of those few sessions and nothing else. Once a delta would be
//! more than a sixteenth of the rows file, the rows file is written whole instead and the delta
//! removed.

use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::store::cache_codec::{self as codec, rows_version, BaseId, Decoded, RecordRef, Stamp};
use crate::store::cache_envelope as envelope;
use crate::store::path_bytes::{path_bytes, path_from};
use crate::store::row_cache::{Body, Entry, RowCache};

/// The envelope kind of a delta.
const KIND: &str = "rows-delta";

/// A delta is written while it stays under this share of the rows file.
const SHARE: u64 = 16;

/// The delta file beside the rows file `path`.
pub(super) fn file(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    let stem = name.strip_suffix(".cache").unwrap_or(&name);
    path.with_file_name(format!("{stem}.delta.cache"))
}

/// A delta read and checked: its bytes, the paths gone (ranges of them) and its records.
struct Read {
    bytes: Vec<u8>,
    gone: Vec<Range<usize>>,
    records: Vec<Decoded>,
}

/// The delta beside `path`, when it is whole and was written against `base` for `rc`'s home
/// under `rc`'s stamp.
fn read(path: &Path, rc: &RowCache, base: BaseId) -> Option<Read> {
    let bytes = envelope::read_envelope(&file(path), KIND, rows_version()).ok()?;
    let delta = codec::decode_delta(&bytes)?;
    let fits = delta.base == base
        && delta.section.stamp == rc.stamp
        && path_from(delta.section.home) == rc.home
        && sorted(delta.section.records.iter().map(|r| &bytes[r.path.clone()]))
        && sorted(delta.gone.iter().map(|g| &bytes[g.clone()]));
    if !fits {
        return None;
    }
    let (gone, records) = (delta.gone, delta.section.records);
    Some(Read {
        bytes,
        gone,
        records,
    })
}

fn sorted<'a>(mut paths: impl Iterator<Item = &'a [u8]>) -> bool {
    let Some(mut last) = paths.next() else {
        return true;
    };
    paths.all(|p| std::mem::replace(&mut last, p) < p)
}

/// Merge the delta beside `path` (when there is a usable one) into the entries of `rc`, loaded
/// whole from the rows file `path`.
pub(super) fn merge(rc: &mut RowCache, path: &Path) {
    let Some(base) = rc.base.as_ref().map(|b| b.id) else {
        return;
    };
    let Some(delta) = read(path, rc, base) else {
        return;
    };
    let body = rc.bodies.len();
    rc.bodies.push(Body::Read(delta.bytes));
    let old = std::mem::take(&mut rc.entries);
    let mut merged = Vec::with_capacity(old.len() + delta.records.len());
    let mut changes = entries(body, delta.records).into_iter().peekable();
    let mut gone = delta.gone.iter().peekable();
    let gone_path = |g: &Range<usize>| &rc.bodies[body][g.clone()];
    for e in old {
        let path = rc.path(&e);
        while let Some(c) = changes.next_if(|c| rc.path(c) < path) {
            merged.push(c);
        }
        while gone.next_if(|g| gone_path(g) < path).is_some() {}
        let removed = gone.next_if(|g| gone_path(g) == path).is_some();
        match changes.next_if(|c| rc.path(c) == path) {
            Some(c) => merged.push(c),
            None if !removed => merged.push(e),
            None => {}
        }
    }
    merged.extend(changes);
    rc.entries = merged;
}

/// The newest sessions of `rc` (a first section read from the rows file `path`, whose body has
/// length and checksum `base`) with the delta beside it merged in: at most `max`, newest first.
pub(super) fn merge_head(rc: &mut RowCache, path: &Path, base: BaseId, max: usize) {
    let Some(delta) = read(path, rc, base) else {
        return;
    };
    let mut replaced: Vec<&[u8]> = delta
        .gone
        .iter()
        .chain(delta.records.iter().map(|r| &r.path))
        .map(|r| &delta.bytes[r.clone()])
        .collect();
    replaced.sort_unstable();
    let mut entries: Vec<Entry> = std::mem::take(&mut rc.entries)
        .into_iter()
        .filter(|e| replaced.binary_search(&rc.path(e)).is_err())
        .collect();
    drop(replaced);
    let body = rc.bodies.len();
    let sessions = delta.records.into_iter().filter(|r| r.key.session);
    entries.extend(entries_of(body, sessions));
    rc.bodies.push(Body::Read(delta.bytes));
    entries.sort_by(|a, b| {
        b.key()
            .mtime_ms
            .cmp(&a.key().mtime_ms)
            .then_with(|| rc.path(a).cmp(rc.path(b)))
    });
    entries.truncate(max);
    rc.entries = entries;
}

fn entries(body: usize, records: Vec<Decoded>) -> Vec<Entry> {
    entries_of(body, records.into_iter()).collect()
}

fn entries_of(body: usize, records: impl Iterator<Item = Decoded>) -> impl Iterator<Item = Entry> {
    records.map(move |record| Entry { body, record })
}

/// What a save writes as a delta: the records not in the rows file as they are, and the paths
/// of the rows file no record has.
pub(super) struct Changes<'a> {
    base: BaseId,
    records: Vec<RecordRef<'a>>,
    gone: Vec<&'a [u8]>,
}

/// The changes of `records` (in path order; `true` beside a record unchanged from the rows file
/// `rc` was loaded from) against that rows file, when they are worth a delta: `rc` has a rows
/// file, the stamp is the same, and the changes are small beside it.
pub(super) fn changes<'a>(
    rc: &'a RowCache,
    stamp: Stamp,
    records: &[(RecordRef<'a>, bool)],
) -> Option<Changes<'a>> {
    let base = rc.base.as_ref().filter(|_| stamp == rc.stamp)?;
    let most = base.id.len / SHARE;
    let changed: Vec<RecordRef> = records
        .iter()
        .filter(|(_, unchanged)| !unchanged)
        .map(|(r, _)| *r)
        .collect();
    let mut size: u64 = changed.iter().map(|r| record_size(r)).sum();
    let mut gone = Vec::new();
    let mut kept = records.iter().map(|(r, _)| r.path).peekable();
    for range in &base.paths {
        let path = &rc.bodies[0][range.clone()];
        while kept.next_if(|k| *k < path).is_some() {}
        if kept.next_if(|k| *k == path).is_none() {
            size += path.len() as u64;
            gone.push(path);
        }
        if size > most {
            return None;
        }
    }
    (size <= most).then_some(Changes {
        base: base.id,
        records: changed,
        gone,
    })
}

/// About how many bytes a record takes in a file.
pub(super) fn record_size(r: &RecordRef) -> u64 {
    (r.path.len() + r.state.len() + r.id.len() + r.line.len() + 32) as u64
}

/// Write `changes` as the delta beside the rows file `path` (not synced: a delta torn by a crash
/// fails its checksum and is passed over). The old delta is removed first: renaming over it
/// made ext4 flush the new file's data at the rename (its guard for files replaced by a rename),
/// about 10 ms of every run that changed a session. A run that finds no delta in between reads
/// those few sessions again, as for any delta passed over.
pub(super) fn write(path: &Path, home: &Path, stamp: Stamp, changes: &Changes) -> io::Result<()> {
    let body = codec::encode_delta(
        changes.base,
        &changes.gone,
        path_bytes(home),
        stamp,
        &changes.records,
    )
    .ok_or_else(|| io::Error::other("a cache entry cannot be encoded"))?;
    remove(path);
    envelope::write_envelope_unsynced(&file(path), KIND, rows_version(), |w| w.write_all(&body))
}

/// Remove the delta beside the rows file `path` (after the rows file was written whole, or before
/// a new delta is written). One that cannot be removed names the rows file it was written
/// against, and is passed over.
pub(super) fn remove(path: &Path) {
    let _ = std::fs::remove_file(file(path));
}
