//! A whole conversation, in file order, each message once (reading-rules section 5), as the
//! entries every view draws ([`Entry`]).
//!
//! Built from the one record stream ([`super::reader`]) by the de-duplication rule of
//! [`Sources`]: each role's messages come from the `event`/`item` shapes when the file has any
//! of that role in them, else from the `response` rows (minus injected context). Tool calls,
//! their outputs, reasoning and codex's turn and tool records are then assembled into entries
//! ([`super::assemble`]: each output joined to its call, how each call ended, compactions and
//! interrupted turns marked). Giant messages and tool texts are elided past a cap, or streamed
//! out a bounded amount at a time, so memory stays bounded whatever a rollout holds. A fork's
//! parent history is put in front by `store::fork`, through the same assembler
//! ([`read_pieces`], [`assemble`]).

use std::io::{self, BufRead};

use super::assemble::{Assembler, Piece};
pub use super::entry::{Entry, Marker, Trigger};
use super::event::Event;
use super::reader::{ReadOptions, Records, Resume};
use super::record::{Message, Meta, Record, Role, Shape, ToolCall, ToolDetail};
use super::rules::Sources;
use super::summary::ScanState;
use super::text::clip;
use crate::sources::claude::chain::OffChain;
use crate::sources::Source;
use std::sync::Arc;

/// How much of a file to keep.
#[derive(Debug, Clone)]
pub struct TranscriptOptions {
    /// Longest message text kept whole; `None` keeps every message whole.
    pub max_message_bytes: Option<usize>,
    /// Keep tool and reasoning rows.
    pub tools: bool,
    /// Longest tool output, patch or other tool text kept whole (see [`ToolCall`]); `None`
    /// keeps them whole. Matters only with `tools`.
    pub max_tool_output_bytes: Option<usize>,
    /// Each tool output is joined to the earlier call with its `call_id`, with how the call
    /// ended ([`super::assemble`]), as every view shows them. Off, every tool row stays an
    /// entry of its own in file order (the raw stream, for tests).
    pub pair_outputs: bool,
    /// Only records with an `ordinal` below this (a fork's view of its parent).
    pub ordinal_below: Option<u64>,
    /// The agent that wrote the file.
    pub source: Source,
    /// Rows of a Claude Code transcript's abandoned branches, left out (see
    /// `sources::claude::chain`).
    pub off_chain: Option<Arc<OffChain>>,
}

impl TranscriptOptions {
    /// Every message whole and nothing else (no tool or reasoning rows): what the content
    /// index reads of a session.
    pub fn messages_only() -> Self {
        TranscriptOptions {
            max_message_bytes: None,
            tools: false,
            max_tool_output_bytes: None,
            pair_outputs: false,
            ordinal_below: None,
            source: Source::Codex,
            off_chain: None,
        }
    }
}

