//! A whole conversation, in file order, each message once (reading-rules section 5).
//!
//! Built from the one record stream ([`super::reader`]) by the de-duplication rule of
//! [`Sources`]: each role's messages come from the `event`/`item` shapes when the file has any
//! of that role in them, else from the `response` rows (minus injected context). Tool calls,
//! their outputs and reasoning are kept with a one-line summary and what they did, for a view
//! that can show them; a whole-transcript read can attach each output to its call
//! ([`pair_outputs`]). Giant messages and tool texts are elided past a cap, or streamed out one
//! at a time, so memory stays bounded whatever a rollout holds. A fork's parent history is put
//! in front by `store::fork`.

use std::collections::HashMap;
use std::io::{self, BufRead};

use super::reader::{ReadOptions, Records, Resume};
use super::record::{Message, Meta, Record, Role, Shape, ToolCall, ToolDetail};
use super::rules::{clip, Sources};

/// One entry of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    Message {
        role: Role,
        text: String,
        shape: Shape,
        phase: Option<String>,
        /// Bytes cut from the end of a giant message (0 when whole).
        elided: u64,
    },
    /// A tool call (with its output once paired), a tool output no call claimed, or a
    /// reasoning summary.
    Tool(ToolCall),
}

impl Entry {
    pub fn is_message(&self) -> bool {
        matches!(self, Entry::Message { .. })
    }
}

/// How much of a file to keep.
#[derive(Debug, Clone, Copy)]
pub struct TranscriptOptions {
    /// Longest message text kept whole; `None` keeps every message whole.
    pub max_message_bytes: Option<usize>,
    /// Keep tool and reasoning rows.
    pub tools: bool,
    /// Longest tool output, patch or other tool text kept whole (see [`ToolCall`]); `None`
    /// keeps them whole. Matters only with `tools`.
    pub max_tool_output_bytes: Option<usize>,
    /// [`read`] attaches each tool output to the earlier call with its `call_id`
    /// ([`pair_outputs`]). Off, every output stays an entry of its own in file order, as
    /// [`stream_transcript`] gives them and `show` prints them.
    pub pair_outputs: bool,
    /// Only records with an `ordinal` below this (a fork's view of its parent).
    pub ordinal_below: Option<u64>,
}

impl Default for TranscriptOptions {
    fn default() -> Self {
        TranscriptOptions {
            max_message_bytes: None,
            tools: true,
            max_tool_output_bytes: None,
            pair_outputs: false,
            ordinal_below: None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    pub meta: Option<Meta>,
    pub entries: Vec<Entry>,
    pub skipped_lines: u32,
}

impl Transcript {
    pub fn messages(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.is_message())
    }

    /// (user, assistant) message counts.
    pub fn counts(&self) -> (u32, u32) {
        let mut counts = (0, 0);
        for entry in &self.entries {
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

/// The record stream a transcript reads.
fn records<R: BufRead>(reader: R, opts: &TranscriptOptions) -> Records<R> {
    let read = ReadOptions {
        tools: opts.tools,
        max_tool_output_bytes: opts.max_tool_output_bytes,
        ordinal_below: opts.ordinal_below,
        ..ReadOptions::default()
    };
    Records::new(reader, read, Resume::start())
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
    }
}

/// Whether a read leaves `response` rows unparsed once a role is known to come from events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parse {
    /// Every record row is parsed, so every unreadable line is counted (`show`).
    Every,
    /// `response` rows of a role taken from events are not parsed (indexing).
    Lean,
}

/// Read a whole transcript from a reader at the start of the file.
pub fn read_transcript<R: BufRead>(reader: R, opts: &TranscriptOptions) -> io::Result<Transcript> {
    read(reader, opts, Parse::Every)
}

/// [`read_transcript`] for indexing: the same entries, but `response` message rows of a role
/// met after the file's first `event`/`item` message of that role are not parsed (they are
/// dropped anyway), so `skipped_lines` may count fewer lines.
pub fn read_transcript_entries<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
) -> io::Result<Transcript> {
    read(reader, opts, Parse::Lean)
}

/// A whole transcript from a reader at the start of the file, parsed as `parse` says.
pub fn read<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    parse: Parse,
) -> io::Result<Transcript> {
    let mut records = records(reader, opts);
    let mut meta = None;
    let mut entries = Vec::new();
    let mut sources = Sources::default();
    let mut tool_bytes = 0usize;
    while let Some(record) = records.next_record()? {
        match record {
            Record::Meta(m) => meta = Some(*m),
            Record::Tool(mut call) => {
                if opts.max_tool_output_bytes.is_some() {
                    bound_tool_text(&mut call, &mut tool_bytes);
                }
                entries.push(Entry::Tool(call));
            }
            Record::Message(msg) => {
                if sources.note(&msg) {
                    // The role now comes from events: drop its `response` messages so far.
                    let role = msg.role;
                    entries.retain(|e| !is_response_of(e, role));
                    if parse == Parse::Lean {
                        records.skip_responses(role);
                    }
                }
                if sources.keeps(&msg) {
                    entries.push(message_entry(msg, opts));
                }
            }
            Record::ThreadName(_) => {}
        }
    }
    if opts.pair_outputs {
        pair_outputs(&mut entries);
    }
    Ok(Transcript {
        meta,
        entries,
        skipped_lines: records.skipped(),
    })
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
        ToolDetail::Other { arguments, .. } => cut(arguments, None),
        ToolDetail::Command { .. } | ToolDetail::Reasoning { .. } => {}
    }
}

