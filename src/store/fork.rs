//! A session's whole history: a paginated fork starts from its parent's records before the
//! fork point (`history_base`), then goes on in its own file. This is the one place that
//! follows a fork to its parent; the row summary, the transcript, the content index and
//! `show` all take a session's history from here.
//!
//! The parent is found by id among the store's files ([`FindFile`]): a walk made already, or a
//! walk made only when a fork asks for it ([`LazyWalk`]). The parent is read with the reader's
//! ordinal bound; its own reading rules apply to its records, and the fork's to the fork's.

use std::io;
use std::path::Path;

use super::open::open_at;
use super::walk::RolloutFile;
use super::{scan_file, FileIssue, Store};
use crate::rollout::record::Meta;
use crate::rollout::rules;
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::rollout::transcript::{self, Entry, Parse, Transcript, TranscriptOptions};
use crate::session::{self, HistoryBase, SessionRow};

/// Finds the file of a session by its id.
pub trait FindFile {
    fn find(&mut self, id: &str) -> Option<RolloutFile>;
}

/// The files of a walk made already.
impl FindFile for &[RolloutFile] {
    fn find(&mut self, id: &str) -> Option<RolloutFile> {
        file_for_id(self, id).cloned()
    }
}

/// The store's files, walked the first time a fork needs them and again when a fork's parent
/// is not among them (a session created since the last walk). Sessions that are not forks
/// never cause a walk.
pub struct LazyWalk {
    store: Store,
    files: Option<Vec<RolloutFile>>,
}

impl LazyWalk {
    pub fn new(store: Store) -> Self {
        LazyWalk { store, files: None }
    }
}

impl FindFile for LazyWalk {
    fn find(&mut self, id: &str) -> Option<RolloutFile> {
        let known = self.files.as_deref().and_then(|f| file_for_id(f, id));
        if let Some(file) = known {
            return Some(file.clone());
        }
        let files = self.files.insert(self.store.files(true).0);
        file_for_id(files, id).cloned()
    }
}

/// The file of a session id among `files` (by the uuid in the file name).
fn file_for_id<'a>(files: &'a [RolloutFile], id: &str) -> Option<&'a RolloutFile> {
    files.iter().find(|f| {
        f.path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(session::uuid_from_file_name)
            == Some(id)
    })
}

/// A fork's parent, and the ordinal where the fork's view of it ends.
struct Parent {
    file: RolloutFile,
    ordinal_below: Option<u64>,
}

/// The parent of the session in the file at `path` whose metadata says `base`, when it is a
/// paginated fork and the parent is found (never the file itself).
fn parent_of(path: &Path, base: Option<&HistoryBase>, find: &mut dyn FindFile) -> Option<Parent> {
    let base = base?;
    let parent = find.find(&base.thread_id).filter(|p| p.path != path)?;
    Some(Parent {
        file: parent,
        ordinal_below: base.end_ordinal_exclusive,
    })
}

fn history_base(meta: Option<&Meta>) -> Option<&HistoryBase> {
    meta?.history_base.as_ref()
}

/// Scan a fork's parent up to the fork point.
fn scan_parent(parent: &Parent, until: Until) -> Option<ScanState> {
    let mut state = ScanState::default();
    let mut opts = ScanOptions::new(until);
    opts.ordinal_below = parent.ordinal_below;
    scan_file(&parent.file, &mut state, &opts).ok()?;
    Some(state)
}

/// Title a fork from its parent's history when it has no prompt of its own, and add the
/// inherited messages to its counts when they are known.
pub fn fill_from_parent(row: &mut SessionRow, find: &mut dyn FindFile) {
    let Some(parent) = parent_of(&row.path, row.history_base.as_ref(), find) else {
        return;
    };
    let counted = row.user_messages.is_some();
    let until = if counted {
        Until::End
    } else {
        Until::FirstPrompt
    };
    let Some(state) = scan_parent(&parent, until) else {
        return;
    };
    if row.first_user_message.is_none() {
        if let Some(first) = state.first_prompt() {
            row.preview = rules::preview_line(first);
            row.first_user_message = Some(first.to_owned());
        }
    }
    if counted {
        let (user, assistant) = state.counts();
        row.user_messages = row.user_messages.map(|n| n + user);
        row.assistant_messages = row.assistant_messages.map(|n| n + assistant);
    }
}

/// The transcript of a session, parsed as `parse` says: a paginated fork's starts with its
/// parent's history.
pub fn read_transcript(
    file: &RolloutFile,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    parse: Parse,
) -> Result<Transcript, FileIssue> {
    let issue = |e: io::Error| FileIssue {
        path: file.path.clone(),
        reason: e.to_string(),
    };
    let reader = open_at(&file.path, file.compressed, 0).map_err(issue)?;
    let mut own = transcript::read(reader, opts, parse).map_err(issue)?;
    // The fork's own records are read first: only they say whether it has a parent.
    if let Some(parent) = parent_of(&file.path, history_base(own.meta.as_ref()), find) {
        let popts = TranscriptOptions {
            ordinal_below: parent.ordinal_below,
            ..*opts
        };
        let inherited = open_at(&parent.file.path, parent.file.compressed, 0)
            .and_then(|reader| transcript::read(reader, &popts, parse));
        if let Ok(mut inherited) = inherited {
            inherited.entries.append(&mut own.entries);
            own.entries = inherited.entries;
            if opts.pair_outputs {
                // An output in the fork may answer a call in the parent's history.
                transcript::pair_outputs(&mut own.entries);
            }
        }
    }
    Ok(own)
}

/// Stream a session's transcript to `sink`, a fork's parent history first, holding one line at
/// a time. `state` is a whole pass over `file` (it says which shapes each role comes from and
/// whether the file is a fork).
pub fn stream_transcript(
    file: &RolloutFile,
    state: &ScanState,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
) -> io::Result<()> {
    if let Some(parent) = parent_of(&file.path, history_base(state.meta.as_ref()), find) {
        if let Some(pstate) = scan_parent(&parent, Until::End) {
            let popts = TranscriptOptions {
                ordinal_below: parent.ordinal_below,
                ..*opts
            };
            // A parent that cannot be opened leaves the fork's own records.
            if let Ok(reader) = open_at(&parent.file.path, parent.file.compressed, 0) {
                transcript::stream_transcript(reader, &popts, pstate.sources(), sink)?;
            }
        }
    }
    let reader = open_at(&file.path, file.compressed, 0)?;
    transcript::stream_transcript(reader, opts, state.sources(), sink).map(drop)
}
