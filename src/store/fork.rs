//! A session's whole history: a paginated fork starts from its parent's records before the
//! fork point (`history_base`), then a marker where its own part begins, then its own file.
//! This is the one place that follows a fork to its parent; the row summary, the transcript,
//! the content index and `show` all take a session's history from here. A fork is titled by
//! its own first prompt and counted by its own messages (reading-rules sections 4 and 5); only
//! a fork with no prompt of its own yet takes its title from its parent. Its tokens are what it
//! added to its parent's running total. A fork's name that is
//! only its parent's name (codex copies it when forking) is not its own.
//!
//! The parent is found by id among the store's files ([`FindFile`]): a walk made already, or a
//! walk made only when a fork asks for it ([`LazyWalk`]). The parent is read with the reader's
//! ordinal bound; its own reading rules apply to its records, and the fork's to the fork's.

use std::io;
use std::path::Path;

use super::open::open_at;
use super::walk::RolloutFile;
use super::{scan_file, FileIssue, Store};
use crate::rollout::assemble::Piece;
use crate::rollout::record::HistoryBase;
use crate::rollout::record::Meta;
use crate::rollout::rules;
use crate::rollout::summary::{ScanOptions, ScanState, Until};
use crate::rollout::transcript::{
    self, Assembled, Entry, Marker, Parse, PieceSink, Streamer, Transcript, TranscriptOptions,
};
use crate::session::{self, SessionRow};

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

/// Title a fork from its parent's history when it has no prompt of its own yet (its counts
/// stay its own), and count only the tokens it added: codex carries the parent's running total
/// on into the fork, so the parent's total at the fork point is taken off.
pub fn fill_from_parent(row: &mut SessionRow, find: &mut dyn FindFile) {
    let untitled = row.first_user_message.is_none();
    let counted = row.usage.as_ref().is_some_and(|u| u.tokens.is_some());
    if !untitled && !counted {
        return;
    }
    let Some(parent) = parent_of(&row.path, row.meta.history_base.as_ref(), find) else {
        return;
    };
    let until = if counted {
        Until::End
    } else {
        Until::FirstPrompt
    };
    let Some(state) = scan_parent(&parent, until) else {
        return;
    };
    if let Some(first) = state.first_prompt().filter(|_| untitled) {
        row.preview = rules::preview_line(first);
        row.first_user_message = Some(first.to_owned());
    }
    if let (Some(usage), Some(base)) = (row.usage.as_mut(), state.tokens) {
        usage.tokens = usage.tokens.map(|t| t.since(base));
        usage.over_time.take_base(base);
    }
}

/// The parent of a fork as a reader names it (its first prompt, else its id), when the
/// session is one.
pub fn parent_title(row: &SessionRow, find: &mut dyn FindFile) -> Option<String> {
    let meta = &row.meta;
    let base = meta.history_base.as_ref().map(|b| b.thread_id.as_str());
    let parent_id = meta.forked_from_id.as_deref().or(base)?;
    let first = parent_first_prompt(parent_id, &row.path, find);
    Some(first.unwrap_or_else(|| format!("session {parent_id}")))
}

/// The first prompt, on one line, of the parent `parent_id` of the fork in `path`, when its
/// file is found (never the fork's own) and has one.
fn parent_first_prompt(parent_id: &str, path: &Path, find: &mut dyn FindFile) -> Option<String> {
    find.find(parent_id)
        .filter(|p| p.path != path)
        .and_then(|file| {
            let mut state = ScanState::default();
            scan_file(&file, &mut state, &ScanOptions::new(Until::FirstPrompt)).ok()?;
            state.first_prompt().map(rules::preview_line)
        })
        .filter(|t| !t.is_empty())
}

/// The marker where a fork's own part begins: its parent, titled by its first prompt.
fn fork_marker(base: &HistoryBase, first_prompt: Option<&str>) -> Piece {
    let title = first_prompt
        .map(rules::preview_line)
        .filter(|t| !t.is_empty());
    Piece::entry(Entry::Marker(Marker::Forked {
        parent_id: base.thread_id.clone(),
        parent_title: title,
    }))
}