/// Attach each tool output to the earlier call with its `call_id` (the call's
/// [`ToolCall::output`]), so the output is no longer an entry of its own. A call takes one
/// output, the first after it; an output no open call claims stays an entry
/// ([`ToolDetail::Output`]), as do outputs without a `call_id`. Running it again over entries
/// joined from two reads (a fork after its parent's history) pairs across the join.
pub fn pair_outputs(entries: &mut Vec<Entry>) {
    // The index, in `kept`, of the latest call with each id that has no output yet.
    let mut open: HashMap<String, usize> = HashMap::new();
    let mut kept = Vec::with_capacity(entries.len());
    for entry in std::mem::take(entries) {
        let Entry::Tool(call) = entry else {
            kept.push(entry);
            continue;
        };
        match (&call.detail, call.call_id.as_deref()) {
            (ToolDetail::Output(_), Some(id)) => {
                if let Some(at) = open.remove(id) {
                    if let (Entry::Tool(owner), ToolDetail::Output(out)) =
                        (&mut kept[at], call.detail)
                    {
                        owner.output = Some(out);
                    }
                    continue;
                }
            }
            (ToolDetail::Reasoning { .. } | ToolDetail::Output(_), _) => {}
            (_, Some(id)) if call.output.is_none() => {
                open.insert(id.to_owned(), kept.len());
            }
            _ => {}
        }
        kept.push(Entry::Tool(call));
    }
    *entries = kept;
}

fn is_response_of(entry: &Entry, role: Role) -> bool {
    matches!(entry, Entry::Message { shape: Shape::Response, role: r, .. } if *r == role)
}

/// Hand a transcript's entries to `sink` as they are read, never holding more than one line:
/// for a rollout of any size. `sources` (which roles the file carries in `event`/`item`
/// messages) must be known beforehand, from a first pass
/// ([`super::summary::ScanState::sources`]); the entries are then exactly those of
/// [`read_transcript`]. The returned transcript has no entries.
pub fn stream_transcript<R: BufRead>(
    reader: R,
    opts: &TranscriptOptions,
    sources: Sources,
    sink: &mut dyn FnMut(&Entry) -> io::Result<()>,
) -> io::Result<Transcript> {
    let mut records = records(reader, opts);
    let mut meta = None;
    while let Some(record) = records.next_record()? {
        match record {
            Record::Meta(m) => meta = Some(*m),
            Record::Tool(call) => sink(&Entry::Tool(call))?,
            Record::Message(msg) if sources.keeps(&msg) => sink(&message_entry(msg, opts))?,
            Record::Message(_) | Record::ThreadName(_) => {}
        }
    }
    Ok(Transcript {
        meta,
        entries: Vec::new(),
        skipped_lines: records.skipped(),
    })
}
