//! Building the content index and keeping it up to date with the store.
//!
//! Owns opening (an index that is missing, damaged, of another version, or whose session table
//! disagrees with it is started over, never trusted), the text extraction (the transcript rule
//! with tools off: every real user and assistant message, whole, each once, no tool output, no
//! injected context) with one more document of the session's labels (name, folder, branch), and
//! the incremental build: sessions whose file has the size and mtime it was indexed at, and the
//! same name, are kept, gone ones deleted, new and changed ones read again, in batches, each
//! batch committed so that searches see it while the build goes on.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::Path;
use std::sync::{Arc, RwLock};

use rayon::prelude::*;

use tantivy::{Index, IndexWriter, ReloadPolicy, TantivyDocument, Term};

use super::schema::{self, Fields, Place};
use super::table::{Session, Table};
use super::{ContentIndex, Engine};
use crate::rollout::record::Role;
use crate::rollout::transcript::{Entry, Parse, Transcript, TranscriptOptions};
use crate::store::walk::RolloutFile;

/// Sessions read between two commits.
pub(super) const BATCH: usize = 1000;
/// Memory the index writer may use for all its threads.
const WRITER_MEMORY: usize = 40 << 20;
/// The file that says which schema version the folder's index is.
const VERSION_FILE: &str = crate::store::cache::INDEX_MARK;

/// One session to index: its file, id (the row's id) and name, borrowed from the caller's
/// list of the store's files (a large store's list is not copied again for the build).
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    pub file: &'a RolloutFile,
    pub id: &'a str,
    pub name: Option<&'a str>,
}

/// What a build did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Sessions kept as indexed (file unchanged).
    pub reused: usize,
    /// Sessions read from their files.
    pub read: usize,
    /// Sessions dropped (file gone).
    pub removed: usize,
    /// Why the index on disk was started over, when it was.
    pub rebuilt: Option<String>,
    /// The index could not be updated (another process holds it, or a write failed): the
    /// reason; searches use it as it is.
    pub not_updated: Option<String>,
}

/// Targets for every session among the walked `files` (`ids` holds each one's session id,
/// `None` for a file that is not a session), named by `names` (session id to name).
pub fn targets_for<'a>(
    files: &'a [RolloutFile],
    ids: &'a [Option<String>],
    names: &'a HashMap<String, String>,
) -> Vec<Target<'a>> {
    files
        .iter()
        .zip(ids)
        .filter_map(|(file, id)| {
            let id = id.as_deref()?;
            Some(Target {
                file,
                id,
                name: names.get(id).map(String::as_str),
            })
        })
        .collect()
}

/// Read one file's messages by the transcript rule (a paginated fork includes its parent's
/// history), each with its place in the session, then its labels; none when it cannot be
/// read.
fn extract(file: &RolloutFile, files: &[RolloutFile], name: Option<&str>) -> Vec<(Place, String)> {
    let opts = TranscriptOptions::messages_only();
    match crate::store::fork::read_transcript(file, &mut { files }, &opts, Parse::Lean) {
        Ok(t) => messages(t, name),
        Err(_) => Vec::new(),
    }
}

/// A session's messages, each with its place in the session, then its labels (`name`, the
/// folder and branch of its metadata), when it has any.
pub(super) fn messages(t: Transcript, name: Option<&str>) -> Vec<(Place, String)> {
    let mut first = true;
    let meta = t.meta.as_ref();
    let label = schema::label(
        name,
        meta.and_then(|m| m.cwd.as_deref()),
        meta.and_then(|m| m.git_branch.as_deref()),
    );
    let mut out: Vec<(Place, String)> = t
        .entries
        .into_iter()
        .filter_map(|e| match e {
            Entry::Message { role, text, .. } => {
                let place = match role {
                    Role::User if first => Place::First,
                    Role::User => Place::Prompt,
                    _ => Place::Reply,
                };
                first &= role != Role::User;
                Some((place, text))
            }
            Entry::Tool(_) | Entry::Marker(_) => None,
        })
        .collect();
    if !label.is_empty() {
        out.push((Place::Label, label));
    }
    out
}