impl Default for TranscriptOptions {
    fn default() -> Self {
        TranscriptOptions {
            max_message_bytes: None,
            tools: true,
            max_tool_output_bytes: None,
            pair_outputs: true,
            ordinal_below: None,
            source: Source::Codex,
            off_chain: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    pub meta: Option<Meta>,
    pub entries: Vec<Entry>,
    pub skipped_lines: u32,
    /// The start of a file still being read: the whole transcript follows.
    pub partial: bool,
}

impl Transcript {
    pub fn messages(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_message())
    }

    /// The entries of the session's own part: a fork's after its parent's history.
    pub fn own_entries(&self) -> &[Entry] {
        let fork = self
            .entries
            .iter()
            .rposition(|e| matches!(e, Entry::Marker(Marker::Forked { .. })));
        &self.entries[fork.map_or(0, |at| at + 1)..]
    }

    /// The parent of a fork, as a reader names it: its first prompt, else its id.
    pub fn fork_of(&self) -> Option<String> {
        self.entries.iter().find_map(|e| match e {
            Entry::Marker(Marker::Forked {
                parent_id,
                parent_title,
            }) => Some(
                parent_title
                    .clone()
                    .unwrap_or_else(|| format!("session {parent_id}")),
            ),
            _ => None,
        })
    }

    /// (user, assistant) counts of the session's own messages (a fork's parent history is
    /// not counted: reading-rules section 5).
    pub fn counts(&self) -> (u32, u32) {
        let mut counts = (0, 0);
        for entry in self.own_entries() {
            if let Entry::Message { role, .. } = entry {
                match role {
                    Role::User => counts.0 += 1,
                    Role::Assistant => counts.1 += 1,
                }
            }
        }
        counts
    }
}

/// What a transcript reads.
fn read_options(opts: &TranscriptOptions) -> ReadOptions {
    ReadOptions {
        tools: opts.tools,
        turns: true,
        max_tool_output_bytes: opts.max_tool_output_bytes,
        ordinal_below: opts.ordinal_below,
        source: opts.source,
        ..ReadOptions::default()
    }
}

/// The record stream a transcript reads.
fn records<R: BufRead>(reader: R, opts: &TranscriptOptions) -> Records<R> {
    let mut records = Records::new(reader, read_options(opts), Resume::start());
    if let Some(off) = &opts.off_chain {
        records.leave_out(OffChain::clone(off));
    }
    records
}

/// A message as a transcript entry, cut to `max_message_bytes`.
fn message_entry(msg: Message, opts: &TranscriptOptions) -> Entry {
    let (text, elided) = match opts.max_message_bytes {
        Some(max) if msg.text.len() > max => {
            let kept = clip(&msg.text, max).to_owned();
            let cut = (msg.text.len() - kept.len()) as u64;
            (kept, cut)
        }
        _ => (msg.text, 0),
    };
    Entry::Message {
        role: msg.role,
        text,
        shape: msg.shape,
        phase: msg.phase,
        elided,
        images: msg.images,
    }
}

/// Whether a read leaves `response` rows unparsed once a role is known to come from events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parse {
    /// Every record row is parsed, so every unreadable line is counted (`show`).
    Every,
    /// `response` rows of a role taken from events are not parsed (indexing): the same
    /// entries, as those rows are dropped anyway, but `skipped_lines` may count fewer lines.
    Lean,
}

/// Read a whole transcript from a reader at the start of the file.
pub fn read_transcript<R: BufRead>(reader: R, opts: &TranscriptOptions) -> io::Result<Transcript> {
    read(reader, opts, Parse::Every)
}

/// A whole transcript from a reader at the start of the file, parsed as `parse` says.
pub fn read<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    parse: Parse,
) -> io::Result<Transcript> {
    let mut sink = Assembled::new(opts.pair_outputs);
    let (meta, skipped_lines) = read_into(reader, opts, parse, &mut sink)?;
    Ok(Transcript {
        meta,
        entries: sink.finish(),
        skipped_lines,
        partial: false,
    })
}

/// What a transcript is made of, in file order, not yet assembled: the metadata, the messages
/// the reading rules keep, the tool rows and the events, and the lines left unread.
pub fn read_pieces<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    parse: Parse,
) -> io::Result<(Option<Meta>, Vec<Piece>, u32)> {
    struct Collected(Vec<Piece>);
    impl PieceSink for Collected {
        fn piece(&mut self, _: Option<&Meta>, piece: Piece) {
            self.0.push(piece);
        }
    }
    let mut sink = Collected(Vec::new());
    let (meta, skipped) = read_into(reader, opts, parse, &mut sink)?;
    Ok((meta, sink.0, skipped))
}

/// Where the pieces of a read go, in file order.
pub trait PieceSink {
    /// The next piece; `meta` is the file's metadata (read from its first line).
    fn piece(&mut self, meta: Option<&Meta>, piece: Piece);

    /// Another [`WATCH_EVERY`] bytes were read, or a line longer than [`WATCH_BIG_LINE`] is
    /// next: `false` stops the read (an [`io::ErrorKind::Interrupted`] error). A reader of a
    /// large file shows its start here (`waiting`: the pieces read but not yet handed over),
    /// and gives up on it when it is no longer wanted.
    fn progress(&mut self, _meta: Option<&Meta>, _waiting: &[Piece]) -> bool {
        true
    }
}

