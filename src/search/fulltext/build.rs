//! The content index's folder and its writing: opening (an index that is missing, damaged, of
//! another version, or whose session table disagrees with it is started over, never trusted),
//! the documents of a session (the transcript rule with tools off: every real user and assistant
//! message, whole, each once, no tool output, no injected context, and one more document of the
//! session's labels: name, folder, branch), the writer and its commits. Which sessions are read
//! and when is the tap's (`tap`): the index is brought up to date only as a tap on the index
//! engine's whole read.

use std::path::Path;
use std::sync::{Arc, RwLock};

use tantivy::{Index, IndexWriter, ReloadPolicy, TantivyDocument};

use super::schema::{self, Fields, Place};
use super::table::{Session, Table};
use super::{ContentIndex, Engine};
use crate::rollout::record::Role;
use crate::rollout::transcript::{Entry, Transcript};

/// Sessions read between two commits.
pub(super) const BATCH: usize = 1000;
/// Memory the index writer may use for all its threads.
const WRITER_MEMORY: usize = 40 << 20;
/// The file that says which schema version the folder's index is.
const VERSION_FILE: &str = crate::store::cache::INDEX_MARK;

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
            layout: super::labels::Layout::default(),
        })),
    })
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
    let field = if place == Place::Label {
        f.label
    } else {
        f.text
    };
    doc.add_text(field, text);
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