/// The transcript of a session, parsed as `parse` says: a paginated fork's starts with its
/// parent's history and a marker where its own part begins.
pub fn read_transcript(
    file: &RolloutFile,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    parse: Parse,
) -> Result<Transcript, FileIssue> {
    read_transcript_watched(file, find, opts, parse, &mut |_| true)
}

/// [`read_transcript`] of a file that may be large: `watch` is given the start of the
/// transcript ([`Transcript::partial`]) once [`transcript::WATCH_EVERY`] bytes are read or
/// before a giant line (a session that is not a fork: a fork's history starts in its parent),
/// then nothing but empty calls as more is read; when it answers `false` the read stops with
/// an [`io::ErrorKind::Interrupted`] issue.
pub fn read_transcript_watched(
    file: &RolloutFile,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    parse: Parse,
    watch: &mut dyn FnMut(Option<Transcript>) -> bool,
) -> Result<Transcript, FileIssue> {
    read_whole(file, find, opts, Read::Parsed(parse), watch)
}

/// [`read_transcript`] parsed the [`Parse::Lean`] way that also gives the row summary's whole
/// pass over the session's own file (a fork's parent is not part of it): one read of the file
/// for both.
pub fn read_transcript_summarised(
    file: &RolloutFile,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
) -> Result<(Transcript, ScanState), FileIssue> {
    let mut state = ScanState::default();
    let t = read_whole(file, find, opts, Read::Summarised(&mut state), &mut |_| {
        true
    })?;
    Ok((t, state))
}

/// `opts` for reading `file`, in its agent's way.
fn for_file(opts: &TranscriptOptions, file: &RolloutFile) -> TranscriptOptions {
    TranscriptOptions {
        source: file.source,
        off_chain: super::reader::off_chain(file),
        ..opts.clone()
    }
}

/// How a session's own file is read.
enum Read<'a> {
    Parsed(Parse),
    /// The [`Parse::Lean`] way, its summary made on the way.
    Summarised(&'a mut ScanState),
}

fn read_whole(
    file: &RolloutFile,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    read: Read<'_>,
    watch: &mut dyn FnMut(Option<Transcript>) -> bool,
) -> Result<Transcript, FileIssue> {
    let opts = &for_file(opts, file);
    let issue = |e: io::Error| FileIssue::io(&file.path, &e);
    let reader = open_at(&file.path, file.compressed, 0).map_err(issue)?;
    let mut own = Own {
        fork: Vec::new(),
        plain: Assembled::new(opts.pair_outputs),
        shown: false,
        watch,
    };
    // The fork's own records are read first: only they say whether it has a parent.
    let (parse, read) = match read {
        Read::Parsed(parse) => (parse, transcript::read_into(reader, opts, parse, &mut own)),
        Read::Summarised(state) => (
            Parse::Lean,
            transcript::read_into_summarising(reader, opts, &mut own, state),
        ),
    };
    let (meta, skipped_lines) = read.map_err(issue)?;
    let Some(base) = history_base(meta.as_ref()) else {
        let mut entries = own.plain.finish();
        title_in_file_fork(&mut entries, &file.path, find);
        return Ok(Transcript {
            meta,
            entries,
            skipped_lines,
            partial: false,
        });
    };
    let mut pieces = Vec::new();
    let mut title = None;
    if let Some(parent) = parent_of(&file.path, Some(base), find) {
        let popts = TranscriptOptions {
            ordinal_below: parent.ordinal_below,
            ..opts.clone()
        };
        let inherited = open_at(&parent.file.path, parent.file.compressed, 0)
            .and_then(|reader| transcript::read_pieces(reader, &popts, parse));
        if let Ok((_, inherited, _)) = inherited {
            let first = inherited.iter().filter_map(Piece::as_entry);
            title = first.filter(|e| e.is_prompt()).find_map(|e| match e {
                Entry::Message { text, .. } => Some(text.clone()),
                _ => None,
            });
            pieces = inherited;
        }
    }
    pieces.push(fork_marker(base, title.as_deref()));
    pieces.append(&mut own.fork);
    Ok(Transcript {
        meta,
        entries: transcript::assemble(pieces, opts.pair_outputs),
        skipped_lines,
        partial: false,
    })
}