/// Pieces assembled into entries as they come ([`assemble`], piece by piece: a transcript's
/// pieces are never all held besides its entries).
pub struct Assembled {
    asm: Assembler,
    entries: Vec<Entry>,
}

impl Assembled {
    pub fn new(join: bool) -> Self {
        Assembled {
            asm: Assembler::new(join),
            entries: Vec::new(),
        }
    }

    /// The entries handed out so far (the ones still waiting are not among them).
    pub fn so_far(&self) -> &[Entry] {
        &self.entries
    }

    /// Every entry.
    pub fn finish(mut self) -> Vec<Entry> {
        let entries = &mut self.entries;
        self.asm.finish(&mut |e| entries.push(e));
        self.entries
    }
}

impl PieceSink for Assembled {
    fn piece(&mut self, _: Option<&Meta>, piece: Piece) {
        let entries = &mut self.entries;
        self.asm.push(piece, &mut |e| entries.push(e));
    }
}

/// Bytes read between two calls of [`PieceSink::progress`].
pub const WATCH_EVERY: u64 = 4 << 20;

/// A line longer than this is announced to [`PieceSink::progress`] before it is read (it takes
/// a while).
pub const WATCH_BIG_LINE: usize = 1 << 20;

/// Read a transcript's pieces into `sink`, in file order, as the reading rules keep them. A
/// role's `response` messages are dropped once the file shows an `event`/`item` message of
/// that role, so pieces are held back until both roles have shown one (the first turn, in
/// nearly every file; a file whose replies are only `response` rows is held to its end).
pub fn read_into<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    parse: Parse,
    sink: &mut dyn PieceSink,
) -> io::Result<(Option<Meta>, u32)> {
    read_pass(records(reader, opts), opts, parse, sink, None)
}

/// [`read_into`] (parsed the [`Parse::Lean`] way) that also makes `summary`, a fresh state, the
/// whole pass the row summary would make of the file ([`ScanState::note`]): its names, tokens,
/// models and changed files are read on the way (a patch's diffs skipped unless the
/// transcript keeps tools), so a reader that wants both reads the file once.
pub fn read_into_summarising<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    sink: &mut dyn PieceSink,
    summary: &mut ScanState,
) -> io::Result<(Option<Meta>, u32)> {
    let mut read = ReadOptions {
        thread_names: true,
        usage: true,
        ..read_options(opts)
    };
    if !opts.tools {
        read.max_tool_output_bytes = Some(0);
    }
    let mut records = Records::new(reader, read, Resume::start());
    if let Some(off) = &opts.off_chain {
        records.leave_out(OffChain::clone(off));
    }
    read_pass(records, opts, Parse::Lean, sink, Some(summary))
}