/// Why an index on disk is not used as it is (it is then started over), or cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("no index")]
    Missing,
    #[error("index version {found} (want {want})")]
    Version { found: String, want: u32 },
    #[error(transparent)]
    Table(#[from] super::table::TableError),
    #[error("damaged index: {0}")]
    Damaged(#[from] tantivy::TantivyError),
    #[error("another schema")]
    OtherSchema,
    #[error("index holds {held} messages, its table {want}")]
    Disagrees { held: u64, want: u64 },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The index in `dir` (in memory when `None`), and why it was started over when it was.
pub fn open(dir: Option<&Path>) -> Result<(ContentIndex, Option<String>), IndexError> {
    let Some(dir) = dir else {
        let (schema, fields) = schema::schema();
        return Ok((
            engine(Index::create_in_ram(schema), fields, Table::default(), None)?,
            None,
        ));
    };
    match open_existing(dir) {
        Ok(index) => Ok((index, None)),
        Err(why) => {
            let _ = std::fs::remove_dir_all(dir);
            std::fs::create_dir_all(dir)?;
            let (schema, fields) = schema::schema();
            let index = Index::create_in_dir(dir, schema)?;
            std::fs::write(dir.join(VERSION_FILE), schema::SCHEMA_VERSION.to_string())?;
            Ok((
                engine(index, fields, Table::default(), Some(dir))?,
                Some(why.to_string()),
            ))
        }
    }
}

fn open_existing(dir: &Path) -> Result<ContentIndex, IndexError> {
    let version =
        std::fs::read_to_string(dir.join(VERSION_FILE)).map_err(|_| IndexError::Missing)?;
    if version.trim() != schema::SCHEMA_VERSION.to_string() {
        return Err(IndexError::Version {
            found: version.trim().to_owned(),
            want: schema::SCHEMA_VERSION,
        });
    }
    let table = Table::load(dir)?;
    let index = Index::open_in_dir(dir)?;
    let (schema, fields) = schema::schema();
    if index.schema() != schema {
        return Err(IndexError::OtherSchema);
    }
    let opened = engine(index, fields, table, Some(dir))?;
    let e = opened.engine.as_ref().ok_or(IndexError::Missing)?;
    let (held, want) = (e.reader.searcher().num_docs(), e.table().messages());
    if held != want {
        return Err(IndexError::Disagrees { held, want });
    }
    Ok(opened)
}

/// Threads one search uses at most.
const SEARCH_THREADS: usize = 2;

fn engine(
    mut index: Index,
    fields: Fields,
    table: Table,
    dir: Option<&Path>,
) -> Result<ContentIndex, IndexError> {
    schema::register(&index);
    // A search's segments are searched on two threads when the machine has them: a query of
    // common words on a large store takes half the time to answer.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if threads > 1 {
        // Fails only when no thread can be started; the search then runs on the caller's.
        let _ = index.set_multithread_executor(SEARCH_THREADS.min(threads));
    }
    let reader = index
        .reader_builder()
        .reload_policy(ReloadPolicy::Manual)
        .try_into()?;
    Ok(ContentIndex {
        engine: Some(Arc::new(Engine {
            index,
            reader,
            fields,
            table: RwLock::new(table),
            dir: dir.map(Path::to_path_buf),
        })),
    })
}

/// What to do to bring the table to `targets`: sessions to delete and targets to read.
fn plan(table: &Table, targets: &[Target<'_>]) -> (Vec<u64>, Vec<usize>, usize) {
    // Keyed by the paths' bytes, as the table keys them.
    let wanted: foldhash::HashMap<&OsStr, usize> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| (t.file.path.as_os_str(), i))
        .collect();
    let gone = table
        .iter()
        .filter(|(_, s)| !wanted.contains_key(s.path.as_os_str()))
        .map(|(n, _)| n)
        .collect();
    let mut reused = 0;
    let mut read = Vec::new();
    for (i, t) in targets.iter().enumerate() {
        if wanted.get(t.file.path.as_os_str()) != Some(&i) {
            continue; // the same path twice: the later one counts
        }
        let same = table
            .number_of(&t.file.path)
            .and_then(|n| table.get(n))
            .is_some_and(|s| {
                s.size == t.file.size
                    && s.mtime_ms == t.file.mtime_ms
                    && s.name.as_deref() == t.name
            });
        if same {
            reused += 1;
        } else {
            read.push(i);
        }
    }
    (gone, read, reused)
}

/// Build or update the index in `dir` (in memory when `None`) for `targets`, reading on the
/// current rayon pool and writing on up to `threads` writer threads. `files` is every rollout
/// of the store (fork parents). `progress(done, total, index)` is called at the start and
/// after each committed batch, with the index searchable as far as it goes; when it returns
/// false the build stops after that batch and `None` is returned (what was committed stays).
pub fn build(
    dir: Option<&Path>,
    targets: &[Target<'_>],
    files: &[RolloutFile],
    threads: usize,
    progress: &mut dyn FnMut(usize, usize, &ContentIndex) -> bool,
) -> Option<(ContentIndex, BuildStats)> {
    let (index, rebuilt) = match open(dir) {
        Ok(opened) => opened,
        Err(why) => {
            // No folder for it: an index in memory still answers.
            let (index, _) = open(None).ok()?;
            (index, Some(why.to_string()))
        }
    };
    let e = index.engine.clone()?;
    let (gone, read, reused) = plan(&e.table(), targets);
    let mut stats = BuildStats {
        reused,
        rebuilt,
        ..BuildStats::default()
    };
    let total = targets.len();
    if !progress(reused, total, &index) {
        return None;
    }
    if gone.is_empty() && read.is_empty() {
        return Some((index, stats));
    }
    let mut writer: IndexWriter = match writer(&e.index, threads) {
        Ok(w) => w,
        Err(err) => {
            stats.not_updated = Some(err.to_string());
            return Some((index, stats));
        }
    };
    for &n in &gone {
        writer.delete_term(Term::from_field_u64(e.fields.session, n));
    }
    stats.removed = gone.len();
    if read.is_empty() {
        if let Err(err) = commit(&e, &mut writer, true, &gone, Vec::new()) {
            stats.not_updated = Some(err);
        }
        progress(total, total, &index);
        return Some((index, stats));
    }
    let mut done = reused;
    for (b, batch) in read.chunks(BATCH).enumerate() {
        let added = read_batch(&e, &writer, targets, files, batch);
        if let Err(err) = commit(&e, &mut writer, b == 0, &gone, added) {
            stats.not_updated = Some(err);
            return Some((index, stats));
        }
        stats.read += batch.len();
        done += batch.len();
        if !progress(done, total, &index) {
            return None;
        }
    }
    let _ = writer.wait_merging_threads();
    // The merges that ended since the last commit replaced segments the reader still maps and
    // that they read whole: seeing the merged ones lets those pages go (at 30,000 sessions the
    // picker's resident set otherwise kept 25-30 MB of them until a later build's first
    // commit). A failed reload leaves the searches on what they had, which is still whole.
    let _ = e.reader.reload();
    Some((index, stats))
}

/// The index writer: up to `threads` indexing threads (at most 4) sharing [`WRITER_MEMORY`],
/// and one merging thread. Merges run beside the build; one at a time keeps the segments a
/// merge reads (mapped from disk, so they count in the resident set) and its buffers to those
/// of one merge, and a machine with a few cores gains nothing from more.
pub(super) fn writer(index: &Index, threads: usize) -> tantivy::Result<IndexWriter> {
    let threads = threads.clamp(1, 4);
    let opts = tantivy::indexer::IndexWriterOptions::builder()
        .num_worker_threads(threads)
        .memory_budget_per_thread(WRITER_MEMORY / threads)
        .num_merge_threads(1)
        .build();
    index.writer_with_options(opts)
}

/// Read the targets `batch` on `threads` threads and hand their messages to `writer` (each
/// session's old messages deleted first); returns the table entries to record.
fn read_batch(
    e: &Engine,
    writer: &IndexWriter,
    targets: &[Target<'_>],
    files: &[RolloutFile],
    batch: &[usize],
) -> Vec<(u64, Session)> {
    let numbered: Vec<(usize, u64, Option<u64>)> = {
        let mut table = e
            .table
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        batch
            .iter()
            .map(|&i| {
                (
                    i,
                    table.take_number(),
                    table.number_of(&targets[i].file.path),
                )
            })
            .collect()
    };
    // On the caller's rayon pool: each session's messages go to the writer as they are read.
    numbered
        .par_iter()
        .map(|&(i, number, old)| {
            let t = &targets[i];
            if let Some(old) = old {
                writer.delete_term(Term::from_field_u64(e.fields.session, old));
            }
            let messages = extract(t.file, files, t.name);
            for (ordinal, (place, text)) in messages.iter().enumerate() {
                let doc = message_doc(&e.fields, number, ordinal, *place, text);
                // Fails only when the writer is gone; the commit then says so.
                let _ = writer.add_document(doc);
            }
            let session = Session {
                path: t.file.path.clone(),
                id: t.id.to_owned(),
                size: t.file.size,
                mtime_ms: t.file.mtime_ms,
                messages: messages.len() as u64,
                name: t.name.map(str::to_owned),
            };
            (number, session)
        })
        .collect()
}

/// The document of one message.
pub(super) fn message_doc(
    f: &Fields,
    session: u64,
    ordinal: usize,
    place: Place,
    text: &str,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_u64(f.session, session);
    doc.add_u64(f.ordinal, ordinal as u64);
    doc.add_u64(f.place, place.code());
    doc.add_text(f.text, text);
    doc
}

/// Commit what the writer holds, record `added` (and, on the first commit, the deletion of
/// `gone`) in the table, save the table, and let searches see it.
pub(super) fn commit(
    e: &Engine,
    writer: &mut IndexWriter,
    first: bool,
    gone: &[u64],
    added: Vec<(u64, Session)>,
) -> Result<(), String> {
    writer
        .commit()
        .map_err(|err| format!("commit failed: {err}"))?;
    let mut table = e
        .table
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if first {
        for &n in gone {
            table.remove(n);
        }
    }
    for (number, session) in added {
        table.insert(number, session);
    }
    if let Some(dir) = &e.dir {
        table
            .save(dir)
            .map_err(|err| format!("table not saved: {err}"))?;
    }
    drop(table);
    e.reader.reload().map_err(|err| err.to_string())
}

/// A session given as text: its id, its mtime, its messages with their places.
#[cfg(test)]
pub(crate) type TextSession<'a> = (&'a str, crate::timefmt::Millis, Vec<(Place, &'a str)>);

/// An index in memory of sessions given as texts.
#[cfg(test)]
pub(crate) fn from_texts(sessions: &[TextSession<'_>]) -> ContentIndex {
    let (index, _) = open(None).unwrap();
    let e = index.engine.clone().unwrap();
    let mut writer: IndexWriter = e.index.writer_with_num_threads(1, 20 << 20).unwrap();
    let mut added = Vec::new();
    for (id, mtime_ms, messages) in sessions {
        let number = e.table.write().unwrap().take_number();
        for (ordinal, (place, text)) in messages.iter().enumerate() {
            let doc = message_doc(&e.fields, number, ordinal, *place, text);
            writer.add_document(doc).unwrap();
        }
        let session = Session {
            path: std::path::PathBuf::from(format!("/s/{id}.jsonl")),
            id: (*id).to_owned(),
            size: 0,
            mtime_ms: *mtime_ms,
            messages: messages.len() as u64,
            name: None,
        };
        added.push((number, session));
    }
    commit(&e, &mut writer, true, &[], added).unwrap();
    index
}