/// A fork whose file holds its parent's part (Claude Code's) marks where its own part begins
/// without its parent's title: the parent's first prompt, when its file is found.
fn title_in_file_fork(entries: &mut [Entry], path: &Path, find: &mut dyn FindFile) {
    let marker = entries.iter_mut().find_map(|e| match e {
        Entry::Marker(Marker::Forked {
            parent_id,
            parent_title: title @ None,
        }) => Some((parent_id.clone(), title)),
        _ => None,
    });
    let Some((parent_id, title)) = marker else {
        return;
    };
    *title = parent_first_prompt(&parent_id, path, find);
}

/// Where a session's own records go: a fork's are kept to go after its parent's history;
/// another session's are assembled as they come, and its start is shown while the rest is
/// read.
struct Own<'a> {
    fork: Vec<Piece>,
    plain: Assembled,
    shown: bool,
    watch: &'a mut dyn FnMut(Option<Transcript>) -> bool,
}

impl PieceSink for Own<'_> {
    fn piece(&mut self, meta: Option<&Meta>, piece: Piece) {
        if history_base(meta).is_some() {
            self.fork.push(piece);
        } else {
            self.plain.piece(meta, piece);
        }
    }

    fn progress(&mut self, meta: Option<&Meta>, waiting: &[Piece]) -> bool {
        if self.shown || history_base(meta).is_some() {
            return (self.watch)(None);
        }
        // What is handed over so far, and the entries still held back (as they were read).
        let mut start = self.plain.so_far().to_vec();
        start.extend(waiting.iter().filter_map(Piece::as_entry).cloned());
        if start.is_empty() {
            return (self.watch)(None);
        }
        self.shown = true;
        (self.watch)(Some(Transcript {
            meta: meta.cloned(),
            entries: start,
            skipped_lines: 0,
            partial: true,
        }))
    }
}

/// Stream a session's transcript to `sink`, a fork's parent history and the fork marker
/// first, holding a bounded amount. `state` is a whole pass over `file` (it says which shapes
/// each role comes from and whether the file is a fork).
pub fn stream_transcript(
    file: &RolloutFile,
    state: &ScanState,
    find: &mut dyn FindFile,
    opts: &TranscriptOptions,
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
) -> io::Result<()> {
    let opts = &for_file(opts, file);
    let mut streamer = Streamer::new(opts.pair_outputs, sink);
    if let Some(base) = history_base(state.meta.as_ref()) {
        let mut title = None;
        let parent = parent_of(&file.path, Some(base), find);
        if let Some((parent, pstate)) = parent
            .and_then(|p| Some((scan_parent(&p, Until::End)?, p)))
            .map(|(state, parent)| (parent, state))
        {
            let popts = TranscriptOptions {
                ordinal_below: parent.ordinal_below,
                ..opts.clone()
            };
            title = pstate.first_prompt().map(str::to_owned);
            // A parent that cannot be opened leaves the fork's own records.
            if let Ok(reader) = open_at(&parent.file.path, parent.file.compressed, 0) {
                transcript::stream_pieces(reader, &popts, pstate.sources(), &mut |p| {
                    streamer.push(p)
                })?;
            }
        }
        streamer.push(fork_marker(base, title.as_deref()))?;
    }
    let reader = open_at(&file.path, file.compressed, 0)?;
    transcript::stream_pieces(reader, opts, state.sources(), &mut |p| streamer.push(p))?;
    streamer.finish()
}