/// [`read_into`] over `records`, each also noted in `summary` when there is one.
fn read_pass<R: BufRead>(
    mut records: Records<R>,
    opts: &TranscriptOptions,
    parse: Parse,
    sink: &mut dyn PieceSink,
    mut summary: Option<&mut ScanState>,
) -> io::Result<(Option<Meta>, u32)> {
    let mut meta: Option<Meta> = None;
    let mut waiting: Vec<Piece> = Vec::new();
    let mut sources = Sources::default();
    let mut tool_bytes = 0usize;
    let mut watched = WATCH_EVERY;
    let stop = || io::Error::new(io::ErrorKind::Interrupted, "no longer wanted");
    loop {
        let announce = &mut || sink.progress(meta.as_ref(), &waiting);
        let Some(record) = records.next_record_with(WATCH_BIG_LINE, announce)? else {
            break;
        };
        if let Some(state) = summary.as_deref_mut() {
            // Its `response` rows are left unread below, when the transcript's rule says so.
            state.note(&record);
        }
        let piece = match record {
            Record::Meta(m) => {
                meta = Some(*m);
                None
            }
            Record::Tool(mut call) => {
                if opts.max_tool_output_bytes.is_some() {
                    bound_tool_text(&mut call, &mut tool_bytes);
                }
                Some(Piece::entry(Entry::Tool(call)))
            }
            // Read for the summary only.
            Record::Event(Event::PatchApplied { .. }) if !opts.tools => None,
            Record::Event(event) => Some(Piece::event(event)),
            Record::Message(msg) => {
                if sources.note(&msg) {
                    // The role now comes from events: drop its `response` messages so far.
                    let role = msg.role;
                    waiting.retain(|p| !is_response_of(p, role));
                    if parse == Parse::Lean {
                        records.skip_responses(role);
                    }
                }
                sources
                    .keeps(&msg)
                    .then(|| Piece::entry(message_entry(msg, opts)))
            }
            Record::OwnPart { parent_id } => Some(Piece::entry(forked(&mut meta, parent_id))),
            Record::ThreadName(_)
            | Record::Tokens(_)
            | Record::Model(_)
            | Record::Title(_)
            | Record::Fork { .. } => None,
        };
        if let Some(piece) = piece {
            waiting.push(piece);
        }
        if sources.user_events && sources.assistant_events {
            for piece in waiting.drain(..) {
                sink.piece(meta.as_ref(), piece);
            }
        }
        if records.consumed() >= watched {
            watched = records.consumed() + WATCH_EVERY;
            if !sink.progress(meta.as_ref(), &waiting) {
                return Err(stop());
            }
        }
    }
    for piece in waiting {
        sink.piece(meta.as_ref(), piece);
    }
    if let Some(state) = summary {
        state.end_pass(&mut records, 0);
    }
    Ok((meta, records.skipped()))
}

/// The entries of `pieces` (one file's, or a fork's parent history, its fork marker and its
/// own): assembled when `join`, else every piece an entry of its own.
pub fn assemble(pieces: impl IntoIterator<Item = Piece>, join: bool) -> Vec<Entry> {
    let pieces = pieces.into_iter();
    let mut entries = Vec::with_capacity(pieces.size_hint().0);
    let mut asm = Assembler::new(join);
    for piece in pieces {
        asm.push(piece, &mut |e| entries.push(e));
    }
    asm.finish(&mut |e| entries.push(e));
    entries
}

/// Tool text a capped transcript keeps in all, past which each tool text keeps only its start.
pub const TOOL_TEXT_BUDGET: usize = 8 << 20;
/// What each tool text keeps once the budget is spent: enough for a collapsed call's first lines.
pub const TOOL_TEXT_PAST_BUDGET: usize = 1 << 10;

/// Count `call`'s big texts (output, patch, arguments) against the transcript's budget; once it
/// is spent, cut them to [`TOOL_TEXT_PAST_BUDGET`] (the cut counted as elided), so a session
/// with thousands of large outputs holds a bounded amount whatever the per-output cap.
fn bound_tool_text(call: &mut ToolCall, spent: &mut usize) {
    let over = *spent > TOOL_TEXT_BUDGET;
    let mut cut = |text: &mut String, elided: Option<&mut u64>| {
        if over && text.len() > TOOL_TEXT_PAST_BUDGET {
            let kept = clip(text, TOOL_TEXT_PAST_BUDGET).len();
            let cut = (text.len() - kept) as u64;
            text.truncate(kept);
            // The allocation too, or the cut bytes stay held.
            text.shrink_to_fit();
            match elided {
                Some(e) => *e += cut,
                None => text.push('…'),
            }
        }
        *spent += text.len();
    };
    match &mut call.detail {
        ToolDetail::Output(o) => cut(&mut o.text, Some(&mut o.elided)),
        ToolDetail::Patch { patch, elided, .. } => cut(patch, Some(elided)),
        ToolDetail::Other { arguments, .. } | ToolDetail::Mcp { arguments, .. } => {
            cut(arguments, None);
        }
        _ => {}
    }
}

/// The mark where a fork's own part begins (its parent's part is in the same file); the
/// metadata names the parent.
fn forked(meta: &mut Option<Meta>, parent_id: String) -> Entry {
    if let Some(meta) = meta {
        meta.forked_from_id = Some(parent_id.clone());
    }
    Entry::Marker(Marker::Forked {
        parent_id,
        parent_title: None,
    })
}

fn is_response_of(piece: &Piece, role: Role) -> bool {
    matches!(piece.as_entry(), Some(Entry::Message { shape: Shape::Response, role: r, .. }) if *r == role)
}

/// Text a streamed transcript holds back at most while entries wait (a call for its output):
/// past it the oldest goes out as it is.
pub const STREAM_HOLD_BYTES: usize = 4 << 20;

/// Hand a transcript's pieces to `sink` as they are read, never holding more than one line:
/// for a rollout of any size. `sources` (which roles the file carries in `event`/`item`
/// messages) must be known beforehand, from a first pass
/// ([`super::summary::ScanState::sources`]); the pieces are then exactly those of
/// [`read_pieces`]. The returned transcript has no entries.
pub fn stream_pieces<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    sources: Sources,
    sink: &mut dyn FnMut(Piece) -> io::Result<()>,
) -> io::Result<Transcript> {
    let mut records = records(reader, opts);
    let mut meta = None;
    while let Some(record) = records.next_record()? {
        match record {
            Record::Meta(m) => meta = Some(*m),
            Record::Tool(call) => sink(Piece::entry(Entry::Tool(call)))?,
            Record::Event(event) => sink(Piece::event(event))?,
            Record::Message(msg) if sources.keeps(&msg) => {
                sink(Piece::entry(message_entry(msg, opts)))?;
            }
            Record::OwnPart { parent_id } => sink(Piece::entry(forked(&mut meta, parent_id)))?,
            Record::Message(_)
            | Record::ThreadName(_)
            | Record::Tokens(_)
            | Record::Model(_)
            | Record::Title(_)
            | Record::Fork { .. } => {}
        }
    }
    Ok(Transcript {
        meta,
        entries: Vec::new(),
        skipped_lines: records.skipped(),
        partial: false,
    })
}

/// Entries assembled as pieces come, handed to a writer that may fail (the first error stops
/// the writing and is returned by [`Streamer::result`]).
pub struct Streamer<'a> {
    asm: Assembler,
    sink: &'a mut dyn FnMut(&Entry) -> io::Result<()>,
    failed: Option<io::Error>,
}

impl<'a> Streamer<'a> {
    /// Entries to `sink`, joined as `join` says, holding back at most
    /// [`STREAM_HOLD_BYTES`].
    pub fn new(join: bool, sink: &'a mut dyn FnMut(&Entry) -> io::Result<()>) -> Self {
        Streamer {
            asm: Assembler::bounded(join, STREAM_HOLD_BYTES),
            sink,
            failed: None,
        }
    }

    /// Take one piece; an error of the writer so far is returned (reading can stop).
    pub fn push(&mut self, piece: Piece) -> io::Result<()> {
        let (sink, failed) = (&mut self.sink, &mut self.failed);
        self.asm
            .push(piece, &mut |e| write(&mut **sink, failed, &e));
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The end: what is held goes out.
    pub fn finish(mut self) -> io::Result<()> {
        let (sink, failed) = (&mut self.sink, &mut self.failed);
        self.asm.finish(&mut |e| write(&mut **sink, failed, &e));
        self.failed.map_or(Ok(()), Err)
    }
}

fn write(
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
    failed: &mut Option<io::Error>,
    entry: &Entry,
) {
    if failed.is_none() {
        if let Err(e) = sink(entry) {
            *failed = Some(e);
        }
    }
}

/// [`stream_pieces`] assembled: a transcript's entries to `sink` as they are final, holding a
/// bounded amount.
pub fn stream_transcript<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    sources: Sources,
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
) -> io::Result<Transcript> {
    let mut streamer = Streamer::new(opts.pair_outputs, sink);
    let t = stream_pieces(reader, opts, sources, &mut |p| streamer.push(p))?;
    streamer.finish()?;
    Ok(t)
}
